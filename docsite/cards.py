"""Cards: every table cell of a page labelled with its column's title (a hook).

On a narrow screen (docsite/rulebook.css, below the width docsite/guides/site.md
states) each row of a table reads as a card, a stat block: each cell on its own
line after its column's title, which the stylesheet shows from the cell's
``data-label`` (``td::before { content: attr(data-label) }``), so it works with
no script. This hook writes those labels into the page's HTML: each body cell of
a table with a head gets the text of the head cell above it, as text (a title
from the rules is data: its markup was escaped by the page, is read back here
as the text a reader sees, and escaped again for the attribute).
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any

_TABLE = re.compile(r"<table\b[^>]*>.*?</table>", re.DOTALL)
_HEAD = re.compile(r"<thead\b[^>]*>(.*?)</thead>", re.DOTALL)
_BODY = re.compile(r"<tbody\b[^>]*>.*?</tbody>", re.DOTALL)
_ROW = re.compile(r"<tr\b[^>]*>.*?</tr>", re.DOTALL)
_HEAD_CELL = re.compile(r"<th\b[^>]*>(.*?)</th>", re.DOTALL)
# A cell's start tag, and whether it is a data cell (td) or a head cell (th).
_CELL = re.compile(r"<t([dh])(?=[\s>/])")
_SPACE = re.compile(r"\s+")


# A formula in a title (pymdownx.arithmatex's source, which KaTeX renders in the
# page but a label cannot show) is read as words: its commands as the signs
# they print, \text{...} as its text, a fraction as a/b, no TeX left.
_SIGNS = {
    "times": "\N{MULTIPLICATION SIGN}",
    "cdot": "·",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
}
_SIGNS |= {"ne": "≠", "neq": "≠", "pm": "±", "min": "min", "max": "max"}
_SIGNS |= {",": " ", ";": " ", ":": " ", " ": " ", "!": ""}  # spaces
_DELIMITED = re.compile(r"\\[(\[](.*)\\[)\]]", re.DOTALL)  # \( ... \) or \[ ... \]
_FRACTION = re.compile(r"\\d?frac\{([^{}]*)\}\{([^{}]*)\}")
_COMMAND = re.compile(r"\\([A-Za-z]+|.)")


def tex_words(tex: str) -> str:
    """A formula's TeX as plain words and signs."""
    tex = tex.strip()
    if inner := _DELIMITED.fullmatch(tex):
        tex = inner[1]
    tex = _FRACTION.sub(r"\1/\2", tex)
    tex = _COMMAND.sub(lambda m: _SIGNS.get(m[1], m[1] if len(m[1]) == 1 else ""), tex)
    return tex.replace("{", "").replace("}", "")


class _Text(HTMLParser):
    """The text a reader sees of a fragment of HTML (character references read,
    a formula as words)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0  # inside a script or style
        self.math: list[str] | None = None  # inside a formula: its TeX so far
        self.depth = 0  # elements open inside the formula

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in ("script", "style"):
            self.hidden += 1
        elif self.math is not None:
            self.depth += 1
        elif "arithmatex" in (dict(attrs).get("class") or "").split():
            self.math = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self.hidden:
            self.hidden -= 1
        elif self.math is not None and self.depth:
            self.depth -= 1
        elif self.math is not None:
            self.parts.append(tex_words("".join(self.math)))
            self.math = None

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        if self.math is not None:
            self.math.append(data)
        else:
            self.parts.append(data)


def text_of(fragment: str) -> str:
    """The visible text of an HTML fragment, its white space made single spaces."""
    parser = _Text()
    parser.feed(fragment)
    parser.close()
    return _SPACE.sub(" ", "".join(parser.parts)).strip()


def labelled_row(row: str, labels: list[str]) -> str:
    """A table row with each data cell given its column's label (a cell past the
    head's columns gets none)."""
    column = iter(range(len(labels) + len(row)))

    def label(match: re.Match[str]) -> str:
        i = next(column)
        if match.group(1) != "d" or i >= len(labels):
            return match.group(0)
        return f'<td data-label="{html.escape(labels[i], quote=True)}"'

    return _CELL.sub(label, row)


def labelled_table(table: str) -> str:
    """A table whose body cells carry their columns' titles (a table with no head
    is left as it is)."""
    head = _HEAD.search(table)
    if head is None:
        return table
    labels = [text_of(cell) for cell in _HEAD_CELL.findall(head.group(1))]
    return _BODY.sub(
        lambda body: _ROW.sub(lambda row: labelled_row(row.group(0), labels), body[0]),
        table,
    )


def labelled(page_html: str) -> str:
    """A page's HTML with every body cell of its tables labelled."""
    return _TABLE.sub(lambda m: labelled_table(m.group(0)), page_html)


def on_page_content(output: str, **_: Any) -> str:
    return labelled(output)
