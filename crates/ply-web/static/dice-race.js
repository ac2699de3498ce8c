// The dice race: exact outcomes, the sums, a replay roll by roll and the unbeaten list. The replay is
// the library's race (/api/dice-race/game): the dice thrown from the link's seed, the sums crossed
// off, the end and the winner, and the exact chances after each roll are its answer; the page states
// no rule and draws no roll.
"use strict";

// The dice race's boxes, as a refusal names them.
const DICE_BOXES = { first: "first", second: "second", dice: "dice", sides: "sides" };

function diceGame(params) {
  const first = el("input", { type: "text", id: "first", "data-testid": "first", value: params.get("first") || "5,6,7,8,9" });
  const second = el("input", { type: "text", id: "second", "data-testid": "second", value: params.get("second") || "5,6,7,8,7" });
  const dice = el("input", { type: "number", min: 1, id: "dice", value: params.get("dice") || 2 });
  const sides = el("input", { type: "number", min: 1, id: "sides", value: params.get("sides") || 6 });
  const outcome = el("div", { "data-testid": "outcome" });
  const sums = el("div");
  const race = el("div", { "data-testid": "race" });
  const unbeaten = el("div", { "data-testid": "unbeaten" });
  let current = null;
  let seed = seedOf(params);
  main.replaceChildren(
    panel("Dice race",
      el("p", { class: "small", text: "Each player picks sums; the dice are rolled and each crosses off one occurrence of the sum rolled. The first to cross off everything wins; finishing on the same roll is a tie." }),
      el("div", { class: "controls" }, el("label", { text: "first " }, first), el("label", { text: "second " }, second)),
      el("div", { class: "controls" }, el("label", { text: "dice " }, dice), el("label", { text: "sides " }, sides),
        el("button", { text: "Compare", "data-testid": "compare", onclick: run })),
      outcome,
      panel("Replay: roll the dice", el("div", { class: "controls" },
        el("button", { text: "Roll", "data-testid": "roll", onclick: roll }),
        el("button", { text: "Restart", onclick: restart })), race)),
    el("div", { class: "side" },
      panel("Distribution of the sum", sums),
      panel("The unbeaten list for these dice", unbeaten)));

  function chances(r) {
    return el("table", {},
      el("tr", {}, el("td", { text: "P(first wins)" }), fraction(r.exact.p_first, "td"), el("td", { text: r.p_first.toFixed(6) })),
      el("tr", {}, el("td", { text: "P(second wins)" }), fraction(r.exact.p_second, "td"), el("td", { text: r.p_second.toFixed(6) })),
      el("tr", {}, el("td", { text: "P(tie)" }), fraction(r.exact.p_tie, "td"), el("td", { text: r.p_tie.toFixed(6) })));
  }

  function diceRequest() {
    return { dice: wholeNumber(dice.value), sides: wholeNumber(sides.value) };
  }

  async function run() {
    clearError();
    link();
    try {
      const { body } = await api("/api/dice-race/compare", { first: first.value, second: second.value, ...diceRequest() }, undefined, DICE_BOXES);
      outcome.replaceChildren(chances(body), el("p", {}, "Expected rolls ", fraction(body.exact.expected_rolls), ` ≈ ${body.expected_rolls.toFixed(3)}`));
      const d = await api("/api/dice-race/sums", diceRequest(), undefined, DICE_BOXES);
      // The replay races the lists compared (edited boxes wait for the next Compare).
      current = { race: { first: first.value, second: second.value, ...diceRequest() } };
      sums.replaceChildren(barChart(d.body.map((s) => ({ label: String(s.sum), value: s.p, text: `${s.sum}: ${s.probability}` })), { testid: "sums-chart", name: "the chance of each sum of the dice, as a bar chart", mark: percent }));
      restart();
      const picks = body.first.length;
      try {
        const b = await api("/api/dice-race/best", { picks, ...diceRequest() }, undefined, DICE_BOXES);
        unbeaten.replaceChildren(el("p", {}, b.body.unbeaten
          ? `With ${picks} picks no list beats ${JSON.stringify(b.body.best)} head to head` + (b.body.all_unbeaten.length > 1 ? ` (unbeaten: ${b.body.all_unbeaten.map((l) => JSON.stringify(l)).join(", ")})` : "") + "."
          : `With ${picks} picks every list is beaten by some other list; see the equilibrium.`),
          el("p", { class: "small", text: `The original program's greedy substitution gives ${JSON.stringify(b.body.greedy)} (${b.body.greedy_agrees ? "unbeaten too" : "beaten"}); ${b.body.multisets} lists searched, ${b.body.races} exact races.` }));
      } catch (e) {
        unbeaten.replaceChildren(el("p", { class: "small", text: e.message }));
      }
    } catch (e) {
      // No answer of other lists stays on screen beside the error, and no replay of them.
      current = null;
      for (const part of [outcome, sums, race, unbeaten]) part.replaceChildren();
      showError(e.message);
    }
  }

  function link() {
    setLink({ game: "dice-race", first: first.value, second: second.value, dice: dice.value, sides: sides.value, seed });
  }

  // A new replay: new dice (a new seed, put in the link) unless it is the first, which is the link's.
  function restart(event) {
    if (!current) return;
    if (event) {
      seed = Math.floor(Math.random() * 1000000);
      link();
    }
    // A new replay (a roll still on its way belongs to the one before and is dropped).
    current = { race: current.race, rolls: 0, over: false };
    race.replaceChildren(el("p", { class: "small", "data-placeholder": "", text: "Press Roll." }));
  }

  // One more roll: the race from the start to it, as the library plays it from the seed.
  async function roll() {
    // One roll at a time: quick clicks roll once each, in turn.
    if (!current || current.over || current.rolling) return;
    clearError();
    let body;
    const replay = current;
    replay.rolling = true;
    try {
      body = (await api("/api/dice-race/game", { ...replay.race, seed, rolls: replay.rolls + 1 })).body;
    } catch (e) {
      showError(e.message);
      return;
    } finally {
      replay.rolling = false;
    }
    if (replay !== current) return;
    current.rolls = body.rolls.length;
    const last = body.rolls[body.rolls.length - 1];
    const needs = (left) => left.length ? left.join(",") : "nothing";
    const line = el("div", { "data-testid": "roll" }, el("strong", { text: `roll ${current.rolls}: ${last.sum}` }),
      el("span", { class: "small", "data-faces": last.faces.join(","), text: ` (${last.faces.join(" + ")})` }),
      ` — first needs ${needs(body.first_left)}, second needs ${needs(body.second_left)}`);
    if (body.finish) {
      current.over = true;
      line.append(el("p", { class: "status", "data-finish": body.finish, text: `${body.ending[0].toUpperCase()}${body.ending.slice(1)}.` }));
    } else if (body.chances) {
      line.append(chances(body.chances));
    } else {
      line.append(el("p", { class: "small", text: "The exact chances from here take too long to show here: Compare the lists left." }));
    }
    race.querySelector("[data-placeholder]")?.remove();
    race.prepend(line);
  }

  for (const box of [first, second, dice, sides]) onEnter(box, run);
  checkLinked(params, "dice", dice);
  checkLinked(params, "sides", sides);
  run();
}
