// Dots and Triangles, Dots and Boxes: play ply or analyse any board the API takes. Everything shown
// comes from the API — the board's drawing (/api/dots/board), each position's facts and move values
// (/api/dots), ply's replies (/api/play/dots) and the grades of the game's moves with the value
// chart (/api/dots/review, one request for the whole line, in the background). No rule of the game
// is re-derived here: whose turn it is, who owns a cell and what a move is worth are the server's.
//
// The game is a move tree (move-tree.js): a move from an earlier position starts a variation and
// keeps the line it left. The address holds the whole tree as movetext (`moves=4-7 8-9 (1-2) 6-9`),
// the line shown when it is not the main one (`line=…`) and the position on it (`at=k`); every move
// and every step through the line is a history entry, so Back and Forward walk through the game.
// A game comes in and goes out as a record (dots-record.js).
"use strict";

// Seconds each kind of request may take; the server caps them at its own limit.
const DOTS_TIME = { facts: 0.05, analysis: 5, review: 4, strategy: 1 };
// The best moves the analysis shows, each with its line.
const TOP_LINES = 3;
const STRATEGY_NAMES = ["recursion", "memo", "table"];

function dotsGame(params) {
  const session = new DotsSession(params);
  session.start();
  return session;
}

// The most lines (the main line and its variations) a link or a record may hold: the server checks
// each before the game is shown.
const MAX_LINES = 256;

// The board a link names: the game and its size (the classic boards by default). Sizes are not
// checked here: the API refuses a board it does not have with its own message, which names the
// link's value as written (`"size": -1 must not be negative`, `"size" must be a whole number, not
// "abc"`).
function dotsSpec(params) {
  const whole = (key, fallback) => {
    const v = params.get(key);
    // A number as written (`-1`, `3.5`) goes as a number, anything else as its text.
    return v === null ? fallback : wholeNumber(v);
  };
  return params.get("game") === "boxes"
    ? { game: "boxes", rows: whole("rows", 3), cols: whole("cols", 3) }
    : { game: "triangles", size: whole("size", 3) };
}

function sameSpec(a, b) {
  return a.game === b.game && a.size === b.size && a.rows === b.rows && a.cols === b.cols;
}

// `ply dots …` options naming the board.
function specOptions(spec) {
  return spec.game === "boxes" ? `--rows ${spec.rows} --cols ${spec.cols}` : `--size ${spec.size}`;
}

// A typed move (`2-5`, `5 2`, `2,5`) as the board names it, or null when no edge of `board` joins
// the two dots.
function typedEdge(board, text) {
  const m = /^\s*(\d+)\s*[-\s,]\s*(\d+)\s*$/.exec(text);
  if (!m) return null;
  const [a, b] = [Number(m[1]), Number(m[2])].sort((x, y) => x - y);
  const edge = board.edges.find((e) => e.a === a && e.b === b);
  return edge ? edge.name : null;
}

class DotsSession {
  constructor(params) {
    this.spec = dotsSpec(params);
    this.readOptions(params);
    // The game comes with the board (start): the link's moves are checked by the server first.
    this.tree = new MoveTree();
    this.line = [];
    this.at = 0;
    this.opened = params;
    this.seed = seedOf(params);
    this.board = null;
    this.limits = null;
    // What is known of each position, by its moves: {facts, analysis, toMove, failure}.
    this.positions = new Map();
    // Reviews by game line.
    this.reviews = new Map();
    this.reviewing = null;
    this.gen = 0;
    this.work = null;
    this.thinking = false;
    this.analysing = false;
    this.longer = false;
    // Moves played on this page, by the person and by ply (by the moves to them), and those whose
    // grade was announced. Other moves (a link's, an import's) are labelled by their player only.
    this.fresh = new Set();
    this.plyMade = new Set();
    this.announced = new Set();
    this.closed = false;
    this.ui = dotsLayout(this);
  }

  // ---------- the address ----------

  // The link's settings other than the board and the moves: who plays, values shown, ply's time and
  // level, the players' names. A value the page cannot take is said (linkRefused), never replaced in
  // silence.
  readOptions(params) {
    // The players an imported record named (kept in the link as `a` and `b`), else null: this page's.
    this.players = params.has("a") || params.has("b") ? { A: params.get("a") ?? "A", B: params.get("b") ?? "B" } : null;
    const first = params.get("first");
    this.side = first === "ply" ? "B" : first === "both" ? "both" : "A";
    if (first !== null && !["me", "ply", "both"].includes(first)) linkRefused("first", first, "is not `me`, `ply` or `both`", "you move first");
    const values = params.get("values");
    this.showValues = values === "1";
    if (values !== null && values !== "0" && values !== "1") linkRefused("values", values, "is not 0 or 1", "values are not shown");
    const think = params.get("think");
    this.think = think !== null && Number(think) > 0 && Number.isFinite(Number(think)) ? Number(think) : null;
    if (think !== null && this.think === null) linkRefused("think", think, "is not a number of seconds above 0", "ply thinks for the server's time");
    const level = params.get("level");
    this.level = level !== null && /^[1-8]$/.test(level) ? Number(level) : 8;
    if (level !== null && this.level !== Number(level)) linkRefused("level", level, "is not a level from 1 to 8", "ply plays perfectly (level 8)");
  }

  // What `read` bounds a move list or a record by before the server is asked.
  moveLimits() {
    return { maxLine: this.limits?.dots_max_edges ?? Infinity, maxLines: MAX_LINES };
  }

  // The link's game (`moves`, `line`, `at`) on the board shown: its movetext read (a fault throws),
  // the line it names when the tree has it (else the main line), the position on it.
  readMoves(params) {
    this.tree = MoveTree.read(params.get("moves") || "", this.moveLimits());
    this.chooseLine(params);
  }

  chooseLine(params) {
    const chosen = (params.get("line") || "").split(" ").filter((m) => m !== "");
    const known = chosen.every((m, k) => this.tree.after(chosen, k).includes(m));
    this.line = this.tree.continuation(known ? chosen : []);
    const at = params.get("at");
    this.at = at !== null && /^\d+$/.test(at) ? Math.min(Number(at), this.line.length) : this.line.length;
    if (at !== null && !/^\d+$/.test(at)) linkRefused("at", at, "is not a number of moves", "the page shows the end of the line");
  }

  // The link's moves, every line checked by the server (and its moves named as the board names
  // them) before the game is shown; a link the page cannot read, or whose moves the server refuses,
  // is said and the board shows its start.
  async loadLink(params) {
    try {
      const read = MoveTree.read(params.get("moves") || "", this.moveLimits());
      if (read.leaves().length) this.ui.status.textContent = "Checking the link's moves…";
      this.tree = await checkedTree(this.spec, read);
      if (this.closed) return;
      this.chooseLine(params);
    } catch (e) {
      if (this.closed) return;
      linkNotice(`The link's moves were not loaded${e.where ?? ""}: ${e.message}. The board shows the start.`);
      this.tree = new MoveTree();
      this.line = [];
      this.at = 0;
    }
  }

  linkParams() {
    const p = { ...this.spec, moves: this.tree.write() };
    if (!this.tree.onMainLine(this.line)) p.line = this.line.join(" ");
    if (this.at < this.line.length) p.at = this.at;
    if (this.side !== "A") p.first = this.side === "B" ? "ply" : "both";
    if (this.showValues) p.values = "1";
    if (this.think !== null) p.think = this.think;
    if (this.level !== 8) p.level = this.level;
    if (this.players) Object.assign(p, { a: this.players.A, b: this.players.B });
    p.seed = this.seed;
    return p;
  }

  link(push) {
    setLink(this.linkParams(), push);
  }

  // Back/Forward: the same board follows the address; another board is opened afresh.
  follow(params) {
    if (params.get("game") !== this.spec.game || !sameSpec(dotsSpec(params), this.spec)) return false;
    const line = this.line.join(" ");
    this.readOptions(params);
    try {
      this.readMoves(params);
    } catch {
      return false;
    }
    if (this.line.join(" ") !== line) this.dropReview();
    this.syncControls();
    this.go(this.at, null);
    return true;
  }

  close() {
    this.closed = true;
    this.work?.abort();
    this.dropReview();
    this.strategyWork?.abort();
  }

  // ---------- positions ----------

  entry(k, line = this.line) {
    const key = line.slice(0, k).join(" ");
    let e = this.positions.get(key);
    if (!e) {
      e = {};
      this.positions.set(key, e);
    }
    return e;
  }

  // Who drew the k-th move of the line (from 0), when known.
  moverOf(k) {
    return this.entry(k).toMove;
  }

  request(k, extra) {
    return { ...this.spec, moves: this.line.slice(0, k).join(" "), ...extra };
  }

  atEnd() {
    return this.at === this.line.length;
  }

  yourTurn(player) {
    return this.side === "both" || player === this.side;
  }

  who(player) {
    if (this.side === "both") return "";
    return player === this.side ? "you" : "ply";
  }

  // Who made the k-th move of the line (from 0) when it was made on this page: "you" or "ply";
  // "" for a move that came with a link or an import.
  madeBy(k, line = this.line) {
    const key = MoveTree.key(line, k + 1);
    return this.fresh.has(key) ? "you" : this.plyMade.has(key) ? "ply" : "";
  }

  // A side's label when every move of it in the line was made on this page, else "".
  sideWho(player) {
    const theirs = this.line.map((_, k) => k).filter((k) => this.moverOf(k) === player);
    return theirs.every((k) => this.madeBy(k)) ? this.who(player) : "";
  }

  // The time of the analysis asked now: the usual, or — after "Analyse longer", for that position
  // only — all the server allows a request (what it proves goes into its book, with --book).
  analysisSeconds() {
    if (this.longer && this.limits) return Math.max(this.seconds("analysis"), this.limits.time_limit_seconds - 0.5);
    return this.seconds("analysis");
  }

  seconds(kind) {
    const limit = this.limits ? this.limits.time_limit_seconds : 10;
    return Math.max(0.5, Math.min(DOTS_TIME[kind], limit - 1));
  }

  // ---------- moving through the game ----------

  async start() {
    try {
      const [limits, board] = await Promise.all([serverLimits(), api("/api/dots/board", this.spec)]);
      if (this.closed) return;
      this.limits = limits;
      this.board = board.body;
    } catch (e) {
      showError(e.message);
      this.ui.status.textContent = "No board to show.";
      return;
    }
    this.ui.title.textContent = this.board.title;
    this.ui.sizeNote.textContent = exactNote(this.board, this.limits);
    this.ui.think.placeholder = String(this.limits.think_seconds);
    this.ui.think.max = String(this.limits.time_limit_seconds);
    if (this.think !== null && this.think > this.limits.time_limit_seconds) {
      linkRefused("think", String(this.think), `is more than a request may take here (${this.limits.time_limit_seconds} s)`, `ply thinks ${this.limits.time_limit_seconds} s`);
      this.think = this.limits.time_limit_seconds;
    }
    await this.loadLink(this.opened);
    if (this.closed) return;
    this.go(this.at, false);
  }

  // Shows the position after k moves of the line (a history entry when `push`; none when null), and
  // starts what it needs: its facts, then ply's reply or its analysis and the review.
  go(k, push = true) {
    if (!this.board) return;
    this.at = Math.max(0, Math.min(k, this.line.length));
    if (push !== null) this.link(push);
    this.work?.abort();
    this.strategyWork?.abort();
    this.work = new AbortController();
    this.early = null;
    const gen = ++this.gen;
    this.thinking = false;
    this.analysing = false;
    // "Analyse longer" holds for the position it was asked at; moving on cancels it.
    if (push !== null) this.longer = false;
    this.render();
    this.settle(gen, this.work.signal).catch((e) => this.failed(e, gen));
  }

  failed(e, gen) {
    if (aborted(e) || gen !== this.gen) return;
    // A position whose facts did not come says so (going to it again asks again).
    const here = this.entry(this.at);
    if (!here.facts) here.unread = e.message;
    this.thinking = false;
    this.analysing = false;
    showError(e.message);
    this.render();
  }

  async settle(gen, signal) {
    const here = this.entry(this.at);
    if (!here.facts) {
      here.unread = null;
      const { body } = await api("/api/dots", this.request(this.at, { detail: "value", time: DOTS_TIME.facts }), signal);
      here.facts = body;
      here.toMove = body.to_move;
      if (gen !== this.gen) return;
      clearError();
      this.render();
    }
    // An edge clicked before the position's facts came is played now.
    const early = this.early;
    this.early = null;
    if (early && this.play(early)) return;
    const facts = here.facts;
    if (!facts.over && this.atEnd() && this.side !== "both" && facts.to_move !== this.side) {
      await this.plyMoves(gen, signal);
      return;
    }
    this.review();
    if (facts.over) return;
    await this.analyse(gen, signal);
    if (gen === this.gen) this.compareStrategies(gen);
  }

  // Every move's value (and a best line) for the position shown, within the analysis time; what was
  // proved by then when the position is too large.
  async analyse(gen, signal) {
    const here = this.entry(this.at);
    if (here.analysis && here.analysis.exact) return;
    this.analysing = true;
    // The progress of a search left earlier is not this one's: cleared before anything is drawn.
    here.live = null;
    this.render();
    try {
      const request = this.request(this.at, { detail: "line", lines: TOP_LINES, time: this.analysisSeconds() });
      // A longer analysis streams what it proves as it comes; leaving the position aborts it.
      const body = this.longer
        ? await apiStream("/api/dots/analyse", request, signal, (name, status) => {
          if (name === "status" && gen === this.gen) this.showLive(here, status);
        })
        : (await api("/api/dots", request, signal)).body;
      if (gen !== this.gen) return;
      here.live = null;
      here.analysis = body;
      here.facts = body;
      here.failure = null;
    } catch (e) {
      if (aborted(e) || gen !== this.gen) {
        // A search left behind: its progress goes with it.
        here.live = null;
        return;
      }
      here.failure = e.message;
    }
    this.analysing = false;
    this.render();
  }

  // What a longer analysis has proved so far, shown at once: its bounds met with what was known,
  // each move proved with its value (the board's numbers and the words read the same object as the
  // final answer, which replaces it).
  showLive(here, status) {
    const base = here.analysis || here.facts;
    const moves = (base.moves || []).slice();
    for (const p of status.proved) {
      const k = moves.findIndex((m) => m.move === p.move);
      const proved = { move: p.move, value: p.value, points: k >= 0 ? moves[k].points : 0 };
      if (k >= 0) moves[k] = proved;
      else moves.push(proved);
    }
    const known = rangeOf(base);
    const bounds = status.lower === undefined ? {}
      : { lower: Math.max(status.lower, known.lower), upper: Math.min(status.upper, known.upper) };
    here.analysis = { ...base, moves, ...bounds, reason: null };
    here.live = status;
    this.render();
  }

  // ply's move in the position shown (its time to think: the link's `think`, else the server's);
  // the line continues with it.
  async plyMoves(gen, signal) {
    this.thinking = true;
    this.render();
    const extra = { seed: this.seed + this.at };
    if (this.think !== null) extra.time = this.think;
    if (this.level !== 8) extra.level = this.level;
    const { body: reply } = await api("/api/play/dots", this.request(this.at, extra), signal);
    if (gen !== this.gen) return;
    this.thinking = false;
    this.entry(this.at).toMove = reply.player;
    const how = reply.choice === "exact" ? `, value ${shown(reply.value)}`
      : reply.choice === "level" ? ` (level ${reply.level})` : ", its best estimate (not proved)";
    this.say(`ply (${reply.player}) played ${reply.move}${how}.`);
    this.plyMade.add(this.line.slice(0, this.at).concat(reply.move).join(" "));
    this.extend(reply.move);
  }

  // The line goes on with `move` after the position shown: along the line when it does already, into
  // the variation that starts with it when there is one, else into a new variation (the line left
  // stays in the tree). The page goes there; the entry of the position left keeps the new line, so
  // that Back returns to it without ply moving again.
  extend(move) {
    const path = this.line.slice(0, this.at).concat(move);
    if (this.line[this.at] !== move) {
      this.tree.add(path);
      this.setLine(this.tree.continuation(path));
    }
    this.link(false);
    this.go(this.at + 1);
  }

  // The position after the moves `path` (a line of the tree), on the line that continues it.
  goPath(path) {
    this.setLine(this.tree.continuation(path));
    this.go(path.length);
  }

  // The line shown becomes the main line.
  promote() {
    this.tree.promote(this.line);
    this.link(false);
    this.render();
  }

  // Deletes the move shown and everything after it (with the variations that start there); the page
  // shows the position before it, on the line that now continues from there.
  deleteHere() {
    if (this.at === 0) return;
    const k = this.at;
    this.tree.removeFrom(this.line, k);
    this.setLine(this.tree.continuation(this.line.slice(0, k - 1)));
    this.go(k - 1);
  }

  // A move by the person: on their turn (either side when they play both), a free edge.
  play(edge) {
    const facts = this.entry(this.at).facts;
    if (!this.board) return false;
    if (!facts) {
      this.early = edge;
      return false;
    }
    const refusal = this.thinking ? "ply is thinking." : facts.over ? "The game is over."
      : this.line.slice(0, this.at).includes(edge) ? `Edge ${edge} is already drawn.`
      : !this.yourTurn(facts.to_move) ? `It is ply's turn (${facts.to_move}): step forward, or press “ply moves here”.`
      : null;
    if (refusal) {
      this.say(refusal);
      return false;
    }
    this.fresh.add(this.line.slice(0, this.at).concat(edge).join(" "));
    this.extend(edge);
    return true;
  }

  // ply makes the next move here, whoever's turn it is (a move other than the line's starts a
  // variation).
  plyHere() {
    const facts = this.entry(this.at).facts;
    if (!facts || facts.over || this.thinking) return;
    this.work?.abort();
    this.work = new AbortController();
    const gen = ++this.gen;
    this.plyMoves(gen, this.work.signal).catch((e) => this.failed(e, gen));
  }

  setLine(line) {
    this.tree.add(line);
    if (line.join(" ") === this.line.join(" ")) return;
    this.line = line;
    this.dropReview();
  }

  // Back to the position before your last move (and ply's replies), or one move in analysis.
  undo() {
    let k = this.at - 1;
    if (this.side !== "both") while (k > 0 && this.moverOf(k) !== undefined && this.moverOf(k) !== this.side) k--;
    if (k >= 0) this.go(k);
  }

  // Forward to your next turn along the line (or its end).
  redo() {
    let k = this.at + 1;
    if (this.side !== "both") while (k < this.line.length && this.moverOf(k) !== undefined && this.moverOf(k) !== this.side) k++;
    if (k <= this.line.length) this.go(k);
  }

  key(event) {
    const t = event.target;
    if (t && /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName)) return;
    if (event.key === "ArrowLeft" && this.at > 0) this.go(this.at - 1);
    else if (event.key === "ArrowRight" && this.at < this.line.length) this.go(this.at + 1);
    else return;
    event.preventDefault();
  }

  // ---------- the review ----------

  // Grades every move of the line and gives the value chart, once per line, in the background (its
  // own request, not stopped by moving through the line).
  review(again = false) {
    const line = this.line.slice();
    const text = line.join(" ");
    if (!line.length || (this.reviews.has(text) && !again) || this.reviewing?.text === text) return;
    this.dropReview();
    const controller = new AbortController();
    this.reviewing = { text, controller };
    this.render();
    api("/api/dots/review", { ...this.spec, moves: text, time: this.seconds("review") }, controller.signal)
      .then(({ body }) => {
        this.reviews.set(text, body);
        body.moves.forEach((g, i) => { this.entry(i, line).toMove = g.player; });
        this.reviewDone(text);
      })
      .catch((e) => {
        if (aborted(e)) return;
        this.reviews.set(text, { failure: e.message });
        this.reviewDone(text);
      });
  }

  reviewDone(text) {
    if (this.reviewing?.text === text) this.reviewing = null;
    if (this.closed || this.line.join(" ") !== text) return;
    this.render();
    this.announceGrades();
  }

  dropReview() {
    this.reviewing?.controller.abort();
    this.reviewing = null;
  }

  currentReview() {
    const r = this.reviews.get(this.line.join(" "));
    return r && !r.failure ? r : null;
  }

  // Cells open before move k of a review's line: the board's, less what the moves before completed.
  cellsBefore(review, k) {
    return review.moves.slice(0, k).reduce((left, g) => left - g.points, this.board.cells.length);
  }

  // Says how good the person's last move was, once it is graded.
  announceGrades() {
    const review = this.currentReview();
    if (!review) return;
    for (let k = this.at - 1; k >= 0; k--) {
      const g = review.moves[k];
      if (this.side !== "both" && g.player !== this.side) continue;
      const key = this.line.slice(0, k + 1).join(" ");
      if (this.fresh.has(key) && !this.announced.has(key)) {
        this.announced.add(key);
        const words = gradeWords(g, this.cellsBefore(review, k));
        this.say(`Your move ${g.move}: ${words.badge}, ${words.detail}.`);
      }
      return;
    }
  }

  say(text) {
    const live = this.ui.live;
    live.append(el("p", { text }));
    while (live.childElementCount > 3) live.firstElementChild.remove();
  }

  // ---------- records: import and export ----------

  // The players of a game made on this page, as a record names them.
  pagePlayers() {
    const ply = this.level === 8 ? "ply" : `ply, level ${this.level}`;
    return this.side === "A" ? { A: "you", B: ply } : this.side === "B" ? { A: ply, B: "you" } : { A: "you", B: "you" };
  }

  // Loads a move list or a record (text or JSON): every line is checked by the server (and its moves
  // named as the board names them) before the game is replaced; a record of another board opens it.
  // The game is then analysed with both sides played here.
  async importRecord(text) {
    let record;
    try {
      record = readRecord(text, this.moveLimits());
    } catch (e) {
      showError(`Not loaded: ${e.message}.`);
      return;
    }
    const spec = record.spec || this.spec;
    let tree;
    try {
      // A record of another board opens it: the server has to have it, moves or none.
      if (!sameSpec(spec, this.spec)) await api("/api/dots/board", spec);
      tree = await checkedTree(spec, record.tree);
    } catch (e) {
      showError(`Not loaded${e.where ?? ""}: ${e.message}`);
      return;
    }
    // The game is replaced: what was said of the link it came from no longer holds.
    clearError();
    clearLinkNotices();
    const params = { ...spec, moves: tree.write(), first: "both", seed: this.seed };
    if (record.players) Object.assign(params, { a: record.players.A, b: record.players.B });
    this.ui.recordEdited = false;
    setLink(params, true);
    if (!sameSpec(spec, this.spec)) {
      open(new URLSearchParams(params));
      return;
    }
    this.readOptions(new URLSearchParams(params));
    this.readMoves(new URLSearchParams(params));
    this.dropReview();
    this.syncControls();
    const variations = tree.leaves().length - 1;
    this.say(`Loaded a game${variations ? ` with ${variations === 1 ? "a variation" : `${variations} variations`}` : ""}: you play both sides.`);
    this.go(this.line.length, null);
  }

  // A line's review: the one made, else asked now.
  async reviewOf(line) {
    const text = line.join(" ");
    const known = this.reviews.get(text);
    if (known && !known.failure) return known;
    try {
      const { body } = await api("/api/dots/review", { ...this.spec, moves: text, time: this.seconds("review") });
      this.reviews.set(text, body);
      return body;
    } catch (e) {
      return { failure: e.message };
    }
  }

  // The result a record gives the game's main line: the score when it is over, else "*".
  async resultOf(line) {
    const here = this.entry(line.length, line);
    if (!here.facts) here.facts = (await api("/api/dots", { ...this.spec, moves: line.join(" "), detail: "value", time: DOTS_TIME.facts })).body;
    const f = here.facts;
    if (!f.over) return "*";
    return `A ${f.score.A}, B ${f.score.B}: ${f.winner === "tie" ? "a tie" : `${f.winner} wins`}`;
  }

  // The game as a record (`kind`: "text" or "json"), every line graded first; put in the moves box
  // and offered as a file.
  async exportRecord(kind) {
    this.say("Grading every line for the record…");
    const reviews = new Map();
    try {
      for (const leaf of this.tree.leaves()) reviews.set(leaf.join(" "), await this.reviewOf(leaf));
      const reviewAt = (line, k) => {
        const r = reviews.get(this.tree.continuation(line.slice(0, k)).join(" "));
        return r && !r.failure ? r : null;
      };
      const grade = (line, k) => reviewAt(line, k)?.moves[k - 1] ?? null;
      const words = (line, k) => {
        const g = grade(line, k);
        if (!g) return null;
        const w = gradeWords(g, this.cellsBefore(reviewAt(line, k), k - 1));
        return `${w.badge}: ${w.detail}`;
      };
      const result = await this.resultOf(this.tree.mainLine());
      const players = this.players || this.pagePlayers();
      const text = kind === "json"
        ? JSON.stringify(recordJson(this.spec, players, result, this.tree, grade), null, 1) + "\n"
        : recordText(this.spec, players, result, this.tree, grade, words);
      this.ui.showRecord(text, kind);
      this.say(`The record is in the moves box${kind === "json" ? " as JSON" : ""}: copy it, or save it as a file.`);
    } catch (e) {
      showError(`No record: ${e.message}`);
    }
  }

  // ---------- the strategies panel ----------

  // The original program's three strategies on the position shown, one after the other, each given
  // DOTS_TIME.strategy seconds; only while the panel is open.
  async compareStrategies(gen) {
    if (!this.ui.strategiesOpen() || this.entry(this.at).facts?.over) return;
    this.strategyWork?.abort();
    const controller = new AbortController();
    this.strategyWork = controller;
    const moves = this.line.slice(0, this.at).join(" ");
    const rows = [];
    for (const name of STRATEGY_NAMES) {
      try {
        const { body, ms } = await api("/api/dots", this.request(this.at, { strategy: name, detail: "value", time: DOTS_TIME.strategy }), controller.signal);
        rows.push(strategyRow(name, body, ms));
      } catch (e) {
        if (aborted(e) || gen !== this.gen) return;
        rows.push(strategyRow(name, null, null, e.message));
      }
    }
    if (gen === this.gen) this.ui.showStrategies(moves, rows);
  }

  // ---------- drawing ----------

  render() {
    if (!this.board || this.closed) return;
    const here = this.entry(this.at);
    this.renderBoard(here);
    this.renderStatus(here);
    this.renderLastMoves();
    this.renderMoveList();
    this.renderChart();
    this.renderSummary(here);
    this.ui.buttons(this, here);
  }

  // The owners of the nearest position along the line whose facts are known (cells won stay won).
  ownersNear() {
    for (let k = this.at; k >= 0; k--) {
      const f = this.entry(k).facts;
      if (f) return f.owners;
    }
    return null;
  }

  // The moves of the last two turns: the latest turn badged with their numbers.
  marks() {
    const marks = new Map();
    let turn = 0;
    let player = this.moverOf(this.at - 1);
    for (let k = this.at - 1; k >= 0; k--) {
      const p = this.moverOf(k);
      if (p === undefined) {
        if (k === this.at - 1) marks.set(this.line[k], { player: null, number: k + 1, latest: true });
        break;
      }
      if (p !== player) {
        if (++turn === 2) break;
        player = p;
      }
      marks.set(this.line[k], { player: p, number: k + 1, latest: turn === 0 });
    }
    return marks;
  }

  renderBoard(here) {
    const facts = here.facts;
    const owners = facts ? facts.owners : this.ownersNear();
    const analysis = this.showValues && here.analysis && !here.analysis.over ? here.analysis : null;
    const best = new Set();
    if (analysis && analysis.exact) analysis.moves.filter((m) => m.value === analysis.value).forEach((m) => best.add(m.move));
    else if (analysis && analysis.best_move) best.add(analysis.best_move);
    const pos = {
      drawn: new Set(this.line.slice(0, this.at)),
      owners,
      toMove: facts ? facts.to_move : "",
      values: analysis ? new Map(analysis.moves.map((m) => [m.move, m])) : null,
      best,
      cellsLeft: openCells(owners),
      marks: this.marks(),
      playable: Boolean(facts && !facts.over && !this.thinking && this.yourTurn(facts.to_move)),
    };
    const holder = this.ui.board;
    const focused = holder.contains(document.activeElement) ? document.activeElement.closest("[data-edge]") : null;
    holder.replaceChildren(dotsBoardSvg(this.board, pos, (e) => this.play(e)));
    if (focused) holder.querySelector(`[data-edge="${focused.getAttribute("data-edge")}"]`)?.focus();
  }

  renderStatus(here) {
    const f = here.facts;
    const ui = this.ui;
    const viewing = this.atEnd() ? "" : ` Viewing move ${this.at} of ${this.line.length}.`;
    if (!f) {
      ui.status.textContent = here.unread ? `This position could not be read: ${here.unread}. Step back and forward to ask again.` : "Reading the position…";
      ui.status.setAttribute("data-player", "none");
      // Nothing of the position shown before stays on screen as if it were this one's.
      ui.summary.textContent = "";
      this.ui.topLines.replaceChildren();
      this.ui.topLinesBox.hidden = true;
      return;
    }
    const score = `Score: A ${f.score.A}, B ${f.score.B}.`;
    ui.status.setAttribute("data-player", f.over ? "none" : f.to_move);
    if (f.over) {
      const who = (p) => (this.sideWho(p) ? ` (${this.sideWho(p)})` : "");
      ui.status.textContent = `Game over: A ${f.score.A}, B ${f.score.B}` + (f.winner === "tie" ? ": a tie." : `: ${f.winner}${who(f.winner)} wins.`) + viewing;
    } else if (this.thinking) {
      const t = this.think !== null ? this.think : this.limits.think_seconds;
      ui.status.textContent = `${f.to_move} to move (ply, thinking up to ${t} s…). ${score}`;
    } else {
      const who = this.who(f.to_move);
      ui.status.textContent = `${f.to_move} to move${who ? ` (${who})` : ""}. ${score}${viewing}`;
    }
    ui.summary.textContent = f.over ? "" : this.valueWords(here);
    this.renderTopLines(here);
  }

  // The best moves of the position, each with its value (or bounds and estimate) and its line, as
  // the analysis gave them (`lines`): an engine's multi-line view.
  renderTopLines(here) {
    const a = here.analysis;
    const lines = a && !a.over && !this.thinking && here.facts && !here.facts.over ? a.lines || [] : [];
    this.ui.topLinesBox.hidden = lines.length === 0;
    // Bounds as the board writes them: "≤−1" where the other bound is only what the cells allow.
    const left = openCells(a?.owners);
    const points = new Map((a?.moves || []).map((m) => [m.move, m.points || 0]));
    this.ui.topLines.replaceChildren(...lines.map((t) => {
      const r = rangeOf(t);
      const bound = provesNothing(r, left, points.get(t.move)) ? "not proved" : boundText(r, left, points.get(t.move));
      const value = t.value !== null ? shown(t.value)
        : t.estimate !== undefined ? `about ${shown(t.estimate)} (${bound})` : bound;
      const line = t.line.slice(0, 14).join(" ") + (t.line.length > 14 ? " …" : "");
      return el("li", { "data-move": t.move }, el("strong", { text: t.move }), ` ${value}: ${line}`);
    }));
  }

  // What is known of the position's value, in words.
  valueWords(here) {
    const a = here.analysis;
    if (this.thinking) return "";
    if (!a) {
      if (here.failure) return `Not analysed: ${here.failure}`;
      return this.analysing ? `Analysing (up to ${this.analysisSeconds()} s)…` : "";
    }
    if (a.exact) {
      const outcome = a.winner === "tie" ? "a tie" : `${a.winner} wins`;
      // A value proved (a book's) with no move proved to keep it: the move named is the estimate's.
      const best = !a.best_move ? "" : a.estimate ? ` Best move found: ${a.best_move} (the value is proved, not yet which move keeps it).` : ` Best move ${a.best_move}.`;
      return `Value ${shown(a.value)} for ${a.to_move}: with perfect play ${outcome}, ${a.final_score.A}–${a.final_score.B}.${best}` +
        (a.line.length ? ` Best line: ${a.line.slice(0, 12).join(" ")}${a.line.length > 12 ? " …" : ""}` : "");
    }
    const found = a.best_move ? ` Best move found: ${a.best_move}` + (a.estimate ? `, value about ${aboutText(a.estimate)} (not proved; estimated ${a.estimate.depth} turns ahead).` : ".") : "";
    const why = a.reason ? ` (${a.reason})` : "";
    // Bounds as wide as the cells left are no result: nothing is said of them.
    const left = openCells(a.owners);
    const value = provesNothing(rangeOf(a), left) ? "not proved yet" : `${rangeWords(rangeOf(a))}`;
    const live = here.live
      ? ` ${here.live.nodes.toLocaleString("en")} positions searched` +
        (here.live.moves ? `, ${here.live.moves_proved} of ${here.live.moves} moves proved` : "") + "."
      : "";
    return `Not proved${why}: the value for ${a.to_move} is ${value}.${found}` +
      (this.analysing ? ` Analysing${this.longer ? " longer" : ""} (up to ${this.analysisSeconds()} s)…${live}` : "");
  }

  // The grades of the moves of the last two turns (the ones highlighted on the board).
  renderLastMoves() {
    const review = this.currentReview();
    const marks = [...this.marks().values()].sort((x, y) => y.number - x.number);
    this.ui.lastMoves.replaceChildren(...marks.map((m) => {
      const k = m.number - 1;
      const g = review ? review.moves[k] : null;
      const who = this.madeBy(k) ? ` (${this.madeBy(k)})` : "";
      const head = `${m.number}. ${m.player ? `${m.player}${who} ` : ""}${this.line[k]}: `;
      if (!g) return el("p", { text: head + (this.reviewing ? "grading…" : "not graded") });
      return el("p", { "data-ply": String(m.number) }, head, verdictBadge(g), " " + gradeWords(g, this.cellsBefore(review, k)).detail);
    }));
  }

  renderMoveList() {
    const review = this.currentReview();
    const rows = this.line.map((move, i) => {
      const g = review ? review.moves[i] : null;
      const player = g ? g.player : this.moverOf(i);
      const left = review ? this.cellsBefore(review, i) : 0;
      // The variations that start here instead of this move, each with its main continuation.
      const variations = this.tree.after(this.line, i).filter((m) => m !== move).map((alt) => {
        const branch = this.tree.continuation(this.line.slice(0, i).concat(alt));
        return branch.slice(i).map((m, j) => ({ move: m, path: branch.slice(0, i + j + 1) }));
      });
      return { move, player, who: this.madeBy(i), points: g ? g.points : 0, grade: g, left, variations };
    });
    const note = this.reviewing ? "Grading the moves…" : this.reviews.get(this.line.join(" "))?.failure || "";
    const list = this.ui.moveList;
    // The list is drawn anew: the keyboard's place in it (a move picked with Enter) goes to the
    // move now current, not to the page's start — also when an earlier drawing already lost it.
    const active = document.activeElement;
    if (list.contains(active)) this.listFocused = true;
    else if (active && active !== document.body) this.listFocused = false;
    list.replaceChildren(moveListTable(rows, this.at, (k) => this.go(k), (path) => this.goPath(path)), el("p", { class: "small", text: note }));
    if (this.listFocused) list.querySelector(`tr[data-ply="${this.at}"] button`)?.focus({ preventScroll: true });
    // The current move in view, inside the list only (the page does not scroll).
    const row = list.querySelector(`tr[data-ply="${this.at}"]`);
    if (row && (row.offsetTop < list.scrollTop || row.offsetTop + row.offsetHeight > list.scrollTop + list.clientHeight)) {
      list.scrollTop = row.offsetTop - list.clientHeight / 2;
    }
    const main = this.tree.onMainLine(this.line);
    this.ui.lineNote.textContent = main ? "Main line." : "A variation: the main line is kept.";
    this.ui.lineNote.setAttribute("data-main", String(main));
    if (!this.ui.recordEdited) this.ui.movesText.value = this.tree.write();
    this.ui.command.textContent = `ply dots ${this.spec.game} ${specOptions(this.spec)} --moves "${this.line.slice(0, this.at).join(" ")}"`;
  }

  renderChart() {
    const review = this.currentReview();
    const cells = this.board.cells.length;
    if (!this.line.length) {
      this.ui.chart.replaceChildren(el("p", { class: "small", text: "No moves yet." }));
      return;
    }
    if (!review) {
      const failure = this.reviews.get(this.line.join(" "))?.failure;
      this.ui.chart.replaceChildren(el("p", { class: "small", text: this.reviewing ? "Reviewing the game…" : failure ? `No review: ${failure}` : "No review." }));
      return;
    }
    const gaps = review.margins.filter((v) => v === null).length;
    // Where this review is exact: from the position after the last one not proved.
    const exactFrom = review.margins.length - review.margins.slice().reverse().findIndex((v) => v === null);
    const estimates = review.estimates || [];
    const guessed = estimates.filter((v) => v !== null).length;
    const focused = this.ui.chart.contains(document.activeElement);
    this.ui.chart.replaceChildren(valueChartSvg(review.margins, this.at, cells, (k) => this.go(k), estimates),
      el("p", { class: "small", "data-exact-from": String(gaps ? exactFrom : 0), text: "A's final margin if both play perfectly from there, after each number of moves played (above 0 A wins, below B wins)." +
        (gaps ? ` ${gaps} positions not proved within ${this.seconds("review")} s` +
          (guessed ? ": hollow points on a dashed line are ply's estimate there, not proved" : ": “?”") +
          `; exact from move ${exactFrom} on.` : "") }));
    // The keyboard stays on the chart as it steps through the game.
    if (focused) this.ui.chart.querySelector(`.chart-point[data-ply="${this.at}"]`)?.focus();
  }

  renderSummary(here) {
    const review = this.currentReview();
    const over = here.facts && here.facts.over && this.atEnd();
    this.ui.summaryPanel.hidden = !over;
    if (!over) return;
    this.ui.gameSummary.replaceChildren(review ? gameSummaryTable(review, (p) => this.sideWho(p)) : el("p", { class: "small", text: "Reviewing the game…" }));
  }

  // Who plays whom, changed during a game: ply takes its side from the position shown.
  setSide(value) {
    this.side = value === "ply" ? "B" : value === "both" ? "both" : "A";
    this.go(this.at, false);
  }

  // How well ply plays from now on: 1 (weakest) to 8 (perfect).
  setLevel(value) {
    this.level = Number(value);
    this.link(false);
  }

  // ply's time to think from the box: above 0, at most what a request may take here (more is
  // said and cut to it, never sent to be refused while ply's turn waits).
  setThink(value) {
    const think = Number(value);
    const most = this.limits ? this.limits.time_limit_seconds : Infinity;
    this.think = value !== "" && think > 0 && Number.isFinite(think) ? Math.min(think, most) : null;
    if (this.think !== null && think > most) {
      this.ui.think.value = String(most);
      this.say(`ply thinks at most ${most} s a move here (the server's limit for a request).`);
    } else if (value !== "" && this.think === null) {
      this.say(`“${value}” is no time to think: ply thinks for the server's time.`);
    }
    this.link(false);
  }

  syncControls() {
    this.ui.values.checked = this.showValues;
    this.ui.first.value = this.side === "B" ? "ply" : this.side === "both" ? "both" : "me";
    this.ui.level.value = String(this.level);
  }

  // A new game on the board the inputs name, with the chosen sides.
  newGame() {
    const p = { ...this.ui.specInputs(), moves: "" };
    const side = this.ui.first.value;
    if (side !== "me") p.first = side;
    if (this.showValues) p.values = "1";
    if (this.level !== 8) p.level = this.level;
    const think = Number(this.ui.think.value);
    if (think > 0) p.think = think;
    p.seed = this.seed;
    setLink(p, true);
    open(new URLSearchParams(p));
  }
}

// `tree` with every line checked by the server on `spec`'s board and its moves named as the board
// names them (`5 2` → `2-5`). Throws the server's refusal of the first line it refuses, with `where`
// naming that line (" (the main line)", " (variation 2)") when there are several.
async function checkedTree(spec, tree) {
  const leaves = tree.leaves();
  const names = new Map();
  for (const [i, leaf] of leaves.entries()) {
    try {
      const { body } = await api("/api/dots", { ...spec, moves: leaf.join(" "), detail: "value", time: DOTS_TIME.facts });
      leaf.forEach((m, k) => names.set(m, body.played[k]));
    } catch (e) {
      e.where = leaves.length === 1 ? "" : i === 0 ? " (the main line)" : ` (variation ${i})`;
      throw e;
    }
  }
  return tree.renamed(names);
}

// What the size inputs mean for exactness: every position proved, or from how many free edges on.
function exactNote(board, limits) {
  const edges = board.edges.length;
  const free = limits.dots_exact_free;
  if (edges <= free) return `${board.title}: ${edges} edges, every position exact.`;
  return `${board.title}: ${edges} edges. Exact from ${free} free edges on (after move ${edges - free}); before that, exact where ply's book holds the position, else ply plays its best estimate and values may be bounds.`;
}

function strategyRow(name, body, ms, failure) {
  const cells = [el("td", { text: name })];
  if (!body) {
    cells.push(el("td", { text: "—" }), el("td", { text: "" }), el("td", { class: "small", text: failure }));
  } else {
    const time = ms === null ? "" : ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`;
    cells.push(el("td", { "data-states": body.states_visited, text: body.states_visited.toLocaleString("en") }),
      el("td", { style: "white-space:nowrap", text: time }),
      el("td", { class: "small", text: body.exact ? `value ${shown(body.value)}` : `not finished in ${DOTS_TIME.strategy} s` }));
  }
  return el("tr", { "data-strategy": name, "data-exact": String(Boolean(body && body.exact)) }, ...cells);
}
