/* Pravila: small enhancements of the generated pages.
   Material's instant navigation swaps pages without reloading: every set-up
   runs from document$.subscribe and is idempotent; document-wide listeners
   are added once, here.

   - the A–Z index's filter box;
   - a link's #anchor opened after instant navigation, also from the search
     overlay of a phone (Material keeps the page scroll-locked until the
     overlay has closed, then puts back the old offset);
   - links into another language's site are ordinary links (Material's
     instant navigation would take them for a language switch);
   - the language switcher (header and phone menu) goes to the counterpart
     of the rule in view, else the page's counterpart, else the other
     language's home, says which, and remembers the reader's choice;
   - on a touch screen a rule link first shows its preview;
   - permalinks offer each entry's own address to share (/<lang>/r/<id>/);
   - the ≈/† marks of English names explain themselves on a tap;
   - the 404 page offers the missing address's words as a search. */
(function () {
  "use strict";

  var LOCK = "data-md-scrolllock";
  var CHOICE_KEY = "pravila.lang";
  var CHOICE_COOKIE = "pravila_lang";

  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  function closestLink(ev, selector) {
    return ev.target instanceof Element ? ev.target.closest(selector || "a[href]") : null;
  }

  function plainClick(ev) {
    return ev.button === 0 && !ev.metaKey && !ev.ctrlKey && !ev.shiftKey && !ev.altKey;
  }

  /* What the site says (extra.pravila.strings, in the head: the same on every page of a language). */
  var STRINGS = (function () {
    var meta = document.querySelector('meta[name="pravila:strings"]');
    try { return JSON.parse(meta ? meta.getAttribute("content") : "{}"); } catch (e) { return {}; }
  })();

  function say(key, params) {
    var text = STRINGS[key] || key;
    Object.keys(params || {}).forEach(function (name) { text = text.replace("%(" + name + ")s", params[name]); });
    return text;
  }

  /* This language's site root (/ru/) and the root all language sites share (/), from Material's config. */
  var LANG_ROOT = (function () {
    var el = document.getElementById("__config");
    var base = ".";
    try { base = JSON.parse(el.textContent).base || "."; } catch (e) { /* a page without Material */ }
    return new URL(base.replace(/\/?$/, "/"), location.href);
  })();
  var ROOT = new URL("../", LANG_ROOT);
  var HOMES = STRINGS.homes || {};
  var HERE = Object.keys(HOMES).filter(function (code) { return new URL(code + "/", ROOT).href === LANG_ROOT.href; })[0] || null;

  /* The language site a URL belongs to, or null. */
  function languageOf(url) {
    if (url.origin !== ROOT.origin) return null;
    return Object.keys(HOMES).filter(function (code) {
      return url.pathname.indexOf(new URL(code + "/", ROOT).pathname) === 0;
    })[0] || null;
  }

  /* The current page's own data (templates' .pv-page-data: replaced with the content). */
  function pageData() {
    var el = document.querySelector(".pv-page-data");
    var alternates = {};
    try { alternates = JSON.parse(el ? el.getAttribute("data-alternates") : "{}"); } catch (e) { /* none */ }
    var entries = el ? (el.getAttribute("data-entries") || "").split(" ").filter(Boolean) : [];
    return { alternates: alternates, entries: entries };
  }

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
    each(copy.querySelectorAll(".pv-sr"), function (sr) { sr.remove(); });
    return copy.textContent;
  }

  /* --- the A–Z index: a filter box over all terms ------------------------------- */

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
      each(parts, function (el) { el.hidden = Boolean(query); });
      if (empty) empty.hidden = shown !== 0;
    });
  }

  /* --- a link's #anchor, opened --------------------------------------------------
     Two ways Material's instant navigation can leave a page away from the
     anchor of the link that was followed:
     - a click less than ~100 ms after scrolling: its debounced
       history.replaceState overwrites the new entry, and the new page
       restores the old offset;
     - below 960 px the search is an overlay that scroll-locks the page
       (position: fixed); the new page cannot scroll while the lock holds,
       and closing the overlay puts back the old offset.
     Remember such clicks; once the new page is in and unlocked, open the anchor. */
  var pendingAnchor = null;

  document.addEventListener("click", function (ev) {
    if (!plainClick(ev)) return;
    var link = closestLink(ev);
    if (!link || (link.target && link.target !== "_self")) return;
    var url = new URL(link.href, location.href);
    if (url.origin !== location.origin || !url.hash) return;
    if (url.pathname === location.pathname && !document.body.hasAttribute(LOCK)) return;
    pendingAnchor = url.pathname + url.hash;
  }, true);

  /* Scroll to the target, and again while the page will not let it get there yet, until it is
     in place or the reader scrolls: on a phone, the closing search overlay (a circle scaled up
     over the screen) keeps the layout viewport larger, and so the page's scroll range shorter,
     for the ~250 ms of its transition. */
  var readerScrolled = false;
  ["wheel", "touchstart", "keydown"].forEach(function (type) {
    window.addEventListener(type, function () { readerScrolled = true; }, { passive: true, capture: true });
  });

  function settleOn(target, tries) {
    readerScrolled = false;
    var last = null;
    (function attempt(left) {
      if (readerScrolled || !target.isConnected) return;
      target.scrollIntoView();
      var top = target.getBoundingClientRect().top;
      if (last !== null && Math.abs(top - last) < 1 && window.innerHeight === document.documentElement.clientHeight) return;
      last = top;
      if (left > 0) setTimeout(function () { attempt(left - 1); }, 60);
    })(tries);
  }

  function openPendingAnchor() {
    if (!pendingAnchor) return;
    if (document.body.hasAttribute(LOCK)) return; /* the observer below comes back when the lock goes */
    var wanted = pendingAnchor;
    pendingAnchor = null;
    if (location.pathname + location.hash !== wanted) return;
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (!target) return;
    settleOn(target, 20);
    /* :target does not follow history.pushState: mark the arrival ourselves */
    target.classList.remove("pv-arrived");
    void target.offsetWidth;
    target.classList.add("pv-arrived");
  }

  new MutationObserver(function () {
    /* once the page is laid out unlocked: right after the lock goes it cannot yet scroll that far */
    if (!document.body.hasAttribute(LOCK)) requestAnimationFrame(function () { setTimeout(openPendingAnchor, 0); });
  }).observe(document.body, { attributes: true, attributeFilter: [LOCK] });

  /* --- links into the other language's site --------------------------------------
     Material's instant navigation takes a link into an alternate language's
     site for a language switch and maps it to "this page in that language"
     (or that site's home). Such links are ordinary links: mark them
     target=_self before Material's handlers see the click. */
  document.addEventListener("click", function (ev) {
    var link = closestLink(ev);
    if (!link || link.target) return;
    var lang = languageOf(new URL(link.href, location.href));
    if (lang && lang !== HERE) link.target = "_self";
  }, true);

  /* --- the language switcher ------------------------------------------------------ */

  function remember(code) {
    try { localStorage.setItem(CHOICE_KEY, code); } catch (e) { /* storage off */ }
    document.cookie = CHOICE_COOKIE + "=" + encodeURIComponent(code) + "; path=/; max-age=31536000; SameSite=Lax";
  }

  /* The entry the reader is at: the last one whose title is above the upper third of the screen. */
  function entryInView(ids) {
    var line = window.innerHeight / 3;
    var best = null, bestTop = -Infinity, first = null, firstTop = Infinity;
    ids.forEach(function (id) {
      var el = document.getElementById(id);
      if (!el || !el.getClientRects().length) return;
      var top = el.getBoundingClientRect().top;
      if (top <= line && top > bestTop) { best = el; bestTop = top; }
      if (top < firstTop) { first = el; firstTop = top; }
    });
    return best || first;
  }

  /* Where a switch to `code` goes: {href, title} (title null: that language's home page). */
  function destination(code) {
    var data = pageData();
    var entry = entryInView(data.entries);
    if (entry) {
      var counterpart = document.querySelector('.pv-counterparts[data-for="' + entry.id + '"] a[hreflang="' + code + '"]');
      if (counterpart) return { href: counterpart.href, title: counterpart.textContent.trim() };
    }
    var alt = data.alternates[code];
    if (alt && alt.url) return { href: new URL(alt.url.replace(/^\//, ""), ROOT).href, title: alt.title || null };
    return { href: new URL(code + "/", ROOT).href, title: null };
  }

  function switchLinks() {
    return document.querySelectorAll(".md-select__link[hreflang], .pv-nav-lang a[hreflang]");
  }

  function updateSwitcher() {
    var destinations = {};  // per language: the header's link and each drawer panel's go to the same page
    each(switchLinks(), function (link) {
      var code = link.getAttribute("hreflang");
      if (code === HERE || !HOMES[code]) {
        link.setAttribute("aria-current", "true");
        return;
      }
      var to = destinations[code] || (destinations[code] = destination(code));
      link.href = to.href;
      link.target = "_self";
      var note = link.querySelector(".pv-switch-to");
      if (!note) {
        note = document.createElement("span");
        note.className = "pv-switch-to";
        link.appendChild(note);
      }
      var title = to.title ? "«" + to.title + "»" : say("home_page");
      if (note.textContent !== title) note.textContent = title;
      note.lang = to.title ? code : (HERE || "");
    });
  }

  /* The phone's menu (Material's drawer) gets the other languages too: at the end of its top
     level and of each chapter's panel (the drawer opens on the current chapter's). */
  function setupDrawerLanguages() {
    var lists = document.querySelectorAll(
      ".md-nav--primary > .md-nav__list, .md-nav--primary nav.md-nav[data-md-level='1'] > .md-nav__list");
    each(lists, function (list) {
      if (list.querySelector(":scope > .pv-nav-lang")) return;
      Object.keys(HOMES).forEach(function (code) {
        if (code === HERE) return;
        var source = document.querySelector('.md-select__link[hreflang="' + code + '"]');
        var item = document.createElement("li");
        item.className = "md-nav__item pv-nav-lang";
        var link = document.createElement("a");
        link.className = "md-nav__link";
        link.hreflang = code;
        link.lang = code;
        link.href = new URL(code + "/", ROOT).href;
        var name = document.createElement("span");
        name.className = "pv-nav-lang__name";
        name.textContent = source ? source.textContent.trim() : code;
        link.appendChild(name);
        item.appendChild(link);
        list.appendChild(item);
      });
    });
  }

  var switchTimer = null;
  window.addEventListener("scroll", function () {
    clearTimeout(switchTimer);
    switchTimer = setTimeout(updateSwitcher, 120);
  }, { passive: true });

  /* Choosing a language: the switcher, the phone menu, the home page's "in the other language". */
  document.addEventListener("click", function (ev) {
    var link = closestLink(ev, ".md-select__link[hreflang], .pv-nav-lang a[hreflang], a.pv-other-site[hreflang]");
    if (!link) return;
    var code = link.getAttribute("hreflang");
    if (!HOMES[code]) return;
    if (!link.classList.contains("pv-other-site")) {
      var to = destination(code); /* the page may have scrolled since the last update */
      link.href = to.href;
      link.target = "_self";
    }
    remember(code);
  }, true);

  /* --- previews on a touch screen --------------------------------------------------
     Material previews a rule link on hover or focus; a tap would only follow
     it. On touch, the first tap focuses the link (Material shows the
     preview, with a link to open the rule); a second tap follows it. */
  var pointer = "mouse";
  var peeked = null;

  window.addEventListener("pointerdown", function (ev) {
    pointer = ev.pointerType || "mouse";
    var inside = closestLink(ev, ".md-tooltip2, a[data-preview]");
    if (peeked && (!inside || (inside.matches("a[data-preview]") && inside !== peeked))) peeked = null;
  }, true);

  window.addEventListener("click", function (ev) {
    var link = closestLink(ev, "a[data-preview]");
    if (!link || pointer !== "touch" || !plainClick(ev)) return;
    if (peeked === link) {
      peeked = null; /* the second tap opens the rule */
      return;
    }
    ev.preventDefault();
    ev.stopImmediatePropagation();
    peeked = link;
    link.focus();
  }, true);

  function addOpenLink(tooltip) {
    if (!peeked || tooltip.querySelector(".pv-peek-open")) return;
    var inner = tooltip.querySelector(".md-typeset") || tooltip;
    var p = document.createElement("p");
    p.className = "pv-peek-open";
    var a = document.createElement("a");
    a.href = peeked.href;
    a.textContent = say("open_rule") + " →";
    p.appendChild(a);
    inner.insertBefore(p, inner.children[1] || null); /* under the title: in sight without scrolling the preview */
  }

  new MutationObserver(function (records) {
    records.forEach(function (record) {
      each(record.addedNodes, function (node) {
        if (node instanceof Element && node.classList.contains("md-tooltip2")) addOpenLink(node);
      });
    });
  }).observe(document.body, { childList: true });

  /* --- permalinks: each entry's own address ----------------------------------------
     An entry's permalink points at its page to share (/<lang>/r/<id>/: its
     title and first sentence for link previews, then the anchor). A click
     opens the anchor here and copies that address. */
  function shareUrl(id) {
    return new URL("r/" + encodeURIComponent(id) + "/", LANG_ROOT).href;
  }

  function setupPermalinks() {
    pageData().entries.forEach(function (id) {
      var el = document.getElementById(id);
      var link = el && el.querySelector("a.headerlink");
      if (!link || link.hasAttribute("data-pv-share")) return;
      link.setAttribute("data-pv-share", id);
      link.href = shareUrl(id);
    });
  }

  function announce(text) {
    var dialog = document.querySelector(".md-dialog");
    var inner = dialog && dialog.querySelector(".md-typeset");
    if (!inner) return;
    inner.textContent = text;
    dialog.classList.add("md-dialog--active");
    setTimeout(function () { dialog.classList.remove("md-dialog--active"); }, 2000);
  }

  document.addEventListener("click", function (ev) {
    var link = closestLink(ev, "a[data-pv-share]");
    if (!link || !plainClick(ev)) return;
    ev.preventDefault();
    ev.stopImmediatePropagation();
    var id = link.getAttribute("data-pv-share");
    if (location.hash !== "#" + id) history.pushState(history.state, "", "#" + id);
    var target = document.getElementById(id);
    if (target) target.scrollIntoView();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(link.href).then(function () {
        announce(say("link_copied") + ": " + link.href);
      }, function () { /* no permission: the address is still the link's */ });
    }
  }, true);

  /* --- ≈ and † after English names: the reason, on a tap too ------------------------ */
  document.addEventListener("click", function (ev) {
    var mark = closestLink(ev, ".pv-en--no-heading, .pv-en--not-in-srd");
    if (!mark || closestLink(ev)) return;
    mark.classList.toggle("pv-en--open");
  });

  /* --- the 404 page: the missing address's words, as a search --------------------- */
  function setupNotFound() {
    var item = document.querySelector(".pv-404__search");
    if (!item || !item.hidden) return;
    var rest = location.pathname.indexOf(LANG_ROOT.pathname) === 0
      ? location.pathname.slice(LANG_ROOT.pathname.length) : location.pathname;
    var words;
    try { words = decodeURIComponent(rest); } catch (e) { words = rest; }
    /* the address's last part names the page; Material reads ?q= only when a page loads */
    words = words.split("/").filter(Boolean).pop() || "";
    words = words.replace(/\.html?$/, "").replace(/[-_.+]+/g, " ").trim();
    if (!words) return;
    var link = item.querySelector("a");
    link.href = LANG_ROOT.href + "?q=" + encodeURIComponent(words);
    link.target = "_self";
    link.textContent = say("search_for", { query: words });
    item.hidden = false;
  }

  function setupSearchName() {
    var dialog = document.querySelector('.md-search[role="dialog"]');
    if (dialog && !dialog.hasAttribute("aria-label")) dialog.setAttribute("aria-label", say("search"));
  }

  function setup() {
    openPendingAnchor();
    setupIndexFilter();
    setupDrawerLanguages();
    setupPermalinks();
    setupNotFound();
    setupSearchName();
    updateSwitcher();
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(setup);
  } else {
    document.addEventListener("DOMContentLoaded", setup);
  }
})();
