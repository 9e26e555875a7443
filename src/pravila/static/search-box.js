/* Pravila: the search box's page side, and the site kept for offline reading.

   - Search results (answered by search-worker.js in the browser): the snippet
     under the title, a link into the other language's site an ordinary link
     (Material's instant navigation would take it for a language switch), and
     "offline" instead of "no results" when the search data cannot be fetched;
     the result list says which query it shows (data-pv-query, data-pv-state).
   - The search data is loaded on the first focus of the box, not with the page.
   - The service worker (sw.js at the language site's root, pravila.offline)
     is registered once the page has loaded: it keeps this language's site on
     the device, and updates it on the next visit after a rebuild.
   - The footer says which content version and build the reader has.

   Strings come with the search manifest (assets/pravila/search/index.json),
   in the site's language. Material's search worker is the one
   overrides/main.html hands over (window.__pravilaSearchWorker, and the
   "pravila:search-worker" event). */
(function () {
  "use strict";

  var configEl = document.getElementById("__config");
  var config = {};
  try { config = JSON.parse(configEl ? configEl.textContent : "{}"); } catch (e) { /* none */ }
  if (!/^https?:$/.test(location.protocol)) return;

  /* config.base is relative to the first page loaded; instant navigation keeps this script. */
  var siteRoot = new URL(config.base || ".", location.href);
  if (!/\/$/.test(siteRoot.pathname)) siteRoot = new URL(siteRoot.pathname + "/", siteRoot);
  var manifestUrl = new URL("assets/pravila/search/index.json", siteRoot);
  var manifest = null;
  var manifestPromise = null;

  function loadManifest() {
    if (!manifestPromise) {
      manifestPromise = fetch(manifestUrl.href, { cache: "no-cache" })
        .then(function (res) { if (!res.ok) throw new Error(res.status); return res.json(); })
        .then(function (m) { manifest = m; return m; });
      manifestPromise.catch(function () { manifestPromise = null; });
    }
    return manifestPromise;
  }

  function say(key, values) {
    var text = (manifest && manifest.strings && manifest.strings[key]) || "";
    return text.replace(/%\((\w+)\)s/g, function (_, name) { return values && name in values ? values[name] : ""; });
  }

  /* --- the results ------------------------------------------------------------------- */

  var result = document.querySelector(".md-search-result");
  var list = document.querySelector(".md-search-result__list");
  var meta = document.querySelector(".md-search-result__meta");
  var input = document.querySelector("input[data-md-component=search-query]");

  function tidy(item) {
    var link = item.querySelector("a.md-search-result__link");
    if (!link) return;
    var heading = link.querySelector("h1, h2");
    var snippet = heading && heading.querySelector(".pv-hit__snippet");
    if (snippet) {
      var p = document.createElement("p");
      p.className = "pv-hit__snippet";
      while (snippet.firstChild) p.appendChild(snippet.firstChild);
      snippet.remove();
      heading.insertAdjacentElement("afterend", p);
    }
    var tag = link.querySelector(".pv-hit__lang");
    if (tag) {
      link.target = "_self"; /* a link into the other site: not a language switch */
      link.hreflang = tag.getAttribute("lang") || "";
      var article = link.querySelector("article");
      if (article) article.lang = link.hreflang;
    }
  }

  if (list) {
    new MutationObserver(function (records) {
      records.forEach(function (record) {
        Array.prototype.forEach.call(record.addedNodes, function (node) {
          if (node.nodeType === 1 && node.matches(".md-search-result__item")) tidy(node);
        });
      });
    }).observe(list, { childList: true });
  }

  var state = { query: null, state: "ok" };

  function showState() {
    if (!meta || state.state === "ok") return;
    var text = say("search_" + state.state) || say("search_error");
    if (text && meta.textContent !== text) meta.textContent = text;
  }

  if (meta) new MutationObserver(showState).observe(meta, { childList: true, characterData: true, subtree: true });

  /* Material starts its worker while its bundle runs, before this script; in case it ever does later: */
  function withWorker(use) {
    if (window.__pravilaSearchWorker) use(window.__pravilaSearchWorker);
    else document.addEventListener("pravila:search-worker", function (ev) { use(ev.detail); }, { once: true });
  }

  withWorker(function (worker) {
    worker.addEventListener("message", function (ev) {
      var data = ev.data && ev.data.type === 3 && ev.data.data;
      if (!data || !data.pv) return;
      setTimeout(function () { /* after Material has rendered this result */
        state = data.pv;
        var done = function () {
          showState();
          if (result) {
            result.setAttribute("data-pv-query", state.query);
            result.setAttribute("data-pv-state", state.state);
          }
        };
        if (state.state === "ok" || manifest) done();
        else loadManifest().then(done, done);
      }, 0);
    });
  });

  /* --- load the search data when the reader first turns to the search box ---------------- */

  if (input) {
    withWorker(function (worker) {
      var preload = function () {
        worker.postMessage({ type: "pravila/preload" });
        input.removeEventListener("focus", preload);
      };
      input.addEventListener("focus", preload);
      if (document.activeElement === input) preload();
    });
  }

  /* --- offline: the service worker ----------------------------------------------------------- */

  if ("serviceWorker" in navigator) {
    var register = function () {
      navigator.serviceWorker.register(new URL("sw.js", siteRoot).href, { scope: siteRoot.href }).catch(function () {
        /* no offline copy: the site still works online */
      });
    };
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register);
  }

  /* --- which content the reader has --------------------------------------------------------- */

  function showVersion() {
    if (!manifest || !manifest.strings || document.querySelector(".pv-build")) return;
    var where = document.querySelector(".md-footer-meta__inner .md-copyright") || document.querySelector(".md-footer-meta__inner");
    if (!where) return;
    var line = document.createElement("div");
    line.className = "pv-build";
    line.textContent = say("version", { version: manifest.version, date: manifest.strings.built_date || manifest.built });
    where.appendChild(line);
  }

  function onPage() { loadManifest().then(showVersion, function () { /* no manifest: nothing to say */ }); }

  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(onPage);
  else onPage();
})();
