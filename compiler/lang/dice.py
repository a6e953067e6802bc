"""Dice in formulas: the notation read where an expression stands, its checks, and its range.

A formula may roll dice in the notation of ``rulebook.dice_notation`` (one
pool: ``d20``, ``4d6dl1``, ``2d20kh1``, ``6d6>=5``, ``dF``, ``1d6!``), written
without spaces; its value is the pool's total (or, with a target such as
``>=5``, the count of dice that meet it). A comparison written *with* spaces
(``1d20 >= 15``) compares the total. The count and the sides may come from an
expression: ``(n)d6`` (brackets right before the ``d``, then the notation's
options: ``(n)d6>=5``, ``(n)d6kh1``) and ``d(sides)`` or ``(n)d(sides)`` (no
options after it). A count below 0 is a build error; a count of 0 rolls no die
(total 0); so are dice past the limits of every dice expression (``limits``)
at the most their count and sides can be. ``rolls(DICE)`` is the list of the dice the pool keeps, for ``max``,
``min``, ``sum``, ``len``, ``sorted`` and ``count(LIST, VALUE)`` (how many equal
it) or ``count(LIST, LOW, HIGH)`` (how many lie within). Each dice term rolls
each time the expression reaches it, left to right, with the caller's rng.

The range of a roll: from its lowest to its highest total; an explosion ``!``
or ``!!`` has no highest (the range has no upper end, and no lower one for
Fudge dice, whose extra dice may be negative); ``!o`` adds at most one die per die.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import lru_cache, reduce
from types import MappingProxyType

from ..common.limits import (
    MAX_DICE_SIDES,
    notation_problem,
    odds_problem,
)
from ..runtime import _dice_spec as dice_spec
from ..runtime.dice import DiceSyntaxError
from ..runtime.dice_notation import parse_notation
from ..runtime.dice_odds import DEPTH
from ..runtime.dice_terms import (
    DiceSum,
    Pool,
    Term,
)
from ..runtime.errors import RuleInputError
from .nodes import (
    Call,
    Checked,
    Dice,
    DieFaces,
    Interval,
    IntLit,
    Name,
    Node,
    StrLit,
    describe,
    iv_hull,
)

__all__ = [
    "AFTER_SIDES",
    "DICE_FUNCTIONS",
    "OPTIONS",
    "TOKEN",
    "check_dice",
    "check_dice_call",
    "dice_interval",
    "notation_error",
    "options_error",
    "pool_of",
    "results_interval",
    "rolled_pool",
]

_TOKEN_MARKS = "".join(
    sorted(
        {
            ch
            for option in dice_spec.OPTIONS
            for form in option.forms
            if form.in_formulas
            for ch in form.token
            if not ch.isalnum()
        }
    )
)
OPTIONS = rf"(?:[A-Za-z0-9{re.escape(_TOKEN_MARKS)}]|[<>]=?[0-9]+|=[0-9]+)"
"""One character (or comparison) of a pool's options, after its sides (the
marks of the dice spec's tokens written in formulas: ``*`` multiplies there)."""
TOKEN = rf"(?P<dice>[0-9]*d(?:[0-9]+|%|F(?:\.[0-9]+)?){OPTIONS}*(?!\w))"
"""A dice token of the expression tokenizer (before numbers and names)."""
AFTER_SIDES = rf"{OPTIONS}+"
"""The options right after the ``)`` of ``d(sides)`` (no space between)."""
DICE_FUNCTIONS = {"rolls": (1, 1), "sorted": (1, 1), "count": (2, 3), "tally": (2, 2)}
"""The functions of a pool's results, and their arity."""
_NO_DIES: Mapping[str, DieFaces] = MappingProxyType({})
_PLACEHOLDER = 100  # a count that lets any keep option read, for `(n)d6dl1`
_MOST_SIDES = MAX_DICE_SIDES  # d(sides)'s sides, as its options are read


class NotationError(Exception):
    """Bad notation at ``offset`` in the token (the core's message and hint)."""

    def __init__(self, message: str, offset: int, hint: str | None) -> None:
        super().__init__(message)
        self.message, self.offset, self.hint = message, offset, hint


def notation_error(written: str, dynamic_count: bool) -> NotationError | None:
    """Why ``written`` is not one pool in notation, or None."""
    try:
        _parse(written, dynamic_count)
    except DiceSyntaxError as error:
        return NotationError(error.message, error.offset, error.hint)
    return None


def options_error(
    options: str, dynamic_count: bool, shown: str = "d(sides)"
) -> NotationError | None:
    """Why ``options`` are not what notation writes after a pool's sides, as
    written after ``d(sides)`` (``shown``: how the dice are written there),
    or None; the offset is in ``options``."""
    prefix = f"d{_MOST_SIDES}"
    try:
        _parse(prefix + options, dynamic_count)
    except DiceSyntaxError as error:
        rest = error.message.split(": ", 1)[-1]
        message = f"bad dice options '{options}' after {shown}: {rest}"
        hint = error.hint
        for placeholder in (f"'{_PLACEHOLDER}{prefix}", f"'{prefix}"):
            hint = None if hint is None else hint.replace(placeholder, f"'{shown}")
        return NotationError(message, max(error.offset - len(prefix), 0), hint)
    return None


@lru_cache(maxsize=256)
def _parse(written: str, dynamic_count: bool) -> Pool:
    try:
        dice = parse_notation(written)
    except DiceSyntaxError as error:
        if not dynamic_count:
            raise
        try:  # `(n)d6dl1`: keep options need dice enough
            dice = parse_notation(f"{_PLACEHOLDER}{written}")
        except DiceSyntaxError:
            raise error from None
    (term,) = dice.terms
    assert isinstance(term.value, Pool)
    return term.value


def pool_of(node: Dice) -> Pool:
    """The pool a dice node rolls (a count or sides from an expression are
    placeholders here: ``d(sides)``'s are the most sides a build allows, its
    options as written; a die of the rules' own has its faces)."""
    if node.sides is None:
        return _parse(node.written, node.count is not None)
    pool = Pool(1, _MOST_SIDES)
    if node.written:
        pool = _parse(f"d{_MOST_SIDES}{node.written}", node.count is not None)
    if pool.explode is not None and pool.explode_at is None:
        # `!=1000` is the highest face here, not of every die: kept as written
        other = _parse(f"d{_MOST_SIDES - 1}{node.written}", node.count is not None)
        pool = pool.replace(explode_at=other.explode_at)
    if node.die is not None:
        pool = pool.replace(sides=len(node.die.faces), listed=node.die.faces)
    return pool


def rolled_pool(node: Dice, count: int | None, sides: int | None) -> Pool | None:
    """The pool ``node`` rolls where its count and sides (those given by an
    expression) are these; None where it rolls no die (a count of 0)."""
    if count == 0:
        return None
    pool = pool_of(node)
    if node.sides is not None and node.die is None:
        assert sides is not None
        pool = pool.replace(sides=sides)
    return pool if count is None else pool.replace(count=count)


def _pools(
    node: Dice, count: Interval | None, sides: Interval | None
) -> list[tuple[Pool, int]]:
    """The pools at the corners of the ranges of the count and the sides
    (bounded), each with the count it rolls (0: none): every bound of a
    total, a die and a count of dice is at one of them (the fewer sides, the
    fewer faces a die may show, and the more dice, the more they add)."""
    pool = pool_of(node)
    counts = [pool.count] if count is None else [count.lo, count.hi]
    found: list[tuple[Pool, int]] = []
    for n in dict.fromkeys(c for c in counts if c is not None):
        if sides is None:
            found.append((pool, n))
            continue
        for s in dict.fromkeys((sides.lo, sides.hi)):
            assert s is not None
            found.append((pool.replace(sides=s), n))
    return found


def dice_interval(
    node: Dice, count: Interval | None, sides: Interval | None
) -> Interval:
    """The range of the total for counts in ``count`` (bounded, at least 0;
    None: the count written) and sides in ``sides`` (bounded, at least 1)."""
    return reduce(iv_hull, (_total(pool, n) for pool, n in _pools(node, count, sides)))


def results_interval(
    node: Dice, count: Interval | None, sides: Interval | None
) -> tuple[Interval, Interval]:
    """The range of each die ``rolls(...)`` lists, and of how many it lists."""
    dice, lengths = zip(
        *(_results(pool, n) for pool, n in _pools(node, count, sides)), strict=True
    )
    return reduce(iv_hull, dice), reduce(iv_hull, lengths)


def _results(pool: Pool, count: int) -> tuple[Interval, Interval]:
    """The range of each die of ``count`` dice of ``pool`` (of dice of
    symbols: how many symbols a face shows), and of how many of them it keeps."""
    if not pool.numeric:
        shown = max(len(face) for face in pool.listed or ())  # type: ignore[arg-type]
        return Interval(0, shown), Interval(count, count)
    low, high = _die(pool, counted=False)
    return Interval(low, high), Interval(_kept(pool, count), _most_kept(pool, count))


def _kept(pool: Pool, count: int) -> int:
    """How many dice ``pool`` keeps of ``count`` rolled (as the runtime keeps them)."""
    return pool.replace(count=count).kept if count else 0


def _most_kept(pool: Pool, count: int) -> int | None:
    """The most dice ``pool`` keeps of ``count`` rolled and those its
    explosions add (None: no most): ``!``, ``!p`` add dice without end,
    ``!o`` one a die; ``kh``/``kl`` keep no more than they say."""
    rolled: int | None = count
    if pool.explode in ("!", "!p"):
        rolled = None
    elif pool.explode == "!o":
        rolled = 2 * count
    if pool.keep in ("kh", "kl"):
        return pool.keep_count if rolled is None else min(pool.keep_count, rolled)
    return None if rolled is None else max(rolled - pool.keep_count, 0)


def _die(pool: Pool, counted: bool) -> tuple[int | None, int | None]:
    """The range of one kept die's value (None: no bound): its face (``!p``'s
    added dice count a face less 1: a total keeps the dice first rolled, at
    least their lowest face, and adds those, at least 0 where no face is
    below 1), or where ``counted`` and the pool has a
    target, 1 where it meets it (-1 where it meets the failure); ``!!``
    compounds without a highest (nor a lowest where a face is below 0)."""
    faces = pool.final_faces()
    high, low = max(faces), min(faces)
    if pool.explode == "!p" and (pool.keep is not None or low < 1):
        low -= 1  # an added die counts its face less 1 (it may be kept alone)
    if counted and pool.target is not None:
        low, high = (-1 if pool.failure is not None else 0), 1
    if pool.explode == "!!":
        return (None if low < 0 else low), None
    return low, high


def _total(pool: Pool, count: int) -> Interval:
    if count == 0:
        return Interval(0, 0)
    low, high = _die(pool, counted=True)
    fewest, most = _kept(pool, count), _most_kept(pool, count)
    lo = _times(fewest if low is not None and low >= 0 else most, low)
    hi = _times(most if high is None or high >= 0 else fewest, high)
    m = pool.multiplier
    return Interval(None if lo is None else lo * m, None if hi is None else hi * m)


def _times(dice: int | None, value: int | None) -> int | None:
    """``dice`` times ``value``; None where either is unbounded (no die, 0)."""
    if dice == 0 or value == 0:
        return 0
    return None if dice is None or value is None else dice * value


# --- type checking ---

Fail = Callable[[str, int, int, str | None], Exception]
"""Makes the checker's located error (``expr.ExprError``)."""


def check_dice(
    node: Dice,
    visit: Callable[[Node], Checked],
    fail: Fail,
    dies: Mapping[str, DieFaces] = _NO_DIES,
) -> Checked:
    """Dice rolled: an int from the lowest to the highest total, or ``rolls``'
    list; sides that name a die of ``dies`` are that die's faces."""
    if isinstance(node.sides, Name) and node.sides.name in dies:
        return _check_die(node, dies[node.sides.name], visit, fail)
    ivs: dict[str, Interval] = {}
    parts: dict[str, Node] = {}
    for what, part, least in (("count", node.count, 0), ("sides", node.sides, 1)):
        if part is None:
            continue
        item = visit(part)
        iv = item.interval if item.type == "int" and not item.nullable else None
        if iv is None:
            message = f"a dice {what} needs an int, got {describe(item)}"
            raise fail(message, part.start, part.end, None)
        if iv.lo is None or iv.lo < least or iv.hi is None:
            message = f"the dice {what} may be {iv}"
            hint = f"keep it within {least} and a highest, e.g. clamp(x, {least}, 20)"
            raise fail(message, part.start, part.end, hint)
        ivs[what], parts[what] = iv, item.node
    count, sides = ivs.get("count"), ivs.get("sides")
    rebuilt = replace(node, count=parts.get("count"), sides=parts.get("sides"))
    if sides is not None and sides.lo is not None:
        problem = _fewest_sides(rebuilt, sides.lo)
        if problem is not None:
            assert node.sides is not None
            raise fail(problem, node.sides.start, node.sides.end, _SIDES_HINT)
    problem = _past_limits(rebuilt, _most(rebuilt, count, sides))
    if problem is not None:
        raise fail(problem, node.start, node.end, _BOUND_HINT)
    if node.count is None and node.sides is None and not node.results:
        problem = odds_problem(DiceSum((Term(1, pool_of(node)),)))
        if problem is not None:  # its odds function would refuse every call
            message = f"{node.written}: {problem}"
            hint = "roll fewer dice, keep fewer of them, or follow explosions less deep"
            raise fail(message, node.start, node.end, hint)
    if not node.results:
        return Checked(rebuilt, "int", dice_interval(rebuilt, count, sides))
    die, length = results_interval(rebuilt, count, sides)
    return Checked(rebuilt, "list", die, item="int", length=length)


def _check_die(
    node: Dice, die: DieFaces, visit: Callable[[Node], Checked], fail: Fail
) -> Checked:
    """``d(good_die)``, ``(n)d(good_die)``: dice of a die of the rules' own,
    its k-th face what a die of as many sides rolling k gives. A die of
    numbers is read as any die is, its options on its faces; a die of
    symbols takes no option and has no total: ``rolls(...)`` lists its faces,
    and ``tally`` counts a symbol over them."""
    assert node.sides is not None
    sides = IntLit(len(die.faces), node.sides.start, node.sides.end)
    resolved = replace(node, sides=sides, die=die)
    shown = f"d({die.name}){node.written}"
    try:
        pool = pool_of(resolved)
    except RuleInputError as error:
        reason = str(error).partition(": ")[2] or str(error)
        raise fail(f"{shown}: {reason}", node.start, node.end, _DIE_HINT) from None
    if not pool.numeric and not node.results:
        message = f"{shown}: a die of symbols has no total"
        hint = f'list its faces, rolls((n){shown}), and count a symbol with tally(..., "{die.symbols[0]}")'
        raise fail(message, node.start, node.end, hint)
    checked = check_dice(resolved, visit, fail)
    if pool.numeric:
        return checked
    return replace(checked, item="symbols", choices=die.symbols)


_DIE_HINT = (
    "a die of symbols takes no option; a die of numbers takes what any die "
    "takes, read on its faces"
)
_BOUND_HINT = (
    "roll fewer dice of fewer sides: bound the count and sides over the "
    "parameters' ranges, e.g. (clamp(n, 0, 20))d6"
)


_SIDES_HINT = (
    "bound the sides over the parameters' ranges so that every die can stop, "
    "e.g. clamp(sides, 2, 20)"
)


def _fewest_sides(node: Dice, fewest: int) -> str | None:
    """Why a die of ``node``'s options with ``fewest`` sides cannot be rolled
    (every face rerolled or exploding), or None: where no die of the fewest
    sides its range allows is refused, none of more sides is (a die of more
    sides shows every face of fewer, and more)."""
    try:
        pool_of(node).replace(sides=fewest)
    except RuleInputError as error:
        reason = str(error).partition(": ")[2] or str(error)
        return f"the dice sides may be {fewest}, and then {reason}"
    return None


def _most(node: Dice, count: Interval | None, sides: Interval | None) -> Pool | None:
    """The pool of the most dice of the most sides ``node`` rolls over the
    ranges of its count and sides (bounded), or None where it rolls none."""
    if sides is not None:
        assert sides.hi is not None
        most = 1 if count is None else count.hi
        return pool_of(node).replace(count=most, sides=sides.hi) if most else None
    pool = pool_of(node)
    if count is None:
        return pool
    return pool.replace(count=count.hi) if count.hi else None


def _past_limits(node: Dice, most: Pool | None) -> str | None:
    """Why rulesc cannot roll ``most``, the most dice ``node`` rolls, and work
    out their exact odds (the limits of every dice expression of the rules),
    or None."""
    if most is None:
        return None
    # (a multiplier spreads the totals apart, but makes no more of them)
    dice = DiceSum((Term(1, most.replace(multiplier=1)),))
    problem = notation_problem(dice, stats=True, depth=DEPTH, odds=False)
    if problem is None:
        return None
    rolled = (
        f"{most} is"
        if node.count is None and node.sides is None
        else f"these dice may be {most},"
    )
    return f"{rolled} more dice than rulesc works out exactly: {problem}"


def check_dice_call(
    node: Call, visit: Callable[[Node], Checked], fail: Fail
) -> Checked:
    """``sorted(list)``, ``count(list, value)``, ``count(list, low, high)``,
    ``tally(faces, "symbol")``."""
    if node.func == "rolls":
        message = "rolls() takes dice in notation, e.g. rolls(4d6) or rolls((n)d6)"
        raise fail(message, node.start, node.end, None)
    if node.func == "tally":
        return _check_tally(node, visit, fail)
    args = [visit(arg) for arg in node.args]
    first = args[0]
    if first.type != "list" or first.item not in ("int", None):  # None: []
        message = f"{node.func}() needs a list of int, got {describe(first)}"
        raise fail(message, first.node.start, first.node.end, "e.g. rolls(4d6)")
    if node.func == "count" and first.item is None:
        message = "count() of an empty list is always 0"
        hint = "give the list its elements, or write 0"
        raise fail(message, first.node.start, first.node.end, hint)
    for arg in args[1:]:
        if arg.type != "int" or arg.nullable:
            message = f"count() compares int values, got {describe(arg)}"
            raise fail(message, arg.node.start, arg.node.end, None)
    rebuilt = replace(node, args=tuple(arg.node for arg in args))
    if node.func == "sorted":
        return replace(first, node=rebuilt)
    length = first.length or Interval(0, None)
    return Checked(rebuilt, "int", Interval(0, length.hi))


def _check_tally(node: Call, visit: Callable[[Node], Checked], fail: Fail) -> Checked:
    """``tally(faces, "hit")``: how many times the symbol shows on the faces
    of dice of symbols (one the dice show, checked here)."""
    faces, symbol = node.args
    items = visit(faces)
    if items.type != "list" or items.item != "symbols":
        message = f"tally() counts a symbol on the faces of dice of symbols, got {describe(items)}"
        hint = (
            'e.g. tally(rolls((n)d(good_die)), "hit"), good_die a die rule of symbols'
        )
        raise fail(message, faces.start, faces.end, hint)
    if not isinstance(symbol, StrLit):
        message = "tally() names the symbol it counts as text"
        example = f'e.g. tally(..., "{items.choices[0]}")' if items.choices else None
        raise fail(message, symbol.start, symbol.end, example)
    if symbol.value not in items.choices:
        message = f"'{symbol.value}' is not a symbol of these dice"
        hint = "their symbols: " + ", ".join(items.choices)
        raise fail(message, symbol.start, symbol.end, hint)
    length, each = items.length or Interval(0, None), items.interval
    most = (
        None
        if length.hi is None or each is None or each.hi is None
        else length.hi * each.hi
    )
    plain = replace(symbol, enum=None, param=None)
    rebuilt = replace(node, args=(items.node, plain))
    return Checked(rebuilt, "int", Interval(0, most))
