// ply's page, shared helpers: DOM and SVG builders, the JSON API, the address, number formats and
// charts. Each game has its own file (dots.js, solitaire.js, …); app.js opens the one picked.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = { good: "#009E73", even: "#E69F00", bad: "#D55E00", best: "#0072B2", a: "#0072B2", b: "#CC79A7", sky: "#56B4E9" };
const main = document.getElementById("main");
const picker = document.getElementById("game");
const errorBox = document.getElementById("error");
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

// POSTs `text`, a request written as JSON, to `path`: the server's response when it took the
// request, else throws an Error with the server's one-line message and its `status`. `signal` aborts
// it (the server then stops the solve). api() and apiStream() send through it, and so does the "Any
// question" page, which sends the text as typed.
async function post(path, text, signal) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: text,
    signal,
  });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    const e = new Error(body.error || response.statusText);
    e.status = response.status;
    throw e;
  }
  return response;
}

// POSTs a request; returns {body, ms} (ms: the server's solve time) or throws as post() does.
async function api(path, request, signal) {
  const response = await post(path, JSON.stringify(request), signal);
  const body = await response.json();
  const timing = response.headers.get("server-timing") || "";
  const solve = /solve;dur=([0-9.]+)/.exec(timing);
  return { body, ms: solve ? Number(solve[1]) : null };
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
      const parsed = JSON.parse(data);
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
  const url = "/?" + query;
  share.href = url;
  if (push) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}

function signed(v) {
  return v > 0 ? "+" + v : String(v);
}

function valueColour(v) {
  return v > 0 ? COLOURS.good : v < 0 ? COLOURS.bad : COLOURS.even;
}

function numberList(text) {
  return text.split(/[\s,]+/).filter((t) => t !== "").map(Number);
}

// The seed that breaks ties between equally good moves of the perfect player: the link's, else a new
// one (put in the link, so the game can be shared and replayed).
function seedOf(params) {
  const given = params.get("seed");
  return given !== null && /^\d+$/.test(given) ? Number(given) : Math.floor(Math.random() * 1000000);
}

let limitsCache = null;

// What the server answers (GET /api/limits), read once.
async function serverLimits() {
  if (!limitsCache) limitsCache = await (await fetch("/api/limits")).json();
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
