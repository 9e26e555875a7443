/*
 * Pravila calculators: jumps, spell save DC and attack bonus, movement.
 *
 * The twin of src/pravila/calculators.py (the rules) and answers.py (the
 * answer in words): same inputs, same result objects, same lines of text.
 * tests/vectors/calculators.yaml is the contract of both; the browser tests
 * feed every vector to window.PravilaCalc and compare with Python.  Change a
 * rule in both files and in the vectors.
 *
 * Its tables (rule keys, editions, sizes, ways of moving, steps) are data:
 * window.PravilaCalcTables, from calculators-tables.js, which the build
 * writes from src/pravila/data/calculators.toml; only the formulas are here.
 *
 * Widgets are the <aside class="pravila-calc"> blocks of pravila.widgets:
 * labels are already in the markup, rule links in data-rules, and the answer
 * templates of all the page's widgets once per page, in the data-strings of
 * <div id="pravila-calc-data" data-lang="…">.  Set-up is
 * idempotent and runs on every page of Material's instant navigation
 * (document$), or once on a plain page.
 */
(function () {
  "use strict";

  if (window.PravilaCalc && window.PravilaCalc.setupAll) {
    // Evaluated again (instant navigation may do that): only set up new widgets.
    window.PravilaCalc.setupAll(document);
    return;
  }

  // The tables are data (src/pravila/data/calculators.toml), written by the
  // build as calculators-tables.js, which the page loads first.
  var TABLES = window.PravilaCalcTables;
  if (!TABLES) throw new Error("calculators.js needs calculators-tables.js (window.PravilaCalcTables) first");
  var RULE = TABLES.rules;
  var LONG_JUMP = RULE.long_jump;
  var HIGH_JUMP = RULE.high_jump;
  var MOVEMENT = RULE.movement;
  var DIFFICULT_TERRAIN = RULE.difficult_terrain;
  var CLIMB_SWIM_CRAWL = RULE.climb_swim_crawl;
  var PRONE = RULE.prone;
  var MOUNTING = RULE.mounting;
  var GRAPPLED = RULE.grappled;
  var DASH = RULE.dash;
  var SPEEDS = RULE.speeds;
  var FLYING = RULE.flying;
  var SAVE_DC = RULE.save_dc;
  var SPELL_ATTACK = RULE.spell_attack;

  var EDITIONS = TABLES.editions;
  var DEFAULT_EDITION = TABLES.defaultEdition;
  var RUN_UP_FT = TABLES.runUpFt;
  var SIZES = TABLES.sizes;
  var MODES = TABLES.modes;
  var ACTIONS = TABLES.actions;

  function CalcError(code, params) {
    var e = new Error(code);
    e.name = "CalcError";
    e.code = code;
    e.params = params || {};
    return e;
  }

  function isNumber(v) {
    return typeof v === "number" && isFinite(v);
  }

  function whole(value, code, low, high) {
    if (!isNumber(value) || !Number.isInteger(value) || value < low || (high !== undefined && value > high)) {
      throw CalcError(code, { value: value });
    }
    return value;
  }

  function given(v) {
    return v !== undefined && v !== null;
  }

  function unique(keys) {
    return keys.filter(function (k, i) { return keys.indexOf(k) === i; });
  }

  function edition(value) {
    var v = given(value) ? value : DEFAULT_EDITION;
    if (!isNumber(v) || EDITIONS.indexOf(v) < 0) throw CalcError("edition", { value: v });
    return v;
  }

  // Half a number of the game, rounded down even when it is a half (Round
  // Down: PHB 2014 p. 7; SRD 5.2 "Round Down"): twin of calculators.half.
  function half(value) {
    return Math.floor(value / 2);
  }

  // --- jumps ------------------------------------------------------------------

  function jump(input) {
    var strength = whole(input.strength, "strength", 1, 30);
    var height = given(input.height_ft) ? input.height_ft : null;
    var movement = given(input.movement_ft) ? input.movement_ft : null;
    if (height !== null && (!isNumber(height) || height <= 0)) throw CalcError("height", { value: height });
    if (movement !== null && (!isNumber(movement) || movement < 0)) throw CalcError("movement-left", { value: movement });
    var ed = edition(input.edition);
    var running = !input.standing;
    var mod = Math.floor((strength - 10) / 2);
    var longFt = running ? strength : half(strength);
    var highFt = running ? Math.max(0, 3 + mod) : half(Math.max(0, 3 + mod));
    var runUp = running ? RUN_UP_FT : 0;
    var longMax = longFt;
    var highMax = highFt;
    var limited = false;
    if (movement !== null) {
      var room = Math.max(0, movement - runUp);
      limited = longFt > room || highFt > room;
      longFt = Math.min(longFt, room);
      highFt = Math.min(highFt, room);
    }
    var out = {
      strength: strength,
      strength_mod: mod,
      running: running,
      run_up_ft: runUp,
      long_jump_ft: longFt,
      high_jump_ft: highFt,
      limited_by_movement: limited,
      edition: ed,
      rules: [LONG_JUMP, HIGH_JUMP]
    };
    if (height !== null) {
      out.height_ft = height;
      out.reach_ft = highFt + 1.5 * height;
    }
    if (movement !== null) {
      out.movement_ft = movement;
      out.long_jump_max_ft = longMax;
      out.high_jump_max_ft = highMax;
    }
    return out;
  }

  // --- spells -----------------------------------------------------------------

  function spell(input) {
    var byBonus = given(input.proficiency) || given(input.ability_mod);
    var byLevel = given(input.level) || given(input.ability_score);
    if (byBonus === byLevel || (byBonus && !(given(input.proficiency) && given(input.ability_mod))) ||
        (byLevel && !(given(input.level) && given(input.ability_score)))) {
      throw CalcError("spell-inputs", {});
    }
    var ed = edition(input.edition);
    var prof, mod;
    if (byLevel) {
      prof = 2 + Math.floor((whole(input.level, "level", 1, 20) - 1) / 4);
      mod = Math.floor((whole(input.ability_score, "ability-score", 1, 30) - 10) / 2);
    } else {
      prof = whole(input.proficiency, "proficiency", 2, 9);
      mod = whole(input.ability_mod, "ability-mod", -5, 10);
    }
    var out = {
      proficiency: prof,
      ability_mod: mod,
      save_dc: 8 + prof + mod,
      attack_bonus: prof + mod,
      edition: ed,
      rules: [SAVE_DC, SPELL_ATTACK]
    };
    if (byLevel) {
      out.level = input.level;
      out.ability_score = input.ability_score;
    }
    return out;
  }

  // --- movement -----------------------------------------------------------------

  // Twin of calculators.grapple_slows: 2014 halves the speed unless the
  // grappled creature is two or more sizes smaller; 2024 adds 1 foot per foot
  // unless it is Tiny or two or more sizes smaller.
  function grappleSlows(size, drag, ed) {
    if (drag === null) return false;
    var slows = SIZES.indexOf(drag) > SIZES.indexOf(size) - 2;
    return slows && !(ed === 2024 && drag === "tiny");
  }

  function move(input) {
    var base = {
      walk: whole(input.speed, "speed", 0),
      climb: whole(given(input.climb_speed) ? input.climb_speed : 0, "climb-speed", 0),
      swim: whole(given(input.swim_speed) ? input.swim_speed : 0, "swim-speed", 0),
      fly: whole(given(input.fly_speed) ? input.fly_speed : 0, "fly-speed", 0)
    };
    var size = given(input.size) ? input.size : "medium";
    var drag = given(input.drag) ? input.drag : null;
    if (SIZES.indexOf(size) < 0) throw CalcError("size", { value: size });
    if (drag !== null && SIZES.indexOf(drag) < 0) throw CalcError("drag-size", { value: drag });
    var ed = edition(input.edition);
    var checked = [];
    (input.legs || []).forEach(function (leg, index) {
      var i = index + 1;
      if (typeof leg === "string") {
        if (ACTIONS.indexOf(leg) < 0) throw CalcError("step", { leg: i, value: leg });
        checked.push(leg);
        return;
      }
      if (leg === null || typeof leg !== "object" || Array.isArray(leg)) throw CalcError("step", { leg: i, value: leg });
      var distance = leg.distance_ft;
      var mode = given(leg.mode) ? leg.mode : "walk";
      var difficult = given(leg.difficult) ? leg.difficult : 0;
      if (typeof difficult === "boolean") difficult = difficult ? 1 : 0;
      if (!isNumber(distance) || distance < 0) throw CalcError("distance", { leg: i, value: distance });
      if (MODES.indexOf(mode) < 0) throw CalcError("mode", { leg: i, value: mode });
      if (!isNumber(difficult) || !Number.isInteger(difficult) || difficult < 0) {
        throw CalcError("difficult", { leg: i, value: difficult });
      }
      if (mode === "fly" && base.fly === 0) throw CalcError("no-fly-speed", { leg: i });
      checked.push({ distance_ft: distance, mode: mode, difficult: difficult });
    });
    var plan = (input.stand_up ? ["stand-up"] : []).concat(checked, input.mount ? ["mount"] : []);
    var dash = !!input.dash;

    var slows = grappleSlows(size, drag, ed);
    var halved = slows && ed === 2014;
    var dragExtra = slows && ed === 2024;
    var speeds = {}, budget = {};
    ["walk", "climb", "swim", "fly"].forEach(function (k) {
      speeds[k] = halved ? half(base[k]) : base[k];
      budget[k] = speeds[k] * (dash ? 2 : 1);
    });
    var mountings = plan.filter(function (item) { return item === "mount" || item === "dismount"; }).length;
    var editionsDiffer = grappleSlows(size, drag, 2014) || grappleSlows(size, drag, 2024) || mountings > 1;

    var steps = [];
    var spent = 0;
    var lastSpeed = null;
    var mountedOnce = false;
    plan.forEach(function (item) {
      var cost, available, reason, rules;
      if (typeof item === "string") {
        cost = half(speeds.walk);
        available = budget.walk - spent;
        if (speeds.walk === 0) reason = "speed-zero";
        else if (item !== "stand-up" && mountedOnce && ed === 2014) reason = "mount-twice";
        else if (cost > available) reason = "not-enough-movement";
        else reason = "ok";
        if (item !== "stand-up") mountedOnce = true;
        spent += cost;
        steps.push({
          kind: item, distance_ft: null, mode: null, difficult: 0, dragging: false, speed: "walk", cost_ft: cost,
          left_ft: budget.walk - spent, legal: reason === "ok", reason: reason, switched: false,
          rules: [item === "stand-up" ? PRONE : MOUNTING]
        });
        lastSpeed = "walk";
        return;
      }
      var leg = item, extra = 0, use;
      if (leg.mode === "climb" || leg.mode === "swim") {
        var own = base[leg.mode] > 0;
        use = own ? leg.mode : "walk";
        rules = [CLIMB_SWIM_CRAWL];
        extra = own ? 0 : 1;
      } else if (leg.mode === "crawl") {
        use = "walk";
        rules = [CLIMB_SWIM_CRAWL, PRONE];
        extra = 1;
      } else if (leg.mode === "fly") {
        use = "fly";
        rules = [FLYING];
      } else {
        use = "walk";
        rules = [MOVEMENT];
      }
      if (leg.difficult) {
        extra += 1;
        rules.push(DIFFICULT_TERRAIN);
      }
      if (dragExtra) extra += 1;
      var switched = lastSpeed !== null && use !== lastSpeed && spent > 0;
      if (switched) rules.push(SPEEDS);
      cost = leg.distance_ft * (1 + extra);
      available = budget[use] - spent;
      spent += cost;
      steps.push({
        kind: "leg", distance_ft: leg.distance_ft, mode: leg.mode, difficult: leg.difficult, dragging: dragExtra, speed: use,
        cost_ft: cost, left_ft: budget[use] - spent, legal: cost <= available,
        reason: cost <= available ? "ok" : "not-enough-movement", switched: switched, rules: rules
      });
      lastSpeed = use;
    });

    var failing = null;
    for (var i = 0; i < steps.length; i++) {
      if (!steps[i].legal) { failing = i + 1; break; }
    }
    var inUse = lastSpeed || "walk";
    var allRules = (drag !== null ? [GRAPPLED] : []).concat(dash ? [DASH] : []);
    steps.forEach(function (s) { allRules = allRules.concat(s.rules); });
    return {
      speed_ft: speeds.walk,
      base_speed_ft: base.walk,
      speeds_ft: { walk: speeds.walk, climb: speeds.climb, swim: speeds.swim, fly: speeds.fly },
      halved: halved,
      drag_extra: dragExtra,
      dragging: drag !== null,
      dash: dash,
      cost_ft: spent,
      remaining_ft: budget[inUse] - spent,
      speed_in_use: inUse,
      legal: failing === null,
      reason: failing === null ? "ok" : steps[failing - 1].reason,
      reason_step: failing,
      edition: ed,
      editions_differ: editionsDiffer,
      steps: steps,
      rules: unique(allRules)
    };
  }

  // --- the answer in words (twin of pravila.answers.describe) ------------------

  function fill(template, params) {
    return String(template).replace(/\{(\w+)\}/g, function (m, name) {
      return Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : m;
    });
  }

  function displayRound(v) {
    return Math.floor(v * 100 + 0.5) / 100;
  }

  function formatFeet(value, lang, metric) {
    var text = new Intl.NumberFormat(lang || "en", { style: "unit", unit: "foot", unitDisplay: "long" })
      .format(displayRound(value));
    if (metric) {
      text += " (" + new Intl.NumberFormat(lang || "en", { style: "unit", unit: "meter", unitDisplay: "short" })
        .format(displayRound(displayRound(value * 0.3))) + ")";
    }
    return text;
  }

  // A modifier with its sign; a minus sign (U+2212), not a hyphen: twin of units.signed.
  function signed(n) {
    return (n < 0 ? "\u2212" : "+") + Math.abs(n);
  }

  function describe(kind, r, strings, lang, metric) {
    function t(key, params) {
      return fill(given(strings[key]) ? strings[key] : key, params || {});
    }
    function ft(v) {
      return formatFeet(v, lang, metric);
    }
    function editionLine(ed, differs) {
      return t(differs ? "edition.differs" : "edition.same", { edition: ed, other: ed === 2014 ? 2024 : 2014 });
    }
    var lines = [];
    if (kind === "jump") {
      var mod = signed(r.strength_mod);
      var longMax = r.limited_by_movement ? r.long_jump_max_ft : r.long_jump_ft;
      var highMax = r.limited_by_movement ? r.high_jump_max_ft : r.high_jump_ft;
      var belowZero = 3 + r.strength_mod < 0;
      if (r.running) {
        lines.push(t("jump.long.running", { distance: ft(longMax) }));
        lines.push(t(belowZero ? "jump.high.running.zero" : "jump.high.running", { distance: ft(highMax), mod: mod }));
      } else {
        lines.push(t("jump.long.standing", { distance: ft(longMax), strength: r.strength }));
        lines.push(t(belowZero ? "jump.high.standing.zero" : "jump.high.standing", { distance: ft(highMax), mod: mod }));
      }
      if (r.limited_by_movement && r.running && r.movement_ft < r.run_up_ft) {
        lines.push(t("jump.no-run-up", { movement: ft(r.movement_ft), run_up: ft(r.run_up_ft) }));
      } else if (r.limited_by_movement) {
        lines.push(t(r.running ? "jump.limited.running" : "jump.limited", {
          movement: ft(r.movement_ft), run_up: ft(r.run_up_ft), long: ft(r.long_jump_ft), high: ft(r.high_jump_ft)
        }));
      } else if (r.running) {
        lines.push(t("jump.movement.running", { run_up: ft(r.run_up_ft), total: ft(r.run_up_ft + r.long_jump_ft) }));
      } else {
        lines.push(t("jump.movement"));
      }
      if (given(r.reach_ft)) {
        lines.push(t("jump.reach", { reach: ft(r.reach_ft), high: ft(r.high_jump_ft), height: ft(r.height_ft) }));
      }
      lines.push(editionLine(r.edition, false));
      return lines;
    }
    if (kind === "spell") {
      var prof = signed(r.proficiency), amod = signed(r.ability_mod);
      lines.push(t("spell.dc", { dc: r.save_dc, prof: prof, mod: amod }));
      lines.push(t("spell.attack", { attack: signed(r.attack_bonus), prof: prof, mod: amod }));
      if (given(r.level)) {
        lines.push(t("spell.from-level", { level: r.level, prof: prof, score: r.ability_score, mod: amod }));
      }
      lines.push(editionLine(r.edition, false));
      return lines;
    }
    // The verdict first (can I get there?), then the speeds, the steps and the notes.
    if (r.legal) {
      lines.push(t("move.ok", { cost: ft(r.cost_ft), left: ft(r.remaining_ft) }));
    } else {
      var failed = r.steps[r.reason_step - 1];
      if (r.reason === "not-enough-movement") {
        lines.push(t("move.not-enough-movement", { n: r.reason_step, cost: ft(failed.cost_ft), left: ft(failed.left_ft + failed.cost_ft) }));
      } else if (r.reason === "speed-zero") {
        lines.push(t(failed.kind === "stand-up" ? "move.speed-zero.stand-up" : "move.speed-zero.mount"));
      } else {
        lines.push(t("move." + r.reason));
      }
    }
    if (r.halved) lines.push(t("move.speed.halved", { speed: ft(r.speed_ft), base: ft(r.base_speed_ft) }));
    else if (r.drag_extra) lines.push(t("move.speed.drag-extra", { speed: ft(r.speed_ft) }));
    else if (r.dragging) {
      lines.push(t(r.edition === 2014 ? "move.speed.not-halved" : "move.speed.no-drag-extra", { speed: ft(r.speed_ft) }));
    } else lines.push(t("move.speed", { speed: ft(r.speed_ft) }));
    ["climb", "swim", "fly"].forEach(function (name) {
      if (r.speeds_ft[name]) lines.push(t("move.speed." + name, { speed: ft(r.speeds_ft[name]) }));
    });
    if (r.dash) lines.push(t("move.dash"));
    r.steps.forEach(function (s, index) {
      var what;
      if (s.kind === "leg") {
        what = t("move.leg." + s.mode, { distance: ft(s.distance_ft) });
        if (s.difficult) what = t(s.difficult === 1 ? "move.leg.difficult" : "move.leg.difficult-many", { leg: what });
        if (s.dragging) what = t("move.leg.dragging", { leg: what });
        if (s.switched) what = t("move.leg.switched", { leg: what });
      } else {
        what = t("move." + s.kind);
      }
      if (s.left_ft < 0) { // past the movement there is: by how much, not a negative remainder
        lines.push(t("move.step.short", { n: index + 1, what: what, cost: ft(s.cost_ft), short: ft(-s.left_ft) }));
      } else {
        lines.push(t("move.step", { n: index + 1, what: what, cost: ft(s.cost_ft), left: ft(s.left_ft) }));
      }
    });
    if (r.steps.some(function (s) { return s.switched; })) lines.push(t("move.switching"));
    lines.push(editionLine(r.edition, r.editions_differ));
    return lines;
  }

  function errorMessage(error, strings) {
    var params = {};
    Object.keys(error.params || {}).forEach(function (k) {
      var v = error.params[k];
      params[k] = v === null || v === undefined || (typeof v === "number" && isNaN(v)) || v === "" ? "—" : v;
    });
    return fill(strings["error." + error.code] || error.code, params);
  }

  var CALCS = { jump: jump, spell: spell, move: move };

  // --- widgets ------------------------------------------------------------------

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" }[c];
    });
  }

  // The inside of a widget's <output>: twin of pravila.widgets.answer_html.
  function renderAnswer(kind, result, strings, links, lang, metric) {
    var html = describe(kind, result, strings, lang, metric).map(function (line) {
      return '<span class="pravila-calc__line">' + escapeHtml(line) + "</span>";
    }).join("");
    if (!result.rules.length) return html;
    var cited = result.rules.map(function (key) {
      var link = links[key] || { href: "#", lang: "", title: key };
      // a link into another language's site is an ordinary link (not Material's language switch)
      var self = link.lang && link.lang !== lang ? ' target="_self"' : "";
      return '<a href="' + escapeHtml(link.href) + '" hreflang="' + escapeHtml(link.lang) + '" data-rule="' +
        escapeHtml(key) + '"' + self + ">" + escapeHtml(link.title) + "</a>";
    }).join(", ");
    return html + '<span class="pravila-calc__line pravila-calc__rules">' + escapeHtml(strings.rules) + " " + cited + "</span>";
  }

  // Answer templates and messages by language, from every page's data block:
  // a page swapped in by instant navigation brings its own; a widget whose
  // page has none uses what earlier pages gave.
  var stringsByLang = {};

  function readPageData() {
    document.querySelectorAll('[id="pravila-calc-data"]').forEach(function (el) {
      var lang = el.getAttribute("data-lang");
      if (!lang) return;
      var strings = readJson(el, "data-strings");
      var known = stringsFor(lang);
      Object.keys(strings).forEach(function (key) { known[key] = strings[key]; });
    });
  }

  function stringsFor(lang) {
    return stringsByLang[lang] || (stringsByLang[lang] = {});
  }

  function readJson(root, name) {
    try {
      return JSON.parse(root.getAttribute(name) || "{}");
    } catch (e) {
      return {};
    }
  }

  // --- numbers as readers type them ---------------------------------------------

  // A number typed with a decimal comma or point ("5,5", "5.5", "−1", " 30 "): the
  // number, null for an empty field, NaN for anything else (never silently dropped).
  function parseNumber(text) {
    var t = String(text).replace(/[\s\u00a0\u202f]/g, "").replace(/\u2212/g, "-");
    if (t === "") return null;
    if (!/^[-+]?(\d+([.,]\d*)?|[.,]\d+)$/.test(t)) return NaN;
    return Number(t.replace(",", "."));
  }

  function formatNumber(value, lang) {
    return new Intl.NumberFormat(lang || "en", { useGrouping: false, maximumFractionDigits: 6 }).format(value);
  }

  // Which field an error of the calculators is about (its code, and for a leg its number).
  var ERROR_FIELDS = {
    strength: "strength", height: "height_ft", "movement-left": "movement_ft", level: "level",
    "ability-score": "ability_score", proficiency: "proficiency", "ability-mod": "ability_mod", speed: "speed",
    "climb-speed": "climb_speed", "swim-speed": "swim_speed", "fly-speed": "fly_speed", "no-fly-speed": "fly_speed"
  };

  // --- the character's numbers, remembered ----------------------------------------
  // What stays true of a character from one widget and page to the next (not the
  // situation: movement left, legs, dash, standing): the reader's last values win
  // over a widget's preset, which only seeds the first use.
  var CHARACTER_KEY = "pravila.character";
  var CHARACTER = ["strength", "height_ft", "speed", "climb_speed", "swim_speed", "fly_speed", "size", "level",
                   "ability_score", "proficiency", "ability_mod", "metric"];

  function readCharacter() {
    try {
      var data = JSON.parse(window.localStorage.getItem(CHARACTER_KEY) || "{}");
      return data && typeof data === "object" ? data : {};
    } catch (e) {
      return {};
    }
  }

  function rememberValue(name, value) {
    var data = readCharacter();
    if (value === null || value === undefined) delete data[name]; else data[name] = value;
    try { window.localStorage.setItem(CHARACTER_KEY, JSON.stringify(data)); } catch (e) { /* storage off */ }
  }

  // Widgets already set up: the elements themselves, not an attribute, which
  // markup copied from a set-up page would carry without the listeners.
  var ready = new WeakSet();
  var widgets = []; // {root, apply(name, value)} of the widgets set up, for remembered values

  function setup(root) {
    if (ready.has(root)) return;
    var form = root.querySelector("form");
    var output = root.querySelector("output");
    if (!form || !output) return;
    ready.add(root);
    root.setAttribute("data-ready", "1");
    var kind = root.getAttribute("data-calc");
    var lang = root.getAttribute("data-lang") || document.documentElement.lang || "en";
    var strings = stringsFor(lang);
    var links = readJson(root, "data-rules");
    var defaults = readJson(root, "data-defaults");
    var list = root.querySelector(".pravila-calc__legs");
    var template = root.querySelector("template.pravila-calc__leg-template");

    function control(name) {
      var el = form.elements.namedItem(name);
      return el && el.closest && el.closest(".pravila-calc__legs") ? null : el;
    }
    // A typed number; text that is no number stops the calculation with a message on its field.
    function typed(el) {
      var value = parseNumber(el.value);
      if (value !== null && isNaN(value)) throw Object.assign(CalcError("not-a-number", { value: el.value.trim() }), { field: el });
      return value;
    }
    function required(name) { // an empty required field is NaN: the calculator names it
      var el = control(name);
      if (!el) return defaults[name];
      var value = typed(el);
      return value === null ? NaN : value;
    }
    function optional(name) {
      var el = control(name);
      if (!el) return given(defaults[name]) ? defaults[name] : null;
      return typed(el);
    }
    function flag(name) {
      var el = control(name);
      return el ? el.checked : !!defaults[name];
    }
    function choice(name) {
      var el = control(name);
      return el ? el.value : defaults[name];
    }
    function chosenEdition() { // a <select> holds "2014", data-defaults 2014
      var value = choice("edition");
      return given(value) && value !== "" ? Number(value) : DEFAULT_EDITION;
    }

    function inputs() {
      if (kind === "jump") {
        return { strength: required("strength"), standing: flag("standing"), height_ft: optional("height_ft"),
                 movement_ft: optional("movement_ft"), edition: chosenEdition() };
      }
      if (kind === "spell") {
        var by = choice("by") || "level";
        root.querySelectorAll("[data-by]").forEach(function (group) {
          group.hidden = group.getAttribute("data-by") !== by;
        });
        return by === "level"
          ? { level: required("level"), ability_score: required("ability_score"), edition: chosenEdition() }
          : { proficiency: required("proficiency"), ability_mod: required("ability_mod"), edition: chosenEdition() };
      }
      var legs = [];
      if (list) {
        list.querySelectorAll(".pravila-calc__leg").forEach(function (row) {
          var d = typed(row.querySelector('[name="distance_ft"]'));
          legs.push({
            distance_ft: d === null ? NaN : d,
            mode: row.querySelector('[name="mode"]').value,
            difficult: row.querySelector('[name="difficult"]').checked ? 1 : 0
          });
        });
      }
      var drag = choice("drag");
      return { speed: required("speed"), climb_speed: required("climb_speed"), swim_speed: required("swim_speed"),
               fly_speed: required("fly_speed"), size: choice("size") || "medium", drag: drag ? drag : null,
               dash: flag("dash"), stand_up: flag("stand_up"), mount: flag("mount"), legs: legs,
               edition: chosenEdition() };
    }

    // The field an error is about: aria-invalid, described by the answer that says why.
    function fieldOf(error) {
      if (error.field) return error.field;
      if (error.code === "distance" && list && error.params && error.params.leg) {
        var row = list.querySelectorAll(".pravila-calc__leg")[error.params.leg - 1];
        return row ? row.querySelector('[name="distance_ft"]') : null;
      }
      return ERROR_FIELDS[error.code] ? control(ERROR_FIELDS[error.code]) : null;
    }

    function markInvalid(field) {
      form.querySelectorAll("[aria-invalid]").forEach(function (el) {
        if (el === field) return;
        el.removeAttribute("aria-invalid");
        el.removeAttribute("aria-describedby");
      });
      if (field) {
        field.setAttribute("aria-invalid", "true");
        field.setAttribute("aria-describedby", output.id);
      }
    }

    // The first answer is usually the prerendered one: leave the live region
    // alone then, so that loading a page announces nothing.
    var last = null;

    function textOf(markup) {
      var scratch = document.createElement("template");
      scratch.innerHTML = markup;
      return scratch.content.textContent;
    }

    function update() {
      var html, invalid = null;
      try {
        html = renderAnswer(kind, CALCS[kind](inputs()), strings, links, lang, flag("metric"));
        output.classList.remove("pravila-calc__answer--error");
      } catch (error) {
        if (!error || !error.code) throw error;
        var message = error.code === "not-a-number" ? fill(strings["not-a-number"] || "{value}", error.params)
          : errorMessage(error, strings);
        html = '<span class="pravila-calc__line pravila-calc__error">' + escapeHtml(message) + "</span>";
        output.classList.add("pravila-calc__answer--error");
        invalid = fieldOf(error);
      }
      markInvalid(invalid);
      if (html === last) return;
      if (last !== null || output.textContent !== textOf(html)) output.innerHTML = html;
      last = html;
    }

    function renumber() {
      if (!list) return;
      list.querySelectorAll(".pravila-calc__leg").forEach(function (row, index) {
        var n = index + 1;
        var name = row.querySelector(".pravila-calc__leg-name");
        if (name) name.textContent = fill(strings.leg, { n: n });
        var remove = row.querySelector('[data-action="remove-leg"]');
        if (remove) remove.setAttribute("aria-label", fill(strings["remove-leg"], { n: n }));
      });
    }

    // A remembered value into this widget's field (if it has it); true when it changed.
    function apply(name, value) {
      var el = control(name);
      if (!el || value === undefined || value === null) return false;
      if (el.type === "checkbox") {
        if (el.checked === !!value) return false;
        el.checked = !!value;
        return true;
      }
      var text = typeof value === "number" ? formatNumber(value, lang) : String(value);
      if (el.tagName === "SELECT" && !el.querySelector('option[value="' + text + '"]')) return false;
      if (el.value === text) return false;
      el.value = text;
      return true;
    }

    // A character's number the reader has just set: remember it, and show it in the page's other widgets.
    function remembered(event) {
      var el = event.target;
      if (!el || !el.name || CHARACTER.indexOf(el.name) < 0 || control(el.name) !== el) return;
      var value;
      if (el.type === "checkbox") value = el.checked;
      else if (el.tagName === "SELECT") value = el.value;
      else {
        value = parseNumber(el.value);
        if (value === null || isNaN(value)) return;
        el.value = formatNumber(value, lang); // in the reader's format: 5.5 → 5,5
      }
      rememberValue(el.name, value);
      widgets.forEach(function (other) {
        if (other.root !== root && other.root.isConnected && other.apply(el.name, value)) other.update();
      });
    }

    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.addEventListener("input", update);
    form.addEventListener("change", function (event) {
      remembered(event);
      update();
    });
    form.addEventListener("click", function (event) {
      var button = event.target.closest ? event.target.closest("[data-action]") : null;
      if (!button || !form.contains(button) || !list) return;
      if (button.getAttribute("data-action") === "add-leg" && template) {
        var row = template.content.firstElementChild.cloneNode(true);
        list.appendChild(row);
        renumber();
        row.querySelector('[name="distance_ft"]').focus();
      } else if (button.getAttribute("data-action") === "remove-leg") {
        var leg = button.closest(".pravila-calc__leg");
        var next = leg.nextElementSibling || leg.previousElementSibling;
        leg.remove();
        renumber();
        var focus = next ? next.querySelector('[data-action="remove-leg"]') : form.querySelector('[data-action="add-leg"]');
        if (focus) focus.focus();
      }
      update();
    });

    widgets = widgets.filter(function (w) { return w.root.isConnected; });
    widgets.push({ root: root, apply: apply, update: update });
    // The reader's remembered numbers win over the preset; a changed answer is not announced on load.
    var character = readCharacter();
    var changed = false;
    CHARACTER.forEach(function (name) { changed = apply(name, character[name]) || changed; });
    if (changed) {
      var live = output.getAttribute("aria-live");
      output.setAttribute("aria-live", "off");
      update();
      setTimeout(function () { output.setAttribute("aria-live", live || "polite"); }, 0);
    } else {
      update();
    }
  }

  function setupAll(scope) {
    readPageData();
    (scope || document).querySelectorAll(".pravila-calc").forEach(setup);
  }

  window.PravilaCalc = {
    jump: jump,
    spell: spell,
    move: move,
    describe: describe,
    renderAnswer: renderAnswer,
    errorMessage: errorMessage,
    formatFeet: formatFeet,
    parseNumber: parseNumber,
    setup: setup,
    setupAll: setupAll
  };

  // Material's instant navigation swaps the page without reloading scripts;
  // document$ emits for every page shown.  Without Material: once, when ready.
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(function () { setupAll(document); });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { setupAll(document); });
  } else {
    setupAll(document);
  }
})();
