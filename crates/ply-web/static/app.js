// ply's page: one game at a time, every board drawn as SVG, every answer from the JSON API (the same
// reports as `ply … --json`). The position is kept in the address so that any position can be shared.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = { good: "#009E73", even: "#E69F00", bad: "#D55E00", best: "#0072B2", a: "#0072B2", b: "#CC79A7", sky: "#56B4E9" };
const main = document.getElementById("main");
const picker = document.getElementById("game");
const errorBox = document.getElementById("error");
const share = document.getElementById("share");

// ---------- helpers ----------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = false;
}

function clearError() {
  errorBox.textContent = "";
  errorBox.hidden = true;
}

// POSTs a request; returns {body, ms} or throws an Error with the server's one-line message.
async function api(path, request) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
  });
  const body = await response.json();
  if (!response.ok) {
    const e = new Error(body.error || response.statusText);
    e.status = response.status;
    throw e;
  }
  const timing = response.headers.get("server-timing") || "";
  const solve = /solve;dur=([0-9.]+)/.exec(timing);
  const table = /table;dur=([0-9.]+)/.exec(timing);
  return { body, ms: solve ? Number(solve[1]) : null, tableMs: table ? Number(table[1]) : null };
}

function setLink(params) {
  const query = new URLSearchParams(params).toString();
  const url = "/?" + query;
  share.href = url;
  history.replaceState(null, "", url);
}

function signed(v) {
  return v > 0 ? "+" + v : String(v);
}

function valueColour(v) {
  return v > 0 ? COLOURS.good : v < 0 ? COLOURS.bad : COLOURS.even;
}

function numberList(text) {
  return text.split(/[\s,]+/).filter((t) => t !== "").map(Number);
}

// The seed that breaks ties between equally good moves of the perfect player: the link's, else a new
// one (put in the link, so the game can be shared and replayed).
function seedOf(params) {
  const given = params.get("seed");
  return given !== null && /^\d+$/.test(given) ? Number(given) : Math.floor(Math.random() * 1000000);
}

let limitsCache = null;

// What the server answers (GET /api/limits), read once.
async function serverLimits() {
  if (!limitsCache) limitsCache = await (await fetch("/api/limits")).json();
  return limitsCache;
}

function panel(title, ...children) {
  return el("section", { class: "panel" }, el("h2", { text: title }), ...children);
}

// A bar chart of {label, value, text} items.
function barChart(items, { width = 440, height = 170, colour = COLOURS.sky, testid } = {}) {
  const chart = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img" });
  if (testid) chart.setAttribute("data-testid", testid);
  const top = Math.max(...items.map((i) => i.value), 1e-12);
  const band = (width - 20) / Math.max(items.length, 1);
  items.forEach((item, i) => {
    const h = (item.value / top) * (height - 45);
    const x = 10 + i * band;
    chart.append(svg("rect", { x: x + band * 0.1, y: height - 22 - h, width: band * 0.8, height: h, fill: colour }));
    chart.append(svg("title", {}, item.text || String(item.value)));
    if (items.length <= 30 || i % Math.ceil(items.length / 30) === 0) {
      chart.append(svg("text", { x: x + band / 2, y: height - 6, "text-anchor": "middle", "font-size": 11 }, item.label));
    }
  });
  return chart;
}

// ---------- dots (triangles and boxes) ----------

// Dots with their drawing positions, edges as "a-b" (1-based, a < b) and cells as lists of edges.
function dotsGeometry(game, size, rows, cols) {
  const dots = [];
  const edges = [];
  const cells = [];
  const key = (a, b) => (a < b ? `${a}-${b}` : `${b}-${a}`);
  const s = game === "triangles" ? Math.max(56, Math.min(110, 330 / size)) : Math.max(56, Math.min(100, 420 / Math.max(rows, cols)));
  if (game === "triangles") {
    const id = (r, c) => (r * (r + 1)) / 2 + c + 1;
    for (let r = 0; r <= size; r++) {
      for (let c = 0; c <= r; c++) dots.push({ n: id(r, c), x: 30 + (size / 2) * s + (c - r / 2) * s, y: 30 + r * s * 0.866 });
    }
    for (let r = 0; r < size; r++) {
      for (let c = 0; c <= r; c++) {
        edges.push(key(id(r, c), id(r + 1, c)), key(id(r, c), id(r + 1, c + 1)));
        cells.push([key(id(r, c), id(r + 1, c)), key(id(r, c), id(r + 1, c + 1)), key(id(r + 1, c), id(r + 1, c + 1))]);
        if (c < r) cells.push([key(id(r, c), id(r, c + 1)), key(id(r, c), id(r + 1, c + 1)), key(id(r, c + 1), id(r + 1, c + 1))]);
      }
      for (let c = 0; c < r; c++) edges.push(key(id(r, c), id(r, c + 1)));
    }
    for (let c = 0; c < size; c++) edges.push(key(id(size, c), id(size, c + 1)));
  } else {
    const id = (r, c) => r * (cols + 1) + c + 1;
    for (let r = 0; r <= rows; r++) for (let c = 0; c <= cols; c++) dots.push({ n: id(r, c), x: 30 + c * s, y: 30 + r * s });
    for (let r = 0; r <= rows; r++) for (let c = 0; c < cols; c++) edges.push(key(id(r, c), id(r, c + 1)));
    for (let r = 0; r < rows; r++) for (let c = 0; c <= cols; c++) edges.push(key(id(r, c), id(r + 1, c)));
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        cells.push([key(id(r, c), id(r, c + 1)), key(id(r + 1, c), id(r + 1, c + 1)), key(id(r, c), id(r + 1, c)), key(id(r, c + 1), id(r + 1, c + 1))]);
      }
    }
  }
  const at = new Map(dots.map((d) => [d.n, d]));
  const width = Math.max(...dots.map((d) => d.x)) + 30;
  const height = Math.max(...dots.map((d) => d.y)) + 30;
  return { dots, edges, cells, at, width, height };
}

// Replays the moves: who owns each cell, whose turn it is.
function replay(geometry, moves) {
  const drawn = new Set();
  const owners = new Array(geometry.cells.length).fill(null);
  let mover = "A";
  for (const m of moves) {
    drawn.add(m);
    let scored = 0;
    geometry.cells.forEach((cell, i) => {
      if (owners[i] === null && cell.includes(m) && cell.every((e) => drawn.has(e))) {
        owners[i] = mover;
        scored++;
      }
    });
    if (scored === 0) mover = mover === "A" ? "B" : "A";
  }
  return { drawn, owners, mover };
}

function dotsGame(params) {
  const game = params.get("game") === "boxes" ? "boxes" : "triangles";
  const state = {
    game,
    size: Number(params.get("size") || 3),
    rows: Number(params.get("rows") || 3),
    cols: Number(params.get("cols") || 3),
    moves: (params.get("moves") || "").split(/[\s+]+/).filter((m) => m !== ""),
    human: params.get("first") === "ply" ? "B" : "A",
    showValues: params.get("values") === "1",
    history: [],
    report: null,
    seed: seedOf(params),
    busy: false,
  };

  const sizeInputs = game === "triangles"
    ? [el("label", { text: "size " }, el("input", { type: "number", min: 1, max: 6, value: state.size, id: "size", "data-testid": "size" }))]
    : [
        el("label", { text: "rows " }, el("input", { type: "number", min: 1, max: 7, value: state.rows, id: "rows" })),
        el("label", { text: "cols " }, el("input", { type: "number", min: 1, max: 7, value: state.cols, id: "cols" })),
      ];
  const first = el("select", { id: "first", "data-testid": "first" },
    el("option", { value: "me", text: "you move first (A)" }),
    el("option", { value: "ply", text: "ply moves first (A)" }));
  first.value = state.human === "A" ? "me" : "ply";
  const showValues = el("input", { type: "checkbox", id: "show-values", "data-testid": "show-values" });
  showValues.checked = state.showValues;
  const toMove = el("p", { class: "status", "data-testid": "to-move" });
  const summary = el("p", { "data-testid": "summary" });
  const board = el("div", { "data-testid": "board" });
  const movesTable = el("div");
  const chart = el("div");
  const strategies = el("div", { "data-testid": "strategies" });

  const newGame = el("button", { text: "New game", "data-testid": "new-game", onclick: () => {
    if (game === "triangles") state.size = Number(document.getElementById("size").value);
    else {
      state.rows = Number(document.getElementById("rows").value);
      state.cols = Number(document.getElementById("cols").value);
    }
    state.human = first.value === "ply" ? "B" : "A";
    state.moves = [];
    state.history = [];
    update();
  } });
  const undo = el("button", { text: "Undo", "data-testid": "undo", onclick: () => {
    if (state.busy) return;
    const count = state.history.pop();
    if (count === undefined) return;
    state.moves = state.moves.slice(0, count);
    update();
  } });
  showValues.addEventListener("change", () => {
    state.showValues = showValues.checked;
    draw();
    link();
  });

  main.replaceChildren(
    panel(game === "triangles" ? "Dots and Triangles" : "Dots and Boxes",
      el("div", { class: "controls" }, ...sizeInputs, first, newGame, undo,
        el("label", {}, showValues, " Show values")),
      toMove, board, summary,
      el("div", { class: "legend small" },
        el("span", {}, el("span", { class: "swatch", style: `background:${COLOURS.good}` }), "gains (value > 0)"),
        el("span", {}, el("span", { class: "swatch", style: `background:${COLOURS.even}` }), "even (0)"),
        el("span", {}, el("span", { class: "swatch", style: `background:${COLOURS.bad}` }), "loses (value < 0)"),
        el("span", {}, "thick: a best move"))),
    el("div", { class: "side" },
      panel("Value history (final margin for A under perfect play)", chart),
      panel("Moves, best first", movesTable),
      panel("Strategies on this position (seed 004's lesson)", strategies)));

  function geometry() {
    return dotsGeometry(game, state.size, state.rows, state.cols);
  }

  function request(strategy) {
    const r = { game, moves: state.moves.join(" ") };
    if (game === "triangles") r.size = state.size;
    else Object.assign(r, { rows: state.rows, cols: state.cols });
    if (strategy) r.strategy = strategy;
    return r;
  }

  function link() {
    const p = { game };
    if (game === "triangles") p.size = state.size;
    else Object.assign(p, { rows: state.rows, cols: state.cols });
    p.moves = state.moves.join(" ");
    if (state.human === "B") p.first = "ply";
    if (state.showValues) p.values = "1";
    p.seed = state.seed;
    setLink(p);
  }

  function draw() {
    const g = geometry();
    const r = state.report;
    const values = new Map(r ? r.moves.map((m) => [m.move, m]) : []);
    const best = r && r.moves.length ? r.moves[0].value : null;
    const { drawn, owners } = replay(g, state.moves);
    const picture = svg("svg", { width: g.width, height: g.height, viewBox: `0 0 ${g.width} ${g.height}`, "data-testid": "dots-board" });
    g.cells.forEach((cell, i) => {
      if (!owners[i]) return;
      const pts = [...new Set(cell.flatMap((e) => e.split("-").map(Number)))].map((n) => g.at.get(n));
      const cx = pts.reduce((s, p) => s + p.x, 0) / pts.length;
      const cy = pts.reduce((s, p) => s + p.y, 0) / pts.length;
      const ordered = game === "boxes" ? [pts[0], pts[1], pts[3], pts[2]] : pts;
      picture.append(svg("polygon", { points: ordered.map((p) => `${p.x},${p.y}`).join(" "), fill: owners[i] === "A" ? "#cfe3f3" : "#f3dcea" }));
      picture.append(svg("text", { x: cx, y: cy + 6, "text-anchor": "middle", "font-size": 18, "font-weight": 700, fill: owners[i] === "A" ? COLOURS.a : "#8a3f6a", "data-owner": owners[i] }, owners[i]));
    });
    for (const e of g.edges) {
      const [a, b] = e.split("-").map(Number);
      const p = g.at.get(a);
      const q = g.at.get(b);
      const isDrawn = drawn.has(e);
      const group = svg("g", { class: "edge", "data-edge": e, "data-drawn": String(isDrawn) });
      const m = values.get(e);
      let colour = "#cfcfcf";
      let width = 3;
      let dash = "4 5";
      if (isDrawn) {
        colour = "#222";
        width = 5;
        dash = "";
      } else if (state.showValues && m) {
        colour = valueColour(m.value);
        width = m.value === best ? 7 : 4;
        dash = "";
        group.setAttribute("data-value", String(m.value));
      }
      group.append(svg("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, stroke: colour, "stroke-width": width, "stroke-dasharray": dash, "stroke-linecap": "round" }));
      // The click target: a band 18 pixels wide around the edge.
      const len = Math.hypot(q.x - p.x, q.y - p.y);
      const nx = ((q.y - p.y) / len) * 9;
      const ny = (-(q.x - p.x) / len) * 9;
      group.append(svg("polygon", { class: "hit", points: `${p.x + nx},${p.y + ny} ${q.x + nx},${q.y + ny} ${q.x - nx},${q.y - ny} ${p.x - nx},${p.y - ny}`, fill: "transparent" }));
      if (!isDrawn && state.showValues && m) {
        const mx = (p.x + q.x) / 2;
        const my = (p.y + q.y) / 2;
        group.append(svg("rect", { x: mx - 14, y: my - 10, width: 28, height: 19, rx: 4, fill: "#fff", stroke: colour, "stroke-width": 1.5 }));
        group.append(svg("text", { x: mx, y: my + 5, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: "#111" }, signed(m.value)));
      }
      group.append(svg("title", {}, m ? `${e}: value ${signed(m.value)} for the mover` : e));
      if (!isDrawn) group.addEventListener("click", () => humanMove(e));
      picture.append(group);
    }
    for (const d of g.dots) {
      picture.append(svg("circle", { cx: d.x, cy: d.y, r: 5, fill: "#111" }));
      picture.append(svg("text", { x: d.x + 8, y: d.y - 7, "font-size": 11, fill: "#555" }, String(d.n)));
    }
    board.replaceChildren(picture);
  }

  function drawInfo() {
    const r = state.report;
    if (!r) return;
    const over = r.moves.length === 0;
    const whose = (p) => (p === state.human ? "you" : "ply");
    toMove.textContent = over
      ? `Game over: A ${r.score.A}, B ${r.score.B}` + (r.winner === "tie" ? ": a tie." : `: ${r.winner} (${whose(r.winner)}) wins.`)
      : `${r.to_move} to move (${whose(r.to_move)}). Score: A ${r.score.A}, B ${r.score.B}.`;
    toMove.setAttribute("data-player", over ? "none" : r.to_move);
    summary.textContent = over ? "" :
      `Value ${signed(r.value)} for ${r.to_move}; with perfect play ${r.winner === "tie" ? "a tie" : r.winner + " wins"}, ${r.final_score.A}-${r.final_score.B}.`;
    const rows = r.moves.map((m) => el("tr", {},
      el("td", { text: m.move }),
      el("td", { text: signed(m.value), style: `color:${valueColour(m.value)};font-weight:700` }),
      el("td", { text: m.points ? `scores ${m.points}` : "" }),
      el("td", { class: "small", text: m.symmetric_to ? `≡ ${m.symmetric_to}` : "" })));
    movesTable.replaceChildren(r.moves.length
      ? el("table", {}, el("tr", {}, el("th", { text: "move" }), el("th", { text: "value" }), el("th", { text: "" }), el("th", { text: "" })), ...rows)
      : el("p", { text: "No moves left." }));
    drawChart();
  }

  function drawChart() {
    const points = state.chart || [];
    const w = 440, h = 170, pad = 28;
    const c = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, "data-testid": "value-chart" });
    const cells = geometry().cells.length;
    const y = (v) => h / 2 - (v / Math.max(cells, 1)) * (h / 2 - 12);
    const total = geometry().edges.length;
    const x = (i) => pad + (i / Math.max(total, 1)) * (w - pad - 10);
    c.append(svg("line", { x1: pad, y1: y(0), x2: w - 10, y2: y(0), stroke: "#999" }));
    c.append(svg("text", { x: 2, y: y(cells) + 4, "font-size": 11 }, "+" + cells));
    c.append(svg("text", { x: 2, y: y(0) + 4, "font-size": 11 }, "0"));
    c.append(svg("text", { x: 2, y: y(-cells) + 4, "font-size": 11 }, "−" + cells));
    c.append(svg("text", { x: w - 10, y: h - 2, "font-size": 11, "text-anchor": "end" }, "move"));
    if (points.length > 1) {
      c.append(svg("polyline", { points: points.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: "#444", "stroke-width": 1.5 }));
    }
    points.forEach((v, i) => c.append(svg("circle", { cx: x(i), cy: y(v), r: 4, fill: valueColour(v), "data-margin": v }, )));
    chart.replaceChildren(c, el("p", { class: "small", text: "Above 0 A wins, below 0 B wins, at 0 a tie, if both play perfectly from that move on." }));
  }

  // Only the latest run writes the panel: an earlier one, still answering for an earlier position,
  // never overwrites it.
  let strategiesRun = 0;

  async function compareStrategies() {
    const run = ++strategiesRun;
    const moves = state.moves.join(" ");
    const played = state.moves.length;
    const names = ["recursion", "memo", "table"];
    const rows = [];
    const limits = await serverLimits();
    const g = geometry();
    const free = g.edges.length - played;
    const refused = {
      recursion: free > limits.max_recursion_free && `plain recursion runs here on up to ${limits.max_recursion_free} free edges (this position has ${free})`,
      memo: free > limits.max_memo_free && `memo runs here on up to ${limits.max_memo_free} free edges (this position has ${free})`,
      table: g.edges.length > limits.max_table_edges && `tables are built here for boards of up to ${limits.max_table_edges} edges`,
    };
    for (const name of names) {
      if (refused[name]) {
        rows.push(el("tr", { "data-strategy": name }, el("td", { text: name }), el("td", { text: "—" }), el("td", { text: "" }),
          el("td", { class: "small", text: refused[name] })));
        continue;
      }
      try {
        const { body, ms, tableMs } = await api("/api/dots", { ...request(name), moves });
        const note = name === "table" && tableMs !== null ? `built once in ${tableMs.toFixed(1)} ms, shared` : "";
        rows.push(el("tr", { "data-strategy": name }, el("td", { text: name }), el("td", { "data-states": body.states_visited, text: body.states_visited.toLocaleString("en") }),
          el("td", { style: "white-space:nowrap", text: ms === null ? "" : ms.toFixed(2) + " ms" }), el("td", { class: "small", text: note })));
      } catch (e) {
        rows.push(el("tr", { "data-strategy": name }, el("td", { text: name }), el("td", { text: "—" }), el("td", { text: "" }),
          el("td", { class: "small", text: e.status === 422 ? "too slow for the server here" : e.message })));
      }
    }
    if (run !== strategiesRun) return;
    strategies.replaceChildren(el("table", { "data-moves": moves }, el("tr", {}, el("th", { text: "strategy" }), el("th", { text: "states visited" }), el("th", { text: "time" }), el("th", { text: "" })), ...rows),
      el("p", { class: "small", text: "All three give the same values. Recursion revisits positions; memo visits each reachable position once; the table holds every position of the board." }));
  }

  async function solve() {
    const { body } = await api("/api/dots", request());
    state.report = body;
    state.chart = state.chart || [];
    state.chart[state.moves.length] = body.final_margin_a;
    state.chart.length = state.moves.length + 1;
    return body;
  }

  async function update() {
    clearError();
    state.busy = true;
    try {
      state.chart = [];
      // The history chart needs the value after every move so far.
      const all = state.moves;
      for (let i = 0; i < all.length; i++) {
        const r = { ...request(), moves: all.slice(0, i).join(" ") };
        const { body } = await api("/api/dots", r);
        state.chart[i] = body.final_margin_a;
      }
      await refresh();
      await computerMoves();
    } catch (e) {
      showError(e.message);
    } finally {
      state.busy = false;
    }
    compareStrategies();
  }

  // Solves the position shown and redraws the board, its figures and the shareable link.
  async function refresh() {
    await solve();
    draw();
    drawInfo();
    link();
  }

  // The perfect player is the library's (POST /api/play/dots, the move `ply play --seed` makes): a
  // best move, or the smallest loss, ties broken by the link's seed plus the number of moves played.
  async function computerMoves() {
    while (state.report && state.report.moves.length && state.report.to_move !== state.human) {
      const { body: reply } = await api("/api/play/dots", { ...request(), seed: state.seed + state.moves.length });
      state.moves.push(reply.move);
      await refresh();
    }
  }

  async function humanMove(edge) {
    if (state.busy || !state.report || state.report.to_move !== state.human) return;
    if (!state.report.moves.some((m) => m.move === edge)) return;
    clearError();
    state.busy = true;
    try {
      state.history.push(state.moves.length);
      state.moves.push(edge);
      await refresh();
      await computerMoves();
    } catch (e) {
      state.moves.pop();
      state.history.pop();
      showError(e.message);
    } finally {
      state.busy = false;
    }
    compareStrategies();
  }

  draw();
  update();
}

// ---------- Number Solitaire ----------

function solitaireGame(params) {
  const squares = el("input", { type: "text", size: 40, id: "squares", "data-testid": "squares", value: params.get("squares") || "1,-2,0,9,-1,-2" });
  const die = el("input", { type: "number", min: 1, max: 1000000, id: "die", "data-testid": "die", value: params.get("die") || 6 });
  const result = el("p", { class: "status", "data-testid": "result" });
  const board = el("div", { "data-testid": "board" });
  const table = el("div", { "data-testid": "dp-table" });
  const distribution = el("div");
  const go = el("button", { text: "Solve", "data-testid": "solve", onclick: run });
  main.replaceChildren(
    panel("Number Solitaire",
      el("p", { class: "small", text: "Start on square 0, throw a die, move forward by the throw, add the square's number; finish exactly on the last square (choose every throw for the best total)." }),
      el("div", { class: "controls" }, el("label", { text: "squares " }, squares), el("label", { text: "die " }, die), go),
      result, board),
    el("div", { class: "side" },
      panel("The seed's table: best total reaching each square", table),
      panel("Fair throws (overshooting throws are thrown again)", distribution)));

  async function run() {
    clearError();
    const values = numberList(squares.value);
    const n = values.length;
    const request = { squares: values, die: Number(die.value) };
    if (n <= 60) Object.assign(request, { expected: true, distribution: true });
    if (n <= 40) request.explain = true;
    setLink({ game: "solitaire", squares: values.join(","), die: die.value });
    try {
      const { body } = await api("/api/solitaire", request);
      result.textContent = `Best total ${body.best}` + (body.path ? `: path ${body.path.join(" → ")} (throws ${body.throws.join(", ") || "none"})` : "");
      drawBoard(values, body);
      drawTable(body);
      drawDistribution(body);
    } catch (e) {
      showError(e.message);
    }
  }

  function drawBoard(values, r) {
    const shown = Math.min(values.length, 60);
    const cell = 46;
    const w = shown * cell + 20;
    const picture = svg("svg", { width: w, height: 110, viewBox: `0 0 ${w} 110`, "data-testid": "solitaire-board" });
    const onPath = new Set(r.path || []);
    for (let i = 0; i < shown; i++) {
      const x = 10 + i * cell;
      const inPath = onPath.has(i);
      picture.append(svg("rect", { x, y: 40, width: cell - 6, height: 40, rx: 5, fill: inPath ? COLOURS.best : "#fff", stroke: inPath ? COLOURS.best : "#999", "data-square": i, "data-path": String(inPath) }));
      picture.append(svg("text", { x: x + (cell - 6) / 2, y: 66, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: inPath ? "#fff" : "#111" }, String(values[i])));
      picture.append(svg("text", { x: x + (cell - 6) / 2, y: 96, "text-anchor": "middle", "font-size": 10, fill: "#666" }, String(i)));
    }
    const path = (r.path || []).filter((s) => s < shown);
    for (let k = 1; k < path.length; k++) {
      const x1 = 10 + path[k - 1] * cell + (cell - 6) / 2;
      const x2 = 10 + path[k] * cell + (cell - 6) / 2;
      picture.append(svg("path", { d: `M ${x1} 38 Q ${(x1 + x2) / 2} ${8} ${x2} 38`, fill: "none", stroke: COLOURS.best, "stroke-width": 2 }));
      picture.append(svg("text", { x: (x1 + x2) / 2, y: 20, "text-anchor": "middle", "font-size": 11 }, "+" + (path[k] - path[k - 1])));
    }
    board.replaceChildren(picture);
  }

  function drawTable(r) {
    if (!r.explain) {
      table.replaceChildren(el("p", { class: "small", text: "The table is shown for boards of up to 40 squares." }));
      return;
    }
    const onPath = new Set(r.path || []);
    const rows = r.explain.map((row) => el("tr", { style: onPath.has(row.square) ? `background:#dcebf7` : "" },
      el("td", { text: row.square }), el("td", { text: row.value }), el("td", { text: row.best }), el("td", { text: row.from === null ? "—" : row.from })));
    table.replaceChildren(el("table", {}, el("tr", {}, el("th", { text: "square" }), el("th", { text: "value" }), el("th", { text: "best total" }), el("th", { text: "from" })), ...rows));
  }

  function drawDistribution(r) {
    if (!r.distribution) {
      distribution.replaceChildren(el("p", { class: "small", text: "Exact for boards of up to 60 squares." }));
      return;
    }
    distribution.replaceChildren(
      el("p", {}, "Expected result ", el("span", { class: "fraction", "data-testid": "expected", text: r.expected_exact }), ` ≈ ${r.expected.toFixed(4)}`),
      barChart(r.distribution.map((d) => ({ label: String(d.result), value: d.p, text: `${d.result}: ${d.probability}` })), { testid: "distribution-chart" }));
  }

  run();
}

// ---------- Dice race ----------

function diceGame(params) {
  const first = el("input", { type: "text", id: "first", "data-testid": "first", value: params.get("first") || "5,6,7,8,9" });
  const second = el("input", { type: "text", id: "second", "data-testid": "second", value: params.get("second") || "5,6,7,8,7" });
  const dice = el("input", { type: "number", min: 1, id: "dice", value: params.get("dice") || 2 });
  const sides = el("input", { type: "number", min: 1, id: "sides", value: params.get("sides") || 6 });
  const outcome = el("div", { "data-testid": "outcome" });
  const sums = el("div");
  const race = el("div", { "data-testid": "race" });
  const unbeaten = el("div", { "data-testid": "unbeaten" });
  let current = null;
  main.replaceChildren(
    panel("Dice race",
      el("p", { class: "small", text: "Each player picks sums; the dice are rolled and each crosses off one occurrence of the sum rolled. The first to cross off everything wins; finishing on the same roll is a tie." }),
      el("div", { class: "controls" }, el("label", { text: "first " }, first), el("label", { text: "second " }, second)),
      el("div", { class: "controls" }, el("label", { text: "dice " }, dice), el("label", { text: "sides " }, sides),
        el("button", { text: "Compare", "data-testid": "compare", onclick: run })),
      outcome,
      panel("Replay: roll the dice", el("div", { class: "controls" },
        el("button", { text: "Roll", "data-testid": "roll", onclick: roll }),
        el("button", { text: "Restart", onclick: restart })), race)),
    el("div", { class: "side" },
      panel("Distribution of the sum", sums),
      panel("The unbeaten list for these dice", unbeaten)));

  function chances(r) {
    return el("table", {},
      el("tr", {}, el("td", { text: "P(first wins)" }), el("td", { class: "fraction", text: r.exact.p_first }), el("td", { text: r.p_first.toFixed(6) })),
      el("tr", {}, el("td", { text: "P(second wins)" }), el("td", { class: "fraction", text: r.exact.p_second }), el("td", { text: r.p_second.toFixed(6) })),
      el("tr", {}, el("td", { text: "P(tie)" }), el("td", { class: "fraction", text: r.exact.p_tie }), el("td", { text: r.p_tie.toFixed(6) })));
  }

  function diceRequest() {
    return { dice: Number(dice.value), sides: Number(sides.value) };
  }

  async function run() {
    clearError();
    setLink({ game: "dice-race", first: first.value, second: second.value, dice: dice.value, sides: sides.value });
    try {
      const { body } = await api("/api/dice-race/compare", { first: first.value, second: second.value, ...diceRequest() });
      outcome.replaceChildren(chances(body), el("p", { text: `Expected rolls ${body.exact.expected_rolls} ≈ ${body.expected_rolls.toFixed(3)}` }));
      const d = await api("/api/dice-race/sums", diceRequest());
      current = { distribution: d.body };
      sums.replaceChildren(barChart(d.body.map((s) => ({ label: String(s.sum), value: s.p, text: `${s.sum}: ${s.probability}` })), { testid: "sums-chart" }));
      restart();
      const picks = body.first.length;
      try {
        const b = await api("/api/dice-race/best", { picks, ...diceRequest() });
        unbeaten.replaceChildren(el("p", {}, b.body.unbeaten
          ? `With ${picks} picks no list beats ${JSON.stringify(b.body.best)} head to head` + (b.body.all_unbeaten.length > 1 ? ` (unbeaten: ${b.body.all_unbeaten.map((l) => JSON.stringify(l)).join(", ")})` : "") + "."
          : `With ${picks} picks every list is beaten by some other list; see the equilibrium.`),
          el("p", { class: "small", text: `The seed's greedy substitution gives ${JSON.stringify(b.body.greedy)} (${b.body.greedy_agrees ? "unbeaten too" : "beaten"}); ${b.body.multisets} lists searched, ${b.body.races} exact races.` }));
      } catch (e) {
        unbeaten.replaceChildren(el("p", { class: "small", text: e.message }));
      }
    } catch (e) {
      showError(e.message);
    }
  }

  function restart() {
    if (!current) return;
    current.left = [numberList(first.value), numberList(second.value)];
    current.rolls = [];
    current.over = false;
    race.replaceChildren(el("p", { class: "small", "data-placeholder": "", text: "Press Roll." }));
  }

  function rollSum() {
    const total = current.distribution.reduce((s, d) => s + d.ways, 0);
    let r = Math.floor(Math.random() * total);
    for (const d of current.distribution) {
      if (r < d.ways) return d.sum;
      r -= d.ways;
    }
    return current.distribution[current.distribution.length - 1].sum;
  }

  async function roll() {
    if (!current || current.over) return;
    clearError();
    const sum = rollSum();
    current.rolls.push(sum);
    for (const list of current.left) {
      const i = list.indexOf(sum);
      if (i >= 0) list.splice(i, 1);
    }
    const [a, b] = current.left;
    const line = el("div", { "data-testid": "roll" }, el("strong", { text: `roll ${current.rolls.length}: ${sum}` }),
      ` — first needs ${a.length ? a.join(",") : "nothing"}, second needs ${b.length ? b.join(",") : "nothing"}`);
    if (!a.length || !b.length) {
      current.over = true;
      line.append(el("p", { class: "status", text: !a.length && !b.length ? "A tie." : !a.length ? "The first list wins." : "The second list wins." }));
    } else {
      try {
        const { body } = await api("/api/dice-race/compare", { first: a, second: b, ...diceRequest() });
        line.append(chances(body));
      } catch (e) {
        showError(e.message);
      }
    }
    race.querySelector("[data-placeholder]")?.remove();
    race.prepend(line);
  }

  run();
}

// ---------- MagicBoard ----------

function magicGame(params) {
  const size = el("input", { type: "number", min: 5, max: 20, id: "size", "data-testid": "size", value: params.get("size") || 8 });
  const seed = el("input", { type: "number", min: 0, id: "seed", "data-testid": "seed", value: params.get("seed") || 1 });
  const text = el("textarea", { rows: 8, cols: 36, id: "board-text", "data-testid": "board-text" });
  const result = el("div", { "data-testid": "verdicts" });
  const board = el("div", { "data-testid": "board" });
  const step = el("input", { type: "range", min: 0, max: 0, value: 0, id: "step", "data-testid": "step" });
  const stepLabel = el("span");
  let report = null;
  let rows = null;
  main.replaceChildren(
    panel("MagicBoard",
      el("p", { class: "small", text: "From a square holding n, move exactly n squares up, down, left or right. Reach the 0 from a corner." }),
      el("div", { class: "controls" }, el("label", { text: "size " }, size), el("label", { text: "seed " }, seed),
        el("button", { text: "Generate", "data-testid": "generate", onclick: generate })),
      el("div", { class: "controls" }, text, el("button", { text: "Solve this board", "data-testid": "solve", onclick: () => solve(false) })),
      el("div", { class: "controls" }, el("label", { text: "step " }, step), stepLabel),
      board),
    el("div", { class: "side" }, panel("Shortest paths from the corners", result)));
  step.addEventListener("input", draw);

  async function generate() {
    clearError();
    try {
      const { body } = await api("/api/magic-board/generate", { size: Number(size.value), seed: Number(seed.value) });
      text.value = body.text;
      setLink({ game: "magic-board", size: size.value, seed: seed.value });
      await solve(true);
    } catch (e) {
      showError(e.message);
    }
  }

  async function solve(generated) {
    clearError();
    try {
      const { body } = await api("/api/magic-board", { board: text.value, any_size: true });
      report = body;
      rows = text.value.trim().split(/\n/).map((l) => l.trim().split(/\s+/).map(Number));
      if (!generated) setLink({ game: "magic-board", board: text.value.trim().split(/\n/).map((l) => l.trim().split(/\s+/).join(".")).join("_") });
      const longest = Math.max(0, ...report.corners.map((c) => c.moves || 0));
      step.max = longest;
      step.value = longest;
      result.replaceChildren(...report.corners.map((c, i) => el("p", { "data-corner": c.start.join(",") },
        el("span", { class: "swatch", style: `background:${CORNER_COLOURS[i]}` }),
        `(${c.start.join(",")}): ` + (c.is_goal ? "is the goal" : c.solvable ? `solvable in ${c.moves} moves: ${c.path.map((p) => `(${p.join(",")})`).join(" ")}` : "not solvable"))));
      draw();
    } catch (e) {
      showError(e.message);
    }
  }

  function draw() {
    if (!report) return;
    const d = report.d;
    const cell = Math.max(18, Math.min(64, Math.floor(560 / d)));
    const w = d * cell + 20;
    const picture = svg("svg", { width: w, height: w, viewBox: `0 0 ${w} ${w}`, "data-testid": "magic-board" });
    const k = Number(step.value);
    stepLabel.textContent = `${k} of ${step.max}`;
    for (let r = 0; r < d; r++) {
      for (let c = 0; c < d; c++) {
        const goal = r === report.goal[0] && c === report.goal[1];
        picture.append(svg("rect", { x: 10 + c * cell, y: 10 + r * cell, width: cell, height: cell, fill: goal ? "#fff3c4" : "#fff", stroke: "#bbb" }));
      }
    }
    const numbers = [];
    for (let r = 0; r < d; r++) {
      for (let c = 0; c < d; c++) {
        const goal = r === report.goal[0] && c === report.goal[1];
        // Drawn over the paths, with a white halo, so every number stays readable.
        numbers.push(svg("text", { x: 10 + c * cell + cell / 2, y: 10 + r * cell + cell / 2 + 5, "text-anchor": "middle", "font-size": Math.min(16, cell / 2.2), "font-weight": goal ? 700 : 400, stroke: "#fff", "stroke-width": 3, "paint-order": "stroke" }, String(rows[r][c])));
      }
    }
    report.corners.forEach((corner, i) => {
      if (!corner.path) return;
      const shift = (i - 1.5) * 3;
      const pts = corner.path.slice(0, k + 1).map(([r, c]) => `${10 + c * cell + cell / 2 + shift},${10 + r * cell + cell / 2 + shift}`);
      if (pts.length > 1) picture.append(svg("polyline", { points: pts.join(" "), fill: "none", stroke: CORNER_COLOURS[i], "stroke-width": 3, "stroke-opacity": 0.85, "data-path": corner.start.join(",") }));
      const [r, c] = corner.path[Math.min(k, corner.path.length - 1)];
      picture.append(svg("circle", { cx: 10 + c * cell + cell / 2 + shift, cy: 10 + r * cell + cell / 2 + shift, r: 5, fill: CORNER_COLOURS[i] }));
    });
    picture.append(...numbers);
    board.replaceChildren(picture);
  }

  const boardParam = params.get("board");
  if (boardParam) {
    text.value = boardParam.split("_").map((l) => l.split(".").join(" ")).join("\n") + "\n";
    solve(false);
  } else {
    generate();
  }
}

const CORNER_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7"];

// ---------- Lowest-heap Nim ----------

function heapsGame(params) {
  const input = el("input", { type: "text", id: "heaps", "data-testid": "heaps", value: params.get("heaps") || "3,4,5" });
  const first = el("select", { id: "first", "data-testid": "first" }, el("option", { value: "me", text: "you move first" }), el("option", { value: "ply", text: "ply moves first" }));
  first.value = params.get("first") === "ply" ? "ply" : "me";
  const verdict = el("p", { class: "status", "data-testid": "to-move" });
  const info = el("p", { "data-testid": "verdict" });
  const board = el("div", { "data-testid": "board" });
  const log = el("ol", { "data-testid": "log" });
  const state = { heaps: [], human: true, busy: false, seed: seedOf(params), moves: 0 };
  main.replaceChildren(
    panel("Lowest-heap Nim",
      el("p", { class: "small", text: "Take any number of counters from the lowest non-empty heap; whoever takes the last counter wins. Click a counter to take it and all above it." }),
      el("div", { class: "controls" }, el("label", { text: "heaps " }, input), first, el("button", { text: "Start", "data-testid": "start", onclick: start })),
      verdict, board, info),
    el("div", { class: "side" }, panel("Moves", log)));

  async function analyse(heaps) {
    return (await api("/api/heaps", { heaps })).body;
  }

  function lowest() {
    return state.heaps.findIndex((h) => h > 0);
  }

  async function start() {
    clearError();
    state.heaps = numberList(input.value);
    state.human = first.value === "me";
    state.moves = 0;
    log.replaceChildren();
    try {
      await show();
      if (!state.human) await computer();
    } catch (e) {
      showError(e.message);
    }
  }

  async function show() {
    const i = lowest();
    if (i < 0) {
      verdict.textContent = `Game over: ${state.human ? "ply" : "you"} took the last counter and won.`;
      info.textContent = "";
      draw(null);
      return;
    }
    const r = await analyse(state.heaps.slice(i));
    // The link opens this position, the same side to move.
    setLink({ game: "heaps", heaps: state.heaps.slice(i).join(","), first: state.human ? "me" : "ply", seed: state.seed });
    verdict.textContent = `${state.human ? "You" : "ply"} to move.`;
    info.textContent = r.winner === "first"
      ? `The player to move wins: take ${r.move.take} from heap ${i + 1} (remoteness ${r.remoteness}).`
      : `The player to move loses against perfect play (remoteness ${r.remoteness}: the loser delays).`;
    draw(r.move ? { heap: i, take: r.move.take } : null);
  }

  function draw(winning) {
    const n = state.heaps.length;
    const shown = state.heaps.map((h) => Math.min(h, 20));
    const top = Math.max(1, ...shown);
    const w = n * 70 + 20;
    const h = top * 22 + 50;
    const picture = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, "data-testid": "heaps-board" });
    const low = lowest();
    state.heaps.forEach((size, i) => {
      const x = 10 + i * 70 + 35;
      picture.append(svg("text", { x, y: h - 8, "text-anchor": "middle", "font-size": 12 }, `heap ${i + 1}: ${size}`));
      for (let k = 0; k < shown[i]; k++) {
        // k = 0 is the bottom counter; clicking the counter j-th from the top takes j counters.
        const fromTop = shown[i] - k;
        const take = size > 20 ? fromTop + (size - 20) : fromTop;
        const taken = winning && winning.heap === i && fromTop <= winning.take;
        const dot = svg("circle", { cx: x, cy: h - 35 - k * 22, r: 9, fill: taken ? COLOURS.best : i === low ? "#888" : "#bbb", stroke: "#333", "data-heap": i + 1, "data-take": take, "data-winning": String(Boolean(taken)) });
        if (i === low) dot.addEventListener("click", () => humanTake(take));
        dot.style.cursor = i === low ? "pointer" : "default";
        picture.append(dot);
      }
    });
    board.replaceChildren(picture);
  }

  function take(count, who) {
    const i = lowest();
    state.heaps[i] -= count;
    state.moves++;
    log.append(el("li", { text: `${who} took ${count} from heap ${i + 1}` }));
  }

  async function humanTake(count) {
    if (state.busy || !state.human || lowest() < 0) return;
    state.busy = true;
    clearError();
    try {
      take(count, "you");
      state.human = false;
      await show();
      await computer();
    } catch (e) {
      showError(e.message);
    } finally {
      state.busy = false;
    }
  }

  // The perfect player is the library's (POST /api/play/heaps, the move `ply play heaps --seed`
  // makes): the fastest win, else the longest loss, ties broken by the link's seed plus the number of
  // moves played.
  async function computer() {
    const i = lowest();
    if (i < 0) return;
    const { body: reply } = await api("/api/play/heaps", { heaps: state.heaps.slice(i), seed: state.seed + state.moves });
    take(reply.take, "ply");
    state.human = true;
    await show();
  }

  start();
}

// ---------- the picker ----------

const GAMES = { triangles: dotsGame, boxes: dotsGame, solitaire: solitaireGame, "dice-race": diceGame, "magic-board": magicGame, heaps: heapsGame };

function open(params) {
  const game = GAMES[params.get("game")] ? params.get("game") : "triangles";
  picker.value = game;
  clearError();
  GAMES[game](params);
}

picker.addEventListener("change", () => open(new URLSearchParams({ game: picker.value })));
open(new URLSearchParams(location.search));
