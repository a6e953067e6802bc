"""Runtime input checks shared by every generated function."""

from __future__ import annotations

import pytest
from rulebook import d20_scifi, gurps
from rulebook.errors import RuleInputError


def test_a_member_of_another_enum_is_refused() -> None:
    # ExposureKind.HALF's value "half" is also a CoverExposure label; a member of
    # another enum is still a mistake, not a label.
    with pytest.raises(RuleInputError):
        gurps.attack_covered_target(
            "aimed",
            "Torso",
            exposure={loc: d20_scifi.ExposureKind.HALF for loc in gurps.HitLocation},
        )
    assert (
        gurps.attack_covered_target(
            "aimed", "Torso", exposure={loc: "half" for loc in gurps.HitLocation}
        ).to_hit_modifier
        == -2
    )


def test_labels_still_work_in_any_case() -> None:
    assert d20_scifi.cover("TOTAL") is d20_scifi.cover(d20_scifi.CoverLevel.TOTAL)
