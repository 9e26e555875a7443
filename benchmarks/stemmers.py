"""Stemmer speed in the browser, measured: stemmers.js in headless Chromium.

    .venv/bin/python benchmarks/stemmers.py [--rounds 15]

For each algorithm: the time to stem 10 000 words with stemmers.js in a
page of Debian's Chromium — the first pass (cold: the engine has not
optimised the code yet), the median and the fastest of ``--rounds`` warm
passes — next
to Python's (PyStemmer / ``cs_stem`` / ``fold`` without their caches).  The
words are the vectors' (tests/vectors/stemmers.json), repeated to 10 000.
Also the size of stemmers.js, raw and gzipped.

A benchmark, not a test: it prints figures, it asserts nothing.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import time
from pathlib import Path

from pravila import analysis

REPO_DIR = Path(__file__).resolve().parents[1]
VECTORS_FILE = REPO_DIR / "tests" / "vectors" / "stemmers.json"
STEMMERS_JS = Path(analysis.__file__).parent / "static" / "stemmers.js"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-dev-shm-usage"]
WORDS = 10_000

TIME_ALL = """([words, rounds]) => {
  const out = {};
  for (const [algorithm, list] of Object.entries(words)) {
    const stem = self.PravilaStemmers[algorithm];
    const times = [];
    for (let r = 0; r <= rounds; r++) {
      const t0 = performance.now();
      for (const w of list) stem(w);
      times.push(performance.now() - t0);
    }
    out[algorithm] = times;
  }
  return out;
}"""


def python_stemmers():
    import Stemmer

    return {
        "russian": Stemmer.Stemmer("russian").stemWord,
        "english": Stemmer.Stemmer("english").stemWord,
        "czech": analysis.czech_light,
        "polish": Stemmer.Stemmer("polish").stemWord,
        "fold": analysis.fold,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="warm passes after the first")
    args = parser.parse_args()

    source = STEMMERS_JS.read_bytes()
    print(f"stemmers.js: {len(source):,} bytes raw, {len(gzip.compress(source, 9)):,} bytes gzipped")

    vectors = json.loads(VECTORS_FILE.read_text(encoding="utf-8"))
    words = {}
    for algorithm, parts in vectors.items():
        pool = [w for part in parts.values() for w, _ in part]
        words[algorithm] = (pool * (WORDS // len(pool) + 1))[:WORDS]

    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page()
        page.set_content("<!doctype html><meta charset='utf-8'>")
        page.add_script_tag(content=source.decode("utf-8"))
        version = browser.version
        times = page.evaluate(TIME_ALL, [words, args.rounds])
        browser.close()

    print(f"ms per {WORDS:,} words — Chromium {version}: first pass / median / fastest of {args.rounds} warm passes; "
          "Python without caches, median")
    stems = python_stemmers()
    for algorithm, runs in times.items():
        py = []
        for _ in range(args.rounds):
            t0 = time.perf_counter()
            for w in words[algorithm]:
                stems[algorithm](w)
            py.append((time.perf_counter() - t0) * 1000)
        print(f"  {algorithm:8} JS {runs[0]:6.1f} / {statistics.median(runs[1:]):5.1f} / {min(runs[1:]):5.1f}    "
              f"Python {statistics.median(py):5.1f}")


if __name__ == "__main__":
    main()
