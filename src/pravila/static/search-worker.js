/*
 * Pravila search worker: Material's search box, answered by our search API.
 *
 * Material for MkDocs runs its search in a web worker and talks to it in four
 * messages: 0 SETUP (with the site's search_index.json), 1 READY, 2 QUERY
 * (the typed text), 3 RESULT ({items: SearchItem[][]}).  overrides/main.html
 * points Material at this worker instead of its own, with parameters:
 *
 *   fallback  the URL of Material's own worker (lunr over search_index.json)
 *   base      the site's base URL (to find page titles in search_index.json)
 *   lang      the site's language (ru | cs): searched first, then all languages
 *
 * On SETUP it asks GET /api/healthz.  When `pravila serve` answers, queries go
 * to GET /api/search and the hits are shaped like Material's results (one group
 * per page, the entries as sections, the snippet with its <mark>ed words).
 * Otherwise (a plain static host, file://, an old server) it loads Material's
 * own worker into this one and hands it the SETUP: the built-in search, as if
 * we were not here.  If the API stops answering later, it switches the same way.
 */
(function () {
  "use strict"

  /* The site adds every script of ours to its pages too: outside a worker, do nothing. */
  if (typeof WorkerGlobalScope === "undefined" || !(self instanceof WorkerGlobalScope))
    return

  var SETUP = 0, READY = 1, QUERY = 2, RESULT = 3
  var MAX_QUERY = 200 /* the API's limit (pravila.query.MAX_QUERY_CHARS) */
  var LIMIT = 20
  var HEALTH_TIMEOUT = 2500

  var params = new URL(self.location.href).searchParams
  var fallbackUrl = params.get("fallback")
  var siteBase = params.get("base") || new URL("../../", self.location.href).href
  var siteLang = params.get("lang")
  if (siteLang !== "ru" && siteLang !== "cs") siteLang = "all"
  var api = new URL(params.get("api") || "/api/", self.location.href).href

  var mode = "starting" /* "api" | "lunr" | "none" (neither could be loaded) */
  var setupMessage = null
  var pageTitles = {}
  var latest = 0 /* number of the newest query: older answers are dropped */
  var lastQuery = null
  var post = self.postMessage.bind(self)

  self.addEventListener("message", function (ev) {
    var message = ev.data || {}
    if (message.type === SETUP) {
      setupMessage = message
      learnTitles(message.data && message.data.docs)
      if (mode === "starting") start()
    } else if (message.type === QUERY) {
      lastQuery = String(message.data == null ? "" : message.data)
      if (mode === "api") search(lastQuery, ++latest)
      else if (mode === "none") post({ type: RESULT, data: { items: [] } })
      /* in lunr mode Material's own listener answers */
    }
  })

  function start() {
    if (!/^https?:$/.test(self.location.protocol)) return useLunr(false)
    withTimeout(fetch(api + "healthz", { headers: { Accept: "application/json" } }), HEALTH_TIMEOUT)
      .then(function (res) {
        if (!res.ok || !/json/.test(res.headers.get("content-type") || "")) throw new Error("no API")
        return res.json()
      })
      .then(function (health) {
        if (!health || health.status !== "ok") throw new Error("API not ready")
        mode = "api"
        post({ type: READY })
      })
      .catch(function () { useLunr(false) })
  }

  /* --- our API -------------------------------------------------------------- */

  function search(query, number) {
    var q = query.trim().slice(0, MAX_QUERY)
    if (!q) return answer(number, { items: [] })
    ask(q, siteLang)
      .then(function (data) {
        if (data.hits.length || siteLang === "all") return data
        return ask(q, "all") /* nothing in this language: perhaps the other one */
      })
      .then(function (data) { answer(number, toMaterial(data, q)) })
      .catch(function () {
        if (number === latest) useLunr(true)
      })
  }

  function ask(q, lang) {
    var url = api + "search?q=" + encodeURIComponent(q) + "&lang=" + lang + "&limit=" + LIMIT
    return fetch(url, { headers: { Accept: "application/json" } }).then(function (res) {
      if (res.status >= 500 || !/json/.test(res.headers.get("content-type") || ""))
        throw new Error("API error " + res.status)
      if (!res.ok) return { hits: [] } /* a query the API refuses finds nothing */
      return res.json().then(function (data) {
        return data && Array.isArray(data.hits) ? data : { hits: [] }
      })
    })
  }

  function answer(number, data) {
    if (number === latest && mode === "api") post({ type: RESULT, data: data })
  }

  /* Our hits → Material's result: one group per page, its entries as sections. */
  function toMaterial(data, q) {
    var terms = {}
    q.toLowerCase().split(/[^\p{L}\p{N}]+/u).forEach(function (w) { if (w) terms[w] = true })
    var groups = []
    var byPage = {}
    data.hits.forEach(function (hit) {
      var url = String(hit.url || "")
      var page = url.split("#")[0]
      var fragment = url.indexOf("#") >= 0 ? url.slice(url.indexOf("#") + 1) : ""
      var group = byPage[page]
      if (!group) {
        group = byPage[page] = { page: page, article: null, sections: [] }
        groups.push(group)
      }
      var item = {
        location: url,
        title: escapeHtml(hit.title),
        text: safeSnippet(hit.snippet),
        score: Number(hit.score) || 0,
        terms: terms
      }
      var slug = page.replace(/\/+$/, "").split("/").pop()
      if (fragment === slug && !group.article) {
        item.location = page /* the page's own entry is the page */
        group.article = item
      } else {
        group.sections.push(item)
      }
    })
    return {
      items: groups.map(function (group) {
        var article = group.article || {
          location: group.page,
          title: escapeHtml(pageTitles[pathOf(group.page)] || titleFromSections(group)),
          text: "",
          score: 0,
          terms: terms
        }
        /* Material shows the sections scoring at least the first item's score and
           folds the others away: give the page the lowest score, so all are shown. */
        var lowest = group.sections.reduce(function (m, s) { return Math.min(m, s.score) }, article.score)
        if (group.article) article.score = lowest
        return [article].concat(group.sections)
      })
    }
  }

  function titleFromSections(group) {
    return group.sections.length ? group.sections[0].title : group.page
  }

  function learnTitles(docs) {
    if (!Array.isArray(docs)) return
    docs.forEach(function (doc) {
      if (doc && typeof doc.location === "string" && doc.location.indexOf("#") < 0)
        pageTitles[pathOf(new URL(doc.location, siteBase).href)] = String(doc.title || "")
    })
  }

  function pathOf(url) {
    try { return new URL(url, self.location.href).pathname } catch (e) { return url }
  }

  function escapeHtml(text) {
    return String(text == null ? "" : text)
      .replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#39;")
  }

  function unescapeHtml(text) {
    return text.replace(/&(lt|gt|quot|#39|#x27|amp);/g, function (_, name) {
      return { lt: "<", gt: ">", quot: "\"", "#39": "'", "#x27": "'", amp: "&" }[name]
    })
  }

  /* The API escapes snippets already; keep nothing but text and <mark> anyway. */
  function safeSnippet(snippet) {
    return String(snippet == null ? "" : snippet).split(/<(\/?)mark>/).map(function (piece, i) {
      if (i % 2 === 1) return "<" + piece + "mark>"
      return escapeHtml(unescapeHtml(piece))
    }).join("")
  }

  function withTimeout(promise, ms) {
    return new Promise(function (resolve, reject) {
      var timer = setTimeout(function () { reject(new Error("timeout")) }, ms)
      promise.then(function (v) { clearTimeout(timer); resolve(v) }, function (e) { clearTimeout(timer); reject(e) })
    })
  }

  /* --- Material's own search (lunr), for static hosts ------------------------- */

  function useLunr(replayLastQuery) {
    if (mode === "lunr" || mode === "none") return
    mode = "lunr"
    if (!fallbackUrl || !setupMessage) {
      mode = "none"
      post({ type: READY })
      return
    }
    /* Material's worker loads its language files relative to its own URL. */
    var nativeImport = self.importScripts.bind(self)
    self.importScripts = function () {
      var urls = Array.prototype.map.call(arguments, function (u) { return new URL(u, fallbackUrl).href })
      return nativeImport.apply(null, urls)
    }
    /* Its READY: now answer the query that was waiting (when switching mid-session). */
    self.postMessage = function (message) {
      post(message)
      if (message && message.type === READY && replayLastQuery && lastQuery !== null) {
        replayLastQuery = false
        self.dispatchEvent(new MessageEvent("message", { data: { type: QUERY, data: lastQuery } }))
      }
    }
    try {
      nativeImport(fallbackUrl) /* adds Material's message listener to this worker */
    } catch (e) {
      mode = "none" /* answer every query with nothing rather than never */
      self.postMessage = post
      post({ type: READY })
      return
    }
    self.dispatchEvent(new MessageEvent("message", { data: setupMessage }))
  }
})()
