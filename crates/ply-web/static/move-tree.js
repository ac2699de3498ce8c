// A game's moves as a tree, as an analysis board keeps them: playing from an earlier position starts
// a variation and keeps the line it left. Moves are the names the server gave them (no rule of any
// game is known here: the server checks every line before it is shown). The tree is written as
// movetext — the main line, each variation in parentheses after the move it replaces, as PGN does:
// `4-7 8-9 (1-2 2-5) 6-9` — which is what the page's links carry in `moves`.
"use strict";

class MoveTree {
  constructor() {
    // The moves after each position, by the moves to it joined with spaces ("" is the start); the
    // first is the main continuation.
    this.next = new Map();
  }

  static key(line, k = line.length) {
    return line.slice(0, k).join(" ");
  }

  // The moves that follow the position after the first k moves of `line`.
  after(line, k = line.length) {
    return this.next.get(MoveTree.key(line, k)) || [];
  }

  // Puts every move of `line` in the tree; a move new at its position starts a variation (the line
  // already there stays the main one).
  add(line) {
    for (let k = 0; k < line.length; k++) {
      const key = MoveTree.key(line, k);
      const moves = this.next.get(key) || [];
      if (!moves.includes(line[k])) moves.push(line[k]);
      this.next.set(key, moves);
    }
  }

  // `line` followed by the main continuation of its last position, to the end of the tree.
  continuation(line) {
    const out = line.slice();
    for (let moves = this.after(out); moves.length; moves = this.after(out)) out.push(moves[0]);
    return out;
  }

  mainLine() {
    return this.continuation([]);
  }

  // Whether `line` runs along the main line (a part of it from the start).
  onMainLine(line) {
    return line.every((m, k) => this.after(line, k)[0] === m);
  }

  // Makes `line` the main line: at every position along it, its move becomes the first.
  promote(line) {
    line.forEach((m, k) => {
      const moves = this.after(line, k);
      const i = moves.indexOf(m);
      if (i > 0) moves.unshift(...moves.splice(i, 1));
    });
  }

  // Removes the k-th move of `line` (from 1) and everything after it.
  removeFrom(line, k) {
    const prefix = line.slice(0, k - 1);
    const moves = this.after(prefix);
    const i = moves.indexOf(line[k - 1]);
    if (i < 0) return;
    moves.splice(i, 1);
    if (!moves.length) this.next.delete(MoveTree.key(prefix));
    const gone = MoveTree.key(line, k);
    for (const key of [...this.next.keys()]) {
      if (key === gone || key.startsWith(gone + " ")) this.next.delete(key);
    }
  }

  // Every line that ends where the tree does (the main line first).
  leaves(prefix = []) {
    const moves = this.after(prefix);
    if (!moves.length) return prefix.length ? [prefix] : [];
    return moves.flatMap((m) => this.leaves(prefix.concat(m)));
  }

  // The tree as movetext. `word(line, k)` writes the k-th move (from 1) of `line`.
  write(word = (line, k) => line[k - 1], prefix = []) {
    const parts = [];
    let line = prefix.slice();
    for (let moves = this.after(line); moves.length; moves = this.after(line)) {
      parts.push(word(line.concat(moves[0]), line.length + 1));
      for (const alt of moves.slice(1)) {
        const branch = line.concat(alt);
        const rest = this.write(word, branch);
        parts.push("(" + [word(branch, branch.length), rest].filter((t) => t).join(" ") + ")");
      }
      line = line.concat(moves[0]);
    }
    return parts.join(" ");
  }

  // A tree from movetext: moves (one token each, or two bare numbers — `2 5`), variations in
  // parentheses, and what a record adds around them skipped: move numbers (`12.`, `12...`, or a bare
  // number just before a move with a dash or a player letter), the player letters `A` and `B`,
  // comments in braces. Throws an Error naming the fault; the moves themselves are checked by the
  // server. `limits` bound what is read before the server is asked (a pasted list of 50 000 moves is
  // refused at once, not parsed into a tree no board holds): `maxLine`, the most moves one line may
  // have (the most edges a board has: /api/limits `dots_max_edges`), and `maxLines`, the most lines
  // (the main line and each variation), each of which the server checks.
  static read(text, limits = {}) {
    const { maxLine = Infinity, maxLines = Infinity } = limits;
    const tree = new MoveTree();
    let lines = 1;
    const push = (line, move) => {
      if (line.length >= maxLine) throw new Error(`a line of more than ${maxLine} moves: no board has more than ${maxLine} edges`);
      line.push(move);
    };
    if (/\{|\}/.test(text.replace(/\{[^}]*\}/g, ""))) throw new Error("a comment's braces { } do not match");
    const tokens = text.replace(/\{[^}]*\}/g, " ").replace(/\s*-\s*/g, "-").match(/\(|\)|[^\s(),;]+/g) || [];
    const numberBefore = (i) => /^(\d+-\d+|A|B)$/.test(tokens[i + 1] || "");
    // The line being read, and the lines to return to at each closing parenthesis.
    let line = [];
    const open = [];
    let pending = null;
    for (const [i, token] of tokens.entries()) {
      if (token === "(") {
        if (pending !== null) throw new Error(`move \`${pending}\` has only one dot`);
        if (!line.length) throw new Error("a variation “(” before any move");
        if (++lines > maxLines) throw new Error(`more than ${maxLines} lines (the main line and its variations)`);
        tree.add(line);
        open.push(line);
        line = line.slice(0, -1);
      } else if (token === ")") {
        if (pending !== null) throw new Error(`move \`${pending}\` has only one dot`);
        if (!open.length) throw new Error("a “)” closes no variation");
        tree.add(line);
        line = open.pop();
      } else if (/^\d+\.+$/.test(token) || token === "A" || token === "B" || token === "*") {
        continue;
      } else if (/^\d+$/.test(token) && pending === null && numberBefore(i)) {
        continue;
      } else if (/^\d+$/.test(token)) {
        if (pending === null) pending = token;
        else {
          push(line, `${pending} ${token}`);
          pending = null;
        }
      } else {
        push(line, token);
      }
    }
    if (pending !== null) throw new Error(`move \`${pending}\` has only one dot`);
    if (open.length) throw new Error("a variation “(” is not closed");
    tree.add(line);
    return tree;
  }

  // A copy whose moves are renamed by `rename` (a Map from the name read to the server's).
  renamed(rename) {
    const tree = new MoveTree();
    for (const leaf of this.leaves()) tree.add(leaf.map((m) => rename.get(m) ?? m));
    // Leaves come in tree order, so the main line stays first.
    return tree;
  }
}
