"""The rules editor's loop: validate runs the worked examples, explain of one rule
while others' fail, located YAML syntax errors with hints, the boolean hint,
roll errors as sentences, and the count of files a build changed (in-process,
on a small rules folder of two rules)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.cli import main
from rulesc.common.diagnostics import Diagnostic, RulesError
from rulesc.front.loader import load_text
from rulesc.front.yaml_words import GENERAL_HINT, PREFIX, Found, said
from rulesc.runtime.dice import DiceSyntaxError
from rulesc.runtime.dice_notation import parse_notation
from rulesc.workbench.roll_words import sentence

FIRST = Path(__file__).resolve().parent.parent / "docsite" / "first"

SECOND_RULE = """\
  - id: double
    kind: formula
    title: Double
    summary: Twice the number.
    source:
      section: Abilities
    function: double
    parameters:
      - name: n
        type: int
        min: 0
        max: 10
        description: The number.
    expression: n * 2
    examples:
      - name: two
        summary: Two doubled is four.
        args: {n: 2}
        expect: 4
"""

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project of one system (docsite/first's, with a second rule), the
    working folder of the test."""
    shutil.copytree(FIRST, tmp_path / "rules")
    path = tmp_path / "rules" / "starter" / "abilities.yaml"
    path.write_text(path.read_text(encoding="utf-8") + SECOND_RULE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "rules"


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    """rulesc in this process: its exit code, stdout and stderr."""

    def _run(*words: str) -> tuple[int, str, str]:
        code = main(list(words))
        out = capsys.readouterr()
        return code, out.out, out.err

    return _run


def _break_example(folder: Path) -> None:
    path = folder / "starter" / "abilities.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("expect: 4", "expect: 5"), encoding="utf-8")


def test_validate_counts_the_worked_examples_that_hold(folder: Path, run: Run) -> None:
    code, out, err = run("validate")
    assert (code, err) == (0, "")
    assert out == "ok: 2 rules in 1 system(s), 2 worked examples hold\n"


def test_validate_fails_a_worked_example_located_as_the_build_does(
    folder: Path, run: Run
) -> None:
    _break_example(folder)
    code, out, err = run("validate")
    assert code == 1 and out == ""
    lines = (folder / "starter" / "abilities.yaml").read_text().splitlines()
    line = lines.index("      - name: two") + 1
    assert err.startswith(f"rules/starter/abilities.yaml:{line}:9: error: ")
    assert "worked example 'two' of rule 'starter.double' does not hold" in err
    assert "expected 4" not in err and "expected 5, got 4" in err
    assert "hint: " in err
    code, out, err = run("validate", "--no-examples")
    assert (code, err) == (0, "")
    assert out == (
        "ok: 2 rules in 1 system(s); worked examples not checked (--no-examples)\n"
    )


def test_explain_of_one_rule_while_another_rule_s_example_fails(
    folder: Path, run: Run
) -> None:
    _break_example(folder)
    code, out, err = run("explain", "starter.ability_modifier", "15")
    assert code == 0, err
    assert "Answer\n  2" in out
    assert err == ""  # the other rule's example is not this command's business
    code, out, err = run("explain", "starter.double", "3")
    assert code == 0, err
    assert "Answer\n  6" in out
    assert err == (
        "note: worked example 'two' of starter.double does not hold: expected 5, "
        "got 4 (rulesc accept takes the new answer)\n"
    )


def test_build_says_how_many_files_changed(folder: Path, run: Run) -> None:
    code, out, err = run("build", "--no-cache", "--out", "out")
    assert code == 0, err
    total = len([p for p in Path("out").rglob("*") if p.is_file()])
    assert (
        out == f"ok: out/ written: {total} files changed ({total} new), 0 unchanged\n"
    )
    assert run("build", "--no-cache", "--out", "out")[1] == (
        f"ok: {total} files in out/ already up to date\n"
    )
    path = folder / "starter" / "abilities.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("title: Double", "title: Twice"), encoding="utf-8")
    before = {p: p.read_bytes() for p in Path("out").rglob("*") if p.is_file()}
    code, out, err = run("build", "--no-cache", "--out", "out")
    assert code == 0, err
    after = {p: p.read_bytes() for p in Path("out").rglob("*") if p.is_file()}
    changed = sum(1 for p, blob in after.items() if before.get(p) != blob)
    assert 0 < changed < total
    assert out == (
        f"ok: out/ written: {changed} files changed, {total - changed} unchanged\n"
    )


@pytest.mark.parametrize(
    ("notation", "said", "caret"),
    [
        (
            "3d6+",
            "3d6+: the notation ends too soon after '+'; a die or number must follow.",
            4,
        ),
        (
            "3d6 >=",
            "3d6 >=: the notation ends too soon after '>='; a die or number must follow.",
            6,
        ),
        ("3d6)", "3d6): ')' cannot come after '3d6', at character 4.", 3),
        ("*2", "*2: '*' cannot start a dice expression, at character 1.", 0),
        ("(3d6", "(3d6: '(' is not closed, at character 1.", 0),
        ("1d0", "1d0: a die needs at least one side, at character 3.", 2),
        ("2d6x", "2d6x: the multiplier is missing, at character 5.", 4),
    ],
)
def test_a_bad_notation_is_one_sentence_naming_it(
    run: Run, notation: str, said: str, caret: int
) -> None:
    code, out, err = run("roll", "--", notation)
    assert (code, out) == (2, "")
    first, shown, pointer, hint = err.splitlines()
    assert first == f"rulesc roll: error: {said}"
    assert shown == f"    {notation}" and pointer == " " * (4 + caret) + "^"
    assert hint.startswith("  hint: ")


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="0123456789d+-*/()<>=!khlx,[]{} ", max_size=12))
def test_every_refusal_reads_as_a_sentence(text: str) -> None:
    try:
        parse_notation(text, bare_d6=True)
    except DiceSyntaxError as exc:
        said = sentence(text, exc.message, exc.offset)
    else:
        return
    assert said.endswith(".") and said.count("\n") == 0
    assert "bad dice expression" not in said and "unexpected" not in said
    assert said.startswith(f"{text}: ") or not text.strip()


SYNTAX = [
    # (text, line, col, words in the message, words in the hint)
    ("a:\n\tb: 1\n", 2, 1, "a tab character", "indent with spaces"),
    ("a: b: c\n", 1, 5, "a ': ' inside a value that is not quoted", "quote a value"),
    ("a:\n  b: 1\n    c: 2\n", 3, 6, "a key indented under a line", "line the key up"),
    ("a: 1\nb\nc: 2\n", 2, 1, "its ':' is missing", "'key: value'"),
    ('a: "abc\nb: 1\n', 1, 4, "a quote that is never closed", "close the quote"),
    ("a: 'abc\nb: 1\n", 1, 4, "a quote that is never closed", "close the quote"),
    ("a: [1, 2\nb: 1\n", 1, 4, "a [ ] list that is not closed", "close the [ ] list"),
    ("a: {x: 1\nb: 1\n", 1, 4, "a { } mapping that is not closed", "with '}'"),
    ("a: {x: 1 y: 2}\n", 1, 11, "where a comma or its '}' was expected", "comma"),
    ('a: "x\\qy"\n', 1, 7, "\\q is not an escape", "single quotes"),
    ("a:\n  b: 1\n c: 2\n", 3, 2, "indented to column 2", "line it up"),
    ("a:\n  - 1\n  b: 2\n", 3, 3, "a key among the items of a list", "'- '"),
    ("a: @x\n", 1, 4, "starts with '@'", "quote a value that starts with this"),
    ("a: | x\n  y\n", 1, 6, "text after '|' or '>'", "next line"),
    ('a: "x" y\n', 1, 8, "text after a closing quote", "inside the quotes"),
    ("a: [1, 2]]\n", 1, 10, "a ']' that closes no bracket", "remove the ']'"),
    ("a: &\n", 1, 4, "'&' or '*'", "quote a value"),
]


@pytest.mark.parametrize(("text", "line", "col", "said", "hint"), SYNTAX)
def test_a_yaml_syntax_error_is_located_in_the_project_s_words(
    text: str, line: int, col: int, said: str, hint: str
) -> None:
    with pytest.raises(RulesError) as caught:
        load_text(text.encode(), "rules/x/a.yaml")
    [found] = caught.value.diagnostics
    assert (found.file, found.line, found.col) == ("rules/x/a.yaml", line, col)
    assert found.message.startswith(PREFIX) and said in found.message, found.message
    assert found.hint is not None and hint in found.hint, found.hint


def test_a_syntax_error_of_no_known_kind_still_gets_a_place_and_a_hint() -> None:
    found = Found("found something odd", "while reading", (3, 4), None, "x")
    assert said(found) == (
        (3, 4),
        PREFIX + "found something odd (while reading)",
        GENERAL_HINT,
    )


def test_a_duplicate_key_says_what_to_do() -> None:
    with pytest.raises(RulesError) as caught:
        load_text(b"a: 1\nb: 2\na: 3\n", "rules/x/a.yaml")
    [found] = caught.value.diagnostics
    assert (found.line, found.col) == (3, 1)
    assert found.message == "duplicate key 'a' (first at line 1)"
    assert found.hint is not None and "remove one of them" in found.hint


@pytest.mark.parametrize("word", ["yes", "no", "on", "off", "Yes", "OFF"])
@pytest.mark.parametrize(
    "message",
    [
        "column 'c' holds bool values, not {w!r}",
        "default {w!r} is not a valid bool value for 'p'",
        "expression: unknown name '{w}'",
        "worked example 'e' of rule 's.r' does not hold: raised RuleInputError: "
        "p must be True or False, not {w!r}",
    ],
)
def test_yes_no_on_off_where_a_boolean_is_wanted_get_the_hint(
    word: str, message: str
) -> None:
    found = Diagnostic("rules/x/a.yaml", 1, 1, message.format(w=word), "other")
    assert found.hint == f"write true or false; {word!r} is text in YAML 1.2"


def test_the_boolean_hint_is_not_given_where_no_boolean_is_wanted() -> None:
    for message in (
        "row key 'no' is not a label of Size",
        "expression: unknown name 'n'",  # a parameter n, misspelt or missing
        "column 'c' holds int values, not 'yes'",
    ):
        assert Diagnostic("f.yaml", 1, 1, message, "other").hint == "other"


def test_a_boolean_written_yes_in_the_rules_gets_the_hint(
    folder: Path, run: Run
) -> None:
    path = folder / "starter" / "abilities.yaml"
    text = path.read_text(encoding="utf-8")
    flag = (
        "        description: The number.\n"
        "      - name: twice\n"
        "        type: bool\n"
        "        default: yes\n"
        "        description: Whether to double it.\n"
    )
    path.write_text(
        text.replace("        description: The number.\n", flag), encoding="utf-8"
    )
    code, _, err = run("validate")
    assert code == 1
    assert "hint: write true or false; 'yes' is text in YAML 1.2" in err


def test_make_test_quick_leaves_out_the_browser_and_type_checks() -> None:
    """``make test-quick`` runs pytest on its list of files (each one there),
    none of the site's, JavaScript's or fuzzers', no type checks, then
    ``rulesc check``; ``make test`` still runs every file."""
    make = shutil.which("make")
    assert make is not None, "make is needed to run the suite"
    root = FIRST.parent.parent
    done = subprocess.run(
        [make, "--dry-run", "--no-print-directory", "test-quick"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    [pytest_line] = [ln for ln in done.stdout.splitlines() if "/pytest " in ln]
    files = [w for w in pytest_line.split() if w.startswith("tests/")]
    assert Path(__file__).relative_to(root).as_posix() in files
    assert all((root / path).is_file() for path in files)
    assert not any(
        path.startswith(("tests/site", "tests/test_js_", "tests/test_fuzz_"))
        for path in files
    )
    assert "-m" not in pytest_line.split()  # no marks: make test runs every test
    run_lines = done.stdout.split(pytest_line, 1)[1]  # after the set-up's
    assert "rulesc check" in run_lines
    assert not any(tool in run_lines for tool in ("mypy", "pyright", "ruff"))
