"""UI strings and numbers in the reader's language, through Babel.

Catalogs live in ``locales/<lang>/LC_MESSAGES/<domain>.po`` (source strings
in English).  ``make locales`` runs ``pybabel extract/update/compile``; when a
compiled ``.mo`` is missing (a fresh clone), the ``.po`` is compiled in memory
so nothing generated has to be committed.

Domains: ``messages`` (site and CLI text), ``calculators`` (calculator labels
and answers, shared with the JavaScript widgets).
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from .paths import LOCALES_DIR


@lru_cache(maxsize=None)
def translations(lang: str, domain: str = "messages") -> NullTranslations:
    """The gettext translations of one language and domain (English when missing)."""
    folder = LOCALES_DIR / lang / "LC_MESSAGES"
    po, mo = folder / f"{domain}.po", folder / f"{domain}.mo"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return Translations(f, domain=domain)
    if po.is_file():
        with po.open("rb") as f:
            catalog = read_po(f, locale=lang, domain=domain)
        buf = io.BytesIO()
        write_mo(buf, catalog)
        buf.seek(0)
        return Translations(buf, domain=domain)
    return NullTranslations()


def gettext(lang: str, message: str, domain: str = "messages") -> str:
    return translations(lang, domain).gettext(message)


def ngettext(lang: str, singular: str, plural: str, n: int, domain: str = "messages") -> str:
    return translations(lang, domain).ngettext(singular, plural, n)
