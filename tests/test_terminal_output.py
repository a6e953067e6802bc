"""Terminal: no control character from the rules reaches rulesc's output unescaped.

Every text field of a copy of the rules (titles, units, descriptions, sections,
rulings) is given escape sequences, C1 controls, bidirectional and invisible
format characters; each command that prints them runs in-process and its
stdout and stderr hold none of them (the newline and tab of rulesc's layout
aside). The escaping itself is property-tested, JSON round trip included.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.cli import main
from rulesc.workbench.output import terminal_safe

from .conftest import copy_rules

HOSTILE = r"\e]0;T\a\e[2J\x9b\x85\u202e\u2066\u200b\u200f\u2028\u2029\ufeff\x7f\x01\r"
_FIELD = re.compile(
    r"^(\s*(?:- )?(?:title|description|section|question|ruling|reason):)"
    r" (?![>|])(.+)$"
)
_FORBIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]"
)


def _poisoned(target: Path) -> int:
    """Copy rules/ to ``target`` with HOSTILE at the end of every one-line text
    field; the number of fields poisoned."""
    copy_rules(target)
    count = 0
    for path in target.glob("*/*.yaml"):  # the rules, not package.yaml
        lines: list[str] = []
        for line in path.read_text(encoding="utf-8").split("\n"):
            if m := _FIELD.match(line):
                value = m.group(2)
                if value[0] == '"':  # escaped for YAML already
                    value = value[1:-1]
                else:
                    if value[0] == "'":
                        value = value[1:-1].replace("''", "'")
                    value = value.replace("\\", "\\\\").replace('"', '\\"')
                line = f'{m.group(1)} "{value}{HOSTILE}"'
                count += 1
            lines.append(line)
        path.write_text("\n".join(lines), encoding="utf-8")
    return count


@pytest.fixture(scope="module")
def hostile_rules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rules = tmp_path_factory.mktemp("hostile") / "rules"
    assert _poisoned(rules) > 100
    assert main(["validate", "--rules", str(rules)]) == 0  # every text is taken
    return rules


COMMANDS = [
    ["validate"],
    ["explain", "d20_scifi.crawl_speed", "1", "1"],
    ["explain", "d20_scifi.cover", "1/2"],
    ["explain", "gurps.random_hit", "--seed", "3"],
    ["roll", "d20_scifi.full_exposure_time", "--stats"],
    ["roll", "gurps.random_hit_check", "--seed", "2"],
    ["explain", "d20_scifi.cover", "--format", "json"],
    ["explain", "d20_scifi.nope\x1b[2J\u202e"],
    ["roll", "3d6\x1b]0;T\x07"],
    ["explain", "d20_scifi.cover", "--bogus\x1b[2J"],
    ["roll", "3d6\x1b]0;T\x07"],
    ["explain", "d20_scifi.cover", "--bogus\x1b[2J"],
    [
        "simulate",
        "d20_scifi.simulate_radiation",
        "--level",
        "High",
        "--exposed-minutes",
        "30",
        "--fort-bonus",
        "2",
        "--seed",
        "7",
    ],
    [
        "simulate",
        "d20_scifi.simulate_radiation",
        "--level",
        "High\x1b[2J",
        "--exposed-minutes",
        "30",
        "--fort-bonus",
        "2",
    ],
    [
        "simulate",
        "d20_scifi.simulate_radiation",
        "--level",
        "Low",
        "--exposed-minutes",
        "30",
        "--fort-bonus",
        "2",
        "--runs",
        "20",
        "--json",
    ],
]


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c)[:40] for c in COMMANDS])
def test_no_control_character_reaches_the_output(
    command: list[str], hostile_rules: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    at = 1 if command[0] == "simulate" else len(command)  # the rule's options come last
    try:
        code = main([*command[:at], "--rules", str(hostile_rules), *command[at:]])
    except SystemExit as exit_:  # argparse's own usage errors
        code = int(str(exit_.code))
    out, err = capsys.readouterr()
    assert code in (0, 1, 2), (out, err)
    if command in COMMANDS[1:3] or (
        command[:2] == ["simulate", "d20_scifi.simulate_radiation"]
        and "--seed" in command
    ):
        assert code == 0, err  # the rules' texts were explained, not refused
        assert "\\u001b]0;T\\u0007" in out
    assert out or err
    assert not _FORBIDDEN.search(out), out
    assert not _FORBIDDEN.search(err), err


def test_a_build_error_quoting_hostile_text_is_escaped(
    hostile_rules: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(hostile_rules, rules)
    zero_g = rules / "d20_scifi" / "zero_g.yaml"
    text = zero_g.read_text(encoding="utf-8")
    zero_g.write_text(text.replace("kind: formula", 'kind: "formula\\e[2J"', 1))
    assert main(["validate", "--rules", str(rules)]) == 1
    out, err = capsys.readouterr()
    assert "\\u001b[2J" in err or "\\x1b[2J" in err
    assert not _FORBIDDEN.search(out + err)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.text(alphabet=st.characters(codec=None), max_size=40))
def test_terminal_safe_leaves_nothing_a_terminal_acts_on(text: str) -> None:
    shown = terminal_safe(text)
    assert all(ch.isprintable() or ch in "\n\t" for ch in shown)
    assert not _FORBIDDEN.search(shown)
    if text.isprintable():
        assert shown == text
    # JSON written without ascii escapes reads back the same once made safe
    if not any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        assert json.loads(terminal_safe(json.dumps(text, ensure_ascii=False))) == text


def test_diff_and_accept_of_hostile_rules_are_escaped(
    hostile_rules: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A table cell changed to hostile text: diff reports the changed figure and
    answers, accept rewrites the examples and prints its diff, all escaped."""
    rules = tmp_path / "rules"
    shutil.copytree(hostile_rules, rules)
    git = [
        "git",
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "-c",
        "commit.gpgsign=false",
    ]
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run([*git, *step], cwd=tmp_path, check=True)
    radiation = rules / "d20_scifi" / "radiation.yaml"
    text = radiation.read_text(encoding="utf-8")
    assert "skin: Open lesions\n" in text
    radiation.write_text(
        text.replace("skin: Open lesions\n", f'skin: "Open lesions{HOSTILE}"\n'),
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    for command in (["diff", "--base", "HEAD"], ["accept"]):
        code = main([*command, "--rules", str(rules)])
        out, err = capsys.readouterr()
        assert code == 0, (command, out, err)
        assert "Open lesions\\u001b]0;T\\u0007" in out, (command, out)
        assert not _FORBIDDEN.search(out), out
        assert not _FORBIDDEN.search(err), err
    assert "Open lesions" in radiation.read_text(encoding="utf-8")
