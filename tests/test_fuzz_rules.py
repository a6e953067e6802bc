"""Fuzzing: mutated copies of the real rules files, and raw bytes, never crash rulesc.

Hypothesis (derandomized, with a bounded number of examples) mutates the real rules
files line by line and character by character, and feeds raw bytes to the loader.
Every outcome is a build or located errors: each error names a rules file and a
line and column inside it, on one line; nothing else is ever raised.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesc.common.diagnostics import (
    Diagnostic,
    RulesError,
)
from rulesc.front.loader import load_text
from rulesc.pipeline import generate, load_systems

from .conftest import RULES, copy_rules

FILES = sorted(p.relative_to(RULES).as_posix() for p in RULES.rglob("*.yaml"))
TOKENS = (
    '"',
    "'",
    ":",
    ": ",
    "- ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&a ",
    "*a",
    "!!str ",
    "!!python/object:os.system ",
    "<<: ",
    "\t",
    "#",
    "%YAML 1.1\n",
    "---\n",
    "...\n",
    "? ",
    "|",
    ">",
    "0755",
    "0o7",
    "0x1F",
    "1:30",
    ".inf",
    ".nan",
    "1e999",
    "1.5",
    "2024-01-01",
    "yes",
    "no",
    "null",
    "~",
    "true",
    "-1",
    "99999999999999999",
    "123456789012345",
    "1d0",
    "0d6",
    "3d",
    "d6",
    "2d6x",
    "//",
    " // 0",
    "clamp(",
    " if ",
    " else ",
    "\x00",
    "\x1b",
    "\r",
    "\u2028",
    "\ufeff",
    "é",
    "😀",
    "\u202e",
    "\\",
    "\\ud800",
    "\n",
    "  ",
    "\n  - ",
    "kind: table",
    "kind: formula",
    "Total",
    "cover",
    "broken",
    "id: cover",
    "None",
    "lambda",
    "ＳＭＡＬＬ",
)
# Values that get past YAML and the schema, to reach the later stages.
VALUES = (
    "0",
    "-5",
    "7",
    "100",
    "999999999999999",
    "true",
    "false",
    "null",
    '""',
    "x",
    "Total",
    "total",
    "1/2",
    "Critical",
    "3d6",
    "0d6",
    "1d0",
    "3d",
    "2d6x10",
    "2d10+10",
    "1",
    "clamp(1, 0, 2)",
    "occupied_limbs // 0",
    "climb_bonus * 2",
    "max(climb_bonus, 1)",
    "min(1)",
    "1 if limbs else 2",
    '"one_arm"',
    "[]",
    "{}",
    "[1, 2]",
    "cover",
    "crawl_speed",
    "CoverLevel",
    "CoverRow",
    "ZERO_G",
    "TOTAL",
    "RuleInputError",
    "table",
    "dice",
    "formula",
    "int",
    "text",
    "bool",
    "choice",
    "up",
    "gurps",
    "incubation",
    "fort_dc",
    "[3, 4]",
    "[7]",
    "{dice: 1d4}",
)
_VALUE = re.compile(r"^(\s*(?:- )?[A-Za-z_]+: )(.+)$")
SETTINGS = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of rules/ that every example of the module mutates and restores."""
    rules = tmp_path_factory.mktemp("fuzz") / "rules"
    copy_rules(rules)
    return rules


@contextmanager
def _rules_with(rules: Path, relpath: str, data: bytes) -> Iterator[Path]:
    target = rules / relpath
    try:
        target.write_bytes(data)
        yield rules
    finally:
        target.write_bytes((RULES / relpath).read_bytes())


def _check_located(diagnostics: list[Diagnostic], rules: Path) -> None:
    assert diagnostics, "an error with no diagnostics"
    for d in diagnostics:
        assert d.message and "\n" not in d.message, d
        assert d.line >= 1 and d.col >= 1, d
        path = rules.parent / d.file
        assert path.exists(), d
        if path.is_file():
            lines = path.read_bytes().decode("utf-8", "replace").split("\n")
            assert d.line <= len(lines), d
            assert d.col <= len(lines[d.line - 1]) + 1, d


def _build_or_errors(rules: Path, relpath: str) -> None:
    """Build the system of ``relpath`` alone (the others are not what changed)."""
    try:
        generate(load_systems(rules, {relpath.split("/")[0]}))
    except RulesError as exc:
        _check_located(exc.diagnostics, rules)


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    """A real rules file with one to three mutations."""
    relpath = draw(st.sampled_from(FILES))
    lines = (RULES / relpath).read_text(encoding="utf-8").split("\n")
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        kinds = ["delete", "copy", "swap", "indent", "token", "value", "value"]
        kind = draw(st.sampled_from(kinds))
        value = _VALUE.match(lines[at])
        if kind == "value" and value:
            lines[at] = value.group(1) + draw(st.sampled_from(VALUES))
        elif kind == "delete" and len(lines) > 1:
            del lines[at]
        elif kind == "copy":
            lines.insert(at, lines[at])
        elif kind == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif kind == "indent":
            lines[at] = draw(st.sampled_from(["", "  ", "    "])) + lines[at].lstrip()
        else:
            col = draw(st.integers(0, len(lines[at])))
            cut = draw(st.integers(0, 3))
            token = draw(st.one_of(st.sampled_from(TOKENS), st.text(max_size=3)))
            lines[at] = lines[at][:col] + token + lines[at][col + cut :]
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    if draw(st.booleans()) and data:
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1 :]
    return relpath, data


@SETTINGS
@given(case=mutated())
def test_mutated_rules_build_or_fail_with_located_errors(
    case: tuple[str, bytes], scratch: Path
) -> None:
    relpath, data = case
    with _rules_with(scratch, relpath, data) as rules:
        _build_or_errors(rules, relpath)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(data=st.binary(max_size=300) | st.text(max_size=200).map(str.encode))
def test_raw_bytes_load_or_fail_with_located_errors(data: bytes) -> None:
    try:
        load_text(data, "rules/x/raw.yaml")
    except RulesError as exc:
        [d] = exc.diagnostics
        assert d.file == "rules/x/raw.yaml" and d.line >= 1 and d.col >= 1
        assert d.message and "\n" not in d.message


@settings(max_examples=5, deadline=None, derandomize=True)
@given(data=st.binary(min_size=1, max_size=200))
def test_raw_bytes_in_the_rules_folder_fail_with_located_errors(
    data: bytes, scratch: Path
) -> None:
    with _rules_with(scratch, "d20_scifi/zero_g.yaml", data) as rules:
        _build_or_errors(rules, "d20_scifi/zero_g.yaml")
