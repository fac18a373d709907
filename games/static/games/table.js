// The live table: taps become moves, moves go through a queue kept in localStorage, and the
// server's answer (the table partial) replaces the table. Each move gets its event id when it is
// tapped, so a resend after a lost answer records it once; a move made while the connection is
// down waits in the queue and is sent, in order, when the connection returns.
(function () {
  "use strict";

  const RETRY_MS = 3000;
  let selection = null; // {circle, pawn} on the board, or {tray: pawn}
  let removal = []; // circles selected for a High-Low removal
  let layout = {}; // Solitaire: circle -> pawn, laid out in the page before it is sent
  let cup = []; // faces entered for the throw
  let dealing = null; // cards: {active: target, assigned: {card: target}} while a deal is entered
  let discarding = []; // cards selected for a discard
  let picked = []; // Double Cameroon: indexes of the dice showing, selected to keep or group
  // Scarnie: the deal entered position by position ({"S1P3": {pawn, colour}}), kept until the
  // deal is recorded (a refused deal keeps its 14-28 entries to correct); the colour of the next
  // pawn, the position it goes on; and the positions selected for a removal, on one station.
  let faced = {};
  let faceColour = "a";
  let activeSlot = null;
  let picking = [];
  let sending = false;
  let retryTimer = null;
  let dropped = []; // moves not recorded because an earlier one was refused

  const table = () => document.getElementById("table");
  const queueKey = () => "scarney.queue." + table().dataset.game;
  const csrf = () => document.querySelector('meta[name="csrf-token"]').content;

  function loadQueue() {
    try {
      return JSON.parse(localStorage.getItem(queueKey()) || "[]");
    } catch (error) {
      return [];
    }
  }

  function saveQueue(queue) {
    localStorage.setItem(queueKey(), JSON.stringify(queue));
  }

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    // crypto.randomUUID needs a secure context; a table on a LAN address may not be one.
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  // --- the queue ------------------------------------------------------------------------------

  // A tap repeated this soon on the same move is a double tap, not a second move.
  const DOUBLE_TAP_MS = 2000;
  let held = null; // {sentence, csrf}: why the first queued move could not be sent (not a refusal)

  function record(type, data, label) {
    const version = Number(table().dataset.version);
    const queue = loadQueue();
    const body = JSON.stringify(data);
    // A second tap on the move just queued, on the same position, is the same move: one id.
    // Only the last one: offline, the same move may come again later on (Stand, next turn).
    const last = queue[queue.length - 1];
    if (last && last.type === type && JSON.stringify(last.data) === body && last.seen === version && Date.now() - Date.parse(last.at) < DOUBLE_TAP_MS) {
      return;
    }
    // Queued moves follow one another: each expects the version its predecessor makes.
    const expected = version + queue.length;
    const move = { id: newId(), type, data, seen: version, expected_version: expected, at: new Date().toISOString() };
    move.label = label || describeMove(move);
    queue.push(move);
    saveQueue(queue);
    clearInputs();
    showQueue();
    flush();
  }

  async function flush() {
    if (sending) return;
    sending = true;
    try {
      let queue = loadQueue();
      while (queue.length) {
        const answer = await send(queue[0]);
        if (answer.outcome === "wait" || answer.outcome === "held") {
          if (answer.outcome === "wait" || !held.csrf) retryLater();
          break;
        }
        held = null;
        queue = loadQueue();
        queue.shift();
        if (answer.outcome === "refused" && queue.length) {
          // The rest were made on a position that never came about: show them, send none.
          dropped = dropped.concat(queue);
          queue = [];
        }
        // The move answered waits no longer: its answer is the status now (a refusal focused).
        saveQueue(queue);
        swapTable(answer.html);
        showQueue();
      }
    } finally {
      sending = false;
      showQueue();
    }
  }

  async function send(move) {
    const form = new URLSearchParams();
    form.set("id", move.id);
    form.set("type", move.type);
    form.set("payload", JSON.stringify(move.data));
    form.set("expected_version", String(move.expected_version));
    let response;
    try {
      response = await fetch(table().dataset.movesUrl, {
        method: "POST",
        headers: { "X-CSRFToken": csrf(), "HX-Request": "true" },
        body: form,
        credentials: "same-origin",
      });
    } catch (error) {
      held = null;
      unreachable = true;
      return { outcome: "wait" }; // no connection: keep the move and try again when it returns
    }
    unreachable = false;
    if (!response.headers.get("X-Table-Version")) {
      // Not the table: a login or CSRF page, a proxy's or the server's error page. The move was
      // not judged, so it stays first in the queue (never dropped) until it can be sent.
      held = await notSent(response);
      return { outcome: "held" };
    }
    held = null;
    return { outcome: response.ok ? "recorded" : "refused", html: await response.text() };
  }

  async function notSent(response) {
    const text = await response.text().catch(() => "");
    if (response.status === 403 && /CSRF/i.test(text)) {
      return {
        csrf: true,
        sentence: "Not sent: this page's login has expired (you logged in or out elsewhere). Reload the page, or log in again, then the moves are sent; they stay queued on this device.",
      };
    }
    if (response.status === 401) {
      return { csrf: true, sentence: "Not sent: log in again to send the queued moves; they stay queued on this device." };
    }
    return {
      csrf: false,
      sentence: "Not sent: the server answered HTTP " + response.status + " instead of the table; the moves stay queued and are tried again.",
    };
  }

  function retryLater() {
    if (retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      flush();
    }, RETRY_MS);
  }

  function swapTable(html) {
    resetSelection();
    if (window.htmx && htmx.swap) {
      htmx.swap(table(), html, { swapStyle: "outerHTML" });
    } else {
      table().outerHTML = html;
    }
    drawDiscard();
    drawScarnie();
    focusRefusal(table());
    if (window.scarneyKeep) window.scarneyKeep(); // the page kept for a reload offline is this one
  }

  // A refusal is shown where the eye is: written beside what it refuses, announced (role
  // "alert") and focused, so a page opened at its top scrolls to it and a screen reader reads it.
  function focusRefusal(root) {
    const refusal = root && root.querySelector('[data-role="refusal"]');
    if (!refusal) return;
    refusal.focus({ preventScroll: true });
    refusal.scrollIntoView({ block: refusal.closest("#table") ? "nearest" : "center" });
  }

  const plural = (n, one, many) => n + " " + (n === 1 ? one : many);

  // The one status: while moves wait, the server's last answer (whose turn, a refusal, an undo)
  // is out of date, so the status says instead what waits and what the table takes next.
  function showQueue() {
    const box = document.querySelector('[data-role="queue"]');
    if (!box) return;
    const queue = loadQueue();
    box.hidden = !queue.length && !dropped.length;
    box.replaceChildren();
    drawStatus(queue.length > 0);
    if (queue.length) {
      if (held) box.append(paragraph(held.sentence, "not-sent"));
      box.append(paragraph(waitingSentence(queue.length), "waiting"));
      box.append(paragraph(offline() ? "Sent in this order when the connection returns:" : "In this order:"), listOf(queue));
      if (held) {
        box.append(button("Try again", "retry", () => {
          held = null;
          showQueue();
          flush();
        }));
        if (held.csrf) box.append(button("Reload the page", "reload", () => location.reload()));
      }
    }
    if (dropped.length) {
      box.append(
        paragraph("Not sent, because an earlier move was refused (enter them again if they still stand):"),
        listOf(dropped),
        button("Dismiss", "dismiss", () => {
          dropped = [];
          showQueue();
        })
      );
    }
    drawWaiting(queue);
  }

  // The server's sentences in the status are hidden while moves wait, and shown again after.
  function drawStatus(waiting) {
    const status = table() && table().querySelector('[data-role="status"]');
    if (!status) return;
    status.classList.toggle("pending", waiting);
    for (const line of status.querySelectorAll(":scope > p")) line.hidden = waiting;
  }

  let unreachable = false; // the last send found no server (the browser may still say online)
  const offline = () => !navigator.onLine || unreachable;

  function paragraph(text, role) {
    const line = document.createElement("p");
    line.textContent = text;
    if (role) line.dataset.role = role;
    return line;
  }

  function button(text, action, onClick) {
    const node = document.createElement("button");
    node.type = "button";
    node.textContent = text;
    node.dataset.queueAction = action;
    node.addEventListener("click", onClick);
    return node;
  }

  function listOf(moves) {
    const list = document.createElement("ol");
    for (const move of moves) {
      const item = document.createElement("li");
      item.dataset.queued = move.id;
      item.textContent = move.label || describeMove(move);
      list.append(item);
    }
    return list;
  }

  // --- moves in words -------------------------------------------------------------------------

  // The server's words for each event type (games/pages/tables/presenting.py MOVE_WORDS).
  function moveWords() {
    const node = document.getElementById("move-words");
    return node ? JSON.parse(node.textContent) || {} : {};
  }

  const faceList = (faces) => (faces || []).join(", ");

  function describeMove(move) {
    const data = move.data || {};
    const words = moveWords();
    switch (move.type) {
      case "pawn.jumped":
        return "Jump from C" + data.from + " to C" + data.to;
      case "pawn.placed":
        return "Place " + data.pawn + " on C" + data.circle;
      case "pawn.taken_off":
        return "Take off the pawn on C" + data.circle;
      case "pawns.removed":
        if (data.circles) return "Remove the pawns on " + data.circles.map((c) => "C" + c).join(", ");
        return "Remove positions " + (data.positions || []).join(", ") + " of station " + data.station;
      case "dice.thrown":
        return "Throw " + faceList(data.faces) + (data.opposite ? " (Opposite)" : "");
      case "dice.kept":
        return "Keep " + faceList(data.faces);
      case "dice.grouped":
        return "Group " + (data.groups || []).map((g) => faceList(g.dice) + " as " + String(g.category).replace(/_/g, " ")).join("; ");
      case "cards.discarded":
        return "Discard " + faceList(data.cards);
      case "move.undone":
        return "Undo the last move" + (data.reason ? " (" + data.reason + ")" : "");
    }
    return words[move.type] || move.type;
  }

  // The label of a tapped button that records a move as it is: its words, or for a card the
  // move's words and the card's name.
  function buttonLabel(target, type) {
    const said = target.querySelector(".sr");
    if (target.classList.contains("card-face") && said) return (moveWords()[type] || type) + ": " + said.textContent.trim();
    return target.textContent.replace(/\s+/g, " ").trim();
  }

  // --- while moves wait -----------------------------------------------------------------------

  // A dice page keeps taking throws (the cup takes any count, checked when sent); any other page
  // shows the board's queued moves and takes no further tap but an undo until they are recorded.
  const keepsRecording = () => !!table().querySelector('[data-role="cup"]');

  // What waits and what the table takes next, in one sentence for the status.
  function waitingSentence(count) {
    const waits = (offline() && !held ? "Offline: " : "") + plural(count, "move", "moves") + " waiting to be sent";
    const recorded = count === 1 ? "it is recorded" : "they are recorded";
    if (keepsRecording()) {
      return waits + ". Next: enter each throw as it is made; who throws next shows once " + recorded + ".";
    }
    return waits + "; the table will update when " + recorded + ". Next: nothing but an undo until then.";
  }

  function drawWaiting(queue) {
    const node = table();
    if (!node) return;
    const lock = queue.length > 0 && !keepsRecording();
    node.classList.toggle("waiting", queue.length > 0);
    for (const control of node.querySelectorAll("button, select")) {
      if (control.closest(".undo")) continue;
      if (lock && !control.disabled) {
        control.disabled = true;
        control.dataset.locked = "";
      } else if (!lock && control.hasAttribute("data-locked")) {
        control.disabled = false;
        delete control.dataset.locked;
      }
    }
    drawPendingBoard(lock ? queue : []);
    drawCup();
  }

  // The board as the server drew it, then each queued placement, take-off, jump or removal on it
  // (an undo takes back the queued move before it); any other move stops the drawing there.
  function drawPendingBoard(queue) {
    const circles = Array.from(table().querySelectorAll("[data-circle]"));
    if (!circles.length) return;
    const node = table();
    if (!node.serverBoard) {
      node.serverBoard = {};
      for (const button of circles) {
        const pawn = button.querySelector("[data-pawn]");
        node.serverBoard[button.dataset.circle] = pawn ? pawn.dataset.pawn : null;
      }
    }
    let cells = Object.assign({}, node.serverBoard);
    const before = [];
    for (const move of queue) {
      if (move.type === "move.undone") {
        if (!before.length) break;
        cells = before.pop();
        continue;
      }
      const next = boardAfter(cells, move);
      if (!next) break;
      before.push(cells);
      cells = next;
    }
    for (const button of circles) {
      const name = button.dataset.circle;
      const pawn = cells[name];
      const changed = pawn !== node.serverBoard[name];
      button.classList.toggle("pending", changed);
      if (!changed && !button.hasAttribute("data-redrawn")) continue;
      const old = button.querySelector("[data-pawn]");
      if (old) old.remove();
      if (pawn) button.append(pawnNode(pawn));
      const empty = button.querySelector(".empty-note");
      if (empty) empty.hidden = !!pawn;
      button.toggleAttribute("data-redrawn", changed);
    }
    const placed = new Set(Object.values(cells));
    for (const tray of node.querySelectorAll("[data-tray]")) {
      if (queue.length) tray.hidden = placed.has(tray.dataset.pawn);
    }
  }

  function boardAfter(cells, move) {
    const next = Object.assign({}, cells);
    const data = move.data || {};
    switch (move.type) {
      case "pawn.placed":
        next["C" + data.circle] = data.pawn;
        return next;
      case "pawn.taken_off":
        next["C" + data.circle] = null;
        return next;
      case "pawn.jumped": {
        const over = data.over || middleOf(data.from, data.to);
        next["C" + data.to] = cells["C" + data.from];
        next["C" + data.from] = null;
        if (over) next["C" + over] = null;
        return next;
      }
      case "pawns.removed":
        if (!data.circles) return null;
        for (const circle of data.circles) next["C" + circle] = null;
        return next;
    }
    return null;
  }

  // The circle between two circles two apart in a line of the 4 x 4 board, numbered row by row.
  function middleOf(from, to) {
    const [r1, c1, r2, c2] = [Math.floor((from - 1) / 4), (from - 1) % 4, Math.floor((to - 1) / 4), (to - 1) % 4];
    if ((r1 + r2) % 2 || (c1 + c2) % 2) return null;
    return ((r1 + r2) / 2) * 4 + (c1 + c2) / 2 + 1;
  }

  // --- the board ------------------------------------------------------------------------------

  function boardMode() {
    const board = table().querySelector('[data-role="board"]');
    return board ? board.dataset.mode : "none";
  }

  function legalEvents() {
    const node = document.getElementById("legal-events");
    return node ? JSON.parse(node.textContent) || [] : [];
  }

  const circleNumber = (name) => Number(String(name).replace("C", ""));

  function onCircle(button) {
    const circle = button.dataset.circle;
    const pawnNode = button.querySelector("[data-pawn]");
    const pawn = pawnNode ? pawnNode.dataset.pawn : null;
    const mode = boardMode();
    if (mode === "layout" || mode === "place") return placeOn(circle, pawn);
    if (mode === "takeoff" && pawn) return record("pawn.taken_off", { circle: circleNumber(circle) });
    if (mode === "jump") return jumpWith(circle, pawn);
    if (mode === "remove" && pawn) return toggleRemoval(circle);
  }

  function placeOn(circle, pawn) {
    if (!selection || !selection.tray) return;
    if (boardMode() === "place") {
      if (pawn) return;
      return record("pawn.placed", { circle: circleNumber(circle), pawn: selection.tray });
    }
    if (layout[circle]) returnToTray(circle);
    layout[circle] = selection.tray;
    drawLayout();
  }

  function returnToTray(circle) {
    delete layout[circle];
  }

  function drawLayout() {
    const placed = new Set(Object.values(layout));
    for (const button of table().querySelectorAll("[data-circle]")) {
      const pawn = layout[button.dataset.circle];
      const old = button.querySelector("[data-pawn]");
      if (old) old.remove();
      if (pawn) button.append(pawnNode(pawn));
      const empty = button.querySelector(".empty-note");
      if (empty) empty.hidden = !!pawn;
    }
    for (const tray of table().querySelectorAll("[data-tray]")) {
      tray.hidden = placed.has(tray.dataset.pawn);
    }
    selection = null;
    markSelection();
    const done = table().querySelector('[data-action="lay-out"]');
    if (done) done.disabled = placed.size !== 16;
  }

  const COLOURS = { B: "black", R: "red", Y: "yellow", G: "green" };
  const describe = (pawn) => COLOURS[pawn[0]] + " " + pawn[1] + "-spot";

  function pawnNode(pawn) {
    const node = document.createElement("span");
    node.className = "pawn pawn-" + COLOURS[pawn[0]];
    node.dataset.pawn = pawn;
    const letter = document.createElement("span");
    letter.className = "pawn-letter";
    letter.textContent = pawn;
    const said = document.createElement("span");
    said.className = "sr";
    said.textContent = " " + describe(pawn);
    const dots = document.createElement("span");
    dots.className = "dots";
    dots.setAttribute("aria-hidden", "true");
    dots.textContent = "●".repeat(Number(pawn[1]));
    node.append(letter, said, dots);
    return node;
  }

  function jumpWith(circle, pawn) {
    const number = circleNumber(circle);
    if (selection && selection.circle && !pawn) {
      const from = circleNumber(selection.circle);
      return record("pawn.jumped", { from: from, to: number });
    }
    selection = pawn ? { circle: circle, pawn: pawn } : null;
    markSelection();
  }

  function markSelection() {
    const targets = new Set();
    if (selection && selection.circle && boardMode() === "jump") {
      const from = circleNumber(selection.circle);
      for (const move of legalEvents()) {
        if (move.type === "pawn.jumped" && move.data.from === from) targets.add("C" + move.data.to);
      }
    }
    if (selection && selection.tray) {
      for (const button of table().querySelectorAll("[data-circle]")) {
        const taken = button.querySelector("[data-pawn]");
        if (!taken || boardMode() === "layout") targets.add(button.dataset.circle);
      }
    }
    const toggles = boardMode() === "jump" || boardMode() === "remove";
    const why = selection && selection.tray ? " — free circle for " + describe(selection.tray) : " — legal landing circle";
    for (const button of table().querySelectorAll("[data-circle]")) {
      const name = button.dataset.circle;
      const selected = !!selection && selection.circle === name;
      button.classList.toggle("selected", selected);
      button.classList.toggle("target", targets.has(name));
      button.classList.toggle("chosen", removal.includes(name));
      // Said to a screen reader too: the pawn picked up (or chosen) is pressed, a target says so.
      if (toggles) button.setAttribute("aria-pressed", selected || removal.includes(name) ? "true" : "false");
      let note = button.querySelector(".target-note");
      if (targets.has(name) && !note) {
        note = document.createElement("span");
        note.className = "sr target-note";
        button.append(note);
      }
      if (note) note.textContent = targets.has(name) ? why : "";
    }
    for (const tray of table().querySelectorAll("[data-tray]")) {
      const on = !!selection && selection.tray === tray.dataset.pawn;
      tray.classList.toggle("selected", on);
      tray.setAttribute("aria-pressed", on ? "true" : "false");
    }
  }

  function toggleRemoval(circle) {
    removal = removal.includes(circle) ? removal.filter((c) => c !== circle) : removal.concat([circle]).slice(-3);
    markSelection();
    const button = table().querySelector('[data-action="remove"]');
    if (button) button.disabled = !removal.length;
    const said = table().querySelector('[data-role="selection"]');
    if (said) said.textContent = removal.length ? "Selected: " + removal.join(", ") : "Nothing selected.";
  }

  // --- dice -----------------------------------------------------------------------------------

  // While moves wait to be sent the table still shows the cup before them: any count from 1 to
  // the game's most is taken, and the service checks it when the throw is sent.
  function cupLimits(box) {
    const inCup = Number(box.dataset.inCup);
    if (!loadQueue().length) return { least: inCup, most: inCup };
    return { least: 1, most: Math.max(inCup, Number(box.dataset.most) || inCup) };
  }

  function addFace(face) {
    const box = table().querySelector('[data-role="cup"]');
    if (cup.length < cupLimits(box).most) cup.push(face);
    drawCup();
  }

  function drawCup() {
    const box = table().querySelector('[data-role="cup"]');
    if (!box) return;
    const { least, most } = cupLimits(box);
    const faces = box.querySelector('[data-role="cup-faces"]');
    faces.textContent = cup.length ? cup.join(" ") : "none yet";
    faces.classList.toggle("empty", !cup.length);
    box.querySelector('[data-role="cup-count"]').textContent =
      least === most ? "(" + cup.length + " of " + most + ")" : "(" + cup.length + "; 1 to " + most + ", checked when sent)";
    table().querySelector('[data-action="throw"]').disabled = cup.length < least || cup.length > most;
    for (const button of table().querySelectorAll("[data-face]")) button.disabled = cup.length >= most;
  }

  function sendThrow() {
    const data = { faces: cup.slice() };
    const opposite = table().querySelector('[data-role="opposite"]');
    if (opposite && opposite.checked) data.opposite = true;
    record("dice.thrown", data);
  }

  // Double Cameroon: the dice showing are selected by index (faces repeat) to keep or group.
  function togglePicked(index) {
    picked = picked.includes(index) ? picked.filter((i) => i !== index) : picked.concat([index]);
    drawPicked();
  }

  function drawPicked() {
    const box = table().querySelector('[data-role="choosing"]');
    if (!box) return;
    const faces = [];
    for (const button of box.querySelectorAll("[data-showing]")) {
      const on = picked.includes(Number(button.dataset.showing));
      button.classList.toggle("chosen", on);
      button.setAttribute("aria-pressed", on ? "true" : "false");
      if (on) faces.push(button.dataset.die);
    }
    box.querySelector('[data-role="chosen-dice"]').textContent = faces.length
      ? "Selected: " + faces.join(" ")
      : "No die selected.";
    const group = box.querySelector('[data-action="group"]');
    if (group) group.disabled = picked.length !== 5;
  }

  function pickedFaces(selected) {
    const box = table().querySelector('[data-role="choosing"]');
    return Array.from(box.querySelectorAll("[data-showing]"))
      .filter((b) => picked.includes(Number(b.dataset.showing)) === selected)
      .map((b) => b.dataset.die);
  }

  function sendGroups() {
    const first = table().querySelector('[data-role="group-first"]').value;
    const second = table().querySelector('[data-role="group-second"]').value;
    record("dice.grouped", {
      groups: [
        { category: first, dice: pickedFaces(true) },
        { category: second, dice: pickedFaces(false) },
      ],
    });
  }

  // --- cards ----------------------------------------------------------------------------------

  const dealBox = () => table().querySelector('[data-role="deal"]');
  const discardBox = () => table().querySelector('[data-role="discard"]');

  function dealtTo(target) {
    return Object.keys(dealing.assigned).filter((card) => dealing.assigned[card] === target);
  }

  function onDealCard(card) {
    dealing = dealing || { active: 0, assigned: {} };
    const targets = JSON.parse(dealBox().dataset.targets);
    const target = targets[dealing.active];
    if (target.count && dealtTo(dealing.active).length >= target.count) return;
    dealing.assigned[card] = dealing.active;
    if (target.count && dealtTo(dealing.active).length === target.count) {
      // A full hand: the next tap goes to the next hand still short of cards.
      const next = targets.findIndex((t, i) => t.count && dealtTo(i).length < t.count);
      if (next >= 0) dealing.active = next;
    }
    drawDeal();
  }

  function chooseTarget(index) {
    dealing = dealing || { active: 0, assigned: {} };
    dealing.active = index;
    drawDeal();
  }

  function undeal(card) {
    if (dealing) delete dealing.assigned[card];
    drawDeal();
  }

  function drawDeal() {
    const box = dealBox();
    if (!box) return;
    dealing = dealing || { active: 0, assigned: {} };
    const targets = JSON.parse(box.dataset.targets);
    for (const button of box.querySelectorAll('[data-role="pack"] [data-card]')) {
      button.hidden = button.dataset.card in dealing.assigned;
    }
    for (const suit of box.querySelectorAll('[data-role="pack"] .suit')) {
      suit.hidden = !suit.querySelector("[data-card]:not([hidden])");
    }
    let complete = Object.keys(dealing.assigned).length > 0;
    targets.forEach((target, i) => {
      const mine = dealtTo(i);
      const tab = box.querySelector('[data-deal-target="' + i + '"]');
      tab.setAttribute("aria-pressed", i === dealing.active ? "true" : "false");
      tab.classList.toggle("complete", !!target.count && mine.length === target.count);
      tab.querySelector('[data-role="deal-count"]').textContent = String(mine.length);
      if (target.count && mine.length !== target.count) complete = false;
      const list = box.querySelector('[data-dealt-to="' + i + '"] [data-role="dealt-cards"]');
      list.replaceChildren(...(mine.length ? mine.map((card) => dealtCopy(box, card)) : [noneYet()]));
    });
    box.querySelector('[data-action="deal"]').disabled = !complete;
  }

  function dealtCopy(box, card) {
    const copy = box.querySelector('[data-role="pack"] [data-card="' + card + '"]').cloneNode(true);
    copy.hidden = false;
    copy.setAttribute("data-undeal", "");
    return copy;
  }

  function noneYet() {
    const none = document.createElement("span");
    none.className = "muted";
    none.textContent = "none yet";
    return none;
  }

  // The deal's shape names each target by its number: {"hands": [[0, 1], [2, 3]]}.
  function fillShape(shape, lists) {
    if (typeof shape === "number") return lists[shape];
    if (Array.isArray(shape)) return shape.map((part) => fillShape(part, lists));
    const filled = {};
    for (const [key, part] of Object.entries(shape)) filled[key] = fillShape(part, lists);
    return filled;
  }

  function sendDeal() {
    const box = dealBox();
    const targets = JSON.parse(box.dataset.targets);
    const lists = targets.map((_, i) => dealtTo(i));
    record("cards.dealt", fillShape(JSON.parse(box.dataset.shape), lists));
  }

  function onDiscardCard(card) {
    const count = Number(discardBox().dataset.count) || Infinity;
    if (discarding.includes(card)) discarding = discarding.filter((c) => c !== card);
    else if (discarding.length < count) discarding = discarding.concat([card]);
    drawDiscard();
  }

  function drawDiscard() {
    const box = discardBox();
    if (!box) return;
    const count = Number(box.dataset.count) || 0;
    for (const button of box.querySelectorAll("[data-card]")) {
      const on = discarding.includes(button.dataset.card);
      button.classList.toggle("chosen", on);
      button.setAttribute("aria-pressed", on ? "true" : "false");
    }
    box.querySelector('[data-action="discard"]').disabled = count ? discarding.length !== count : !discarding.length;
    box.querySelector('[data-role="discard-said"]').textContent = discarding.length
      ? "Selected: " + discarding.join(", ")
      : "Nothing selected.";
  }

  function sendDiscard() {
    const seat = Number(discardBox().dataset.seat);
    const chosen = discarding.slice().sort().join(" ");
    // The game lists its legal discards with the cards that must be shown: send that one.
    const listed = legalEvents().find(
      (m) => m.type === "cards.discarded" && m.data.seat === seat && m.data.cards.slice().sort().join(" ") === chosen
    );
    record("cards.discarded", listed ? listed.data : { seat: seat, cards: discarding.slice() });
  }

  function onCard(button) {
    if (button.hasAttribute("data-undeal")) return undeal(button.dataset.card);
    if (button.closest('[data-role="pack"]')) return onDealCard(button.dataset.card);
    if (button.closest('[data-role="discard-pick"]')) return onDiscardCard(button.dataset.card);
  }

  // --- Scarnie -------------------------------------------------------------------------------

  const stationsBox = () => table().querySelector('[data-role="stations"]');
  const stationsMode = () => (stationsBox() ? stationsBox().dataset.mode : "none");
  const slotButtons = () => Array.from(table().querySelectorAll("[data-slot]"));
  const stationOf = (slot) => Number(slot.slice(1, slot.indexOf("P")));
  const positionOf = (slot) => Number(slot.slice(slot.indexOf("P") + 1));

  function onSlot(button) {
    const slot = button.dataset.slot;
    if (stationsMode() === "deal") {
      delete faced[slot]; // a filled position gives its pawn back and is filled next
      activeSlot = slot;
      return drawFaced();
    }
    if (stationsMode() === "remove") return togglePicking(slot);
  }

  function nextEmpty() {
    const empty = slotButtons().find((b) => !faced[b.dataset.slot]);
    return empty ? empty.dataset.slot : null;
  }

  function onNumber(number) {
    const slot = activeSlot && !faced[activeSlot] ? activeSlot : nextEmpty();
    if (!slot) return;
    faced[slot] = { pawn: number, colour: faceColour };
    activeSlot = nextEmpty();
    drawFaced();
  }

  function drawFaced() {
    const pad = table().querySelector('[data-role="deal-pad"]');
    if (!pad) {
      faced = {}; // the deal is recorded (or was made on another device)
      activeSlot = null;
      return;
    }
    if (!activeSlot || faced[activeSlot]) activeSlot = nextEmpty();
    const used = new Set(Object.values(faced).map((f) => f.pawn));
    for (const button of slotButtons()) {
      const slot = button.dataset.slot;
      const f = faced[slot];
      button.classList.toggle("colour-a", !!f && f.colour === "a");
      button.classList.toggle("colour-b", !!f && f.colour === "b");
      button.classList.toggle("active", slot === activeSlot);
      button.querySelector('[data-role="slot-pawn"]').textContent = f ? f.pawn + f.colour : "–";
      const mark = button.dataset.mark ? ", " + button.dataset.mark : "";
      const holds = f ? "pawn " + f.pawn + ", colour " + f.colour : "empty";
      button.querySelector('[data-role="slot-said"]').textContent =
        slot + mark + ": " + holds + (slot === activeSlot ? ", filled next" : "");
    }
    for (const button of pad.querySelectorAll("[data-number]")) {
      button.hidden = used.has(Number(button.dataset.number));
    }
    for (const button of pad.querySelectorAll("[data-deal-colour]")) {
      button.setAttribute("aria-pressed", button.dataset.dealColour === faceColour ? "true" : "false");
    }
    pad.querySelector('[data-role="deal-said"]').textContent = activeSlot
      ? "Next: " + activeSlot + ", colour " + faceColour + "."
      : "Every position has its pawn.";
    pad.querySelector('[data-action="face-up"]').disabled = !!nextEmpty();
  }

  function sendFaceUp() {
    const stations = {};
    for (const [slot, f] of Object.entries(faced)) {
      const key = String(stationOf(slot));
      stations[key] = stations[key] || [];
      stations[key].push({ position: positionOf(slot), pawn: f.pawn, colour: f.colour });
    }
    for (const list of Object.values(stations)) list.sort((x, y) => x.position - y.position);
    record("deal.faced_up", { stations: stations });
  }

  function togglePicking(slot) {
    if (picking.length && stationOf(picking[0]) !== stationOf(slot)) picking = []; // one station
    picking = picking.includes(slot) ? picking.filter((s) => s !== slot) : picking.concat([slot]).slice(-3);
    drawPicking();
  }

  function drawPicking() {
    if (stationsMode() !== "remove") return;
    const labels = [];
    for (const button of slotButtons()) {
      const on = picking.includes(button.dataset.slot);
      button.classList.toggle("chosen", on);
      if (button.hasAttribute("aria-pressed")) button.setAttribute("aria-pressed", on ? "true" : "false");
      if (on) labels.push(button.dataset.pawnLabel + " on " + button.dataset.slot);
    }
    const remove = table().querySelector('[data-action="remove-pawns"]');
    if (remove) remove.disabled = !picking.length;
    const said = table().querySelector('[data-role="selection"]');
    if (said) said.textContent = labels.length ? "Selected: " + labels.join(", ") : "Nothing selected.";
  }

  function sendRemoval() {
    record("pawns.removed", { station: stationOf(picking[0]), positions: picking.map(positionOf) });
  }

  function drawScarnie() {
    if (!table()) return;
    drawFaced();
    drawPicking();
  }

  // --- taps -----------------------------------------------------------------------------------

  function resetSelection() {
    selection = null;
    removal = [];
    layout = {};
    cup = [];
    dealing = null;
    discarding = [];
    picked = [];
    picking = [];
  }

  function clearInputs() {
    selection = null;
    removal = [];
    cup = [];
    dealing = null;
    discarding = [];
    picked = [];
    picking = [];
    drawPicked();
    drawPicking();
    markSelection();
    drawCup();
    drawDeal();
    drawDiscard();
  }

  const ACTIONS = {
    undo: () => {
      const reason = table().querySelector('[data-role="undo-reason"]');
      const text = reason ? reason.value.trim() : "";
      record("move.undone", text ? { reason: text } : {});
    },
    "lay-out": () => {
      const position = {};
      for (const [circle, pawn] of Object.entries(layout)) position[circle] = pawn;
      record("board.laid_out", { position: position });
    },
    "clear-layout": () => {
      layout = {};
      drawLayout();
    },
    remove: () => record("pawns.removed", { circles: removal.map(circleNumber) }),
    throw: sendThrow,
    "clear-dice": () => {
      cup = [];
      drawCup();
    },
    deal: sendDeal,
    "clear-deal": () => {
      dealing = null;
      drawDeal();
    },
    discard: sendDiscard,
    keep: () => record("dice.kept", { faces: pickedFaces(true) }),
    group: sendGroups,
    "face-up": sendFaceUp,
    "clear-deal-pawns": () => {
      faced = {};
      activeSlot = null;
      drawFaced();
    },
    "remove-pawns": sendRemoval,
  };

  document.addEventListener("click", (event) => {
    if (!table() || table().dataset.canRecord !== "1") return;
    const target = event.target.closest(
      "[data-move], [data-action], [data-circle], [data-tray], [data-face], [data-card], [data-deal-target], [data-showing], [data-slot], [data-number], [data-deal-colour]"
    );
    if (!target || !table().contains(target)) return;
    if (target.dataset.move) {
      const move = JSON.parse(target.dataset.move);
      return record(move.type, move.data, buttonLabel(target, move.type));
    }
    if (target.dataset.action) return ACTIONS[target.dataset.action] && ACTIONS[target.dataset.action]();
    if (target.dataset.circle) return onCircle(target);
    if (target.hasAttribute("data-tray")) {
      selection = selection && selection.tray === target.dataset.pawn ? null : { tray: target.dataset.pawn };
      return markSelection();
    }
    if (target.dataset.face) return addFace(target.dataset.face);
    if (target.dataset.dealTarget) return chooseTarget(Number(target.dataset.dealTarget));
    if (target.dataset.showing) return togglePicked(Number(target.dataset.showing));
    if (target.dataset.slot) return onSlot(target);
    if (target.dataset.number) return onNumber(Number(target.dataset.number));
    if (target.dataset.dealColour) {
      faceColour = target.dataset.dealColour;
      return drawFaced();
    }
    if (target.dataset.card) return onCard(target);
  });

  // The page's poll (live.js) refreshes the table only while nothing is half-entered or waiting
  // to be sent.
  window.scarneyIdle = function () {
    const typing = document.activeElement && document.activeElement.matches("input, textarea");
    const dealt = dealing && Object.keys(dealing.assigned).length;
    const entering = selection || removal.length || cup.length || Object.keys(layout).length || dealt || discarding.length || picked.length || picking.length || Object.keys(faced).length;
    return !typing && !entering && !loadQueue().length && document.visibilityState === "visible";
  };

  function redraw() {
    if (!table()) return;
    drawDiscard();
    drawScarnie();
    showQueue();
  }
  document.addEventListener("htmx:afterSwap", redraw);
  document.addEventListener("scarney:followed", redraw); // another device's move, drawn in
  window.addEventListener("online", flush);
  window.addEventListener("offline", showQueue);
  document.addEventListener("DOMContentLoaded", () => {
    focusRefusal(document.querySelector("main"));
    if (!table()) return;
    showQueue();
    drawDiscard();
    drawScarnie();
    flush(); // moves left queued by an earlier visit go now
  });
})();
