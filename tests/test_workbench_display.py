"""Errors on a terminal (the YAML line and a caret), and for tools (json, github)."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

from rulesc.common.diagnostics import Diagnostic
from rulesc.workbench.display import github, print_diagnostics, text

from .conftest import Editor

YAML = """\
rules:
  - id: broken
    rows:
      - {key: "1/2", cover_ac: ten, miss_chance: 20}
    expression: clamp(max(10 + 5 * climb, 5), 0, 40)
"""


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "rules" / "x" / "a.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(YAML, "utf-8")
    return path


def test_the_line_and_a_caret_under_the_node(tmp_path: Path) -> None:
    _file(tmp_path)
    cell = Diagnostic(
        "rules/x/a.yaml", 4, 32, "holds int values, not 'ten'", None, "/p"
    )
    shown = text([cell], root=tmp_path, snippets=True)
    assert shown.splitlines()[:4] == [
        "rules/x/a.yaml:4:32: error: holds int values, not 'ten'",
        "  |",
        '4 |       - {key: "1/2", cover_ac: ten, miss_chance: 20}',
        "  |                                ^~~",
    ]
    assert shown.splitlines()[-1] == "1 error"


def test_a_formula_error_points_at_the_name(tmp_path: Path) -> None:
    _file(tmp_path)
    d = Diagnostic(
        "rules/x/a.yaml",
        5,
        36,
        "formula: unknown name 'climb'",
        "did you mean 'b'?",
        end_col=41,
    )
    lines = text([d], root=tmp_path, snippets=True).splitlines()
    assert lines[2] == "5 |     expression: clamp(max(10 + 5 * climb, 5), 0, 40)"
    assert lines[3] == "  |                                    ^~~~~"
    assert lines[4] == "  hint: did you mean 'b'?"
    piped = text([d], root=tmp_path, snippets=False).splitlines()
    assert piped == [
        "rules/x/a.yaml:5:36: error: formula: unknown name 'climb'",
        "  hint: did you mean 'b'?",
        "1 error",
    ]


def test_piped_text_is_the_classic_list(tmp_path: Path) -> None:
    d = Diagnostic("rules/x/a.yaml", 4, 33, "bad", "a hint", "/p")
    err = io.StringIO()
    print_diagnostics([d], ["validate"], stderr=err)
    assert (
        err.getvalue()
        == "rules/x/a.yaml:4:33: error: bad\n  at /p\n  hint: a hint\n1 error\n"
    )


def test_json_is_unchanged_and_github_annotates() -> None:
    d = Diagnostic("rules/a b.yaml", 3, 5, "50% off, really", "try x,\nor y", "/r/0")
    out = io.StringIO()
    print_diagnostics([d], ["validate", "--format", "json"], stdout=out)
    assert json.loads(out.getvalue()) == [d.as_json()]
    assert github([d]) == (
        "::error file=rules/a b.yaml,line=3,col=5,title=rulesc::"
        "50%25 off, really%0Aat /r/0%0Ahint: try x,%0Aor y"
    )
    tricky = Diagnostic("rules/a,b:c.yaml", 1, 1, "m")
    assert github([tricky]).startswith("::error file=rules/a%2Cb%3Ac.yaml,line=1,")


def _on_a_terminal(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    """What rulesc prints to a terminal (stderr is a pseudo-terminal)."""
    leader, follower = pty.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "rulesc", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=follower,
        env=env,
    ) as proc:
        os.close(follower)
        chunks = []
        while True:
            ready, _, _ = select.select([leader], [], [], 30)
            if not ready:
                break
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        proc.wait(timeout=30)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


def test_on_a_terminal_in_colour_unless_no_color(
    rules_copy: Path, edit: Editor
) -> None:
    edit("d20_scifi/cover.yaml", "cover_ac: 10\n", "cover_ac: ten\n")
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    args = ["validate", "rules/d20_scifi"]
    coloured = _on_a_terminal(args, rules_copy.parent, env)
    assert "\x1b[31m" in coloured and "error" in coloured
    plain = _on_a_terminal(args, rules_copy.parent, {**env, "NO_COLOR": "1"})
    assert "\x1b[" not in plain
    lines = plain.splitlines()
    at = next(i for i, line in enumerate(lines) if ": error: " in line)
    assert lines[at + 2].endswith("cover_ac: ten")
    caret = lines[at + 3]
    assert caret.index("^") == lines[at + 2].index("ten") and caret.endswith("^~~")
