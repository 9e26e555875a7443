"""Pravila: a bilingual (Russian/Czech) D&D 5e rules reference.

Modules, in the order data flows through them:

- ``content``: the YAML rule entries → a validated :class:`~pravila.content.Library`
- ``markup``: the cross-reference syntax inside entry bodies
- ``fidelity``: every source sentence is in the entries, word for word
- ``urls``, ``serialize``: where an entry lives, and its one JSON form
- ``i18n``: gettext catalogs and number formatting (Babel)
- ``cli``: the ``pravila`` command
"""

__version__ = "0.1.0"
