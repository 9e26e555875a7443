"""Compile the catalogs' sources (locales/*/LC_MESSAGES/*.po) into the package (src/pravila/locales/).

    .venv/bin/python scripts/compile_catalogs.py

The compiled .mo files are committed: an installed pravila (a wheel, or
`pip install .`) then speaks every language it has catalogs for, in any
folder, without Babel compiling anything at install time.
tests/test_i18n.py fails when a .mo is older than its .po; `make locales`
runs this after extracting and updating the catalogs.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "locales"
TARGET = ROOT / "src" / "pravila" / "locales"


def main() -> int:
    sys.path.insert(0, str(ROOT / "src"))
    from pravila.i18n import compile_po

    count = 0
    for po in sorted(SOURCES.glob("*/LC_MESSAGES/*.po")):
        lang, domain = po.parts[-3], po.stem
        out = TARGET / lang / "LC_MESSAGES" / f"{domain}.mo"
        out.parent.mkdir(parents=True, exist_ok=True)
        data = compile_po(po, lang, domain)
        if not out.is_file() or out.read_bytes() != data:
            out.write_bytes(data)
            print(f"compiled {po.relative_to(ROOT)} → {out.relative_to(ROOT)}")
        count += 1
    print(f"{count} catalogs in {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
