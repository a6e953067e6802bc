"""Rules full of hostile text, for the sink tests (tests/test_sinks.py) and the
browser test (tests/site/test_hostile_site.py).

A copy of rules/ (every kind of rule the project has) with hostile text around
the text of every prose field, and the small system of
tests/test_strings_are_data.py with hostile labels, cells, units, titles and
column names. Each text that would run script calls ``rbPwn(n)`` (or ``alert``),
which the browser test defines and watches.

The same rules with plain words in the same places (``hostile=False``) are the
control: built from both, every page must have the same elements and attributes.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from .conftest import copy_rules
from .test_strings_are_data import RULES, SYSTEM, yaml_text

HOSTILE = (
    '{tabindex=1 autofocus onfocus="rbPwn(1)"}',
    '{: onclick="rbPwn(2)" .rb-class #rb-id}',
    "{#rb-id .rb-class onmouseover=rbPwn(3) style=color:red}",
    "$\\href{javascript:rbPwn(4)}{x}$",
    "$x$ and $$y$$ \\(z\\) \\[w\\] \\begin{align}v\\end{align}",
    "<script>rbPwn(5)</script>",
    "</script><script>rbPwn(6)</script>",
    '<img src=x onerror="rbPwn(7)">',
    "<svg onload=rbPwn(8)>",
    '<iframe srcdoc="<script>parent.rbPwn(9)</script>"></iframe>',
    "[click](javascript:rbPwn(10)) <javascript:rbPwn(10)>",
    '<a href="javascript:rbPwn(11)">a</a>',
    "*/ rbPwn(12); /*",
    "`code`{onclick=rbPwn(13)} **b**{onclick=rbPwn(13)}",
    "\\text{x} \\htmlId{rb}{y} \\def\\a{b} \\url{javascript:alert(14)}",
    '!!! danger "rbPwn(15)"',
    "<!-- rbPwn(16) -->",
    "---",
    "| a | b |",
    "&lt;b&gt; &amp; &#123;x&#125; &#36;",
    "\u202erbPwn\u200b\u2066 zero\u200dwidth\u2069",
    "\x1b[2J\x07\x01 control\x7f\x85",
    "x" * 300,
    "`` ` `` ``` ~~~",
    "${x} ${alert(17)}",
    "'\"'\"\\'\\\"",
    "{{ jinja }} {% raw %}",
    "1. item",
    "# heading #",
    "<style>*{display:none}</style>",
    "<object data=javascript:rbPwn(18)>",
    '<form><button formaction="javascript:rbPwn(19)">x</button></form>',
    "[TOC] [^1] *[abbr]: x",
    "\\u2028\u2028\u2029 line separators",
    "===",
    "+ plus {onclick=rbPwn(20)}",
    '<a href=# onclick="alert(21)">x</a>',
    "\\$\\{x\\}",
)
# Texts for every title (of a system, rule, column, parameter, part of the
# source, section): each would break out of where the site's theme puts a title
# if it were written there as markup: the <title> of the head (which the theme
# reads with striptags), a meta tag's or attribute's quotes, the navigation,
# the table of contents, the search results and suggestions.
TITLE_HOSTILE = (
    "</title><script>rbPwn(40)</script>",
    '"><svg onload=rbPwn(41)>',
    "'><img src=x onerror=rbPwn(42)>",
    '<img src=x onerror="rbPwn(43)">',
    "</textarea></noscript></style><script>rbPwn(44)</script>",
    "&lt;/title&gt;&lt;script&gt;rbPwn(45)&lt;/script&gt;",
    "--><svg/onload=rbPwn(46)><!--",
    "<a href=javascript:rbPwn(47)>t</a><base href=//x>",
    "</title><meta http-equiv=refresh content=0;url=javascript:rbPwn(48)>",
    "<style>body{display:none}</style><link rel=stylesheet href=//x>",
)
# Fields of the rules that hold prose: hostile text goes around their text.
PROSE = (
    *("title", "summary", "description", "reason", "question", "ruling", "note"),
    *("work", "source_says", "rules_give", "unbounded_because", "refuse"),
)


def _texts(hostile: bool, texts: tuple[str, ...] = HOSTILE) -> Iterator[str]:
    for n in count():
        yield texts[n % len(texts)] if hostile else f"Plain{n}"


# The schemas' longest title (a column's heading, a rule's title).
TITLE_LENGTH = 120
# Prose fields with a shorter limit than the rest, by key (the texts come round
# in turn, so any of them may meet a long hostile text as the rules grow).
SHORT_PROSE = {"title": TITLE_LENGTH, "work": 300}


SECTION_LENGTH = 200  # a source section's name


class _Spoiler:
    """Hostile text around the prose of a tree of rules, a title's hostile
    text first; each source section named the same in every file."""

    def __init__(self, hostile: bool) -> None:
        self.texts = _texts(hostile)
        self.titles = _texts(hostile, TITLE_HOSTILE)
        self.sections: dict[str, str] = {}

    def title(self, value: str) -> str:
        before, after = next(self.titles), next(self.texts)
        for spoilt in (f"{before} {value} {after}", f"{before} {value}"):
            if len(spoilt) <= TITLE_LENGTH:
                break
        # a column's title may be a label: no spaces around
        return spoilt[:TITLE_LENGTH].strip()

    def section(self, value: str) -> str:
        if value not in self.sections:
            spoilt = f"{next(self.titles)} {value}"[:SECTION_LENGTH]
            self.sections[value] = spoilt.strip()
        return self.sections[value]

    def prose(self, key: str, value: str) -> str:
        before, after = next(self.texts), next(self.texts)
        spoilt = f"{before} {value} {after}"
        limit = SHORT_PROSE.get(key)
        if limit is not None and len(spoilt) > limit:
            spoilt = f"{value} {after}"[-limit:]
        return spoilt

    def spoil(self, tree: Any) -> None:
        if isinstance(tree, dict):
            for key, value in tree.items():
                if key == "title" and isinstance(value, str):
                    tree[key] = self.title(value)
                elif key == "section" and isinstance(value, str):
                    tree[key] = self.section(value)
                elif key == "sections" and isinstance(value, list):
                    tree[key] = [self.section(v) for v in value]
                elif key in PROSE and isinstance(value, str):
                    tree[key] = self.prose(key, value)
                else:
                    self.spoil(value)
        elif isinstance(tree, list):
            for item in tree:
                self.spoil(item)


# Labels of the small system: one line, no spaces around them, no double
# quote (the formula names one), different from each other once folded.
_LABELS = ('{onclick="rbPwn(30)"} a', "$b$ <b>", "</script> c", "`d` {: #x}")
_PLAIN_LABELS = ("Alpha", "Bravo", "Charlie", "Delta")
_UNITS = ("{onclick=rbPwn(31)}", "$u$ <i>`")


def _small_system(hostile: bool) -> dict[str, str]:
    texts = _texts(hostile)
    values = {
        field: next(texts)
        for field in (
            *("title", "summary", "work", "section", "note", "key_title"),
            *("col_title", "col_description", "null_label", "unit", "unit_b"),
            *("cell_a", "cell_b", "question", "ruling", "reason"),
        )
    }
    titles = _texts(hostile, TITLE_HOSTILE)
    for field in ("title", "section", "key_title", "col_title"):
        values[field] = f"{next(titles)} {values[field]}"
    values["file"] = "sources.txt"
    labels = _LABELS if hostile else _PLAIN_LABELS
    units = _UNITS if hostile else ("Unit1", "Unit2")
    values |= dict(zip(("unit", "unit_b"), units, strict=True))
    return values | dict(zip(("a", "b", "c", "d"), labels, strict=True))


def write_rules(root: Path, *, hostile: bool = True) -> Path:
    """A copy of rules/ under ``root``, its prose spoilt; the small system
    beside it. Returns the rules folder."""
    rules = root / "rules"
    copy_rules(rules)
    yaml = YAML(typ="safe", pure=True)
    yaml.width = 4096
    yaml.allow_unicode = False  # every character outside ASCII escaped
    spoiler = _Spoiler(hostile)
    for path in sorted(rules.glob("*/*.yaml")):  # the rules, not package.yaml
        text = path.read_text(encoding="utf-8")
        tree = yaml.load(text)
        spoiler.spoil(tree)
        out = io.StringIO(text.split("\n", 1)[0] + "\n")  # the schema line
        out.seek(0, io.SEEK_END)
        yaml.dump(tree, out)
        path.write_text(out.getvalue(), encoding="utf-8")
    values = _small_system(hostile)
    quoted = {k: yaml_text(v) for k, v in values.items()}
    quoted["expression"] = yaml_text(f'1 if side == "{values["c"]}" else 2')
    (rules / "textsys").mkdir()
    (rules / "textsys" / "system.yaml").write_text(
        SYSTEM.format(**quoted), encoding="utf-8"
    )
    (rules / "textsys" / "rules.yaml").write_text(
        RULES.format(**quoted), encoding="utf-8"
    )
    return rules
