"""The site's Markdown, in Python: Python-Markdown with the extensions and settings
of mkdocs.yml (attribute lists, arithmatex, superfences, tables, admonitions, the
table of contents with permalinks), and the parsed HTML it makes.

The sink tests render rules text through it and compare what comes out with
what went in: the text in the HTML's text nodes, and the elements and attributes
(which must be the templates', never the rules').
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser

import markdown
import yaml

from .conftest import ROOT


class _SiteLoader(yaml.SafeLoader):
    """mkdocs.yml's YAML: its one ``!!python/object/apply`` tag is arithmatex's
    fence formatter, named by a dotted path."""


def _apply(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> object:
    import importlib

    module, _, name = suffix.rpartition(".")
    assert isinstance(node, yaml.MappingNode)
    spec = loader.construct_mapping(node, deep=True)
    function = getattr(importlib.import_module(module), name)
    return function(*spec.get("args", ()), **spec.get("kwds", {}))


_SiteLoader.add_multi_constructor("tag:yaml.org,2002:python/object/apply:", _apply)


@cache
def _extensions() -> tuple[list[str], dict[str, dict[str, object]]]:
    config = yaml.load(  # noqa: S506 - the project's own mkdocs.yml, one known tag
        (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_SiteLoader
    )
    names: list[str] = []
    settings: dict[str, dict[str, object]] = {}
    for entry in config["markdown_extensions"]:
        if isinstance(entry, str):
            names.append(entry)
        else:
            ((name, options),) = entry.items()
            names.append(name)
            settings[name] = options or {}
    return names, settings


def to_html(text: str) -> str:
    """``text`` (Markdown) as the site's Markdown makes it HTML."""
    names, settings = _extensions()
    return markdown.Markdown(extensions=names, extension_configs=settings).convert(
        text
    )


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: list[str] = field(default_factory=list)

    def texts(self) -> str:
        return "".join(self.text)


class Parsed(HTMLParser):
    """Every element of a piece of HTML (in document order, with its own text and
    that of its descendants), and the text outside any element."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.comments: list[str] = []
        self.text: list[str] = []  # every text node, in order
        self._open: list[Element] = []
        self.feed(page)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.elements.append(element)
        if tag not in ("br", "hr", "img", "input", "meta", "link"):
            self._open.append(element)

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self._open) - 1, -1, -1):
            if self._open[index].tag == tag:
                del self._open[index:]
                return

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        for element in self._open:
            element.text.append(data)

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)

    def skeleton(self) -> list[tuple[str, tuple[str, ...]]]:
        """Each element's tag and attribute names, in order: the shape of the page
        without its text."""
        return [(e.tag, tuple(sorted(e.attrs))) for e in self.elements]
