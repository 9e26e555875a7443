{##
  The service worker of one language site (pravila.offline writes it to the
  site's root: a worker controls only the URLs under its own folder).
  `settings`: {version, precache: [[url, revision]…], offline}; URLs relative to
  the site's root.
##}
/* Pravila's service worker: this language's site, kept on the device.
 *
 * - install: every page, asset and search data file of the site (the precache
 *   list below, written by `pravila build`) is put into a cache of this
 *   version; a file whose revision has not changed since the version before
 *   is copied from that version's cache, not downloaded again.
 * - activate: older versions' caches go; the open pages are taken over.
 * - fetch: a file of the site comes from the cache (whatever its ?query: ?h= of
 *   the search's highlighting, ?q= of a shared search), so the site works as
 *   fast on a poor connection and offline; anything else from the network.
 *   Offline, a page that is not in the cache is the site's offline page, never
 *   a false "not found"; a missing file fails as a network error, which the
 *   search box reports as "offline".
 *
 * A rebuild writes a new sw.js (new revisions); the browser fetches it on the
 * next visit, installs it and switches to it (skipWaiting).
 */
"use strict";

const SETTINGS = {{ settings | tojson }};
const SCOPE = self.registration.scope;
const PREFIX = "pravila " + SCOPE + " ";
const CACHE = PREFIX + SETTINGS.version;
const REVISION = "x-pravila-revision";

function keyOf(url) {
  const u = new URL(url, SCOPE);
  return u.origin + u.pathname;
}

async function stamped(response, revision) {
  const headers = new Headers(response.headers);
  headers.set(REVISION, revision);
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
}

function isOlder(name) {  /* an earlier version's cache of this site */
  return name.startsWith(PREFIX) && name !== CACHE;
}

async function previous(key, revision, older) {
  for (const cache of older) {
    const found = await cache.match(key);
    if (found && found.headers.get(REVISION) === revision) return found;
  }
  return null;
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const older = await Promise.all((await caches.keys()).filter(isOlder).map((name) => caches.open(name)));
    await Promise.all(SETTINGS.precache.map(async ([url, revision]) => {
      const key = keyOf(url);
      const have = await cache.match(key);
      if (have && have.headers.get(REVISION) === revision) return;
      const kept = await previous(key, revision, older);
      if (kept) return cache.put(key, kept);
      const response = await fetch(key, { cache: "no-cache", credentials: "same-origin" });
      if (!response.ok) throw new Error(`${key}: HTTP ${response.status}`);
      return cache.put(key, await stamped(response, revision));
    }));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (isOlder(name)) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return; /* other sites, /api/: as they are */
  event.respondWith(answer(request));
});

async function answer(request) {
  const cache = await caches.open(CACHE);
  const found = await cache.match(keyOf(request.url));
  if (found) return found;
  try {
    return await fetch(request);
  } catch (error) {
    if (request.mode === "navigate") {
      const page = await cache.match(keyOf(SETTINGS.offline));
      if (page) return page;
    }
    return Response.error();
  }
}
