/* Pravila: small enhancements of the generated pages.
   Material's instant navigation swaps pages without reloading: every set-up
   runs from document$.subscribe and is idempotent. */
(function () {
  "use strict";

  /* Fold case, diacritics and ё so that "soustredeni" finds "Soustředění". */
  function fold(text) {
    return text
      .toLocaleLowerCase()
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/ё/g, "е")
      .replace(/\s+/g, " ")
      .trim();
  }

  /* An element's text without what is there for screen readers only (.pv-sr). */
  function visibleText(el) {
    var copy = el.cloneNode(true);
    Array.prototype.forEach.call(copy.querySelectorAll(".pv-sr"), function (sr) { sr.remove(); });
    return copy.textContent;
  }

  /* The A–Z index: a filter box over all terms. */
  function setupIndexFilter() {
    var input = document.querySelector(".pv-az-filter");
    if (!input || input.dataset.pvReady) return;
    input.dataset.pvReady = "1";
    input.hidden = false;
    var groups = Array.prototype.slice.call(document.querySelectorAll(".pv-az-group"));
    var rows = groups.map(function (group) {
      return Array.prototype.slice.call(group.querySelectorAll("li")).map(function (li) {
        return { li: li, text: fold(visibleText(li)) };
      });
    });
    var empty = document.querySelector(".pv-az-empty");
    var parts = document.querySelectorAll(".pv-az-part, .pv-az-letters");
    input.addEventListener("input", function () {
      var query = fold(input.value);
      var shown = 0;
      groups.forEach(function (group, i) {
        var visible = 0;
        rows[i].forEach(function (row) {
          var hit = !query || row.text.indexOf(query) !== -1;
          row.li.hidden = !hit;
          if (hit) visible += 1;
        });
        group.hidden = visible === 0;
        shown += visible;
      });
      Array.prototype.forEach.call(parts, function (el) { el.hidden = Boolean(query); });
      if (empty) empty.hidden = shown !== 0;
    });
  }

  /* Material's instant navigation can leave a cross-page #anchor link on the
     old page's scroll offset when the click follows scrolling by less than
     ~100 ms: its debounced history.replaceState overwrites the new entry, and
     the new page then restores that offset instead of opening the anchor.
     Remember such clicks; once the new page is in, open the anchor. */
  var pendingAnchor = null;

  document.addEventListener("click", function (ev) {
    if (ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    var link = ev.target instanceof Element ? ev.target.closest("a[href]") : null;
    if (!link || link.target) return;
    var url = new URL(link.href, location.href);
    if (url.origin !== location.origin || !url.hash || url.pathname === location.pathname) return;
    pendingAnchor = url.pathname + url.hash;
  }, true);

  function openPendingAnchor() {
    var wanted = pendingAnchor;
    pendingAnchor = null;
    if (!wanted || location.pathname + location.hash !== wanted) return;
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (!target) return;
    target.scrollIntoView();
    /* :target does not follow history.pushState: mark the arrival ourselves */
    target.classList.remove("pv-arrived");
    void target.offsetWidth;
    target.classList.add("pv-arrived");
  }

  function setup() {
    openPendingAnchor();
    setupIndexFilter();
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(setup);
  } else {
    document.addEventListener("DOMContentLoaded", setup);
  }
})();
