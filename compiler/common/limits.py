"""Limits: bounds on the work rulesc does, so every input it accepts is answered quickly.

These are limits of the tool, not figures of any rules: every dice expression
of the rules has its exact distribution worked out at build time for the docs.
"""

from __future__ import annotations

from ..runtime._support import MAX_EXACT as _MAX_EXACT
from ..runtime._support import MAX_WORK
from ..runtime.dice import Dice
from ..runtime.dice_odds import (
    DEPTH,
    odds_work,
)
from ..runtime.dice_terms import (
    DiceSum,
    Pool,
)
from ..runtime.errors import RuleInputError

# The largest whole number every runtime holds exactly (JavaScript's
# Number.MAX_SAFE_INTEGER): a figure a rule's own steps reach must stay within
# it (expr_exact proves it), and both runtimes refuse an argument past it.
MAX_EXACT = _MAX_EXACT
# The largest figure a rule's steps write (a number of 15 digits, as the
# expression language reads them): a kind's figure worked out from the rules'
# (a time in clock ticks) is refused past it.
MAX_FIGURE = 10**15 - 1

MAX_DICE_COUNT = 100
MAX_DICE_SIDES = 1000
MAX_DICE_SUMS = 10_000  # the sums the dice can come to: count x (sides - 1) + 1
# rulesc roll without --stats rolls (and prints) each die.
MAX_ROLLED_DICE = 1000
MAX_ROLLED_SIDES = 10**9


def dice_problem(dice: Dice) -> str | None:
    """Why rulesc cannot work out the exact distribution of ``dice``, or None."""
    sums = dice.count * (dice.sides - 1) + 1 if dice.count else 1
    if (
        dice.count > MAX_DICE_COUNT
        or dice.sides > MAX_DICE_SIDES
        or sums > MAX_DICE_SUMS
    ):
        return (
            f"at most {MAX_DICE_COUNT} dice of at most {MAX_DICE_SIDES} sides, "
            f"and at most {MAX_DICE_SUMS} possible sums ({dice} has {sums})"
        )
    return None


def roll_problem(dice: Dice) -> str | None:
    """Why rulesc roll will not roll ``dice`` (one line per die), or None."""
    if dice.count > MAX_ROLLED_DICE or dice.sides > MAX_ROLLED_SIDES:
        return f"at most {MAX_ROLLED_DICE} dice of at most {MAX_ROLLED_SIDES} sides"
    return None


# -- work a rules file asks of the build, checked before it is done -----------------

MAX_FILE_DICE_WORK = 4_000_000
"""The dice x sums of the exact distributions one rules file's dice expressions
need, each distinct expression counted once (four of the largest one allowed):
every one is charted with its exact chances in the docs."""

MAX_ROLLED_RESULTS = MAX_DICE_SUMS
"""The results a table's roll can come to (highest - lowest + 1): the lookup
the build writes holds one entry per result."""

MAX_CALL_CHAIN = 50
"""The rules in one chain of rules calling rules (a calling b calling c...)."""

MAX_POOL_WORK = 50_000_000_000
"""The cost (see ``pool_work``) of the exact distribution of a success pool's
largest pool (``max_dice``): about a second."""

MAX_POOL_CHARTS = 4 * MAX_POOL_WORK
"""The cost of the exact distributions a rules file's success-pool charts need
at build time (every pool from none to the chart's most): a few seconds."""

MAX_CHART_COLUMNS = 50
"""The columns of a chart the build works out for the docs."""

MAX_CHART_ROWS = 100
"""The rows of a table of a rule's odds the build works out for its page."""


MAX_PROOF_WORK = 2_000_000
"""The work a system's proofs that its repeating decisions' turns end may
take, all of its rules together: each expression the search works out counts
its nodes, each dice term the steps of its odds (a few seconds)."""

MAX_PAGE_ODDS_WORK = 4 * MAX_WORK
"""The steps of odds work (``rulebook._support.MAX_WORK``'s steps) a system's
pages may take: every odds table of a rule that takes no argument, and every
chart of a rule's odds, together (a few seconds)."""


class Allowance:
    """Work one system's build may spend on one thing, spent as it goes."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.spent = 0

    def take(self, work: int) -> bool:
        """Spend ``work``: False (and nothing spent) once it would pass ``most``."""
        if self.spent + work > self.most:
            return False
        self.spent += work
        return True


def dice_work(dice: Dice) -> int:
    """What an exact distribution of ``dice`` costs: dice x possible sums."""
    return dice.count * (dice.count * (dice.sides - 1) + 1) if dice.count else 0


def pool_work(sides: int, listed_beyond: int, dice: int) -> int:
    """The cost of a success pool's exact distribution of ``dice`` dice: ``dice``
    convolutions of about (dice + listed_beyond)² products of whole numbers of
    about dice x (dice + listed_beyond) x log2(sides) bits
    (log2(sides) counted twice: the larger the numbers, the slower each product)."""
    dice = max(dice, 1)
    limit = dice + listed_beyond
    return dice * dice * limit**3 * sides.bit_length() ** 2


def most_pool_dice(sides: int, listed_beyond: int) -> int:
    """The largest pool whose exact distribution is within ``MAX_POOL_WORK``."""
    low, high = 1, 1
    while pool_work(sides, listed_beyond, high * 2) <= MAX_POOL_WORK:
        high *= 2
    high *= 2
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (
            (mid, high)
            if pool_work(sides, listed_beyond, mid) <= MAX_POOL_WORK
            else (low, mid)
        )
    return low


class Budget:
    """The work each rules file asks of the build, added up as its rules are
    read (before any of it is done), each distinct piece counted once."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.spent: dict[str, int] = {}
        self.counted: set[tuple[str, str]] = set()
        self.refused: set[str] = set()  # the files already told

    def spend(self, file: str, piece: str, work: int) -> int | None:
        """Count ``work`` for ``piece`` in ``file``: None when it fits, else the
        total it would bring the file to (the piece is then not counted)."""
        if (file, piece) in self.counted:
            return None
        total = self.spent.get(file, 0) + work
        if total > self.most:
            return total
        self.counted.add((file, piece))
        self.spent[file] = total
        return None

    def first_refusal(self, file: str) -> bool:
        """True the first time ``file`` goes over (one error per file)."""
        first = file not in self.refused
        self.refused.add(file)
        return first


def odds_problem(dice: DiceSum, depth: int = DEPTH) -> str | None:
    """Why the runtime refuses the exact odds of ``dice`` (explosions followed
    ``depth`` dice deep), from what they would take, worked out before any of
    the work (``rulebook.dice_odds.odds_work``); or None."""
    work = odds_work(dice, depth)
    if work > MAX_WORK:
        return (
            f"its exact odds take {work:,} steps to work out, and the runtime "
            f"takes at most {MAX_WORK:,} (a limit of the runtime, not of the rules)"
        )
    return None


def notation_problem(
    dice: DiceSum, *, stats: bool, depth: int, odds: bool = True
) -> str | None:
    """Why rulesc roll will not work out the odds of ``dice`` (explosions
    followed ``depth`` dice deep; without ``stats`` it rolls anything: the
    runtime refuses past its own count of die rolls), or None: with ``odds``,
    only the runtime's work of its odds; without (the dice of a rules file,
    charted by the build), the limits above over all its pools together."""
    if not stats:
        return None
    if odds:
        try:
            return odds_problem(dice, depth)
        except RuleInputError as error:  # odds the runtime does not work out
            return str(error)
    pools = dice.pools
    count = sum(p.count for p in pools)
    sides = max((p.sides for p in pools), default=0)
    limit = (
        f"at most {MAX_DICE_COUNT} dice of at most {MAX_DICE_SIDES} sides, "
        f"and at most {MAX_DICE_SUMS} possible sums"
    )
    if count > MAX_DICE_COUNT or sides > MAX_DICE_SIDES:  # (faces not listed)
        dice_word = "die" if count == 1 else "dice"
        return f"{limit} ({dice} is {count} {dice_word} of up to {sides} sides)"
    sums = 1 + sum(_span(p, depth) for p in pools)
    if sums > MAX_DICE_SUMS:
        return f"{limit} ({dice} has up to {sums})"
    return None


def _span(pool: Pool, depth: int) -> int:
    """How far apart the smallest and largest values of ``pool`` can be."""
    dice = pool.count if pool.keep is None else pool.kept
    if pool.explode in ("!", "!!"):
        chain = depth + 1
    else:
        chain = 2 if pool.explode == "!o" else 1
    if pool.target is not None:
        return dice * chain * pool.multiplier
    if not pool.numeric:  # a die of symbols: how many of one its faces show
        return dice * max(len(face) for face in pool.listed or ())  # type: ignore[arg-type]
    faces = pool.faces
    return dice * (chain * max(faces) - min(faces)) * pool.multiplier
