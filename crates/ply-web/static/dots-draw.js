// Dots and Triangles, Dots and Boxes: the pictures. The board is drawn from its view (POST
// /api/dots/board: dots, edges and cells with their coordinates), the chart from a review's margins,
// the move list from a review's grades. Nothing here asks the server or knows a rule of the game:
// dots.js says what to show.
"use strict";

const BOARD_UNIT = 100; // SVG units per edge length
const BOARD_MARGIN = 36;
const PLAYER_COLOURS = { A: COLOURS.a, B: COLOURS.b };
const CELL_TINTS = { A: "#cfe3f3", B: "#f3dcea" };
const OWNER_INK = { A: "#00507d", B: "#8a3f6a" };
// A mistake is yellow (Okabe–Ito), not the orange of "even (0)" on the board.
const VERDICT_COLOURS = { best: COLOURS.good, mistake: "#F0E442", blunder: COLOURS.bad, unknown: "#8a8a8a" };
// Borders of the verdict badges: the colour, darkened where it is too light to see on white.
const VERDICT_BORDERS = { ...VERDICT_COLOURS, mistake: "#8f8400" };
const UNDECIDED = "#8a8a8a";

// A value as people read it: +3, 0, −3 (a true minus sign).
function shown(v) {
  return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "0";
}

// An estimate as people read it: "+2 (± 1.4)", the error left out where it was not measured.
function aboutText(e) {
  return e.error === null || e.error === undefined ? shown(e.value) : `${shown(e.value)} (± ${e.error.toFixed(1)})`;
}

// What is proved of a value: {lower, upper}, from a move or report ({value} or {lower, upper}).
function rangeOf(m) {
  return m.value !== null && m.value !== undefined ? { lower: m.value, upper: m.value } : { lower: m.lower, upper: m.upper };
}

function rangeText(r) {
  return r.lower === r.upper ? shown(r.lower) : `${shown(r.lower)}..${shown(r.upper)}`;
}

// In words, for labels read aloud: "−3", "between −5 and +3".
function rangeWords(r) {
  return r.lower === r.upper ? shown(r.lower) : `between ${shown(r.lower)} and ${shown(r.upper)}`;
}

// The bounds `left` open cells allow a move completing `points` of them: from all of them to the
// other player after its points (2·points − left) to all of them (left).
function cellBounds(left, points = 0) {
  return { lower: 2 * points - left, upper: left };
}

// The open cells of a position's `owners` (a cell's owner, or null).
function openCells(owners) {
  return owners ? owners.filter((o) => o === null).length : 0;
}

// Which bound of `r` is proved alone, the other being only what the cells allow: "upper", "lower",
// or null (one value, or both bounds proved).
function loneBound(r, left, points = 0) {
  const allowed = cellBounds(left, points);
  if (r.lower === r.upper) return null;
  if (r.lower <= allowed.lower) return "upper";
  if (r.upper >= allowed.upper) return "lower";
  return null;
}

// A bound proved alone, written alone: "≤−1" for −25..−1, "≥+1" for +1..+25; else the value or the
// range. Short enough for an edge's label, and what the numbers mean.
function boundText(r, left, points = 0) {
  const lone = loneBound(r, left, points);
  return lone === "upper" ? `≤${shown(r.upper)}` : lone === "lower" ? `≥${shown(r.lower)}` : rangeText(r);
}

// boundText in words, for labels read aloud: "at most −1", "at least +1", "between −5 and +3".
function boundWords(r, left, points = 0) {
  const lone = loneBound(r, left, points);
  return lone === "upper" ? `at most ${shown(r.upper)}` : lone === "lower" ? `at least ${shown(r.lower)}` : rangeWords(r);
}

// Whether nothing is proved of a value: its bounds are all that `left` open cells allow a move
// completing `points` of them (cellBounds). Such bounds are no result: they are said "not proved
// yet", never shown as bounds.
function provesNothing(r, left, points = 0) {
  const allowed = cellBounds(left, points);
  return r.lower !== r.upper && r.lower <= allowed.lower && r.upper >= allowed.upper;
}

// Gains, even, loses — or grey while the range holds both.
function rangeColour(r) {
  if (r.lower > 0) return COLOURS.good;
  if (r.upper < 0) return COLOURS.bad;
  if (r.lower === 0 && r.upper === 0) return COLOURS.even;
  return UNDECIDED;
}

// ---------- the board ----------

// The board as SVG, scaled to its container. `pos` says what is known of the position: drawn (a Set
// of edge names), owners (per cell, or null), toMove, values (Map name → move report, or null), best
// (Set of names drawn thick), cellsLeft, marks (Map name → {player, number, latest}: the last turns),
// playable. `play(name)` is called when a free edge is clicked or pressed.
function dotsBoardSvg(board, pos, play) {
  const w = board.width * BOARD_UNIT + 2 * BOARD_MARGIN;
  const h = board.height * BOARD_UNIT + 2 * BOARD_MARGIN;
  const picture = svg("svg", {
    viewBox: `${-BOARD_MARGIN} ${-BOARD_MARGIN} ${w} ${h}`, width: "100%", "data-testid": "dots-board",
    role: "group", "aria-label": board.title, style: `max-width:${Math.round(Math.min(680, w * 1.15))}px`,
  });
  const at = new Map(board.dots.map((d) => [d.n, { x: d.x * BOARD_UNIT, y: d.y * BOARD_UNIT }]));
  drawCells(picture, board, pos, at);
  const labels = [];
  for (const e of board.edges) picture.append(edgeGroup(e, pos, at, play, labels));
  picture.append(...labels);
  // The dots and their numbers over everything else, so that no label covers them.
  for (const d of board.dots) {
    const p = at.get(d.n);
    picture.append(svg("circle", { cx: p.x, cy: p.y, r: 7, fill: "#111" }));
    picture.append(svg("text", { x: p.x + 9, y: p.y - 9, "font-size": 15, fill: "#444", class: "halo", "aria-hidden": "true" }, String(d.n)));
  }
  return picture;
}

function drawCells(picture, board, pos, at) {
  if (!pos.owners) return;
  board.cells.forEach((cell, i) => {
    const owner = pos.owners[i];
    if (!owner) return;
    const points = cell.corners.map((n) => `${at.get(n).x},${at.get(n).y}`).join(" ");
    picture.append(svg("polygon", { points, fill: CELL_TINTS[owner] }));
    picture.append(svg("text", {
      x: cell.x * BOARD_UNIT, y: cell.y * BOARD_UNIT + 8, "text-anchor": "middle", "font-size": 23,
      "font-weight": 700, fill: OWNER_INK[owner], "data-owner": owner,
    }, owner));
  });
}

// How a drawn or free edge is stroked, and what it says aloud.
function edgeLook(e, pos) {
  const mark = pos.marks.get(e.name);
  if (pos.drawn.has(e.name)) {
    const by = mark && mark.player ? `, move ${mark.number} by ${mark.player}` : mark ? `, move ${mark.number}` : "";
    return {
      stroke: mark && mark.player ? PLAYER_COLOURS[mark.player] : "#222", width: mark && mark.latest ? 10 : mark ? 8 : 6,
      dash: "", label: `edge ${e.name}, drawn${by}`,
    };
  }
  const move = pos.values ? pos.values.get(e.name) : null;
  const best = pos.best.has(e.name) ? ", a best move" : "";
  if (!move) return { stroke: "#bdbdbd", width: 4, dash: "7 8", label: `edge ${e.name}${best}` };
  const r = rangeOf(move);
  // Nothing proved: not painted as valued, marked not proved (a star when it is the best found).
  if (provesNothing(r, pos.cellsLeft, move.points)) {
    return {
      stroke: "#bdbdbd", width: pos.best.has(e.name) ? 8 : 4, dash: "7 8", unproved: true,
      label: `edge ${e.name}, not proved yet${best}${move.points ? `, completes ${move.points}` : ""}`,
    };
  }
  return {
    stroke: rangeColour(r), width: pos.best.has(e.name) ? 11 : 5, dash: r.lower === r.upper ? "" : "12 7", range: r,
    text: boundText(r, pos.cellsLeft, move.points),
    label: `edge ${e.name}, value ${boundWords(r, pos.cellsLeft, move.points)} for ${pos.toMove}${best}${move.points ? `, completes ${move.points}` : ""}`,
  };
}

function edgeGroup(e, pos, at, play, labels) {
  const p = at.get(e.a);
  const q = at.get(e.b);
  const drawn = pos.drawn.has(e.name);
  const look = edgeLook(e, pos);
  const group = svg("g", { class: "edge", "data-edge": e.name, "data-drawn": String(drawn), "aria-label": look.label });
  group.append(svg("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, stroke: look.stroke, "stroke-width": look.width, "stroke-dasharray": look.dash, "stroke-linecap": "round" }));
  // The target: a rhombus over the edge, widest at its middle, so that near a dot the nearest edge wins.
  const len = Math.hypot(q.x - p.x, q.y - p.y);
  const nx = ((q.y - p.y) / len) * 22;
  const ny = (-(q.x - p.x) / len) * 22;
  const mx = (p.x + q.x) / 2;
  const my = (p.y + q.y) / 2;
  group.append(svg("polygon", { class: "hit", points: `${p.x},${p.y} ${mx + nx},${my + ny} ${q.x},${q.y} ${mx - nx},${my - ny}`, fill: "transparent" }));
  group.append(svg("title", {}, look.label));
  const mark = pos.marks.get(e.name);
  if (drawn) {
    group.setAttribute("tabindex", "-1");
    if (mark && mark.latest) labels.push(moveBadge(mx, my, mark));
    return group;
  }
  if (look.unproved) {
    group.setAttribute("data-unproved", "true");
    if (pos.best.has(e.name)) labels.push(starLabel(mx, my));
  } else if (look.range) {
    const r = look.range;
    group.setAttribute("data-value", r.lower === r.upper ? String(r.lower) : `${r.lower}..${r.upper}`);
    labels.push(valueLabel(mx, my, look.text, r.lower !== r.upper, look.stroke, pos.best.has(e.name)));
  }
  group.setAttribute("tabindex", "0");
  group.setAttribute("role", "button");
  if (!pos.playable) group.setAttribute("aria-disabled", "true");
  group.addEventListener("click", () => play(e.name));
  group.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    play(e.name);
  });
  return group;
}

// The best move found on an edge of which nothing is proved: a star.
function starLabel(x, y) {
  return valueLabel(x, y, "★", false, UNDECIDED, true);
}

// A free edge's value, written on it (`text`): "+3", a bound "≤−1" or a range "−5..+3" (`open`:
// not one value, written smaller); a star for the best move found when nothing is proved. A best
// move's label is filled with its colour.
function valueLabel(x, y, text, open, colour, best) {
  const size = open ? 14 : 20;
  const width = Math.max(30, text.length * size * 0.58 + 10);
  const g = svg("g", { class: "value-label", "aria-hidden": "true" });
  g.append(svg("rect", { x: x - width / 2, y: y - 13, width, height: 26, rx: 7, fill: best ? colour : "#fff", stroke: colour, "stroke-width": 2.5 }));
  g.append(svg("text", { x, y: y + size * 0.36, "text-anchor": "middle", "font-size": size, "font-weight": 700, fill: best ? inkOn(colour) : "#111", class: best ? "" : "halo" }, text));
  return g;
}

// The number of a move of the last turn, on its edge, in its player's colour.
function moveBadge(x, y, mark) {
  const g = svg("g", { class: "move-badge", "aria-hidden": "true", "data-badge": String(mark.number) });
  const r = mark.number >= 100 ? 16 : 13;
  const fill = mark.player ? PLAYER_COLOURS[mark.player] : "#222222";
  g.append(svg("circle", { cx: x, cy: y, r, fill, stroke: "#fff", "stroke-width": 2.5 }));
  g.append(svg("text", { x, y: y + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: inkOn(fill) }, String(mark.number)));
  return g;
}

// ---------- the value chart ----------

// A's final margin under perfect play before each move and after the last (`margins`, null where not
// proved: a gap), the position shown (`at`) marked; `pick(k)` when the point after k moves is chosen.
function valueChartSvg(margins, at, cells, pick, estimates = []) {
  const w = 440;
  const h = 190;
  const left = 36;
  const right = 12;
  const top = 12;
  const bottom = 36;
  const n = Math.max(margins.length - 1, 1);
  const x = (i) => left + (i / n) * (w - left - right);
  const y = (v) => top + ((cells - v) / (2 * cells)) * (h - top - bottom);
  const proved = margins.filter((v) => v !== null).length;
  const chart = svg("svg", {
    viewBox: `0 0 ${w} ${h}`, width: "100%", "data-testid": "value-chart", role: "group",
    "aria-label": `Value chart: A's final margin before each move, ${proved} of ${margins.length} positions proved; each point goes to its position`,
  });
  chart.append(svg("rect", { x: left, y: top, width: w - left - right, height: (h - top - bottom) / 2, fill: "#eef5fb" }));
  chart.append(svg("rect", { x: left, y: y(0), width: w - left - right, height: (h - top - bottom) / 2, fill: "#faf0f5" }));
  chart.append(svg("line", { x1: left, y1: y(0), x2: w - right, y2: y(0), stroke: "#999" }));
  for (const [v, text] of [[cells, shown(cells)], [0, "0"], [-cells, shown(-cells)]]) {
    chart.append(svg("text", { x: left - 5, y: y(v) + 4, "font-size": 12, "text-anchor": "end" }, text));
  }
  chart.append(svg("text", { x: left + 4, y: top + 13, "font-size": 11, fill: "#00507d" }, "A ahead"));
  chart.append(svg("text", { x: left + 4, y: h - bottom - 4, "font-size": 11, fill: "#8a3f6a" }, "B ahead"));
  chart.append(svg("line", { x1: x(at), y1: top, x2: x(at), y2: h - bottom, stroke: COLOURS.best, "stroke-width": 2, "stroke-dasharray": "4 3", "data-at": String(at) }));
  const ticks = Math.max(1, Math.ceil(n / 10));
  for (let i = 0; i <= n; i += ticks) chart.append(svg("text", { x: x(i), y: h - 3, "font-size": 11, "text-anchor": "middle" }, String(i)));
  chartLines(chart, margins, x, y);
  chartLines(chart, margins.map((v, i) => (v === null ? estimates[i] ?? null : null)), x, y, true);
  // A position not proved: its estimate as a hollow point, or a "?" in a strip under the chart.
  margins.forEach((v, i) => {
    const guess = v === null ? estimates[i] ?? null : null;
    chart.append(chartPoint(v, i, x(i), v !== null ? y(v) : guess !== null ? y(guess) : h - bottom + 11, pick, guess, i === at));
  });
  return chart;
}

// The proved stretches, joined; a gap wherever a position is not proved (the estimates' stretches
// dashed and grey when `estimated`).
function chartLines(chart, margins, x, y, estimated = false) {
  let run = [];
  const style = estimated ? { stroke: UNDECIDED, "stroke-dasharray": "3 3", "data-estimated": "true" } : { stroke: "#444" };
  const flush = () => {
    if (run.length > 1) chart.append(svg("polyline", { points: run.join(" "), fill: "none", "stroke-width": 1.5, ...style }));
    run = [];
  };
  margins.forEach((v, i) => {
    if (v === null) flush();
    else run.push(`${x(i)},${y(v)}`);
  });
  flush();
}

// One position's point: a button (the one shown in the tab order; ← and → step from it).
function chartPoint(v, i, cx, cy, pick, guess = null, current = false) {
  const title = v !== null ? `after ${i} moves: A's final margin ${shown(v)}`
    : guess !== null ? `after ${i} moves: A's final margin about ${shown(guess)} (estimated, not proved)` : `after ${i} moves: not proved`;
  const g = svg("g", { class: "chart-point", "data-ply": String(i), "data-margin": v === null ? "" : String(v) });
  if (guess !== null) g.setAttribute("data-estimate", String(guess));
  g.append(svg("circle", { cx, cy, r: 12, fill: "transparent" }));
  if (v === null && guess !== null) g.append(svg("circle", { cx, cy, r: 4, fill: "#fff", stroke: UNDECIDED, "stroke-width": 1.5 }));
  else if (v === null) g.append(svg("text", { x: cx, y: cy + 5, "text-anchor": "middle", "font-size": 14, fill: UNDECIDED }, "?"));
  else g.append(svg("circle", { cx, cy, r: 4.5, fill: v > 0 ? COLOURS.a : v < 0 ? COLOURS.b : COLOURS.even, stroke: "#fff" }));
  g.append(svg("title", {}, title));
  g.setAttribute("role", "button");
  g.setAttribute("aria-label", title);
  g.setAttribute("tabindex", current ? "0" : "-1");
  g.addEventListener("click", () => pick(i));
  g.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    pick(i);
  });
  return g;
}

// ---------- the move list ----------

// A grade (from /api/dots/review) of a move made with `left` cells open, in words: the verdict with
// its loss, then the move's value and the best: {badge: "mistake −2", detail: "−5, best was −3
// (1-2)"}. Bounds as wide as the cells left are "not proved yet".
function gradeWords(g, left) {
  const best = g.best_move ? `best was ${rangeText(g.best)} (${g.best_move})` : `best is ${rangeText(g.best)}`;
  const value = rangeText(g.value);
  if (g.verdict === "best") return { badge: "best", detail: value };
  const same = g.best.lower === g.value.lower && g.best.upper === g.value.upper;
  if (g.verdict === "unknown") {
    const valueOpen = provesNothing(g.value, left, g.points);
    const bestOpen = provesNothing(g.best, left);
    if (same || (valueOpen && bestOpen)) return { badge: "not proved", detail: valueOpen ? "not proved yet" : value };
    return { badge: "not proved", detail: [valueOpen ? "not proved yet" : value, bestOpen ? "" : best].filter(Boolean).join(", ") };
  }
  const loss = g.loss !== null ? shown(-g.loss) : `≤ ${shown(-g.loss_at_least)}`;
  return { badge: `${g.verdict} ${loss}`, detail: `${value}, ${best}` };
}

function verdictBadge(g) {
  if (!g) return el("span", { class: "verdict pending", text: "…" });
  const words = gradeWords(g, 0);
  return el("span", { class: `verdict ${g.verdict}`, style: `border-color:${VERDICT_BORDERS[g.verdict]}`, "data-verdict": g.verdict },
    el("span", { class: "swatch", style: `background:${VERDICT_COLOURS[g.verdict]}` }), words.badge);
}

// `rows`: {move, player, who, points, grade, left (cells open before the move), variations} per move
// of the line; the position after `at` moves is marked; `pick(k)` goes to the position after k moves.
// Each variation — the moves played instead of a row's, [{move, path}] — is an indented row under
// it, and `pickPath(path)` goes to the position after one of its moves.
function moveListTable(rows, at, pick, pickPath) {
  const go = (k, text) => el("button", { class: "link", type: "button", text, onclick: () => pick(k) });
  const start = el("tr", { "data-ply": "0", class: at === 0 ? "current" : "" },
    el("td", {}), el("td", { colspan: 3 }, go(0, "start of the game")));
  if (at === 0) start.setAttribute("aria-current", "step");
  const body = rows.map((r, i) => {
    const k = i + 1;
    const tr = el("tr", { "data-ply": String(k), class: (k === at ? "current" : "") + (k > at ? " ahead" : "") },
      el("td", { class: "small", text: String(k) }),
      el("td", { class: `player ${r.player || ""}`, text: r.player ? `${r.player}${r.who ? ` (${r.who})` : ""}` : "" }),
      el("td", {}, go(k, r.move + (r.points ? ` +${r.points}` : ""))),
      el("td", {}, verdictBadge(r.grade), r.grade ? el("span", { class: "small", text: " " + gradeWords(r.grade, r.left).detail }) : ""));
    if (k === at) tr.setAttribute("aria-current", "step");
    return [tr, ...r.variations.map((v) => variationRow(k, v, pickPath))];
  }).flat();
  return el("table", { class: "move-list", "data-testid": "move-list" },
    el("tr", {}, el("th", { text: "#" }), el("th", { text: "player" }), el("th", { text: "move" }), el("th", { text: "verdict (value for its player)" })),
    start, ...body);
}

// A variation under move k of the list: its first moves as links (at most VARIATION_SHOWN; the rest
// is on its line once one is picked).
const VARIATION_SHOWN = 10;
function variationRow(k, moves, pickPath) {
  const links = moves.slice(0, VARIATION_SHOWN).flatMap((m, j) => [j ? " " : "",
    el("button", { class: "link", type: "button", text: m.move, "aria-label": `variation move ${k + j}: ${m.move}`, onclick: () => pickPath(m.path) })]);
  const more = moves.length > VARIATION_SHOWN ? ` … (${moves.length} moves)` : "";
  return el("tr", { class: "variation", "data-variation": moves[0].path.join(" ") },
    el("td", {}), el("td", { colspan: 3 }, `${k}. (`, ...links, `${more})`));
}

// At game over: per player, moves best / mistakes / blunders / not proved, and what they lost.
function gameSummaryTable(review, who) {
  const sides = ["A", "B"].map((p) => {
    const grades = review.moves.filter((g) => g.player === p);
    const count = (v) => grades.filter((g) => g.verdict === v).length;
    const lost = grades.reduce((s, g) => s + (g.loss !== null ? g.loss : g.loss_at_least), 0);
    const sure = grades.every((g) => g.loss !== null);
    return el("tr", { "data-player": p },
      el("th", { text: `${p}${who(p) ? ` (${who(p)})` : ""}` }),
      el("td", { text: String(count("best")) }), el("td", { text: String(count("mistake")) }),
      el("td", { text: String(count("blunder")) }), el("td", { text: String(count("unknown")) }),
      el("td", { "data-lost": String(lost), text: sure ? String(lost) : `≥ ${lost}` }));
  });
  return el("table", { class: "summary-table", "data-testid": "game-summary-table" },
    el("tr", {}, el("th", { text: "" }), el("th", { text: "best" }), el("th", { text: "mistakes" }), el("th", { text: "blunders" }),
      el("th", { text: "not proved" }), el("th", { text: "value lost" })), ...sides);
}
