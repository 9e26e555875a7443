"""The site kept on the reader's device: a web app manifest, a service worker and an offline page per language.

``pravila build`` writes, at the root of every language site (a service
worker controls only the URLs under its own folder, so each language site
has its own):

- ``manifest.webmanifest``: the site as an installable app (name, icons,
  ``start_url``, ``display``), linked from every page (``overrides/main.html``);
- ``sw.js`` (``templates/sw.js``): after a page has loaded
  (``static/search-box.js`` registers it) it puts the whole language site into
  a cache — pages, assets, the search data of every language — and answers
  from there, so the site and its search work offline and as fast on a poor
  connection.  The precache list names each file with a revision (a hash of
  its bytes): after a rebuild the browser installs the new ``sw.js`` on the
  next visit and downloads only the files that changed;
- ``offline.html``: what an address of the site that is not on the device
  shows offline.

Left out of the cache: what the site does not use any more (Material's
lunr search: its worker and language files) and source maps.

All URLs are relative to the language site's root, so the site works under
any path (``site_url = "https://example.org/rules/"``).
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel.dates import format_date

from .compress import ENCODINGS
from .render import Templates, Translator, render_template

if TYPE_CHECKING:
    from .project import Project

__all__ = ["MANIFEST", "OFFLINE_PAGE", "SERVICE_WORKER", "precache", "site_strings", "write_offline"]

MANIFEST = "manifest.webmanifest"
SERVICE_WORKER = "sw.js"
OFFLINE_PAGE = "offline.html"
THEME_COLOR = "#8e2a23"  # the favicon's red
ICONS = (("assets/pravila/icon-192.png", "192x192", "image/png"), ("assets/pravila/icon-512.png", "512x512", "image/png"),
         ("assets/pravila/favicon.svg", "any", "image/svg+xml"))
# Not cached: Material's own search (replaced by ours), source maps, the compressed sitemap.
SKIPPED_DIRS = ("assets/javascripts/lunr/", "assets/javascripts/workers/")
SKIPPED_SUFFIXES = (".map", *ENCODINGS)  # source maps; the server's compressed copies (it negotiates encodings)


def site_strings(project: "Project", lang: str, built: datetime) -> dict[str, str]:
    """What the search box and the footer say, in the site's language (the search manifest carries them)."""
    t = Translator(project.catalogs, lang)
    return {
        "search_offline": t._("No connection: the search could not load its data. Open the site once online and it "
                              "searches offline too."),
        "search_error": t._("The search failed. Reload the page and try again."),
        "search_unavailable": t._("This language is searched by the site's server, and this copy of the site has none."),
        "version": t._("Content version %(version)s, built %(date)s"),
        "built_date": format_date(built, format="long", locale=project.language(lang).locale),
    }


def web_manifest(project: "Project", lang: str) -> dict[str, Any]:
    """The web app manifest of one language site (URLs relative to it)."""
    t = Translator(project.catalogs, lang)
    return {
        "id": "./",
        "name": t._("Pravila"),
        "short_name": t._("Pravila"),
        "description": t._("Pravila · an unofficial reference to the rules of Dungeons & Dragons 5e"),
        "lang": lang,
        "dir": "ltr",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOR,
        "icons": [{"src": src, "sizes": sizes, "type": kind, "purpose": "any" if kind.endswith("svg+xml") else "any maskable"}
                  for src, sizes, kind in ICONS],
    }


def precache(site: Path) -> list[list[str]]:
    """``[url, revision]`` of every file of a language site the service worker keeps, in order.

    A page (``…/index.html``) is cached under its folder's URL, as readers ask for it.
    """
    out = []
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        rel = path.relative_to(site).as_posix()
        if rel == SERVICE_WORKER or rel.startswith(SKIPPED_DIRS) or rel.endswith(SKIPPED_SUFFIXES):
            continue
        url = rel[: -len("index.html")] or "./" if rel == "index.html" or rel.endswith("/index.html") else rel
        out.append([url, hashlib.sha256(path.read_bytes()).hexdigest()[:16]])
    return out


def write_offline(project: "Project", site_dir: Path) -> dict[str, int]:
    """Write each language site's manifest, offline page and service worker; the number of files each caches."""
    counts = {}
    for code in project.codes:
        site = site_dir / code
        if not site.is_dir():
            continue
        templates = Templates(project.catalogs, code)
        (site / MANIFEST).write_text(json.dumps(web_manifest(project, code), ensure_ascii=False, indent=1), encoding="utf-8")
        page = templates.render(OFFLINE_PAGE, site_name=Translator(project.catalogs, code)._("Pravila"), home="./")
        (site / OFFLINE_PAGE).write_text(str(page), encoding="utf-8")
        files = precache(site)
        version = hashlib.sha256(json.dumps(files).encode("utf-8")).hexdigest()[:12]
        settings = {"version": version, "precache": files, "offline": OFFLINE_PAGE}
        (site / SERVICE_WORKER).write_text(str(render_template(SERVICE_WORKER, settings=settings)), encoding="utf-8")
        counts[code] = len(files)
    return counts
