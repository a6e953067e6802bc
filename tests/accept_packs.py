"""Generated house rules packs for the accept tests: a tiny base system and a pack extending it, laid out every way the YAML allows.

``Layout`` says how a pack is written: line endings, where its overrides stand
(``house.yaml`` or ``accepted.yaml``), each in block or flow style, the order
of the keys, what ``accepted.yaml`` already holds (or that there is none), and
the text the pack puts in a cell of the base's table (``hostile``), which an
inherited worked example then answers. ``write`` makes the folders;
``diff_applies`` checks that a printed unified diff is exactly the change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from rulesc.workbench import rewrite
from rulesc.workbench.output import terminal_safe

from .conftest import ROOT
from .test_strings_are_data import yaml_text

RULES_LINE = "# yaml-language-server: $schema=../../schema/rules.schema.json\n"

KIT = """\
system: tiny
rules:
  - id: kit
    kind: table
    title: Kit
    summary: What each item of a kit is for, and its weight.
    source:
      section: Kit
    function: kit
    key:
      param: item
      title: Item
      enum: Item
      members:
        - {name: ROPE, label: rope}
        - {name: LAMP, label: lamp}
    row: KitRow
    columns:
      - name: note
        type: text
        title: Note
        description: What it is for.
      - name: weight
        type: int
        title: Weight
        description: Its weight.
    rows:
      - {key: rope, note: For climbing., weight: 2}
      - {key: lamp, note: For light., weight: 1}
    examples:
      - name: rope
        summary: The rope.
        args: {item: rope}
        expect: {note: For climbing., weight: 2}
      - name: lamp_note
        summary: What the lamp is for.
        args: {item: lamp}
        expect:
          note: For light.
  - id: load
    kind: formula
    title: Load
    summary: The weight of a number of one item.
    source:
      section: Kit
    function: load
    parameters:
      - name: item
        type: choice
        enum: Item
        description: The item.
      - name: count
        type: int
        min: 0
        max: 20
        description: How many.
    expression: kit(item).weight * count
    examples:
      - name: three_lamps
        summary: Three lamps.
        args: {item: lamp, count: 3}
        expect: 3
"""

# A house rule whose answer the pack's figure changes: its example is the
# pack's own, edited in place in the pack's own file.
HAUL = """\
  - id: haul
    kind: formula
    house: true
    title: Haul
    summary: A lamp and a rope.
    function: haul
    parameters:
      - name: extra
        type: int
        min: 0
        max: 9
        description: More weight.
    expression: kit("lamp").weight + kit("rope").weight + extra
    examples:
      - name: both
        summary: Both.
        args: {extra: 0}
        expect: 3
"""

# A house rule whose example holds: accept leaves it be.
STEADY = """\
  - id: steady
    kind: formula
    house: true
    title: Steady
    summary: One more.
    function: steady
    parameters:
      - name: n
        type: int
        min: 0
        max: 9
        description: Anything.
    expression: n + 1
    examples:
      - name: one_more
        summary: Two and one.
        args: {n: 2}
        expect: 3
"""

# (no NUL: the loader refuses it even as an escape, so no answer holds one)
HOSTILE = (
    *("\u2028", "\u2029", "\x85", "\u202e", "\u2066", "\u200b", "\ufeff", "\t"),
    *("\x1b[2J", "\x7f", "\r", "\n", "\u00a0", '"', "'", "\\", ": "),
    *(" #", "- ", "{", "[x]", "&a", "*b", "!t", "%", "@", "`", "😀", "\U000e0001"),
    *("é", "null", "1", "yes", "a"),
)
hostile = (
    st.lists(st.sampled_from(HOSTILE), min_size=1, max_size=5)
    .map("".join)
    .filter(lambda s: s.strip() != "")
)


@dataclass(frozen=True)
class Layout:
    """How one pack is written (see the module's docstring)."""

    ending: str
    hostile: str
    weight: int  # the lamp's weight in the pack
    kit_at: str  # "house.yaml", "accepted.yaml": where kit is overridden
    kit_flow: bool  # the kit's override in flow style
    kit_restates: bool  # ... restating the rope's example (its old answer)
    kit_key_last: bool  # ... its rule: key last
    overrides_flow: bool  # the overrides lists in flow style
    overrides_last: bool  # ... after its rules
    haul: bool  # house.yaml adds the house rule haul
    load_at: str  # "", "house.yaml", "accepted.yaml": where load is overridden
    load_flow: bool
    load_has: str  # "summary", "args" (restates its example's args), "expect"
    accepted: bool  # accepted.yaml there before accept
    accepted_rules_last: bool
    accepted_comment: bool


layouts = st.builds(
    Layout,
    ending=st.sampled_from(["\n", "\r\n"]),
    hostile=hostile,
    weight=st.integers(2, 5),
    kit_at=st.sampled_from(["house.yaml", "accepted.yaml"]),
    kit_flow=st.booleans(),
    kit_restates=st.booleans(),
    kit_key_last=st.booleans(),
    overrides_flow=st.booleans(),
    overrides_last=st.booleans(),
    haul=st.booleans(),
    load_at=st.sampled_from(["", "house.yaml", "accepted.yaml"]),
    load_flow=st.booleans(),
    load_has=st.sampled_from(["summary", "args", "expect"]),
    accepted=st.booleans(),
    accepted_rules_last=st.booleans(),
    accepted_comment=st.booleans(),
)


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return str(value)


def _block(value: Any, col: int) -> list[str]:
    pad = " " * col
    if isinstance(value, dict):
        out = []
        for k, v in value.items():
            if isinstance(v, dict | list) and v:
                out += [f"{pad}{k}:", *_block(v, col + 2)]
            else:
                out.append(f"{pad}{k}: {_flow(v)}")
        return out
    out = []
    for item in value:
        inner = _block(item, col + 2)
        out += [pad + "- " + inner[0][col + 2 :], *inner[1:]]
    return out


def _overrides(entries: list[tuple[dict[str, Any], bool]], flow: bool) -> list[str]:
    if flow:
        return ["overrides: [" + ", ".join(_flow(e) for e, _ in entries) + "]"]
    out = ["overrides:"]
    for entry, entry_flow in entries:
        out += [f"  - {_flow(entry)}"] if entry_flow else _block([entry], 2)
    return out


def _kit(layout: Layout) -> dict[str, Any]:
    rows = [
        {"key": "rope", "note": yaml_text(layout.hostile)},
        {"key": "lamp", "weight": layout.weight},
    ]
    entry: dict[str, Any] = {"rows": rows}
    if layout.kit_restates:
        old = {"note": '"For climbing."', "weight": 2}
        entry["examples"] = [{"name": "rope", "expect": old}]
    head = {"rule": "kit"}
    return {**entry, **head} if layout.kit_key_last else {**head, **entry}


def _load(layout: Layout) -> dict[str, Any]:
    if layout.load_has == "summary":
        return {"rule": "load", "summary": "Weight times count."}
    example: dict[str, Any] = {"name": "three_lamps", "args": {"count": 3}}
    if layout.load_has == "expect":
        example["expect"] = 3  # the old answer, restated
    return {"rule": "load", "examples": [example]}


def write(tmp_path: Path, layout: Layout) -> tuple[Path, Path]:
    """The base's rules folder and the pack's folder for ``layout``."""
    rules, packs = tmp_path / "rules", tmp_path / "packs"
    (rules / "tiny").mkdir(parents=True)
    system = (ROOT / "tests" / "cookbook" / "cookbook" / "system.yaml").read_text()
    system = system.replace("system: cookbook", "system: tiny")
    (rules / "tiny" / "system.yaml").write_text(system.replace("../../../", "../../"))
    (rules / "tiny" / "kit.yaml").write_text(RULES_LINE + KIT)
    pack = packs / "mine"
    pack.mkdir(parents=True)
    files = {
        "system.yaml": [
            RULES_LINE.replace("rules.schema", "system.schema").rstrip("\n"),
            "system: mine",
            "extends: tiny",
            "title: Mine",
            "summary: The tiny rules as played here.",
        ]
    }
    where: dict[str, list[tuple[dict[str, Any], bool]]] = {}
    where.setdefault(layout.kit_at, []).append((_kit(layout), layout.kit_flow))
    if layout.load_at:
        where.setdefault(layout.load_at, []).append((_load(layout), layout.load_flow))
    house: list[str] = []
    if "house.yaml" in where:
        house = _overrides(where["house.yaml"], layout.overrides_flow)
    if layout.haul:
        rules_part = ["rules:", *HAUL.rstrip("\n").split("\n")]
        house = (
            [*rules_part, *house] if layout.overrides_last else [*house, *rules_part]
        )
    if house:
        files["house.yaml"] = [RULES_LINE.rstrip("\n"), "system: mine", *house]
    if layout.accepted or "accepted.yaml" in where:
        parts = [["rules:", *STEADY.rstrip("\n").split("\n")]]
        if "accepted.yaml" in where:
            parts.append(_overrides(where["accepted.yaml"], layout.overrides_flow))
            if layout.accepted_rules_last:
                parts.reverse()
        tail = ["# the end"] if layout.accepted_comment else []
        lines = [
            RULES_LINE.rstrip("\n"),
            "system: mine",
            *(line for part in parts for line in part),
            *tail,
        ]
        files["accepted.yaml"] = lines
    for name, lines in files.items():
        text = "".join(line + layout.ending for line in lines)
        (pack / name).write_bytes(text.encode("utf-8"))
    return rules, packs


_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def diff_applies(printed: str, file: str, before: str, after: str) -> bool:
    """Whether the unified diff of ``file`` in ``printed`` turns the lines of
    ``before`` into those of ``after``, each line as a terminal is shown it
    (rulesc's output escapes what a terminal would act on or hide)."""
    lines = printed.split("\n")
    try:
        at = lines.index(f"--- a/{file}")
    except ValueError:
        return before == after
    old, new = rewrite.lines(before), rewrite.lines(after)
    result: list[str] = []
    taken = 0
    i = at + 2
    while i < len(lines) and (found := _HUNK.match(lines[i])):
        start = int(found.group(1)) - (0 if found.group(2) == "0" else 1)
        olds, news = (int(found.group(n) or 1) for n in (2, 4))
        result += old[taken:start]
        taken = start
        i += 1
        while olds or news:
            tag, line = lines[i][:1], lines[i][1:]
            if tag in (" ", "-"):  # a line of the file as a terminal is shown it
                if taken >= len(old) or terminal_safe(old[taken]) != line:
                    return False
                if tag == " ":
                    result.append(terminal_safe(old[taken]))
                taken, olds = taken + 1, olds - 1
            if tag in (" ", "+"):
                result += [line] if tag == "+" else []  # as shown
                news -= 1
            i += 1
    shown = [terminal_safe(line) for line in result + old[taken:]]
    return shown == [terminal_safe(line) for line in new]
