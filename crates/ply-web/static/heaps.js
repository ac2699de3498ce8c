// Lowest-heap Nim against the library's perfect player, played through its home: every position,
// every take's grade, the end and the winner are the API's (/api/heaps/game replays the heaps and the
// takes, under normal or misère play; with a seed it adds the perfect player's reply, the move
// /api/play/heaps makes). The page states no rule: it sends the takes and draws the answer. The
// address keeps the heaps the game started from and every take (`heaps=3,4,5&moves=2,1,…&at=k`), so a
// link replays the game.
"use strict";

function heapsGame(params) {
  const input = el("input", { type: "text", id: "heaps", "data-testid": "heaps", value: params.get("heaps") || "3,4,5", "aria-label": "the heaps, lowest first, such as 3,4,5" });
  const first = el("select", { id: "first", "data-testid": "first", "aria-label": "who moves first" },
    el("option", { value: "me", text: "you move first" }), el("option", { value: "ply", text: "ply moves first" }));
  first.value = params.get("first") === "ply" ? "ply" : "me";
  if (params.get("first") !== null && !["me", "ply"].includes(params.get("first"))) linkRefused("first", params.get("first"), "is not `me` or `ply`", "you move first");
  const misere = el("input", { type: "checkbox", id: "misere", "data-testid": "misere" });
  misere.checked = params.get("misere") === "1";
  const verdict = el("p", { class: "status", "data-testid": "to-move", "aria-live": "polite" });
  const info = el("p", { "data-testid": "verdict" });
  const board = el("div", { "data-testid": "board" });
  const takeInput = el("input", { type: "number", min: 1, id: "take", "data-testid": "take", "aria-label": "counters to take from the lowest heap", style: "width:5em" });
  const takeForm = el("form", { class: "controls" }, el("label", { for: "take", text: "Take " }), takeInput,
    el("span", { text: " from the lowest heap " }), el("button", { type: "submit", text: "Take", "data-testid": "take-button" }));
  const undo = el("button", { type: "button", text: "Undo", "data-testid": "undo", title: "back to before your last move" });
  const redo = el("button", { type: "button", text: "Redo", "data-testid": "redo", title: "forward to your next turn" });
  const undoRow = el("div", { class: "controls" }, undo, redo);
  const keepUndoFocus = keepFocusIn(undoRow);
  const log = el("ol", { "data-testid": "log" });
  const summary = el("div", { "data-testid": "game-summary" });
  const summaryPanel = panel("Game over", summary);
  summaryPanel.hidden = true;
  main.replaceChildren(
    panel("Lowest-heap Nim",
      el("p", { class: "small", text: "Take any number of counters from the lowest non-empty heap; whoever takes the last counter wins (under misère play, loses). Click a counter to take it and all above it, or Tab to it and press Enter." }),
      el("div", { class: "controls" }, el("label", { text: "heaps " }, input), first,
        el("label", { for: "misere" }, misere, " misère"), el("button", { text: "Start", "data-testid": "start", onclick: () => start(true) })),
      verdict, board, takeForm, undoRow, info),
    el("div", { class: "side" }, summaryPanel, panel("Moves", log)));

  // The game: the heaps it started from (as written), the rule, the takes of its line, who made each
  // (you, ply, or "" for a link's), the position shown (after `at` takes), who moved first, and the
  // API's answer for the first k takes of the line.
  const game = { heaps: "", misere: false, takes: [], by: [], at: 0, human: true, seed: seedOf(params), answers: new Map(), gen: 0, taking: false };

  // The request for the game after the takes `takes`: with the seed of that move for ply's reply.
  function request(takes) {
    return { heaps: game.heaps, misere: game.misere, moves: takes.join(","), seed: game.seed + takes.length };
  }

  // The API's answer for the first k takes of the line.
  async function answerAt(k) {
    if (!game.answers.has(k)) game.answers.set(k, (await api("/api/heaps/game", request(game.takes.slice(0, k)))).body);
    return game.answers.get(k);
  }

  // The player you are, as the API names players (A moves first).
  function you() {
    return game.human ? "A" : "B";
  }

  function name(player) {
    return player === you() ? "you" : "ply";
  }

  function link(push) {
    const p = { game: "heaps", heaps: game.heaps, first: game.human ? "me" : "ply", seed: game.seed };
    if (game.misere) p.misere = "1";
    if (game.takes.length) p.moves = game.takes.join(",");
    if (game.at < game.takes.length) p.at = game.at;
    setLink(p, push);
  }

  // A new game from the inputs (`fresh`), else the link's. The link's takes are the API's to check:
  // a line it refuses is shown with its reason, and the game starts from the heaps.
  async function start(fresh) {
    clearError();
    if (fresh) clearLinkNotices();
    // The game on the board, kept whole until the server takes the new heaps.
    const before = { ...game, answers: new Map(game.answers) };
    game.heaps = input.value.trim();
    game.misere = misere.checked;
    game.human = first.value === "me";
    game.answers.clear();
    game.takes = fresh ? [] : (params.get("moves") || "").split(",").filter((t) => t !== "");
    game.by = game.takes.map(() => "");
    try {
      const r = await answerAt(game.takes.length);
      game.takes = r.takes.map((t) => t.take);
    } catch (e) {
      if (!game.takes.length) {
        // Refused heaps: the game shown (if any) goes on, and the error says so.
        if (before.heaps !== "") {
          Object.assign(game, before);
          showError(`${e.message.replace(/\.$/, "")}. The game of heaps ${before.heaps} goes on.`);
        } else {
          showError(e.message);
        }
        return;
      }
      showError(`The link's moves are not a game here (${e.message}): the game starts from its heaps.`);
      game.takes = [];
      game.by = [];
      game.answers.clear();
    }
    const at = Number(params.get("at"));
    const atGiven = !fresh && params.get("at") !== null;
    game.at = atGiven && /^\d+$/.test(params.get("at")) && Number.isSafeInteger(at) ? Math.min(at, game.takes.length) : game.takes.length;
    if (atGiven && game.at !== Math.min(at, game.takes.length)) linkRefused("at", params.get("at"), "is not a number of moves", "the page shows the end of the game");
    link(fresh);
    await show();
  }

  // Shows the position after `game.at` takes; ply moves when it is its turn at the end of the line.
  async function show() {
    const gen = ++game.gen;
    try {
      const line = await answerAt(game.takes.length);
      const now = await answerAt(game.at);
      if (gen !== game.gen) return;
      draw(now, line);
      renderLog(line);
      if (!now.over && now.positions[game.at].to_move !== you() && game.at === game.takes.length) await plyMoves(now.reply);
    } catch (e) {
      showError(e.message);
    }
  }

  function draw(now, line) {
    const pos = now.positions[game.at];
    const viewing = game.at < game.takes.length ? ` Viewing move ${game.at} of ${game.takes.length}.` : "";
    undo.disabled = game.at === 0;
    redo.disabled = game.at === game.takes.length;
    keepUndoFocus();
    takeInput.max = pos.left;
    summaryPanel.hidden = !(now.over && game.at === game.takes.length);
    if (now.over) {
      verdict.textContent = `Game over: ${name(now.last_mover)} took the last counter and ${now.winner === now.last_mover ? "won" : "lost"}.${viewing}`;
      info.textContent = "";
      if (!summaryPanel.hidden) summary.replaceChildren(summaryOf(line));
    } else {
      verdict.textContent = `${pos.to_move === you() ? "You" : "ply"} to move.${viewing}`;
      info.textContent = pos.wins
        ? `The player to move wins: take ${pos.winning_take} from heap ${pos.heap} (remoteness ${pos.remoteness}: the winner hurries).`
        : `The player to move loses against perfect play (remoteness ${pos.remoteness}: the loser delays).`;
    }
    // The keyboard stays on the counters when they are drawn again.
    const focused = board.contains(document.activeElement);
    board.replaceChildren(heapsSvg(now.heaps, pos.heap === null ? -1 : pos.heap - 1, pos.winning_take || 0, humanTake));
    if (focused) (board.querySelector("g.counter") || takeInput).focus();
  }

  // A move by the person, on their turn, checked by the API: from an earlier position the line after
  // it is replaced.
  async function humanTake(count) {
    const now = game.answers.get(game.at);
    // One take at a time: a double click, or Take pressed twice, is one move.
    if (game.taking || !now || now.over || now.positions[game.at].to_move !== you()) return;
    const takes = game.takes.slice(0, game.at).concat(String(count).trim() || "0");
    let after;
    game.taking = true;
    try {
      after = (await api("/api/heaps/game", request(takes))).body;
    } catch (e) {
      showError(e.message);
      return;
    } finally {
      game.taking = false;
    }
    clearError();
    const take = after.takes[game.at].take;
    if (game.takes[game.at] !== take) {
      game.takes = game.takes.slice(0, game.at).concat(take);
      game.by = game.by.slice(0, game.at).concat("you");
      for (const k of [...game.answers.keys()]) if (k > game.at) game.answers.delete(k);
      game.answers.set(game.at + 1, after);
    } else {
      game.by[game.at] = "you";
    }
    game.at++;
    link(true);
    await show();
  }

  // The perfect player's take is the API's reply (the move `ply play heaps --seed` makes): the fastest
  // win, else the longest loss, ties broken by the link's seed plus the number of moves played.
  async function plyMoves(reply) {
    game.takes.push(reply.take);
    game.by.push("ply");
    game.at++;
    link(false);
    await show();
  }

  function renderLog(line) {
    log.replaceChildren(...line.takes.map((t, k) => {
      const who = game.by[k] || t.player;
      const graded = game.by[k] === "you";
      return el("li", { "data-ply": String(k + 1), class: k >= game.at ? "ahead" : "" },
        el("button", { class: "link", type: "button", text: `${who} took ${t.take} from heap ${t.heap}`, onclick: () => { game.at = k + 1; link(true); show(); } }),
        graded ? el("span", { class: "small", "data-grade": t.grade === "gives_the_win_away" ? "mistake" : "good", text: ` — ${t.verdict}` }) : "");
    }));
  }

  function summaryOf(line) {
    const yours = line.takes.filter((_, k) => game.by[k] === "you");
    const mistakes = yours.filter((t) => t.grade === "gives_the_win_away").length;
    return el("p", { "data-mistakes": String(mistakes) },
      `${line.winner === you() ? "You won" : "ply won"} in ${line.takes.length} moves. Your moves: ${yours.length}, ${mistakes ? `${mistakes} ${mistakes === 1 ? "mistake" : "mistakes"} (gave the win away)` : "no mistake"}.`);
  }

  // Whether position k of the line is yours to move (known once the line is answered).
  function yourTurn(k) {
    const line = game.answers.get(game.takes.length);
    return line !== undefined && line.positions[k].to_move === you();
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
    humanTake(takeInput.value);
  });

  onEnter(input, () => start(true));
  start(false);
  // Back and Forward walk through the game's takes.
  return {
    follow(next) {
      // The same game, its takes those of the line shown or a beginning of them (each take was an
      // address of its own): the line is kept, with who made each take, and the position moves.
      const moves = (next.get("moves") || "").split(",").filter((t) => t !== "");
      const ours = moves.length <= game.takes.length && moves.every((t, i) => String(t) === String(game.takes[i]));
      if (next.get("game") !== "heaps" || next.get("heaps") !== game.heaps || (next.get("misere") === "1") !== game.misere || !ours) return false;
      const at = Number(next.get("at") ?? moves.length);
      game.at = Number.isSafeInteger(at) ? Math.max(0, Math.min(at, moves.length)) : moves.length;
      show();
      return true;
    },
  };
}

// The heaps as counters (at most 20 drawn per heap), the lowest heap's counters buttons: clicking
// (or Enter on) the counter j-th from the top takes j counters (on a heap of more than 20, the top
// counter takes all but 19). `winning`: the winning take, its counters highlighted, or 0. Heaps and
// takes past 2^53 come as decimal text (readJson) and are compared as BigInts.
function heapsSvg(heaps, low, winning, take) {
  const n = heaps.length;
  const shown = heaps.map((h) => Math.min(h, 20));
  const top = Math.max(1, ...shown);
  const w = n * 70 + 20;
  // Counters 24 pixels across, one above another: a finger's target each (WCAG's 24 × 24).
  const h = top * 25 + 50;
  const picture = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, "data-testid": "heaps-board", role: "group", "aria-label": `heaps ${heaps.join(", ")}` });
  heaps.forEach((size, i) => {
    const x = 10 + i * 70 + 35;
    picture.append(svg("text", { x, y: h - 8, "text-anchor": "middle", "font-size": 12 }, `heap ${i + 1}: ${size}`));
    for (let k = 0; k < shown[i]; k++) {
      const fromTop = shown[i] - k;
      const count = size > 20 ? String(BigInt(size) - 20n + BigInt(fromTop)) : fromTop;
      const taken = i === low && BigInt(count) <= BigInt(winning);
      const wins = taken && BigInt(count) === BigInt(winning);
      const dot = svg("circle", { cx: x, cy: h - 38 - k * 25, r: 12, fill: taken ? COLOURS.best : i === low ? "#888" : "#bbb", stroke: "#333", "data-heap": i + 1, "data-take": count, "data-winning": String(taken) });
      if (i === low) {
        const button = svg("g", { class: "counter", tabindex: "0", role: "button", "aria-label": `take ${count} from heap ${i + 1}${wins ? ", the winning move" : ""}`, "data-take": count });
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
