"""Strings are data: any text in any text field round-trips into the runtime exactly
and renders safely in the docs.

Hypothesis writes hostile text (quotes, triple quotes, backslashes, newlines,
``{{ }}`` and ``{% %}``, pipes, HTML, emoji, right-to-left marks, control
characters) into every text field of a small system, builds it, imports the
generated module and checks it hands the text back unchanged, and checks that every
docs table keeps its column count and no raw HTML gets in.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rulesc.emit.literals import (
    code,
    docstring,
    md,
    md_cell,
    py,
)
from rulesc.examples import runtime_from
from rulesc.lang.naming import fold
from rulesc.pipeline import Outputs, build

from .form_fill import page_forms
from .probe import doc as pages_of

HOSTILE = (
    '"',
    "'",
    '"""',
    "'''",
    "\\",
    "\\n",
    "\n",
    "\r\n",
    "\t",
    "{{ x }}",
    "{% if %}",
    "}}",
    "|",
    "\\|",
    "||",
    "<script>alert(1)</script>",
    "<b>",
    "&amp;",
    "-->",
    "<!--",
    "`",
    "```",
    "*",
    "_",
    "# ",
    "- ",
    "1. ",
    "[a](b)",
    "![i](j)",
    "~~",
    "\u200f",
    "\u202e",
    "\u2066",
    "\u00a0",
    "\u2028",
    "\ufeff",
    "\x01",
    "\x1b[31m",
    "\x7f",
    "\x85",
    "😀",
    "👩\u200d👩\u200d👧",
    "ﬁ",
    "Ｓ",
    "%s",
    "{0}",
    "${x}",
    "'\"",
)


def texts(banned: str = "") -> st.SearchStrategy[str]:
    """Short text (1 to 40 characters) made of hostile pieces and random Unicode."""
    pieces = [h for h in HOSTILE if not set(h) & set(banned)]
    # no lone surrogates: they cannot be written to a UTF-8 rules file at all;
    # no NUL: refused at load (tests/invalid/nul_escape.yaml)
    chars = st.characters(exclude_characters=banned + "\x00", exclude_categories=["Cs"])
    return (
        st.lists(
            st.one_of(st.sampled_from(pieces), st.text(chars, max_size=4)),
            min_size=1,
            max_size=4,
        )
        .map("".join)
        .filter(lambda s: 1 <= len(s) <= 40)
    )


TEXT = texts()
SETTINGS = settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
_UNSAFE = re.compile(r'["\\\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]')


def yaml_text(text: str) -> str:
    """``text`` as a YAML double-quoted scalar; printable Unicode is written raw."""
    return '"' + _UNSAFE.sub(lambda m: f"\\U{ord(m.group()):08x}", text) + '"'


SYSTEM = """# yaml-language-server: $schema=../../schema/system.schema.json
system: textsys
title: {title}
summary: {summary}
source: {{file: {file}, work: {work}}}
rounding: down
dice_notation: d20
"""

RULES = """# yaml-language-server: $schema=../../schema/rules.schema.json
system: textsys
rules:
  - id: lookup
    kind: table
    title: {title}
    summary: {summary}
    source: {{section: {section}, note: {note}}}
    function: lookup
    key: {{param: key, title: {key_title}, enum: Key, members: [{{name: A, label: {a}}}, {{name: B, label: {b}}}]}}
    row: Row
    columns:
      - {{name: note, type: text, title: {col_title}, description: {col_description}}}
      - {{name: maybe, type: text, nullable: true, null_label: {null_label}, title: {col_title}}}
      - {{name: roll, type: dice, unit: {unit}, title: {col_title}}}
    rows:
      - {{key: {a}, note: {cell_a}, maybe: null, roll: 2d6}}
      - {{key: {b}, note: {cell_b}, maybe: {cell_a}, roll: {{dice: 1d4, unit: {unit_b}}}}}
    rulings:
      - {{id: r, question: {question}, ruling: {ruling}, reason: {reason}}}
    errata:
      - {{id: e, source_says: {question}, rules_give: {ruling}, reason: {reason}}}
    examples:
      - {{name: x, summary: {summary}, args: {{key: {b}}}, expect: {{note: {cell_b}, maybe: {cell_a}}}}}
  - id: pick
    kind: formula
    title: {title}
    summary: {summary}
    source: {{section: {section}}}
    function: pick
    unit: {unit}
    parameters:
      - {{name: side, type: choice, enum: Side, default: {c}, description: {col_description}, members: [{{name: LEFT, label: {c}}}, {{name: RIGHT, label: {d}}}]}}
    expression: {expression}
  - id: die
    kind: dice
    title: {title}
    summary: {summary}
    source: {{section: {section}}}
    constant: DIE
    dice: 1d6
    unit: {unit}
"""

FIELDS = (
    *("title", "summary", "file", "work", "section", "note", "key_title", "a", "b"),
    *("col_title", "col_description", "null_label", "unit", "unit_b", "cell_a"),
    *("cell_b", "question", "ruling", "reason", "c", "d"),
)
# The formula language writes a label between double quotes, on one line.
FORMULA_LABEL = texts(banned='"\n')


def _labels_differ(a: str, b: str) -> bool:
    """Two labels the rules accept side by side: each without spaces around it
    (those are refused, see tests/test_labels.py), and different once folded."""
    plain = all(x == x.strip() and x.strip() for x in (a, b))
    return plain and fold(a) != fold(b) and a.casefold() != b.casefold()


def _write(root: Path, values: dict[str, str]) -> Path:
    rules = root / "rules"
    (rules / "textsys").mkdir(parents=True)
    quoted = {k: yaml_text(v) for k, v in values.items()}
    quoted["expression"] = yaml_text(f'1 if side == "{values["c"]}" else 2')
    (rules / "textsys" / "system.yaml").write_text(
        SYSTEM.format(**quoted), encoding="utf-8"
    )
    (rules / "textsys" / "rules.yaml").write_text(
        RULES.format(**quoted), encoding="utf-8"
    )
    return rules


def _runtime(outputs: Outputs, probe: Any) -> Any:
    texts = {
        path: blob.decode("utf-8")
        for path, blob in outputs.files.items()
        if path.startswith("rulebook/")
    }
    for path, text in texts.items():
        if path.endswith(".py"):
            compile(text, path, "exec")
    with runtime_from(texts) as package:
        return probe(importlib.import_module(f"{package}.textsys"))


def gfm_cells(line: str) -> int:
    """How many cells GitHub's table parser sees in ``line`` (pipes split unless
    escaped by a backslash, code spans included)."""
    count, i, body = 0, 0, line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    while i < len(body):
        if body[i] == "\\":
            i += 2
            continue
        if body[i] == "|":
            count += 1
        i += 1
    return count + 1


def _check_tables(doc: str) -> int:
    tables = 0
    lines = doc.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("|---") or line.startswith("|:--"):
            tables += 1
            width = gfm_cells(lines[index - 1])
            assert gfm_cells(line) == width
            row = index + 1
            while row < len(lines) and lines[row].startswith("|"):
                assert gfm_cells(lines[row]) == width, lines[row]
                row += 1
    return tables


def _outside_code(line: str) -> str:
    """The text of a Markdown line outside its code spans, as GitHub reads them:
    a backslash outside a span escapes the next character (an escaped backtick
    opens no span), and a span closes at the next run of as many backticks. An
    HTML code element of character references (compiler.emit.literals.code) is code
    too."""
    line = re.sub(r"<code>[^<>`\\|]*</code>", "", line)
    out, i = [], 0
    while i < len(line):
        if line[i] == "\\":
            out.append(line[i : i + 2])
            i += 2
        elif line[i] == "`":
            run = len(line[i:]) - len(line[i:].lstrip("`"))
            close = re.compile(rf"(?<!`)`{{{run}}}(?!`)").search(line, i + run)
            if close is None:  # no closing run: the backticks are text
                out.append(line[i : i + run])
                i += run
            else:
                i = close.end()
        else:
            out.append(line[i])
            i += 1
    return "".join(out)


_TEMPLATE_HTML = re.compile(
    r'^<a id="[a-z0-9_-]+"></a>$|^<!-- @generated .* -->$'
    # the folded "For programmers" block of a rule's worked examples
    r'|^<details class="rb-programmers" markdown="1">$'
    r"|^<summary>For programmers: [a-z ]+</summary>$|^</details>$"
)


# A rule's "try it" form: its description as JSON in one single-quoted
# attribute, every "<", ">", "'" and "&" of it written as a character reference.
_FORM = re.compile(
    r"""^<div class="rulebook-try" data-rule="[a-z0-9_.]+" data-form='[^'<>]*'></div>$"""
)


def _check_no_raw_html(doc: str) -> None:
    for line in doc.splitlines():
        if _TEMPLATE_HTML.match(line) or _FORM.match(line):
            continue
        assert "<" not in _outside_code(line), line


@SETTINGS
@given(
    values=st.fixed_dictionaries(
        {f: FORMULA_LABEL if f in ("c", "d") else TEXT for f in FIELDS}
    )
)
def test_any_text_round_trips_and_renders_safely(
    values: dict[str, str], tmp_path_factory: Any
) -> None:
    assume(_labels_differ(values["a"], values["b"]))
    assume(_labels_differ(values["c"], values["d"]))
    outputs = build(_write(tmp_path_factory.mktemp("strings"), values))

    def probe(m: Any) -> dict[str, Any]:
        return {
            "a": m.lookup(values["a"]).note,
            "b_row": m.lookup(m.Key.B),
            "labels": [member.value for member in m.Key],
            "units": (m.lookup(m.Key.A).roll.unit, m.lookup(m.Key.B).roll.unit),
            "pick": (m.pick(values["c"]), m.pick(values["d"]), m.pick()),
            "die": m.DIE.unit,
        }

    got = _runtime(outputs, probe)
    assert got["a"] == values["cell_a"]
    assert got["b_row"].note == values["cell_b"]
    assert got["b_row"].maybe == values["cell_a"]
    assert got["labels"] == [values["a"], values["b"]]
    assert got["units"] == (values["unit"], values["unit_b"])
    assert got["pick"] == (1, 2, 1)
    assert got["die"] == values["unit"]
    doc = pages_of(outputs, "textsys")  # the overview and every rule's page
    assert _check_tables(doc) >= 4
    _check_no_raw_html(doc)
    forms = {f["rule"]: f for f in page_forms(doc)}  # the text came through whole
    key = forms["textsys.lookup"]["fields"][0]
    assert (key["labels"], key["start"]) == ([values["a"], values["b"]], values["b"])
    side = forms["textsys.pick"]["fields"][0]
    assert (side["labels"], side["default"]) == (
        [values["c"], values["d"]],
        values["c"],
    )
    assert side["description"] == values["col_description"]
    _check_no_raw_html(outputs.files["docs/index.md"].decode("utf-8"))
    _check_no_raw_html(outputs.files["docs/SUMMARY.md"].decode("utf-8"))
    # the home page: the system's rules, and its module for programmers
    assert _check_tables(outputs.files["docs/index.md"].decode("utf-8")) == 2


@settings(max_examples=300, deadline=None, derandomize=True)
@given(text=st.one_of(TEXT, st.text()))
def test_literals_keep_text_safe(text: str) -> None:
    assert ast.literal_eval(py(text)) == text
    tree = ast.parse(f"def f():\n    {docstring(text, '    ')}\n")
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    doc = ast.get_docstring(function, clean=False) or ""
    assert "".join(doc.split()) == "".join(text.split())
    row = f"| {md_cell(text)} | {code(text, in_table=True)} | {md(text)} |"
    assert gfm_cells(row) == 3
    assert "\n" not in row
    assert "<" not in _outside_code(row)
