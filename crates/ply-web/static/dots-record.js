// A dots game as a record to keep or share, and back: the board, the players, the result, every move
// with its player, grade and value, and the variations. Two forms, both read back by the page's
// import to the same game (an export of the import is the same text):
//
//   text — PGN's shape: tag lines, then the movetext (move-tree.js) with each move numbered, its
//   player and a comment holding its grade, variations in parentheses:
//       [Game "triangles"]
//       [Size "3"]
//       [A "you"]
//       [B "ply"]
//       [Result "A 5, B 4: A wins"]
//
//       1. A 4-7 {best: +1} 2. B 8-9 {mistake −2: −1, best was +1 (1-2)} (2. B 1-2 {best: +1}) 3. A …
//   json — {"format": "ply dots record 1", "game", "size" | "rows" and "cols", "players": {"A", "B"},
//   "result", "moves": [{"move", "player", "grade", "variations": [[move, …], …]}, …]}, where a grade
//   is the /api/dots/review entry of the move.
//
// The grades are the server's (/api/dots/review); an import ignores them (they are graded again) and
// reads only the board, the players and the moves — which the server then checks.
"use strict";

const RECORD_FORMAT = "ply dots record 1";

// The tag lines of a record of `spec`'s board.
function recordTags(spec, players, result) {
  const board = spec.game === "boxes" ? [["Rows", spec.rows], ["Cols", spec.cols]] : [["Size", spec.size]];
  const tag = ([name, value]) => `[${name} "${String(value).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]`;
  return [["Game", spec.game], ...board, ["A", players.A], ["B", players.B], ["Result", result]].map(tag).join("\n");
}

// The record as text. `grade(line, k)`: the k-th move's grade entry (or null), `words(line, k)`: its
// comment's text (or null).
function recordText(spec, players, result, tree, grade, words) {
  const word = (line, k) => {
    const g = grade(line, k);
    const comment = words(line, k);
    return [`${k}.`, g ? g.player : "", line[k - 1], comment ? `{${comment}}` : ""].filter((t) => t).join(" ");
  };
  return `${recordTags(spec, players, result)}\n\n${tree.write(word)}\n`;
}

// The record as a JSON value.
function recordJson(spec, players, result, tree, grade) {
  const moves = (prefix) => {
    const out = [];
    let line = prefix.slice();
    for (let next = tree.after(line); next.length; next = tree.after(line)) {
      const here = line.concat(next[0]);
      out.push({
        move: next[0],
        player: grade(here, here.length)?.player ?? null,
        grade: grade(here, here.length),
        variations: next.slice(1).map((alt) => [entryOf(line.concat(alt)), ...moves(line.concat(alt))]),
      });
      line = here;
    }
    return out;
  };
  const entryOf = (line) => ({ move: line[line.length - 1], player: grade(line, line.length)?.player ?? null, grade: grade(line, line.length), variations: [] });
  const board = spec.game === "boxes" ? { rows: spec.rows, cols: spec.cols } : { size: spec.size };
  return { format: RECORD_FORMAT, game: spec.game, ...board, players, result, moves: moves([]) };
}

// What an import reads: {spec (or null: the board open now), players (or null), tree}, within
// `limits` (MoveTree.read's: the most moves in a line, the most lines). Throws an Error naming the
// fault in the record's terms.
function readRecord(text, limits = {}) {
  const trimmed = text.trim();
  if (!trimmed) throw new Error("the box is empty: paste moves or a record, then Load");
  if (trimmed.startsWith("{")) return readRecordJson(trimmed, limits);
  const tags = new Map();
  const body = trimmed.replace(/^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$/gm, (_, name, value) => {
    tags.set(name.toLowerCase(), value.replace(/\\(.)/g, "$1"));
    return "";
  });
  const bad = /^\s*\[.*$/m.exec(body);
  if (bad) throw new Error(`the tag line ${quoteText(bad[0].trim())} is not of the form [Name "value"]`);
  return { spec: specOfTags(tags), players: playersOf(tags.get("a"), tags.get("b")), tree: MoveTree.read(body, limits) };
}

function readRecordJson(text, { maxLine = Infinity, maxLines = Infinity }) {
  let record;
  try {
    record = JSON.parse(text);
  } catch (e) {
    throw new Error(`the record starts with “{” but is not JSON: ${e.message}`);
  }
  if (!record || typeof record !== "object" || Array.isArray(record)) throw new Error("a JSON record is an object");
  if (record.format !== RECORD_FORMAT) throw new Error(`a JSON record's "format" is "${RECORD_FORMAT}"`);
  const tree = new MoveTree();
  let lines = 1;
  const walk = (prefix, moves, where) => {
    if (!Array.isArray(moves)) throw new Error(`${where} is a list of moves`);
    if (prefix.length + moves.length > maxLine) throw new Error(`${where} makes a line of more than ${maxLine} moves: no board has more than ${maxLine} edges`);
    let line = prefix;
    moves.forEach((m, i) => {
      if (!m || typeof m.move !== "string") throw new Error(`${where}[${i}] has no "move" text`);
      if (!Array.isArray(m.variations ?? [])) throw new Error(`${where}[${i}].variations is a list of lines`);
      if (m.variations?.length && (lines += m.variations.length) > maxLines) throw new Error(`more than ${maxLines} lines (the main line and its variations)`);
      const here = line.concat(m.move);
      tree.add(here);
      (m.variations || []).forEach((v, j) => walk(line, v, `${where}[${i}].variations[${j}]`));
      line = here;
    });
  };
  walk([], record.moves, '"moves"');
  const tags = new Map(["game", "size", "rows", "cols"].filter((k) => record[k] !== undefined).map((k) => [k, String(record[k])]));
  return { spec: specOfTags(tags), players: playersOf(record.players?.A, record.players?.B), tree };
}

// The board a record's tags name, or null when they name none (the board open stays).
function specOfTags(tags) {
  const game = tags.get("game");
  if (game === undefined) return null;
  const whole = (name) => {
    const v = tags.get(name);
    if (v === undefined || !/^\d+$/.test(v)) throw new Error(`a ${game} record needs a whole-number “${name[0].toUpperCase()}${name.slice(1)}” tag`);
    return Number(v);
  };
  if (game === "boxes") return { game, rows: whole("rows"), cols: whole("cols") };
  if (game === "triangles") return { game, size: whole("size") };
  throw new Error(`the game ${quoteText(game)} is not a dots game (triangles or boxes)`);
}

function playersOf(a, b) {
  return a === undefined && b === undefined ? null : { A: String(a ?? "A"), B: String(b ?? "B") };
}
