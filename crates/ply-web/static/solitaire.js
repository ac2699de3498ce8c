// Number Solitaire: the best path, the original program's table and the distribution of fair throws.
"use strict";

function solitaireGame(params) {
  const squares = el("input", { type: "text", size: 30, id: "squares", "data-testid": "squares", value: params.get("squares") || "1,-2,0,9,-1,-2" });
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
      panel("The original program's table: best total reaching each square", table),
      panel("Fair throws (overshooting throws are thrown again)", distribution)));

  async function run() {
    clearError();
    // The squares go as typed, and the die as written: the server reads them as the command line
    // does and names a fault in those terms (`token 2 (line 1) `abc` is not an integer`). The
    // numbers drawn are the same text's, once the server has taken it.
    // As text: a number past 2^53 is drawn as it was typed, not as the nearest double.
    const values = squares.value.split(/[\s,]+/).filter((t) => t !== "");
    const n = values.length;
    const request = { squares: squares.value, die: wholeNumber(die.value) };
    if (n <= 60) Object.assign(request, { expected: true, distribution: true });
    if (n <= 40) request.explain = true;
    setLink({ game: "solitaire", squares: squares.value.trim(), die: die.value });
    try {
      const { body } = await api("/api/solitaire", request, undefined, { squares: "squares", die: "die" });
      result.textContent = `Best total ${body.best}` + (body.path ? `: path ${body.path.join(" → ")} (throws ${body.throws.join(", ") || "none"})` : "");
      drawBoard(values, body);
      drawTable(body);
      drawDistribution(body);
    } catch (e) {
      // No answer of another board stays on screen beside the error.
      for (const part of [result, board, table, distribution]) part.replaceChildren();
      showError(e.message);
    }
  }

  function drawBoard(values, r) {
    const shown = Math.min(values.length, 60);
    const cell = 46;
    const w = shown * cell + 20;
    const path = r.path ? `the best path visits squares ${r.path.slice(0, 40).join(", ")}${r.path.length > 40 ? ", …" : ""}` : "no path shown";
    const picture = svg("svg", { width: w, height: 110, viewBox: `0 0 ${w} 110`, "data-testid": "solitaire-board", role: "img",
      "aria-label": `the board: ${values.length} squares${shown < values.length ? ` (the first ${shown} drawn)` : ""}; ${path}` });
    const onPath = new Set(r.path || []);
    for (let i = 0; i < shown; i++) {
      const x = 10 + i * cell;
      const inPath = onPath.has(i);
      picture.append(svg("rect", { x, y: 40, width: cell - 6, height: 40, rx: 5, fill: inPath ? COLOURS.best : "#fff", stroke: inPath ? COLOURS.best : "#999", "data-square": i, "data-path": String(inPath) }));
      picture.append(svg("text", { x: x + (cell - 6) / 2, y: 66, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: inPath ? "#fff" : "#111" }, String(values[i])));
      picture.append(svg("text", { x: x + (cell - 6) / 2, y: 96, "text-anchor": "middle", "font-size": 10, fill: "#666" }, String(i)));
    }
    const drawn = (r.path || []).filter((s) => s < shown);
    for (let k = 1; k < drawn.length; k++) {
      const x1 = 10 + drawn[k - 1] * cell + (cell - 6) / 2;
      const x2 = 10 + drawn[k] * cell + (cell - 6) / 2;
      picture.append(svg("path", { d: `M ${x1} 38 Q ${(x1 + x2) / 2} ${8} ${x2} 38`, fill: "none", stroke: COLOURS.best, "stroke-width": 2 }));
      picture.append(svg("text", { x: (x1 + x2) / 2, y: 20, "text-anchor": "middle", "font-size": 11 }, "+" + (drawn[k] - drawn[k - 1])));
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
      el("p", {}, "Expected result ", fraction(r.expected_exact, "span", { "data-testid": "expected" }), ` ≈ ${r.expected.toFixed(4)}`),
      barChart(r.distribution.map((d) => ({ label: String(d.result), value: d.p, text: `${d.result}: ${d.probability}` })), { testid: "distribution-chart", name: "the chance of each final total, as a bar chart", mark: percent }));
  }

  onEnter(squares, run);
  onEnter(die, run);
  checkLinked(params, "die", die);
  run();
}
