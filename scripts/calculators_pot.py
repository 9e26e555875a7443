"""Write the calculators' message template (locales/calculators.pot).

The calculators' strings live in tables (``pravila.answers``: answer
templates, labels, errors, rule names) that the widgets also receive, so
``pybabel extract`` cannot see them as ``_()`` calls; this asks the tables
and writes the template with Babel, for ``pybabel update -D calculators``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from pravila.answers import LABELS, RULE_NAMES, TEMPLATES
from pravila.calculators import ERRORS


def main(out: str) -> int:
    catalog = Catalog(project="Pravila", version="0.1.0", domain="calculators")
    # Each message carries its key (the comment translators see above it).
    keyed = [*TEMPLATES.items(), *LABELS.items(), *((f"error.{c}", m) for c, m in ERRORS.items()),
             *((f"rule.{k}", n) for k, n in RULE_NAMES.items())]
    for key, msgid in keyed:
        flags = ["python-brace-format"] if "{" in msgid else []
        if msgid in catalog:
            catalog[msgid].auto_comments.append(key)
        else:
            catalog.add(msgid, auto_comments=[key], flags=flags)
    with Path(out).open("wb") as f:
        write_po(f, catalog, sort_output=True, omit_header=False)
    print(f"{len(catalog)} messages written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "locales/calculators.pot"))
