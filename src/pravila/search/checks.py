"""Input checks shared by the CLI and the HTTP API: each raises :class:`QueryError` with a message for people.

Numbers are parsed strictly: ``"5"`` and ``"+5"`` are five; ``"--5"``,
``"5.0"``, ``"1e3"`` or ``"５"`` (a full-width digit) are not numbers here.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Sequence

from ..errors import QueryError

__all__ = ["DEFAULT_LIMIT", "MAX_LIMIT", "MAX_QUERY_CHARS", "check_lang", "check_limit", "check_query"]

MAX_QUERY_CHARS = 200
DEFAULT_LIMIT = 10
MAX_LIMIT = 50
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,9}")


def check_query(query: str | None) -> str:
    """The query, NFC-normalized, or a :class:`QueryError` saying what is wrong.

    An empty query is allowed (it finds nothing).

    >>> check_query("  Прыжок ")
    'Прыжок'
    >>> check_query("a\\x00b")
    Traceback (most recent call last):
    pravila.errors.QueryError: the query contains a NUL character
    >>> check_query("x" * 201)
    Traceback (most recent call last):
    pravila.errors.QueryError: the query is too long: 201 characters (at most 200)
    """
    if query is None:
        return ""
    if not isinstance(query, str):
        raise QueryError("the query must be text")
    if "\x00" in query:
        raise QueryError("the query contains a NUL character")
    if len(query) > MAX_QUERY_CHARS:
        raise QueryError(f"the query is too long: {len(query)} characters (at most {MAX_QUERY_CHARS})")
    try:
        query.encode("utf-8")
    except UnicodeEncodeError:
        raise QueryError("the query is not valid UTF-8 text") from None
    return unicodedata.normalize("NFC", query).strip()


def check_lang(lang: str | None, codes: Sequence[str]) -> str:
    """One of the project's language ``codes``, or ``all`` (the default).

    >>> check_lang(None, ("ru", "cs")), check_lang("cs", ("ru", "cs"))
    ('all', 'cs')
    >>> check_lang("de", ("ru", "cs"))
    Traceback (most recent call last):
    pravila.errors.QueryError: unknown language 'de' (expected ru, cs or all)
    """
    if lang is None or lang == "":
        return "all"
    if not isinstance(lang, str) or (lang != "all" and lang not in codes):
        shown = str(lang) if len(str(lang)) <= 20 else str(lang)[:20] + "…"
        raise QueryError(f"unknown language {shown!r} (expected {', '.join(codes)} or all)")
    return lang


def check_limit(limit: int | str | None) -> int:
    """A whole number of hits from 1 to ``MAX_LIMIT`` (default ``DEFAULT_LIMIT``).

    >>> check_limit(None), check_limit("5"), check_limit(" +7 ")
    (10, 5, 7)
    >>> check_limit(0)
    Traceback (most recent call last):
    pravila.errors.QueryError: limit must be between 1 and 50, not 0
    >>> check_limit("--5")
    Traceback (most recent call last):
    pravila.errors.QueryError: limit must be a whole number between 1 and 50
    """
    if limit is None or limit == "":
        return DEFAULT_LIMIT
    if isinstance(limit, str):
        text = limit.strip()
        if not _WHOLE_NUMBER.fullmatch(text):
            raise QueryError(f"limit must be a whole number between 1 and {MAX_LIMIT}")
        limit = int(text)
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise QueryError(f"limit must be a whole number between 1 and {MAX_LIMIT}")
    if not 1 <= limit <= MAX_LIMIT:
        raise QueryError(f"limit must be between 1 and {MAX_LIMIT}, not {limit}")
    return limit
