"""rulesc accept into house rules packs: every write a structured, byte-safe edit, and the pack then builds with its examples holding.

Hypothesis lays out packs every way (``tests/accept_packs.py``): overrides in
block or flow style, in house.yaml or accepted.yaml, keys in any order, CRLF
or LF, accepted.yaml there or not, hostile text in the answers. After
``rulesc accept`` the base is byte for byte as it was, every file of the pack
loads and keeps its line endings, the diff printed is exactly what changed,
what was added holds no character the loader refuses or a terminal hides,
and a second accept finds every example holding (the pack builds).
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from rulesc.cli import EXIT_OK, EXIT_RULES, main
from rulesc.front.loader import load_text
from rulesc.workbench import rewrite
from rulesc.workbench.yaml_text import hidden

from .accept_packs import Layout, diff_applies, layouts, write

SETTINGS = settings(
    max_examples=12,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _accept(rules: Path, packs: Path, *extra: str) -> int:
    return main(
        ["accept", "--no-cache", "--rules", str(rules), "--rules", str(packs), *extra]
    )


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder.parent).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*.yaml"))
    }


def _hidden(text: str) -> Counter[str]:
    return Counter(ch for line in rewrite.lines(text) for ch in line if hidden(ch))


@SETTINGS
@given(layout=layouts)
def test_accept_into_any_pack_writes_what_loads_and_holds(
    layout: Layout,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    tmp = tmp_path_factory.mktemp("pack")
    rules, packs = write(tmp, layout)
    base, before = _files(rules), _files(packs)
    capsys.readouterr()
    assert _accept(rules, packs) == EXIT_OK, capsys.readouterr()
    printed = capsys.readouterr().out
    after = _files(packs)
    assert _files(rules) == base
    assert after != before
    for file, raw in after.items():
        text = raw.decode("utf-8")
        load_text(raw, file)  # loads
        assert set(rewrite.LINE_BREAK.findall(text)) == {layout.ending}, file
        old = before.get(file, b"").decode("utf-8")
        assert diff_applies(printed, file, old, text), (file, printed)
        # accept writes no character the loader refuses or a terminal hides
        assert _hidden(text) <= _hidden(old), file
    assert _accept(rules, packs) == EXIT_OK
    assert "rewrote 0 worked example(s) in 0 file(s)" in capsys.readouterr().out


# -- the writes of a pack: shared with the base's files ------------------------------

PLAIN = Layout(
    *("\n", "x\u2028y", 3, "house.yaml", False, False, False, False, False, False),
    *("", False, "summary", True, False, False),
)


def _pack(tmp_path: Path) -> tuple[Path, Path, Path]:
    rules, packs = write(tmp_path, PLAIN)
    return rules, packs, packs / "mine" / "accepted.yaml"


def test_a_dry_run_shows_the_same_diff_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules, packs, _ = _pack(tmp_path)
    before = _files(packs)
    assert _accept(rules, packs, "--dry-run") == EXIT_OK
    shown = capsys.readouterr().out
    assert _files(packs) == before
    assert _accept(rules, packs) == EXIT_OK
    done = capsys.readouterr().out
    assert shown.replace("would rewrite", "rewrote") == done
    assert '+        expect: {note: "x\\u2028y", weight: 2}' in done


@pytest.mark.parametrize("how", ["hard link", "edited meanwhile", "made meanwhile"])
def test_a_pack_file_is_refused_as_a_base_file_is(
    how: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """accepted.yaml with another hard link, or saved by another writer between
    read and write, or made by one when accept was making it: left as it is,
    with a located error (the other pack file is written)."""
    rules, packs, accepted = _pack(tmp_path)
    theirs = b"# theirs\n"

    def save(at: Path) -> None:
        if at.name == "accepted.yaml":
            at.write_bytes(theirs)

    if how == "hard link":
        os.link(accepted, tmp_path / "other.yaml")
    else:
        if how == "made meanwhile":
            accepted.unlink()
        monkeypatch.setattr(rewrite, "_before_replace", save)
    before = accepted.read_bytes() if accepted.exists() else None
    assert _accept(rules, packs) == EXIT_RULES
    err = capsys.readouterr().err
    why = (
        "other hard link"
        if how == "hard link"
        else "it changed since rulesc accept read it"
    )
    assert (
        "packs/mine/accepted.yaml:1:1: error: packs/mine/accepted.yaml was left as it is: "
        in err
    )
    assert why in err
    if how == "hard link":
        assert accepted.read_bytes() == before
    else:
        assert accepted.read_bytes() == theirs
    assert sorted(p.name for p in accepted.parent.iterdir()) == [
        "accepted.yaml",
        "house.yaml",
        "system.yaml",
    ]
    assert "- name: rope" in (packs / "mine" / "house.yaml").read_text()
