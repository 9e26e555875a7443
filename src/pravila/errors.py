"""One error path: every error Pravila raises for people derives from :class:`PravilaError`.

Library code raises them with a message that names the file, the entry or
the setting; only the CLI turns them into one line and a non-zero exit
(the server into a 4xx/503 JSON answer).
"""

from __future__ import annotations


class PravilaError(Exception):
    """An error with a message for the person who ran Pravila (no traceback needed)."""


class ProjectError(PravilaError):
    """The project cannot be used: no project found, a bad ``pravila.toml``, an unknown language."""


class ContentError(PravilaError):
    """Content that cannot be used; ``problems`` says where and why (``FILE:LINE: ID: message``)."""

    def __init__(self, problems: list, summary: str | None = None):
        self.problems = problems
        super().__init__(summary or "\n".join(str(p) for p in problems))


class BuildError(PravilaError):
    """The site or the index could not be built or written."""


class QueryError(PravilaError, ValueError):
    """Input that cannot be searched; the message is for the person who typed it."""


class IndexUnavailable(PravilaError):
    """There is no index to search (not built yet, unreadable, or written by another layout)."""
