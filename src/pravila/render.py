"""The rendering layer: Jinja2 templates with autoescaping, in the reader's language.

Everything the site shows as HTML — entry metadata, counterparts, «see
also», editor's notes, the calculators' widgets, the A–Z index, the chooser —
comes from a template under ``pravila/templates/``; Python prepares the
values, templates write the markup.  No module assembles HTML in strings.

- **Escaping**: every value is HTML-escaped unless it is :class:`Markup`
  (already rendered by a template, or an entry's rules Markdown, which the
  content checks vouch for).  Plain text inside *Markdown* goes through the
  ``md`` filter, which also escapes Markdown's own characters (``*``, ``[``…).
- **Language**: templates call ``_("…")`` and ``ngettext("%(num)d …", …, n)``
  on the ``messages`` catalog of the page's language (:class:`Translator`);
  ``make locales`` extracts those calls from the templates.
- **Syntax**: template comments are ``{## … ##}``, because ``{#id}`` is
  Markdown's attribute list on a heading.

>>> t = Templates(project.catalogs, "ru")
>>> str(t.macro("_macros.html", "badge")(edition=2014))
'<span class="pv-badge pv-badge--2014" title="Правила редакции 2014 года">2014</span>'
>>> str(md_text("Verbální (V) *x* <b>"))
'Verbální (V) \\\\*x\\\\* &lt;b&gt;'
"""

from __future__ import annotations

import html
import json
import re
from functools import lru_cache
from typing import Any, Callable

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from .i18n import Catalogs

__all__ = ["Markup", "Templates", "Translator", "environment", "md_text", "render_template", "template_module"]


class Translator:
    """The ``messages`` catalog of one language.

    ``t._("See also")``, ``t.ngettext("%(num)d link", "%(num)d links", 3)``:
    the call shapes ``pybabel extract`` recognises (in Python and in templates).
    """

    def __init__(self, catalogs: Catalogs, lang: str):
        self.catalogs = catalogs
        self.lang = lang

    def _(self, message: str) -> str:
        return self.catalogs.gettext(self.lang, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.catalogs.ngettext(self.lang, singular, plural, n) % {"num": n}


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]#|])")


def md_text(text: Any) -> Markup:
    """Plain text made safe for inline Markdown (titles in headings and links); Markup passes as it is."""
    if isinstance(text, Markup):
        return text
    return Markup(_MD_SPECIAL.sub(r"\\\1", html.escape(str(text), quote=False)))


_BLANK_RUNS = re.compile(r"\n[ \t]*(?:\n[ \t]*)+\n")


def tidy_blocks(text: Any) -> Markup:
    """Markdown blocks as templates leave them: one blank line between blocks, none at either end.

    >>> str(tidy_blocks("\\n\\na\\n\\n\\n\\nb\\n  \\n\\nc\\n"))
    'a\\n\\nb\\n\\nc'
    """
    return Markup(_BLANK_RUNS.sub("\n\n", str(text)).strip("\n"))


def json_text(value: Any) -> str:
    """JSON for an HTML attribute: sorted keys, letters as they are; a plain str, so autoescaping quotes it."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


@lru_cache(maxsize=None)
def environment() -> Environment:
    """The one Jinja2 environment: templates of the package, autoescaping on, undefined names an error."""
    env = Environment(
        loader=PackageLoader("pravila", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        comment_start_string="{##",
        comment_end_string="##}",
        auto_reload=False,
    )
    env.filters["md"] = md_text
    env.filters["blocks"] = tidy_blocks
    env.filters["json"] = json_text
    return env


def render_template(name: str, **context: Any) -> Markup:
    """A whole template, rendered (as Markup: it is safe to put into another template).

    A Markdown page (``*.md``) comes out tidy: one blank line between blocks,
    none at the start (front matter must come first), one newline at the end.
    """
    text = environment().get_template(name).render(**context)
    if name.endswith(".md"):
        return Markup(tidy_blocks(text) + "\n")
    return Markup(text)


def template_module(name: str, **names: Any) -> Any:
    """A template's macros, callable from Python, with ``names`` as the template's globals."""
    return environment().get_template(name).make_module(names)


class Templates:
    """The templates as the pages of one language use them: ``_``, ``ngettext`` and ``lang`` are set."""

    def __init__(self, catalogs: Catalogs, lang: str):
        self.t = Translator(catalogs, lang)
        self.lang = lang
        self._modules: dict[str, Any] = {}

    @property
    def _globals(self) -> dict[str, Any]:
        return {"_": self.t._, "ngettext": self.t.ngettext, "lang": self.lang}

    def render(self, name: str, **context: Any) -> Markup:
        """A whole template in this language (see :func:`render_template`)."""
        return render_template(name, **self._globals, **context)

    def macro(self, template: str, name: str) -> Callable[..., Markup]:
        """One macro of a template, callable from Python (``macro("_macros.html", "badge")(edition=2014)``)."""
        module = self._modules.get(template)
        if module is None:
            module = self._modules[template] = template_module(template, **self._globals)
        return getattr(module, name)
