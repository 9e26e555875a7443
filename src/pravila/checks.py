"""``pravila check``: every validation the build relies on, in one place.

The content's schema and links (:mod:`pravila.content`), fidelity to the
sources (:mod:`pravila.fidelity`), ids that would collide with the site's own
pages (:mod:`pravila.pages`) and the project's ``mkdocs.yml``
(:mod:`pravila.site`).  ``pravila build`` runs exactly this first and refuses
to publish content it rejects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .content import Library, Problem, load_library
from .errors import ContentError
from .fidelity import FidelityReport, fidelity_problems
from .links import path_problems
from .site import config_problems

if TYPE_CHECKING:
    from .project import Project


@dataclass(frozen=True)
class CheckResult:
    library: Library
    problems: list[Problem]
    reports: list[FidelityReport]


def check(project: "Project") -> CheckResult:
    """Load the content and find every problem (none raised: all are reported at once)."""
    library, problems = load_library(project)
    fidelity, reports = fidelity_problems(library)
    problems = problems + fidelity + path_problems(library) + config_problems(project)
    return CheckResult(library, problems, reports)


def checked_library(project: "Project") -> Library:
    """The library when ``pravila check`` finds nothing, else a :class:`ContentError` with every problem."""
    result = check(project)
    if result.problems:
        raise ContentError(result.problems, f"the content has {len(result.problems)} problem(s); run 'pravila check'")
    return result.library
