"""Reader pages read as a rulebook: worked examples in words, conditions in
words, no internal file names (issue 24).

Every generated page of the project, the cookbooks and the dice formulas is
walked. What a reader reads is the page less its "For programmers" parts (the
folded ``<details>`` block of the examples as calls, and the section at the
end), less its "try it" form's data and its "@generated" comment.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesc.emit.markdown.example_words import example_words
from rulesc.emit.markdown.pages import example_shape
from rulesc.emit.markdown.words import (
    to_words,
    value_words,
)
from rulesc.examples import call_text
from rulesc.front.model import System
from rulesc.lang.expr import parse
from rulesc.pipeline import load_systems

from .conftest import GENERATED, ROOT
from .site_markdown import to_html

_DETAILS = re.compile(
    r'<details class="rb-programmers" markdown="1">.*?</details>', re.DOTALL
)
_FORM = re.compile(r'<div class="rulebook-try"[^\n]*</div>')
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_MATH = re.compile(r"\$[^$\n]+\$")
_SNAKE = re.compile(r"\b[A-Za-z0-9]+_[A-Za-z0-9_]+\b")
_FILE = re.compile(r"\b[\w./-]+\.(?:ya?ml|txt|py|json|js)\b")
_HASHY = re.compile(r"\b[0-9a-f]{12,}\b")
# "not" as an operator (not after "is" or "does"), or a field read "X at *key*"
_CODE_WORDS = re.compile(
    r"(?:^|\(|\band |\bor |, )not\b|\bat \*|==|!=|>=|<=|&&|\|\||\bnull\b|`"
)


def reader_text(page: str) -> str:
    """What a reader reads of a page: no programmer's parts, no form data,
    no comment."""
    text = page.split("\n## For programmers\n", 1)[0]
    return _COMMENT.sub("", _FORM.sub("", _DETAILS.sub("", text)))


def _pages(docs: Path) -> Iterator[tuple[str, str]]:
    for path in sorted(docs.rglob("*.md")):
        if path.name in ("contract.md", "SUMMARY.md"):  # for programmers
            continue
        yield path.relative_to(docs).as_posix(), path.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def builds(cookbook_out: Path, df_out: Path) -> list[tuple[Path, Path]]:
    """Each build's docs folder, with its rules folder."""
    return [
        (GENERATED / "docs", ROOT / "rules"),
        (cookbook_out / "docs", ROOT / "tests" / "cookbook"),
        (df_out / "docs", ROOT / "tests" / "dice_formulas"),
    ]


def _systems(rules: Path) -> list[System]:
    return load_systems(rules)


def test_every_worked_example_reads_as_words_and_its_call_is_for_programmers(
    builds: list[tuple[Path, Path]],
) -> None:
    seen = 0
    for docs, rules in builds:
        for system in _systems(rules):
            for rule in system.rules:
                if not rule.examples:
                    continue
                path = docs / system.id / f"{rule.id}.md"
                page = path.read_text(encoding="utf-8")
                reader = reader_text(page)
                folded = "".join(_DETAILS.findall(page))
                shape = example_shape(system, rule)
                for ex in rule.examples:
                    seen += 1
                    call = call_text(rule, ex)
                    assert call not in reader, (path, ex.name)
                    assert f"`{ex.name}`" in folded, (path, ex.name)
                    words = example_words(ex, shape)
                    assert words.startswith("With ") or words.startswith("It "), words
                    assert words in reader, (path, ex.name)
                    assert "`" not in words and not _SNAKE.search(
                        words.replace("\\_", "_")
                    ), words
                    expect = ex.expect if isinstance(ex.expect, dict) else {}
                    for key in expect:
                        column = shape.columns.get(key)
                        if column is not None and not ex.raises:
                            # A mapping answer's key is said by its label.
                            said = key if key in shape.keys else column.title
                            title = said.replace("_", "\\_")
                            assert title in words, (path, ex.name, key)
    assert seen > 100


def test_the_folded_calls_render_on_the_site() -> None:
    page = (GENERATED / "docs" / "d20_scifi" / "cover.md").read_text(encoding="utf-8")
    html = to_html(page)
    folded = html.split("<details", 1)[1].split("</details>", 1)[0]
    assert "<summary>For programmers" in folded
    assert "<code>" in folded and "`" not in folded


def test_no_internal_file_names_on_reader_pages(
    builds: list[tuple[Path, Path]],
) -> None:
    for docs, _ in builds:
        # The rules folders the build read (a house pack may be under tests/):
        # a page names its rule's file in them, and nothing else of tests/.
        manifest = json.loads((docs.parent / "manifest.json").read_text("utf-8"))
        for name, page in _pages(docs):
            everything = _COMMENT.sub("", _FORM.sub("", page))
            for folder in manifest["folders"]:
                everything = everything.replace(f"{folder}/", "")
            assert "tests/" not in everything, name
            assert not _HASHY.search(everything), (name, _HASHY.search(everything))
            reader = reader_text(page)
            assert not _FILE.search(reader.replace("\\_", "_")), (
                name,
                _FILE.search(reader),
            )


def _conditions(page: str) -> Iterator[str]:
    """The conditions a page says: the "When" cells of a table of cases, the
    cases of a wide one (its header), the tests of steps, and the "until" of
    turns."""
    lines = page.splitlines()
    for at, line in enumerate(lines):
        if line.startswith("| When |"):
            for row in lines[at + 2 :]:
                if not row.startswith("|"):
                    break
                yield row.split(" | ")[0].removeprefix("| ")
        elif line.startswith("Each column is a case") and at + 2 < len(lines):
            yield from lines[at + 2].strip("| ").split(" | ")[1:]
        found = re.match(
            r"\s*- (?:If|Otherwise, if|While) (.*?)(?: \(at most .*)?:$", line
        )
        if found:
            yield found.group(1)
        found = re.match(r"\s*- When (.*), nothing changes\.$", line)
        if found:
            yield found.group(1)


def test_conditions_read_as_words(builds: list[tuple[Path, Path]]) -> None:
    seen = 0
    for docs, _ in builds:
        for name, page in _pages(docs):
            for condition in _conditions(reader_text(page)):
                seen += 1
                words = _MATH.sub("", condition).replace("\\_", "_")
                assert not _SNAKE.search(words), (name, condition)
                assert not _CODE_WORDS.search(words), (name, condition)
    assert seen > 40


def _words(text: str) -> str:
    return to_words(parse(text), rounding="down")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("not flag", "*flag* is no"),
        ("flag", "*flag* is yes"),
        ("not (limbs >= 2)", "*limbs* is less than 2"),
        ("not (limbs < 2)", "*limbs* is at least 2"),
        ('not (mode == "at_cover")', "*mode* is not “at cover”"),
        ('mode != "at_cover"', "*mode* is not “at cover”"),
        ('not (mode in ["a", "b_c"])', "*mode* is none of a or “b c”"),
        ("not (flag and other)", "*flag* is no or *other* is no"),
        ("not (flag or limbs > 1)", "*flag* is no and *limbs* is at most 1"),
        (
            "flag or (other and limbs > 1)",
            "*flag* is yes or both *other* is yes and *limbs* is more than 1",
        ),
        (
            "flag and (other or limbs > 1 or limbs < 0)",
            "*flag* is yes and any of *other* is yes, *limbs* is more than 1"
            " or *limbs* is less than 0",
        ),
        ("gone == null", "*gone* is not given"),
        ("not (gone == null)", "*gone* is given"),
        ("not true", "never"),
    ],
)
def test_every_construct_of_a_condition_in_words(text: str, said: str) -> None:
    assert _words(text) == said


def test_a_field_read_and_a_call_in_words() -> None:
    said = _words("not row(mode).targetable and other_rule(limbs) > 2")
    assert (
        said == "targetable for *mode* is no and other rule for *limbs* is more than 2"
    )
    assert value_words(parse('"x_y"'), rounding="down") == "“x y”"
