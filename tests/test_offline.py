"""What a build writes so the site installs and works offline (``pravila.offline``).

The browser side (caching, offline search, the update after a rebuild,
Chromium's installability check) is in ``test_search_browser.py``.
"""

from __future__ import annotations

import json
import re

import pytest

from pravila.offline import precache, web_manifest

LANGS = ("ru", "cs")


@pytest.mark.parametrize("lang", LANGS)
def test_each_language_site_is_an_installable_app_of_its_own(built_project, lang):
    site = built_project.site_dir / lang
    manifest = json.loads((site / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest == web_manifest(built_project, lang)
    assert manifest["start_url"] == manifest["scope"] == "./" and manifest["display"] == "standalone"
    assert manifest["name"] and manifest["lang"] == lang
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes and all((site / icon["src"]).is_file() for icon in manifest["icons"])
    page = (site / "combat" if lang == "ru" else site / "spellcasting") / "index.html"
    assert '<link rel="manifest" href="../manifest.webmanifest">' in page.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGS)
def test_the_service_worker_keeps_every_page_asset_and_search_file_of_its_site(built_project, lang):
    site = built_project.site_dir / lang
    files = precache(site)
    urls = [url for url, _ in files]
    pages = [p.parent.relative_to(site).as_posix() + "/" for p in site.rglob("index.html")]
    assert {"./" if p == "./" else p for p in pages} <= set(urls) | {"./"} and "./" in urls
    assert not [u for u in urls if u.endswith("index.html")]  # pages under their folder's URL, as readers ask
    search_files = (p for p in (site / "assets/pravila/search").iterdir() if not p.name.endswith((".gz", ".br")))
    assert {f"assets/pravila/search/{p.name}" for p in search_files} <= set(urls)  # not the server's compressed copies
    assert "offline.html" in urls and "manifest.webmanifest" in urls
    assert not [u for u in urls if u == "sw.js" or u.endswith((".map", ".gz")) or "/lunr/" in u or "/workers/" in u]
    worker = (site / "sw.js").read_text(encoding="utf-8")
    settings = json.loads(re.search(r"const SETTINGS = (\{.*\});", worker).group(1))
    assert settings["precache"] == files and settings["offline"] == "offline.html"


def test_revisions_change_with_a_file_s_bytes_only(built_project, tmp_path):
    import shutil

    site = tmp_path / "ru"
    shutil.copytree(built_project.site_dir / "ru", site)
    before = dict(precache(site))
    page = site / "combat" / "index.html"
    page.write_text(page.read_text(encoding="utf-8") + "<!-- rebuilt -->", encoding="utf-8")
    after = dict(precache(site))
    assert [u for u in after if after[u] != before[u]] == ["combat/"]


@pytest.mark.parametrize("lang, says", [("ru", "Нет подключения"), ("cs", "Bez připojení")])
def test_offline_the_site_says_offline_in_its_language(built_project, lang, says):
    page = (built_project.site_dir / lang / "offline.html").read_text(encoding="utf-8")
    assert f"<h1>{says}</h1>" in page and f'lang="{lang}"' in page
    strings = json.loads((built_project.site_dir / lang / "assets/pravila/search/index.json").read_text(encoding="utf-8"))["strings"]
    assert says.split()[0] in strings["search_offline"]
    assert "%(version)s" in strings["version"] and strings["built_date"]
