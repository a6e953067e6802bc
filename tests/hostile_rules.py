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
import shutil
from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from .conftest import ROOT
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
# Fields of the rules that hold prose: hostile text goes around their text.
PROSE = (
    *("title", "summary", "description", "reason", "question", "ruling", "note"),
    *("work", "source_says", "rules_give", "unbounded_because", "refuse"),
)


def _texts(hostile: bool) -> Iterator[str]:
    for n in count():
        yield HOSTILE[n % len(HOSTILE)] if hostile else f"Plain{n}"


# The schemas' longest title (a column's heading, a rule's title).
TITLE_LENGTH = 120
# Prose fields with a shorter limit than the rest, by key (the texts come round
# in turn, so any of them may meet a long hostile text as the rules grow).
SHORT_PROSE = {"title": TITLE_LENGTH, "work": 300}


def _spoil(tree: Any, texts: Iterator[str]) -> None:
    if isinstance(tree, dict):
        for key, value in tree.items():
            if key in PROSE and isinstance(value, str):
                before, after = next(texts), next(texts)
                spoilt = f"{before} {value} {after}"
                limit = SHORT_PROSE.get(key)
                if limit is not None and len(spoilt) > limit:
                    spoilt = f"{value} {after}"[-limit:]
                if key == "title":  # a column's title may be a label: no spaces around
                    spoilt = spoilt.strip()
                tree[key] = spoilt
            else:
                _spoil(value, texts)
    elif isinstance(tree, list):
        for item in tree:
            _spoil(item, texts)


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
    values["file"] = "sources.txt"
    labels = _LABELS if hostile else _PLAIN_LABELS
    units = _UNITS if hostile else ("Unit1", "Unit2")
    values |= dict(zip(("unit", "unit_b"), units, strict=True))
    return values | dict(zip(("a", "b", "c", "d"), labels, strict=True))


def write_rules(root: Path, *, hostile: bool = True) -> Path:
    """A copy of rules/ under ``root``, its prose spoilt; the small system
    beside it. Returns the rules folder."""
    rules = root / "rules"
    shutil.copytree(ROOT / "rules", rules)
    yaml = YAML(typ="safe", pure=True)
    yaml.width = 4096
    yaml.allow_unicode = False  # every character outside ASCII escaped
    texts = _texts(hostile)
    for path in sorted(rules.glob("*/*.yaml")):  # the rules, not package.yaml
        text = path.read_text(encoding="utf-8")
        tree = yaml.load(text)
        _spoil(tree, texts)
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
