// The page's move tree and records (crates/ply-web/static/move-tree.js, dots-record.js) without a
// browser: movetext read and written back, variations promoted and deleted, records read.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const statics = resolve(dirname(fileURLToPath(import.meta.url)), "..", "crates", "ply-web", "static");
const context = vm.createContext({});
for (const file of ["move-tree.js", "dots-record.js"]) vm.runInContext(readFileSync(join(statics, file), "utf8"), context);
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
});
