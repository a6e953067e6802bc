"""The reference groups each system's rules as its source does (system.yaml's source.contents)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.common.diagnostics import RulesError
from rulesc.pipeline import load_systems

from .conftest import RULES, Editor


def _contents(rules: Path, system: str) -> list[tuple[str, tuple[str, ...]]]:
    (built,) = load_systems(rules, {system})
    return [(g.title, g.rules) for g in built.contents]


def test_the_rules_fall_under_the_sources_divisions_in_its_order() -> None:
    d20 = _contents(RULES, "d20_scifi")
    assert [title for title, _ in d20] == ["Cover", "Radiation", "Zero Gravity"]
    assert d20[0][1] == ("cover", "attack_through_cover")
    assert "simulate_radiation" in d20[1][1]  # its section is the division's title
    edge = _contents(RULES, "edge_of_darkness")
    assert [t for t, _ in edge] == ["Concealment", "Cover", "Firing from Concealment"]
    for system in ("d20_scifi", "gurps", "edge_of_darkness"):
        (built,) = load_systems(RULES, {system})
        grouped = [r for g in built.contents for r in g.rules]
        assert sorted(grouped) == sorted(r.id for r in built.rules)


def test_a_section_no_division_lists_is_a_division_of_its_own(
    rules_copy: Path, edit: Editor
) -> None:
    edit(
        "gurps/cover.yaml",
        'section: "Cover"\n    function: cover_dr',
        'section: "Cover DR"\n    function: cover_dr',
    )
    assert _contents(rules_copy, "gurps")[-1] == ("Cover DR", ("cover_dr",))


def test_a_section_under_two_divisions_is_a_located_error(
    rules_copy: Path, edit: Editor
) -> None:
    edit(
        "d20_scifi/system.yaml",
        '        - "Actions in Zero-G"\n',
        '        - "Actions in Zero-G"\n        - "Bypassing Cover"\n',
    )
    with pytest.raises(RulesError) as err:
        load_systems(rules_copy, {"d20_scifi"})
    (problem,) = err.value.diagnostics
    assert problem.file.endswith("d20_scifi/system.yaml")
    assert "'Bypassing Cover' is already under 'Cover'" in problem.message
