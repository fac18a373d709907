// A table page follows its stream, and survives the room's network.
//
// Following: the page's followed part ([data-follow-url]: the game's table, a match's sheet, a
// tournament) is asked for every second with the tag it was drawn from (If-None-Match). The
// server answers 304 while nothing it shows has moved (a permission check and one query, no
// fold), or the part drawn anew, which replaces the old one in place. It asks only while the page
// is idle: nothing half-entered, typed or waiting to be sent (table.js says so for the table), so
// a change never takes what a keeper is entering from under his finger. A hidden tab asks every
// 15 s, and at once when it is shown again.
//
// The network: a service worker (/sw.js) keeps each table page opened and the static files, so
// the page loads again with no network; the page then says it is offline, and table.js keeps the
// taps in its queue (localStorage, each move with its event id) until the network is back.
(function () {
  "use strict";

  const EVERY_MS = 1000;
  const AFTER_ERROR_MS = 3000;
  const HIDDEN_MS = 15000;
  const PAGES = "scarney-pages-v1"; // as sw.js names it
  let timer = null;
  let unreachable = false; // the last poll found no server (the browser may still say online)

  const followed = () => document.querySelector("[data-follow-url]");

  // The followed part's own page: a match's sheet answered to a form is kept as its page.
  function pageUrl() {
    const box = followed();
    if (!box) return null;
    return box.id === "table" ? location.pathname : box.dataset.followUrl;
  }

  // --- following ------------------------------------------------------------------------------

  function idle(box) {
    if (document.visibilityState !== "visible") return false;
    if (box.id === "table") return !window.scarneyIdle || window.scarneyIdle();
    const active = document.activeElement;
    if (active && box.contains(active) && active.matches("input, select, textarea")) return false;
    // A value typed and not sent yet (a score line): the change waits until it is sent.
    for (const input of box.querySelectorAll("input:not([type=hidden]), textarea")) {
      if (input.value !== input.defaultValue) return false;
    }
    return true;
  }

  function later(wait) {
    clearTimeout(timer);
    timer = setTimeout(poll, wait);
  }

  async function poll() {
    const box = followed();
    if (!box) return;
    let wait = document.visibilityState === "hidden" ? HIDDEN_MS : EVERY_MS;
    try {
      if (idle(box)) wait = (await ask(box)) ? wait : AFTER_ERROR_MS;
    } finally {
      later(wait);
    }
  }

  // One poll; false when the server could not be asked or gave no page.
  async function ask(box) {
    const headers = { "If-None-Match": box.dataset.etag || "", Accept: "text/html" };
    let answer;
    try {
      answer = await fetch(box.dataset.followUrl, { headers, cache: "no-store", credentials: "same-origin" });
    } catch (error) {
      reachable(false);
      return false;
    }
    reachable(true);
    if (answer.status === 304) return true;
    if (answer.status !== 200) return false;
    const html = await answer.text();
    // The table answers with its header; any other page is found by its id in the answer.
    if (box.id === "table" && !answer.headers.get("X-Table-Version")) return false;
    const fresh = new DOMParser().parseFromString(html, "text/html").getElementById(box.id);
    if (!fresh || followed() !== box || !idle(box)) return true;
    swap(box, fresh.outerHTML);
    keep();
    return true;
  }

  function swap(box, html) {
    if (window.htmx && htmx.swap) htmx.swap(box, html, { swapStyle: "outerHTML" });
    else box.outerHTML = html;
    document.dispatchEvent(new CustomEvent("scarney:followed"));
  }

  // --- offline --------------------------------------------------------------------------------

  function reachable(yes) {
    unreachable = !yes;
    showOffline();
  }

  function showOffline() {
    const mark = document.querySelector('[data-role="offline"]');
    const off = !navigator.onLine || unreachable;
    if (mark) mark.hidden = !off;
    document.documentElement.toggleAttribute("data-offline", off);
  }

  // The page as it now stands, kept for a reload with no network (the worker keeps each page
  // it fetches; this keeps the first one, opened before the worker was there, and each change).
  function keep() {
    const url = pageUrl();
    if (!url || !window.caches || !navigator.onLine) return;
    caches
      .open(PAGES)
      .then((cache) => cache.add(url))
      .catch(() => {}); // a page not kept costs only the offline reload
  }
  window.scarneyKeep = keep;

  function startWorker() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker
      .register("/sw.js")
      .then(() => navigator.serviceWorker.ready)
      .then(keep)
      .catch(() => {}); // no worker (an insecure LAN address): the page works, online only
  }

  window.addEventListener("online", () => {
    unreachable = false;
    showOffline();
    later(0);
  });
  window.addEventListener("offline", showOffline);

  document.addEventListener("DOMContentLoaded", () => {
    showOffline();
    startWorker();
    if (!followed()) return;
    later(EVERY_MS);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") later(0);
    });
  });
})();
