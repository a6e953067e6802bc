"""Pages: the view-models of the reference's Markdown pages, and where each is written.

The reference has a page per rule (``docs/<system>/<rule>.md``), an overview
per system (``docs/<system>.md``) listing its rules as the source groups them,
the index of every system (``docs/index.md``) and the navigation of the site
(``docs/SUMMARY.md``, a nested list of links). A rule's page says the rule for
the table first, in the project's own words with its table, math and cases;
its last section, "For programmers", holds the API (signature, parameter
types, fields). A rule's own part is its kind's lowering to the core, printed
by the Markdown emitter (compiler/emit/markdown/unit.py).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...core.program import lowered
from ...core.viewkit import (
    View,
    header,
    header_of,
)
from ...examples import (
    call_text,
    expect_text,
)
from ...front.model import (
    HOUSE_SECTION,
    Erratum,
    Example,
    Rule,
    System,
)
from ...kinds.registry import kind_of
from ...lang.naming import title_words, words_of
from ..literals import (
    code,
    md,
    md_cell,
)
from . import unit as emit_markdown
from .example_words import (
    Shape,
    example_words,
    inputs_words,
    shape_of,
)
from .files import (
    DOCS,
    INDEX_PAGE,
    NAV_PAGE,
    TARGET_NAME,
    overview_page,
    rule_page,
)
from .forms import widget
from .house_docs import (
    is_house_rule,
    notes,
    overview,
)

if TYPE_CHECKING:
    from ...common.parts import Shares

# An example's input whose text is longer than this is shown once, by a name.
LONG_INPUT = 60


def link_from(page: str, target: str) -> str:
    """The relative link from one docs page to another (both output paths)."""
    return posixpath.relpath(target, posixpath.dirname(page))


def _to_rules(page: str, file: str) -> str:
    """The link from a docs page to a rules file (the output folder is one level
    under the repository, beside rules/)."""
    return posixpath.normpath(posixpath.join(link_from(page, DOCS), "..", "..", file))


# Where a summary's first sentence ends: a stop, then a space and a capital.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(])")


def what_it_does(rule: Rule) -> str:
    """What a rule does, as the index and its system's overview say it: the
    first sentence of its summary (so the rules editor writes it once)."""
    return _SENTENCE_END.split(rule.summary.strip(), maxsplit=1)[0]


def reader_kind(rule: Rule) -> str:
    """What a reader calls a rule of this kind ("a table"), from its plugin."""
    return kind_of(rule).text


def citation(system: System, rule: Rule | None = None) -> str:
    """The source as the reference cites it: the work, its part, the rule's section."""
    if (
        rule is not None
        and is_house_rule(system, rule)
        and rule.section == HOUSE_SECTION
    ):
        return "none: a house rule, from no published source"
    if not system.source_work:
        return "none: house rules, from no published source"
    parts = [f"*{md(system.source_work)}*"]
    part = system.source_part
    if part is not None:
        parts.append(f"{md(part.kind)} “{md(part.title)}”")
    if rule is not None and (part is None or rule.section != part.title):
        parts.append(f"section “{md(rule.section)}”")
    return ", ".join(parts)


def _group_of(system: System, rule: Rule) -> str:
    return next(g.title for g in system.contents if rule.id in g.rules)


# -- a rule's page --------------------------------------------------------------------


def _erratum_md(e: Erratum) -> View:
    return {
        "title": md(words_of(e.id)),
        "source_says": md(e.source_says),
        "rules_give": md(e.rules_give),
        "reason": md(e.reason),
    }


class Shared:
    """The long inputs of a rule's worked examples, each shown once under a name."""

    def __init__(self, rule: Rule) -> None:
        self.names: dict[str, str] = {}  # the value's Python text -> its name
        self.shown: list[View] = []
        for ex in rule.examples:
            for param, value in ex.args:
                self._add(param, value)
            if ex.dice is not None:
                self._add("dice", list(ex.dice))

    def _add(self, what: str, value: Any) -> None:
        text = repr(value)
        if len(text) <= LONG_INPUT or text in self.names:
            return
        count = sum(1 for n in self.names.values() if n.rsplit("_", 1)[0] == what)
        name = f"{what}_{count + 1}"
        self.names[text] = name
        entry: View = {"name": code(name), "entries": None, "text": None}
        if isinstance(value, dict):
            entry["entries"] = [
                (md_cell(str(k)), md_cell(str(v))) for k, v in value.items()
            ]
        else:
            entry["text"] = code(
                ", ".join(map(str, value)) if isinstance(value, list) else text
            )
        self.shown.append(entry)

    def name(self, value: Any) -> str | None:
        """The name a long input is shown under, or None for a short one."""
        return self.names.get(repr(value))

    def call(self, rule: Rule, ex: Example) -> str:
        """The example's call, its long inputs replaced by their names."""
        text = call_text(rule, ex)
        for value, name in sorted(self.names.items(), key=lambda i: -len(i[0])):
            text = text.replace(value, name)
        return text


def _examples(rule: Rule, shared: Shared, shape: Shape) -> list[View]:
    """Each worked example: in words for a reader, as a call for programmers."""
    return [
        {
            "name": code(ex.name),
            "summary": md(ex.summary),
            "words": example_words(ex, shape),
            "call": code(shared.call(rule, ex)),
            "result": f"raises {code(ex.raises)}"
            if ex.raises
            else f"gives {code(expect_text(ex))}",
            "erratum": _erratum_md(ex.erratum) if ex.erratum else None,
            "from_source": md(ex.from_source) if ex.from_source else None,
        }
        for ex in rule.examples
    ]


def example_shape(system: System, rule: Rule) -> Shape:
    """What a rule's worked examples are said with: its parameters and the
    fields of its answer (the records of the rules it uses included)."""
    unit = lowered(system, rule)
    needed = [lowered(system, r) for r in system.rules if r.qualified_id in unit.needs]
    return shape_of(unit, needed)


def common_view(
    system: System,
    rule: Rule,
    answers: dict[tuple[str, str], Any],
    form: View | None = None,
) -> View:
    """What every rule's page shows, whatever its kind; the Markdown emitter adds
    the rule's own part, from its lowering.

    ``api`` is the programmer's section: the emitter adds its signature and the
    like (``viewkit.api``). ``widget`` is the rule's "try it" form, if it has
    one (``form``, from compiler/emit/markdown/forms.py), as the page holds it: data for the
    site's script, shown after the rule itself.
    """
    page = rule_page(system.id, rule.id)
    file = rule.loc.file
    shared = Shared(rule)
    shape = example_shape(system, rule)
    view: View = {
        "header": header([file]),
        "title": md(rule.title),
        "summary": md(rule.summary),
        "section": md(rule.section),
        "cite": citation(system, rule),
        "system": md(system.title),
        "system_page": link_from(page, overview_page(system.id)),
        "group": md(_group_of(system, rule)),
        "note": md(rule.source_note) if rule.source_note else None,
        "house": notes(system, rule),
        "rulings": [
            {
                "title": md(words_of(r.id)),
                "question": md(r.question) if r.question else None,
                "ruling": md(r.ruling),
                "reason": md(r.reason),
            }
            for r in rule.rulings
        ],
        "errata": [_erratum_md(e) for e in rule.errata],
        "examples": _examples(rule, shared, shape),
        "shared": shared.shown,
        "named": shared.name,
        "widget": widget(form),
        "api": {
            "id": code(rule.qualified_id),
            "kind": code(rule.kind),
            "kind_text": reader_kind(rule),
            "module": code(f"rulebook.{system.id}"),
            "link": f"[{md(file)}, line {rule.loc.line}]({_to_rules(page, file)}"
            f"#L{rule.loc.line})",
            "paragraphs": [],
            "params": [],
            "fields": [],
            "fields_title": None,
        },
    }
    if rule.examples:
        first = rule.examples[0]
        view["first_answer"] = answers.get((rule.id, first.name))
        named = shared.name(list(first.dice)) if first.dice else None
        view["first_example"] = {
            "name": code(first.name),
            "summary": md(first.summary),
            "inputs": inputs_words(first, shape),
            "call": code(", ".join(f"{k}={v!r}" for k, v in first.args)),
            "dice": code(named or ", ".join(map(str, first.dice or ()))),
        }
    return view


def rule_page_view(
    system: System,
    rule: Rule,
    answers: dict[tuple[str, str], Any],
    form: View | None = None,
    odds: View | None = None,
) -> View:
    """A rule's page; ``answers`` are the worked examples' answers, by rule and
    name; ``form`` its "try it" form, if it has one; ``odds`` its odds section
    (``odds_pages``), if it rolls."""
    common = common_view(system, rule, answers, form)
    unit = lowered(system, rule)
    return emit_markdown.view(system, unit, common) | {"odds": odds}


# -- a system's overview, the index, the navigation -------------------------------------


def _groups(system: System, page: str) -> list[View]:
    by_id = {r.id: r for r in system.rules}
    return [
        {
            "title": md(g.title),
            "rules": [
                {
                    "title": md_cell(by_id[r].title),
                    "page": link_from(page, rule_page(system.id, r)),
                    "kind": reader_kind(by_id[r]),
                    "does": md_cell(what_it_does(by_id[r])),
                    "id": code(by_id[r].qualified_id),
                }
                for r in g.rules
            ],
        }
        for g in system.contents
        if g.rules
    ]


def overview_view(system: System, base: System | None = None) -> View:
    """A system's overview page: its source, its rules by division, what is left
    out, and (for house rules) what they change in ``base``, the system extended."""
    page = overview_page(system.id)
    return {
        "house": overview(
            system,
            base.title if base is not None else None,
            link_from(page, overview_page(base.id)) if base is not None else None,
            {
                r.id: f"[{md(r.title)}]({link_from(page, rule_page(system.id, r.id))})"
                for r in system.rules
            },
        ),
        "header": header(list(system.files)),
        "title": md(system.title),
        "summary": md(system.summary),
        "cite": citation(system),
        "sourced": bool(system.source_work),
        "rounding": system.rounding,
        "module": code(f"rulebook.{system.id}"),
        "groups": _groups(system, page),
        "not_modelled": [
            {
                "title": md(title_words(n.id)),
                "id": code(n.id),
                "summary": md(n.summary),
                "reason": md(n.reason),
            }
            for n in system.not_modelled
        ],
    }


def index_entry(s: System) -> View:
    """A system's entry on the docs' index page."""
    return {
        "title": md(s.title),
        "page": link_from(INDEX_PAGE, overview_page(s.id)),
        "module": code(f"rulebook.{s.id}"),
        "summary": md(s.summary),
        "cite": citation(s),
        "groups": _groups(s, INDEX_PAGE),
    }


def index_view(parts: Sequence[Shares]) -> View:
    return {
        "header": header_of(parts),
        "systems": [p.views[TARGET_NAME]["index"] for p in parts],
    }


def nav_entry(s: System) -> View:
    """A system's entry in the site's navigation."""
    return {
        "title": md(s.title),
        "page": link_from(NAV_PAGE, overview_page(s.id)),
        "groups": _groups(s, NAV_PAGE),
    }


def nav_view(parts: Sequence[Shares]) -> View:
    return {
        "header": header_of(parts),
        "systems": [p.views[TARGET_NAME]["nav"] for p in parts],
    }
