/*
 * Pravila search worker: Material's search box, answered in the browser.
 *
 * Material for MkDocs runs its search in a web worker and talks to it in four
 * messages: 0 SETUP, 1 READY, 2 QUERY (the typed text), 3 RESULT ({items}).
 * overrides/main.html points Material at this worker instead of its own, with
 * one parameter: `lang`, the site's language.
 *
 * Queries are answered by search-engine.js (the Python searcher's twin) from
 * the data `pravila build` writes next to this file (search/index.json and
 * one file per language, pravila.search.browser), loaded on the first focus
 * of the search box ("pravila/preload" from search-box.js) or the first query.
 * No round trip per query: it works the same on a static host, under
 * `pravila serve` and offline (the service worker keeps the data).  A language
 * the manifest marks `api` (no browser twin, or too big to ship) is searched
 * through GET <site root>/api/search instead.
 *
 * The box searches the site's language first, then all languages when that
 * finds nothing.  Each hit is one result item (Material's markup, one entry
 * per item, its link to …/#id): the title, a language tag for a hit in the
 * other language, and the snippet; search-box.js tidies them up.  A result
 * message also carries `pv`: {query, lang, state: ok | offline | unavailable |
 * error, hits}; "offline" means the data (or the API) could not be fetched,
 * "unavailable" that a language searched through the API is on a host without
 * it — neither is ever shown as "no results".
 *
 * For programs and tests: {type: "pravila/search", id, q, lang, limit} is
 * answered with {type: "pravila/result", id, result} (the API's JSON: query,
 * lang, total, hits) or {…, error}.
 */
(function () {
  "use strict";

  if (typeof WorkerGlobalScope === "undefined" || !(self instanceof WorkerGlobalScope)) return;

  importScripts("stemmers.js", "search-engine.js");

  var SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;
  var LIMIT = 20;

  var params = new URL(self.location.href).searchParams;
  var DATA = new URL("search/", self.location.href); /* assets/pravila/search/ */
  var SITE = new URL("../../", self.location.href); /* this language's site */
  var ROOT = new URL("../", SITE); /* every language's site, and /api/ under `pravila serve` */
  var siteLang = params.get("lang") || "";

  var manifestPromise = null;
  var engine = null;
  var loading = {};
  var latest = 0;

  function Offline(message) { this.message = message; }
  function Unavailable(message) { this.message = message; } /* no search API on this host */

  function fetchJson(url, options) {
    return fetch(url, options).then(
      function (res) {
        if (!res.ok) throw new Offline("HTTP " + res.status + " for " + url);
        return res.json();
      },
      function (e) { throw new Offline(String(e && e.message || e)); }
    );
  }

  function manifest() {
    if (!manifestPromise) {
      manifestPromise = fetchJson(new URL("index.json", DATA).href, { cache: "no-cache" }).then(function (m) {
        engine = new self.PravilaSearch.Engine(m, []);
        if (!m.languages[siteLang]) siteLang = m.site || m.order[0];
        return m;
      });
      manifestPromise.catch(function () { manifestPromise = null; }); /* try again on the next query */
    }
    return manifestPromise;
  }

  function load(m, code) {
    if (engine.has(code)) return Promise.resolve();
    if (!loading[code]) {
      loading[code] = fetchJson(new URL(m.languages[code].data, DATA).href).then(function (data) {
        if (!engine.has(code)) engine.add(data);
      });
      loading[code].catch(function () { delete loading[code]; });
    }
    return loading[code];
  }

  /* One search, in the browser or (for a language without browser data) through the API. */
  function run(q, lang, limit) {
    return manifest().then(function (m) {
      var codes = lang === "all" ? m.order : [lang];
      if (codes.some(function (c) { return !m.languages[c] || m.languages[c].api; })) return api(q, lang, limit);
      return Promise.all(codes.map(function (c) { return load(m, c); })).then(function () {
        return engine.search(q, lang, limit);
      });
    });
  }

  function api(q, lang, limit) {
    var url = new URL("api/search", ROOT);
    url.searchParams.set("q", q);
    url.searchParams.set("lang", lang);
    url.searchParams.set("limit", String(limit));
    return fetch(url.href, { headers: { Accept: "application/json" } }).then(function (res) {
      if (!/json/.test(res.headers.get("content-type") || "")) throw new Unavailable("no search API here");
      if (res.status >= 500) throw new Error("the search API answered " + res.status);
      if (!res.ok) return { query: q, lang: lang, total: 0, hits: [] }; /* a query the API refuses finds nothing */
      return res.json();
    }, function (e) { throw new Offline(String(e && e.message || e)); });
  }

  /* --- Material's search box ------------------------------------------------------------ */

  self.addEventListener("message", function (ev) {
    var message = ev.data || {};
    if (message.type === SETUP) {
      self.postMessage({ type: READY });
    } else if (message.type === QUERY) {
      box(String(message.data == null ? "" : message.data), ++latest);
    } else if (message.type === "pravila/preload") {
      manifest().then(function (m) { return load(m, siteLang); }).catch(function () { /* the query will say */ });
    } else if (message.type === "pravila/search") {
      run(message.q, message.lang || "all", message.limit || 10).then(
        function (result) { self.postMessage({ type: "pravila/result", id: message.id, result: result }); },
        function (e) { self.postMessage({ type: "pravila/result", id: message.id, error: String(e && e.message || e), offline: e instanceof Offline }); }
      );
    }
  });
  self.postMessage({ type: READY });

  function box(text, number) {
    var q = Array.from(text.trim()).slice(0, 200).join("");
    if (!q.replace(/\u0000/g, "").trim()) return answer(number, [], { query: q, state: "ok", hits: [] });
    q = q.replace(/\u0000/g, " ");
    manifest()
      .then(function () {
        return run(q, siteLang, LIMIT).then(function (result) {
          if (result.hits.length || engine.manifest.order.length < 2) return result;
          return run(q, "all", LIMIT).then(function (all) { return all.hits.length ? all : result; });
        });
      })
      .then(function (result) {
        answer(number, items(result, q), {
          query: q, lang: result.lang, state: "ok",
          hits: result.hits.map(function (h) { return { id: h.id, lang: h.lang }; }),
        });
      }, function (e) {
        if (e instanceof self.PravilaSearch.QueryError) return answer(number, [], { query: q, state: "ok", hits: [] });
        var state = e instanceof Offline ? "offline" : e instanceof Unavailable ? "unavailable" : "error";
        if (state === "error") console.error(e);
        answer(number, [], { query: q, state: state, hits: [] });
      });
  }

  function answer(number, list, pv) {
    if (number === latest) self.postMessage({ type: RESULT, data: { items: list, pv: pv } });
  }

  /* Our hits → Material's items: one item per entry, in the searcher's order. Material
     shows the text of an item whose link has an #anchor only as its title: the title
     carries the language tag and the snippet (search-box.js moves the snippet below it). */
  function items(result, q) {
    var terms = {};
    q.toLowerCase().split(/[^\p{L}\p{N}]+/u).forEach(function (w) { if (w) terms[w] = true; });
    var names = engine && engine.manifest.languages || {};
    return result.hits.map(function (hit) {
      var other = hit.lang !== siteLang;
      var title = '<span class="pv-hit__title">' + escapeHtml(hit.title) + "</span>";
      if (other) {
        var name = names[hit.lang] ? names[hit.lang].name : hit.lang;
        title += ' <span class="pv-hit__lang" lang="' + escapeHtml(hit.lang) + '">' + escapeHtml(name) + "</span>";
      }
      var snippet = safeSnippet(hit.snippet);
      if (snippet) title += '<span class="pv-hit__snippet">' + snippet + "</span>";
      return [{
        location: new URL(String(hit.url || "").replace(/^\//, ""), ROOT).href,
        title: title,
        text: snippet,
        score: Number(hit.score) || 0,
        terms: terms,
      }];
    });
  }

  function escapeHtml(text) {
    return String(text == null ? "" : text)
      .replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  }

  function unescapeHtml(text) {
    return text.replace(/&(lt|gt|quot|#39|#x27|amp);/g, function (_, name) {
      return { lt: "<", gt: ">", quot: "\"", "#39": "'", "#x27": "'", amp: "&" }[name];
    });
  }

  /* The engine escapes snippets already; keep nothing but text and <mark> anyway (the API's too). */
  function safeSnippet(snippet) {
    return String(snippet == null ? "" : snippet).split(/<(\/?)mark>/).map(function (piece, i) {
      if (i % 2 === 1) return "<" + piece + "mark>";
      return escapeHtml(unescapeHtml(piece));
    }).join("");
  }
})();
