"""rulesc accept: a worked example whose answer changed takes its new answer, in
place, and nothing else in the rules files moves."""

from __future__ import annotations

import difflib
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.cli import EXIT_OK, EXIT_RULES, main
from rulesc.front.loader import (
    load_file,
    load_text,
)
from rulesc.workbench.yaml_edit import node_spans
from rulesc.workbench.yaml_text import flow, hidden

from .conftest import ROOT, copy_rules

FOLDERS = {"rules": ROOT / "rules", "cookbook": ROOT / "tests" / "cookbook"}


def _copy(tmp_path: Path, which: str) -> Path:
    rules = tmp_path / "rules"
    shutil.copytree(FOLDERS[which], rules)
    return rules


def _accept(rules: Path, *extra: str) -> int:
    return main(["accept", "--no-cache", "--rules", str(rules), *extra])


def _texts(rules: Path) -> dict[str, str]:
    return {
        p.relative_to(rules).as_posix(): p.read_text()
        for p in sorted(rules.rglob("*.yaml"))
    }


def _expects(rules: Path) -> list[tuple[Path, tuple[str | int, ...], Any]]:
    """Every worked example's expect: its file, path and value."""
    found: list[tuple[Path, tuple[str | int, ...], Any]] = []
    for path in sorted(rules.rglob("*.yaml")):
        data = load_file(path, path.name).data
        for r, rule in enumerate(data.get("rules", [])):
            for e, ex in enumerate(rule.get("examples", [])):
                if "expect" in ex:
                    found.append(
                        (path, ("rules", r, "examples", e, "expect"), ex["expect"])
                    )
    return found


def _leaves(
    value: Any, path: tuple[str | int, ...]
) -> list[tuple[tuple[str | int, ...], Any]]:
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, (*path, k))]
    if isinstance(value, list):
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, (*path, i))]
    return [(path, value)]


def _wrong(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if value is None:
        return 0
    return f"not {value}"


def _corrupt(rules: Path, pick: Callable[[int, list[Any]], list[Any]]) -> int:
    """Write a wrong value in place of some leaf of each example's expect."""
    count = 0
    by_file: dict[Path, list[tuple[int, int, str]]] = {}
    for index, (path, node, expect) in enumerate(_expects(rules)):
        for leaf, value in pick(index, _leaves(expect, node)):
            text = path.read_text()
            start, end = node_spans(text)[leaf]
            if text[start] in ">|":
                # accept writes answers in flow style: a block scalar it rewrites
                # reads back the same, not as the same bytes (test_accept_block_scalars)
                continue
            by_file.setdefault(path, []).append(
                (start, end, flow(_wrong(value), text[start:end]))
            )
            count += 1
    for path, edits in by_file.items():
        text = path.read_text()
        for start, end, new in sorted(edits, reverse=True):
            text = text[:start] + new + text[end:]
        path.write_text(text)
    return count


def _some(index: int, leaves: list[Any]) -> list[Any]:
    """The first leaf, the last, or every leaf, by turns."""
    return [leaves[:1], leaves[-1:], leaves][index % 3]


@pytest.mark.parametrize("which", sorted(FOLDERS))
def test_accept_puts_back_every_answer_byte_for_byte(
    tmp_path: Path, which: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = _copy(tmp_path, which)
    before = _texts(rules)
    count = _corrupt(rules, _some)
    assert count > 10 and _texts(rules) != before
    corrupted = _texts(rules)
    assert _accept(rules, "--dry-run") == EXIT_OK
    out = capsys.readouterr().out
    assert "would rewrite" in out and "\n-        expect: " in out
    assert _texts(rules) == corrupted  # a dry run changes nothing
    assert _accept(rules) == EXIT_OK
    assert _texts(rules) == before
    assert _accept(rules) == EXIT_OK  # nothing left to do
    assert "rewrote 0 worked example(s) in 0 file(s)" in capsys.readouterr().out


def test_a_list_of_another_length_is_rewritten_in_its_own_style(tmp_path: Path) -> None:
    rules = _copy(tmp_path, "rules")
    before = _texts(rules)
    lists = [
        (p, n, v) for p, n, v in _expects(rules) if isinstance(v, list) and len(v) > 1
    ]
    assert len(lists) >= 3
    for path, node, value in reversed(lists):  # from the end, so offsets hold
        text = path.read_text()
        start, end = node_spans(text)[node]
        if text[start] == "[":
            shorter = flow(value[:-1])
        else:  # a block list: drop the last item's line
            last, _ = node_spans(text)[(*node, len(value) - 1)]
            shorter = text[start : text.rfind("\n", 0, last)]
        path.write_text(text[:start] + shorter + text[end:])
    assert _texts(rules) != before
    assert _accept(rules) == EXIT_OK
    out = tmp_path / "generated"
    assert main(["build", "--no-cache", "--rules", str(rules), "--out", str(out)]) == 0
    after = _texts(rules)
    for name, text in before.items():
        # an item put back has the fields its list's first item names: where the
        # lost item named more, only its own line differs
        changed = [
            line
            for line in difflib.unified_diff(
                text.splitlines(), after[name].splitlines(), n=0
            )
            if line[:1] in "+-" and line[:3] not in ("+++", "---")
        ]
        assert all(line[1:].lstrip().startswith("- {") for line in changed), changed
        assert len(changed) <= 4, changed


def test_house_rule_then_accept_then_build(tmp_path: Path) -> None:
    """The 3/4 cover's AC from +6 to +7: accept, build, and git shows only that."""
    repo = tmp_path / "repo"
    copy_rules(repo / "rules")
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "x"], cwd=repo, check=True)
    cover = repo / "rules" / "d20_scifi" / "cover.yaml"
    text = cover.read_text()
    old = '      - key: "3/4"\n        coverage: Leaning out around a corner.\n        hide_spot_modifier: 3\n        reflex_bonus: 3\n        cover_ac: 6\n'
    assert old in text
    cover.write_text(text.replace(old, old.replace("cover_ac: 6", "cover_ac: 7")))
    out = repo / "generated"
    args = ["--no-cache", "--rules", str(repo / "rules")]
    assert main(["build", *args, "--out", str(out)]) == EXIT_RULES
    assert main(["accept", *args]) == EXIT_OK
    assert main(["build", *args, "--out", str(out)]) == EXIT_OK
    diff = subprocess.run(
        ["git", "diff", "-U0", "--", "rules/"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    changed = [
        line
        for line in diff.splitlines()
        if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]
    assert changed == [
        "-        cover_ac: 6",
        "+        cover_ac: 7",
        "-        expect: {ac_bonus: 6}",
        "+        expect: {ac_bonus: 7}",
    ], changed
    assert "| +7 AC |" in _row(out / "docs" / "d20_scifi" / "cover.md", "3/4")


def _row(page: Path, key: str) -> str:
    return next(
        line for line in page.read_text().splitlines() if line.startswith(f"| {key} ")
    )


def test_the_sources_own_examples_are_not_rewritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = _copy(tmp_path, "rules")
    cover = rules / "d20_scifi" / "cover.yaml"
    text = cover.read_text()
    marked = text.replace(
        "      - name: warhead_vs_soft_keeps_ac\n",
        "      - name: warhead_vs_soft_keeps_ac\n        from_source: Cover, the example\n",
    )
    assert marked != text
    cover.write_text(
        marked.replace("        cover_ac: 6\n", "        cover_ac: 7\n", 1)
    )
    before = _texts(rules)
    assert _accept(rules) == EXIT_RULES
    err = capsys.readouterr().err
    assert (
        "worked example 'warhead_vs_soft_keeps_ac' of rule 'd20_scifi.attack_through_cover' was not accepted"
        in err
    )
    assert "record an erratum instead" in err
    assert _texts(rules) == before


def test_an_example_whose_raise_changed_is_left_to_a_person(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = _copy(tmp_path, "rules")
    raising = [
        (p, r, e)
        for p in sorted(rules.rglob("*.yaml"))
        for r, rule in enumerate(load_file(p, p.name).data.get("rules", []))
        for e, ex in enumerate(rule.get("examples", []))
        if "raises" in ex
    ]
    path, r, e = raising[0]
    text = path.read_text()
    start, end = node_spans(text)[("rules", r, "examples", e, "raises")]
    line_start = text.rfind("\n", 0, start) + 1
    path.write_text(
        text[:line_start]
        + text[line_start:end].replace("raises: RuleInputError", "expect: 1")
        + text[end:]
    )
    before = _texts(rules)
    assert _accept(rules) == EXIT_RULES
    assert "whether it raises changed" in capsys.readouterr().err
    assert _texts(rules) == before


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        False,
        0,
        -3,
        "Fatigued",
        "Headache / Pain",
        "1/2",
        "yes",
        "null",
        "a: b",
        "x #y",
        "it's",
        [1, 2],
        {"a": [None]},
    ],
)
def test_flow_writes_what_yaml_reads_back(value: Any, tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(f"v: {flow(value)}\n")
    assert load_file(path, "x.yaml").data == {"v": value}


@settings(max_examples=300, derandomize=True, deadline=None)
@given(
    # every text the rules may hold (no NUL: the loader refuses it even escaped)
    st.text(
        st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=12
    ),
    st.sampled_from(["", "'old'", '"old"', "old"]),
)
def test_any_text_is_written_so_that_it_loads_and_reads_back(
    value: str, old: str
) -> None:
    """Whatever the characters (those the loader refuses as themselves, those a
    terminal hides), in whatever quoting the old value had."""
    written = flow(value, old)
    assert not any(hidden(c) for c in written)
    assert load_text(f"v: {written}\n".encode(), "x.yaml").data == {"v": value}
    assert load_text(f"v: [{written}]\n".encode(), "x.yaml").data == {"v": [value]}


def test_a_field_the_answer_lacks_is_left_to_a_person(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = _copy(tmp_path, "rules")
    cover = rules / "d20_scifi" / "cover.yaml"
    text = cover.read_text()
    cover.write_text(text.replace("expect: {ac_bonus: 6}", "expect: {ac_bonuss: 6}"))
    before = _texts(rules)
    assert _accept(rules) == EXIT_RULES
    assert "names a field the answer does not have" in capsys.readouterr().err
    assert _texts(rules) == before
