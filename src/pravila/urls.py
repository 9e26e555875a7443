"""Where an entry lives: now :mod:`pravila.links` (every URL and relative link).

Kept so that modules not yet re-pointed (``index``, ``serialize``,
``answers``) keep working; import from :mod:`pravila.links` instead.
"""

from __future__ import annotations

from .links import entry_url, page_path

__all__ = ["entry_url", "page_path"]
