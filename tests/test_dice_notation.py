"""Dice notation read into dice terms: what it reads, and each mistake located."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.runtime.dice import DiceSyntaxError, Scripted, parse_dice
from rulesc.runtime.dice_notation import parse_notation
from rulesc.runtime.dice_rolls import roll
from rulesc.runtime.dice_terms import AnyOf, Compare, DiceSum, Pool, Term
from rulesc.runtime.dice_tree import Binary, Call, Group, Labeled
from rulesc.runtime.dice_tree import Test as Compared
from rulesc.runtime.errors import RuleInputError


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
        ("3d6!!dl1*2", "3d6!!dl1*2"),
        ("3d6!!dl1x2", "3d6!!dl1x2"),
        ("4d6r1", "4d6rr1"),
        ("4d6d1", "4d6dl1"),
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
        ("1d6!!<=6", 3, "explodes forever"),
        ("1d6rr<=6", 3, "every face is rerolled"),
        ("2d6x0", 4, "the multiplier must be 1 or more"),
        ("4d6d", 4, "how many dice to drop is missing"),
        ("2d6>=", 5, "the target is missing"),
        ("d6+", 3, "it ends too soon"),
        ("1d" + "9" * 16, 2, "more than 15 digits"),
        ("1d6 2", 4, "unexpected '2'"),
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


# -- issue 41: the notation as players type it ---------------------------------------

POOL_OPTIONS = st.lists(
    st.sampled_from(
        ["min2", "max5", "r1", "r", "r<=2", "ro1", "!", "!!", "!p", "!o", "!>=6",
         "u", "kh2", "kl", "dh1", "d1", "k2", ">=4", "<=2", "=6", "f1", "s", "sd",
         "x3"]
    ),
    max_size=3,
    unique=True,
)  # fmt: skip


@st.composite
def notations(draw: st.DrawFn, depth: int = 2) -> str:
    """A notation text of the grammar (some refused by a pool's checks)."""
    pool = draw(st.sampled_from(["", "2", "3"])) + "d"
    pool += draw(st.sampled_from(["6", "10", "%", "F", "F.1", "F.2"]))
    atoms = [
        pool + "".join(draw(POOL_OPTIONS)),
        draw(st.sampled_from(["0", "7", "1.5"])),
    ]
    if depth:
        inner = notations(depth - 1)
        atoms += [
            f"({draw(inner)})",
            f"{draw(st.sampled_from(['floor', 'round', 'abs']))}({draw(inner)})",
            f"max({draw(inner)}, {draw(inner)})",
            f"{{{draw(inner)}, {draw(inner)}}}"
            + draw(st.sampled_from(["", "kh1", ">=3"])),
        ]
    text = draw(st.sampled_from(atoms)) + draw(st.sampled_from(["", "[hit]"]))
    for _ in range(draw(st.integers(0, 2))):
        text += draw(st.sampled_from([" + ", "-", "*", " / ", "+"]))
        text += draw(st.sampled_from(atoms))
    if depth == 2 and draw(st.booleans()):
        text = draw(st.sampled_from(["-", ""])) + text + " >= 4"
    return text


@settings(max_examples=80, deadline=None, derandomize=True)
@given(notations())
def test_what_it_reads_it_writes_back(text: str) -> None:
    """str(parse(x)) reads back as an equal tree, and writes itself again."""
    try:
        dice = parse_notation(text)
    except DiceSyntaxError as error:
        assert 0 <= error.offset <= len(text) and error.hint, text
        return
    shown = str(dice)
    assert parse_notation(shown) == dice, (text, shown)
    assert str(parse_notation(shown)) == shown


T = Term
P = Pool


def _sum(*nodes: object) -> DiceSum:
    return DiceSum(tuple(T(1, n) for n in nodes))  # type: ignore[arg-type]


MEANINGS = [  # a spelling players type, and what it means here
    ("4d6r1", _sum(P(4, 6, reroll=Compare("=", 1)))),  # until (Roll20, rpg-dice-roller)
    ("4d6r", _sum(P(4, 6, reroll=Compare("=", 1)))),  # bare r: the lowest face
    ("4d6ro1", _sum(P(4, 6, reroll=Compare("=", 1), reroll_once=True))),
    ("2d10r1r3", _sum(P(2, 10, reroll=AnyOf((Compare("=", 1), Compare("=", 3)))))),
    ("4d6d1", _sum(P(4, 6, keep="dl", keep_count=1))),
    ("2d6!kh1", _sum(P(2, 6, explode="!", keep="kh", keep_count=1))),
    ("3d6!p", _sum(P(3, 6, explode="!p"))),
    ("10d10>=8f1", _sum(P(10, 10, target=Compare(">=", 8), failure=Compare("=", 1)))),
    ("4d6min2", _sum(P(4, 6, minimum=2))),
    ("3d6u", _sum(P(3, 6, unique=True))),
    ("4dF.1", _sum(P(4, 6, fudge=True, listed=(-1, 0, 0, 0, 0, 1)))),
    ("4dF.2", _sum(P(4, 3, fudge=True))),
    ("2d6x10", _sum(P(2, 6, multiplier=10))),
    ("2d6*10", _sum(Binary("*", P(2, 6), 10))),
    ("(2d6+3)*2", _sum(Binary("*", DiceSum((T(1, P(2, 6)), T(1, 3))), 2))),
    ("2d6/2", _sum(Binary("/", P(2, 6), 2))),
    ("1.5", _sum(Fraction(3, 2))),
    ("floor(1d6/2)", _sum(Call("floor", (Binary("/", P(1, 6), 2),)))),
    ("max(1d6, 1d8)", _sum(Call("max", (P(1, 6), P(1, 8))))),
    ("{1d20, 1d20}kh1", _sum(Group((P(1, 20), P(1, 20)), keep="kh", keep_count=1))),
    ("1d20+5[STR]", DiceSum((T(1, P(1, 20)), T(1, Labeled(5, "STR"))))),
    ("6d6>=5", _sum(P(6, 6, target=Compare(">=", 5)))),  # counts dice
    ("6d6 >= 5", _sum(Compared(">=", P(6, 6), 5))),  # compares the total
    ("3d6 > 10", _sum(Compared(">", P(3, 6), 10))),
    ("(2d6+1)>=8", _sum(Compared(">=", DiceSum((T(1, P(2, 6)), T(1, 1))), 8))),
    ("-d6", DiceSum((T(-1, P(1, 6)),))),
    ("2*-3", _sum(Binary("*", 2, DiceSum((T(-1, 3),))))),
]


@pytest.mark.parametrize(("text", "meaning"), MEANINGS)
def test_each_spelling_means_what_players_mean(text: str, meaning: DiceSum) -> None:
    assert parse_notation(text) == meaning
    assert parse_notation(str(meaning)) == meaning


REFUSALS = [  # a spelling another tool reads otherwise: where, and what to write
    ("3d6>10", 3, "write >=10 (Roll20's >10) or >=11"),
    ("4d6r<2", 4, "write <=2 (Roll20's <2) or <=1"),
    ("2d6!>5", 4, "write >=5"),
    ("{1d6,1d6}<3", 9, "write <=3"),
    ("10d10>=8f<2", 9, "write <=2"),
    ("4d6cs>=5", 3, "write >=N to count"),
    ("4d6cf1", 3, "write f<=N"),
    ("3d6>=10", 3, "put spaces around the comparison: 3d6 >= 10"),
    ("7%3", 1, "+ - * /"),
    ("2^3", 1, "+ - * /"),
    ("2d6**2", 3, "+ - * /"),
    ("1d6!!p", 5, "a pool takes"),
    ("4d6uo", 4, "a pool takes"),
    ("4d6 kh3", 4, "write the options right after the sides: 4d6kh3"),
    ("dF.3", 2, "dF.1"),
    ("4d6ro1r2", 6, "every reroll of the pool"),
    ("{2d6}kh1", 5, "e.g. 4d6kh3"),
    ("floor(1, 2)", 0, "floor(...) with 1 argument"),
    ("(1d6", 0, "write ')'"),
    ("1d6[x", 3, "write ']'"),
    ("3d6 >= 10 >= 2", 10, "at most once"),
    ("1.5d6", 0, "NdS"),
    ("7d6u", 3, "no more dice than the die has faces"),
    ("4d6f1", 3, "NdS"),
    ("(" * 51 + "1" + ")" * 51, 50, "nest fewer"),
    ("1+" + "-" * 60 + "d6", 52, "nest fewer"),
]


@pytest.mark.parametrize(("text", "offset", "hint"), REFUSALS)
def test_each_refusal_is_located_with_what_to_write(
    text: str, offset: int, hint: str
) -> None:
    with pytest.raises(DiceSyntaxError) as caught:
        parse_notation(text)
    assert caught.value.offset == offset, caught.value.message
    assert hint in (caught.value.hint or ""), caught.value.hint


ROLLS = [  # faces in the order the rng gives them, and what the roll comes to
    ("2d6r1", [1, 1, 3, 4], 7),  # reroll until: 1, 1, then 3
    ("2d6ro1", [1, 1, 4], 5),  # once: the second 1 stands
    ("2d10r1r3", [3, 1, 5, 7], 12),
    ("2d6!p", [6, 6, 2, 3], 15),  # 6, then 6-1, then 2-1; then 3
    ("3d6u", [2, 2, 2, 5, 1], 8),  # a face shown before is rolled again
    ("4d6min3", [1, 2, 5, 6], 17),
    ("4d6max4", [1, 2, 5, 6], 11),
    ("2d6!kh1", [6, 2, 4], 6),  # keeps among all three dice
    ("4d6d1", [3, 1, 4, 5], 12),
    ("5d10>=8f1", [8, 1, 10, 1, 3], 0),
    ("{1d20, 1d20}kh1 + 1", [7, 15], 16),
    ("{2d6, 2d6, 2d6}>=8", [6, 3, 1, 1, 4, 4], 2),
    ("(2d6+3)/2", [1, 1], Fraction(5, 2)),
    ("round(1d6/2)", [5], 3),  # half up
    ("round(-1d6/2)", [5], -2),  # half up: -2.5 is -2
    ("floor(1d6/4) + ceil(1d6/4)", [5, 5], 3),
    ("max(1d6, 1d8) - min(1d4, 2)", [3, 7, 1], 6),
    ("abs(1d4 - 1d6)", [1, 6], 5),
    ("3d6 >= 10", [4, 4, 1], 0),
    ("3d6 < 10", [4, 4, 1], 1),
    ("1d20+5[STR]", [11], 16),
    ("4dF.1", [1, 6, 2, 3], 0),
]


@pytest.mark.parametrize(("text", "faces", "total"), ROLLS)
def test_rolls_read_the_rng_in_the_order_written(
    text: str, faces: list[int], total: Fraction | int
) -> None:
    rolled = roll(parse_notation(text), Scripted(faces))
    assert rolled.total == total and type(rolled.total) is type(total)


def test_a_division_by_zero_is_refused() -> None:
    with pytest.raises(RuleInputError, match="division by zero"):
        roll(parse_notation("10/(1d2-1)"), Scripted([1]))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(notations(), st.integers(0, 2**32))
def test_rolls_are_reproducible_by_seed(text: str, seed: int) -> None:
    try:
        dice = parse_notation(text)
    except DiceSyntaxError:
        return
    try:
        first = roll(dice, random.Random(seed))
    except RuleInputError as error:  # (a division by zero that it rolled)
        assert "division by zero" in str(error)
        return
    assert roll(dice, random.Random(seed)) == first
    recorded: list[int] = []
    rng = random.Random(seed)

    class Recording:
        def randint(self, a: int, b: int) -> int:
            recorded.append(rng.randint(a, b))
            return recorded[-1]

    again = roll(dice, Recording())
    assert again == first and len(recorded) == len(first.rolled)
