// Lowest-heap Nim against the library's perfect player.
"use strict";

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
