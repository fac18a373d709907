// The room's scoreboard: every second, ask for the board with the tag we have. The server
// answers 304 (nothing recorded since) without folding anything, or the new board with its new
// tag, which replaces the old one in place: no reload, no flicker, no control to touch. A screen
// whose tab is hidden asks every 15 s, and at once when it is shown again.
(function () {
  "use strict";

  const EVERY_MS = 1000;
  const AFTER_ERROR_MS = 3000;
  const HIDDEN_MS = 15000;
  let timer = null;

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
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") later(box, 0);
    });
  });
})();
