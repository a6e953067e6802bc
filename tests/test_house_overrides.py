"""House rules override each thing once: a second override of a rule (in one file or across the pack's files), or a second entry for one row, ruling or example in an override's list, is a located error naming the first, in validate and build alike; a restated worked example's expect is its whole answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.cli import EXIT_OK, EXIT_RULES, main
from rulesc.common.diagnostics import RulesError
from rulesc.front import house
from rulesc.front.loader import load_text

from .accept_packs import KIT, RULES_LINE

SYSTEM = (
    "# yaml-language-server: $schema=../../schema/system.schema.json\n"
    "system: tiny\ntitle: Tiny\nsummary: Tiny.\nsource: {file: f, work: w}\n"
    "rounding: down\ndice_notation: d20\n"
)
PACK = "system: mine\nextends: tiny\ntitle: Mine\nsummary: Mine.\n"
KIT_ONCE = "  - rule: kit\n    summary: Once.\n"
LOAD_ONCE = "  - rule: load\n    summary: Once.\n"


def _extend(files: dict[str, str]) -> list[str]:
    """The errors of merging pack files (name -> text under overrides:)."""
    base = (
        load_text(SYSTEM.encode(), "rules/tiny/system.yaml"),
        [load_text((RULES_LINE + KIT).encode(), "rules/tiny/kit.yaml")],
    )
    meta = load_text(PACK.encode(), "packs/mine/system.yaml")
    own = [
        load_text(f"system: mine\noverrides:\n{text}".encode(), f"packs/mine/{name}")
        for name, text in sorted(files.items())
    ]
    try:
        house.extend([base, (meta, own)])
    except RulesError as exc:
        return [d.format_text().split("\n")[0] for d in exc.diagnostics]
    return []


@settings(max_examples=30, derandomize=True, deadline=None)
@given(
    st.lists(st.sampled_from(["a.yaml", "b.yaml"]), min_size=2, max_size=4),
    st.booleans(),
)
def test_a_rule_overridden_twice_names_the_first(files: list[str], flow: bool) -> None:
    """However the overrides of one rule are spread over the pack's files, each
    after the first (in file order) is an error at its rule:, naming the first."""
    texts: dict[str, str] = {}
    for n, name in enumerate(files):
        entry = f"  - {{rule: kit, summary: S{n}}}\n" if flow else KIT_ONCE
        texts[name] = texts.get(name, LOAD_ONCE if name == "a.yaml" else "") + entry
    order = sorted(
        (
            (name, line)
            for name, text in texts.items()
            for line, row in enumerate(text.split("\n"), 3)
            if "rule: kit" in row
        )
    )
    (first_file, first_line), *again = order
    col = 12 if flow else 11
    assert _extend(texts) == [
        f"packs/mine/{name}:{line}:{col}: error: rule 'kit' is overridden twice: "
        f"first at packs/mine/{first_file}:{first_line}:{col}"
        for name, line in again
    ]


def test_an_entry_given_twice_in_one_override_names_the_first() -> None:
    errors = _extend(
        {
            "a.yaml": (
                "  - rule: kit\n    rows:\n      - {key: rope, weight: 3}\n"
                "      - {key: lamp, weight: 4}\n      - {key: rope, weight: 5}\n"
                "    examples: [{name: rope, summary: x}, {name: rope, summary: y}]\n"
            )
        }
    )
    assert errors == [
        "packs/mine/a.yaml:7:15: error: kit: rows entry 'rope' is overridden twice: "
        "first at packs/mine/a.yaml:5:15",
        "packs/mine/a.yaml:8:49: error: kit: examples entry 'rope' is overridden "
        "twice: first at packs/mine/a.yaml:8:23",
    ]


def test_a_restated_expect_is_the_whole_answer() -> None:
    """The base's rope example expects a note and a weight; restated with the
    weight alone, it checks the weight alone (it is not merged with the base's)."""
    base = (
        load_text(SYSTEM.encode(), "rules/tiny/system.yaml"),
        [load_text((RULES_LINE + KIT).encode(), "rules/tiny/kit.yaml")],
    )
    meta = load_text(PACK.encode(), "packs/mine/system.yaml")
    own = load_text(
        b"system: mine\noverrides:\n  - rule: kit\n"
        b"    examples: [{name: rope, expect: {weight: 2}}]\n",
        "packs/mine/a.yaml",
    )
    (_, _, _), (_, files, _) = house.extend([base, (meta, [own])])
    rope = files[0].data["rules"][0]["examples"][0]
    assert rope["expect"] == {"weight": 2}


def test_validate_and_build_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules, packs = tmp_path / "rules", tmp_path / "packs"
    (rules / "tiny").mkdir(parents=True)
    (rules / "tiny" / "system.yaml").write_text(SYSTEM)
    (rules / "tiny" / "kit.yaml").write_text(RULES_LINE + KIT)
    (packs / "mine").mkdir(parents=True)
    (packs / "mine" / "system.yaml").write_text(
        "# yaml-language-server: $schema=../../schema/system.schema.json\n" + PACK
    )
    (packs / "mine" / "a.yaml").write_text(
        RULES_LINE + "system: mine\noverrides:\n" + KIT_ONCE
    )
    (packs / "mine" / "b.yaml").write_text(
        RULES_LINE + "system: mine\noverrides:\n" + LOAD_ONCE + KIT_ONCE
    )
    both = ["--rules", str(rules), "--rules", str(packs)]
    said = (
        "packs/mine/b.yaml:6:11: error: rule 'kit' is overridden twice: first at "
        "packs/mine/a.yaml:4:11\n  at /overrides/1/rule\n  hint: merge the two into "
        "one override: a second would silently replace what the first changes\n"
    )
    out = ["--no-cache", "--out", str(tmp_path / "out")]
    for command in (["validate"], ["build", *out]):
        assert main([*command, *both]) == EXIT_RULES
        assert said in capsys.readouterr().err
    (packs / "mine" / "b.yaml").write_text(
        RULES_LINE + "system: mine\noverrides:\n" + LOAD_ONCE
    )
    assert main(["validate", *both]) == EXIT_OK
