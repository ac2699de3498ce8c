// ply's page: one game at a time, every board drawn as SVG, every answer from the JSON API (the same
// reports as `ply … --json`). The position is kept in the address so that any position can be shared.
// This file opens the game picked; each game is in its own file, the helpers in common.js.
"use strict";

const GAMES = { triangles: dotsGame, boxes: dotsGame, solitaire: solitaireGame, "dice-race": diceGame, "magic-board": magicGame, heaps: heapsGame };

// The game open now: what its function returned (the dots session answers Back/Forward and keys).
let currentGame = null;

function open(params) {
  const game = GAMES[params.get("game")] ? params.get("game") : "triangles";
  picker.value = game;
  clearError();
  currentGame?.close?.();
  currentGame = GAMES[game](params) || null;
  // The skip link's target: the game's controls (for dots, the buttons under its board — past the
  // board's many edges).
  const controls = main.querySelector("[data-controls]") || main.querySelector(".controls");
  if (controls) {
    main.querySelector("#controls")?.removeAttribute("id");
    controls.id = "controls";
    controls.setAttribute("tabindex", "-1");
  }
}

picker.addEventListener("change", () => open(new URLSearchParams({ game: picker.value })));

// Back and Forward: the game open follows the address when it can (the dots session walks through
// its moves), else the address's game is opened afresh.
window.addEventListener("popstate", () => {
  const params = new URLSearchParams(location.search);
  if (currentGame?.follow?.(params)) return;
  open(params);
});

document.addEventListener("keydown", (event) => currentGame?.key?.(event));

open(new URLSearchParams(location.search));
