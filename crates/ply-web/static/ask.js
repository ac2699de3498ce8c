// "Any question (JSON)": every question of every game, asked with its request as JSON and answered
// as the API answers it — the page's door to the questions no game page shows. Built only from the
// registry's list (GET /api/games: each question's game, name, path, summary, example and whether
// it streams): it knows no game. The question (`q=`, its path) and a short request (`body=`) are
// kept in the address, so that a link asks it again.
"use strict";

// The longest request kept in the address: a longer one is left out of the link (the question's
// example is then asked from it).
const ASK_LINK_BODY = 2000;

// Opens the page from the address; `games` is GET /api/games. Returns its session: close() stops
// the answer in flight.
function askPage(params, games) {
  const questions = games.flatMap((game) => game.questions);
  if (!questions.length) {
    showError("the server lists no questions");
    return null;
  }
  const choice = el("select", { id: "ask-question", "data-testid": "ask-question" },
    ...games.filter((game) => game.questions.length).map((game) => el("optgroup", { label: `${game.name} — ${game.title}` },
      ...game.questions.map((q) => new Option(`${q.game} ${q.name}`, q.path)))));
  const summary = el("p", { "data-testid": "ask-summary" });
  const request = el("textarea", { id: "ask-body", "data-testid": "ask-body", class: "ask-body", rows: 6, spellcheck: "false", autocapitalize: "off", autocomplete: "off" });
  const askButton = el("button", { type: "button", text: "Ask", "data-testid": "ask", onclick: ask });
  const exampleButton = el("button", { type: "button", text: "The example", "data-testid": "ask-example", onclick: () => { request.value = chosen().example; changed(); } });
  const status = el("p", { class: "ask-status", "data-testid": "ask-status", "aria-live": "polite" });
  const answer = el("pre", { class: "ask-answer", "data-testid": "ask-answer", tabindex: 0, "aria-label": "the answer, as JSON" });
  const answerCopy = copyButton("ask-copy", "Copy the answer", () => answer.textContent);
  const answerPart = el("div", { class: "ask-part", hidden: "" }, el("h3", {}, "Answer ", answerCopy), answer);
  const cliLine = el("pre", { class: "command", "data-testid": "ask-cli" });
  const curlLine = el("pre", { class: "command", "data-testid": "ask-curl" });
  let inFlight = null;

  main.replaceChildren(el("section", { class: "panel ask" },
    el("h2", { text: "Any question (JSON)" }),
    el("p", { class: "small" }, "Every question the server answers, as its list of games gives them: pick one, edit its request and ask. The answer is the API's JSON, as ", el("code", { text: "ply ask" }), " prints it."),
    el("div", { class: "controls" }, el("label", { for: "ask-question", text: "Question" }), choice),
    summary,
    el("label", { for: "ask-body", class: "ask-label", text: "Request (JSON; Ctrl+Enter asks)" }),
    request,
    el("div", { class: "controls" }, askButton, exampleButton),
    status,
    answerPart,
    el("div", { class: "ask-part" },
      el("h3", { text: "The same from the command line" }),
      el("div", { class: "command-row" }, cliLine, copyButton("ask-copy-cli", "Copy the ply ask command", () => cliLine.textContent)),
      el("div", { class: "command-row" }, curlLine, copyButton("ask-copy-curl", "Copy the curl command", () => curlLine.textContent)))));

  choice.addEventListener("change", () => {
    request.value = chosen().example;
    clear();
    changed();
  });
  request.addEventListener("input", changed);
  request.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      ask();
    }
  });

  function chosen() {
    return questions.find((q) => q.path === choice.value);
  }

  // The address, the summary and the command lines follow the question and its request.
  function changed() {
    const q = chosen();
    summary.textContent = `${q.summary} — POST ${q.path}${q.streams ? " (answered as server-sent events)" : ""}`;
    const text = request.value.trim();
    cliLine.textContent = `ply ask ${q.game} ${q.name} ${shellQuote(text)}`;
    curlLine.textContent = `curl ${q.streams ? "-N " : ""}-X POST ${shellQuote(location.origin + q.path)} -H 'content-type: application/json' -d ${shellQuote(text)}`;
    const link = { game: "ask", q: q.path };
    if (request.value.length < ASK_LINK_BODY) link.body = request.value;
    setLink(link);
  }

  function clear() {
    inFlight?.abort();
    inFlight = null;
    status.textContent = "";
    status.classList.remove("fault");
    answer.textContent = "";
    answerPart.hidden = true;
  }

  // Sends the request as typed; shows the answer pretty-printed, or the server's fault and status.
  async function ask() {
    clear();
    clearError();
    const q = chosen();
    const controller = new AbortController();
    inFlight = controller;
    const started = performance.now();
    status.textContent = "asking…";
    let httpStatus = null;
    try {
      const response = await post(q.path, request.value, controller.signal);
      httpStatus = response.status;
      let statusEvents = 0;
      const body = q.streams
        ? await readEvents(response, () => { status.textContent = `asking… ${++statusEvents} status events so far`; })
        : await response.json();
      if (inFlight !== controller) return;
      answer.textContent = JSON.stringify(body, null, 2);
      answerPart.hidden = false;
      const events = q.streams ? `, after ${statusEvents} status events` : "";
      status.textContent = `HTTP ${httpStatus}: answered in ${Math.round(performance.now() - started)} ms${events}`;
    } catch (e) {
      if (aborted(e) || inFlight !== controller) return;
      // A refusal has its status; an `error` event comes after a 200; a network failure has none.
      status.textContent = e.status ? `HTTP ${e.status}: ${e.message}`
        : httpStatus ? `HTTP ${httpStatus}, then an error event: ${e.message}` : e.message;
      status.classList.add("fault");
    } finally {
      if (inFlight === controller) inFlight = null;
    }
  }

  const linked = questions.find((q) => q.path === params.get("q"));
  if (params.get("q") !== null && !linked) showError(`no question is asked at ${quoteText(params.get("q"))}: pick one from the list`);
  choice.value = (linked || questions[0]).path;
  request.value = linked && params.get("body") !== null ? params.get("body") : chosen().example;
  changed();
  if (linked) ask();
  return { close: clear };
}

// `text` as one shell word in single quotes (a quote inside written '\'').
function shellQuote(text) {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

// A "Copy" button named `name` that copies what `text()` gives to the clipboard, and says so.
function copyButton(testid, name, text) {
  const label = "Copy";
  const button = el("button", { type: "button", text: label, "data-testid": testid, "aria-label": name });
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text());
      button.textContent = "Copied";
    } catch {
      button.textContent = "Select and copy";
    }
    setTimeout(() => { button.textContent = label; }, 1500);
  });
  return button;
}
