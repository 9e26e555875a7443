"""Pravila: a rules reference for D&D 5e in several languages (Russian and Czech here).

Modules, in the order data flows through them (the README's "Where things
live" has the whole table):

- ``project``, ``languages``: the configured project and its language records
- ``content``, ``terms``, ``markup``: the YAML entries and the terminology → a validated :class:`~pravila.content.Library`
- ``fidelity``, ``checks``: every source sentence word for word; everything ``pravila check`` validates
- ``links``, ``serialize``: where an entry lives, and its one JSON form
- ``pages``, ``render``, ``site``, ``build``: Markdown pages from templates, MkDocs, the build
- ``analysis``, ``search``: language analysis and the search package
- ``calculators``, ``calctables``, ``answers``, ``widgets``: the calculators
- ``server``, ``api``, ``cli``: the edges
"""

__version__ = "0.1.0"
