"""What a notation of tests/dice_corpus.tsv means, as icepool works it out: a small table of functions.

A meaning is written as a parenthesised prefix expression, ``(kh 4 3 (d 6))``;
``read`` turns its text into nested tuples and ``meaning`` calls the table's
function of each name on its arguments (never ``eval``). Numbers are whole
(``7``) or fractions (``3/2``); a condition is ``(>= 5)``, ``(<= 2)``,
``(= 1)`` or ``(any C C ...)``. Explosions are followed ``DEPTH`` dice deep per
die, each die given that it was not cut there: the chances given no die was
cut, which is what the runtime's chances are once divided by ``1 - tail``
(icepool's ``end=Reroll`` is not that: it rerolls only the last die).
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import cache
from typing import Any

import icepool  # type: ignore[import-untyped]
from icepool import Again, Die

from rulesc.runtime.dice_odds import DEPTH

Number = int | Fraction
Cond = Callable[[Number], bool]
Tree = Any  # a number, a word or a tuple of trees
_CUT = 10**12  # what a chain still exploding at the depth is worth: far past any value
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
    "=": operator.eq,
}


def read(text: str) -> Tree:
    """The tree of a meaning's text."""
    words = text.replace("(", " ( ").replace(")", " ) ").split()
    tree, rest = _read(words)
    assert not rest, f"{text!r}: {rest} after the end"
    return tree


def _read(words: list[str]) -> tuple[Tree, list[str]]:
    head, rest = words[0], words[1:]
    if head != "(":
        return _atom(head), rest
    items = []
    while rest[0] != ")":
        item, rest = _read(rest)
        items.append(item)
    return tuple(items), rest[1:]


def _atom(word: str) -> Tree:
    if word.lstrip("-").isdigit():
        return int(word)
    if "/" in word and word.replace("/", "").lstrip("-").isdigit():
        return _whole(Fraction(word))
    return word


def _whole(value: Number) -> Number:
    """A Fraction that is whole as an int (the runtime's numbers)."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def _die(value: Die | Number) -> Die:
    return value if isinstance(value, Die) else Die([value])


def _sum(die: Die, count: int) -> Die:
    """``count`` dice added up, by doubling (icepool's own recursion is too deep for 1000)."""
    total, power = Die([0]), die
    while count:
        if count & 1:
            total = total + power
        count >>= 1
        if count:
            power = power + power
    return total


def _map(function: Callable[..., Number], *dice: Die | Number) -> Die:
    return icepool.map(lambda *faces: _whole(function(*faces)), *map(_die, dice))


def _divide(left: Number, right: Number) -> Number:
    return Fraction(left) / Fraction(right)


def _round(value: Number) -> int:
    return (Fraction(value) + Fraction(1, 2)).__floor__()


def _explode(die: Die, cond: Cond, again: Callable[[Number], Any], depth: int) -> Die:
    """Each face ``f`` that meets ``cond`` becomes ``again(f)`` (icepool's Again:
    the die once more), ``depth`` dice deep; a chain still exploding there is
    cut and left out (the die given that it was not cut)."""
    chain = die.map(
        lambda f: again(f) if cond(f) else f, again_depth=depth, again_end=_CUT
    )
    return chain.reroll(lambda v: v >= _CUT // 2, depth="inf")


def _explode_counting(die: Die, explodes: Cond, counts: Cond) -> Die:
    """How many of an exploding die's chain of faces meet ``counts`` (each
    face that meets ``explodes`` adds a die), given no cut at the depth."""
    chain = die.map(
        lambda f: int(counts(f)) + Again if explodes(f) else int(counts(f)),
        again_depth=DEPTH,
        again_end=_CUT,
    )
    return chain.reroll(lambda v: v >= _CUT // 2, depth="inf")


def _chains(die: Die, cond: Cond) -> tuple[Die, Die, Die]:
    """An exploding die's chain as (bursts, stops) counts (some faces that
    explode, then one that does not; none cut past DEPTH), and the two halves
    of the die."""
    bursts, stops = die.split(lambda f: cond(f))
    lengths = {
        icepool.Vector((n, 1)): bursts.denominator() ** n
        * stops.denominator()
        * die.denominator() ** (DEPTH - n)
        for n in range(DEPTH + 1)
    }
    return Die(lengths), bursts, stops


def _explode_keep(count: int, keep: int, die: Die, cond: Cond, high: bool) -> Die:
    chain, bursts, stops = _chains(die, cond)
    every = _sum(chain, count)

    def kept(shape: Any) -> Die:
        burst, stop = shape
        pool = icepool.Pool([bursts] * burst + [stops] * stop)
        return (pool.highest(keep) if high else pool.lowest(keep)).sum()

    return every.map(kept)


def _unique(count: int, sides: int) -> Iterable[tuple[int, ...]]:
    return itertools.combinations(range(1, sides + 1), count)


def _group(keep: int, items: tuple[Die | Number, ...], high: bool) -> Die:
    pool = icepool.Pool([_die(item) for item in items])
    return (pool.highest(keep) if high else pool.lowest(keep)).sum()


def _condition(op: str, *args: Any) -> Cond:
    if op == "any":
        return lambda f: any(c(f) for c in args)
    test, value = _COMPARE[op], args[0]
    return lambda f: test(f, value)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "d": lambda sides: Die(range(1, sides + 1)),
    "fudge": lambda: Die([-1, 0, 1]),
    "fudge1": lambda: Die([-1, 0, 0, 0, 0, 1]),
    "n": lambda count, die: _sum(die, count),
    "kh": lambda count, keep, die: die.pool(count).highest(keep).sum(),
    "kl": lambda count, keep, die: die.pool(count).lowest(keep).sum(),
    "count": lambda count, die, c: _sum(die.map(lambda f: int(c(f))), count),
    "countf": lambda count, die, t, f: _sum(
        die.map(lambda x: int(t(x)) - int(f(x))), count
    ),
    "countkh": lambda count, keep, die, c: (
        die.pool(count).highest(keep).expand().map(lambda faces: sum(map(c, faces)))
    ),
    "rr": lambda die, c: die.reroll(lambda f: c(f), depth="inf"),
    "ro": lambda die, c: die.reroll(lambda f: c(f), depth=1),
    "x": lambda die, c: _explode(die, c, lambda f: f + Again, DEPTH),
    "xo": lambda die, c: die.explode(lambda f: c(f), depth=1),  # no cut: end=0
    "xp": lambda die, c: _explode(die, c, lambda f: f + Again - 1, DEPTH),
    "xc": lambda count, die, xc, c: _sum(_explode_counting(die, xc, c), count),
    "xkh": lambda count, keep, die, c: _explode_keep(count, keep, die, c, True),
    "xkl": lambda count, keep, die, c: _explode_keep(count, keep, die, c, False),
    "atleast": lambda die, low: die.map(lambda f: max(f, low)),
    "atmost": lambda die, high: die.map(lambda f: min(f, high)),
    "usum": lambda count, sides: Die([sum(s) for s in _unique(count, sides)]),
    "ukh": lambda count, keep, sides: Die(
        [sum(s[-keep:]) for s in _unique(count, sides)]
    ),
    "ucount": lambda count, sides, c: Die(
        [sum(map(c, s)) for s in _unique(count, sides)]
    ),
    "+": lambda *terms: _map(lambda *v: sum(v), *terms),
    "-": lambda a, b: _map(operator.sub, a, b),
    "neg": lambda a: _map(operator.neg, a),
    "*": lambda a, b: _map(operator.mul, a, b),
    "/": lambda a, b: _map(_divide, a, b),
    "floor": lambda a: _map(lambda v: Fraction(v).__floor__(), a),
    "ceil": lambda a: _map(lambda v: Fraction(v).__ceil__(), a),
    "round": lambda a: _map(_round, a),
    "abs": lambda a: _map(abs, a),
    "max": lambda *a: _map(max, *a),
    "min": lambda *a: _map(min, *a),
    "test": lambda op, a, b: _map(lambda x, y: int(_COMPARE[op](x, y)), a, b),
    "gkh": lambda keep, *items: _group(keep, items, True),
    "gkl": lambda keep, *items: _group(keep, items, False),
    "gcount": lambda c, *items: _map(lambda *v: sum(map(c, v)), *items),
    "gcountf": lambda t, f, *items: _map(
        lambda *v: sum(int(t(x)) - int(f(x)) for x in v), *items
    ),
}


def build(tree: Tree) -> Any:
    """The icepool die (or number, word, condition) a tree stands for."""
    if not isinstance(tree, tuple):
        return tree
    head, *args = tree
    if head in _COMPARE or head == "any":
        return _condition(head, *(build(a) for a in args))
    return FUNCTIONS[head](*(build(a) for a in args))


_POOLS = {"n", "kh", "kl", "count", "countf", "countkh", "xc", "xkh", "xkl"}
_EXPLODES = {"x", "xp", "xc", "xkh", "xkl"}


def uncut(tree: Tree) -> Fraction:
    """The chance that no exploding die of the meaning was cut at the depth
    (the runtime's ``1 - tail``): a die is cut when it and DEPTH more dice all
    explode, and the dice are independent."""
    if not isinstance(tree, tuple) or tree[0] in _COMPARE or tree[0] == "any":
        return Fraction(1)
    head, *args = tree
    found = Fraction(1)
    for arg in args:
        found *= uncut(arg)
    if head in _EXPLODES:  # (..., die, condition) or (..., die, explodes, counts)
        die, cond = (args[-3], args[-2]) if head == "xc" else (args[-2], args[-1])
        face, test = _die(build(die)), build(cond)
        meets = Fraction(sum(q for f, q in face.items() if test(f)), face.denominator())
        found *= 1 - meets ** (DEPTH + 1)
    return found ** args[0] if head in _POOLS else found


@cache
def chances(text: str) -> dict[Number, Fraction]:
    """The exact chance of each value the meaning ``text`` can take (none of 0)."""
    die = _die(build(read(text)))
    denominator = die.denominator()
    return {
        _whole(value): Fraction(weight, denominator)
        for value, weight in die.items()
        if weight
    }
