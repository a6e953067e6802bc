"""The generated edge_of_darkness runtime answers the catalog's surface.

Figures come from the source (004_fa4591f0a94231fd.txt) and, for the dice pool,
the Storytelling System rules the catalog names (d10s, 8 and up, 10 again, the
chance die). They are typed out here by hand, not read from rules/.
"""

from __future__ import annotations

import enum
import itertools
import random
from fractions import Fraction
from typing import Any, cast

import pytest
import rulebook.edge_of_darkness as eod
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


# -- concealment --------------------------------------------------------------------

# degree member -> (label, modifier, full cover, a word of the source's example)
CONCEALMENT: dict[str, tuple[str, int | None, bool, str]] = {
    "BARELY": ("Barely concealed", -1, False, "chair"),
    "PARTIALLY": ("Partially concealed", -2, False, "hood"),
    "SUBSTANTIALLY": ("Substantially concealed", -3, False, "foxhole"),
    "COMPLETELY": ("Completely covered", None, True, "door"),
}
LABELS = [label for label, _, _, _ in CONCEALMENT.values()]
TARGET_MODIFIER: dict[str | None, int] = {
    None: 0,
    "Barely concealed": -1,
    "Partially concealed": -2,
    "Substantially concealed": -3,
}
# "one less than the concealment rating": -3 -> -2 ...; complete cover has to come
# up to fire and so is substantially concealed.
SHOOTER_MODIFIER: dict[str | None, int] = {
    None: 0,
    "Barely concealed": 0,
    "Partially concealed": -1,
    "Substantially concealed": -2,
    "Completely covered": -2,
}


def test_concealment_degree_is_a_strenum_of_the_source_labels() -> None:
    assert issubclass(eod.ConcealmentDegree, enum.StrEnum)
    assert [m.name for m in eod.ConcealmentDegree] == list(CONCEALMENT)
    assert [m.value for m in eod.ConcealmentDegree] == LABELS
    barely: str = eod.ConcealmentDegree.BARELY
    assert barely == "Barely concealed"


def test_concealment_row_fields() -> None:
    names = list(eod.ConcealmentRow.FIELDS)
    assert names == ["modifier", "full_cover", "example"]


@pytest.mark.parametrize("name", list(CONCEALMENT))
def test_concealment_rows_match_the_source(name: str) -> None:
    label, modifier, full_cover, word = CONCEALMENT[name]
    row = eod.concealment(eod.ConcealmentDegree[name])
    assert row == eod.concealment(label)
    assert row.modifier == modifier
    if modifier is None:
        assert row.modifier is None
    else:
        assert type(row.modifier) is int
    assert row.full_cover is full_cover
    assert isinstance(row.example, str) and row.example
    assert word in row.example.casefold(), (word, row.example)


@pytest.mark.parametrize("member", list(eod.ConcealmentDegree))
def test_concealment_by_member_label_and_any_case(
    member: eod.ConcealmentDegree,
) -> None:
    expected = eod.concealment(member)
    for variant in _case_variants(member.value):
        assert eod.concealment(variant) == expected


@pytest.mark.parametrize(
    "value",
    [
        "Barely",
        "concealed",
        "Completely concealed",
        "Fully covered",
        "",
        "BARELY",
        None,
        -1,
        0,
        True,
        b"Barely concealed",
    ],
    ids=repr,
)
def test_concealment_bad_degree_is_refused(value: object) -> None:
    with pytest.raises(RuleInputError) as info:
        eod.concealment(_untyped(value))
    for label in LABELS:
        assert label in str(info.value)


def test_concealment_row_is_frozen_with_slots() -> None:
    row = eod.concealment("Partially concealed")
    assert not hasattr(row, "__dict__")
    for name in row.FIELDS:
        with pytest.raises(AttributeError, match="cannot assign to field"):
            setattr(row, name, 0)


def test_concealment_ladder_ordering() -> None:
    members = list(eod.ConcealmentDegree)
    for i, low in enumerate(members):
        for j, high in enumerate(members):
            assert (low < high) is (i < j), (low, high)
            assert (low <= high) is (i <= j), (low, high)
            assert (low > high) is (i > j), (low, high)
            assert (low >= high) is (i >= j), (low, high)
    shuffled = members[::-1]
    random.Random(4).shuffle(shuffled)
    assert sorted(shuffled) == members
    # Alphabetically "Completely covered" would come before "Partially concealed".
    assert sorted(LABELS) != LABELS
    assert max(members) is eod.ConcealmentDegree.COMPLETELY
    assert min(members) is eod.ConcealmentDegree.BARELY


def test_concealment_ladder_compares_with_labels() -> None:
    D = eod.ConcealmentDegree
    assert D.PARTIALLY < "completely covered"
    assert D.COMPLETELY > "Partially concealed"
    assert D.SUBSTANTIALLY >= "SUBSTANTIALLY CONCEALED"
    assert not D.BARELY > "partially concealed"
    with pytest.raises(RuleInputError):
        _ = D.BARELY < "hidden"


def test_penalties_grow_along_the_ladder() -> None:
    modifiers = [eod.concealment(m).modifier for m in eod.ConcealmentDegree]
    assert modifiers == [-1, -2, -3, None]


# -- ranged_modifier ------------------------------------------------------------------


@pytest.mark.parametrize("target", list(TARGET_MODIFIER))
def test_target_only(target: str | None) -> None:
    assert eod.ranged_modifier(target) == TARGET_MODIFIER[target]
    assert eod.ranged_modifier(target=target) == TARGET_MODIFIER[target]


@pytest.mark.parametrize("shooter", list(SHOOTER_MODIFIER))
def test_shooter_only(shooter: str | None) -> None:
    assert eod.ranged_modifier(shooter=shooter) == SHOOTER_MODIFIER[shooter]
    assert eod.ranged_modifier(None, shooter) == SHOOTER_MODIFIER[shooter]


def test_source_example_substantially_concealed_shooter_takes_two() -> None:
    assert eod.ranged_modifier(shooter="Substantially concealed") == -2
    assert eod.ranged_modifier(shooter=eod.ConcealmentDegree.SUBSTANTIALLY) == -2


def test_completely_covered_shooter_counts_as_substantially() -> None:
    assert eod.ranged_modifier(shooter="Completely covered") == -2
    for target in TARGET_MODIFIER:
        assert eod.ranged_modifier(target, "Completely covered") == eod.ranged_modifier(
            target, "Substantially concealed"
        )


@pytest.mark.parametrize(
    ("target", "shooter"), list(itertools.product(TARGET_MODIFIER, SHOOTER_MODIFIER))
)
def test_modifiers_are_cumulative(target: str | None, shooter: str | None) -> None:
    expected = TARGET_MODIFIER[target] + SHOOTER_MODIFIER[shooter]
    got = eod.ranged_modifier(target, shooter)
    assert type(got) is int
    assert got == expected
    if target is not None and shooter is not None:
        assert eod.ranged_modifier(target.upper(), shooter.lower()) == expected


@pytest.mark.parametrize(
    ("target", "shooter"),
    list(itertools.product([*TARGET_MODIFIER, "Completely covered"], SHOOTER_MODIFIER)),
)
def test_close_combat_gives_zero(target: str | None, shooter: str | None) -> None:
    # Concealment (and, by the rules' ruling, cover) does not apply to Brawl or
    # Weaponry: even a completely covered target is not refused here.
    assert eod.ranged_modifier(target, shooter, close_combat=True) == 0


@pytest.mark.parametrize("shooter", list(SHOOTER_MODIFIER))
def test_completely_covered_target_is_refused(shooter: str | None) -> None:
    for target in ("Completely covered", eod.ConcealmentDegree.COMPLETELY):
        with pytest.raises(RuleInputError) as info:
            eod.ranged_modifier(target, shooter)
        # it says what to do instead, in the players' words
        assert "Shoot through the cover instead" in str(info.value)


def test_close_combat_is_keyword_only_and_a_bool() -> None:
    call: Any = eod.ranged_modifier
    with pytest.raises(TypeError):
        call(None, None, True)
    for flag in (1, 0, "yes", None):
        with pytest.raises(RuleInputError):
            eod.ranged_modifier(close_combat=_untyped(flag))


@pytest.mark.parametrize("value", ["hidden", "", "Barely", 0, -1, True], ids=repr)
def test_ranged_modifier_bad_degrees_are_refused(value: object) -> None:
    with pytest.raises(RuleInputError):
        eod.ranged_modifier(_untyped(value))
    with pytest.raises(RuleInputError):
        eod.ranged_modifier(shooter=_untyped(value))


# -- fire_from_full_cover -----------------------------------------------------------


def test_fire_from_full_cover_is_substantially() -> None:
    degree = eod.fire_from_full_cover()
    assert degree is eod.ConcealmentDegree.SUBSTANTIALLY
    # "attacks made against him would then suffer a -3 penalty"
    assert eod.concealment(degree).modifier == -3
    assert eod.ranged_modifier(target=degree) == -3
    assert eod.ranged_modifier(shooter=degree) == -2


# -- shoot_through_cover ----------------------------------------------------------


def _through_reference(
    successes: int, durability: int, structure: int, armor: int
) -> tuple[bool, int, int, int, bool, bool, bool]:
    """The source's steps, one by one."""
    if structure == 0 and successes > 0:
        # "Once cover's Structure has been exhausted, the object provides no more
        # protection": the shot is resolved as if there were no cover.
        return (True, 0, 0, 0, False, True, True)
    passes = successes > durability  # must exceed the Durability
    excess = successes - durability if passes else 0  # taken as Structure damage
    left = structure - excess
    pool = excess - armor if passes else 0  # armor is subtracted from the pool
    return (
        passes,
        excess,
        left if left > 0 else 0,
        pool if pool > 0 else 0,
        passes and pool <= 0,  # "reduced to a chance roll"
        left <= 0,  # "Once cover's Structure has been exhausted"
        False,  # the cover still stood
    )


def test_shoot_through_cover_grid() -> None:
    for successes, durability, structure, armor in itertools.product(
        range(9), range(6), range(7), range(4)
    ):
        hit = eod.shoot_through_cover(successes, durability, structure, armor)
        got = (
            hit.passes_through,
            hit.structure_damage,
            hit.structure_left,
            hit.damage_pool,
            hit.chance_roll,
            hit.cover_destroyed,
            hit.unhindered,
        )
        assert got == _through_reference(successes, durability, structure, armor), (
            successes,
            durability,
            structure,
            armor,
        )
        assert hit.damage_pool >= 0
        assert hit.structure_left >= 0
        assert type(hit.damage_pool) is int and type(hit.passes_through) is bool


def test_cover_hit_fields() -> None:
    assert list(eod.CoverHit.FIELDS) == [
        "passes_through",
        "structure_damage",
        "structure_left",
        "damage_pool",
        "chance_roll",
        "cover_destroyed",
        "unhindered",
    ]


def test_exhausted_cover_gives_no_protection() -> None:
    # Whatever the Durability and armor, a shot with successes at cover with no
    # Structure left passes unhindered, and the cover takes nothing more.
    for successes, durability, armor in itertools.product(
        range(1, 12), range(8), range(5)
    ):
        hit = eod.shoot_through_cover(successes, durability, 0, armor)
        assert hit.passes_through is True and hit.unhindered is True
        assert (hit.structure_damage, hit.structure_left, hit.damage_pool) == (0, 0, 0)
        assert hit.chance_roll is False and hit.cover_destroyed is True
    for durability in range(8):
        miss = eod.shoot_through_cover(0, durability, 0)
        assert (miss.passes_through, miss.unhindered) == (False, False)
    for structure in range(1, 8):
        for successes in range(12):
            hit = eod.shoot_through_cover(successes, 3, structure)
            assert hit.unhindered is False


def test_successes_equal_to_durability_do_not_pass() -> None:
    for durability in range(6):
        hit = eod.shoot_through_cover(durability, durability, 5)
        assert hit.passes_through is False
        assert (hit.structure_damage, hit.structure_left, hit.damage_pool) == (0, 5, 0)
        assert hit.chance_roll is False
        assert hit.cover_destroyed is False
        assert eod.shoot_through_cover(durability + 1, durability, 5).passes_through


def test_structure_below_zero_clamps_and_destroys() -> None:
    hit = eod.shoot_through_cover(9, 2, 4)
    assert hit.structure_damage == 7
    assert hit.structure_left == 0
    assert hit.damage_pool == 7
    assert hit.cover_destroyed is True
    exact = eod.shoot_through_cover(6, 2, 4)
    assert (exact.structure_left, exact.cover_destroyed) == (0, True)
    short = eod.shoot_through_cover(5, 2, 4)
    assert (short.structure_left, short.cover_destroyed) == (1, False)


def test_armor_reduces_the_pool_to_a_chance_roll() -> None:
    # 5 successes against Durability 3: 2 pass through; 2 armor leaves nothing.
    hit = eod.shoot_through_cover(5, 3, 6, 2)
    assert hit.passes_through is True
    assert (hit.structure_damage, hit.structure_left) == (2, 4)
    assert hit.damage_pool == 0
    assert hit.chance_roll is True
    assert hit.cover_destroyed is False
    more_armor = eod.shoot_through_cover(5, 3, 6, 9)
    assert (more_armor.damage_pool, more_armor.chance_roll) == (0, True)
    less_armor = eod.shoot_through_cover(5, 3, 6, 1)
    assert (less_armor.damage_pool, less_armor.chance_roll) == (1, False)


def test_no_chance_roll_when_the_shot_stops() -> None:
    hit = eod.shoot_through_cover(1, 3, 6, 5)
    assert (hit.passes_through, hit.damage_pool, hit.chance_roll) == (False, 0, False)


def test_shoot_through_cover_default_armor_is_zero() -> None:
    assert eod.shoot_through_cover(7, 3, 10) == eod.shoot_through_cover(7, 3, 10, 0)
    assert eod.shoot_through_cover(7, 3, 10).damage_pool == 4


@pytest.mark.parametrize(
    "args",
    [
        (-1, 3, 4, 0),
        (3, -1, 4, 0),
        (3, 3, -1, 0),
        (3, 3, 4, -1),
        (True, 3, 4, 0),
        (3, False, 4, 0),
        (3, 3, True, 0),
        (3, 3, 4, True),
        (3.0, 3, 4, 0),
        ("3", 3, 4, 0),
        (None, 3, 4, 0),
    ],
    ids=repr,
)
def test_shoot_through_cover_bad_input_is_refused(args: tuple[object, ...]) -> None:
    with pytest.raises(RuleInputError):
        eod.shoot_through_cover(*[_untyped(a) for a in args])


# -- roll_pool ------------------------------------------------------------------------


def test_roll_pool_counts_eights_and_up() -> None:
    for face in range(1, 10):
        result = eod.roll_pool(1, Scripted([face]))
        assert result.successes == (1 if face >= 8 else 0), face
        assert result.dramatic_failure is False


def test_roll_pool_source_example_three_dice() -> None:
    rng = Scripted([10, 9, 3, 8])
    result = eod.roll_pool(3, rng)
    assert (result.successes, result.dramatic_failure) == (3, False)
    assert rng.remaining == 0


def test_ten_again_rerolls_right_after_the_die() -> None:
    # Die 1: 10, again 10, again 2; die 2: 8; die 3: 1 (no dramatic failure).
    rng = Scripted([10, 10, 2, 8, 1, 9])
    result = eod.roll_pool(3, rng)
    assert (result.successes, result.dramatic_failure) == (3, False)
    assert rng.remaining == 1  # five dice rolled, the 9 left unused
    # Without a 10 no die is rolled again.
    rng = Scripted([9, 9, 9, 10])
    assert eod.roll_pool(3, rng).successes == 3
    assert rng.remaining == 1
    # A re-rolled 10 succeeds and rolls again too.
    rng = Scripted([10, 10, 10, 7])
    assert eod.roll_pool(1, rng).successes == 3
    assert rng.remaining == 0


def test_roll_pool_rolls_d10s_one_call_per_die() -> None:
    rng = Recorder([10, 3, 8, 4])
    assert eod.roll_pool(3, rng).successes == 2
    assert rng.calls == [(1, 10)] * 4
    assert rng.results == []


@pytest.mark.parametrize("dice", [0, -1, -3, -10])
def test_chance_die(dice: int) -> None:
    for face in range(2, 10):
        rng = Scripted([face, 10])
        result = eod.roll_pool(dice, rng)
        # Only a 10 succeeds on a chance die (not an 8 or 9).
        assert (result.successes, result.dramatic_failure) == (0, False), face
        assert rng.remaining == 1  # one die only
    failure = eod.roll_pool(dice, Scripted([1]))
    assert (failure.successes, failure.dramatic_failure) == (0, True)
    # A 10 succeeds and rolls again as a normal die: 8+ succeeds, 10 again.
    assert eod.roll_pool(dice, Scripted([10, 8])).successes == 2
    assert eod.roll_pool(dice, Scripted([10, 7])).successes == 1
    assert eod.roll_pool(dice, Scripted([10, 10, 9])).successes == 3
    again_one = eod.roll_pool(dice, Scripted([10, 1]))
    assert (again_one.successes, again_one.dramatic_failure) == (1, False)


def test_a_one_in_a_normal_pool_is_no_dramatic_failure() -> None:
    for dice in (1, 2, 5):
        result = eod.roll_pool(dice, Scripted([1] * dice))
        assert (result.successes, result.dramatic_failure) == (0, False)


@pytest.mark.parametrize("dice", [True, False, 1.0, "3", None], ids=repr)
def test_roll_pool_bad_dice_is_refused(dice: object) -> None:
    with pytest.raises(RuleInputError):
        eod.roll_pool(_untyped(dice), Scripted([8] * 5))
    with pytest.raises(RuleInputError):
        eod.pool_distribution(_untyped(dice))


# -- pool_distribution ------------------------------------------------------------


def _reference_distribution(
    dice: int, limit: int
) -> tuple[dict[int, Fraction], Fraction]:
    """Exact chances of 0..limit successes, and of more, by playing out the rolls.

    A state is (dice still to roll, successes so far). A path that passes
    ``limit`` successes is set aside as "more"; every 10 adds a success, so the
    remaining paths end after finitely many rolls and the answer is exact.
    """
    tenth = Fraction(1, 10)
    done: dict[int, Fraction] = {}
    more = Fraction(0)
    states: dict[tuple[int, int], Fraction] = {}
    if dice <= 0:
        # The chance die: 10 succeeds and rolls again; anything else is nothing.
        done[0] = 9 * tenth
        states[(1, 1)] = tenth
    else:
        states[(dice, 0)] = Fraction(1)
    while states:
        following: dict[tuple[int, int], Fraction] = {}
        for (left, successes), p in states.items():
            if left == 0:
                done[successes] = done.get(successes, Fraction(0)) + p
                continue
            for face in range(1, 11):
                got = successes + (1 if face >= 8 else 0)
                still = left - 1 + (1 if face == 10 else 0)
                if got > limit:
                    more += p * tenth
                    continue
                key = (still, got)
                following[key] = following.get(key, Fraction(0)) + p * tenth
        states = following
    return {k: done.get(k, Fraction(0)) for k in range(limit + 1)}, more


@pytest.mark.parametrize("dice", range(-3, 11))
def test_pool_distribution_is_exact(dice: int) -> None:
    dist = eod.pool_distribution(dice)
    assert all(type(p) is Fraction for p in dist.values())
    assert all(type(k) is int for k in dist)
    listed = max(dist)
    assert sorted(dist) == list(range(listed + 1))
    # It lists at least as many counts as there are dice (a chance die: 1).
    assert listed >= max(dice, 1)
    expected, more = _reference_distribution(dice, listed)
    assert dict(dist) == expected
    assert type(dist.tail) is Fraction
    assert dist.tail == more
    assert dist.tail > 0  # 10 again: any count can be beaten
    assert sum(dist.values()) + dist.tail == 1


@pytest.mark.parametrize("dice", range(-3, 11))
def test_dramatic_failure_only_for_chance_dice(dice: int) -> None:
    """Only a chance die fails dramatically: on its 1 (one face in ten)."""
    faces = [[face, *([1] * 40)] for face in range(1, 11)]
    dramatic = [eod.roll_pool(dice, Scripted(f)).dramatic_failure for f in faces]
    assert dramatic == [dice <= 0] + [False] * 9


def test_pool_distribution_spot_values() -> None:
    one = eod.pool_distribution(1)
    # 1-7 fail; 8 or 9 is one success; 10 is one and rolls again.
    assert one[0] == Fraction(7, 10)
    assert one[1] == Fraction(2, 10) + Fraction(1, 10) * Fraction(7, 10)
    assert one[2] == Fraction(1, 10) * (
        Fraction(2, 10) + Fraction(1, 10) * Fraction(7, 10)
    )
    chance = eod.pool_distribution(0)
    assert chance[0] == Fraction(9, 10)
    assert chance[1] == Fraction(1, 10) * Fraction(7, 10)
    assert eod.pool_distribution(-2) == chance
    assert eod.pool_distribution(-2).tail == chance.tail


def test_pool_distribution_answers_are_independent() -> None:
    """Each call answers chances of its own: changing one changes no other."""
    first = eod.pool_distribution(4)
    counts, tail = dict(first), first.tail
    first[0] = Fraction(0)
    again = eod.pool_distribution(4)
    assert again[0] == counts[0]
    assert again.tail == tail


def _enumerate_rolls(dice: int, max_len: int) -> tuple[dict[int, Fraction], Fraction]:
    """Every scripted roll sequence up to ``max_len`` dice, weighted exactly.

    A sequence that needs more dice than ``max_len`` is counted as cut off; it
    holds at least ``max_len - max(dice, 1)`` tens, so fewer successes are exact.
    """
    found: dict[int, Fraction] = {}
    cut = Fraction(0)
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        rng = Scripted(prefix)
        try:
            result = eod.roll_pool(dice, rng)
        except RuleInputError:
            if len(prefix) == max_len:
                cut += Fraction(1, 10 ** len(prefix))
            else:
                stack.extend((*prefix, face) for face in range(1, 11))
            continue
        assert rng.remaining == 0
        p = Fraction(1, 10 ** len(prefix))
        found[result.successes] = found.get(result.successes, Fraction(0)) + p
    return found, cut


@pytest.mark.parametrize("dice", [0, 1, 2, 3])
def test_roll_pool_agrees_with_pool_distribution(dice: int) -> None:
    max_len = max(dice, 1) + 3
    found, cut = _enumerate_rolls(dice, max_len)
    dist = eod.pool_distribution(dice)
    exact_below = max_len - max(dice, 1)
    for k in range(exact_below):
        assert found.get(k, Fraction(0)) == dist[k], k
    assert sum(found.values()) + cut == 1


def test_module_exports_the_catalog_names() -> None:
    for name in (
        "concealment",
        "ConcealmentDegree",
        "ConcealmentRow",
        "ranged_modifier",
        "fire_from_full_cover",
        "shoot_through_cover",
        "CoverHit",
        "roll_pool",
        "PoolResult",
        "pool_distribution",
    ):
        assert name in eod.__all__, name
        assert hasattr(eod, name), name
