// End to end: `ply serve` on a free port of 127.0.0.1, the page opened in Debian's headless Chromium
// (never a downloaded browser), each game acted on and checked against the API, no console errors,
// and a screenshot of each game saved to docs/screenshots/.
//
// Run: cargo build -p ply-cli && (cd web-tests && npm ci && npm test). The binary is
// $CARGO_TARGET_DIR/debug/ply (target/debug/ply without it); PLY_BIN overrides it.
//
// Built for a slow, busy machine: every wait is on a condition (an element, a text), never a sleep,
// and each may take up to WAIT ms, far more than any step needs on a loaded 2-core machine.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// A relative CARGO_TARGET_DIR is taken from the repository root, where .ci/run runs cargo.
const target = resolve(root, process.env.CARGO_TARGET_DIR || "target");
const bin = process.env.PLY_BIN || join(target, "debug", "ply");
const shots = join(root, "docs", "screenshots");
mkdirSync(shots, { recursive: true });

const WAIT = 180_000;

let server;
let base;
let browser;

before(async () => {
  // A request may take 30 s (10 by default): "Analyse longer" asks for all of it, and on a busy
  // machine it may queue seconds behind another search of its board before its own starts. The
  // page's other requests ask for less than 10 s, so nothing else changes.
  server = spawn(bin, ["serve", "--port", "0", "--time-limit", "30s"], { stdio: ["ignore", "pipe", "inherit"] });
  base = await new Promise((ok, fail) => {
    const late = setTimeout(() => fail(new Error(`ply serve printed no address in ${WAIT} ms`)), WAIT);
    let seen = "";
    server.stdout.on("data", (chunk) => {
      seen += chunk;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(seen);
      if (m) {
        clearTimeout(late);
        ok(m[1]);
      }
    });
    server.on("error", (e) => fail(new Error(`cannot start ${bin}: ${e.message}`)));
    server.on("exit", (code) => fail(new Error(`ply serve exited with ${code}`)));
  });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
      "--disable-sync", "--no-first-run"],
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

async function api(path, body) {
  const response = await fetch(base + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

// A page that records console errors and failed page errors.
async function open(query) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.setDefaultTimeout(WAIT);
  page.setDefaultNavigationTimeout(WAIT);
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(base + "/?" + query);
  return { page, errors };
}

const edge = (page, e) => page.locator(`[data-edge="${e}"]`);
const drawnCount = (page) => page.locator('[data-drawn="true"]').count();

// A 4×4 boxes game of 22 moves (ply against itself): 18 free edges, B to move, every value proved by
// the table of the free edges.
const BOXES_18_FREE = "11-12 19-20 3-8 4-9 8-13 9-10 12-13 9-14 2-7 15-20 18-23 6-11 12-17 1-2 17-22 18-19 6-7 7-12 1-6 2-3 7-8 24-25";

// A 5×5 boxes game of 34 moves (ply against itself, 0.2 s a move): 26 free edges, B to move.
const BOXES_5X5_26_FREE = "32-33 2-8 10-11 4-10 11-12 3-9 21-22 20-21 15-16 9-15 19-20 26-32 11-17 28-29 3-4 9-10 16-17 10-16 8-14 13-14 20-26 22-28 2-3 8-9 14-15 17-23 28-34 33-34 1-2 18-24 5-6 29-35 34-35 29-30";

test("triangles: click an edge, ply replies with a best move, values shown match the API", async () => {
  const { page, errors } = await open("game=triangles&size=3&seed=1");
  const toMove = page.getByTestId("to-move");
  await assert.doesNotReject(toMove.filter({ hasText: "A to move (you)" }).waitFor());
  assert.equal(await page.locator("[data-edge]").count(), 18);
  await page.getByTestId("show-values").check();
  // The empty classic board: 12 moves worth -3, 6 worth -5.
  await page.locator('[data-edge="1-2"][data-value]').waitFor({ state: "attached" });
  assert.equal(await edge(page, "1-2").getAttribute("data-value"), "-3");
  assert.equal(await edge(page, "2-3").getAttribute("data-value"), "-5");
  assert.equal(await page.locator('[data-value="-3"]').count(), 12);
  assert.equal(await page.locator('[data-value="-5"]').count(), 6);
  assert.match(await edge(page, "2-3").getAttribute("aria-label"), /^edge 2-3, value −5 for A/);

  await edge(page, "1-2").click();
  await page.locator('[data-drawn="true"]').nth(1).waitFor({ state: "attached" });
  await toMove.filter({ hasText: "A to move (you)" }).waitFor();
  const drawn = await page.locator('[data-drawn="true"]').evaluateAll((es) => es.map((e) => e.getAttribute("data-edge")));
  assert.equal(drawn.length, 2);
  assert.ok(drawn.includes("1-2"));
  const reply = drawn.find((e) => e !== "1-2");
  // B's reply is the library's perfect player's (the link's seed 1, plus 1 move played), a best move.
  const perfect = (await api("/api/play/dots", { game: "triangles", size: 3, moves: "1-2", seed: 2 })).body;
  assert.equal(reply, perfect.move);
  const after12 = (await api("/api/dots", { game: "triangles", size: 3, moves: "1-2" })).body;
  assert.equal(after12.moves.find((m) => m.move === reply).value, after12.moves[0].value);
  // Every free edge now shows A's value for it, as the API gives it.
  const now = (await api("/api/dots", { game: "triangles", size: 3, moves: `1-2 ${reply}` })).body;
  await page.locator("[data-value]").nth(15).waitFor({ state: "attached" });
  for (const m of now.moves) {
    assert.equal(await edge(page, m.move).getAttribute("data-value"), String(m.value), m.move);
    assert.equal(await edge(page, m.move).getAttribute("data-drawn"), "false");
  }
  assert.equal(await page.locator("[data-value]").count(), 16);
  // The strategies panel, opened, for this position: memo visits what the API says it visits.
  await page.locator('[data-testid="strategies-panel"] summary').click();
  const panel = page.locator(`[data-testid="strategies"] table[data-moves="1-2 ${reply}"]`);
  await panel.waitFor();
  const memo = (await api("/api/dots", { game: "triangles", size: 3, moves: `1-2 ${reply}`, strategy: "memo", detail: "value", time: 1 })).body;
  assert.equal(await panel.locator('tr[data-strategy="memo"] [data-states]').getAttribute("data-states"), String(memo.states_visited));
  assert.equal(await panel.locator('tr[data-strategy="table"] [data-states]').getAttribute("data-states"), String(2 ** 18));
  // The value chart: A's final margin before each move and after the last, from the review.
  const review = (await api("/api/dots/review", { game: "triangles", size: 3, moves: `1-2 ${reply}` })).body;
  await page.locator("[data-testid=value-chart] .chart-point").nth(2).waitFor();
  const margins = await page.locator("[data-testid=value-chart] .chart-point").evaluateAll((ps) => ps.map((p) => Number(p.getAttribute("data-margin"))));
  assert.deepEqual(margins, review.margins);
  assert.match(page.url(), new RegExp(`moves=1-2\\+${reply}`));
  assert.match(page.url(), /seed=1/);
  await page.screenshot({ path: join(shots, "triangles.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("a shared link opens the position; bad input shows the API's message", async () => {
  const { page, errors } = await open("game=triangles&size=3&moves=2-3+4-5&values=1");
  await page.getByTestId("to-move").filter({ hasText: "A to move" }).waitFor();
  assert.equal(await edge(page, "2-3").getAttribute("data-drawn"), "true");
  assert.equal(await edge(page, "4-5").getAttribute("data-drawn"), "true");
  await page.locator('[data-edge="5-6"][data-value]').waitFor({ state: "attached" });
  assert.equal(await edge(page, "5-6").getAttribute("data-value"), "3");
  await page.close();
  assert.deepEqual(errors, []);
  const bad = await open("game=triangles&size=9");
  await bad.page.getByTestId("error").filter({ hasText: "triangle boards have size 1 to 6 (size 6 has 63 edges, the most a state holds); got 9" }).waitFor();
  // The browser reports the refused request (400) itself; nothing else may go wrong.
  assert.deepEqual(bad.errors.filter((e) => !e.includes("status of 400")), []);
  await bad.page.close();
});

test("boxes: a move and the reply on 2×2 boxes", async () => {
  const { page, errors } = await open("game=boxes&rows=2&cols=2&seed=3");
  await page.getByTestId("to-move").filter({ hasText: "A to move (you)" }).waitFor();
  assert.equal(await page.locator("[data-edge]").count(), 12);
  await page.getByTestId("size-note").filter({ hasText: "12 edges, every position exact" }).waitFor();
  await page.getByTestId("show-values").check();
  await edge(page, "1-2").click();
  await page.locator('[data-drawn="true"]').nth(1).waitFor({ state: "attached" });
  await page.getByTestId("to-move").filter({ hasText: "A to move (you)" }).waitFor();
  await page.locator("[data-value]").nth(9).waitFor({ state: "attached" });
  assert.equal(await page.locator("[data-value]").count(), 10);
  await page.screenshot({ path: join(shots, "boxes.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("dots: a 4×4 position with 18 free edges opens from a link with every free edge valued", async () => {
  const moves = BOXES_18_FREE.replaceAll(" ", "+");
  const { page, errors } = await open(`game=boxes&rows=4&cols=4&first=ply&values=1&moves=${moves}`);
  await page.getByTestId("to-move").filter({ hasText: "B to move (you)" }).waitFor();
  await page.getByTestId("size-note").filter({ hasText: "40 edges. Exact from 28 free edges on (after move 12)" }).waitFor();
  await page.locator("[data-value]").nth(17).waitFor({ state: "attached" });
  assert.equal(await page.locator('[data-drawn="false"]').count(), 18);
  assert.equal(await page.locator("[data-value]").count(), 18);
  const report = (await api("/api/dots", { game: "boxes", rows: 4, cols: 4, moves: BOXES_18_FREE })).body;
  assert.equal(report.exact, true);
  for (const m of report.moves) assert.equal(await edge(page, m.move).getAttribute("data-value"), String(m.value), m.move);
  await page.getByTestId("summary").filter({ hasText: `Value ${report.value > 0 ? "+" : ""}${report.value} for B` }).waitFor();
  // The top three lines, the best line first, each move with its value.
  const top = (await api("/api/dots", { game: "boxes", rows: 4, cols: 4, moves: BOXES_18_FREE, lines: 3 })).body.lines;
  assert.equal(top.length, 3);
  assert.deepEqual(top[0].line, report.line);
  const items = page.getByTestId("top-lines").locator("li");
  assert.equal(await items.count(), 3);
  for (let i = 0; i < 3; i++) {
    assert.equal(await items.nth(i).getAttribute("data-move"), top[i].move);
    assert.match(await items.nth(i).textContent(), new RegExp(`^${top[i].move} ${top[i].value > 0 ? "\\+" : top[i].value < 0 ? "−" : ""}${Math.abs(top[i].value)}: ${top[i].line[0]}`));
  }
  // The review comes in the background: one row per move, the chart with a point per position.
  await page.locator("[data-testid=move-list] tr[data-ply='22'] [data-verdict]").waitFor();
  assert.equal(await page.locator("[data-testid=value-chart] .chart-point").count(), 23);
  // From move 12 on every position has 28 free edges or fewer: the note promises them exact, and the
  // review proves them (it gives them its time first; earlier ones may be proved too).
  const exactFrom = await page.locator("[data-exact-from]").getAttribute("data-exact-from");
  assert.ok(Number(exactFrom) <= 12, exactFrom);
  for (let k = 12; k <= 22; k++) {
    assert.notEqual(await page.locator(`[data-testid=value-chart] .chart-point[data-ply='${k}']`).getAttribute("data-margin"), "", String(k));
  }
  await page.screenshot({ path: join(shots, "boxes-4x4-analysis.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("dots: on the empty 5×5 board a click is taken and ply's reply comes within its time to think", async () => {
  const { page, errors } = await open("game=boxes&rows=5&cols=5&seed=4&think=1&values=1");
  const toMove = page.getByTestId("to-move");
  await toMove.filter({ hasText: "A to move (you)" }).waitFor();
  assert.equal(await page.locator("[data-edge]").count(), 60);
  await edge(page, "1-2").click();
  await page.locator('[data-drawn="true"]').nth(1).waitFor({ state: "attached" });
  await toMove.filter({ hasText: "A to move (you)" }).waitFor();
  const reply = await page.locator('[data-drawn="true"]').evaluateAll((es) => es.map((e) => e.getAttribute("data-edge")).find((e) => e !== "1-2"));
  await page.getByTestId("announce").filter({ hasText: `ply (B) played ${reply}` }).waitFor();
  // Not proved in the analysis time: bounds and the best move found, never a failure.
  const summary = page.getByTestId("summary").filter({ hasText: "Not proved" });
  await summary.waitFor();
  // Bounds as wide as the cells left are no result: "not proved yet", and the edges of which
  // nothing is proved are not painted as valued (no number, marked not proved).
  assert.match(await summary.textContent(), /the value for A is not proved yet\. Best move found: \d+-\d+/);
  assert.doesNotMatch(await summary.textContent(), /between/);
  const valued = await page.locator('[data-drawn="false"][data-value]').count();
  const unproved = await page.locator('[data-drawn="false"][data-unproved="true"]').count();
  assert.equal(valued + unproved, 58);
  assert.equal(await page.locator('[data-unproved="true"][data-value]').count(), 0);
  assert.equal(await page.getByTestId("error").isHidden(), true);
  await page.screenshot({ path: join(shots, "boxes-5x5.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("dots: ply plays at the level picked, and the link keeps it", async () => {
  const { page, errors } = await open("game=boxes&rows=3&cols=3&first=ply&level=1&seed=2");
  await page.getByTestId("announce").filter({ hasText: /ply \(A\) played \d+-\d+ \(level 1\)\./ }).waitFor();
  assert.equal(await page.getByTestId("level").inputValue(), "1");
  assert.match(new URL(page.url()).search, /level=1/);
  // Back to the perfect player: its moves are proved on 3×3.
  await page.getByTestId("level").selectOption("8");
  assert.doesNotMatch(new URL(page.url()).search, /level=/);
  const reply = (await api("/api/play/dots", { game: "boxes", rows: 3, cols: 3, level: 3, seed: 5 })).body;
  assert.equal(reply.choice, "level");
  assert.equal(reply.level, 3);
  const refused = await api("/api/play/dots", { game: "boxes", rows: 3, cols: 3, level: 9 });
  assert.equal(refused.status, 400);
  assert.match(refused.body.error, /^"level" must be a whole number from 1 \(weakest\) to 8 \(perfect\), not `9`$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("dots: \"Analyse longer\" shows the search as it goes, and moving on stops it", async () => {
  // 5×5 boxes 14 moves in: 46 free edges, far from proved in the server's limit.
  const moves = BOXES_5X5_26_FREE.split(" ").slice(0, 14).join("+");
  const { page, errors } = await open(`game=boxes&rows=5&cols=5&first=both&values=1&moves=${moves}`);
  const summary = page.getByTestId("summary");
  await summary.filter({ hasText: "Not proved" }).waitFor();
  await page.getByTestId("analyse-again").click();
  // The stream's status events: the nodes searched and the moves proved so far, as they come.
  await summary.filter({ hasText: /Analysing longer \(up to [0-9.]+ s\)… [0-9,]+ positions searched, \d+ of 46 moves proved\./ }).waitFor();
  await page.screenshot({ path: join(shots, "boxes-5x5-analyse-longer.png"), fullPage: true });
  // Moving on aborts the stream (the server stops its search) and analyses the new position.
  await page.getByTestId("nav-prev").click();
  await page.getByTestId("to-move").filter({ hasText: "Viewing move 13 of 14" }).waitFor();
  await summary.filter({ hasText: /^Not proved|^Analysing \(/ }).waitFor();
  assert.doesNotMatch(await summary.textContent(), /Analysing longer/);
  // Back at the position left during the longer analysis: its old progress is not shown as if new.
  await page.getByTestId("nav-next").click();
  await page.getByTestId("to-move").filter({ hasText: /^[AB] to move\. Score/ }).waitFor();
  await summary.filter({ hasText: "Analysing" }).waitFor();
  assert.doesNotMatch(await summary.textContent(), /positions searched|Analysing longer/);
  assert.equal(await page.getByTestId("error").isHidden(), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test("dots: the keyboard plays, the move list grades a mistake, Back returns to the position before", async () => {
  const { page, errors } = await open("game=triangles&size=3&seed=1");
  const toMove = page.getByTestId("to-move");
  await toMove.filter({ hasText: "A to move (you)" }).waitFor();
  // 2-3 first is a mistake: its value is −5 where the best moves keep −3.
  await edge(page, "2-3").focus();
  await page.keyboard.press("Enter");
  await page.locator('[data-drawn="true"]').nth(1).waitFor({ state: "attached" });
  await toMove.filter({ hasText: "A to move (you)" }).waitFor();
  const row = page.locator("[data-testid=move-list] tr[data-ply='1']");
  await row.locator('[data-verdict="mistake"]').waitFor();
  assert.match(await row.textContent(), /mistake −2 −5, best was −3 \(1-2\)/);
  await page.getByTestId("announce").filter({ hasText: "Your move 2-3: mistake −2, −5, best was −3 (1-2)." }).waitFor();
  const line = new URL(page.url()).searchParams.get("moves");
  assert.match(line, /^2-3 \d+-\d+$/);
  // Back: the position after 2-3, ply to move, the whole line kept in the link; ply does not move.
  await page.goBack();
  await toMove.filter({ hasText: "B to move (ply)" }).filter({ hasText: "Viewing move 1 of 2" }).waitFor();
  assert.equal(await drawnCount(page), 1);
  assert.equal(new URL(page.url()).searchParams.get("at"), "1");
  assert.equal(new URL(page.url()).searchParams.get("moves"), line);
  await page.goBack();
  await toMove.filter({ hasText: "Viewing move 0" }).waitFor();
  assert.equal(await drawnCount(page), 0);
  await page.goForward();
  await page.goForward();
  await toMove.filter({ hasText: "A to move (you). Score: A 0, B 0." }).waitFor();
  assert.equal(await drawnCount(page), 2);
  // A typed move, then Undo back to it and Redo.
  await page.getByTestId("move-input").fill("4 5");
  await page.getByTestId("play-move").click();
  await page.locator('[data-drawn="true"]').nth(3).waitFor({ state: "attached" });
  await toMove.filter({ hasText: "A to move (you)" }).waitFor();
  await page.getByTestId("undo").click();
  await toMove.filter({ hasText: "Viewing move 2 of" }).waitFor();
  assert.equal(await drawnCount(page), 2);
  await page.getByTestId("redo").click();
  await toMove.filter({ hasText: "A to move (you)", hasNotText: "Viewing" }).waitFor();
  assert.ok(await edge(page, "4-5").getAttribute("data-drawn") === "true");
  // The moves as `ply dots` takes them.
  const text = await page.getByTestId("moves-text").inputValue();
  assert.equal(text, new URL(page.url()).searchParams.get("moves"));
  assert.equal(await page.getByTestId("command").textContent(), `ply dots triangles --size 3 --moves "${text}"`);
  assert.deepEqual(errors, []);
  await page.close();
});

test("dots: a game to its end gets a summary per side", async () => {
  const { page, errors } = await open("game=triangles&size=2&first=both&moves=1-2+1-3+2-4+3-6+4-5+5-6+2-5");
  await page.getByTestId("to-move").filter({ hasText: "to move." }).waitFor();
  await edge(page, "2-3").click();
  await page.getByTestId("to-move").filter({ hasText: "to move." }).waitFor();
  await edge(page, "3-5").click();
  await page.getByTestId("to-move").filter({ hasText: "Game over" }).waitFor();
  const review = (await api("/api/dots/review", { game: "triangles", size: 2, moves: "1-2 1-3 2-4 3-6 4-5 5-6 2-5 2-3 3-5" })).body;
  const summary = page.getByTestId("game-summary-table");
  await summary.waitFor();
  for (const p of ["A", "B"]) {
    const lost = review.moves.filter((g) => g.player === p).reduce((s, g) => s + g.loss, 0);
    assert.equal(await summary.locator(`tr[data-player="${p}"] [data-lost]`).getAttribute("data-lost"), String(lost), p);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("dots: a 390×844 phone shows the whole board, no horizontal scroll", async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  page.setDefaultTimeout(WAIT);
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${base}/?game=boxes&rows=4&cols=4&first=ply&values=1&moves=${BOXES_18_FREE.replaceAll(" ", "+")}`);
  await page.locator("[data-value]").nth(17).waitFor({ state: "attached" });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390);
  const box = await page.getByTestId("dots-board").boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box));
  for (const corner of ["1-2", "24-25"]) {
    const e = await edge(page, corner).boundingBox();
    assert.ok(e.x >= 0 && e.x + e.width <= 390, corner);
  }
  await page.locator("[data-testid=value-chart]").waitFor();
  const chart = await page.getByTestId("value-chart").boundingBox();
  assert.ok(chart.x >= 0 && chart.x + chart.width <= 390, JSON.stringify(chart));
  // A tap plays.
  await edge(page, "11-16").tap();
  await page.locator('[data-edge="11-16"][data-drawn="true"]').waitFor({ state: "attached" });
  await page.getByTestId("to-move").filter({ hasText: /\(you\)|Game over/ }).waitFor();
  await page.locator("svg[data-testid=value-chart]").waitFor();
  await page.screenshot({ path: join(shots, "dots-phone.png"), fullPage: true });
  // A 5×5 position with 26 free edges: every value proved, every label inside the screen.
  await page.goto(`${base}/?game=boxes&rows=5&cols=5&first=both&values=1&moves=${BOXES_5X5_26_FREE.replaceAll(" ", "+")}`);
  await page.locator("[data-value]").nth(25).waitFor({ state: "attached" });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390);
  const labels = await page.locator(".value-label").evaluateAll((ls) => ls.map((l) => l.getBoundingClientRect()).map((r) => [r.left, r.right]));
  assert.equal(labels.length, 26);
  assert.ok(labels.every(([l, r]) => l >= 0 && r <= 390), JSON.stringify(labels));
  await page.locator("svg[data-testid=value-chart]").waitFor();
  await page.getByTestId("board").screenshot({ path: join(shots, "dots-phone-5x5-board.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("solitaire: best path, the original program's table, the distribution", async () => {
  const { page, errors } = await open("game=solitaire&squares=1,-2,0,9,-1,-2&die=6");
  await page.getByTestId("result").filter({ hasText: "Best total 8: path 0 → 3 → 5 (throws 3, 2)" }).waitFor();
  assert.equal(await page.getByTestId("expected").textContent(), "11/10");
  assert.equal(await page.locator('[data-path="true"]').count(), 3);
  assert.equal(await page.getByTestId("dp-table").locator("tr").count(), 7);
  await page.screenshot({ path: join(shots, "solitaire.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("dice race: exact outcome, sums, a roll with exact chances, the unbeaten list", async () => {
  const { page, errors } = await open("game=dice-race&first=5,6,7,8,9&second=5,6,7,8,7&dice=2&sides=6");
  await page.getByTestId("outcome").filter({ hasText: "1138029621/3424590400" }).waitFor();
  await page.getByTestId("unbeaten").filter({ hasText: "[5,6,7,8,9]" }).waitFor();
  await page.getByTestId("roll").first().click();
  const line = page.locator('[data-testid="race"] [data-testid="roll"]').first();
  await line.waitFor();
  // After the roll: the exact chances from the lists left, as the API gives them (or the end).
  await line.locator("table, .status").first().waitFor();
  const text = await line.textContent();
  const left = /first needs ([\d,]+|nothing), second needs ([\d,]+|nothing)/.exec(text);
  assert.ok(left, text);
  if (left[1] !== "nothing" && left[2] !== "nothing") {
    const now = (await api("/api/dice-race/compare", { first: left[1], second: left[2] })).body;
    assert.ok(text.includes(now.exact.p_first) && text.includes(now.exact.p_tie), `${text} vs ${JSON.stringify(now.exact)}`);
  }
  // The roll is the library's, thrown from the link's seed: its faces and sum are the API's.
  const seed = Number(new URL(page.url()).searchParams.get("seed"));
  const game = (await api("/api/dice-race/game", { first: "5,6,7,8,9", second: "5,6,7,8,7", seed, rolls: 1 })).body;
  assert.equal(await line.locator("[data-faces]").getAttribute("data-faces"), game.rolls[0].faces.join(","));
  assert.ok(text.startsWith(`roll 1: ${game.rolls[0].sum} `), text);
  assert.ok(text.includes(`first needs ${game.first_left.join(",")}, second needs ${game.second_left.join(",")}`), text);
  await page.screenshot({ path: join(shots, "dice-race.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("magic board: a generated board and the shortest path from each corner", async () => {
  const { page, errors } = await open("game=magic-board&size=5&seed=1");
  const report = (await api("/api/magic-board/generate", { size: 5, seed: 1 })).body;
  const solved = (await api("/api/magic-board", { board: report.text })).body;
  for (const c of solved.corners) {
    const line = page.locator(`[data-corner="${c.start.join(",")}"]`);
    await line.waitFor();
    const text = await line.textContent();
    if (c.solvable) assert.ok(text.includes(`solvable in ${c.moves} moves`), text);
    else assert.ok(text.includes(c.is_goal ? "is the goal" : "not solvable"), text);
  }
  const moving = solved.corners.filter((c) => c.solvable && c.moves > 0);
  assert.equal(await page.locator("polyline[data-path]").count(), moving.length);
  // Step by step: at step 0 no path is drawn yet; at step 1 each has its first move.
  const step = async (k) => page.getByTestId("step").evaluate((e, k) => {
    e.value = String(k);
    e.dispatchEvent(new Event("input"));
  }, k);
  await step(0);
  assert.equal(await page.locator("polyline[data-path]").count(), 0);
  await step(1);
  for (const c of moving) {
    const points = await page.locator(`polyline[data-path="${c.start.join(",")}"]`).getAttribute("points");
    assert.equal(points.split(" ").length, 2, c.start.join(","));
  }
  await step(Math.max(...moving.map((c) => c.moves)));
  await page.screenshot({ path: join(shots, "magic-board.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test("heaps: the winning move highlighted, a move and the perfect reply", async () => {
  const { page, errors } = await open("game=heaps&heaps=2,3");
  await page.getByTestId("verdict").filter({ hasText: "take 1 from heap 1" }).waitFor();
  assert.equal(await page.locator('[data-winning="true"]').count(), 1);
  await page.screenshot({ path: join(shots, "heaps.png"), fullPage: true });
  // Taking 1 wins: ply must take the last counter of heap 1, leaving 3 for us to take.
  await page.locator('circle[data-heap="1"][data-take="1"]').click();
  await page.getByTestId("log").locator("li").nth(1).waitFor();
  assert.equal(await page.getByTestId("log").locator("li").nth(1).textContent(), "ply took 1 from heap 1");
  await page.getByTestId("to-move").filter({ hasText: "You to move." }).waitFor();
  await page.locator('circle[data-heap="2"][data-take="3"]').click();
  await page.getByTestId("to-move").filter({ hasText: "Game over: you took the last counter" }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test("heaps: ply moves first as the library's perfect player does, and the link follows the game", async () => {
  const { page, errors } = await open("game=heaps&heaps=3,4,5&first=ply&seed=5");
  const perfect = (await api("/api/play/heaps", { heaps: [3, 4, 5], seed: 5 })).body;
  await page.getByTestId("log").locator("li").first().waitFor();
  assert.equal(await page.getByTestId("log").locator("li").first().textContent(), `ply took ${perfect.take} from heap 1`);
  await page.getByTestId("to-move").filter({ hasText: "You to move." }).waitFor();
  const params = new URL(page.url()).searchParams;
  assert.equal(params.get("heaps"), "3,4,5");
  assert.equal(params.get("first"), "ply");
  assert.equal(params.get("moves"), String(perfect.take));
  assert.deepEqual(errors, []);
  await page.close();
});

test("heaps: played from the keyboard, graded, undone, summed up, and replayed from its link", async () => {
  const { page, errors } = await open("game=heaps&heaps=2,3&seed=2");
  const toMove = page.getByTestId("to-move");
  await page.getByTestId("verdict").filter({ hasText: "take 1 from heap 1" }).waitFor();
  // Tab from the heaps input through the controls to the counters of the lowest heap.
  const counter = page.locator('g.counter[data-take="2"]');
  await counter.focus();
  assert.equal(await counter.getAttribute("aria-label"), "take 2 from heap 1");
  await page.keyboard.press("Enter");
  // Taking both of heap 1 gives the win away: ply takes all 3 of heap 2.
  await toMove.filter({ hasText: "Game over: ply took the last counter" }).waitFor();
  const first = page.getByTestId("log").locator("li").first();
  assert.equal(await first.textContent(), "you took 2 from heap 1 — mistake: gives the win away");
  assert.equal(await page.getByTestId("game-summary").textContent(), "ply won in 2 moves. Your moves: 1, 1 mistake (gave the win away).");
  assert.equal(new URL(page.url()).searchParams.get("moves"), "2,3");
  // Undo: back before the mistake; the right move, typed, wins.
  await page.getByTestId("undo").click();
  await toMove.filter({ hasText: "You to move. Viewing move 0 of 2." }).waitFor();
  await page.getByTestId("take").fill("1");
  await page.getByTestId("take").press("Enter");
  await toMove.filter({ hasText: "You to move." }).filter({ hasNotText: "Viewing" }).waitFor();
  assert.equal(await first.textContent(), "you took 1 from heap 1 — best");
  await page.locator('g.counter[data-take="3"]').focus();
  await page.keyboard.press(" ");
  await toMove.filter({ hasText: "Game over: you took the last counter" }).waitFor();
  assert.equal(await page.getByTestId("game-summary").textContent(), "You won in 3 moves. Your moves: 2, no mistake.");
  const link = page.url();
  assert.equal(new URL(link).searchParams.get("moves"), "1,1,3");
  // The link replays the game: its moves labelled by player only.
  const again = await open(new URL(link).search.slice(1));
  await again.page.getByTestId("to-move").filter({ hasText: "Game over: you took the last counter" }).waitFor();
  assert.equal(await again.page.getByTestId("log").locator("li").first().textContent(), "A took 1 from heap 1");
  await again.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test("heaps: misère play on the page — the rule is the library's: whoever takes the last counter loses", async () => {
  const { page, errors } = await open("game=heaps&heaps=3");
  const toMove = page.getByTestId("to-move");
  await page.getByTestId("verdict").filter({ hasText: "take 3 from heap 1" }).waitFor();
  // Misère, from the checkbox: one heap of 3 is won by leaving the last counter to the opponent.
  await page.getByTestId("misere").check();
  await page.getByTestId("heaps").fill("1,2");
  await page.getByTestId("start").click();
  await page.getByTestId("verdict").filter({ hasText: "The player to move loses against perfect play (remoteness 3" }).waitFor();
  assert.equal(new URL(page.url()).searchParams.get("misere"), "1");
  // [1, 2]: the forced take, ply leaves one counter, and you must take the last: you lose.
  await page.locator('g.counter[data-take="1"]').click();
  await toMove.filter({ hasText: "You to move." }).waitFor();
  assert.equal(await page.getByTestId("log").locator("li").nth(1).textContent(), "ply took 1 from heap 2");
  await page.locator('g.counter[data-take="1"]').click();
  await toMove.filter({ hasText: "Game over: you took the last counter and lost." }).waitFor();
  assert.equal(await page.getByTestId("log").locator("li").first().textContent(), "you took 1 from heap 1 — lost anyway");
  assert.equal(await page.getByTestId("game-summary").textContent(), "ply won in 3 moves. Your moves: 2, no mistake.");
  // The link replays it under the same rule.
  const again = await open(new URL(page.url()).search.slice(1));
  await again.page.getByTestId("to-move").filter({ hasText: "Game over: you took the last counter and lost." }).waitFor();
  assert.ok(await again.page.getByTestId("misere").isChecked());
  await again.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test("dots: a move from an earlier position starts a variation; the main line is kept, promoted, deleted", async () => {
  const main = "4-7 8-9 1-2 6-9 6-10 9-10 3-6";
  const { page, errors } = await open(`game=triangles&size=3&moves=${main.replace(/ /g, "+")}&at=2&seed=3`);
  const toMove = page.getByTestId("to-move");
  await toMove.filter({ hasText: "Viewing move 2 of 7" }).waitFor();
  // Moves that came with the link are labelled by their player only.
  const playerCell = (k) => page.locator(`[data-testid=move-list] tr[data-ply='${k}'] td.player`);
  // (The players come with the review, which may come after the position on a loaded machine.)
  await playerCell(1).filter({ hasText: /^A$/ }).waitFor();
  await playerCell(2).filter({ hasText: /^B$/ }).waitFor();
  await page.getByTestId("first").selectOption("both");
  await edge(page, "2-5").click();
  await toMove.filter({ hasNotText: "Viewing" }).filter({ hasText: "to move." }).waitFor();
  const params = () => new URL(page.url()).searchParams;
  assert.equal(params().get("moves"), "4-7 8-9 1-2 (2-5) 6-9 6-10 9-10 3-6");
  assert.equal(params().get("line"), "4-7 8-9 2-5");
  assert.equal(await page.getByTestId("line-note").getAttribute("data-main"), "false");
  assert.equal(await playerCell(3).textContent(), "A (you)");
  // The main line's move is shown as a variation under move 3, and is one click away.
  const variation = page.locator("[data-testid=move-list] tr.variation");
  assert.equal(await variation.count(), 1);
  assert.match(await variation.textContent(), /^3\. \(1-2 6-9 6-10 9-10 3-6\)$/);
  // Promoted, the variation is the main line and the old main line a variation.
  await page.getByTestId("promote").click();
  await page.getByTestId("line-note").and(page.locator("[data-main=true]")).waitFor();
  assert.equal(params().get("moves"), "4-7 8-9 2-5 (1-2 6-9 6-10 9-10 3-6)");
  assert.equal(params().get("line"), null);
  // To the old line's fourth move, then delete from its 1-2: one line is left.
  await variation.getByRole("button", { name: "variation move 4: 6-9" }).click();
  await toMove.filter({ hasText: "Viewing move 4 of 7" }).waitFor();
  assert.equal(await drawnCount(page), 4);
  await page.getByTestId("nav-prev").click();
  await toMove.filter({ hasText: "Viewing move 3 of 7" }).waitFor();
  await page.getByTestId("delete-move").click();
  await toMove.filter({ hasText: "Viewing move 2 of 3" }).waitFor();
  assert.equal(params().get("moves"), "4-7 8-9 2-5");
  assert.equal(await variation.count(), 0);
  // Back walks through what was shown, with the tree of the time.
  await page.goBack();
  await toMove.filter({ hasText: "Viewing move 3 of 7" }).waitFor();
  assert.equal(params().get("moves"), "4-7 8-9 2-5 (1-2 6-9 6-10 9-10 3-6)");
  assert.deepEqual(errors, []);
  await page.close();
});

test("dots: a pasted move list with a variation loads; its record exports and imports unchanged", async () => {
  const { page, errors } = await open("game=triangles&size=2&seed=5");
  const toMove = page.getByTestId("to-move");
  await toMove.filter({ hasText: "A to move (you)" }).waitFor();
  const box = page.getByTestId("moves-text");
  await box.fill("1. 2 1, 2. 1-3\n(2. 2 3 3. 3-5) 3. 4 - 2");
  await page.getByTestId("import-moves").click();
  await page.waitForURL(/moves=1-2\+1-3\+%282-3\+3-5%29\+2-4/);
  await toMove.filter({ hasText: "to move." }).waitFor();
  assert.equal(await drawnCount(page), 3);
  assert.equal(new URL(page.url()).searchParams.get("first"), "both");
  assert.equal(await box.inputValue(), "1-2 1-3 (2-3 3-5) 2-4");
  // The record: tags, every move numbered with its player and grade; reviewed by the server.
  await page.getByTestId("export-text").click();
  await page.getByTestId("download-record").waitFor();
  const record = await box.inputValue();
  const review = (await api("/api/dots/review", { game: "triangles", size: 2, moves: "1-2 1-3 2-4" })).body;
  assert.match(record, /^\[Game "triangles"\]\n\[Size "2"\]\n\[A "you"\]\n\[B "you"\]\n\[Result "\*"\]\n\n1\. A 1-2 \{/);
  assert.ok(record.includes(`2. ${review.moves[1].player} 1-3 {`), record);
  assert.match(record, /\(2\. [AB] 2-3 \{[^}]+\} 3\. [AB] 3-5 \{[^}]+\}\) 3\. [AB] 2-4 \{[^}]+\}\n$/);
  assert.equal((record.match(/\{/g) || []).length, 5);
  // Imported again (now with its players), the same record comes out.
  await page.getByTestId("import-moves").click();
  await page.waitForURL(/a=you&b=you/);
  await page.getByTestId("export-text").click();
  await page.waitForFunction((text) => document.querySelector("[data-testid=moves-text]").value === text, record);
  // And as JSON.
  await page.getByTestId("export-json").click();
  await page.waitForFunction(() => document.querySelector("[data-testid=moves-text]").value.startsWith("{"));
  const json = JSON.parse(await box.inputValue());
  assert.equal(json.format, "ply dots record 1");
  assert.deepEqual(json.moves.map((m) => m.move), ["1-2", "1-3", "2-4"]);
  assert.deepEqual(json.moves[1].variations.map((v) => v.map((m) => m.move)), [["2-3", "3-5"]]);
  assert.equal(json.moves[2].grade.verdict, review.moves[2].verdict);
  const exported = await box.inputValue();
  await page.getByTestId("import-moves").click();
  await page.getByTestId("export-json").click();
  await page.waitForFunction((text) => document.querySelector("[data-testid=moves-text]").value === text, exported);
  // A bad move is refused in the record's terms, and the game is kept.
  await box.fill("1-2 (1-3 9-9)");
  await page.getByTestId("import-moves").click();
  await page.getByTestId("error").filter({ hasText: "Not loaded (variation 1):" }).waitFor();
  assert.match(await page.getByTestId("error").textContent(), /9-9/);
  assert.equal(await drawnCount(page), 3);
  // The browser reports the refused request (400) itself; nothing else may go wrong.
  assert.deepEqual(errors.filter((e) => !e.includes("status of 400")), []);
  await page.close();
});

test("dots: a link's moves the page cannot read, or the server refuses, are said and the board shows its start", async () => {
  for (const [moves, said] of [
    ["1-2+(", "The link's moves were not loaded: a variation “(” is not closed. The board shows the start."],
    ["1-2+9-9", "The link's moves were not loaded: "],
  ]) {
    const { page, errors } = await open(`game=triangles&size=3&seed=1&moves=${moves}`);
    const notice = page.getByTestId("link-notice");
    await notice.filter({ hasText: said }).waitFor();
    // Not stuck reading a position: the start, A to move, every edge free.
    await page.getByTestId("to-move").filter({ hasText: "A to move (you)" }).waitFor();
    assert.equal(await drawnCount(page), 0);
    if (moves === "1-2+9-9") assert.match(await notice.textContent(), /9-9/);
    // The notice stays while the game goes on (a request's error would be cleared by the next answer).
    await edge(page, "1-2").click();
    await page.locator('[data-drawn="true"]').nth(1).waitFor({ state: "attached" });
    assert.equal(await notice.isVisible(), true);
    assert.deepEqual(errors.filter((e) => !e.includes("status of 400")), []);
    await page.close();
  }
});

test("dots: a pasted list longer than any board, an empty box, an impossible board: refused at once, the game kept", async () => {
  const { page, errors } = await open("game=triangles&size=2&seed=5&moves=1-2&first=both");
  const toMove = page.getByTestId("to-move");
  await toMove.filter({ hasText: "to move" }).waitFor();
  const box = page.getByTestId("moves-text");
  const error = page.getByTestId("error");
  // 50 000 moves (the page once overflowed its stack, then froze, on such a list).
  const long = Array.from({ length: 50_000 }, (_, i) => `${i + 1}-${i + 2}`).join(" ");
  await box.fill(long);
  await page.getByTestId("import-moves").click();
  await error.filter({ hasText: "Not loaded: a line of more than 63 moves: no board has more than 63 edges." }).waitFor();
  await box.fill("  ");
  await page.getByTestId("import-moves").click();
  await error.filter({ hasText: "Not loaded: the box is empty: paste moves or a record, then Load." }).waitFor();
  // A record of a board the server does not have, with no moves: refused in the server's words.
  await box.fill('[Game "triangles"]\n[Size "9"]\n');
  await page.getByTestId("import-moves").click();
  await error.filter({ hasText: "Not loaded: triangle boards have size 1 to 6" }).waitFor();
  // The game is the one before.
  assert.equal(await drawnCount(page), 1);
  assert.equal(await page.locator("[data-edge]").count(), 9);
  assert.match(page.url(), /moves=1-2/);
  assert.deepEqual(errors.filter((e) => !e.includes("status of 400")), []);
  await page.close();
});

test("a link's values the page cannot take are said, each with what is done instead", async () => {
  const { page, errors } = await open("game=triangles&size=2&level=99&think=-1&first=them&values=yes&at=x&seed=s");
  const notice = page.getByTestId("link-notice");
  await page.getByTestId("to-move").filter({ hasText: "A to move (you)" }).waitFor();
  for (const said of [
    "The link's first=`them` is not `me`, `ply` or `both`: you move first.",
    "The link's values=`yes` is not 0 or 1: values are not shown.",
    "The link's think=`-1` is not a number of seconds above 0: ply thinks for the server's time.",
    "The link's level=`99` is not a level from 1 to 8: ply plays perfectly (level 8).",
    "The link's seed=`s` is not a whole number: a new seed is used.",
    "The link's at=`x` is not a number of moves: the page shows the end of the line.",
  ]) await notice.filter({ hasText: said }).waitFor();
  await page.close();
  // A board size as written reaches the server, whose refusal names it.
  const bad = await open("game=triangles&size=abc");
  await bad.page.getByTestId("error").filter({ hasText: '"size" must be a whole number, not `"abc"`' }).waitFor();
  await bad.page.close();
  const negative = await open("game=boxes&rows=-2&cols=3");
  await negative.page.getByTestId("error").filter({ hasText: '"rows": -2 must not be negative' }).waitFor();
  await negative.page.close();
  // A game no page has — `__proto__` or `toString` too — opens the first page, and says so.
  for (const name of ["__proto__", "toString", "chess"]) {
    const other = await open(`game=${name}`);
    await other.page.getByTestId("link-notice").filter({ hasText: `The link's game=\`${name}\` is no game of this page: it shows Dots and Triangles.` }).waitFor();
    await other.page.locator("[data-edge]").first().waitFor({ state: "attached" });
    assert.deepEqual(other.errors, []);
    await other.page.close();
  }
  assert.deepEqual(errors, []);
});

test("heaps: a heap past 2^53 is played exactly — ply's reply and the winning move are the API's to the counter", async () => {
  const heaps = "18446744073709551615,3";
  const raw = await (await fetch(base + "/api/heaps/game", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ heaps, moves: "", seed: 7 }) })).text();
  // The winning take, as the server writes it (JSON.parse would round it).
  const winning = /"winning_take":(\d+)/.exec(raw)[1];
  assert.equal(winning, "18446744073709551614");
  const { page, errors } = await open(`game=heaps&heaps=${heaps}&seed=7`);
  await page.getByTestId("verdict").filter({ hasText: `take ${winning} from heap 1` }).waitFor();
  // The counter that wins takes exactly that many, and the counters it takes are marked.
  assert.match(await page.locator(`g.counter[data-take="${winning}"]`).getAttribute("aria-label"), /the winning move$/);
  assert.equal(await page.locator('circle[data-winning="true"]').count(), 19);
  await page.close();
  // ply moving first takes the winning move, and the game goes on.
  const first = await open(`game=heaps&heaps=${heaps}&first=ply&seed=7`);
  await first.page.getByTestId("log").filter({ hasText: `ply took ${winning} from heap 1` }).waitFor();
  await first.page.getByTestId("to-move").filter({ hasText: "You to move." }).waitFor();
  assert.match(first.page.url(), new RegExp(`moves=${winning}`));
  assert.deepEqual([...errors, ...first.errors], []);
  await first.page.close();
});

test("the second probe: ply's time capped at the server's, one take per double click, one winning counter", async () => {
  // A time to think over the server's limit (30 s here) is said and cut to it; ply moves.
  const { page, errors } = await open("game=triangles&size=2&seed=1&think=1e9");
  await page.getByTestId("link-notice").filter({ hasText: "The link's think=`1000000000` is more than a request may take here (30 s): ply thinks 30 s." }).waitFor();
  await page.getByTestId("to-move").filter({ hasText: "A to move (you)" }).waitFor();
  await page.getByTestId("think").fill("100000");
  await page.getByTestId("think").dispatchEvent("change");
  assert.equal(await page.getByTestId("think").inputValue(), "30");
  assert.match(page.url(), /think=30(&|$)/);
  await edge(page, "1-2").click();
  await page.getByTestId("to-move").filter({ hasText: "A to move (you)" }).waitFor();
  assert.equal(await drawnCount(page), 2);
  assert.deepEqual(errors, []);
  await page.close();
  // Heaps 5,6,7: only the counter of the winning take (4) says so; a double click is one take.
  const heaps = await open("game=heaps&heaps=5,6,7&first=me&seed=1");
  await heaps.page.getByTestId("heaps-board").waitFor();
  const winning = await heaps.page.locator('g.counter[aria-label$="the winning move"]').evaluateAll((gs) => gs.map((g) => g.getAttribute("data-take")));
  assert.deepEqual(winning, ["4"]);
  await heaps.page.locator('g.counter[data-take="1"]').dblclick();
  await heaps.page.locator('[data-testid="log"] li').nth(1).waitFor();
  await heaps.page.getByTestId("to-move").filter({ hasText: "You to move." }).waitFor();
  assert.equal(await heaps.page.locator('[data-testid="log"] li').count(), 2);
  assert.match(await heaps.page.locator('[data-testid="log"] li').first().textContent(), /^you took 1 from heap 1/);
  assert.deepEqual(heaps.errors, []);
  await heaps.page.close();
});

test("the second probe: a game left mid-request writes nothing into the next; the menu keeps history; boards as the server read them", async () => {
  const { page, errors } = await open("game=solitaire&squares=1,2,3&die=6");
  await page.getByTestId("solitaire-board").waitFor();
  // A MagicBoard answer held back until another game is open.
  let release;
  const held = new Promise((ok) => { release = ok; });
  await page.route("**/api/magic-board/generate", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByTestId("game").selectOption("magic-board");
  await page.getByTestId("size").fill("3");
  await page.getByTestId("generate").click();
  await page.getByTestId("game").selectOption("heaps");
  await page.getByTestId("heaps-board").waitFor();
  release();
  // The refusal of size 3 would have shown by now; the address stays the heaps game's.
  await page.getByTestId("heaps").fill("2,3");
  await page.getByTestId("start").click();
  await page.waitForURL(/heaps=2%2C3/);
  assert.equal(await page.getByTestId("error").isVisible(), false);
  assert.match(page.url(), /game=heaps/);
  // Back returns through the games picked from the menu (Start was a game of its own).
  await page.goBack();
  await page.waitForURL(/game=heaps&heaps=3%2C4%2C5/);
  await page.goBack();
  await page.waitForURL(/game=magic-board/);
  await page.goBack();
  await page.waitForURL(/game=solitaire/);
  await page.getByTestId("solitaire-board").waitFor();
  await page.unroute("**/api/magic-board/generate");
  await page.close();
  // A board with commas and a blank line is drawn with the numbers the server read.
  const magic = await open("game=magic-board&board=1%2C0__1%2C1");
  await magic.page.getByTestId("magic-board").waitFor();
  const numbers = await magic.page.locator('[data-testid="magic-board"] text').evaluateAll((ts) => ts.map((t) => t.textContent));
  assert.deepEqual(numbers, ["1", "0", "1", "1"]);
  assert.match(magic.page.url(), /board=1\.0_1\.1/);
  await magic.page.close();
  assert.deepEqual([...errors, ...magic.errors].filter((e) => !e.includes("status of 4")), []);
});

test("the keyboard keeps its place when a button disables itself; New game after a refused size opens the classic board", async () => {
  // |◀ pressed from the keyboard disables itself (and ◀, Undo): the focus goes to ▶, not the page.
  const { page, errors } = await open("game=triangles&size=2&first=both&moves=1-2%202-3");
  await page.getByTestId("to-move").waitFor();
  await page.locator('[data-testid="nav-first"]:not([disabled])').waitFor();
  await page.getByTestId("nav-first").focus();
  await page.keyboard.press("Enter");
  await page.locator('[data-testid="nav-first"][disabled]').waitFor();
  await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "nav-next");
  // ▶| the same way: the focus goes back to the nearest usable button before it.
  await page.getByTestId("nav-last").focus();
  await page.keyboard.press("Enter");
  await page.locator('[data-testid="nav-last"][disabled]').waitFor();
  await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "undo");
  assert.deepEqual(errors, []);
  await page.close();
  // Heaps: Undo back to the start disables it; the focus goes to Redo.
  const heaps = await open("game=heaps&heaps=2,3&first=me&seed=1");
  await heaps.page.getByTestId("heaps-board").waitFor();
  await heaps.page.locator('g.counter[data-take="1"]').first().click();
  await heaps.page.locator('[data-testid="undo"]:not([disabled])').waitFor();
  await heaps.page.getByTestId("to-move").filter({ hasText: "You to move." }).waitFor();
  await heaps.page.getByTestId("undo").focus();
  await heaps.page.keyboard.press("Enter");
  await heaps.page.locator('[data-testid="undo"][disabled]').waitFor();
  await heaps.page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "redo");
  assert.deepEqual(heaps.errors, []);
  await heaps.page.close();
  // A link whose board the server refuses: the picker shows the classic board, and New game opens it.
  const refused = await open("game=boxes&rows=abc&cols=3");
  await refused.page.getByTestId("error").filter({ hasText: "rows" }).waitFor();
  await refused.page.locator('[data-testid="board-size"] option').first().waitFor({ state: "attached" });
  assert.equal(await refused.page.getByTestId("board-size").inputValue(), "3x3");
  await refused.page.getByTestId("new-game").click();
  await refused.page.waitForURL(/rows=3&cols=3/);
  await refused.page.getByTestId("to-move").filter({ hasText: "A to move" }).waitFor();
  assert.equal(await refused.page.locator('[data-testid="board"] [data-edge]').count(), 24);
  await refused.page.close();
});

test("the third probe: refused heaps keep the game; Back and Forward keep who took; New game keeps the level; failures in a player's words; the move list keeps the focus", async () => {
  const { page, errors } = await open("game=heaps&heaps=2,3&first=me&seed=4");
  await page.getByTestId("heaps-board").waitFor();
  await page.locator('g.counter[data-take="1"]').first().click();
  await page.locator('[data-testid="log"] li').nth(1).waitFor();
  await page.getByTestId("to-move").filter({ hasText: "You to move." }).waitFor();
  const log = async () => page.locator('[data-testid="log"] li').allTextContents();
  const played = await log();
  assert.match(played[0], /^you took 1 from heap 1/);
  assert.match(played[1], /^ply took/);
  // Heaps the server refuses: said, and the game on the board goes on.
  await page.getByTestId("heaps").fill("3,abc");
  await page.getByTestId("heaps").press("Enter");
  await page.getByTestId("error").filter({ hasText: "is not a whole number. The game of heaps 2,3 goes on." }).waitFor();
  assert.deepEqual(await log(), played);
  // Back and Forward walk the takes, each still named by who made it.
  await page.goBack();
  await page.getByTestId("to-move").filter({ hasText: "Viewing move" }).waitFor();
  assert.deepEqual(await log(), played);
  await page.goForward();
  await page.getByTestId("to-move").filter({ hasText: /^You to move\.$/ }).waitFor();
  assert.deepEqual(await log(), played);
  // The take then still works.
  await page.locator('g.counter[data-take="1"]').first().click();
  await page.locator('[data-testid="log"] li').nth(2).waitFor();
  assert.match((await log())[2], /^you took 1/);
  assert.deepEqual(errors.filter((e) => !e.includes("status of 400")), []);
  await page.close();
  // New game keeps ply's level; a move picked in the list from the keyboard keeps the focus there.
  const dots = await open("game=triangles&size=2&first=both&level=3&seed=2&moves=1-2%202-3");
  await dots.page.getByTestId("to-move").waitFor();
  await dots.page.locator('[data-testid="move-list"] tr[data-ply="0"] button').focus();
  await dots.page.keyboard.press("Enter");
  await dots.page.locator('[data-testid="move-list"] tr[data-ply="0"][aria-current="step"]').waitFor();
  await dots.page.waitForFunction(() => document.activeElement?.closest?.('tr[data-ply="0"]') !== null && document.activeElement?.tagName === "BUTTON");
  await dots.page.getByTestId("new-game").click();
  await dots.page.waitForURL(/level=3/);
  assert.equal(await dots.page.getByTestId("level").inputValue(), "3");
  await dots.page.close();
  // A server that does not answer, and limits that do not come: said in a player's words.
  const cut = await open("game=heaps&heaps=1");
  await cut.page.route("**/api/dots", (route) => route.abort());
  await cut.page.goto(`${base}/?game=triangles&size=2`);
  await cut.page.getByTestId("error").filter({ hasText: "The server did not answer (is `ply serve` still running?)" }).waitFor();
  assert.doesNotMatch(await cut.page.getByTestId("error").textContent(), /Failed to fetch/);
  await cut.page.unroute("**/api/dots");
  await cut.page.route("**/api/limits", (route) => route.fulfill({ status: 500, contentType: "application/json", body: "{}" }));
  await cut.page.goto(`${base}/?game=boxes&rows=2&cols=2`);
  await cut.page.getByTestId("error").filter({ hasText: "The server's limits did not come (HTTP 500): reload the page to try again" }).waitFor();
  assert.deepEqual(cut.errors.filter((e) => !e.includes("status of 500") && !e.includes("net::ERR_FAILED")), []);
  await cut.page.close();
});

test("the fourth pass: boxes named as the page names them; words for the level and the top lines; bounds that fit their edge; targets a finger can hit", async () => {
  // A refusal names the box typed in, not the API's field.
  const sol = await open("game=solitaire&squares=1,-2,0,9,-1,-2&die=6");
  await sol.page.getByTestId("result").filter({ hasText: "Best total 8" }).waitFor();
  await sol.page.getByTestId("die").fill("");
  await sol.page.getByTestId("die").press("Enter");
  await sol.page.getByTestId("error").filter({ hasText: "the die box is empty: type a whole number" }).waitFor();
  assert.doesNotMatch(await sol.page.getByTestId("error").textContent(), /"die"/);
  await sol.page.close();
  const magic = await open("game=magic-board&size=5&seed=1");
  await magic.page.locator("[data-corner]").first().waitFor();
  await magic.page.getByTestId("size").fill("1");
  await magic.page.getByTestId("generate").click();
  await magic.page.getByTestId("error").filter({ hasText: "a board of size 1 breaks the size rule (5 to 20)" }).waitFor();
  assert.doesNotMatch(await magic.page.getByTestId("error").textContent(), /any_size/);
  await magic.page.close();
  // The level has words on screen, and so have the top lines; the 21-dot board's book bounds
  // ("≤−1": the other bound is only what the cells allow) fit their edges without overlapping.
  const { page, errors } = await open("game=triangles&size=5&values=1&first=both&moves=1-2");
  await page.locator(".value-label").nth(43).waitFor({ state: "attached" });
  assert.match(await page.getByTestId("level-note").textContent(), /^Level 8 plays perfectly .* level 1 can be beaten\.$/);
  assert.equal(await page.getByText("ply plays at").count(), 1);
  await page.getByText("The best moves, each with its value and the line that keeps it:").waitFor();
  assert.equal(await page.locator('[data-edge="2-3"]').getAttribute("data-value"), "-25..-1");
  assert.match(await page.locator('[data-edge="2-3"]').getAttribute("aria-label"), /value at most −1 for B/);
  const boxes = await page.locator(".value-label rect").evaluateAll((rs) => rs.map((r) => r.getBoundingClientRect()).map((b) => [b.left, b.top, b.right, b.bottom]));
  assert.equal(boxes.length, 44);
  const overlapping = boxes.flatMap((a, i) => boxes.slice(i + 1).filter((b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]).map((b) => [a, b]));
  assert.deepEqual(overlapping, []);
  // The move list's links are 24 pixels high at the least.
  const link = await page.locator('[data-testid="move-list"] button.link').first().boundingBox();
  assert.ok(link.height >= 24, JSON.stringify(link));
  assert.deepEqual(errors, []);
  await page.close();
  // The heaps' counters are 24 pixels across.
  const heaps = await open("game=heaps&heaps=3,4&first=me");
  await heaps.page.locator("g.counter").first().waitFor();
  const counter = await heaps.page.locator("g.counter circle").first().boundingBox();
  assert.ok(counter.width >= 24 && counter.height >= 24, JSON.stringify(counter));
  await heaps.page.close();
});

test("the game menu is the registry's: every page of every game, each opening, then any question", async () => {
  const games = await (await fetch(base + "/api/games")).json();
  // After the games, the page of every question (not a game: the page adds it itself).
  const pages = [...games.flatMap((g) => g.pages.map((p) => [p.id, p.title])), ["ask", "Any question (JSON)"]];
  assert.deepEqual(pages.map(([id]) => id), ["triangles", "boxes", "solitaire", "dice-race", "magic-board", "heaps", "ask"]);
  const { page, errors } = await open("game=heaps&heaps=3,4");
  const picker = page.getByTestId("game");
  await picker.locator("option").nth(pages.length - 1).waitFor({ state: "attached" });
  assert.deepEqual(await picker.locator("option").evaluateAll((os) => os.map((o) => [o.value, o.textContent])), pages);
  await page.getByTestId("heaps-board").waitFor();
  assert.equal(await picker.inputValue(), "heaps");
  for (const [id] of pages) {
    await picker.selectOption(id);
    await page.locator("#main > *").first().waitFor();
    assert.equal(await picker.inputValue(), id);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("every game fits a 390-pixel phone: no horizontal scroll, every control on screen", async () => {
  const games = [
    ["game=solitaire", "distribution-chart"],
    ["game=dice-race", "sums-chart"],
    ["game=magic-board&size=12&seed=3", "magic-board"],
    ["game=heaps&heaps=3,4,5,6,7,8", "heaps-board"],
    ["game=triangles&size=4", "dots-board"],
    ["game=boxes&rows=5&cols=5", "dots-board"],
    // A game over: how each side played (its table was 402–437 px wide).
    ["game=boxes&rows=1&cols=2&first=ply&seed=1&moves=1-2+2-3+4-5+5-6+1-4+2-5+3-6", "game-summary-table"],
    // Fractions of 37 digits (35 sevens against one six).
    [`game=dice-race&first=${Array(35).fill(7).join(",")}&second=6`, "sums-chart"],
  ];
  for (const [query, ready] of games) {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    page.setDefaultTimeout(WAIT);
    await page.goto(`${base}/?${query}`);
    await page.getByTestId(ready).first().waitFor();
    await page.waitForLoadState("networkidle");
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, query);
    const outside = await page.evaluate(() => [...document.querySelectorAll("main button, main input, main select, main textarea, main svg, main table")]
      .filter((e) => e.offsetParent !== null)
      .map((e) => [e.getAttribute("data-testid") || e.textContent.slice(0, 20) || e.tagName, e.getBoundingClientRect()])
      .filter(([, r]) => r.left < 0 || r.right > 390.5)
      .map(([name, r]) => `${name}: ${Math.round(r.left)}..${Math.round(r.right)}`));
    assert.deepEqual(outside, [], query);
    if (ready === "game-summary-table") {
      // Read in the summary's own words, not cut.
      assert.equal(await page.getByTestId("game-summary-table").textContent(), "bestmistakesblundersnot provedvalue lostA12004B31002");
      await page.close();
      continue;
    }
    if (query.includes("second=6")) {
      // A fraction breaks after its slash: its denominator starts a line of its own.
      const breaks = await page.locator("td.fraction").first().evaluate((td) => {
        const [n, d] = td.querySelectorAll(".part");
        return { numerator: n.textContent, below: d.getBoundingClientRect().top > n.getBoundingClientRect().top, starts: d.textContent.startsWith("/") };
      });
      assert.deepEqual(breaks, { numerator: "1719070799748422591028658176", below: true, starts: true });
      await page.close();
      continue;
    }
    await page.screenshot({ path: join(shots, `phone-${query.split("&")[0].slice(5)}.png`), fullPage: true });
    await page.close();
  }
});

test("contrast and names: every label on a colour reads at 4.5:1 or more; every picture is named", async () => {
  const { page, errors } = await open("game=triangles&size=3&first=both&seed=1&moves=1-2+2-3+2-5+4-5&values=1");
  await page.locator(".value-label").first().waitFor({ state: "attached" });
  await page.locator('.move-badge[data-badge="4"]').waitFor({ state: "attached" });
  // WCAG's contrast of each move number and each best value's label against the colour under it.
  const ratios = await page.evaluate(() => {
    const luminance = (colour) => {
      const [r, g, b] = colour.match(/\d+/g).slice(0, 3).map((c) => {
        const v = Number(c) / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a, b) => {
      const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05);
    };
    const labels = [...document.querySelectorAll(".move-badge, .value-label")].map((g) => {
      const shape = g.querySelector("circle, rect");
      const text = g.querySelector("text");
      return [g.getAttribute("class"), getComputedStyle(shape).fill, getComputedStyle(text).fill];
    }).filter(([, fill]) => fill !== "rgb(255, 255, 255)");
    // The current move's row: its link on the row's tint.
    const row = document.querySelector(".move-list tr.current");
    const link = row.querySelector("button.link");
    labels.push(["current move", getComputedStyle(row).backgroundColor, getComputedStyle(link).color]);
    return labels.map(([kind, fill, ink]) => [kind, fill, ratio(fill, ink)]);
  });
  assert.ok(ratios.some(([kind]) => kind === "move-badge"), JSON.stringify(ratios));
  for (const [kind, fill, r] of ratios) assert.ok(r >= 4.5, `${kind} on ${fill}: ${r.toFixed(2)}:1`);
  await page.close();
  for (const [query, testid, name] of [
    ["game=solitaire&squares=1,-2,0,9,-1,-2&die=6", "solitaire-board", /^the board: 6 squares; the best path visits squares 0, 3, 5$/],
    ["game=magic-board&size=8&seed=1", "magic-board", /^the board, 8×8, the goal at \(\d+,\d+\); each solvable corner's shortest path drawn to step \d+ of \d+$/],
  ]) {
    const other = await open(query);
    await other.page.getByTestId(testid).waitFor();
    assert.equal(await other.page.getByTestId(testid).getAttribute("role"), "img");
    assert.match(await other.page.getByTestId(testid).getAttribute("aria-label"), name);
    assert.deepEqual(other.errors, []);
    await other.page.close();
  }
  assert.deepEqual(errors, []);
});

test("the keyboard: a skip link past the board, the chart's points focusable and named", async () => {
  const { page, errors } = await open("game=triangles&size=2&first=both&moves=1-2+1-3+2-4");
  await page.locator(".chart-point").first().waitFor({ state: "attached" });
  // The first Tab lands on the skip link, which jumps to the controls under the board.
  await page.keyboard.press("Tab");
  const skip = page.getByTestId("skip");
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute("data-testid")), "skip");
  assert.ok((await skip.boundingBox()).x >= 0);
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.id), "show-values");
  // The chart is a named group; the point of the position shown is in the tab order and goes there.
  const chart = page.getByTestId("value-chart");
  assert.match(await chart.getAttribute("aria-label"), /^Value chart: A's final margin before each move, 4 of 4 positions proved/);
  const current = page.locator('.chart-point[tabindex="0"]');
  assert.equal(await current.getAttribute("data-ply"), "3");
  await current.focus();
  await page.keyboard.press("ArrowLeft");
  await page.getByTestId("to-move").filter({ hasText: "Viewing move 2 of 3" }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute("data-ply")), "2");
  await page.keyboard.press("ArrowLeft");
  await page.getByTestId("to-move").filter({ hasText: "Viewing move 1 of 3" }).waitFor();
  assert.match(await page.evaluate(() => document.activeElement.getAttribute("aria-label")), /^after 1 moves: A's final margin [−+]?\d+$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("dots: the board picker offers only the boards the server answers", async () => {
  const { page, errors } = await open("game=boxes&rows=3&cols=3");
  const picker = page.getByTestId("board-size");
  await picker.locator("option").nth(76).waitFor({ state: "attached" });
  const options = await picker.locator("option").allTextContents();
  // Every board of at most 63 edges: 77 of boxes, from 1×1 to 1×20 and 20×1.
  assert.equal(options.length, 77);
  assert.ok(options.includes("5×5 boxes") && options.includes("1×20 boxes"));
  assert.ok(!options.includes("5×6 boxes") && !options.includes("7×7 boxes"));
  assert.equal(await picker.inputValue(), "3x3");
  await picker.selectOption("4x4");
  await page.getByTestId("size-note").filter({ hasText: "Dots and Boxes, 4×4: 40 edges" }).waitFor();
  await page.getByTestId("new-game").click();
  await page.waitForURL(/rows=4&cols=4/);
  await page.getByTestId("to-move").filter({ hasText: "A to move (you)" }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

// The keys of an answer that are wall times: they differ from one asking to the next.
const WALL_TIMES = new Set(["seconds", "simulation_seconds", "exact_seconds", "boards_per_second"]);

function withoutWallTimes(value) {
  if (Array.isArray(value)) return value.map(withoutWallTimes);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !WALL_TIMES.has(k)).map(([k, v]) => [k, withoutWallTimes(v)]));
}

// What `POST question.path body` answers, asked directly: its JSON, or for a question that streams,
// its `report` event's data.
async function askDirect(question, body) {
  const response = await fetch(base + question.path, { method: "POST", headers: { "content-type": "application/json" }, body });
  const text = await response.text();
  if (!question.streams) return JSON.parse(text);
  const report = /^event: report\ndata: (.*)$/m.exec(text);
  assert.ok(report, text);
  return JSON.parse(report[1]);
}

// The shell word the page writes for `text` (in single quotes).
const quoted = (text) => `'${text.replaceAll("'", "'\\''")}'`;

test("any question: every question of the registry asked from the page, answered as the API answers", async () => {
  const games = await (await fetch(base + "/api/games")).json();
  const questions = games.flatMap((g) => g.questions);
  // The registry's 19 questions: an empty or shrunk list fails here rather than passing vacuously.
  assert.equal(questions.length, 19);
  const { page, errors } = await open("game=ask");
  const choice = page.getByLabel("Question", { exact: true });
  await choice.locator("option").nth(questions.length - 1).waitFor({ state: "attached" });
  assert.deepEqual(await choice.locator("option").evaluateAll((os) => os.map((o) => o.value)), questions.map((q) => q.path));
  assert.deepEqual(await choice.locator("optgroup").evaluateAll((gs) => gs.map((g) => g.children.length)), games.map((g) => g.questions.length));
  const body = page.getByLabel("Request (JSON; Ctrl+Enter asks)");
  const status = page.getByTestId("ask-status");
  for (const q of questions) {
    const what = `${q.game} ${q.name}`;
    await choice.selectOption(q.path);
    assert.equal(await body.inputValue(), q.example, what);
    assert.ok((await page.getByTestId("ask-summary").textContent()).startsWith(`${q.summary} — POST ${q.path}`), what);
    assert.equal(await page.getByTestId("ask-cli").textContent(), `ply ask ${q.game} ${q.name} ${quoted(q.example)}`);
    assert.equal(await page.getByTestId("ask-curl").textContent(),
      `curl ${q.streams ? "-N " : ""}-X POST '${base}${q.path}' -H 'content-type: application/json' -d ${quoted(q.example)}`);
    await page.getByTestId("ask").click();
    await status.filter({ hasText: /^HTTP 200: answered in \d+ ms/ }).waitFor();
    const shown = await page.getByTestId("ask-answer").textContent();
    const direct = await askDirect(q, q.example);
    assert.equal(shown, JSON.stringify(JSON.parse(shown), null, 2), what);
    assert.deepEqual(withoutWallTimes(JSON.parse(shown)), withoutWallTimes(direct), what);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("any question: a bad body shows the server's fault and status; the address asks it again", async () => {
  const heaps = (await (await fetch(base + "/api/games")).json()).flatMap((g) => g.questions).find((q) => q.path === "/api/heaps");
  const { page, errors } = await open("game=ask");
  const choice = page.getByLabel("Question", { exact: true });
  await choice.selectOption("/api/heaps");
  const body = page.getByLabel("Request (JSON; Ctrl+Enter asks)");
  const status = page.getByTestId("ask-status");
  // Ctrl+Enter in the request asks.
  await body.fill('{"x":1}');
  await body.press("Control+Enter");
  const fault = await fetch(base + "/api/heaps", { method: "POST", headers: { "content-type": "application/json" }, body: '{"x":1}' });
  assert.equal(fault.status, 400);
  const message = (await fault.json()).error;
  assert.equal(message, 'unknown key "x" (the keys are "heaps", "misere", "grundy")');
  await status.filter({ hasText: `HTTP 400: ${message}` }).waitFor();
  assert.equal(await status.getAttribute("class"), "ask-status fault");
  assert.equal(await page.getByTestId("ask-answer").isVisible(), false);
  // The question and a short body are in the address; the link asks them again.
  const request = '{"heaps": [2, 5], "misere": true}';
  await body.fill(request);
  const link = new URL(await page.evaluate(() => location.href));
  assert.equal(link.searchParams.get("game"), "ask");
  assert.equal(link.searchParams.get("q"), "/api/heaps");
  assert.equal(link.searchParams.get("body"), request);
  assert.equal(new URL(await page.getByTestId("share").getAttribute("href"), base).search, link.search);
  const again = await open(link.search.slice(1));
  await again.page.getByTestId("ask-status").filter({ hasText: /^HTTP 200: answered in \d+ ms$/ }).waitFor();
  assert.equal(await again.page.getByLabel("Question", { exact: true }).inputValue(), "/api/heaps");
  assert.equal(await again.page.getByLabel("Request (JSON; Ctrl+Enter asks)").inputValue(), request);
  const shown = JSON.parse(await again.page.getByTestId("ask-answer").textContent());
  assert.deepEqual(shown, await askDirect(heaps, request));
  assert.equal(shown.convention, "misere");
  assert.deepEqual(again.errors, []);
  await again.page.close();
  // A body of 2 000 characters or more is left out of the address.
  await body.fill(`{"heaps": [${"1, ".repeat(700)}1]}`);
  const long = new URL(await page.evaluate(() => location.href));
  assert.equal(long.searchParams.get("body"), null);
  assert.equal(long.searchParams.get("q"), "/api/heaps");
  // The keyboard: the question, the request, then Ask.
  await choice.focus();
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.id), "ask-body");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute("data-testid")), "ask");
  // The browser reports the refused request (400) itself; nothing else may go wrong.
  assert.deepEqual(errors.filter((e) => !e.includes("status of 400")), []);
  await page.close();
});

test("any question: a streamed answer on a 390-pixel phone, no horizontal scroll; the screenshots", async () => {
  const phone = await browser.newPage({ viewport: { width: 390, height: 900 }, isMobile: true, hasTouch: true });
  phone.setDefaultTimeout(WAIT);
  const errors = [];
  phone.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  phone.on("pageerror", (e) => errors.push(String(e)));
  await phone.goto(`${base}/?game=ask&q=/api/dots/analyse`);
  await phone.getByTestId("ask-status").filter({ hasText: /^HTTP 200: answered in \d+ ms, after \d+ status events$/ }).waitFor();
  assert.equal(JSON.parse(await phone.getByTestId("ask-answer").textContent()).best_move, "1-3");
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth) <= 390);
  const outside = await phone.evaluate(() => [...document.querySelectorAll("main button, main select, main textarea, main pre")]
    .map((e) => [e.getAttribute("data-testid") || e.tagName, e.getBoundingClientRect()])
    .filter(([, r]) => r.left < 0 || r.right > 390.5)
    .map(([name, r]) => `${name}: ${Math.round(r.left)}..${Math.round(r.right)}`));
  assert.deepEqual(outside, []);
  await phone.screenshot({ path: join(shots, "ask-phone.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await phone.close();
  const wide = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  wide.setDefaultTimeout(WAIT);
  await wide.goto(`${base}/?game=ask&q=/api/triangle-war`);
  await wide.getByTestId("ask-status").filter({ hasText: /^HTTP 200: answered in \d+ ms$/ }).waitFor();
  await wide.screenshot({ path: join(shots, "ask.png"), fullPage: true });
  await wide.close();
});
