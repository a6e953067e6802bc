"""Reader text: what a player reads on a built page, and the code words in it.

The shared design of issue 42 (section 2) defines it: the visible text of the
page's article (``article.md-content__inner``) minus every element of class
``rb-programmers`` (the page's "For programmers" section and its folded calls),
KaTeX's math (``.katex``, ``.arithmatex``), ``script``, ``style`` and the
try-it's own disclosure for programmers (``rb-try-raw``).
"""

from __future__ import annotations

import html as html_module
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

# Elements whose text is no reader's: by class, and by tag.
HIDDEN_CLASSES = frozenset({"rb-programmers", "katex", "arithmatex", "rb-try-raw"})
HIDDEN_TAGS = frozenset({"script", "style", "template"})
# Elements with no end tag (html.parser sees only their start).
VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    ]
)
# A line of its own in the text (so that words of two cells never run together).
BLOCKS = frozenset(
    [
        "p",
        "li",
        "td",
        "th",
        "tr",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "div",
        "dt",
        "dd",
        "pre",
        "blockquote",
        "summary",
        "figcaption",
    ]
)

SNAKE = re.compile(r"\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Za-z0-9]\b")
CAMEL = re.compile(r"\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b")
LITERALS = re.compile(r"\b(?:None|null|True|False)\b")
TEX = re.compile(r"\\(?:[A-Za-z]+|[()\[\]])")
# Code in a formula's TeX source: an identifier's underscore, a function of the
# rules' language printed as code.
TEX_CODE = re.compile(r"\\_|\\operatorname\{(?:rolls|sorted|reversed|tally|text)\}")
# A formula's TeX source, as pymdownx.arithmatex writes it for the site's script.
MATH = re.compile(r'<(span|div) class="arithmatex"[^>]*>(.*?)</\1>', re.DOTALL)
# A call or an expression in a <code> span: name(...), or an operator between terms.
CODE_EXPRESSION = re.compile(r"[A-Za-z_]\w*\(|\w\s*(?:==|!=|<=|>=|&&|\|\||[*/<>])\s*\w")
# The keys of rules.json whose string values are identifiers of the runtime.
IDENTIFIER_KEYS = frozenset(
    {
        "id",
        "name",
        "function",
        "enum",
        "value_enum",
        "key_enum",
        "record",
        "class_name",
        "field",
        "param",
        "odds_function",
        "kind",
    }
)


@dataclass
class Reading:
    """A page's reader text, and the texts of its ``<code>`` spans and of each
    list item and table cell among it."""

    text: str = ""
    math: list[str] = field(default_factory=list)
    code: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []  # (tag, hidden) of each open element
        self.depth = 0  # the article's depth in the stack, once open
        self.hidden = 0  # open hidden elements
        self.parts: list[str] = []
        self.code: list[list[str]] = []
        self.items: list[list[str]] = []
        self.reading = Reading()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        classes = set((dict(attrs).get("class") or "").split())
        if not self.depth and tag == "article" and "md-content__inner" in classes:
            self.depth = len(self.stack) + 1
        hidden = bool(classes & HIDDEN_CLASSES) or tag in HIDDEN_TAGS
        self.stack.append((tag, hidden))
        self.hidden += hidden
        if self._reading():
            if tag in BLOCKS:
                self.parts.append("\n")
            if tag == "code":
                self.code.append([])
            if tag in ("li", "td", "th"):
                self.items.append([])

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID or all(t != tag for t, _ in self.stack):
            return
        while self.stack:
            open_tag, hidden = self.stack[-1]
            reading = self._reading()
            self.stack.pop()
            self.hidden -= hidden
            if reading and open_tag == "code" and self.code:
                self.reading.code.append("".join(self.code.pop()))
            if reading and open_tag in ("li", "td", "th") and self.items:
                self.reading.items.append(" ".join("".join(self.items.pop()).split()))
            if reading and open_tag in BLOCKS:
                self.parts.append("\n")
            if len(self.stack) < self.depth:
                self.depth = -1  # the article is closed: nothing more is read
            if open_tag == tag:
                return

    def handle_data(self, data: str) -> None:
        if self._reading():
            self.parts.append(data)
            for open_code in self.code:
                open_code.append(data)
            for item in self.items:
                item.append(data)

    def _reading(self) -> bool:
        return self.depth > 0 and len(self.stack) >= self.depth and not self.hidden


def reader_text(html: str) -> Reading:
    """The reader text of a built page's HTML."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    lines = (" ".join(line.split()) for line in "".join(reader.parts).split("\n"))
    reader.reading.text = "\n".join(line for line in lines if line)
    reader.reading.math = [
        html_module.unescape(m.group(2)) for m in MATH.finditer(html)
    ]
    return reader.reading


def _strings(data: Any, key: str = "") -> Iterator[str]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _strings(v, k)
    elif isinstance(data, list):
        for v in data:
            yield from _strings(v, key)
    elif isinstance(data, str) and key in IDENTIFIER_KEYS:
        yield data


@dataclass(frozen=True)
class CodeWords:
    """The identifiers of a build's rules.json, and its kinds' reader names."""

    identifiers: frozenset[str]
    kind_texts: frozenset[str]

    @classmethod
    def of(cls, rules_json: Path, kind_texts: frozenset[str]) -> CodeWords:
        found = _strings(json.loads(rules_json.read_text(encoding="utf-8")))
        return cls(frozenset(s for s in found if re.fullmatch(r"\w+", s)), kind_texts)


def _context(text: str, start: int, end: int) -> str:
    return " ".join(text[max(0, start - 40) : end + 40].split())


def code_words(reading: Reading, words: CodeWords) -> list[tuple[str, str]]:
    """Each code word of a page's reader text, with its context."""
    found: list[tuple[str, str]] = []
    text = reading.text
    for pattern in (SNAKE, LITERALS, TEX):
        found += [
            (m.group(0), _context(text, *m.span())) for m in pattern.finditer(text)
        ]
    found += [
        (m.group(0), _context(text, *m.span()))
        for m in CAMEL.finditer(text)
        if m.group(0) in words.identifiers
    ]
    for tex in reading.math:
        found += [(m.group(0), f"the formula {tex}") for m in TEX_CODE.finditer(tex)]
        found += [
            (m.group(0), f"the formula {tex}")
            for m in CAMEL.finditer(tex)
            if m.group(0) in words.identifiers
        ]
    for span in reading.code:
        if span.strip() in words.identifiers | words.kind_texts:
            found.append((span, f"<code>{span}</code>"))
        elif CODE_EXPRESSION.search(span):
            found.append((span, f"<code>{span}</code>: a call or an expression"))
    for item in reading.items:
        for kind in words.kind_texts:
            if item in (kind, f": {kind}.") or item.endswith(f": {kind}."):
                found.append((kind, f"a rule described by its kind: {item}"))
    return found


def pages_of(site: Path) -> list[Path]:
    """Every page of a built site that a reader reads: the reference and its
    systems' pages (not the rules files' listings, the guides, the 404 or the
    runtime contract, a page for programmers only)."""
    skipped = ("guides", "assets", "search", "contract", "404")
    return sorted(
        p
        for p in site.rglob("*.html")
        if p.relative_to(site).parts[0].removesuffix(".html") not in skipped
        and not p.name.endswith(".yaml.html")  # a rules file, in any folder
    )


def offences(site: Path, words: CodeWords) -> list[str]:
    """Every code word in the reader text of every page of ``site``: the page,
    the word, its context."""
    return [
        f"{page.relative_to(site).as_posix()}: {word!r} in “{context}”"
        for page in pages_of(site)
        for word, context in code_words(
            reader_text(page.read_text(encoding="utf-8")), words
        )
    ]
