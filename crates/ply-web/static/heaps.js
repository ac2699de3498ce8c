// Lowest-heap Nim against the library's perfect player. Every position's verdict is the API's
// (/api/heaps: who wins, the winning take, the remoteness); ply's moves are /api/play/heaps's. A
// move by you is graded from the verdicts before and after it. The address keeps the heaps the game
// started from and every take (`heaps=3,4,5&moves=2,1,…&at=k`), so a link replays the game.
"use strict";

function heapsGame(params) {
  const input = el("input", { type: "text", id: "heaps", "data-testid": "heaps", value: params.get("heaps") || "3,4,5", "aria-label": "the heaps, lowest first, such as 3,4,5" });
  const first = el("select", { id: "first", "data-testid": "first", "aria-label": "who moves first" },
    el("option", { value: "me", text: "you move first" }), el("option", { value: "ply", text: "ply moves first" }));
  first.value = params.get("first") === "ply" ? "ply" : "me";
  const verdict = el("p", { class: "status", "data-testid": "to-move", "aria-live": "polite" });
  const info = el("p", { "data-testid": "verdict" });
  const board = el("div", { "data-testid": "board" });
  const takeInput = el("input", { type: "number", min: 1, id: "take", "data-testid": "take", "aria-label": "counters to take from the lowest heap", style: "width:5em" });
  const takeForm = el("form", { class: "controls" }, el("label", { for: "take", text: "Take " }), takeInput,
    el("span", { text: " from the lowest heap " }), el("button", { type: "submit", text: "Take", "data-testid": "take-button" }));
  const undo = el("button", { type: "button", text: "Undo", "data-testid": "undo", title: "back to before your last move" });
  const redo = el("button", { type: "button", text: "Redo", "data-testid": "redo", title: "forward to your next turn" });
  const log = el("ol", { "data-testid": "log" });
  const summary = el("div", { "data-testid": "game-summary" });
  const summaryPanel = panel("Game over", summary);
  summaryPanel.hidden = true;
  main.replaceChildren(
    panel("Lowest-heap Nim",
      el("p", { class: "small", text: "Take any number of counters from the lowest non-empty heap; whoever takes the last counter wins. Click a counter to take it and all above it, or Tab to it and press Enter." }),
      el("div", { class: "controls" }, el("label", { text: "heaps " }, input), first, el("button", { text: "Start", "data-testid": "start", onclick: () => start(true) })),
      verdict, board, takeForm, el("div", { class: "controls" }, undo, redo), info),
    el("div", { class: "side" }, summaryPanel, panel("Moves", log)));

  // The game: the heaps it started from, the takes of its line (each from the lowest heap then), the
  // position shown (after `at` takes), who moved first, and the verdict of each position seen.
  const game = { start: [], takes: [], by: [], at: 0, human: true, seed: seedOf(params), verdicts: new Map(), gen: 0 };

  // The heaps after the first k takes of the line.
  function heapsAfter(k) {
    const heaps = game.start.slice();
    for (const take of game.takes.slice(0, k)) heaps[heaps.findIndex((h) => h > 0)] -= take;
    return heaps;
  }

  // Whose turn it is after k takes.
  function yourTurn(k) {
    return (k % 2 === 0) === game.human;
  }

  async function verdictAfter(k) {
    if (!game.verdicts.has(k)) {
      const heaps = heapsAfter(k);
      const i = heaps.findIndex((h) => h > 0);
      game.verdicts.set(k, i < 0 ? null : (await api("/api/heaps", { heaps: heaps.slice(i) })).body);
    }
    return game.verdicts.get(k);
  }

  function link(push) {
    const p = { game: "heaps", heaps: game.start.join(","), first: game.human ? "me" : "ply", seed: game.seed };
    if (game.takes.length) p.moves = game.takes.join(",");
    if (game.at < game.takes.length) p.at = game.at;
    setLink(p, push);
  }

  // A new game from the inputs (`fresh`), else the link's.
  async function start(fresh) {
    clearError();
    const heaps = numberList(input.value);
    if (heaps.some((h) => !Number.isSafeInteger(h) || h < 0)) {
      showError(`Heaps are whole numbers of counters, such as 3,4,5: not “${input.value.slice(0, 40)}”.`);
      return;
    }
    game.start = heaps;
    game.human = first.value === "me";
    game.verdicts.clear();
    const takes = fresh ? [] : (params.get("moves") || "").split(",").filter((t) => t !== "").map(Number);
    game.takes = [];
    game.by = [];
    // The link's takes are checked against the heaps: a take the game does not allow ends the line.
    for (const t of takes) {
      const heaps = heapsAfter(game.takes.length);
      const low = heaps.findIndex((h) => h > 0);
      if (low < 0 || !Number.isSafeInteger(t) || t < 1 || t > heaps[low]) {
        showError(`The link's take ${game.takes.length + 1} (${String(t).slice(0, 20)}) is not a move here: the game stops before it.`);
        break;
      }
      game.takes.push(t);
      game.by.push("");
    }
    const at = Number(params.get("at"));
    game.at = !fresh && params.get("at") !== null && Number.isSafeInteger(at) ? Math.max(0, Math.min(at, game.takes.length)) : game.takes.length;
    link(fresh);
    await show();
  }

  // Shows the position after `game.at` takes; ply moves when it is its turn at the end of the line.
  async function show() {
    const gen = ++game.gen;
    try {
      const r = await verdictAfter(game.at);
      if (gen !== game.gen) return;
      draw(r);
      renderLog();
      if (r && !yourTurn(game.at) && game.at === game.takes.length) await plyMoves(gen);
    } catch (e) {
      showError(e.message);
    }
  }

  function draw(r) {
    const heaps = heapsAfter(game.at);
    const low = heaps.findIndex((h) => h > 0);
    const viewing = game.at < game.takes.length ? ` Viewing move ${game.at} of ${game.takes.length}.` : "";
    undo.disabled = game.at === 0;
    redo.disabled = game.at === game.takes.length;
    takeInput.max = low >= 0 ? heaps[low] : 0;
    summaryPanel.hidden = !(low < 0 && game.at === game.takes.length);
    if (low < 0) {
      const lastYours = yourTurn(game.at - 1);
      verdict.textContent = `Game over: ${lastYours ? "you" : "ply"} took the last counter and won.${viewing}`;
      info.textContent = "";
      if (!summaryPanel.hidden) summary.replaceChildren(summaryOf(lastYours));
    } else {
      verdict.textContent = `${yourTurn(game.at) ? "You" : "ply"} to move.${viewing}`;
      info.textContent = r.winner === "first"
        ? `The player to move wins: take ${r.move.take} from heap ${low + 1} (remoteness ${r.remoteness}: the winner hurries).`
        : `The player to move loses against perfect play (remoteness ${r.remoteness}: the loser delays).`;
    }
    board.replaceChildren(heapsSvg(heaps, low, r && r.move ? r.move.take : 0, humanTake));
  }

  // A move by the person: on their turn, from the lowest heap. From an earlier position the line
  // after it is replaced.
  async function humanTake(count) {
    const heaps = heapsAfter(game.at);
    const low = heaps.findIndex((h) => h > 0);
    if (low < 0 || !yourTurn(game.at)) return;
    if (!Number.isSafeInteger(count) || count < 1 || count > heaps[low]) {
      showError(`Heap ${low + 1} has ${heaps[low]} ${heaps[low] === 1 ? "counter" : "counters"}: take 1${heaps[low] > 1 ? ` to ${heaps[low]}` : ""}.`);
      return;
    }
    clearError();
    if (game.takes[game.at] !== count) {
      game.takes = game.takes.slice(0, game.at).concat(count);
      game.by = game.by.slice(0, game.at).concat("you");
      for (const k of [...game.verdicts.keys()]) if (k > game.at) game.verdicts.delete(k);
    } else {
      game.by[game.at] = "you";
    }
    game.at++;
    link(true);
    await show();
  }

  // The perfect player is the library's (POST /api/play/heaps, the move `ply play heaps --seed`
  // makes): the fastest win, else the longest loss, ties broken by the link's seed plus the number of
  // moves played.
  async function plyMoves(gen) {
    const heaps = heapsAfter(game.at);
    const low = heaps.findIndex((h) => h > 0);
    verdict.textContent = "ply is thinking…";
    const { body: reply } = await api("/api/play/heaps", { heaps: heaps.slice(low), seed: game.seed + game.at });
    if (gen !== game.gen) return;
    game.takes.push(reply.take);
    game.by.push("ply");
    game.at++;
    link(false);
    await show();
  }

  // A take graded from the verdicts before and after it: kept the win (the fastest, or slower), threw
  // it away, or lost anyway.
  function gradeOf(k) {
    const before = game.verdicts.get(k);
    const after = game.verdicts.get(k + 1);
    if (before === undefined || after === undefined) return null;
    if (before.winner === "second") return { verdict: "lost anyway", good: true };
    if (after !== null && after.winner === "first") return { verdict: "mistake: gives the win away", good: false };
    return game.takes[k] === before.move.take ? { verdict: "best", good: true } : { verdict: "wins, more slowly", good: true };
  }

  function renderLog() {
    log.replaceChildren(...game.takes.map((take, k) => {
      const heap = heapsAfter(k).findIndex((h) => h > 0) + 1;
      const who = game.by[k] || (yourTurn(k) ? "A" : "B");
      const g = game.by[k] === "you" ? gradeOf(k) : null;
      const item = el("li", { "data-ply": String(k + 1), class: k >= game.at ? "ahead" : "" },
        el("button", { class: "link", type: "button", text: `${who} took ${take} from heap ${heap}`, onclick: () => { game.at = k + 1; link(true); show(); } }),
        g ? el("span", { class: "small", "data-grade": g.good ? "good" : "mistake", text: ` — ${g.verdict}` }) : "");
      return item;
    }));
  }

  function summaryOf(youWon) {
    const yours = game.takes.map((_, k) => k).filter((k) => game.by[k] === "you").map(gradeOf).filter(Boolean);
    const mistakes = yours.filter((g) => !g.good).length;
    return el("p", { "data-mistakes": String(mistakes) },
      `${youWon ? "You won" : "ply won"} in ${game.takes.length} moves. Your moves: ${yours.length}, ${mistakes ? `${mistakes} ${mistakes === 1 ? "mistake" : "mistakes"} (gave the win away)` : "no mistake"}.`);
  }

  // Undo: back to before your last move (and ply's reply); Redo: forward to your next turn.
  undo.addEventListener("click", () => {
    let k = game.at - 1;
    while (k > 0 && !yourTurn(k)) k--;
    game.at = Math.max(0, k);
    link(true);
    show();
  });
  redo.addEventListener("click", () => {
    let k = game.at + 1;
    while (k < game.takes.length && !yourTurn(k)) k++;
    game.at = Math.min(k, game.takes.length);
    link(true);
    show();
  });
  takeForm.addEventListener("submit", (event) => {
    event.preventDefault();
    humanTake(Number(takeInput.value));
  });

  start(false);
  // Back and Forward walk through the game's takes.
  return {
    follow(next) {
      if (next.get("game") !== "heaps" || next.get("heaps") !== game.start.join(",") || (next.get("moves") || "") !== game.takes.join(",")) return false;
      const at = Number(next.get("at") ?? game.takes.length);
      game.at = Number.isSafeInteger(at) ? Math.max(0, Math.min(at, game.takes.length)) : game.takes.length;
      show();
      return true;
    },
  };
}

// The heaps as counters (at most 20 drawn per heap), the lowest heap's counters buttons: clicking
// (or Enter on) the counter j-th from the top takes j counters. `winning`: the winning take,
// highlighted, or 0.
function heapsSvg(heaps, low, winning, take) {
  const n = heaps.length;
  const shown = heaps.map((h) => Math.min(h, 20));
  const top = Math.max(1, ...shown);
  const w = n * 70 + 20;
  const h = top * 22 + 50;
  const picture = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, "data-testid": "heaps-board", role: "group", "aria-label": `heaps ${heaps.join(", ")}` });
  heaps.forEach((size, i) => {
    const x = 10 + i * 70 + 35;
    picture.append(svg("text", { x, y: h - 8, "text-anchor": "middle", "font-size": 12 }, `heap ${i + 1}: ${size}`));
    for (let k = 0; k < shown[i]; k++) {
      const fromTop = shown[i] - k;
      const count = size > 20 ? fromTop + (size - 20) : fromTop;
      const taken = i === low && fromTop <= winning;
      const dot = svg("circle", { cx: x, cy: h - 35 - k * 22, r: 9, fill: taken ? COLOURS.best : i === low ? "#888" : "#bbb", stroke: "#333", "data-heap": i + 1, "data-take": count, "data-winning": String(taken) });
      if (i === low) {
        const button = svg("g", { class: "counter", tabindex: "0", role: "button", "aria-label": `take ${count} from heap ${i + 1}${taken ? ", the winning move" : ""}`, "data-take": count });
        button.addEventListener("click", () => take(count));
        button.addEventListener("keydown", (event) => {
          if (event.key !== "Enter" && event.key !== " ") return;
          event.preventDefault();
          take(count);
        });
        button.append(dot);
        picture.append(button);
      } else {
        picture.append(dot);
      }
    }
  });
  return picture;
}
