"""Labels that look fine but are not: empty, only spaces, or spaces around."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesc.common.diagnostics import RulesError
from rulesc.pipeline import load_systems

SYSTEM = """\
# yaml-language-server: $schema=../../schema/system.schema.json
system: lab
title: Lab
summary: Labels.
source: {file: lab.txt, work: A test}
rounding: down
dice_notation: d20
"""


def _messages(tmp_path: Path, label: str) -> list[str]:
    folder = tmp_path / "rules" / "lab"
    folder.mkdir(parents=True)
    (folder / "system.yaml").write_text(SYSTEM, encoding="utf-8")
    quoted = json.dumps(label)
    (folder / "lab.yaml").write_text(
        "# yaml-language-server: $schema=../../schema/rules.schema.json\n"
        "system: lab\nrules:\n"
        "  - id: pick\n    kind: formula\n    title: Pick\n    summary: A choice.\n"
        "    source: {section: S}\n    function: pick\n    parameters:\n"
        "      - name: c\n        type: choice\n        enum: Pick\n"
        f"        members: [{{name: ONE, label: {quoted}}}, {{name: TWO, label: Two}}]\n"
        "        description: C.\n"
        '    expression: 1 if c == "Two" else 2\n',
        encoding="utf-8",
    )
    try:
        load_systems(folder.parent)
    except RulesError as exc:
        return [d.message for d in exc.diagnostics]
    return []


@pytest.mark.parametrize("label", [" ", "   ", "\t", "\u00a0", "\u2003 "])
def test_a_label_of_only_spaces_is_refused(tmp_path: Path, label: str) -> None:
    assert _messages(tmp_path, label) == ["a label cannot be empty or only spaces"]


@pytest.mark.parametrize("label", [" One", "One ", "\tOne", "One\u00a0", " One "])
def test_a_label_with_spaces_around_is_refused(tmp_path: Path, label: str) -> None:
    assert _messages(tmp_path, label) == [f"label {label!r} has spaces around it"]


@pytest.mark.parametrize("label", ["One", "One two", "1/2", "Über", "x"])
def test_ordinary_labels_build(tmp_path: Path, label: str) -> None:
    assert _messages(tmp_path, label) == []
