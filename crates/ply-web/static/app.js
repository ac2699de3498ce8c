// ply's page: one game at a time, every board drawn as SVG, every answer from the JSON API (the same
// reports as `ply … --json`). The position is kept in the address so that any position can be shared.
// This file builds the game menu from the library's registry (GET /api/games: every game's pages,
// each with its scripts and the function that opens it), loads the scripts and opens the game
// picked; each game is in its own file, the helpers in common.js. After the games, the menu offers
// "Any question (JSON)" (ask.js), every question of the registry asked as JSON.
"use strict";

// Page id → the function that opens it, as the registry names it (a Map: a link's `game` is any text,
// `__proto__` or `toString` too, and names no page unless the registry lists it).
const PAGES = new Map();

// The game open now: what its function returned (the dots session answers Back/Forward and keys).
let currentGame = null;

// Loads `paths` in their order (scripts added by a script run in the order added when not async).
function loadScripts(paths) {
  return Promise.all(paths.map((path) => new Promise((loaded, failed) => {
    const script = document.createElement("script");
    script.src = "/" + path;
    script.async = false;
    script.onload = loaded;
    script.onerror = () => failed(new Error(`the page's script ${path} did not load`));
    document.body.append(script);
  })));
}

// The menu and the scripts of every page the registry lists, the first page the default, and the
// page of every question.
async function loadPages() {
  const response = await fetch("/api/games");
  if (!response.ok) throw new Error(`the list of games did not come (${response.status})`);
  const scripts = [];
  const entries = [];
  const games = await response.json();
  for (const game of games) {
    for (const page of game.pages) {
      for (const script of page.scripts) if (!scripts.includes(script)) scripts.push(script);
      entries.push(page);
      picker.append(new Option(page.title, page.id));
    }
  }
  picker.append(new Option("Any question (JSON)", "ask"));
  await loadScripts(scripts);
  for (const page of entries) PAGES.set(page.id, window[page.entry]);
  PAGES.set("ask", (params) => askPage(params, games));
}

function open(params) {
  const game = PAGES.has(params.get("game")) ? params.get("game") : picker.options[0].value;
  picker.value = game;
  // The requests of the game open until now no longer reach the page.
  pageGeneration++;
  clearError();
  clearLinkNotices();
  const asked = params.get("game");
  if (asked !== null && asked !== game) linkRefused("game", asked, "is no game of this page", `it shows ${picker.selectedOptions[0].text}`);
  currentGame?.close?.();
  currentGame = PAGES.get(game)(params) || null;
  // The skip link's target: the game's controls (for dots, the buttons under its board — past the
  // board's many edges).
  const controls = main.querySelector("[data-controls]") || main.querySelector(".controls");
  if (controls) {
    main.querySelector("#controls")?.removeAttribute("id");
    controls.id = "controls";
    controls.setAttribute("tabindex", "-1");
  }
}

// A game picked from the menu is a new history entry: Back returns to the game and position left.
picker.addEventListener("change", () => {
  setLink({ game: picker.value }, true);
  open(new URLSearchParams({ game: picker.value }));
});

// Back and Forward: the game open follows the address when it can (the dots session walks through
// its moves), else the address's game is opened afresh.
window.addEventListener("popstate", () => {
  if (!picker.options.length) return; // the menu is still coming
  const params = new URLSearchParams(location.search);
  if (currentGame?.follow?.(params)) return;
  open(params);
});

document.addEventListener("keydown", (event) => currentGame?.key?.(event));

loadPages().then(() => open(new URLSearchParams(location.search)), (e) => showError(e.message));
