// The pages' service worker (games/pages/app.py serves it at /sw.js, so its scope is the site).
//
// A club room loses its network: a page opened once loads again without it. Pages go to the
// network first, so a page online is always the server's page now, and each one fetched is kept;
// with no network the kept copy is shown (live.js marks it offline, table.js queues its taps).
// Static files are answered from the cache and refreshed behind it, so a deployment's new
// script is used from the next load on. Nothing else is touched: the API, the admin, a move
// sent (a POST) or a poll go to the network as they would without a worker.
"use strict";

const VERSION = "{{ version }}";
const PAGES = "scarney-pages-v1"; // as live.js names it
const STATIC = "scarney-static-" + VERSION;
const PRECACHE = {{ precache|safe }};
const STATIC_PREFIX = "{{ static_prefix }}";
// Pages of the site's own that are never kept: they hold a login or a director's tools.
const NOT_KEPT = ["/admin/", "/api/", "/api-auth/", "/accounts/"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(STATIC)
      // One file missing must not cost the others: each is kept on its own.
      .then((cache) => Promise.all(PRECACHE.map((url) => cache.add(url).catch(() => null))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  const current = [PAGES, STATIC];
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => !current.includes(n)).map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method === "POST" && url.pathname === "/accounts/logout/") {
    // Logging out forgets the pages kept: the next one to pick up this phone, offline, must
    // not find the tables of the keeper who left.
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  if (request.method !== "GET") return;
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(staticFile(event, request));
  } else if (request.mode === "navigate" && !NOT_KEPT.some((p) => url.pathname.startsWith(p))) {
    event.respondWith(page(request));
  }
});

async function page(request) {
  try {
    const answer = await fetch(request);
    if (answer.status === 200 && answer.type === "basic") {
      const copy = answer.clone();
      caches.open(PAGES).then((cache) => cache.put(request, copy));
    }
    return answer;
  } catch (error) {
    const kept = await caches.match(request, { cacheName: PAGES, ignoreSearch: true, ignoreVary: true });
    if (kept) return kept;
    throw error;
  }
}

async function staticFile(event, request) {
  const cache = await caches.open(STATIC);
  const kept = await cache.match(request, { ignoreSearch: true, ignoreVary: true });
  const fresh = fetch(request)
    .then((answer) => {
      if (answer.ok) cache.put(request, answer.clone());
      return answer;
    })
    .catch(() => null);
  if (kept) {
    event.waitUntil(fresh);
    return kept;
  }
  return (await fresh) || Response.error();
}
