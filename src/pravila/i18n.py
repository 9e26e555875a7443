"""UI strings in the reader's language: gettext catalogs through Babel.

Catalogs have two homes, asked in this order:

1. the project's ``locales/<lang>/LC_MESSAGES/<domain>.po`` (this repository's
   ``locales/`` holds the sources of Pravila's own catalogs; a project adds
   catalogs for the languages it declares).  A ``.po`` newer than its
   ``.mo`` (or without one) is compiled in memory;
2. the compiled ``.mo`` files that ship inside the package
   (``pravila/locales/``, written by ``make locales``; a test keeps them
   equal to the ``.po`` sources), so an installed ``pravila`` speaks
   Russian and Czech in any folder.

Domains: ``messages`` (site and CLI text), ``calculators`` (calculator labels
and answers, shared with the JavaScript widgets).  Source strings are
English: a language without a catalog reads English.
"""

from __future__ import annotations

import io
from functools import lru_cache
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations


class Catalogs:
    """The translations of a project: its own ``locales/`` over the shipped ones."""

    def __init__(self, project_locales: Path | None = None):
        self.project_locales = project_locales
        self._cache: dict[tuple[str | None, str], NullTranslations] = {}

    def translations(self, lang: str | None, domain: str = "messages") -> NullTranslations:
        """The gettext translations of one language and domain (English when there are none)."""
        key = (lang, domain)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._load(lang, domain)
        return found

    def _load(self, lang: str | None, domain: str) -> NullTranslations:
        if not lang:
            return NullTranslations()
        if self.project_locales is not None:
            found = _from_folder(self.project_locales / lang / "LC_MESSAGES", lang, domain)
            if found is not None:
                return found
        mo = shipped_locales().joinpath(lang, "LC_MESSAGES", f"{domain}.mo")
        if mo.is_file():
            return Translations(io.BytesIO(mo.read_bytes()), domain=domain)
        return NullTranslations()

    def gettext(self, lang: str | None, message: str, domain: str = "messages") -> str:
        return self.translations(lang, domain).gettext(message)

    def ngettext(self, lang: str | None, singular: str, plural: str, n: int, domain: str = "messages") -> str:
        return self.translations(lang, domain).ngettext(singular, plural, n)

    def has(self, lang: str, domain: str = "messages") -> bool:
        """Whether any catalog translates ``lang`` (else the UI reads English)."""
        return not type(self.translations(lang, domain)) is NullTranslations


def _from_folder(folder: Path, lang: str, domain: str) -> Translations | None:
    po, mo = folder / f"{domain}.po", folder / f"{domain}.mo"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return Translations(f, domain=domain)
    if po.is_file():
        return Translations(io.BytesIO(compile_po(po, lang, domain)), domain=domain)
    return None


def compile_po(po: Path, lang: str, domain: str) -> bytes:
    """A ``.po`` catalog compiled to ``.mo`` bytes (what ``pybabel compile`` writes)."""
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=domain)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    return buf.getvalue()


def shipped_locales() -> Traversable:
    """The compiled catalogs inside the package."""
    return resources.files("pravila").joinpath("locales")


@lru_cache(maxsize=None)
def shipped() -> Catalogs:
    """The catalogs Pravila ships, for code that has no project (``pravila calc`` answers)."""
    return Catalogs(None)
