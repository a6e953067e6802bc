"""Literals: render rules data as safe Python literals and safe Markdown text.

Strings from the rules are data, never code: Python gets ``repr``-built literals
and escaped docstrings, Markdown gets every special character escaped (HTML and table
pipes included), and in both every character that acts on text or hides in it
(controls, bidirectional and other format characters, separators) is written as
its escape (``compiler/common/visible.py``), ``\\u202e``.
"""

from __future__ import annotations

import re
import string
import textwrap
from fractions import Fraction

from ..common.visible import (
    SPACES,
    fold,
    one_line,
    visible,
)
from ..runtime.dice import Dice


def py(value: object) -> str:
    """A Python literal for a JSON-like value or a Dice."""
    if isinstance(value, Dice):
        return dice_literal(value)
    if value is None or isinstance(value, bool | int | str):
        return repr(value)
    if isinstance(value, tuple):
        items = [py(v) for v in value]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    raise TypeError(f"no Python literal for {type(value).__name__}")


def dice_literal(dice: Dice) -> str:
    args = [str(dice.count), str(dice.sides)]
    if dice.modifier:
        args.append(f"modifier={dice.modifier}")
    if dice.multiplier != 1:
        args.append(f"multiplier={dice.multiplier}")
    if dice.unit is not None:
        args.append(f"unit={dice.unit!r}")
    return f"Dice({', '.join(args)})"


def docstring(text: str, indent: str = "") -> str:
    """A triple-quoted docstring literal holding ``text`` exactly, wrapped for reading.

    A paragraph whose first line ends in a colon (``Args:``) is a list: each
    further line one item, indented under it.
    """
    width = 80 - len(indent)
    paragraphs = [
        _listing(p, width)
        if p.split("\n", 1)[0].endswith(":") and "\n" in p
        else _fill(p, width)
        for p in text.strip(SPACES).split("\n\n")
    ]
    body = "\n\n".join(paragraphs)
    trailing_backslashes = len(body) - 1 - len(body[:-1].rstrip("\\"))
    if body.endswith('"') and trailing_backslashes % 2 == 0:
        body = body[:-1] + '\\"'  # a quote the closing quotes would swallow
    if "\n" in body:
        body = body.replace("\n", "\n" + indent) + "\n" + indent
    return f'"""{body}"""'


def _literal_text(text: str) -> str:
    """One line of a docstring's text as the literal writes it: backslashes and
    triple quotes escaped, then every character that acts or hides (compiler/
    visible.py), so that the literal holds the text exactly."""
    text = fold(text).replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return visible(text)


def _fill(text: str, width: int, first: str = "", rest: str = "") -> str:
    """``text`` on lines of ``width``, a long word (an escape among them) kept
    whole."""
    return textwrap.fill(
        _literal_text(text),
        width=width,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
    )


def _listing(paragraph: str, width: int) -> str:
    head, *items = paragraph.split("\n")
    return "\n".join(
        [
            _literal_text(head),
            *(_fill(item, width, "    ", "        ") for item in items),
        ]
    )


# Backslash escapes, which GitHub and Python-Markdown read alike.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|#])")
# A block's first characters that would start a list (``-``, ``+``, ``1.``, ``1)``),
# a heading's underline (``===``) or an admonition (``!!!``): escaped where the
# line starts.
_MD_LINE_START = re.compile(r"^(?:[+-]|(?P<number>[0-9]+)[.)]|[=!])")
# Characters written as character references: HTML's own, and those the site's
# Markdown extensions read as markup where no backslash escape holds for both
# readers: ``{...}`` (attribute lists: attributes, event handlers), ``$`` (math),
# ``~`` (GitHub's strikethrough). No extension parses a character reference, and
# every reader shows its character.
_ENTITIES = {ch: f"&#{ord(ch)};" for ch in "{}$~"} | {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
}
_BY_ENTITY = re.compile("[" + re.escape("".join(_ENTITIES)) + "]")


def _md_inline(text: str) -> str:
    """One line of escaped text: backslash escapes first, then the character
    references (whose ``#`` an escape would break: GitHub shows ``&\\#123;`` as
    it is written)."""
    text = _MD_SPECIAL.sub(r"\\\1", one_line(text))
    return _BY_ENTITY.sub(lambda m: _ENTITIES[m.group()], text)


def md(text: str) -> str:
    """Markdown-escaped text: no markup, no raw HTML, no attribute list, no math,
    one paragraph."""
    return _MD_LINE_START.sub(_line_start, _md_inline(text))


def _line_start(match: re.Match[str]) -> str:
    start = match.group()
    if match.group("number"):
        return match.group("number") + "\\" + start[-1]
    return f"&#{ord(start)};" if start in "=!" else "\\" + start


def md_cell(text: str) -> str:
    """Markdown text safe inside a table cell (pipes escaped, on one line)."""
    return _md_inline(text) or " "


def code(text: str, *, in_table: bool = False) -> str:
    """A Markdown code span holding ``text`` (newlines become spaces, every other
    character that acts or hides but the tab its escape, ``\\x1b``).

    A text with spaces around it (which code spans drop) or a tab (which
    Python-Markdown makes spaces), and in a table one
    with a pipe, is an HTML ``<code>`` element, every ASCII punctuation character
    in it a character reference: a pipe in a code span ends the cell for GitHub
    unless escaped, and shows its backslash in Python-Markdown.
    """
    text = visible(" ".join(text.split("\n")), keep="\t")
    if (in_table and "|" in text) or "\t" in text or text != text.strip() or not text:
        return (
            "<code>"
            + _PUNCTUATION.sub(lambda m: f"&#{ord(m.group())};", text)
            + "</code>"
        )
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


_PUNCTUATION = re.compile("[\t" + re.escape(string.punctuation) + "]")


def number(value: Fraction | int) -> str:
    """An exact number for the docs: 7.5, 21, or 35/3 (≈ 11.67)."""
    frac = Fraction(value)
    if frac.denominator == 1:
        return str(frac.numerator)
    den = frac.denominator
    while den % 2 == 0:
        den //= 2
    while den % 5 == 0:
        den //= 5
    if den == 1:
        return f"{float(frac):g}" if abs(frac) < 10**15 else str(frac)
    return f"{frac.numerator}/{frac.denominator} (≈ {float(frac):.2f})"
