"""The catalogs: the compiled ones that ship in the package are those of the sources in locales/."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import LOCALES_DIR, ROOT
from pravila.i18n import Catalogs, compile_po, shipped_locales

SOURCES = sorted(LOCALES_DIR.glob("*/LC_MESSAGES/*.po"))


def test_every_catalog_source_is_compiled_into_the_package():
    assert SOURCES, "no catalogs under locales/"
    shipped = {str(p.relative_to(ROOT / "src" / "pravila" / "locales")) for p in (ROOT / "src" / "pravila" / "locales").rglob("*.mo")}
    wanted = {str(po.relative_to(LOCALES_DIR).with_suffix(".mo")) for po in SOURCES}
    assert shipped == wanted


@pytest.mark.parametrize("po", SOURCES, ids=[str(p.relative_to(LOCALES_DIR)) for p in SOURCES])
def test_the_shipped_catalog_is_current(po: Path):
    lang, domain = po.parts[-3], po.stem
    mo = shipped_locales().joinpath(lang, "LC_MESSAGES", f"{domain}.mo")
    assert mo.read_bytes() == compile_po(po, lang, domain), f"{mo} is older than {po}: run 'make locales'"


def test_without_the_project_s_locales_the_shipped_catalogs_answer():
    catalogs = Catalogs(None)
    assert catalogs.gettext("cs", "See also") == "Viz také"
    assert catalogs.gettext("ru", "See also") == "См. также"
    assert catalogs.gettext("pl", "See also") == "See also"  # no catalog: English
    assert not catalogs.has("pl") and catalogs.has("ru")


def test_a_project_catalog_wins_over_the_shipped_one(tmp_path: Path):
    folder = tmp_path / "cs" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "messages.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "See also"\nmsgstr "Také viz"\n',
        encoding="utf-8",
    )
    catalogs = Catalogs(tmp_path)
    assert catalogs.gettext("cs", "See also") == "Také viz"
    assert catalogs.gettext("ru", "See also") == "См. также"
