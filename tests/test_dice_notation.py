"""Dice notation read into dice terms: what it reads, and each mistake located."""

from __future__ import annotations

import pytest

from rulesc.runtime.dice import DiceSyntaxError, Scripted, parse_dice
from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_rolls import roll
from rulesc.runtime.dice_terms import Compare, DiceSum, Pool, Term


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("d20", "1d20"),
        ("d%", "1d100"),
        ("4dF", "4dF"),
        ("4d6k3", "4d6kh3"),
        ("2d20kl", "2d20kl1"),
        ("6d6>=5", "6d6>=5"),
        ("2d6ro<=1", "2d6ro<=1"),
        ("2d6rr<=2", "2d6rr<=2"),
        ("2d6ro=1", "2d6ro1"),
        ("3d6!!dl1*2", "3d6!!dl1x2"),
        ("-1d4+3-d6", "-1d4+3-1d6"),
        ("4dF>=-0", "4dF>=0"),
    ],
)
def test_notation_reads_back_as_written(text: str, read: str) -> None:
    assert str(parse_notation(text)) == read


def test_the_rules_own_notation_reads_as_dice_does() -> None:
    for text in ("3d6", "2d10+10", "2d6x10", "3d-1", "3d", "1d20-2", "-5", "7"):
        dice = parse_dice(text, bare_d6=True)
        (first, *rest) = parse_notation(text, bare_d6=True).terms
        if dice.count:
            pool = Pool(dice.count, dice.sides, multiplier=dice.multiplier)
            assert first == Term(1, pool)
            assert rest == (
                [Term(1 if dice.modifier > 0 else -1, abs(dice.modifier))]
                if dice.modifier
                else []
            )
        else:
            assert parse_notation(text, bare_d6=True) == DiceSum(
                (Term(-1 if dice.modifier < 0 else 1, abs(dice.modifier)),)
            )


def test_a_pool_holds_each_option() -> None:
    pool = parse_notation("5d10ro1!!kh3>=8x2").pools[0]
    assert pool == Pool(
        5,
        10,
        reroll=Compare("=", 1),
        reroll_once=True,
        explode="!!",
        keep="kh",
        keep_count=3,
        target=Compare(">=", 8),
        multiplier=2,
    )


def test_a_comparison_right_after_an_explosion_sets_the_faces_that_explode() -> None:
    """As Roll20 reads it: ``!>=9`` explodes on 9 and 10; a target after it
    counts; the highest face written out is the same as none."""
    pool = parse_notation("6d10!>=9>=8").pools[0]
    assert pool.explode_at == Compare(">=", 9) and pool.target == Compare(">=", 8)
    assert [pool.explodes(f) for f in (8, 9, 10)] == [False, True, True]
    assert parse_notation("6d10!>=9").pools[0].target is None
    assert parse_notation("1d6!=6") == parse_notation("1d6!")
    assert str(parse_notation("3d6!>=5")) == "3d6!>=5"
    # a target after a plain explosion prints the highest face, so it reads back
    assert str(parse_notation("3d6!=6>=5")) == "3d6!=6>=5"
    assert parse_notation("3d6!=6>=5").pools[0].explode_at is None
    rolled = roll(parse_notation("2d10!>=9>=8"), Scripted([9, 3, 10, 8]))
    assert rolled.results == (9, 3, 10, 8) and rolled.total == 3


@pytest.mark.parametrize(
    ("text", "offset", "message"),
    [
        ("3x6", 1, "unexpected 'x'"),
        ("3d", 2, "the die's sides are missing"),
        ("0d6", 0, "a pool needs at least one die"),
        ("2d0", 2, "a die needs at least one side"),
        ("4d6kh0", 3, "kh takes 1 die or more, not 0"),
        ("4d6dl0", 3, "dl takes 1 die or more, not 0"),
        ("4d6kh1kl1", 6, "a second keep or drop"),
        ("1d1!", 3, "explodes forever"),
        ("1d6!>=1", 3, "explodes forever"),
        ("1d6!!<7", 3, "explodes forever"),
        ("1d6rr<7", 3, "every face is rerolled"),
        ("2d6x0", 4, "the multiplier must be 1 or more"),
        ("4d6d1", 3, "'d' after a pool's sides"),
        ("2d6>=", 5, "the target is missing"),
        ("d6+", 3, "unexpected the end"),
        ("1d" + "9" * 16, 2, "more than 15 digits"),
        ("1d6 + 2", 3, "unexpected ' '"),
        ("d1٠", 2, "is not an ASCII digit"),
        ("+".join(["1"] * 101), 200, "more than 100 terms"),
    ],
)
def test_each_mistake_is_located(text: str, offset: int, message: str) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse_notation(text)
    assert caught.value.offset == offset, caught.value.message
    assert message in caught.value.message
    assert caught.value.hint
