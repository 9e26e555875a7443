"""Lengths for the reader: feet in their language, optionally with metres.

Through Babel's CLDR data, the same the browser's ``Intl.NumberFormat``
uses, so the CLI and the widgets say the same thing.  Metres follow the
table convention 5 ft = 1.5 m.

>>> format_feet(7.5, "ru")
'7,5 фута'
>>> format_feet(12.5, "cs"), format_feet(1, "cs"), format_feet(5, "cs")
('12,5 stopy', '1 stopa', '5 stop')
>>> format_feet(30, "ru", metric=True)
'30 футов (9 м)'
"""

from __future__ import annotations

import math

from babel.units import format_unit

DEFAULT_LOCALE = "en"


def _locale(lang: str | None) -> str:
    return lang or DEFAULT_LOCALE


def display_round(value: float) -> float:
    """Round to hundredths, halves up, exactly as the widgets' JavaScript does
    (``Math.round(value * 100) / 100``).

    >>> display_round(13.3333), display_round(0.125), display_round(-2.505)
    (13.33, 0.13, -2.5)
    """
    rounded = math.floor(value * 100 + 0.5) / 100
    return int(rounded) if rounded.is_integer() else rounded


def feet_to_metres(feet: float) -> float:
    """Metres by the table convention 5 ft = 1.5 m, to the centimetre.

    >>> feet_to_metres(5), feet_to_metres(30), feet_to_metres(7.5)
    (1.5, 9, 2.25)
    """
    return display_round(feet * 0.3)


def format_metres(metres: float, lang: str | None = None) -> str:
    """A short metre length: ``'1,5 м'``.

    >>> format_metres(1.5, "ru"), format_metres(1.5, "cs"), format_metres(1.5)
    ('1,5 м', '1,5 m', '1.5 m')
    """
    return format_unit(display_round(metres), "length-meter", length="short", locale=_locale(lang))


def format_feet(feet: float, lang: str | None = None, *, metric: bool = False) -> str:
    """Feet in words of the reader's language, plural forms included.

    >>> format_feet(21, "ru"), format_feet(22, "ru"), format_feet(25, "ru")
    ('21 фут', '22 фута', '25 футов')
    >>> format_feet(1000, "cs")  # a no-break space between the thousands
    '1\\xa0000 stop'
    >>> format_feet(5, metric=True)
    '5 feet (1.5 m)'
    >>> format_feet(5, "xx")
    Traceback (most recent call last):
    ...
    babel.core.UnknownLocaleError: unknown locale 'xx'
    """
    text = format_unit(display_round(feet), "length-foot", locale=_locale(lang))
    if metric:
        text += f" ({format_metres(feet_to_metres(feet), lang)})"
    return text


MINUS = "\u2212"  # a minus sign, not a hyphen


def signed(n: int) -> str:
    """A modifier or bonus with its sign: ``+3``, ``−1`` (a minus sign), ``+0``.

    >>> signed(3), signed(-1), signed(0)
    ('+3', '−1', '+0')
    """
    return f"{n:+d}".replace("-", MINUS)
