"""A rule page's first load in Chromium: bytes transferred before the load event, and what they are.

    .venv/bin/python benchmarks/first_load.py [--build-dir DIR] [--url http://127.0.0.1:PORT]
        [--page /ru/combat/movement/] [--serve-arg=--some-flag ...]

It builds the site into a temporary folder (or takes ``--build-dir``),
starts ``pravila serve`` on a free port as ``serving.py`` does (or uses
``--url``), and opens the page in headless Debian Chromium with an empty
cache: the Resource Timing API gives every response's ``transferSize``
(headers and body as they came over the wire, compressed or not) and when
it ended.  It prints the total before the load event, each resource, what
came after it, and a second visit (a reload: what revalidating costs).

A benchmark, not a test: it prints figures, it asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from serving import HOST, build_site, free_port, start_pravila_serve

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run",
        "--disable-dev-shm-usage"]
MEASURE = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const load = nav.loadEventEnd || performance.now();
  const rows = [[nav.name, nav.transferSize, nav.decodedBodySize, nav.responseEnd]];
  for (const r of performance.getEntriesByType('resource')) rows.push([r.name, r.transferSize, r.decodedBodySize, r.responseEnd]);
  return {load, rows};
}"""


def visit(browser, url: str, reload: bool = False) -> dict:
    context = browser.new_context(locale="ru-RU")
    page = context.new_page()
    try:
        page.goto(url, wait_until="load")
        if reload:
            page.wait_for_timeout(1500)  # the search box's worker and the sitemap come after the load event
            page.reload(wait_until="load")
        page.wait_for_timeout(1500)
        return page.evaluate(MEASURE)
    finally:
        context.close()


def report(title: str, data: dict, base: str) -> None:
    load = data["load"]
    before = [r for r in data["rows"] if r[3] <= load]
    after = [r for r in data["rows"] if r[3] > load]
    total = sum(r[1] for r in before)
    print(f"\n{title}: {total / 1024:.1f} KB transferred before the load event "
          f"({sum(r[2] for r in before) / 1024:.0f} KB once decoded), {len(before)} responses")
    for name, transferred, decoded, _ in sorted(before, key=lambda r: -r[1]):
        print(f"  {transferred / 1024:8.1f} KB  {decoded / 1024:8.1f} KB decoded  {name.removeprefix(base)[:90]}")
    if after:
        print(f"  after the load event: {sum(r[1] for r in after) / 1024:.1f} KB in {len(after)} responses "
              f"({', '.join(r[0].removeprefix(base).split('?')[0] for r in after)[:200]})")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", type=Path)
    parser.add_argument("--url", help="A running server (default: start pravila serve).")
    parser.add_argument("--page", default="/ru/combat/movement/")
    parser.add_argument("--serve-arg", action="append", default=[], metavar="ARG")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="pravila-first-load-") as tmp_name:
        tmp = Path(tmp_name)
        server = None
        if args.url:
            base = args.url.rstrip("/")
        else:
            build_dir = args.build_dir
            if build_dir is None:
                build_dir = tmp / "build"
                build_site(build_dir)
            port = free_port()
            server = start_pravila_serve(build_dir, port, args.serve_arg, tmp / "serve.log")
            base = f"http://{HOST}:{port}"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
                try:
                    report(f"First visit to {args.page}", visit(browser, base + args.page), base)
                    report("The same page reloaded (a second visit)", visit(browser, base + args.page, reload=True), base)
                finally:
                    browser.close()
        finally:
            if server is not None:
                server.stop()


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
