"""Read the built site's HTML: each section of a page, with its tables as text."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

Table = list[list[str]]  # rows of cell texts; the first row is the header


@dataclass
class Section:
    """One ``<h2>`` of a page and what follows it up to the next one."""

    id: str
    title: str
    tables: list[Table] = field(default_factory=list)
    images: list[str] = field(default_factory=list)  # the src of each <img>
    links: list[str] = field(default_factory=list)  # the href of each <a>


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[Section] = [Section("", "")]
        self._heading: list[str] | None = None
        self._skip = 0  # inside a headerlink (the permalink sign)
        self._table: Table | None = None
        self._cell: list[str] | None = None
        self._in_article = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        if tag == "article":
            self._in_article = True
        if not self._in_article:
            return
        if tag == "h2":
            self.sections.append(Section(attr.get("id") or "", ""))
            self._heading = []
        elif tag == "a" and "headerlink" in (attr.get("class") or ""):
            self._skip += 1
        elif tag == "a" and attr.get("href"):
            self.sections[-1].links.append(attr["href"] or "")
        elif tag == "img":
            self.sections[-1].images.append(attr.get("src") or "")
        elif tag == "table":
            self._table = []
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self._in_article = False
        elif tag == "h2" and self._heading is not None:
            self.sections[-1].title = " ".join("".join(self._heading).split())
            self._heading = None
        elif tag == "a" and self._skip:
            self._skip -= 1
        elif tag in ("td", "th") and self._cell is not None and self._table:
            self._table[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "table" and self._table is not None:
            self.sections[-1].tables.append(self._table)
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._heading is not None:
            self._heading.append(data)
        if self._cell is not None:
            self._cell.append(data)


def sections(page: Path) -> dict[str, Section]:
    """The sections of a built page by heading id (the page's intro under "")."""
    reader = _Reader()
    reader.feed(page.read_text(encoding="utf-8"))
    reader.close()
    return {s.id: s for s in reader.sections}


def column(table: Table, header: str) -> int:
    """The index of the column whose header contains ``header`` (case-insensitive)."""
    found = [i for i, h in enumerate(table[0]) if header.lower() in h.lower()]
    assert len(found) == 1, f"one column {header!r} expected in {table[0]}"
    return found[0]


def by_key(table: Table) -> dict[str, list[str]]:
    """The rows of a table (header left out) by their first cell."""
    return {row[0]: row for row in table[1:]}
