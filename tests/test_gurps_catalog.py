"""The generated gurps runtime answers the catalog's surface with the source's figures.

Figures come from the catalog (the Basic Set hit location table it quotes) and the
source (001_664ceb7c2a0fa5eb.txt), typed out here by hand, not read from rules/:
a wrong row in the rules data must fail these tests.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Mapping
from typing import Any, cast

import pytest
import rulebook.gurps as g
from rulebook.dice import Scripted
from rulebook.errors import RuleInputError

# -- helpers ----------------------------------------------------------------------


def _untyped(value: object) -> Any:
    """Pass a deliberately wrong argument past the type checker."""
    return cast(Any, value)


def _case_variants(label: str) -> list[str]:
    return sorted({label, label.lower(), label.upper(), label.swapcase()})


class Recorder:
    """An RNG that records every ``randint`` call and answers from a script."""

    def __init__(self, results: list[int]) -> None:
        self.results = list(results)
        self.calls: list[tuple[int, int]] = []

    def randint(self, a: int, b: int, /) -> int:
        self.calls.append((a, b))
        return self.results.pop(0)


# -- hit_location -------------------------------------------------------------------

# The catalog's hit location table: member -> (label, penalty, 3d roll range or None).
HIT_LOCATIONS: dict[str, tuple[str, int, tuple[int, int] | None]] = {
    "SKULL": ("Skull", -7, (3, 4)),
    "FACE": ("Face", -5, (5, 5)),
    "RIGHT_LEG": ("Right Leg", -2, (6, 7)),
    "RIGHT_ARM": ("Right Arm", -2, (8, 8)),
    "TORSO": ("Torso", 0, (9, 10)),
    "GROIN": ("Groin", -3, (11, 11)),
    "LEFT_ARM": ("Left Arm", -2, (12, 12)),
    "LEFT_LEG": ("Left Leg", -2, (13, 14)),
    "HAND": ("Hand", -4, (15, 15)),
    "FOOT": ("Foot", -4, (16, 16)),
    "NECK": ("Neck", -5, (17, 18)),
    "VITALS": ("Vitals", -3, None),
    "EYES": ("Eyes", -9, None),
}
LABELS = [label for label, _, _ in HIT_LOCATIONS.values()]
PENALTY = {label: penalty for label, penalty, _ in HIT_LOCATIONS.values()}


def _location_for_total(total: int) -> str:
    """The label whose 3d range holds ``total`` (from the table above)."""
    hits = [
        label
        for label, _, rng in HIT_LOCATIONS.values()
        if rng is not None and rng[0] <= total <= rng[1]
    ]
    assert len(hits) == 1, (total, hits)
    return hits[0]


class _Opaque:
    """An object of no type a rule takes, with the same repr in every process
    (parametrize ids must not differ between pytest-xdist's workers)."""

    def __repr__(self) -> str:
        return "<opaque object>"


BAD_LOCATIONS: list[object] = [
    "Head",
    "",
    "Skul",
    "Right  Leg",
    "RightLeg",
    "RIGHT_LEG",  # the member's name is not its label
    "right_arm",
    "Arm",
    "Leg",
    " Skull",
    None,
    0,
    3,
    True,
    b"Skull",
    ["Skull"],
    _Opaque(),
]


def test_hit_location_is_a_strenum_of_the_catalog_labels() -> None:
    assert issubclass(g.HitLocation, enum.StrEnum)
    assert {m.name: m.value for m in g.HitLocation} == {
        name: label for name, (label, _, _) in HIT_LOCATIONS.items()
    }
    assert [m.name for m in g.HitLocation] == list(HIT_LOCATIONS)
    skull: str = g.HitLocation.SKULL
    assert skull == "Skull"
    assert g.HitLocation("Right Leg") is g.HitLocation.RIGHT_LEG


def test_hit_location_row_fields() -> None:
    assert list(g.HitLocationRow.FIELDS) == [
        "penalty",
        "roll",
    ]


@pytest.mark.parametrize("name", list(HIT_LOCATIONS))
def test_hit_location_rows_match_the_table(name: str) -> None:
    label, penalty, roll = HIT_LOCATIONS[name]
    row = g.hit_location(g.HitLocation[name])
    assert row == g.hit_location(label)
    assert row.penalty == penalty
    assert type(row.penalty) is int
    if roll is None:
        assert row.roll is None
    else:
        assert row.roll == roll
        assert type(row.roll) is tuple
        assert all(type(v) is int for v in row.roll)


def test_vitals_and_eyes_have_no_random_roll() -> None:
    assert g.hit_location("Vitals").roll is None
    assert g.hit_location("Eyes").roll is None
    rolled = [m for m in g.HitLocation if g.hit_location(m).roll is not None]
    assert len(rolled) == 11


def test_roll_ranges_cover_3_to_18_exactly_once() -> None:
    seen: list[int] = []
    for member in g.HitLocation:
        roll = g.hit_location(member).roll
        if roll is not None:
            low, high = roll
            assert 3 <= low <= high <= 18
            seen.extend(range(low, high + 1))
    assert sorted(seen) == list(range(3, 19))


@pytest.mark.parametrize("member", list(g.HitLocation))
def test_hit_location_by_member_label_and_any_case(member: g.HitLocation) -> None:
    expected = g.hit_location(member)
    assert g.hit_location(str(member.value)) == expected
    for variant in _case_variants(member.value):
        assert g.hit_location(variant) == expected


@pytest.mark.parametrize("value", BAD_LOCATIONS, ids=repr)
def test_hit_location_bad_input_is_refused(value: object) -> None:
    with pytest.raises(RuleInputError) as info:
        g.hit_location(_untyped(value))
    assert isinstance(info.value, ValueError)
    for label in LABELS:
        assert label in str(info.value), (label, str(info.value))


def test_hit_location_refuses_another_enums_member() -> None:
    with pytest.raises(RuleInputError):
        g.hit_location(_untyped(g.CoverOption.AIMED))


def test_hit_location_row_is_frozen_with_slots() -> None:
    row = g.hit_location("Torso")
    assert not hasattr(row, "__dict__")
    for name in row.FIELDS:
        with pytest.raises(AttributeError, match="cannot assign to field"):
            setattr(row, name, 1)
    assert row.penalty == 0


# -- roll_hit_location ------------------------------------------------------------


@pytest.mark.parametrize("total", range(3, 19))
def test_roll_hit_location_every_total(total: int) -> None:
    expected = _location_for_total(total)
    triples = [t for t in itertools.product(range(1, 7), repeat=3) if sum(t) == total]
    assert triples
    for triple in triples:
        rng = Scripted(triple)
        got = g.roll_hit_location(rng)
        assert got == expected, (triple, got)
        assert isinstance(got, g.HitLocation)
        assert rng.remaining == 0


def test_roll_hit_location_rolls_three_d6_one_call_per_die() -> None:
    rng = Recorder([6, 6, 6, 1])
    assert g.roll_hit_location(rng) is g.HitLocation.NECK
    assert rng.calls == [(1, 6), (1, 6), (1, 6)]
    assert rng.results == [1]


def test_roll_hit_location_never_hits_vitals_or_eyes() -> None:
    found = {
        g.roll_hit_location(Scripted(t))
        for t in itertools.product(range(1, 7), repeat=3)
    }
    assert found == set(g.HitLocation) - {g.HitLocation.VITALS, g.HitLocation.EYES}


def test_roll_hit_location_needs_three_dice() -> None:
    with pytest.raises(RuleInputError):
        g.roll_hit_location(Scripted([3, 3]))


# -- exposure_behind_cover ----------------------------------------------------------


def _exposure_reference(
    weapon_hands: int, narrow_slit: bool, hides_lower_body: bool
) -> dict[str, str]:
    """The source's paragraph, as a table (the weapon arm is the right arm)."""
    exposure: dict[str, str] = {}
    # "You must normally expose your skull, eyes, face, and neck to see a target."
    for label in ("Skull", "Eyes", "Face", "Neck"):
        exposure[label] = "exposed"
    # "... expose your weapon arm and hand to fire a one-handed weapon."
    exposure["Right Arm"] = "exposed"
    exposure["Hand"] = "exposed"
    # "... both arms and hands to fire a two-handed weapon, plus half of your torso
    # and vitals, unless you are firing through a narrow slit."
    exposure["Left Arm"] = "exposed" if weapon_hands == 2 else "covered"
    body = "half" if weapon_hands == 2 and not narrow_slit else "covered"
    exposure["Torso"] = body
    exposure["Vitals"] = body
    # "Your groin, legs, and feet can remain hidden if the cover is sufficient."
    lower = "covered" if hides_lower_body else "exposed"
    for label in ("Groin", "Right Leg", "Left Leg", "Foot"):
        exposure[label] = lower
    return exposure


FLAGS = list(itertools.product((1, 2), (False, True), (False, True)))


@pytest.mark.parametrize(("hands", "slit", "hides"), FLAGS)
def test_exposure_behind_cover_matches_the_source(
    hands: int, slit: bool, hides: bool
) -> None:
    got = g.exposure_behind_cover(hands, narrow_slit=slit, hides_lower_body=hides)
    assert set(got) == set(g.HitLocation)
    assert all(isinstance(k, g.HitLocation) for k in got)
    assert all(isinstance(v, str) for v in got.values())
    assert {k.value: str(v) for k, v in got.items()} == _exposure_reference(
        hands, slit, hides
    )


def test_exposure_defaults_hide_the_lower_body_without_a_slit() -> None:
    for hands in (1, 2):
        assert g.exposure_behind_cover(hands) == g.exposure_behind_cover(
            hands, narrow_slit=False, hides_lower_body=True
        )


def test_one_handed_weapon_exposes_weapon_arm_and_hand_only() -> None:
    got = g.exposure_behind_cover(1)
    shown = {k.value for k, v in got.items() if v != "covered"}
    assert shown == {"Skull", "Eyes", "Face", "Neck", "Right Arm", "Hand"}
    assert all(v == "exposed" for v in got.values() if v != "covered")


def test_two_handed_weapon_through_a_narrow_slit() -> None:
    got = g.exposure_behind_cover(2, narrow_slit=True)
    for label in ("Right Arm", "Left Arm", "Hand"):
        assert got[g.HitLocation(label)] == "exposed"
    for label in ("Torso", "Vitals"):
        assert got[g.HitLocation(label)] == "covered"
    assert "half" not in got.values()


def test_two_handed_weapon_shows_half_the_torso_and_vitals() -> None:
    got = g.exposure_behind_cover(2)
    assert got[g.HitLocation.TORSO] == "half"
    assert got[g.HitLocation.VITALS] == "half"
    assert [k.value for k, v in got.items() if v == "half"] == ["Torso", "Vitals"]


@pytest.mark.parametrize(
    "hands", [0, 3, -1, 4, True, False, 1.0, 2.0, "1", "2", None], ids=repr
)
def test_exposure_bad_weapon_hands_is_refused(hands: object) -> None:
    with pytest.raises(RuleInputError):
        g.exposure_behind_cover(_untyped(hands))


@pytest.mark.parametrize("flag", [1, 0, "yes", None, 1.0], ids=repr)
def test_exposure_flags_must_be_bools(flag: object) -> None:
    with pytest.raises(RuleInputError):
        g.exposure_behind_cover(2, narrow_slit=_untyped(flag))
    with pytest.raises(RuleInputError):
        g.exposure_behind_cover(2, hides_lower_body=_untyped(flag))


def test_exposure_flags_are_keyword_only() -> None:
    call: Any = g.exposure_behind_cover
    with pytest.raises(TypeError):
        call(2, True)


# -- attack_covered_target: aimed -------------------------------------------------


@pytest.mark.parametrize(("hands", "slit", "hides"), FLAGS)
def test_aimed_attack_every_location_and_exposure(
    hands: int, slit: bool, hides: bool
) -> None:
    reference = _exposure_reference(hands, slit, hides)
    exposure = g.exposure_behind_cover(hands, narrow_slit=slit, hides_lower_body=hides)
    for label in LABELS:
        attack = g.attack_covered_target("aimed", label, exposure)
        state = reference[label]
        if state == "covered":
            assert attack.allowed is False, label
            continue
        assert attack.allowed is True, label
        extra = -2 if state == "half" else 0
        assert attack.to_hit_modifier == PENALTY[label] + extra, (label, state)
        assert attack.extra_dr == 0


def test_aimed_default_exposure_is_a_two_handed_weapon() -> None:
    # Skull -7 exposed; torso 0 and vitals -3 are half exposed (2 more).
    expected: dict[str, int | None] = {
        "Skull": -7,
        "Face": -5,
        "Neck": -5,
        "Eyes": -9,
        "Right Arm": -2,
        "Left Arm": -2,
        "Hand": -4,
        "Torso": -2,
        "Vitals": -5,
        "Groin": None,
        "Right Leg": None,
        "Left Leg": None,
        "Foot": None,
    }
    assert set(expected) == set(LABELS)
    for label, modifier in expected.items():
        attack = g.attack_covered_target("aimed", location=label)
        if modifier is None:
            assert attack.allowed is False, label
        else:
            assert attack.allowed is True, label
            assert attack.to_hit_modifier == modifier, label
            assert attack.extra_dr == 0
    assert g.attack_covered_target("aimed", "Torso") == g.attack_covered_target(
        "aimed", "Torso", g.exposure_behind_cover(2)
    )


def test_aimed_through_a_narrow_slit_with_a_rifle() -> None:
    slit = g.exposure_behind_cover(2, narrow_slit=True)
    for label, modifier in (("Right Arm", -2), ("Left Arm", -2), ("Hand", -4)):
        attack = g.attack_covered_target("aimed", label, slit)
        assert (attack.allowed, attack.to_hit_modifier) == (True, modifier)
    for label in ("Torso", "Vitals"):
        assert g.attack_covered_target("aimed", label, slit).allowed is False


def test_aimed_without_a_location_is_not_allowed() -> None:
    assert g.attack_covered_target("aimed").allowed is False
    assert g.attack_covered_target("aimed", None).allowed is False
    everything_open = {label: "exposed" for label in LABELS}
    assert g.attack_covered_target("aimed", None, everything_open).allowed is False


def test_aimed_half_exposed_location_is_two_more() -> None:
    for label in LABELS:
        half = {other: "exposed" for other in LABELS}
        half[label] = "half"
        attack = g.attack_covered_target("aimed", label, half)
        assert attack.allowed is True
        assert attack.to_hit_modifier == PENALTY[label] - 2
        everything_open = {other: "exposed" for other in LABELS}
        open_attack = g.attack_covered_target("aimed", label, everything_open)
        assert open_attack.to_hit_modifier == PENALTY[label]


def test_custom_exposure_mapping_by_label_any_case() -> None:
    custom: dict[str, str] = {label.upper(): "EXPOSED" for label in LABELS}
    custom["SKULL"] = "Half"
    custom["TORSO"] = "covered"
    attack = g.attack_covered_target("aimed", "skull", custom)
    assert (attack.allowed, attack.to_hit_modifier) == (True, -9)
    assert g.attack_covered_target("aimed", "torso", custom).allowed is False
    assert g.attack_covered_target("aimed", "left leg", custom).to_hit_modifier == -2
    mixed: dict[g.HitLocation | str, g.CoverExposure | str] = {
        m: g.CoverExposure.EXPOSED for m in g.HitLocation
    }
    del mixed[g.HitLocation.EYES]
    mixed["eyes"] = "half"
    assert g.attack_covered_target("aimed", "Eyes", mixed).to_hit_modifier == -11


@pytest.mark.parametrize(
    "exposure",
    [
        {label: "exposed" for label in LABELS if label != "Neck"},  # Neck missing
        {**{label: "exposed" for label in LABELS}, "Tail": "exposed"},
        {**{label: "exposed" for label in LABELS}, "Skull": "hidden"},
        {**{label: "exposed" for label in LABELS}, "Skull": None},
        ["Skull"],
        "exposed",
        0,
    ],
    ids=[
        "missing",
        "unknown_location",
        "unknown_state",
        "none_state",
        "list",
        "str",
        "int",
    ],
)
def test_bad_exposure_is_refused(exposure: object) -> None:
    with pytest.raises(RuleInputError):
        g.attack_covered_target("aimed", "Skull", _untyped(exposure))


@pytest.mark.parametrize("location", BAD_LOCATIONS[:10], ids=repr)
def test_aimed_at_an_unknown_location_is_refused(location: object) -> None:
    with pytest.raises(RuleInputError):
        g.attack_covered_target("aimed", _untyped(location))


@pytest.mark.parametrize(
    "option", ["aim", "", "Aimed ", "random_hit", "shoot", None, 0, True], ids=repr
)
def test_unknown_option_is_refused(option: object) -> None:
    with pytest.raises(RuleInputError) as info:
        g.attack_covered_target(_untyped(option), "Skull")
    for label in ("aimed", "random", "through"):
        assert label in str(info.value)


def test_options_accept_members_and_any_case() -> None:
    for member in g.CoverOption:
        for variant in _case_variants(member.value):
            assert g.attack_covered_target(
                variant, "Skull", cover_dr=3
            ) == g.attack_covered_target(member, "Skull", cover_dr=3)
    assert [m.value for m in g.CoverOption] == ["aimed", "random", "through"]


# -- attack_covered_target: random --------------------------------------------------


def test_random_has_no_penalty() -> None:
    attack = g.attack_covered_target("random")
    assert (attack.allowed, attack.to_hit_modifier, attack.extra_dr) == (True, 0, 0)


@pytest.mark.parametrize("total", range(3, 19))
def test_random_resolve_every_total_default_exposure(total: int) -> None:
    reference = _exposure_reference(2, False, True)
    location = _location_for_total(total)
    state = reference[location]
    triple = next(
        t for t in itertools.product(range(1, 7), repeat=3) if sum(t) == total
    )
    attack = g.attack_covered_target("random")
    if state == "half":
        for check in range(1, 7):
            rng = Scripted([*triple, check])
            hit = attack.resolve(rng)
            assert hit.location == location
            assert hit.strikes_cover is (check >= 4), (location, check)
            assert rng.remaining == 0
        # The 1d check is rolled after the 3d: without it the script runs out.
        with pytest.raises(RuleInputError):
            attack.resolve(Scripted(triple))
    else:
        # Exposed or covered: the 3d alone decides; no 1d is rolled.
        rng = Scripted([*triple, 6])
        hit = attack.resolve(rng)
        assert hit.location == location
        assert hit.strikes_cover is (state == "covered"), (location, state)
        assert rng.remaining == 1


def test_random_resolve_rolls_3d_then_1d_one_call_per_die() -> None:
    # 3 + 3 + 4 = 10: the torso, half exposed by a rifleman; then the 1d check.
    rng = Recorder([3, 3, 4, 5])
    hit = g.attack_covered_target("random").resolve(rng)
    assert (hit.location, hit.strikes_cover) == ("Torso", True)
    assert rng.calls == [(1, 6)] * 4
    rng = Recorder([3, 3, 4, 3])
    hit = g.attack_covered_target("random").resolve(rng)
    assert (hit.location, hit.strikes_cover) == ("Torso", False)


def test_random_covered_location_strikes_cover_without_a_check() -> None:
    # 1 + 2 + 3 = 6: the right leg, covered; the script has no 1d result.
    rng = Recorder([1, 2, 3])
    hit = g.attack_covered_target("random").resolve(rng)
    assert hit.location == g.HitLocation.RIGHT_LEG
    assert hit.strikes_cover is True
    assert rng.calls == [(1, 6)] * 3


def test_random_resolve_uses_the_given_exposure() -> None:
    all_half = {label: "half" for label in LABELS}
    all_covered = {label: "covered" for label in LABELS}
    all_open = {label: "exposed" for label in LABELS}
    for triple in itertools.product(range(1, 7), repeat=3):
        location = _location_for_total(sum(triple))
        hit = g.attack_covered_target("random", exposure=all_half).resolve(
            Scripted([*triple, 4])
        )
        assert (hit.location, hit.strikes_cover) == (location, True)
        hit = g.attack_covered_target("random", exposure=all_half).resolve(
            Scripted([*triple, 3])
        )
        assert (hit.location, hit.strikes_cover) == (location, False)
        hit = g.attack_covered_target("random", exposure=all_covered).resolve(
            Scripted(triple)
        )
        assert (hit.location, hit.strikes_cover) == (location, True)
        hit = g.attack_covered_target("random", exposure=all_open).resolve(
            Scripted(triple)
        )
        assert (hit.location, hit.strikes_cover) == (location, False)


def test_random_resolve_low_cover_exposes_the_legs() -> None:
    low = g.exposure_behind_cover(1, hides_lower_body=False)
    hit = g.attack_covered_target("random", exposure=low).resolve(Scripted([1, 2, 3]))
    assert (hit.location, hit.strikes_cover) == ("Right Leg", False)
    # A one-handed shooter keeps the torso covered: 10 hits the cover.
    hit = g.attack_covered_target("random", exposure=low).resolve(Scripted([3, 3, 4]))
    assert (hit.location, hit.strikes_cover) == ("Torso", True)


@pytest.mark.parametrize(
    ("option", "location"), [("aimed", "Skull"), ("aimed", None), ("through", None)]
)
def test_resolve_on_a_non_random_option_is_refused(
    option: str, location: str | None
) -> None:
    attack = g.attack_covered_target(option, location, cover_dr=4)
    with pytest.raises(RuleInputError):
        attack.resolve(Scripted([3, 3, 4, 5]))


# -- attack_covered_target: through -------------------------------------------------


@pytest.mark.parametrize("dr", [0, 1, 4, 12, 37])
def test_through_the_cover(dr: int) -> None:
    attack = g.attack_covered_target("through", cover_dr=dr)
    assert (attack.allowed, attack.to_hit_modifier, attack.extra_dr) == (True, -2, dr)
    blind = g.attack_covered_target("through", cover_dr=dr, completely_concealed=True)
    assert (blind.allowed, blind.to_hit_modifier, blind.extra_dr) == (True, -10, dr)


def test_completely_concealed_foe_only_shot_through() -> None:
    # A foe the cover hides completely shows no location: aiming at any location
    # and rolling one at random are refused, whatever the exposure mapping says,
    # and no random hit is rolled; only the shot through the cover is allowed.
    exposures = [
        None,
        g.exposure_behind_cover(1),
        g.exposure_behind_cover(2, hides_lower_body=False),
        {label: "exposed" for label in LABELS},
    ]
    for exposure, location, dr in itertools.product(
        exposures, [None, *LABELS], [0, 3, 12]
    ):
        for option in ("aimed", "random"):
            attack = g.attack_covered_target(
                option, location, exposure, dr, completely_concealed=True
            )
            assert (attack.allowed, attack.to_hit_modifier, attack.extra_dr) == (
                False,
                0,
                0,
            ), (option, location, exposure)
            with pytest.raises(RuleInputError, match="completely concealed"):
                attack.resolve(Scripted([1, 1, 1, 1]))
        blind = g.attack_covered_target(
            "through", location, exposure, dr, completely_concealed=True
        )
        assert (blind.allowed, blind.to_hit_modifier, blind.extra_dr) == (
            True,
            -10,
            dr,
        )


def test_through_ignores_the_exposure_and_location() -> None:
    for exposure in (
        g.exposure_behind_cover(1),
        {label: "covered" for label in LABELS},
    ):
        attack = g.attack_covered_target("through", "Left Leg", exposure, 7)
        assert (attack.allowed, attack.to_hit_modifier, attack.extra_dr) == (
            True,
            -2,
            7,
        )


def test_through_defaults_to_no_cover_dr() -> None:
    assert g.attack_covered_target("through").extra_dr == 0


@pytest.mark.parametrize("dr", [-1, -12, True, False, 1.0, "3", None], ids=repr)
def test_bad_cover_dr_argument_is_refused(dr: object) -> None:
    with pytest.raises(RuleInputError):
        g.attack_covered_target("through", cover_dr=_untyped(dr))


@pytest.mark.parametrize("flag", [1, 0, "yes", None], ids=repr)
def test_completely_concealed_must_be_a_bool(flag: object) -> None:
    with pytest.raises(RuleInputError):
        g.attack_covered_target("through", completely_concealed=_untyped(flag))


def test_covered_attack_fields() -> None:
    names = list(g.CoveredAttack.FIELDS)
    assert names[:3] == ["to_hit_modifier", "extra_dr", "allowed"]
    attack = g.attack_covered_target("aimed", "Skull")
    assert type(attack.to_hit_modifier) is int
    assert type(attack.extra_dr) is int
    assert type(attack.allowed) is bool


# -- cover_dr ---------------------------------------------------------------------


def test_cover_dr_grid() -> None:
    for dr in range(0, 21):
        for hp in range(0, 81):
            got = g.cover_dr(dr, hp)
            assert type(got) is int
            assert got == dr + hp // 4, (dr, hp)


@pytest.mark.parametrize(
    ("dr", "hp", "expected"),
    [(8, 30, 15), (2, 3, 2), (0, 4, 1), (0, 0, 0), (5, 7, 6), (3, 100, 28)],
)
def test_cover_dr_spot_values(dr: int, hp: int, expected: int) -> None:
    assert g.cover_dr(dr, hp) == expected
    assert g.cover_dr(dr=dr, hp=hp) == expected


@pytest.mark.parametrize(
    ("dr", "hp"),
    [
        (-1, 4),
        (4, -1),
        (-5, -5),
        (True, 4),
        (4, True),
        (False, 0),
        (0, False),
        (1.0, 4),
        (4, 4.0),
        ("4", 4),
        (None, 4),
    ],
    ids=repr,
)
def test_cover_dr_bad_input_is_refused(dr: object, hp: object) -> None:
    with pytest.raises(RuleInputError):
        g.cover_dr(_untyped(dr), _untyped(hp))


# -- melee_across_obstacle ----------------------------------------------------------


def test_melee_across_obstacle_facts() -> None:
    facts = g.MELEE_ACROSS_OBSTACLE
    assert facts.cover_stops_melee is False
    assert facts.needs_reach is True
    unreachable = {part.strip() for part in facts.unreachable.split(",")}
    # "could not strike each other's legs or feet"
    assert unreachable == {"Right Leg", "Left Leg", "Foot"}
    assert unreachable <= set(LABELS)
    assert not hasattr(facts, "__dict__")
    with pytest.raises(AttributeError, match="cannot assign to field"):
        cast(Any, facts).needs_reach = False


def test_module_exports_the_catalog_names() -> None:
    for name in (
        "hit_location",
        "HitLocation",
        "HitLocationRow",
        "roll_hit_location",
        "exposure_behind_cover",
        "attack_covered_target",
        "CoveredAttack",
        "RandomHit",
        "cover_dr",
        "MELEE_ACROSS_OBSTACLE",
    ):
        assert name in g.__all__, name
        assert hasattr(g, name), name


def test_exposure_values_are_the_three_states() -> None:
    values: set[str] = set()
    for hands, slit, hides in FLAGS:
        got: Mapping[g.HitLocation, str] = g.exposure_behind_cover(
            hands, narrow_slit=slit, hides_lower_body=hides
        )
        values |= {str(v) for v in got.values()}
    assert values == {"exposed", "half", "covered"}
