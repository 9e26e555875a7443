"""The project: a folder with content, configured once and passed down.

A project is a folder like an MkDocs project::

    pravila.toml        optional; every setting has a default
    mkdocs.yml          optional; extends the base MkDocs configuration Pravila ships
    content/            <lang>/*.yaml chapters, sources/, terms/
    locales/            optional; gettext catalogs for the project's own languages
    overrides/          optional; Material template overrides on top of Pravila's
    build/              what ``pravila build`` writes (site/, index/, docs/, configs)

``pravila`` finds it from the current folder upward: the nearest folder with
``pravila.toml``, else the nearest with a ``content/`` folder; or
``--project DIR``.  Each setting is resolved once, with one precedence:
command-line option > environment variable > ``pravila.toml`` > default.
The result is one :class:`Project` that every command passes down; no module
keeps paths or state of its own.

``pravila.toml``::

    content = "content"                 # PRAVILA_CONTENT, --content
    build = "build"                     # PRAVILA_BUILD_DIR, --build-dir
    site_url = "https://rules.example/" # PRAVILA_SITE_URL, --site-url
    languages = ["ru", "cs"]            # default: every registry language with a content folder
    report_url = "https://github.com/me/rules/issues/new?title={lang}:{id}"

    [language.uk]                       # declare a language the registry lacks (keys: pravila/data/languages.toml)
    name = "Українська"
    script = "Cyrillic"
    stemmer = "snowball:…"
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping
from urllib.parse import urlsplit

from .errors import ProjectError
from .languages import Language, Registry, load_registry

if TYPE_CHECKING:
    from .i18n import Catalogs

CONFIG_FILE = "pravila.toml"
KEYS = ("content", "build", "site_url", "languages", "report_url", "language")
DEFAULT_SITE_URL = "http://127.0.0.1:8000/"
ENV = {"content": "PRAVILA_CONTENT", "build": "PRAVILA_BUILD_DIR", "site_url": "PRAVILA_SITE_URL"}


@dataclass(eq=False)
class Project:
    """The resolved configuration of one project.  Treat it as read-only."""

    root: Path
    content_dir: Path
    build_dir: Path
    site_url: str
    registry: Registry
    languages: tuple[Language, ...]
    config_file: Path | None = None
    report_url: str | None = None
    origins: dict[str, str] = field(default_factory=dict)  # setting → where its value came from

    # --- languages -------------------------------------------------------------

    @property
    def codes(self) -> tuple[str, ...]:
        """The project's language codes, in order."""
        return tuple(lang.code for lang in self.languages)

    def language(self, code: str) -> Language:
        """One of the project's languages, or a :class:`ProjectError` naming them."""
        for lang in self.languages:
            if lang.code == code:
                return lang
        raise ProjectError(f"unknown language {code!r} (this project has {', '.join(self.codes)})")

    @property
    def english(self) -> Language:
        """The record that analyses English rule names (every entry has one)."""
        return self.registry.english

    # --- places ------------------------------------------------------------------

    @property
    def sources_dir(self) -> Path:
        return self.content_dir / "sources"

    @property
    def site_dir(self) -> Path:
        """The static site: ``/index.html`` (language chooser), one folder per language."""
        return self.build_dir / "site"

    @property
    def index_dir(self) -> Path:
        """The search index (a symbolic link to its current generation)."""
        return self.build_dir / "index"

    @property
    def mkdocs_file(self) -> Path | None:
        """The project's own ``mkdocs.yml``, which extends Pravila's base configuration."""
        path = self.root / "mkdocs.yml"
        return path if path.is_file() else None

    @property
    def overrides_dir(self) -> Path | None:
        path = self.root / "overrides"
        return path if path.is_dir() else None

    @property
    def locales_dir(self) -> Path | None:
        path = self.root / "locales"
        return path if path.is_dir() else None

    @cached_property
    def catalogs(self) -> "Catalogs":
        """The gettext catalogs: the project's ``locales/`` first, then the ones Pravila ships."""
        from .i18n import Catalogs

        return Catalogs(self.locales_dir)

    def describe(self, setting: str) -> str:
        """Where a setting's value came from, for messages (``from pravila.toml``)."""
        origin = self.origins.get(setting, "default")
        return {"option": "from the command line", "environment": f"from {ENV.get(setting, 'the environment')}",
                "config": f"from {CONFIG_FILE}", "default": "the default"}[origin]


def find_root(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` with ``pravila.toml``, else with a ``content/`` folder."""
    start = start.resolve()
    chain = [start, *start.parents]
    for folder in chain:
        if (folder / CONFIG_FILE).is_file():
            return folder
    for folder in chain:
        if (folder / "content").is_dir():
            return folder
    return None


def load_project(
    project_dir: Path | None = None,
    *,
    content: Path | None = None,
    build: Path | None = None,
    site_url: str | None = None,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> Project:
    """Find and configure the project; options given here win over everything else.

    ``content`` and ``build`` given here (or in the environment) are relative
    to ``cwd``; in ``pravila.toml`` to the project's folder.
    """
    environ = os.environ if environ is None else environ
    cwd = Path(cwd or Path.cwd())
    if project_dir is not None:
        root = (cwd / project_dir).resolve()
        if not root.is_dir():
            raise ProjectError(f"no project folder {project_dir}")
    else:
        found = find_root(cwd)
        if found is None and content is None and not environ.get(ENV["content"]):
            raise ProjectError(
                f"no Pravila project in {cwd} or above (no {CONFIG_FILE} and no content/ folder); "
                "give --project DIR or --content DIR"
            )
        root = found or cwd.resolve()
    config_file = root / CONFIG_FILE
    config = _read_config(config_file) if config_file.is_file() else {}
    where = CONFIG_FILE
    origins: dict[str, str] = {}

    def pick(name: str, option: Any) -> tuple[Any, str]:
        if option is not None:
            return option, "option"
        if name in ENV and environ.get(ENV[name]):
            return environ[ENV[name]], "environment"
        if name in config:
            return config[name], "config"
        return None, "default"

    def folder(name: str, option: Path | None, default: str) -> Path:
        value, origin = pick(name, option)
        origins[name] = origin
        if value is None:
            return root / default
        if not isinstance(value, (str, Path)) or not str(value).strip():
            raise ProjectError(f"{where}: {name} must be a folder name")
        base = root if origin == "config" else cwd
        return (base / Path(value)).resolve()

    content_dir = folder("content", content, "content")
    build_dir = folder("build", build, "build")
    url, origins["site_url"] = pick("site_url", site_url)
    site = check_site_url(url if url is not None else DEFAULT_SITE_URL, origins["site_url"])
    report_url = config.get("report_url")
    if report_url is not None and (not isinstance(report_url, str) or not report_url.startswith(("https://", "http://", "mailto:"))):
        raise ProjectError(f"{where}: report_url must be an http(s):// or mailto: address with {{lang}} and {{id}} placeholders")

    registry = load_registry()
    declared = config.get("language", {})
    if not isinstance(declared, dict):
        raise ProjectError(f"{where}: [language.<code>] tables declare languages")
    if declared:
        registry = registry.extended(declared, where)
    codes = config.get("languages")
    if codes is None:
        codes = [code for code in registry if (content_dir / code).is_dir()]
        origins["languages"] = "default"
    else:
        origins["languages"] = "config"
        if not isinstance(codes, list) or not codes or not all(isinstance(c, str) for c in codes):
            raise ProjectError(f"{where}: languages must be a list of language codes, e.g. [\"ru\", \"cs\"]")
        if len(set(codes)) != len(codes):
            raise ProjectError(f"{where}: languages lists a language twice")
        for code in codes:
            if code not in registry:
                raise ProjectError(f"{where}: unknown language {code!r} in languages (the registry has "
                                   f"{', '.join(registry)}; declare it under [language.{code}])")
    return Project(
        root=root, content_dir=content_dir, build_dir=build_dir, site_url=site, registry=registry,
        languages=tuple(registry[c] for c in codes), config_file=config_file if config_file.is_file() else None,
        report_url=report_url, origins=origins,
    )


def _read_config(path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ProjectError(f"{path.name}: {e}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ProjectError(f"{path.name}: cannot read it: {e}") from None
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise ProjectError(f"{path.name}: unknown setting {unknown[0]!r} (settings: {', '.join(KEYS)})")
    return data


def check_site_url(value: Any, origin: str = "option") -> str:
    """The site's public root URL, ending with a slash.

    >>> check_site_url("https://example.org/rules")
    'https://example.org/rules/'
    >>> check_site_url("example.org")
    Traceback (most recent call last):
    pravila.errors.ProjectError: the site URL must be an absolute http(s) address such as https://example.org/rules/, not 'example.org'
    """
    text = str(value).strip() if isinstance(value, str) else ""
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        shown = str(value)[:80]
        raise ProjectError(f"the site URL must be an absolute http(s) address such as https://example.org/rules/, not {shown!r}")
    return text if text.endswith("/") else text + "/"
