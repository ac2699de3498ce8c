// Dots and Triangles, Dots and Boxes: the page's parts (controls, board, status lines, move list,
// chart, strategies) and their wiring to a DotsSession (dots.js).
"use strict";

// The board picker: every board of this game the server answers (`dots_boards` of /api/limits), the
// one open chosen — or, when the open one is none of them (a link's size the server refused), the
// game's classic board, so that "New game" always names a board the server has.
function dotsSizePicker(spec) {
  const key = (b) => (b.game === "boxes" ? `${b.rows}x${b.cols}` : String(b.size));
  const name = (b) => (b.game === "boxes" ? `${b.rows}×${b.cols} boxes` : `size ${b.size}`);
  // The game's classic board: what a link naming no size opens (dotsSpec's own default).
  const classic = key(dotsSpec(new URLSearchParams({ game: spec.game })));
  const picker = el("select", { id: "board-size", "data-testid": "board-size", "aria-label": "the board" });
  serverLimits().then((limits) => {
    const boards = limits.dots_boards.filter((b) => b.game === spec.game);
    picker.replaceChildren(...boards.map((b) => el("option", { value: key(b), text: name(b) })));
    picker.value = key(spec);
    if (picker.value === "") picker.value = boards.some((b) => key(b) === classic) ? classic : key(boards[0] ?? spec);
  }, () => {}); // a failed asking is said by the session's start, which asks too
  const chosen = () => {
    // Before the list comes: the open board when the link named whole numbers, else the classic one.
    const open = key(spec);
    const value = picker.value || (/^\d+(x\d+)?$/.test(open) ? open : classic);
    if (spec.game !== "boxes") return { game: spec.game, size: Number(value) };
    const [rows, cols] = value.split("x").map(Number);
    return { game: spec.game, rows, cols };
  };
  return { picker, chosen };
}

function dotsControls(session, ui) {
  const spec = session.spec;
  const sizes = dotsSizePicker(spec);
  ui.first = el("select", { id: "first", "data-testid": "first", "aria-label": "who plays" },
    el("option", { value: "me", text: "you are A (first), ply is B" }),
    el("option", { value: "ply", text: "ply is A (first), you are B" }),
    el("option", { value: "both", text: "you play both sides (analysis)" }));
  ui.think = el("input", { type: "number", min: 0.1, max: 60, step: 0.5, id: "think", "data-testid": "think", placeholder: "3", value: session.think ?? "" });
  ui.level = el("select", { id: "level", "data-testid": "level", "aria-label": "how well ply plays" },
    ...[8, 7, 6, 5, 4, 3, 2, 1].map((n) => el("option", { value: String(n), text: n === 8 ? "level 8 (perfect)" : n === 1 ? "level 1 (weakest)" : `level ${n}` })));
  ui.level.value = String(session.level);
  ui.level.addEventListener("change", () => session.setLevel(ui.level.value));
  ui.first.addEventListener("change", () => session.setSide(ui.first.value));
  ui.think.addEventListener("change", () => session.setThink(ui.think.value));
  ui.specInputs = sizes.chosen;
  // The note under the sizes follows the inputs: the board the API builds for them, or its refusal.
  let asked = 0;
  const noteFor = async () => {
    const mine = ++asked;
    try {
      const [limits, board] = await Promise.all([serverLimits(), api("/api/dots/board", ui.specInputs())]);
      if (mine === asked) ui.sizeNote.textContent = exactNote(board.body, limits);
    } catch (e) {
      if (mine === asked) ui.sizeNote.textContent = e.message;
    }
  };
  sizes.picker.addEventListener("change", noteFor);
  return [
    el("div", { class: "controls" }, ui.first, el("label", { text: "ply plays at " }, ui.level), el("label", { text: "ply thinks " }, ui.think, " s")),
    el("p", { class: "small", "data-testid": "level-note", text: "Level 8 plays perfectly where the answer is proved, and by ply's best estimate elsewhere; levels 7 to 1 play weaker on purpose (a shallower search, a blurred estimate, more often a greedy move), so that level 1 can be beaten." }),
    el("div", { class: "controls" }, el("label", { text: "board " }, sizes.picker), el("button", { text: "New game", "data-testid": "new-game", onclick: () => session.newGame() })),
  ];
}

function dotsNavigation(session, ui) {
  const button = (text, testid, label, onclick) => el("button", { type: "button", text, "data-testid": testid, "aria-label": label, title: label, onclick });
  ui.values = el("input", { type: "checkbox", id: "show-values", "data-testid": "show-values" });
  ui.values.checked = session.showValues;
  ui.values.addEventListener("change", () => {
    session.showValues = ui.values.checked;
    session.link(false);
    session.render();
  });
  ui.nav = {
    first: button("|◀", "nav-first", "the start of the game", () => session.go(0)),
    prev: button("◀", "nav-prev", "one move back", () => session.go(session.at - 1)),
    next: button("▶", "nav-next", "one move forward", () => session.go(session.at + 1)),
    last: button("▶|", "nav-last", "the end of the line", () => session.go(session.line.length)),
    undo: button("Undo", "undo", "undo your last move", () => session.undo()),
    redo: button("Redo", "redo", "redo: forward to your next turn", () => session.redo()),
    ply: button("ply moves here", "ply-move", "let ply make the next move here", () => session.plyHere()),
    again: button("Analyse longer", "analyse-again", "analyse this position for as long as the server allows, starting from what was proved", () => {
      session.review(true);
      session.longer = true;
      session.go(session.at, null);
    }),
  };
  const row = el("div", { class: "controls", "data-controls": "" }, el("label", {}, ui.values, " Show values"),
    ui.nav.first, ui.nav.prev, ui.nav.next, ui.nav.last, ui.nav.undo, ui.nav.redo, ui.nav.ply, ui.nav.again);
  ui.keepNavFocus = keepFocusIn(row);
  return row;
}

function dotsMoveForm(session, ui) {
  const input = el("input", { type: "text", id: "move-input", "data-testid": "move-input", size: 7, placeholder: "2-5", "aria-label": "type a move, such as 2-5", autocomplete: "off" });
  const form = el("form", { class: "controls" }, el("label", { for: "move-input", text: "Move " }), input,
    el("button", { type: "submit", text: "Play", "data-testid": "play-move" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!session.board) return;
    const edge = typedEdge(session.board, input.value);
    if (!edge) {
      session.say(`No edge ${quoteText(input.value.trim())} on this board: name its two dots, such as 2-5.`);
      return;
    }
    if (session.play(edge)) input.value = "";
  });
  return form;
}

function dotsMovesPanel(session, ui) {
  const button = (text, testid, onclick) => el("button", { type: "button", text, "data-testid": testid, onclick });
  ui.moveList = el("div", { class: "scroll" });
  ui.lineNote = el("span", { class: "small", "data-testid": "line-note" });
  ui.promote = button("Make main line", "promote", () => session.promote());
  ui.deleteMove = button("Delete from here", "delete-move", () => session.deleteHere());
  // The game's moves, variations in parentheses: the box follows the game until it is edited (or an
  // export fills it); Load reads what it holds — a move list or a record.
  ui.movesText = el("textarea", { class: "record", id: "moves-text", "data-testid": "moves-text", spellcheck: "false", autocomplete: "off",
    placeholder: "4-7 8-9 (1-2) 6-9 — or paste a record", "aria-describedby": "moves-text-help" });
  ui.recordEdited = false;
  ui.movesText.addEventListener("input", () => { ui.recordEdited = true; });
  ui.command = el("code", { "data-testid": "command" });
  ui.download = el("a", { "data-testid": "download-record", hidden: "" }, "Save as a file");
  ui.showRecord = (text, kind) => {
    ui.movesText.value = text;
    ui.recordEdited = true;
    URL.revokeObjectURL(ui.download.href);
    ui.download.href = URL.createObjectURL(new Blob([text], { type: kind === "json" ? "application/json" : "text/plain" }));
    ui.download.download = `ply-${session.spec.game}.${kind === "json" ? "json" : "txt"}`;
    ui.download.hidden = false;
  };
  const copy = button("Copy", "copy-moves", async () => {
    ui.movesText.select();
    try {
      await navigator.clipboard.writeText(ui.movesText.value);
      session.say("Copied.");
    } catch (e) {
      session.say("Select the text in the box and copy it.");
    }
  });
  const lineRow = el("div", { class: "controls" }, ui.lineNote, ui.promote, ui.deleteMove);
  ui.keepLineFocus = keepFocusIn(lineRow, () => ui.moveList.querySelector('tr[aria-current="step"] button'));
  return panel("Moves", lineRow, ui.moveList,
    el("label", { for: "moves-text", class: "small", text: "The game (edit it, or paste moves or a record, then Load)" }), ui.movesText,
    el("div", { class: "controls" },
      button("Load", "import-moves", () => session.importRecord(ui.movesText.value)), copy,
      button("Export record", "export-text", () => session.exportRecord("text")),
      button("Export JSON", "export-json", () => session.exportRecord("json")), ui.download),
    el("p", { class: "small", id: "moves-text-help" }, "Moves as ", el("code", { text: "ply dots --moves" }),
      " takes them (2-5 or 2 5, separated by spaces, commas or new lines; move numbers and A/B are skipped), a variation in parentheses after the move it replaces; or a record this page exported."),
    el("p", { class: "small" }, "The position shown on the command line: ", ui.command));
}

function dotsStrategiesPanel(session, ui) {
  ui.strategies = el("div", { "data-testid": "strategies" }, el("p", { class: "small", text: "Runs when opened." }));
  const details = el("details", { class: "panel", "data-testid": "strategies-panel" },
    el("summary", { text: "Strategies on this position (the original program's lesson)" }), ui.strategies);
  details.addEventListener("toggle", () => {
    if (details.open) session.compareStrategies(session.gen);
  });
  ui.strategiesOpen = () => details.open;
  ui.showStrategies = (moves, rows) => ui.strategies.replaceChildren(
    el("table", { "data-moves": moves },
      el("tr", {}, el("th", { text: "strategy" }), el("th", { text: "states visited" }), el("th", { text: "time" }), el("th", { text: "" })), ...rows),
    el("p", { class: "small", text: `The value of this position by each of the original program's three techniques, ${DOTS_TIME.strategy} s each. Recursion revisits positions; memo visits each reachable position once; the table holds every position of the board.` }));
  return details;
}

function dotsLegend() {
  const swatch = (colour, text) => el("span", {}, el("span", { class: "swatch", style: `background:${colour}` }), text);
  return el("div", { class: "legend small" },
    swatch(COLOURS.good, "gains (value > 0)"), swatch(COLOURS.even, "even (0)"), swatch(COLOURS.bad, "loses (value < 0)"),
    swatch(UNDECIDED, "bounds: a range, or ≤ or ≥ one bound"), el("span", { text: "thin, dashed, no label: not proved yet" }),
    el("span", { text: "thick, filled: a best move (★: the best found)" }),
    swatch(COLOURS.a, "A's last turn"), swatch(COLOURS.b, "B's last turn"));
}

// Builds the page for `session`; returns its parts.
function dotsLayout(session) {
  const ui = {};
  ui.title = el("h2", { text: session.spec.game === "triangles" ? "Dots and Triangles" : "Dots and Boxes" });
  ui.sizeNote = el("p", { class: "small", "data-testid": "size-note" });
  ui.status = el("p", { class: "status", "data-testid": "to-move" });
  ui.summary = el("p", { "data-testid": "summary" });
  ui.topLines = el("ol", { class: "top-lines", "data-testid": "top-lines", "aria-labelledby": "top-lines-title" });
  ui.topLinesBox = el("div", { hidden: true }, el("p", { class: "small", id: "top-lines-title", text: "The best moves, each with its value and the line that keeps it:" }), ui.topLines);
  ui.board = el("div", { class: "dots-board", "data-testid": "board" });
  ui.lastMoves = el("div", { class: "last-moves", "data-testid": "last-moves" });
  ui.live = el("div", { class: "live small", "aria-live": "polite", "data-testid": "announce" });
  ui.chart = el("div");
  ui.gameSummary = el("div", { "data-testid": "game-summary" });
  const controls = dotsControls(session, ui);
  ui.first.value = session.side === "B" ? "ply" : session.side === "both" ? "both" : "me";
  ui.summaryPanel = panel("Game over: how each side played", ui.gameSummary);
  ui.summaryPanel.hidden = true;
  main.replaceChildren(
    el("section", { class: "panel board-panel" }, ui.title, ui.status, ui.board, dotsNavigation(session, ui),
      dotsMoveForm(session, ui), ui.summary, ui.topLinesBox, ui.lastMoves, ui.live,
      el("p", { class: "small", text: "Click an edge, or Tab to it and press Enter. ← and → step through the game; Back and Forward too." }),
      dotsLegend(),
      el("section", { class: "setup", "aria-label": "players and board" }, el("h3", { text: "Players, and a new board" }), ...controls, ui.sizeNote)),
    el("div", { class: "side" }, ui.summaryPanel, dotsMovesPanel(session, ui),
      panel("Value chart", ui.chart), dotsStrategiesPanel(session, ui)));
  ui.buttons = (s, here) => {
    const f = here.facts;
    ui.nav.first.disabled = ui.nav.prev.disabled = s.at === 0;
    ui.nav.next.disabled = ui.nav.last.disabled = s.at === s.line.length;
    ui.nav.undo.disabled = s.at === 0;
    ui.nav.redo.disabled = s.at === s.line.length;
    ui.nav.ply.disabled = !f || f.over || s.thinking;
    ui.promote.disabled = s.tree.onMainLine(s.line);
    ui.deleteMove.disabled = s.at === 0;
    ui.nav.again.hidden = !(here.analysis && !here.analysis.exact) || s.analysing;
    ui.keepNavFocus();
    ui.keepLineFocus();
  };
  return ui;
}
