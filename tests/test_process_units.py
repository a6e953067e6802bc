"""An onset in a unit the system does not have is a located build error (it was
a KeyError in every worked example): the lowered process then knows every unit
its records' onsets can be in."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.common.diagnostics import RulesError
from rulesc.pipeline import load_systems

from .conftest import copy_rules

COLUMN = "        type: dice\n        unit: hours\n"


@pytest.mark.parametrize(
    "unit", ["hours\\e[2J", "hours\\u202e", "hours\\x01", "fortnights", "Hours"]
)
def test_an_onset_column_in_no_time_unit_is_located(tmp_path: Path, unit: str) -> None:
    rules = tmp_path / "rules"
    copy_rules(rules)
    path = rules / "d20_scifi" / "radiation.yaml"
    text = path.read_text(encoding="utf-8")
    assert COLUMN in text
    path.write_text(
        text.replace(COLUMN, f'        type: dice\n        unit: "{unit}"\n', 1),
        encoding="utf-8",
    )
    with pytest.raises(RulesError) as caught:
        load_systems(rules)
    (error,) = caught.value.diagnostics
    line = text.splitlines()[error.line - 1]
    assert error.file == "rules/d20_scifi/radiation.yaml"
    assert line.strip().startswith("onset:"), line
    assert error.message.startswith(
        "the onset of 'radiation_exposure' row 'Minor' is in '"
    )
    assert error.message.endswith("', not a time unit of this system")
    assert error.message.isprintable(), error.message
    assert error.hint is not None and "days, hours, minutes" in error.hint
