// ply's page, shared helpers: DOM and SVG builders, the JSON API, the address, number formats and
// charts. Each game has its own file (dots.js, solitaire.js, …); app.js opens the one picked.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = { good: "#009E73", even: "#E69F00", bad: "#D55E00", best: "#0072B2", a: "#0072B2", b: "#CC79A7", sky: "#56B4E9" };
const main = document.getElementById("main");
const picker = document.getElementById("game");
const errorBox = document.getElementById("error");
const notice = document.getElementById("notice");
const share = document.getElementById("share");

// ---------- helpers ----------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = false;
}

function clearError() {
  errorBox.textContent = "";
  errorBox.hidden = true;
}

// Says what the page could not use of the link it opened — a value it did not take, moves it did
// not load — and what it did instead. Unlike a request's error (showError, which the next answer
// clears), a notice stays until another game is opened (clearLinkNotices): a link's value is never
// replaced in silence.
function linkNotice(text) {
  if ([...notice.children].some((p) => p.textContent === text)) return;
  notice.append(el("p", { text }));
  notice.hidden = false;
}

function clearLinkNotices() {
  notice.replaceChildren();
  notice.hidden = true;
}

// A link's value `key=value` the page does not take: `why` not, and what it does `instead`.
function linkRefused(key, value, why, instead) {
  linkNotice(`The link's ${key}=${quoteText(value)} ${why}: ${instead}.`);
}

// Text quoted in a message: at most 40 characters, escaped.
function quoteText(text) {
  const cut = text.length > 40 ? text.slice(0, 40) + "…" : text;
  return "`" + JSON.stringify(cut).slice(1, -1) + "`";
}

// POSTs `text`, a request written as JSON, to `path`: the server's response when it took the
// request, else throws an Error with the server's one-line message and its `status`. `signal` aborts
// it (the server then stops the solve). api() and apiStream() send through it, and so does the "Any
// question" page, which sends the text as typed.
async function post(path, text, signal) {
  const asked = pageGeneration;
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: text,
      signal,
    });
  } catch (e) {
    if (asked !== pageGeneration) return stale();
    if (aborted(e)) throw e;
    // The browser's own words ("Failed to fetch", "NetworkError …") say nothing to a player.
    throw new Error(NO_ANSWER);
  }
  // The answer of a game no longer shown: nothing of it reaches the page (no error, no link).
  if (asked !== pageGeneration) return stale();
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    const reason = typeof body.error === "string" && body.error !== "" ? body.error : null;
    const e = new Error(reason ?? `The server could not answer (HTTP ${response.status}): try again, or restart \`ply serve\``);
    e.status = response.status;
    throw e;
  }
  return response;
}

// What a request that got no answer at all says (the server stopped, or the network is down).
const NO_ANSWER = "The server did not answer (is `ply serve` still running?): try again";

// The server's answer read as JSON (readJson); an answer that is not JSON (a proxy's error page)
// is said in a player's words, not the parser's.
function answerJson(text) {
  try {
    return readJson(text);
  } catch {
    throw new Error("The server's answer could not be read (it is not ply's JSON): try again");
  }
}

// JSON as the server writes it, read without loss: a whole number past 2^53 (a heap of
// 18446744073709551615 counters) would be rounded to the nearest double, so it is kept as its decimal
// text, which the pages print and send back as it came (the reviver's `context.source`).
function readJson(text) {
  return JSON.parse(text, (key, value, context) =>
    typeof value === "number" && !Number.isSafeInteger(value) && /^-?\d+$/.test(context?.source ?? "") ? context.source : value);
}

// Counts the games opened (app.js's open() raises it): a request asked by an earlier one is stale.
let pageGeneration = 0;

// A promise that never settles: what a stale request gives its caller, whose code after it then
// never runs (the game that asked is gone).
function stale() {
  return new Promise(() => {});
}

// POSTs a request; returns {body, ms} (ms: the server's solve time) or throws as post() does.
// `boxes` names the request's fields the page fills from its boxes (field → the box's label, or
// null for a setting the page makes itself): a refusal then names the box, not the API's field
// (inPageTerms).
async function api(path, request, signal, boxes = {}) {
  let response;
  try {
    response = await post(path, JSON.stringify(request), signal);
  } catch (e) {
    // The error itself goes on (a cancelled request stays an AbortError, a refusal keeps its
    // status); only a refusal's words change.
    if (!aborted(e)) e.message = inPageTerms(e.message, boxes);
    throw e;
  }
  const body = answerJson(await response.text());
  const timing = response.headers.get("server-timing") || "";
  const solve = /solve;dur=([0-9.]+)/.exec(timing);
  return { body, ms: solve ? Number(solve[1]) : null };
}

// A server's refusal in the page's terms: a refusal that starts with a field filled from a box
// (`boxes`: field → the box's label) names that box — `"die" must be a whole number, not `""``
// becomes "the die box is empty: type a whole number" — and a setting the page makes itself (label
// null) is left out of the rule it would widen (`(5 to 20; "any_size": true allows 2 to 4096)`
// becomes `(5 to 20)`). The rest, which may quote what was typed, is left as it is.
function inPageTerms(message, boxes) {
  let out = message;
  const notWhole = " must be a whole number, not ";
  for (const [field, label] of Object.entries(boxes)) {
    const name = `"${field}"`;
    if (label === null) {
      out = out.split(`; ${name}`).map((part, i) => (i === 0 ? part : part.replace(/^[^;)]*/, ""))).join("");
      continue;
    }
    if (!out.startsWith(name)) continue;
    const rest = out.slice(name.length);
    out = rest === `${notWhole}\`""\`` ? `the ${label} box is empty: type a whole number`
      : rest.startsWith(notWhole) ? `the ${label} box must hold a whole number, not ${rest.slice(notWhole.length)}`
      : rest.startsWith(": ") ? `the ${label} box: ${rest.slice(2)}`
      : `the ${label} box${rest}`;
  }
  return out;
}

// POSTs a request to an endpoint that answers in server-sent events (/api/dots/analyse): calls
// `onEvent(name, data)` for each event before the last as it comes, and returns the last one's data
// (its `report`); throws as post() does on a refusal, or as readEvents() does.
async function apiStream(path, request, signal, onEvent) {
  return readEvents(await post(path, JSON.stringify(request), signal), onEvent);
}

// Reads a response of server-sent events: calls `onEvent(name, data)` for each event before the
// last as it comes, and returns the `report` event's data; throws with the server's message on an
// `error` event, or when the stream ends with neither.
async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const name = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (!name || data === undefined) continue;
      const parsed = answerJson(data);
      if (name === "report") return parsed;
      if (name === "error") throw new Error(parsed.error);
      onEvent(name, parsed);
    }
  }
  throw new Error("the analysis stopped before its answer came");
}

// Whether a failed request was aborted on purpose (its answer is no longer wanted).
function aborted(e) {
  return e && e.name === "AbortError";
}

// Puts `params` in the address (and the share link): a new history entry when `push`, so that the
// browser's Back returns to the address before.
function setLink(params, push = false) {
  const query = new URLSearchParams(params).toString();
  let url = "/?" + query;
  // An address longer than the server reads (its request head is at most 16 KiB) would be
  // refused when opened: such a position keeps only its game in the address, and says why.
  const tooLong = url.length > MAX_LINK;
  if (tooLong) url = "/?" + new URLSearchParams({ game: params.game }).toString();
  share.href = url;
  share.textContent = tooLong ? "link to this game (the position is too long for a link)" : "link to this position";
  if (push) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}

// The longest address the page writes: well within the server's 16 KiB request head.
const MAX_LINK = 8000;

// A whole number typed or linked, for a request: a number, or — past 2^53, where a double would
// round it — the exact JSON number text (JSON.rawJSON); anything else as its text, for the server
// to refuse in its own words.
function wholeNumber(text) {
  const t = String(text).trim();
  if (/^-?\d+$/.test(t) && !Number.isSafeInteger(Number(t)) && JSON.rawJSON) return JSON.rawJSON(t);
  return Number.isFinite(Number(t)) && String(Number(t)) === t ? Number(t) : t;
}

// Runs `action` when Enter is pressed in `input` (a box outside a form).
function onEnter(input, action) {
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    action();
  });
}

// Keeps the keyboard's place in a row of controls: returns a function to call after the row's
// buttons are enabled or disabled, which, when the button last focused in the row is now disabled
// or hidden (Undo at the start, ▶| at the end, "ply moves here" while ply thinks) and the focus has
// gone nowhere else, focuses the nearest control of the row still usable (after it, then before
// it), else `fallback()` (an element, or null) — not the page's start, where the browser would
// leave it.
function keepFocusIn(row, fallback = () => null) {
  let last = null;
  row.addEventListener("focusin", (event) => { last = event.target; });
  return () => {
    if (!last || !(last.disabled || last.hidden)) return;
    const active = document.activeElement;
    if (active && active !== last && active !== document.body) {
      last = null;
      return;
    }
    const items = [...row.querySelectorAll("button, input, select")];
    const i = items.indexOf(last);
    const usable = (b) => !b.disabled && !b.hidden;
    const next = items.slice(i + 1).find(usable) ?? items.slice(0, Math.max(i, 0)).reverse().find(usable) ?? fallback();
    next?.focus();
  };
}

// A number box filled from the link's `key`: a value the box cannot hold is said (linkRefused).
function checkLinked(params, key, input) {
  const given = params.get(key);
  if (given !== null && input.value !== given) linkRefused(key, given, "is not a number", input.value ? `the box holds ${input.value}` : "the box is empty");
}

// The text colour readable on `fill` (`#rrggbb`): near-black or white, whichever contrasts more by
// WCAG's relative luminance (white on the palette's green, orange or pink falls short of 4.5:1).
function inkOn(fill) {
  const linear = (c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const [r, g, b] = [1, 3, 5].map((i) => linear(parseInt(fill.slice(i, i + 2), 16) / 255));
  const l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (l + 0.05) / (0.0056 + 0.05) >= 1.05 / (l + 0.05) ? "#111" : "#fff";
}

// An exact fraction `n/d` (or a whole number) as `tag` with `attrs`: on a narrow screen it breaks
// after its slash, and inside a number only when the number alone is wider than its box.
function fraction(text, tag = "span", attrs = {}) {
  const [n, d] = String(text).split("/");
  const node = el(tag, { ...attrs, class: "fraction" }, el("span", { class: "part", text: n }));
  if (d !== undefined) node.append(el("span", { class: "part", text: "/" + d }));
  return node;
}

function signed(v) {
  return v > 0 ? "+" + v : String(v);
}

function valueColour(v) {
  return v > 0 ? COLOURS.good : v < 0 ? COLOURS.bad : COLOURS.even;
}


// The seed that breaks ties between equally good moves of the perfect player: the link's, else a new
// one (put in the link, so the game can be shared and replayed).
function seedOf(params) {
  const given = params.get("seed");
  if (given !== null && /^\d+$/.test(given) && Number.isSafeInteger(Number(given))) return Number(given);
  if (given !== null) linkRefused("seed", given, "is not a whole number", "a new seed is used");
  return Math.floor(Math.random() * 1000000);
}

let limitsCache = null;

// What the server answers (GET /api/limits), asked once; a failed asking is not kept (the next
// call asks again) and throws in a player's words.
function serverLimits() {
  if (!limitsCache) {
    limitsCache = fetch("/api/limits")
      .catch(() => { throw new Error(NO_ANSWER); })
      .then(async (response) => {
        if (!response.ok) throw new Error(`The server's limits did not come (HTTP ${response.status}): reload the page to try again`);
        return answerJson(await response.text());
      })
      .catch((e) => {
        limitsCache = null;
        throw e;
      });
  }
  return limitsCache;
}

function panel(title, ...children) {
  return el("section", { class: "panel" }, el("h2", { text: title }), ...children);
}

// A probability as a percentage written on a chart: one decimal (two under 1 %).
function percent(p) {
  const v = p * 100;
  return `${v.toFixed(v < 1 ? 2 : 1)}%`;
}

// A bar chart of {label, value, text} items, each bar with its value written on it (`mark`, else
// the value) and its exact text as a tooltip; `name` is the chart's accessible name.
function barChart(items, { width = 440, height = 190, colour = COLOURS.sky, testid, name, mark = String } = {}) {
  const chart = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img" });
  if (testid) chart.setAttribute("data-testid", testid);
  if (name) chart.setAttribute("aria-label", name);
  const top = Math.max(...items.map((i) => i.value), 1e-12);
  const band = (width - 20) / Math.max(items.length, 1);
  // Values side by side while they fit; else written upwards.
  const upright = band >= 34;
  items.forEach((item, i) => {
    const h = (item.value / top) * (height - (upright ? 45 : 75));
    const x = 10 + i * band;
    const bar = svg("rect", { x: x + band * 0.1, y: height - 22 - h, width: band * 0.8, height: h, fill: colour });
    bar.append(svg("title", {}, item.text || String(item.value)));
    chart.append(bar);
    const [vx, vy] = [x + band / 2, height - 26 - h];
    chart.append(svg("text", upright ? { x: vx, y: vy, "text-anchor": "middle", "font-size": 10, "data-bar-value": "" }
      : { x: vx + 3, y: vy, "text-anchor": "start", "font-size": 9, transform: `rotate(-90 ${vx + 3} ${vy})`, "data-bar-value": "" }, mark(item.value)));
    if (items.length <= 30 || i % Math.ceil(items.length / 30) === 0) {
      chart.append(svg("text", { x: x + band / 2, y: height - 6, "text-anchor": "middle", "font-size": 11 }, item.label));
    }
  });
  return chart;
}
