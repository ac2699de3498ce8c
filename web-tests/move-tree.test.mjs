// The page's move tree and records (crates/ply-web/static/move-tree.js, dots-record.js) without a
// browser: movetext read and written back, variations promoted and deleted, records read, lists
// past any board refused before they are parsed into a tree.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const statics = resolve(dirname(fileURLToPath(import.meta.url)), "..", "crates", "ply-web", "static");
// common.js (quoteText) reads the page's elements when it loads: none here.
const context = vm.createContext({ document: { getElementById: () => null } });
for (const file of ["common.js", "move-tree.js", "dots-record.js"]) vm.runInContext(readFileSync(join(statics, file), "utf8"), context);
const { MoveTree, readRecord, recordText, recordJson } = vm.runInContext("({ MoveTree, readRecord, recordText, recordJson })", context);
// Values made in the script's context, as this one's (deepEqual compares prototypes).
const plain = (x) => JSON.parse(JSON.stringify(x));

test("movetext: a variation is kept after the move it replaces, and written back the same", () => {
  const tree = MoveTree.read("4-7 8-9 1-2 (2-5 3-6 (1-3)) 6-9");
  assert.deepEqual(plain(tree.mainLine()), ["4-7", "8-9", "1-2", "6-9"]);
  assert.deepEqual(plain(tree.leaves().map((l) => l.join(" "))), ["4-7 8-9 1-2 6-9", "4-7 8-9 2-5 3-6", "4-7 8-9 2-5 1-3"]);
  assert.equal(tree.write(), "4-7 8-9 1-2 (2-5 3-6 (1-3)) 6-9");
  assert.deepEqual(plain(tree.continuation(["4-7", "8-9", "2-5"])), ["4-7", "8-9", "2-5", "3-6"]);
});

test("movetext: move numbers, player letters, comments, commas, new lines and pairs of numbers", () => {
  const tree = MoveTree.read("1. A 4-7 {best: +1}\n2. B 8 9, 3. A 1 - 2 (3... A 2 5) 4 6-9");
  assert.equal(tree.write(), "4-7 8 9 1-2 (2 5) 6-9");
  assert.equal(MoveTree.read("").write(), "");
  assert.equal(MoveTree.read("1-2,2-3\n3-4").write(), "1-2 2-3 3-4");
});

test("movetext: faults are named", () => {
  assert.throws(() => MoveTree.read("1-2 (2-3"), /a variation “\(” is not closed/);
  assert.throws(() => MoveTree.read("1-2 2-3)"), /a “\)” closes no variation/);
  assert.throws(() => MoveTree.read("(1-2)"), /a variation “\(” before any move/);
  assert.throws(() => MoveTree.read("1-2 7"), /move `7` has only one dot/);
  assert.throws(() => MoveTree.read("1-2 {best"), /braces/);
});

test("movetext: a line longer than any board, or too many lines, is refused while it is read", () => {
  const moves = (n) => Array.from({ length: n }, (_, i) => `${i + 1}-${i + 2}`).join(" ");
  const limits = { maxLine: 63, maxLines: 256 };
  assert.equal(MoveTree.read(moves(63), limits).mainLine().length, 63);
  assert.throws(() => MoveTree.read(moves(64), limits), /^Error: a line of more than 63 moves: no board has more than 63 edges$/);
  // 50 000 moves (what a probe pasted, and the page once overflowed its stack on): refused the same.
  assert.throws(() => MoveTree.read(moves(50_000), limits), /a line of more than 63 moves/);
  // A variation counts from the start of the game: 62 moves, then one replacing the 62nd with three.
  assert.equal(MoveTree.read(`${moves(62)} (a b)`, limits).leaves()[1].length, 63);
  assert.throws(() => MoveTree.read(`${moves(62)} (a b c)`, limits), /a line of more than 63 moves/);
  const branches = (n) => "1-2 " + Array.from({ length: n }, (_, i) => `(v${i})`).join(" ");
  assert.equal(MoveTree.read(branches(255), limits).leaves().length, 256);
  assert.throws(() => MoveTree.read(branches(256), limits), /^Error: more than 256 lines \(the main line and its variations\)$/);
  // Without limits (the tests above), any length is read.
  assert.equal(MoveTree.read(moves(200)).mainLine().length, 200);
});

test("a new move at an earlier position starts a variation; promote and delete", () => {
  const tree = MoveTree.read("a b c");
  tree.add(["a", "x", "y"]);
  assert.equal(tree.write(), "a b (x y) c");
  assert.equal(tree.onMainLine(["a", "x"]), false);
  tree.promote(["a", "x", "y"]);
  assert.equal(tree.write(), "a x (b c) y");
  assert.equal(tree.onMainLine(["a", "x", "y"]), true);
  tree.removeFrom(["a", "b", "c"], 2);
  assert.equal(tree.write(), "a x y");
  tree.removeFrom(["a", "x", "y"], 1);
  assert.equal(tree.write(), "");
});

test("records: the text form's tags and moves, and the JSON form, read back", () => {
  const tree = MoveTree.read("1-2 1-3 (2-3) 2-4");
  const grade = (line, k) => ({ player: k % 2 ? "A" : "B", verdict: "best" });
  const words = (line, k) => `best: ${k}`;
  const spec = { game: "triangles", size: 2 };
  const text = recordText(spec, { A: "you", B: "ply \"x\"" }, "*", tree, grade, words);
  assert.equal(text, '[Game "triangles"]\n[Size "2"]\n[A "you"]\n[B "ply \\"x\\""]\n[Result "*"]\n\n' +
    "1. A 1-2 {best: 1} 2. B 1-3 {best: 2} (2. B 2-3 {best: 2}) 3. A 2-4 {best: 3}\n");
  const read = readRecord(text);
  assert.deepEqual(plain(read.spec), spec);
  assert.deepEqual(plain(read.players), { A: "you", B: 'ply "x"' });
  assert.equal(read.tree.write(), "1-2 1-3 (2-3) 2-4");
  const json = JSON.stringify(recordJson({ game: "boxes", rows: 1, cols: 2 }, { A: "A", B: "B" }, "*", tree, grade));
  const back = readRecord(json);
  assert.deepEqual(plain(back.spec), { game: "boxes", rows: 1, cols: 2 });
  assert.equal(back.tree.write(), "1-2 1-3 (2-3) 2-4");
  assert.throws(() => readRecord('[Game "chess"]\n1-2'), /`chess` is not a dots game/);
  assert.throws(() => readRecord('[Game "boxes"]\n[Rows "2"]\n1-2'), /needs a whole-number “Cols” tag/);
  assert.throws(() => readRecord("{ not json"), /is not JSON/);
  assert.throws(() => readRecord('{"format": "other"}'), /"format" is "ply dots record 1"/);
  assert.throws(() => readRecord('[Game triangles]\n1-2'), /the tag line `\[Game triangles\]` is not of the form/);
  assert.throws(() => readRecord(" \n "), /^Error: the box is empty: paste moves or a record, then Load$/);
});

test("records: the limits hold for both forms", () => {
  const limits = { maxLine: 3, maxLines: 2 };
  assert.equal(readRecord('[Game "triangles"]\n[Size "2"]\n1-2 1-3 (2-3) 2-4', limits).tree.leaves().length, 2);
  assert.throws(() => readRecord("1-2 1-3 2-4 3-5", limits), /a line of more than 3 moves/);
  assert.throws(() => readRecord("1-2 (1-3) (2-3)", limits), /more than 2 lines/);
  const json = (moves) => JSON.stringify({ format: "ply dots record 1", game: "triangles", size: 2, moves });
  const m = (move, variations = []) => ({ move, variations });
  assert.equal(readRecord(json([m("1-2"), m("1-3", [[m("2-3")]]), m("2-4")]), limits).tree.write(), "1-2 1-3 (2-3) 2-4");
  assert.throws(() => readRecord(json([m("1-2"), m("1-3"), m("2-4"), m("3-5")]), limits), /^Error: "moves" makes a line of more than 3 moves/);
  assert.throws(() => readRecord(json([m("1-2", [[m("a")], [m("b")]])]), limits), /more than 2 lines/);
  assert.throws(() => readRecord(json([{ move: "1-2", variations: "2-3" }]), limits), /^Error: "moves"\[0\].variations is a list of lines$/);
});
