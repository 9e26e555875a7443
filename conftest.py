"""Names every doctest may use: the registry's language records and this repository's content.

    ru, cs, en     language records (pravila.languages)
    project        this repository as a project (pravila.project)
    lib            its content, loaded (pravila.content.Library)
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).parent


@lru_cache(maxsize=None)
def _repository():
    from pravila.content import load_library
    from pravila.project import load_project

    project = load_project(ROOT, environ={})
    library, problems = load_library(project)
    assert not problems, problems[:5]
    return project, library


@pytest.fixture(autouse=True, scope="session")
def _doctest_names(doctest_namespace):
    from pravila.languages import load_registry

    registry = load_registry()
    doctest_namespace.update(ru=registry["ru"], cs=registry["cs"], en=registry["en"])
    doctest_namespace["project"], doctest_namespace["lib"] = _repository()
