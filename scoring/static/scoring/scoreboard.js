// The room's scoreboard: every second, ask for the board with the tag we have. The server
// answers 304 (nothing recorded since) without folding anything, or the new board with its new
// tag, which replaces the old one in place: no reload, no flicker, no control to touch. A screen
// whose tab is hidden asks every 15 s, and at once when it is shown again.
//
// A board of more pages than one (games/pages/scoreboard.py "screens") shows one page at a time
// on a wide screen and turns to the next every data-turn-seconds; a new board swapped in keeps
// the page it was on. On a narrow screen the stylesheet shows every page and nothing turns.
(function () {
  "use strict";

  const EVERY_MS = 1000;
  const AFTER_ERROR_MS = 3000;
  const HIDDEN_MS = 15000;
  const ROOM = window.matchMedia("(min-width: 900px) and (min-aspect-ratio: 4/3)");
  let timer = null;
  let page = 0; // the page shown, from 0

  // The board's columns and rows size its type (pages.css); they come as data, since the page's
  // Content-Security-Policy refuses style attributes.
  function size(box) {
    const board = box.querySelector('[data-role="board"]');
    if (!board) return;
    board.style.setProperty("--columns", board.dataset.columns);
    board.style.setProperty("--rows", board.dataset.rows);
  }

  function showPage(box, wanted) {
    size(box);
    const pages = box.querySelectorAll('[data-role="board-page"]');
    if (pages.length === 0) return;
    page = ((wanted % pages.length) + pages.length) % pages.length;
    pages.forEach((section, index) => section.classList.toggle("current", index === page));
    const number = box.querySelector('[data-role="page-number"]');
    if (number) number.textContent = String(page + 1);
    box.dataset.page = String(page + 1);
    pages.forEach(fitNames);
  }

  // A name longer than its column is drawn smaller, down to 70 %, before it is cut short: the
  // whole name in smaller type is read from further away than half of it in large type.
  function fitNames(section) {
    section.querySelectorAll(".board-name").forEach((cell) => {
      cell.style.fontSize = "";
      if (cell.clientWidth === 0 || cell.scrollWidth <= cell.clientWidth) return;
      const scale = Math.max(0.7, (cell.clientWidth - 2) / cell.scrollWidth);
      cell.style.fontSize = scale.toFixed(3) + "em";
    });
  }

  function turn(box) {
    if (ROOM.matches && box.querySelectorAll('[data-role="board-page"]').length > 1) {
      showPage(box, page + 1);
    }
  }

  function later(box, wait) {
    clearTimeout(timer);
    timer = setTimeout(() => poll(box), wait);
  }

  function poll(box) {
    let wait = document.visibilityState === "hidden" ? HIDDEN_MS : EVERY_MS;
    const headers = { "If-None-Match": box.dataset.etag, Accept: "text/html" };
    fetch(box.dataset.boardUrl, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then((answer) => {
        if (answer.status === 200) {
          return answer.text().then((html) => {
            box.innerHTML = html;
            showPage(box, page);
            box.dataset.etag = answer.headers.get("ETag") || "";
            box.dataset.updated = String(Date.now());
          });
        }
        if (answer.status !== 304) wait = AFTER_ERROR_MS;
        return null;
      })
      .catch(() => {
        wait = AFTER_ERROR_MS; // the screen keeps what it shows and tries again
      })
      .finally(() => later(box, wait));
  }

  document.addEventListener("DOMContentLoaded", () => {
    const box = document.querySelector('[data-role="scoreboard"]');
    if (!box) return;
    later(box, EVERY_MS);
    showPage(box, 0);
    const seconds = Number(box.dataset.turnSeconds) || 0;
    if (seconds > 0) setInterval(() => turn(box), seconds * 1000);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") later(box, 0);
    });
  });
})();
