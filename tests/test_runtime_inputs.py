"""Runtime input checks shared by every generated function."""

from __future__ import annotations

from typing import Any

import pytest
from rulebook import d20_scifi, gurps
from rulebook.errors import RuleInputError


def test_a_member_of_another_enum_is_read_by_its_value() -> None:
    # ExposureKind.HALF's value "half" is also a CoverExposure label: every
    # function reads a str by its plain value (tests/test_runtime_library.py
    # checks that over every function), so it is that label.
    # (not a CoverExposure, so the types refuse it: run time reads its value)
    half: dict[gurps.HitLocation, Any] = dict.fromkeys(
        gurps.HitLocation, d20_scifi.ExposureKind.HALF
    )
    foreign = gurps.attack_covered_target("aimed", "Torso", exposure=half)
    plain = gurps.attack_covered_target(
        "aimed", "Torso", exposure={loc: "half" for loc in gurps.HitLocation}
    )
    assert foreign == plain
    assert plain.to_hit_modifier == -2
    # ExposureKind.FULL's value is no CoverExposure label: still refused.
    with pytest.raises(RuleInputError, match="'full'"):
        full: dict[gurps.HitLocation, Any] = dict.fromkeys(
            gurps.HitLocation, d20_scifi.ExposureKind.FULL
        )
        gurps.attack_covered_target("aimed", "Torso", exposure=full)


def test_labels_still_work_in_any_case() -> None:
    # run time takes a label in any case; the types take the exact label only
    shouted: Any = "TOTAL"
    assert d20_scifi.cover(shouted) is d20_scifi.cover(d20_scifi.CoverLevel.TOTAL)
