// MagicBoard: a generated or typed board and the shortest path from each corner.
"use strict";

function magicGame(params) {
  const size = el("input", { type: "number", min: 5, max: 20, id: "size", "data-testid": "size", value: params.get("size") || 8 });
  const seed = el("input", { type: "number", min: 0, id: "seed", "data-testid": "seed", value: params.get("seed") || 1 });
  const text = el("textarea", { rows: 8, cols: 36, id: "board-text", "data-testid": "board-text", "aria-label": "the board: one row per line, numbers separated by spaces" });
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
      const { body } = await api("/api/magic-board/generate", { size: wholeNumber(size.value), seed: wholeNumber(seed.value) }, undefined,
        { size: "size", seed: "seed", any_size: null });
      text.value = body.text;
      setLink({ game: "magic-board", size: size.value, seed: seed.value });
      await solve(true);
    } catch (e) {
      // No answer of another board stays on screen beside the error.
      report = null;
      result.replaceChildren();
      board.replaceChildren();
      showError(e.message);
    }
  }

  async function solve(generated) {
    clearError();
    try {
      const { body } = await api("/api/magic-board", { board: text.value, any_size: true }, undefined, { board: "board", any_size: null });
      report = body;
      // The numbers as the server read them: rows of numbers split by spaces or commas, blank lines
      // skipped (kept as text, drawn as typed).
      rows = text.value.split(/\n/).map((l) => l.split(/[\s,]+/).filter((t) => t !== "")).filter((r) => r.length);
      if (!generated) setLink({ game: "magic-board", board: rows.map((r) => r.join(".")).join("_") });
      const longest = Math.max(0, ...report.corners.map((c) => c.moves || 0));
      step.max = longest;
      step.value = longest;
      result.replaceChildren(...report.corners.map((c, i) => el("p", { "data-corner": c.start.join(",") },
        el("span", { class: "swatch", style: `background:${CORNER_COLOURS[i]}` }),
        `(${c.start.join(",")}): ` + (c.is_goal ? "is the goal" : c.solvable ? `solvable in ${c.moves} moves: ${c.path.map((p) => `(${p.join(",")})`).join(" ")}` : "not solvable"))));
      draw();
    } catch (e) {
      // No answer of another board stays on screen beside the error.
      report = null;
      result.replaceChildren();
      board.replaceChildren();
      showError(e.message);
    }
  }

  function draw() {
    if (!report) return;
    const d = report.d;
    const cell = Math.max(18, Math.min(64, Math.floor(560 / d)));
    const w = d * cell + 20;
    const k = Number(step.value);
    const picture = svg("svg", { width: w, height: w, viewBox: `0 0 ${w} ${w}`, "data-testid": "magic-board", role: "img",
      "aria-label": `the board, ${d}×${d}, the goal at (${report.goal.join(",")}); each solvable corner's shortest path drawn to step ${k} of ${step.max}` });
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
        // Drawn over the paths on a white chip, so that no line strikes through a number.
        const size = Math.min(16, cell / 2.2);
        const [cx, cy] = [10 + c * cell + cell / 2, 10 + r * cell + cell * 0.42];
        const chip = String(rows[r][c]).length * size * 0.62 + 6;
        numbers.push(svg("rect", { x: cx - chip / 2, y: cy - size * 0.62, width: chip, height: size * 1.24, rx: 3, fill: goal ? "#fff3c4" : "#fff" }));
        numbers.push(svg("text", { x: cx, y: cy + size * 0.36, "text-anchor": "middle", "font-size": size, "font-weight": goal ? 700 : 400 }, String(rows[r][c])));
      }
    }
    report.corners.forEach((corner, i) => {
      if (!corner.path) return;
      // The paths run in the lower part of the cells, under the numbers, each corner's a little apart.
      const shift = (i - 1.5) * 3;
      const px = (c) => 10 + c * cell + cell / 2 + shift;
      const py = (r) => 10 + r * cell + cell * 0.78 + shift / 2;
      const pts = corner.path.slice(0, k + 1).map(([r, c]) => `${px(c)},${py(r)}`);
      if (pts.length > 1) picture.append(svg("polyline", { points: pts.join(" "), fill: "none", stroke: CORNER_COLOURS[i], "stroke-width": 3, "stroke-opacity": 0.85, "data-path": corner.start.join(",") }));
      const [r, c] = corner.path[Math.min(k, corner.path.length - 1)];
      picture.append(svg("circle", { cx: px(c), cy: py(r), r: Math.min(5, cell / 6), fill: CORNER_COLOURS[i] }));
    });
    picture.append(...numbers);
    board.replaceChildren(picture);
  }

  onEnter(size, generate);
  onEnter(seed, generate);
  checkLinked(params, "size", size);
  checkLinked(params, "seed", seed);
  const boardParam = params.get("board");
  if (boardParam) {
    text.value = boardParam.split("_").map((l) => l.split(".").join(" ")).join("\n") + "\n";
    solve(false);
  } else {
    generate();
  }
}

const CORNER_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7"];
