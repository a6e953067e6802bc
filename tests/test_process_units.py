"""An onset in a unit the system does not have is a located build error (it was
a KeyError in every worked example), and a refusal of the runtime."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from compiler.diagnostics import RulesError
from compiler.pipeline import load_systems
from compiler.runtime._process import Course, ProcessSpec, run_process
from compiler.runtime.dice import Dice
from compiler.runtime.errors import RuleInputError

ROOT = Path(__file__).resolve().parent.parent
COLUMN = "        type: dice\n        unit: hours\n"


@pytest.mark.parametrize(
    "unit", ["hours\\e[2J", "hours\\u202e", "hours\\0", "fortnights", "Hours"]
)
def test_an_onset_column_in_no_time_unit_is_located(tmp_path: Path, unit: str) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
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


def test_the_runtime_refuses_an_onset_in_no_unit_of_its_clock() -> None:
    spec = ProcessSpec(
        {"hours": 60},
        Dice(1, 20),
        None,
        None,
        None,
        None,
        "onset",
        "check",
        None,
        ("harm",),
        0,
        None,
        0,
        None,
        None,
        1,
        None,
        None,
        None,
        1,
        1,
        None,
        0,
        0,
    )
    course = Course((), 0, Dice(1, 4, unit="hours\x1b[2J"), 10, None, None, None, ())
    with pytest.raises(RuleInputError, match=r"'hours\\x1b\[2J', not a time unit"):
        run_process(spec, [course], None, 0, None, tuple, random.Random(1))
