"""Text from the rules is text in every output: the Markdown pages as the site's
Markdown makes them HTML, the JavaScript and TypeScript modules, the Python package.

The rules of tests/hostile_rules.py (a copy of rules/ with hostile text around
every prose field, and a small system with hostile labels, cells, units and
titles) are built beside the same rules with plain words in the same places.
Each output of the hostile build must have the shape of the plain one:

- every docs page, after the site's hooks and its Markdown (mkdocs.yml's
  extensions: attribute lists, math, fences, tables, admonitions, permalinks),
  has the same elements with the same attributes, in the same order, and the
  same comments: no element or attribute came from the rules; each hostile text
  is in the pages' text, whole;
- every JavaScript and TypeScript module parses, with no error, into the same
  syntax tree once its strings are blanked and its comments dropped, and the
  small system's labels are among its strings;
- every Python module tokenizes into the same tokens but for its strings.

A Hypothesis property test drives the escaping functions themselves (md,
md_cell, code, the math text, JSDoc comments, JavaScript strings) with 300
hostile strings each and checks the text comes back exactly.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docsite.hooks import site_markdown
from rulesc.emit.javascript.kit import doc as js_doc
from rulesc.emit.javascript.kit import js_string
from rulesc.emit.literals import (
    code,
    md,
    md_cell,
)
from rulesc.pipeline import Outputs, build

from .conftest import ROOT
from .hostile_rules import _LABELS, HOSTILE, write_rules
from .js_node import JS_TESTS, node
from .site_markdown import Parsed, to_html
from .test_strings_are_data import TEXT

Built = dict[bool, tuple[Path, Outputs]]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The hostile build (True) and its plain control (False)."""
    out: Built = {}
    for hostile in (False, True):
        root = tmp_path_factory.mktemp("hostile" if hostile else "plain")
        out[hostile] = (
            root,
            build(write_rules(root, hostile=hostile), run_examples=False),
        )
    return out


def _pages(outputs: Outputs) -> list[str]:
    return sorted(
        p for p in outputs.files if p.startswith("docs/") and p.endswith(".md")
    )


def site_html(root: Path, outputs: Outputs, path: str) -> str:
    """A docs page as the site shows it: adapted by the hooks, then the Markdown."""
    text = outputs.files[path].decode("utf-8")
    docs = root / "generated" / "docs"
    return to_html(site_markdown(text, path.removeprefix("docs/"), docs, root))


# What a line of text folds into one space: spaces, tabs, line breaks and the
# other space separators (U+00A0 ...).
_FOLDED = "".join(
    ch for ch in map(chr, range(0x3001)) if unicodedata.category(ch) == "Zs"
)
_FOLD = re.compile(f"[\t\n\r{_FOLDED}]+")


def shown_escaped(ch: str) -> str:
    """A character that acts on text or hides in it as every output shows it:
    its Python escape."""
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def escaped_text(text: str) -> str:
    """``text`` with each character ``str.isprintable`` refuses escaped."""
    return "".join(ch if ch.isprintable() else shown_escaped(ch) for ch in text)


def one_line(text: str) -> str:
    """Text as the docs show it: white space runs one space, and every other
    character that acts on text or hides in it written as its escape."""
    return escaped_text(_FOLD.sub(" ", text).strip(" "))


# Attributes whose values are made from the rules' text, as data: ids and the
# links to them (slugs of headings), a form's JSON.
_TEXT_VALUED = ("id", "data-form")


def _attribute_values(page: Parsed) -> list[dict[str, str]]:
    return [
        {
            k: v
            for k, v in e.attrs.items()
            if k not in _TEXT_VALUED and not (k == "href" and v.startswith("#"))
        }
        for e in page.elements
    ]


def test_pages_keep_their_shape_and_show_the_text(built: Built) -> None:
    (plain_root, plain), (root, hostile) = built[False], built[True]
    assert _pages(plain) == _pages(hostile)
    shown: list[str] = []
    for path in _pages(hostile):
        want = Parsed(site_html(plain_root, plain, path))
        got = Parsed(site_html(root, hostile, path))
        assert got.skeleton() == want.skeleton(), path
        assert _attribute_values(got) == _attribute_values(want), path
        assert got.comments == want.comments, path
        for element in got.elements:
            href = element.attrs.get("href", "")
            assert not href.lower().lstrip().startswith("javascript:"), path
        shown.append("".join(got.text))
    everything = "\n".join(shown)
    for text in (*HOSTILE, *_LABELS):
        assert one_line(text) in everything, f"{text!r} is not shown whole"


# -- JavaScript and TypeScript ------------------------------------------------------

# Each file parsed by TypeScript: its parse errors, its strings, and its syntax
# tree printed with every string blanked and no comment.
_SHAPES = r"""
const ts = require(process.argv[1]);
const fs = require("fs");
const out = {};
for (const file of process.argv.slice(2)) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest, true,
    file.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const strings = [];
  const blank = (context) => (root) => {
    const visit = (node) => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
        strings.push(node.text);
        return ts.factory.createStringLiteral("");
      }
      return ts.visitEachChild(node, visit, context);
    };
    return ts.visitNode(root, visit);
  };
  const blanked = ts.transform(source, [blank]).transformed[0];
  const printer = ts.createPrinter({ removeComments: true });
  out[file] = {
    errors: source.parseDiagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    shape: printer.printFile(blanked),
    strings,
  };
}
console.log(JSON.stringify(out));
"""


def _js_shapes(root: Path, outputs: Outputs) -> dict[str, Any]:
    folder = root / "js-out"
    paths = []
    for path, blob in outputs.files.items():
        if path.startswith("js/") and path.endswith((".js", ".d.ts")):
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(blob)
            paths.append(str(target))
    typescript = JS_TESTS / "node_modules" / "typescript"
    if not typescript.is_dir():
        pytest.skip("TypeScript is missing; `make build` installs it")
    done = subprocess.run(
        [node(), "-e", _SHAPES, str(typescript), *sorted(paths)],
        capture_output=True,
        text=True,
        check=True,
    )
    shapes: dict[str, Any] = json.loads(done.stdout)
    return {Path(k).relative_to(folder).as_posix(): v for k, v in shapes.items()}


def test_javascript_keeps_its_shape_and_the_strings(built: Built) -> None:
    want = _js_shapes(*built[False])
    got = _js_shapes(*built[True])
    assert sorted(got) == sorted(want)
    for path, shape in got.items():
        assert shape["errors"] == [], path
        assert shape["shape"] == want[path]["shape"], path
    strings = set(got["js/textsys.js"]["strings"])
    assert set(_LABELS) <= strings


class _Blank(ast.NodeTransformer):
    def visit_Constant(self, node: ast.Constant) -> ast.Constant:
        return ast.Constant("") if isinstance(node.value, str) else node


def _python_shape(text: str) -> str:
    """The module's syntax tree, every string blank (its layout not included)."""
    return ast.dump(_Blank().visit(ast.parse(text)))


def test_python_keeps_its_shape(built: Built) -> None:
    (_, plain), (_, hostile) = built[False], built[True]
    for path, blob in hostile.files.items():
        if path.endswith(".py"):
            assert _python_shape(blob.decode("utf-8")) == _python_shape(
                plain.files[path].decode("utf-8")
            ), path


# -- the escaping functions, over generated text ------------------------------------

# Hostile pieces for the property test, beside those of test_strings_are_data.
_PIECES = st.sampled_from(
    (
        *HOSTILE,
        "{",
        "}",
        "{:",
        "{#x}",
        "{.c}",
        "$",
        "$$",
        "\\(",
        "\\)",
        "\\[",
        "!!!",
        "===",
        "~~",
        "1.",
        "+ ",
        "&#123;",
        "&lt;",
        "`",
        "|",
        "*/",
        "</script>",
    )
)
HOSTILE_TEXT = st.lists(st.one_of(_PIECES, TEXT), min_size=1, max_size=4).map("".join)

_INLINE = ("p", "td", "th", "h2", "a", "code", "li", "em", "strong", "span", "div")


def _made(page: Parsed, *allowed: str) -> list[tuple[str, dict[str, str]]]:
    """Elements other than those the context itself makes."""
    return [(e.tag, e.attrs) for e in page.elements if e.tag not in allowed]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(text=HOSTILE_TEXT)
def test_markdown_escaping_gives_back_the_text(text: str) -> None:
    shown = one_line(text)
    # a character reference is whole: GitHub shows "&\#123;" as written
    assert not re.search(r"&[^;\s]*\\", md(text) + md_cell(text)), text
    contexts = {
        "paragraph": (f"Text: {md(text)}", "p", "Text: ", ()),
        "block": (md(text), "p", "", ()),
        "heading": (f"## {md(text)}", "h2", "", ("a",)),
        "cell": (f"| h |\n|---|\n| {md_cell(text)} |", "td", "", _TABLE),
        "header": (f"| {md_cell(text)} |\n|---|\n| x |", "th", "", _TABLE),
        "link": (f"[{md(text)}](#there)", "a", "", ("p",)),
        "code": (f"Text: {code(text)} {md(text)}", "code", "", ("p",)),
        "code cell": (
            f"| h |\n|---|\n| {code(text, in_table=True)} |",
            "code",
            "",
            _TABLE,
        ),
    }
    for name, (source, tag, before, others) in contexts.items():
        page = Parsed(to_html(source))
        found = [e for e in page.elements if e.tag == tag]
        if not shown.strip() and tag == "p":
            continue  # no text, no paragraph
        assert found, (name, source)
        got = found[0].texts()
        if tag == "h2":
            got = got.removesuffix("¶")  # the permalink
        expected = before + (_code_text(text) if tag == "code" else shown)
        assert got == expected, (name, source)
        assert _made(page, tag, *others) == [], (name, source)
        for element in page.elements:
            extra = set(element.attrs) - {"id", "href", "class", "title"}
            assert not extra, (name, source)
            assert element.attrs.get("class") in (None, "headerlink"), (name, source)


_TABLE = ("table", "thead", "tbody", "tr", "th", "td")


def _code_text(text: str) -> str:
    """A code span's text: line feeds spaces, the tab kept, the rest escaped."""
    return "".join(
        ch if ch.isprintable() or ch == "\t" else shown_escaped(ch)
        for ch in text.replace("\n", " ")
    )


@settings(max_examples=300, deadline=None, derandomize=True)
@given(text=HOSTILE_TEXT)
def test_javascript_escaping_gives_back_the_text(text: str) -> None:
    assert json.loads(js_string(text)) == text  # JSON: a JavaScript string literal
    comment = js_doc(text, "  ")
    assert comment.startswith("/**") and comment.endswith("*/")
    assert "*/" not in comment[2:-2]  # the comment ends where it should, only
    first, *rest = comment[3:-2].split("\n")
    body = first + "".join(line.lstrip().removeprefix("*") for line in rest)
    assert all(ch.isprintable() or ch == "\n" for ch in comment), comment
    assert "".join(body.split()) == escaped_text(
        _FOLD.sub("", text.replace("*/", "*\\/").replace("``", "`"))
    )


def test_every_hostile_text_is_used() -> None:
    assert ROOT.is_dir() and len(HOSTILE) >= 30


def test_contract_reads_only_true_inline_literals_as_code() -> None:
    """A docstring's ``name`` is code on the contract page; backquotes from a rule's
    text that reStructuredText would not read as a literal (a space just inside
    them) stay text, escaped."""
    from rulesc.emit.markdown.contract import _doc_md

    assert _doc_md("Calls ``roll()`` once.") == "Calls `roll()` once."
    shown = _doc_md("Hit locations `` ` `` ``` ~~~.")
    assert "<code>" not in shown and "`" not in shown.replace("\\`", "")
    assert one_line(to_html(shown)).count("<code>") == 0
