"""rulesc accept on an answer written as a block scalar (``>-`` or ``|``): valid YAML after."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesc.cli import EXIT_OK, main
from rulesc.front.loader import load_file
from rulesc.workbench.yaml_edit import node_spans

from .conftest import copy_rules

RULES = """\
system: demo
rules:
  - id: note
    kind: table
    title: Note
    summary: A note per key.
    function: note
    key:
      param: key
      title: Key
      enum: NoteKey
      members:
        - {name: A, label: a}
        - {name: B, label: b}
    row: NoteRow
    columns:
      - {name: text, type: text, title: Text, description: The note.}
    rows:
      - {key: a, text: "first words, then more words"}
      - {key: b, text: other}
    examples:
      - name: folded
        summary: A long answer written folded.
        args: {key: a}
        expect:
          text: >-
            first words,
            then fewer words
      - name: after
        summary: The example after it keeps its place.
        args: {key: b}
        expect: {text: other}
"""


def test_a_block_scalar_ends_with_its_last_character() -> None:
    spans = node_spans(RULES)
    start, end = spans[("rules", 0, "examples", 0, "expect", "text")]
    assert (
        RULES[start:end] == ">-\n            first words,\n            then fewer words"
    )


def _block_answers(rules: Path) -> list[tuple[Path, tuple[str | int, ...], str]]:
    """Every worked example's expected text written as a block scalar in the rules."""
    found: list[tuple[Path, tuple[str | int, ...], str]] = []
    for path in sorted(rules.rglob("*.yaml")):
        text = path.read_text()
        spans = node_spans(text)
        data = load_file(path, path.name).data
        for r, rule in enumerate(data.get("rules", [])):
            for e, example in enumerate(rule.get("examples", [])):
                expect = example.get("expect")
                if not isinstance(expect, dict):
                    continue
                for key, value in expect.items():
                    leaf = ("rules", r, "examples", e, "expect", key)
                    if leaf in spans and text[spans[leaf][0]] in ">|":
                        found.append((path, leaf, value))
    return found


def test_accept_rewrites_a_block_scalar_answer_and_keeps_what_follows(
    tmp_path: Path,
) -> None:
    rules = tmp_path / "rules"
    copy_rules(rules)
    answers = _block_answers(rules)
    assert answers, "the rules have an answer written as a block scalar"
    before = {path: path.read_text() for path, _, _ in answers}
    for path, leaf, _ in answers:
        text = path.read_text()
        start, end = node_spans(text)[leaf]
        header, body = text[start:end].split("\n", 1)
        indent = body[: len(body) - len(body.lstrip())]
        wrong = f"{header}\n{indent}not {body.lstrip()}"
        path.write_text(text[:start] + wrong + text[end:])
    assert main(["accept", "--no-cache", "--rules", str(rules)]) == EXIT_OK
    for path, leaf, value in answers:
        text = path.read_text()
        start, end = node_spans(text)[leaf]
        # the answer is back, the file still reads, and all around it is as it was
        node: Any = load_file(path, path.name).data
        for step in leaf:
            node = node[step]
        assert node == value, (path, leaf)
        old_start, old_end = node_spans(before[path])[leaf]
        assert text[:start] == before[path][:old_start], (path, leaf)
        assert text[end:] == before[path][old_end:], (path, leaf)
