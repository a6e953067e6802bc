"""Records of the runtime (rows, results, dice) are plain slotted classes that keep
what a frozen slotted dataclass gave: the contract's list, behaviour by behaviour."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
from typing import Any, cast

import pytest
from rulebook import d20_scifi as d20
from rulebook import gurps
from rulebook.dice import Dice


def test_a_row_is_immutable_and_slotted() -> None:
    row = d20.cover("1/2")
    assert not hasattr(row, "__dict__")
    with pytest.raises(AttributeError, match="cannot assign to field 'cover_ac'"):
        cast(Any, row).cover_ac = 1
    with pytest.raises(AttributeError, match="cannot delete field 'cover_ac'"):
        del cast(Any, row).cover_ac
    with pytest.raises(AttributeError):
        cast(Any, row).not_a_field = 1


def test_equality_hash_and_repr_are_by_the_fields_in_order() -> None:
    row = d20.cover("1/2")
    same = d20.CoverRow(*(getattr(row, name) for name in d20.CoverRow.FIELDS))
    assert same == row and same is not row
    assert hash(same) == hash(row) == hash(tuple(getattr(row, n) for n in row.FIELDS))
    assert row != d20.cover("1/4")
    assert row != tuple(getattr(row, n) for n in row.FIELDS)  # not a tuple
    assert (
        repr(row)
        == "CoverRow("
        + ", ".join(f"{name}={getattr(row, name)!r}" for name in row.FIELDS)
        + ")"
    )
    assert repr(Dice(2, 6, unit="hours")) == (
        "Dice(count=2, sides=6, modifier=0, multiplier=1, unit='hours')"
    )


def test_fields_patterns_and_to_dict_agree() -> None:
    row = d20.cover("Total")
    assert d20.CoverRow.__match_args__ == row.FIELDS
    assert list(row.to_dict()) == list(row.FIELDS)
    match row:
        case d20.CoverRow(coverage, modifier):
            assert (coverage, modifier) == (row.coverage, row.hide_spot_modifier)
        case _:
            raise AssertionError("no match")


def test_replace_answers_a_checked_copy() -> None:
    row = d20.cover("1/2")
    changed = row.replace(cover_ac=9)
    assert changed.cover_ac == 9 and row.cover_ac == 4
    assert type(changed) is d20.CoverRow
    with pytest.raises(TypeError, match="no field 'nope'"):
        row.replace(nope=1)
    with pytest.raises(ValueError, match="count"):
        Dice(2, 6).replace(count=-1)  # checked as when made
    assert row.__replace__(miss_chance=5) == row.replace(miss_chance=5)


def test_copy_deepcopy_and_pickle_keep_the_value() -> None:
    for value in (d20.cover("1/2"), Dice(3, 6, 1, 1, "minutes"), d20.SPIN):
        assert copy.copy(value) == value
        assert copy.deepcopy(value) == value
        assert pickle.loads(pickle.dumps(value)) == value


def test_hidden_fields_stay_out_of_fields_repr_and_equality() -> None:
    attack = gurps.attack_covered_target("random")
    assert not any(name.startswith("_") for name in attack.FIELDS)
    assert "_resolve" not in repr(attack)
    again = pickle.loads(pickle.dumps(attack))
    assert again == attack
    assert again.replace(allowed=attack.allowed) == attack


def test_importing_the_modules_imports_no_dataclasses_nor_json() -> None:
    code = (
        "import sys, rulebook.d20_scifi, rulebook.gurps, rulebook.edge_of_darkness; "
        "print(sorted(m for m in ('dataclasses', 'json', 'inspect') "
        "if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-S", "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": ":".join(p for p in sys.path if p)},
    )
    assert out.stdout.strip() == "[]"
