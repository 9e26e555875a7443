/*
 * Pravila stemmers: the search's word → stem functions, for the browser.
 *
 * The twins of what the Python searcher uses (src/pravila/analysis.py):
 *
 *   russian(word)  Snowball Russian  = PyStemmer's Stemmer("russian").stemWord
 *   english(word)  Snowball English  = PyStemmer's Stemmer("english").stemWord
 *   polish(word)   Snowball Polish   = PyStemmer's Stemmer("polish").stemWord
 *   czech(word)    our light Czech stemmer = analysis.cs_stem
 *   fold(text)     Latin diacritics removed = analysis.fold
 *
 * The Snowball stemmers are our own port of the published algorithms
 * (snowballstem/snowball, algorithms/{russian,english,polish}.sbl, Snowball
 * 3.1.0 — the version PyStemmer 3.1.0 bundles); each function below follows
 * its .sbl routine by routine and names it.  tests/vectors/stemmers.json
 * (scripts/stemmer_vectors.py) is the contract: word → stem pairs made by
 * Python, which tests/test_stemmers.py feeds to this file in Chromium.
 * Change a stemmer here and in Python, then regenerate the vectors.
 *
 * Input is one word as pravila.analysis.words gives it: NFC, lowercased.
 * The stemmers are raw: the callers keep what analysis.py adds around them
 * (ru_stem folds ё to е first — Snowball Russian also does that itself since
 * Snowball 2.0, so russian("полётом") is "полет" either way; cs_stem is
 * czech; en_stem is english).  Characters count as Python and Snowball count
 * them, by code point: a letter outside the BMP is one character.
 *
 * Works in a page (window.PravilaStemmers), in a web worker via importScripts
 * (self.PravilaStemmers) and in node (module.exports).  No dependencies.
 */
(function (root) {
  "use strict";

  // --- small parts the algorithms share ---------------------------------------

  /** A test for one character: is it one of `chars`? (undefined → false) */
  function letters(chars) {
    const set = new Set(chars);
    return (c) => set.has(c);
  }

  /** Snowball's `gopast`: the position just after the first character at or after i that passes. */
  function past(w, i, test) {
    for (; i < w.length; i++) if (test(w[i])) return i + 1;
    return -1;
  }

  /**
   * The usual Snowball region start: `gopast v  gopast non-v` from i, or the
   * word's length when there is no vowel followed by a non-vowel.
   */
  function region(w, i, vowel) {
    i = past(w, i, vowel);
    if (i >= 0) i = past(w, i, (c) => !vowel(c));
    return i < 0 ? w.length : i;
  }

  /**
   * Snowball's `among` in backward mode: a table of suffixes, each with a
   * value (what to do with it).  find() answers the longest suffix of w in
   * the table that starts at or after `limit`; when `accept(value, start)` is
   * given and refuses it, the next shorter one (Snowball's among functions).
   */
  class Among {
    constructor(groups) {
      this.values = new Map();
      this.byLast = new Map(); // last character → the suffixes ending in it, longest first
      for (const [value, list] of groups) {
        for (const suffix of list.split(" ")) {
          if (this.values.has(suffix)) throw new Error("suffix listed twice: " + suffix);
          this.values.set(suffix, value);
          if (!suffix) continue;
          const last = suffix[suffix.length - 1];
          if (!this.byLast.has(last)) this.byLast.set(last, []);
          this.byLast.get(last).push(suffix);
        }
      }
      for (const list of this.byLast.values()) list.sort((a, b) => b.length - a.length);
    }

    find(w, limit, accept) {
      const room = w.length - limit;
      for (const suffix of this.byLast.get(w[w.length - 1]) || []) {
        if (suffix.length <= room && w.endsWith(suffix) && (!accept || accept(this.values.get(suffix), w.length - suffix.length)))
          return suffix;
      }
      return this.values.has("") && room >= 0 ? "" : null;
    }

    value(suffix) {
      return this.values.get(suffix);
    }
  }

  /** w without its last n characters. */
  function cut(w, n) {
    return w.slice(0, w.length - n);
  }

  const SURROGATE = /[\uD800-\uDFFF]/;

  /**
   * A stemmer that counts characters by code point, as Python and Snowball
   * do: letters outside the BMP (two UTF-16 units each) stand in for the
   * stemmer as one private-use character that no rule knows, and come back
   * afterwards.
   */
  function byCodePoint(stem) {
    return function (word) {
      if (!SURROGATE.test(word)) return stem(word);
      const chars = Array.from(word);
      const taken = new Set(chars);
      const standIn = new Map();
      const original = new Map();
      let next = 0xe000;
      const mapped = chars.map((ch) => {
        if (ch.length === 1) return ch;
        let p = standIn.get(ch);
        if (p === undefined) {
          do p = String.fromCharCode(next++); while (taken.has(p));
          standIn.set(ch, p);
          original.set(p, ch);
        }
        return p;
      });
      return Array.from(stem(mapped.join("")), (ch) => original.get(ch) || ch).join("");
    };
  }

  // --- fold: analysis.fold -------------------------------------------------------

  /*
   * Python's table: every letter of Latin-1 Supplement and Latin Extended-A
   * and -B (U+00C0–U+024F) whose canonical decomposition, marks dropped, is
   * other ASCII letters.  Built the same way here.
   */
  const FOLD = new Map();
  for (let code = 0xc0; code < 0x250; code++) {
    const ch = String.fromCharCode(code);
    const base = ch.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
    if (base && base !== ch && /^[\x00-\x7f]+$/.test(base)) FOLD.set(ch, base);
  }
  const FOLDED = new RegExp("[" + Array.from(FOLD.keys()).join("") + "]", "g");

  /** Remove the diacritics of Latin letters; other scripts stay as they are. */
  function fold(text) {
    return text.replace(FOLDED, (ch) => FOLD.get(ch));
  }

  // --- Snowball Russian (russian.sbl) ---------------------------------------------

  const RU_VOWEL = letters("аеиоуыэюя");

  // In each table, an ending of group 1 must follow а or я (which stays); one of group 2 goes as it is.
  const RU_PERFECTIVE_GERUND = new Among([
    [1, "в вши вшись"],
    [2, "ив ивши ившись ыв ывши ывшись"],
  ]);
  const RU_ADJECTIVE = new Among([
    [2, "ее ие ые ое ими ыми ей ий ый ой ем им ым ом его ого ему ому их ых ую юю ая яя ою ею"],
  ]);
  const RU_PARTICIPLE = new Among([
    [1, "ем нн вш ющ щ"],
    [2, "ивш ывш ующ"],
  ]);
  const RU_REFLEXIVE = new Among([[2, "ся сь"]]);
  const RU_VERB = new Among([
    [1, "ла на ете йте ли й л ем н ло но ет ют ны ть ешь нно"],
    [2, "ила ыла ена ейте уйте ите или ыли ей уй ил ыл им ым ен ило ыло ено ят ует уют ит ыт ены ить ыть ишь ую ю"],
  ]);
  const RU_NOUN = new Among([
    [2, "а ев ов ие ье е иями ями ами еи ии и ией ей ой ий й иям ям ием ем ам ом о у ах иях ях ы ь ию ью ю ия ья я"],
  ]);
  const RU_DERIVATIONAL = new Among([[2, "ост ость"]]);
  const RU_TIDY_UP = new Among([
    [1, "ейш ейше"], // superlative, then -нн → -н
    [2, "н"], // -нн → -н
    [3, "ь"],
  ]);

  function russian(word) {
    let w = word.replace(/ё/g, "е");
    // mark_regions: RV after the first vowel, R2 as usual
    const afterVowel = past(w, 0, RU_VOWEL);
    const pV = afterVowel < 0 ? w.length : afterVowel;
    const p2 = region(w, region(w, 0, RU_VOWEL), RU_VOWEL);

    // Everything below looks at RV only (setlimit tomark pV).
    // One of a group's endings, if it stands in RV (and after а/я in RV for group 1).
    const ending = (table) => {
      const s = table.find(w, pV);
      if (s === null) return null;
      if (table.value(s) === 1) {
        const before = w.length - s.length - 1;
        if (before < pV || (w[before] !== "а" && w[before] !== "я")) return null;
      }
      return s;
    };

    let s = ending(RU_PERFECTIVE_GERUND);
    if (s !== null) {
      w = cut(w, s.length);
    } else {
      s = RU_REFLEXIVE.find(w, pV);
      if (s !== null) w = cut(w, s.length);
      s = RU_ADJECTIVE.find(w, pV);
      if (s !== null) {
        // adjectival: an adjective ending, then perhaps a participle suffix
        w = cut(w, s.length);
        s = ending(RU_PARTICIPLE);
        if (s !== null) w = cut(w, s.length);
      } else {
        s = ending(RU_VERB);
        if (s === null) s = RU_NOUN.find(w, pV);
        if (s !== null) w = cut(w, s.length);
      }
    }
    if (w.length - 1 >= pV && w.endsWith("и")) w = cut(w, 1);

    // derivational: -ост(ь) in R2
    s = RU_DERIVATIONAL.find(w, pV);
    if (s !== null && w.length - s.length >= p2) w = cut(w, s.length);

    // tidy_up
    s = RU_TIDY_UP.find(w, pV);
    const action = s === null ? 0 : RU_TIDY_UP.value(s);
    if (action === 1 || action === 3) w = cut(w, s.length);
    if ((action === 1 || action === 2) && w.length - 2 >= pV && w.endsWith("нн")) w = cut(w, 1);
    return w;
  }

  // --- Snowball English (english.sbl, the Porter2 stemmer as revised in Snowball 3) ---

  const EN_VOWEL = letters("aeiouy");
  const EN_VOWEL_WXY = letters("aeiouywxY");
  const EN_AEO = letters("aeo");
  const EN_VALID_LI = letters("cdeghkmnrt");

  // exception1: whole words with their own stem
  const EN_EXCEPTIONS = new Map([
    ["skis", "ski"], ["skies", "sky"],
    ["idly", "idl"], ["gently", "gentl"], ["ugly", "ugli"], ["early", "earli"], ["only", "onli"], ["singly", "singl"],
    ["sky", "sky"], ["news", "news"], ["howe", "howe"], ["atlas", "atlas"], ["cosmos", "cosmos"], ["bias", "bias"], ["andes", "andes"],
  ]);
  // mark_regions: words starting so have R1 right after the prefix
  const EN_R1_PREFIXES = ["gener", "commun", "arsen", "past", "univers", "later", "emerg", "organ", "inter"];

  const EN_STEP_1A = new Among([["sses", "sses"], ["ies", "ied ies"], ["s", "s"], ["keep", "us ss"]]);
  const EN_STEP_1B = new Among([["eed", "eed eedly"], ["ed", "ed edly ingly"], ["ing", "ing"], ["keep", ""]]);
  const EN_ING_STEMS = new Map([["y", "y"], ...["inn", "out", "cann", "herr", "earr", "even"].map((s) => [s, "keep"])]);
  const EN_STEP_1B_END = new Among([["e", "at bl iz"], ["double", "bb dd ff gg mm nn pp rr tt"], ["short", ""]]);
  const EN_STEP_2 = new Among([
    ["tion", "tional"], ["ence", "enci"], ["ance", "anci"], ["able", "abli"], ["ent", "entli"],
    ["ize", "izer ization"], ["ate", "ational ation ator"], ["al", "alism aliti alli"], ["ful", "fulness"],
    ["ous", "ousli ousness"], ["ive", "iveness iviti"], ["ble", "biliti bli"], ["og", "ogist"],
    ["og after l", "ogi"], ["ful", "fulli"], ["less", "lessli"], ["delete after valid_LI", "li"],
  ]);
  const EN_STEP_3 = new Among([
    ["tion", "tional"], ["ate", "ational"], ["al", "alize"], ["ic", "icate iciti ical"], ["", "ful ness"], ["delete in R2", "ative"],
  ]);
  const EN_STEP_4 = new Among([
    ["", "al ance ence er ic able ible ant ement ment ent ism ate iti ous ive ize"], ["ion", "ion"],
  ]);

  /** shortv: does w[0:c] end in a short syllable? */
  function enShort(w, c) {
    return (
      (c >= 3 && !EN_VOWEL_WXY(w[c - 1]) && EN_VOWEL(w[c - 2]) && !EN_VOWEL(w[c - 3])) ||
      (c === 2 && !EN_VOWEL(w[1]) && EN_VOWEL(w[0])) ||
      w.slice(0, c).endsWith("past")
    );
  }

  function english(word) {
    const exception = EN_EXCEPTIONS.get(word);
    if (exception !== undefined) return exception;
    if (word.length < 3) return word;

    // prelude: a leading apostrophe goes; y at the start or after a vowel is a consonant (Y)
    let w = word[0] === "'" ? word.slice(1) : word;
    let yFound = false;
    if (w[0] === "y") {
      w = "Y" + w.slice(1);
      yFound = true;
    }
    for (let i = 0; i + 1 < w.length; i++) {
      if (EN_VOWEL(w[i]) && w[i + 1] === "y") {
        w = w.slice(0, i + 1) + "Y" + w.slice(i + 2);
        yFound = true;
      }
    }

    // mark_regions
    const prefix = EN_R1_PREFIXES.find((p) => w.startsWith(p));
    const p1 = prefix ? prefix.length : region(w, 0, EN_VOWEL);
    const p2 = region(w, p1, EN_VOWEL);

    w = enStep1a(w);
    w = enStep1b(w, p1);
    // Step_1c: y after a consonant (not the first letter) → i
    const n = w.length;
    if (n >= 3 && (w[n - 1] === "y" || w[n - 1] === "Y") && !EN_VOWEL(w[n - 2])) w = cut(w, 1) + "i";
    w = enStep2(w, p1);
    w = enStep3(w, p1, p2);
    w = enStep4(w, p2);
    w = enStep5(w, p1, p2);

    return yFound ? w.replace(/Y/g, "y") : w;
  }

  function enStep1a(w) {
    for (const possessive of ["'s'", "'s", "'"]) {
      if (w.endsWith(possessive)) {
        w = cut(w, possessive.length);
        break;
      }
    }
    const s = EN_STEP_1A.find(w, 0);
    if (s === null) return w;
    const start = w.length - s.length;
    switch (EN_STEP_1A.value(s)) {
      case "sses":
        return cut(w, 2);
      case "ies":
        return w.slice(0, start) + (start >= 2 ? "i" : "ie");
      case "s": // if a vowel comes before the letter before the s
        return start > 0 && past(w.slice(0, start - 1), 0, EN_VOWEL) >= 0 ? cut(w, 1) : w;
      default:
        return w;
    }
  }

  function enStep1b(w, p1) {
    const s = EN_STEP_1B.find(w, 0);
    const start = w.length - s.length;
    const stem = w.slice(0, start);
    switch (EN_STEP_1B.value(s)) {
      case "keep":
        return w;
      case "eed": // -eed(ly) → -ee in R1, except proceed, exceed, succeed
        if (start < p1 || stem === "proc" || stem === "exc" || stem === "succ") return w;
        return stem + "ee";
      case "ing": {
        let longest = null; // the longest of EN_ING_STEMS the stem ends with
        for (const [end, what] of EN_ING_STEMS) {
          if (stem.endsWith(end) && (longest === null || end.length > longest[0].length)) longest = [end, what];
        }
        if (longest !== null && longest[1] === "y") {
          // dying → die, lying → lie: a consonant and y are the whole stem
          if (stem.length === 2 && !EN_VOWEL(stem[0])) return stem[0] + "ie";
        } else if (longest !== null) {
          // inning, outing, canning, herring, earring, evening stay
          if (stem === longest[0]) return w;
        }
        break;
      }
    }
    // -ed, -edly, -ing, -ingly go when a vowel comes before them
    if (past(stem, 0, EN_VOWEL) < 0) return w;
    w = stem;
    const end = EN_STEP_1B_END.find(w, 0);
    switch (EN_STEP_1B_END.value(end)) {
      case "e":
        return w + "e";
      case "double": // hopp(ing) → hop, but add(ed), ebb(ed), odd stay
        return w.length === 3 && EN_AEO(w[0]) ? w : cut(w, 1);
      default: // a short word: hop(ing) → hope
        return p1 === w.length && enShort(w, w.length) ? w + "e" : w;
    }
  }

  function enStep2(w, p1) {
    const s = EN_STEP_2.find(w, 0);
    if (s === null) return w;
    const start = w.length - s.length;
    if (start < p1) return w;
    const to = EN_STEP_2.value(s);
    if (to === "og after l") return w[start - 1] === "l" ? w.slice(0, start) + "og" : w;
    if (to === "delete after valid_LI") return EN_VALID_LI(w[start - 1]) ? w.slice(0, start) : w;
    return w.slice(0, start) + to;
  }

  function enStep3(w, p1, p2) {
    const s = EN_STEP_3.find(w, 0);
    if (s === null) return w;
    const start = w.length - s.length;
    if (start < p1) return w;
    const to = EN_STEP_3.value(s);
    if (to === "delete in R2") return start >= p2 ? w.slice(0, start) : w;
    return w.slice(0, start) + to;
  }

  function enStep4(w, p2) {
    const s = EN_STEP_4.find(w, 0);
    if (s === null) return w;
    const start = w.length - s.length;
    if (start < p2) return w;
    if (EN_STEP_4.value(s) === "ion" && w[start - 1] !== "s" && w[start - 1] !== "t") return w;
    return w.slice(0, start);
  }

  function enStep5(w, p1, p2) {
    const start = w.length - 1;
    if (w.endsWith("e")) {
      return start >= p2 || (start >= p1 && !enShort(w, start)) ? cut(w, 1) : w;
    }
    if (w.endsWith("l")) {
      return start >= p2 && w[start - 1] === "l" ? cut(w, 1) : w;
    }
    return w;
  }

  // --- Snowball Polish (polish.sbl) ------------------------------------------------

  const PL_VOWEL = letters("aąeęioóuy");
  const DELETE = 1, TO_S = 2, SZA = 3, TO_L = 4, ADJECTIVE = 5, NOUN = 6;

  const PL_CONDITIONAL = new Among([[DELETE, "by bym byś byśmy byście"]]);
  const PL_ENDINGS = new Among([
    // verbs: present, infinitive, adverbial participle, past, imperative
    [DELETE, "asz esz isz amy emy imy acie ecie icie ają eść aść ać ieć ić ąć ając ąc"],
    [DELETE, "ałem iałem iłem ałam iałam iłam am ałeś iałeś iłeś ałaś iałaś iłaś ał iał ił ała iała iła ało iało iło"],
    [DELETE, "aliśmy ieliśmy iliśmy ałyśmy iałyśmy iłyśmy aliście ieliście iliście ałyście iałyście iłyście"],
    [DELETE, "ali ieli ili ały iały iły aj ajcie cie ę"],
    [TO_S, "szę"],
    [SZA, "szą"], // in R1: goes; before it: → s
    [TO_L, "łeś łaś liśmy łyśmy liście łyście"], // one-consonant roots: byłem, byłam → był
    // adjectives and participles (then perhaps a participle or comparative suffix)
    [ADJECTIVE, "y ego iego emu iemu ym im ej iej ych ich ymi imi"],
    [DELETE, "ająca ąca iejsza sza ającą ącą iejszą ające ące iejsze sze"],
    [TO_S, "sząca szącą szące"],
    // nouns: only in R1
    [NOUN, "a o i u ia owi iowi ą ią em iem e iu ie ów om iom ami iami ach iach"],
  ]);
  const PL_SUFFIX = new Among([[DELETE, "ając ąc iejsz sz"], [TO_S, "sząc"]]);
  const PL_KRESKA = new Map([["ć", "c"], ["ń", "n"], ["ś", "s"], ["ź", "z"]]);

  function polish(word) {
    let w = word;
    const p1 = region(w, 0, PL_VOWEL);
    if (w.length >= 2) {
      // remove_endings, never into the first two letters
      let s = PL_CONDITIONAL.find(w, p1);
      if (s !== null) w = cut(w, s.length);
      s = PL_ENDINGS.find(w, 2, (value, start) => value !== NOUN || start >= p1);
      if (s !== null) {
        let c = w.length - s.length; // Snowball's cursor: where the ending started
        const stem = w.slice(0, c);
        switch (PL_ENDINGS.value(s)) {
          case TO_S:
            w = stem + "s";
            break;
          case SZA:
            w = c >= p1 ? stem : stem + "s";
            break;
          case TO_L:
            w = stem + "ł";
            break;
          case ADJECTIVE: {
            w = stem;
            const suffix = PL_SUFFIX.find(w, 2);
            if (suffix !== null) {
              c = w.length - suffix.length;
              w = w.slice(0, c) + (PL_SUFFIX.value(suffix) === TO_S ? "s" : "");
            }
            break;
          }
          default: // DELETE, NOUN
            w = stem;
        }
        // an apostrophe before the cursor goes (after a replacement the cursor is before the new letter)
        if (c - 1 >= 2 && w[c - 1] === "'") w = w.slice(0, c - 1) + w.slice(c);
        return w;
      }
    }
    // normalize_consonant: no kreska at the end (oblique cases have none), unless the word is one letter
    const last = PL_KRESKA.get(w[w.length - 1]);
    return last !== undefined && w.length >= 2 ? cut(w, 1) + last : w;
  }

  // --- Czech: analysis.cs_stem ------------------------------------------------------

  const CS_CASE_SUFFIXES = [
    [7, ["atech"]],
    [6, ["etem", "atum"]],
    [5, ["ech", "ich", "eho", "emi", "emu", "ete", "eti", "iho", "imi", "imu", "ach", "ata", "aty", "ych", "ama", "ami", "ove", "ovi", "ymi"]],
    [4, ["em", "es", "im", "um", "at", "it", "am", "os", "us", "ym", "mi", "ou"]],
  ];
  const CS_VOWEL = letters("aeiouy");

  /** Light Czech stemmer on the folded word (Dolamic & Savoy's, as in Lucene, plus verbal nouns). */
  function czech(word) {
    let s = fold(word);
    const n = s.length;
    let caseEnding = false;
    for (const [minLength, suffixes] of CS_CASE_SUFFIXES) {
      const suffix = n > minLength ? suffixes.find((x) => s.endsWith(x)) : undefined;
      if (suffix !== undefined) {
        s = cut(s, suffix.length);
        caseEnding = true;
        break;
      }
    }
    if (!caseEnding && n > 3 && CS_VOWEL(s[n - 1])) s = cut(s, 1);
    if (s.length > 5 && ["ov", "in", "uv"].some((x) => s.endsWith(x))) s = cut(s, 2);
    else if (s.length > 5 && (s.endsWith("an") || s.endsWith("en"))) s = cut(s, 2); // sesílání, seslán, ovlivněn
    if (!s) return s;
    if (s.endsWith("ct")) return cut(s, 2) + "ck";
    if (s.endsWith("st")) return cut(s, 2) + "sk";
    const last = s[s.length - 1];
    if (last === "c") return cut(s, 1) + "k";
    if (last === "z") return cut(s, 1) + "h";
    if (s.length > 1 && s[s.length - 2] === "e") return cut(s, 2) + last;
    return s;
  }

  const api = Object.freeze({
    russian: byCodePoint(russian),
    english: byCodePoint(english),
    polish: byCodePoint(polish),
    czech: byCodePoint(czech),
    fold: fold,
  });
  root.PravilaStemmers = api;
  if (typeof module === "object" && module.exports) module.exports = api;
})(typeof self !== "undefined" ? self : globalThis);
