"""The rendering layer: Jinja2 templates with autoescaping, in the reader's language.

Everything the site shows as HTML — entry metadata, counterparts, «see
also», editor's notes, the calculators' widgets, the A–Z index, the chooser —
comes from a template under ``pravila/templates/``; Python prepares the
values, templates write the markup.  No module assembles HTML in strings.

- **Escaping**, one rule for every ``{{ value }}`` (:func:`finalize`): a
  value is text unless it is :class:`Markup` (already rendered by a
  template, or an entry's rules Markdown, which the content checks vouch
  for).  In ``*.md`` templates text is escaped for HTML *and* for Markdown
  (:func:`escape`): the pages are Markdown with HTML in them, and inside a
  Markdown line even a ``<span>``'s text is Markdown, so a title like
  ``[x](javascript:…)`` must stay text there too.  ``*.html`` templates are
  raw HTML only (widgets, the chooser): HTML escaping.  Markdown link
  targets go through the ``dest`` filter, URLs in attributes through ``url``.
- **Language**: templates call ``_("…")`` and ``ngettext("%(num)d …", …, n)``
  on the ``messages`` catalog of the page's language (:class:`Translator`);
  ``make locales`` extracts those calls from the templates.
- **Syntax**: template comments are ``{## … ##}``, because ``{#id}`` is
  Markdown's attribute list on a heading.

>>> t = Templates(project.catalogs, "ru")
>>> str(t.macro("_macros.md", "badge")(edition=2014))
'<span class="pv-badge pv-badge--2014" title="Правила редакции 2014 года">2014</span>'
>>> str(escape("Verbální (V) *x* <b> [y](z)"))
'Verbální (V) &#42;x&#42; &lt;b&gt; &#91;y&#93;(z)'
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any, Callable
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, StrictUndefined, pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from markupsafe import escape as html_escape

from .i18n import Catalogs

__all__ = ["Markup", "Templates", "Translator", "environment", "escape", "render_template", "template_module"]


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


# HTML's five, and every character Markdown (with attr_list) gives a meaning inline, as
# character references: the same text is safe in a raw HTML block and in a Markdown line.
_ESCAPES = str.maketrans({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;",
    **{c: f"&#{ord(c)};" for c in "\\`*_{}[]#|!"},
})


def escape(value: Any) -> Markup:
    """Text made safe for HTML and for Markdown alike; Markup passes as it is.

    >>> str(escape('{: onclick="x"} _a_ `b` #c | d!')), str(escape(Markup("<b>ours</b>")))
    ('&#123;: onclick=&#34;x&#34;&#125; &#95;a&#95; &#96;b&#96; &#35;c &#124; d&#33;', '<b>ours</b>')
    """
    if hasattr(value, "__html__"):
        return Markup(value.__html__())
    return Markup(str(value).translate(_ESCAPES))


@pass_context
def finalize(context: Context, value: Any) -> Any:
    """How every ``{{ value }}`` of a template is escaped: by what the template writes.

    ``*.md`` templates write Markdown, or HTML that stands inside Markdown
    (``_macros.md``): text is escaped for both (:func:`escape`).  ``*.html``
    templates write raw HTML blocks or whole documents (the widgets, the
    chooser), where Markdown never looks: HTML escaping is enough.
    """
    if hasattr(value, "__html__"):
        return Markup(value.__html__())
    if (context.name or "").endswith(".md"):
        return escape(value)
    return html_escape(value)


def markdown_dest(value: Any) -> Markup:
    """A Markdown link target: anything but a path, an anchor or an escape is percent-encoded.

    >>> str(markdown_dest("../combat/movement.md#high-jump")), str(markdown_dest("x) <y>"))
    ('../combat/movement.md#high-jump', 'x%29%20%3Cy%3E')
    """
    return Markup(quote(str(value), safe="/#.-_~%"))


def url_attribute(value: Any) -> Markup:
    """A URL in an HTML attribute: HTML-escaped only (Markdown never reads inside a tag).

    >>> str(url_attribute("https://x.example/new?a=1&b=#c"))
    'https://x.example/new?a=1&amp;b=#c'
    """
    return Markup(html_escape(str(value)))


def json_attribute(value: Any) -> Markup:
    """JSON in an HTML attribute of a raw HTML block: sorted keys, letters as they are, HTML-escaped."""
    return Markup(html_escape(json.dumps(value, ensure_ascii=False, sort_keys=True)))


_BLANK_RUNS = re.compile(r"\n[ \t]*(?:\n[ \t]*)+\n")


def tidy_blocks(text: Any) -> Markup:
    """Markdown blocks as templates leave them: one blank line between blocks, none at either end.

    >>> str(tidy_blocks("\\n\\na\\n\\n\\n\\nb\\n  \\n\\nc\\n"))
    'a\\n\\nb\\n\\nc'
    """
    return Markup(_BLANK_RUNS.sub("\n\n", str(text)).strip("\n"))


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
        finalize=finalize,  # every {{ value }}: escaped for what its template writes (autoescape then keeps it)
    )
    env.filters["dest"] = markdown_dest
    env.filters["url"] = url_attribute
    env.filters["blocks"] = tidy_blocks
    env.filters["json"] = json_attribute
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
        """One macro of a template, callable from Python (``macro("_macros.md", "badge")(edition=2014)``)."""
        module = self._modules.get(template)
        if module is None:
            module = self._modules[template] = template_module(template, **self._globals)
        return getattr(module, name)
