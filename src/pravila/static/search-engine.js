/*
 * Pravila search engine: the Python searcher's twin, for the browser.
 *
 * Python is the reference; this file follows it function by function and
 * names the function it follows:
 *
 *   analysis    pravila.analysis   words, stopwords, keys of a query word, names
 *   derivation  pravila.derivation root (the rules come with the data)
 *   strategy    pravila.search.strategy   OR groups, AND-then-OR, name bonus, ties
 *   bm25f       pravila.search.bm25f      scores from postings, the same arithmetic
 *   fuzzy       pravila.search.fuzzy      keys within one or two edits (OSA, LCS)
 *   snippets    pravila.search.snippets   the window around the marked words
 *   searcher    pravila.search.searcher   Searcher.search
 *
 * It reads what `pravila build` writes (pravila.search.browser): the
 * manifest (constants, the English record, combining marks) and one data file
 * per language (postings, field lengths, idf, entries, the lemmatizer as a
 * table of word forms).  tests/vectors/search.json holds the Python searcher's
 * answers (scripts/search_vectors.py); tests/test_search_vectors.py checks
 * that this file gives the same entries in the same order in Chromium.
 *
 * Strings are compared and measured as Python does where it matters (word
 * length limits, by code point); snippet offsets are UTF-16 units, which are
 * Python's code points for the text of the rules (no letters outside the BMP).
 *
 * Works in a web worker via importScripts (after stemmers.js) and in a page:
 * self.PravilaSearch = { Engine, QueryError }.  No dependencies.
 */
(function (root) {
  "use strict";

  const STEMMERS = root.PravilaStemmers;
  const WORD_RE = /[\p{L}\p{N}]+/gu; // analysis.WORD_RE: [^\W_]+ (letters and digits, Python's isalnum)
  const ALNUM = /^[\p{L}\p{N}]$/u;

  class QueryError extends Error {}

  // --- small parts -------------------------------------------------------------------

  function cpLength(s) {
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) n++;
      else { const d = s.charCodeAt(i + 1); n++; if (d >= 0xdc00 && d <= 0xdfff) i++; }
    }
    return n;
  }

  /** s[:n] in code points. */
  function cpSlice(s, n) {
    if (s.length <= n) return s;
    let out = 0, count = 0;
    for (const ch of s) {
      if (count === n) break;
      out += ch.length;
      count++;
    }
    return s.slice(0, out);
  }

  /** Python's string order: by code point. */
  function cpCompare(a, b) {
    if (a === b) return 0;
    const x = Array.from(a), y = Array.from(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return x[i].codePointAt(0) - y[i].codePointAt(0);
    }
    return x.length - y.length;
  }

  function isAscii(s) { return /^[\x00-\x7f]*$/.test(s); }

  function replaceAll(text, a, b) { return text.split(a).join(b); }

  /** A Map that forgets everything once it holds `size` entries (the Python caches' bound). */
  class Memo {
    constructor(size) { this.size = size; this.map = new Map(); }
    get(key, make) {
      let v = this.map.get(key);
      if (v === undefined && !this.map.has(key)) {
        v = make();
        if (this.map.size >= this.size) this.map.clear();
        this.map.set(key, v);
      }
      return v;
    }
  }

  // --- analysis: pravila.analysis -------------------------------------------------------------

  /** analysis.script_of */
  function scriptOf(word) {
    for (const ch of word) {
      const o = ch.codePointAt(0);
      if (o >= 0x0400 && o <= 0x052f) return "Cyrillic";
    }
    for (const ch of word) {
      const o = ch.codePointAt(0);
      if (o < 0x80 || (o >= 0x00c0 && o <= 0x024f) || (o >= 0x1e00 && o <= 0x1eff)) continue;
      return "Other";
    }
    return "Latin";
  }

  const fold = STEMMERS.fold; // analysis.fold

  function hasDiacritics(word) { return fold(word) !== word; }

  /** One language's record (languages.Language, as pravila.search.browser.analysis_record writes it). */
  class Language {
    constructor(record, forms, params) {
      this.code = record.code;
      this.script = record.script;
      this.stemmer = STEMMERS[record.stemmer];
      if (!this.stemmer) throw new Error("no browser stemmer " + record.stemmer);
      this.letterFolds = record.letter_folds || [];
      this.stopwords = new Set(record.stopwords || []);
      this.derivation = record.derivation || null;
      this.forms = new Map(); // word → [lemma, known]
      for (const [base, known, cut, endings] of forms || []) {
        const chars = Array.from(base);
        const stem = chars.slice(0, chars.length - cut).join("");
        const entry = [base, known === 1];
        for (const ending of endings.split(" ")) this.forms.set(stem + ending, entry);
      }
      const size = params.cache_words;
      this.memo = { stem: new Memo(2 * size), lemma: new Memo(size), keys: new Memo(size), query: new Memo(size / 2) };
    }

    /** Language.fold_letters */
    foldLetters(text) {
      for (const [a, b] of this.letterFolds) text = replaceAll(replaceAll(text, a, b), a.toUpperCase(), b.toUpperCase());
      return text;
    }
  }

  class Analysis {
    constructor(manifest) {
      this.p = manifest.params;
      this.marks = new RegExp(manifest.marks, "gu");
      this.english = new Language(manifest.english, [], this.p);
      this.nameMemo = new Memo(this.p.cache_words);
    }

    /** analysis.words (the text only: query words need no offsets) */
    words(text) {
      text = text.normalize("NFC");
      if (!isAscii(text)) text = text.replace(this.marks, "");
      return (text.match(WORD_RE) || []).map((w) => w.toLowerCase());
    }

    /** analysis.is_stopword */
    isStopword(word, lang) {
      return lang.stopwords.has(fold(lang.foldLetters(word)));
    }

    /** analysis.stem */
    stem(word, lang) {
      const w = lang.foldLetters(cpSlice(word, this.p.max_word));
      return lang.memo.stem.get(w, () => lang.stemmer(w));
    }

    /** analysis.lemma: the table of forms instead of the lemmatizer; a word it lacks is its own lemma, unknown. */
    lemma(word, lang) {
      word = cpSlice(word, this.p.max_word);
      return lang.memo.lemma.get(word, () => {
        const found = lang.forms.get(word) || lang.forms.get(lang.foldLetters(word));
        return found ? found : [lang.foldLetters(word), false];
      });
    }

    own(word, lang) { return scriptOf(word) === lang.script; }

    /** analysis.loose_key */
    looseKey(word, lang) {
      if (this.own(word, lang)) return this.p.loose + this.stem(word, lang);
      return this.p.loose + STEMMERS.english(cpSlice(word, this.p.max_word));
    }

    /** analysis.name_key */
    nameKey(word) { return this.stem(word, this.english); }

    /** analysis.derived_key */
    derivedKey(base, lang) {
      if (!lang.derivation) return null;
      const found = this.root(base, lang.derivation);
      return found ? this.p.derived + found : null;
    }

    /** derivation.root */
    root(lemma, table) {
      let word = lemma.toLowerCase();
      word = table.fold === "marks" ? word.normalize("NFD").replace(this.marks, "") : replaceAll(word, "ё", "е");
      const n = cpLength(word);
      for (const [suffix, ending] of table.rules) {
        if (word.endsWith(suffix) && n - cpLength(suffix) + cpLength(ending) >= table.min_root)
          return word.slice(0, word.length - suffix.length) + ending;
      }
      return null;
    }

    /** analysis.index_keys */
    indexKeys(word, lang) {
      return lang.memo.keys.get(word, () => {
        if (!this.own(word, lang)) return unique([cpSlice(word, this.p.max_word), this.looseKey(word, lang)]);
        const base = this.lemma(word, lang)[0];
        const derived = this.derivedKey(base, lang);
        const keys = [base, this.looseKey(word, lang), this.looseKey(base, lang)];
        if (derived) keys.push(derived);
        return unique(keys);
      });
    }

    /** analysis.query_word: {word, lang, keys: [[key, weight]…], loose} */
    queryWord(word, lang) {
      return lang.memo.query.get(word, () => {
        const p = this.p;
        const loose = this.looseKey(word, lang);
        let base, known, derived = null;
        if (this.own(word, lang)) {
          [base, known] = this.lemma(word, lang);
          known = known || hasDiacritics(word);
          derived = this.derivedKey(base, lang);
        } else {
          base = cpSlice(word, p.max_word);
          known = true;
        }
        const more = derived ? [[derived, p.derived_weight]] : [];
        if (known && base !== loose)
          return { word, lang: lang.code, keys: [[base, p.exact_weight], [loose, p.loose_weight], ...more], loose };
        return { word, lang: lang.code, keys: [[loose, p.exact_weight], ...more], loose };
      });
    }

    /** analysis.query_terms */
    queryTerms(text, langs) {
      const out = [];
      const seen = new Set();
      for (const word of this.words(text)) {
        const script = scriptOf(word);
        const own = langs.filter((lang) => lang.script === script);
        if (!own.length && script !== "Latin") continue;
        if ((this.isStopword(word, this.english) && script === "Latin") || own.some((lang) => this.isStopword(word, lang))) continue;
        if (!seen.has(word)) {
          seen.add(word);
          out.push(word);
        }
        if (out.length >= this.p.max_query_words) break;
      }
      return out;
    }

    /** analysis.name_words: the key sets of a name's words */
    nameWords(name, lang) {
      return this.nameMemo.get(lang.code + "\u0000" + name, () =>
        this.queryTerms(name, [lang]).map((term) => {
          const keys = new Set(this.indexKeys(term, lang));
          if (scriptOf(term) === "Latin") keys.add(this.nameKey(term));
          return keys;
        }));
    }
  }

  function unique(list) { return Array.from(new Set(list)); }

  // --- one language's index: pravila.search.browser's data, bm25f ------------------------------------------

  class LanguageIndex {
    constructor(data, lang, params) {
      this.lang = lang;
      this.code = data.lang;
      this.offset = data.offset;
      this.docCount = data.doc_count;
      this.idf = new Map(data.idf);
      this.fields = {};
      for (const [kind, f] of Object.entries(data.fields)) {
        const terms = new Map();
        for (const [key, gaps, freqs] of f.terms) {
          const ids = new Int32Array(gaps.length);
          let doc = this.offset;
          for (let i = 0; i < gaps.length; i++) { doc += gaps[i]; ids[i] = doc; }
          terms.set(key, { ids, tfs: freqs || null, scores: null });
        }
        const average = f.total / (this.docCount || 1) || 1.0;
        this.fields[kind + "_" + this.code] = { lengths: f.lengths, average, terms };
      }
      this.docs = data.docs.map(([id, title, url, text, names], i) =>
        ({ doc: this.offset + i, id, lang: this.code, title, url, text, names }));
      this.params = params;
    }

    term(field, key) {
      const f = this.fields[field];
      return f ? f.terms.get(key) : undefined;
    }

    /** BM25F.doc_frequency */
    docFrequency(field, key) {
      const t = this.term(field, key);
      return t ? t.ids.length : 0;
    }

    /** BM25F.contributions: the documents of a term and its unboosted score in each, in numpy's order of operations. */
    contributions(field, key) {
      const t = this.term(field, key);
      if (!t) return null;
      if (!t.scores) {
        const { k1, b } = this.params;
        const f = this.fields[field];
        const idf = this.idf.get(t.ids.length);
        const scores = new Float64Array(t.ids.length);
        for (let i = 0; i < t.ids.length; i++) {
          const tf = t.tfs ? t.tfs[i] : 1;
          const length = f.lengths[t.ids[i] - this.offset];
          scores[i] = idf * ((tf * (k1 + 1)) / (tf + k1 * ((1 - b) + b * length / f.average)));
        }
        t.scores = scores;
      }
      return t;
    }
  }

  // --- fuzzy: pravila.search.fuzzy ---------------------------------------------------------------------

  /** RapidFuzz's OSA.distance: Levenshtein with a swap of two neighbours as one edit (by code point). */
  function osaDistance(a, b) {
    const n = a.length, m = b.length;
    let prev2 = null, prev = new Array(m + 1), cur = new Array(m + 1);
    for (let j = 0; j <= m; j++) prev[j] = j;
    for (let i = 1; i <= n; i++) {
      cur[0] = i;
      for (let j = 1; j <= m; j++) {
        let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
        cur[j] = d;
      }
      prev2 = prev; prev = cur; cur = new Array(m + 1);
    }
    return prev[m];
  }

  /** RapidFuzz's LCSseq.similarity: the length of the longest common subsequence. */
  function lcs(a, b) {
    const m = b.length;
    let prev = new Array(m + 1).fill(0);
    for (let i = 1; i <= a.length; i++) {
      const cur = new Array(m + 1).fill(0);
      for (let j = 1; j <= m; j++) cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
      prev = cur;
    }
    return prev[m];
  }

  /** fuzzy.max_edits */
  function maxEdits(word, p) {
    const n = cpLength(word);
    if (n < p.min_fuzzy_letters || n > p.max_fuzzy_letters) return 0;
    return n >= 8 ? 2 : 1;
  }

  /** fuzzy.Vocabulary: keys by space, filed by length (in code points, as arrays of characters). */
  class Vocabulary {
    constructor(spaces, params) {
      this.p = params;
      this.byLength = new Map();
      for (const [space, keys] of spaces) {
        const table = new Map();
        for (const key of unique(keys).sort(cpCompare)) {
          const chars = Array.from(key);
          if (!table.has(chars.length)) table.set(chars.length, []);
          table.get(chars.length).push([key, chars]);
        }
        this.byLength.set(space, table);
      }
    }

    near(space, probes, maxdist) {
      const table = this.byLength.get(space) || new Map();
      const best = new Map();
      for (const probe of probes) {
        const p = Array.from(probe);
        for (let length = Math.max(1, p.length - maxdist); length <= p.length + maxdist; length++) {
          for (const [key, chars] of table.get(length) || []) {
            const distance = osaDistance(p, chars);
            if (distance > maxdist) continue;
            const common = lcs(p, chars);
            if (p.length - common <= maxdist && chars.length - common <= (chars.length >= this.p.long_key ? 2 : 1))
              best.set(key, Math.min(distance, best.has(key) ? best.get(key) : distance));
          }
        }
      }
      if (!best.size) return [];
      const closest = Math.min(...best.values());
      return Array.from(best).filter(([, d]) => d === closest).map(([k]) => k).sort(cpCompare);
    }
  }

  // --- snippets: pravila.search.snippets --------------------------------------------------------------

  function escapeHtml(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  function insideWord(text, i) {
    return i > 0 && i < text.length && ALNUM.test(text[i - 1]) && ALNUM.test(text[i]);
  }

  /** snippets._window */
  function window_(text, hits, width) {
    if (text.length <= width) return [0, text.length];
    let lo = 0;
    if (hits.length) {
      let best = -1, anchor = hits[0][0];
      for (let i = 0; i < hits.length; i++) {
        const a = hits[i][0];
        const distinct = new Set();
        for (let j = i; j < hits.length; j++) if (hits[j][1] <= a + width) distinct.add(hits[j][2]);
        if (distinct.size > best) { best = distinct.size; anchor = a; }
      }
      lo = Math.min(Math.max(0, anchor - Math.floor(width / 4)), text.length - width);
      while (lo > 0 && lo < anchor && insideWord(text, lo)) lo++;
    }
    let end = lo + width;
    if (end >= text.length) return [lo, text.length];
    while (end > lo + Math.floor(width / 2) && insideWord(text, end)) end--;
    return [lo, end];
  }

  // --- the engine: searcher, strategy -----------------------------------------------------------------

  class Engine {
    /** manifest: search/index.json; datas: the language data files loaded (any subset of the languages). */
    constructor(manifest, datas) {
      this.manifest = manifest;
      this.p = manifest.params;
      this.analysis = new Analysis(manifest);
      this.indexes = new Map();
      for (const data of datas) this.add(data);
    }

    add(data) {
      const lang = new Language(data.analysis, data.forms, this.p);
      const index = new LanguageIndex(data, lang, this.p);
      this.indexes.set(data.lang, index);
      this.docCount = data.doc_count;
      this._vocabulary = null;
      this._docs = null;
      this._names = new Map();
      return index;
    }

    has(code) { return this.indexes.has(code); }

    doc(docnum) {
      if (!this._docs) {
        this._docs = new Map();
        for (const index of this.indexes.values()) for (const d of index.docs) this._docs.set(d.doc, d);
      }
      return this._docs.get(docnum);
    }

    indexOf(field) { return this.indexes.get(field.slice(field.lastIndexOf("_") + 1)); }

    df(field, key) {
      const index = this.indexOf(field);
      return index ? index.docFrequency(field, key) : 0;
    }

    /** checks.check_query, check_lang, check_limit: the input, or a QueryError */
    check(query, lang, limit) {
      query = query == null ? "" : String(query);
      if (query.indexOf("\u0000") >= 0) throw new QueryError("the query contains a NUL character");
      const n = cpLength(query);
      if (n > this.p.max_query_chars) throw new QueryError(`the query is too long: ${n} characters (at most ${this.p.max_query_chars})`);
      if (/[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/.test(query))
        throw new QueryError("the query is not valid UTF-8 text");
      query = query.normalize("NFC").trim();
      lang = lang == null || lang === "" ? "all" : lang;
      if (lang !== "all" && !this.manifest.order.includes(lang)) throw new QueryError(`unknown language '${lang}'`);
      limit = limit == null ? 10 : limit;
      if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw new QueryError("limit must be between 1 and 50");
      return [query, lang, limit];
    }

    /** Searcher.search: {query, lang, total, hits: [{id, lang, title, url, snippet, score}]} */
    search(query, lang, limit) {
      [query, lang, limit] = this.check(query, lang, limit);
      const langs = (lang === "all" ? this.manifest.order : [lang]).map((code) => this.indexes.get(code));
      if (langs.some((x) => !x)) throw new Error("the data of " + lang + " is not loaded");
      const words = this.analysis.queryTerms(query, langs.map((x) => x.lang));
      if (!words.length) return { query, lang, total: 0, hits: [] };
      const [groups, marks] = this.plan(words, langs);
      if (!groups.length) return { query, lang, total: 0, hits: [] };
      const [ranked, total] = this.rank(groups, limit);
      const hits = ranked.map(([docnum, score]) => {
        const d = this.doc(docnum);
        const index = this.indexes.get(d.lang);
        return {
          id: d.id, lang: d.lang, title: d.title, url: d.url,
          snippet: this.snippet(d.text, marks.get(d.lang) || new Set(), index.lang),
          score: Math.round(score * 1e4) / 1e4,
        };
      });
      return { query, lang, total, hits };
    }

    // strategy.plan
    plan(words, langs) {
      const p = this.p, a = this.analysis;
      const groups = [];
      const marks = new Map(langs.map((x) => [x.code, new Set()]));
      let fuzzyLeft = p.max_fuzzy_words;
      for (const word of words) {
        const latin = scriptOf(word) === "Latin";
        const wordLangs = langs.filter((x) => latin || x.lang.script === scriptOf(word));
        const foundExact = [], foundLoose = [];
        for (const index of wordLangs) {
          const [exact, loose] = this.wordTerms(a.queryWord(word, index.lang));
          for (const t of exact) foundExact.push([t, index.code]);
          for (const t of loose) foundLoose.push([t, index.code]);
          if (latin) {
            const term = [p.english_field + "_" + index.code, a.nameKey(word), p.field_boost[p.english_field]];
            if (this.df(term[0], term[1]) > 0) foundLoose.push([term, null]);
          }
        }
        let found = foundExact.concat(foundLoose);
        if (!found.length && fuzzyLeft && maxEdits(word, p)) {
          fuzzyLeft--;
          found = this.fuzzy(word, wordLangs, latin);
        }
        if (!found.length) continue;
        for (const [term, markLang] of found) if (markLang) marks.get(markLang).add(term[1]);
        groups.push({ word, terms: found.map(([t]) => t), keys: new Set(found.map(([t]) => t[1])) });
      }
      return [groups, marks];
    }

    // strategy.word_terms
    wordTerms(qw) {
      const p = this.p;
      const exact = [], loose = [];
      for (const name of p.text_fields) {
        for (const [key, weight] of qw.keys) {
          (key === qw.loose ? loose : exact).push([name + "_" + qw.lang, key, p.field_boost[name] * weight]);
        }
      }
      const foundExact = exact.filter((t) => this.df(t[0], t[1]) > 0);
      let foundLoose = loose.filter((t) => this.df(t[0], t[1]) > 0);
      if (!foundExact.length && qw.keys[0][0] !== qw.loose)
        foundLoose = foundLoose.map(([f, k, boost]) => [f, k, boost / p.loose_weight]);
      return [foundExact, foundLoose];
    }

    // strategy._fuzzy
    fuzzy(word, langs, latin) {
      const p = this.p, a = this.analysis;
      const maxdist = maxEdits(word, p);
      const vocabulary = this.vocabulary();
      const found = new Map();
      for (const index of langs) {
        const probes = unique([a.queryWord(word, index.lang).loose.slice(p.loose.length), fold(word)]).sort(cpCompare);
        const near = vocabulary.near(index.code, probes, maxdist);
        for (const name of p.text_fields) {
          const field = name + "_" + index.code;
          for (const key of near) {
            if (this.df(field, p.loose + key))
              found.set(field + "\u0000" + p.loose + key, [[field, p.loose + key, p.field_boost[name] * p.fuzzy_weight], index.code]);
          }
        }
        if (latin) {
          const field = p.english_field + "_" + index.code;
          for (const key of vocabulary.near(field, [a.nameKey(word)], maxdist))
            found.set(field + "\u0000" + key, [[field, key, p.field_boost[p.english_field] * p.fuzzy_weight], null]);
        }
      }
      const ranked = Array.from(found.values());
      const dfs = ranked.map(([t]) => this.df(t[0], t[1]));
      const order = ranked.map((_, i) => i).sort((i, j) => dfs[j] - dfs[i] || i - j);
      return order.slice(0, p.max_fuzzy_terms).map((i) => ranked[i]);
    }

    // strategy.vocabulary_spaces
    vocabulary() {
      if (!this._vocabulary) {
        const p = this.p;
        const spaces = [];
        for (const index of this.indexes.values()) {
          const keys = [];
          for (const name of p.text_fields) {
            for (const key of index.fields[name + "_" + index.code].terms.keys())
              if (key.startsWith(p.loose)) keys.push(key.slice(p.loose.length));
          }
          spaces.push([index.code, keys]);
          const en = p.english_field + "_" + index.code;
          spaces.push([en, Array.from(index.fields[en].terms.keys())]);
        }
        this._vocabulary = new Vocabulary(spaces, p);
      }
      return this._vocabulary;
    }

    // BM25F.group: a word's scores over all documents, and which it matched
    group(terms) {
      const score = new Float64Array(this.docCount);
      const matched = new Uint8Array(this.docCount);
      for (const [field, key, boost] of terms) {
        const t = this.indexOf(field).contributions(field, key);
        if (!t) continue;
        for (let i = 0; i < t.ids.length; i++) {
          score[t.ids[i]] += boost * t.scores[i];
          matched[t.ids[i]] = 1;
        }
      }
      return { score, matched };
    }

    // strategy.rank
    rank(groups, limit) {
      const p = this.p, n = this.docCount;
      const maps = groups.map((g) => this.group(g.terms));
      const pool = Math.max(limit, p.name_pool);
      const both = Uint8Array.from(maps[0].matched);
      for (const m of maps.slice(1)) for (let d = 0; d < n; d++) both[d] &= m.matched[d];
      const docs = [];
      for (let d = 0; d < n; d++) if (both[d]) docs.push(d);
      let total = docs.length;
      let scored = best(docs, sum(maps, docs), pool);
      if (scored.length < limit && maps.length > 1) {
        const count = new Int32Array(n);
        for (const m of maps) for (let d = 0; d < n; d++) count[d] += m.matched[d];
        const rest = [];
        total = 0;
        for (let d = 0; d < n; d++) {
          if (count[d] > 0) {
            total++;
            if (!both[d]) rest.push(d);
          }
        }
        const sums = sum(maps, rest);
        for (let i = 0; i < rest.length; i++) {
          const share = count[rest[i]] / maps.length;
          sums[i] = sums[i] * share * share;
        }
        scored = scored.concat(best(rest, sums, pool));
      }
      const boosted = scored.map(([doc, score]) => [doc, score * this.nameBonus(this.names(doc), groups)]);
      boosted.sort((x, y) => y[1] - x[1] || x[0] - y[0]);
      return [boosted.slice(0, limit), total];
    }

    names(docnum) {
      let found = this._names.get(docnum);
      if (!found) {
        const d = this.doc(docnum);
        const lang = this.indexes.get(d.lang).lang;
        found = d.names.map(([kind, text]) => [kind, this.analysis.nameWords(text, lang)]);
        if (this._names.size >= 20000) this._names.clear();
        this._names.set(docnum, found);
      }
      return found;
    }

    // strategy._name_bonus
    nameBonus(names, groups) {
      let top = 1.0;
      for (const [kind, name] of names) {
        if (name.length === groups.length && covers(name, groups)) {
          const phrase = kind === "variant" && name.length > 1 && inOrder(name, groups);
          top = Math.max(top, phrase ? this.p.phrase_bonus : this.p.name_bonus[kind]);
        }
      }
      return top;
    }

    // snippets.make_snippet
    snippet(text, keys, lang) {
      const width = this.p.snippet_chars;
      text = replaceAll(text, "\n", " ");
      if (!text) return "";
      const hits = [];
      if (keys.size) {
        for (const m of text.matchAll(WORD_RE)) {
          const word = m[0].toLowerCase();
          if (this.analysis.indexKeys(word, lang).some((k) => keys.has(k))) hits.push([m.index, m.index + m[0].length, word]);
        }
      }
      const [start, end] = window_(text, hits, width);
      const out = [start > 0 ? "…" : ""];
      let pos = start;
      for (const [a, b] of hits) {
        if (a < start || b > end) continue;
        out.push(escapeHtml(text.slice(pos, a)));
        out.push("<mark>" + escapeHtml(text.slice(a, b)) + "</mark>");
        pos = b;
      }
      out.push(escapeHtml(text.slice(pos, end)));
      if (end < text.length) out.push("…");
      return out.join("").trim();
    }
  }

  function sum(maps, docs) {
    const total = new Float64Array(docs.length);
    for (const m of maps) for (let i = 0; i < docs.length; i++) total[i] += m.score[docs[i]];
    return total;
  }

  /** strategy._best: the n best (document, score), highest score first, equal scores by document number. */
  function best(docs, scores, n) {
    const order = docs.map((_, i) => i).sort((i, j) => scores[j] - scores[i] || docs[i] - docs[j]);
    return order.slice(0, n).map((i) => [docs[i], scores[i]]);
  }

  function disjoint(keys, groupKeys) {
    for (const k of keys) if (groupKeys.has(k)) return false;
    return true;
  }

  // strategy._covers
  function covers(name, groups) {
    const free = name.slice();
    for (const g of groups) {
      const i = free.findIndex((keys) => !disjoint(keys, g.keys));
      if (i < 0) return false;
      free.splice(i, 1);
    }
    return true;
  }

  // strategy._in_order
  function inOrder(name, groups) {
    for (let i = 0; i < Math.min(name.length, groups.length); i++) if (disjoint(name[i], groups[i].keys)) return false;
    return true;
  }

  const api = Object.freeze({ Engine, QueryError, scriptOf, osaDistance, lcs });
  root.PravilaSearch = api;
  if (typeof module === "object" && module.exports) module.exports = api;
})(typeof self !== "undefined" ? self : globalThis);
