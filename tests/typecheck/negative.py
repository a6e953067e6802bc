"""What a type checker must refuse: each line marked ``# expect-error`` is an error
for mypy and for pyright (both strict), and no other line is.

tests/test_typing.py runs both checkers on this file and compares the lines they
report with the markers, exactly. Run time would accept some of these (a label
in another case); the types are stricter on purpose, as the contract says.
"""

from __future__ import annotations

import random

import rulebook
from rulebook import d20_scifi, gurps
from rulebook.d20_scifi import CoverLevel, RadiationLevel
from rulebook.gurps import CoverExposure, HitLocation


def misspelled_and_other_case(text: str) -> None:
    gurps.hit_location("Torsoo")  # expect-error
    gurps.hit_location("torso")  # expect-error
    gurps.hit_location(text)  # expect-error
    gurps.hit_location(HitLocation(text))
    gurps.hit_location(CoverLevel.HALF)  # expect-error
    d20_scifi.cover("total")  # expect-error
    d20_scifi.radiation_exposure("Lowish")  # expect-error
    d20_scifi.attack_through_cover("1/2", "soft", "superr", "at_target")  # expect-error
    gurps.attack_covered_target("aim")  # expect-error
    d20_scifi.launch_speed(1, "one leg")  # expect-error


def mappings(text: str) -> None:
    rng = random.Random(1)
    gurps.random_hit({"Skul": "exposed"}, rng)  # expect-error
    gurps.random_hit({"Skull": "exposd"}, rng)  # expect-error
    gurps.random_hit({text: "exposed"}, rng)  # expect-error
    gurps.random_hit({HitLocation.SKULL: CoverExposure.HALF}, rng)
    gurps.random_hit({"Skull": CoverLevel.HALF}, rng)  # expect-error


def comparisons() -> None:
    _ = CoverLevel.HALF < CoverLevel.TOTAL  # expect-error
    _ = CoverExposure.HALF >= CoverExposure.COVERED  # expect-error
    _ = RadiationLevel.LOW < RadiationLevel.HIGH


def events() -> None:
    run = d20_scifi.simulate_radiation("High", 30, 2, random.Random(7))
    for event in run.events:
        if event.kind == "saves":  # expect-error
            pass
        if event.kind == "save":
            pass
        level: CoverLevel | None = event.level  # expect-error
        assert level is None or level


def modules() -> None:
    _ = rulebook.gurps.hit_location("Torsoo")  # expect-error
    _ = rulebook.no_such_system  # expect-error
