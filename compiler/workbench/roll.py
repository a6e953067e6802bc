"""``rulesc roll EXPR [--seed N] [--stats]``: roll dice as the rules write them.

EXPR is the rules' notation (``3d6``, ``2d10+10``, ``2d6x10``, GURPS ``3d-1``),
any other dice notation the runtime reads, spaces kept (``d20``, ``4d6kh3``,
``(2d6+3)*2``, ``3d6 >= 10``: ``compiler.workbench.notation``), or a dice
rule, ``SYSTEM.RULE``. A pool written with ``x`` prints a note that ``x``
multiplies (Foundry reads it as explode). ``--stats`` prints the range, the exact mean and
the exact distribution as a text chart.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from fractions import Fraction
from typing import Any
from unicodedata import east_asian_width

from ..common.diagnostics import MAX_QUOTED
from ..common.limits import (
    dice_problem,
    roll_problem,
)
from ..common.visible import visible
from ..lang.nodes import DieFaces
from ..runtime._dice_weights import face_weights
from ..runtime.dice import Dice, DiceSyntaxError, parse_dice
from ..runtime.dice_notation import parse_notation
from ..runtime.dice_rolls import roll
from ..runtime.dice_terms import DiceSum, Pool, Term
from .dice_replay import shown_face
from .dicestats import stats_lines
from .notation import run_notation
from .roll_words import sentence
from .text import percent
from .usage import UsageError


class _Recorder:
    """An RNG that remembers each die it rolled."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.rolled: list[int] = []

    def randint(self, a: int, b: int, /) -> int:
        value = self.rng.randint(a, b)
        self.rolled.append(value)
        return value


X_NOTE = (
    "note: x multiplies here (2d6x10 is 2d6 times 10); Foundry reads x as "
    "explode: write 1d10!=10 for that"
)
_RULE = re.compile(r"[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+")
"""A dice rule's name, SYSTEM.RULE."""


def parse(text: str, args: argparse.Namespace) -> tuple[Dice | DiceSum, str]:
    """The dice an EXPR names (the rules' own notation read as it always was,
    where it reads the whole text and rulesc answers it that way; anything
    else as ``rulebook.dice_notation`` reads it, spaces kept), and how to name them."""
    written = text.strip()
    try:
        dice = parse_dice(written, bare_d6=True)
    except DiceSyntaxError:
        if _RULE.fullmatch(written):
            return _rule_dice(written, args)
    else:
        problem = (dice_problem if args.stats else roll_problem)(dice)
        if problem is None:
            return dice, written
    try:
        return parse_notation(written, bare_d6=True), written
    except DiceSyntaxError as exc:
        shown, caret = pointed(written, exc.offset)
        said = sentence(written, exc.message, exc.offset)
        raise UsageError(f"{said}\n    {shown}\n    {caret}", exc.hint) from None


def _x_note(dice: Dice | DiceSum) -> None:
    """Say on stderr that x multiplies, where a pool is written with it."""
    if isinstance(dice, Dice):
        multiplied = dice.multiplier != 1
    else:
        multiplied = any(p.multiplier != 1 for p in dice.pools)
    if multiplied:
        print(X_NOTE, file=sys.stderr)


def pointed(text: str, offset: int) -> tuple[str, str]:
    """``text`` as a terminal shows it (cut around ``offset`` when long, hidden
    characters escaped), and the line with a caret under its ``offset``-th
    character (a wide character takes two columns)."""
    lo = max(0, offset - MAX_QUOTED // 2)
    hi = min(len(text), offset + MAX_QUOTED // 2)
    lead = "\N{HORIZONTAL ELLIPSIS}" if lo else ""
    tail = "\N{HORIZONTAL ELLIPSIS}" if hi < len(text) else ""
    before = lead + visible(text[lo:offset])
    width = sum(2 if east_asian_width(ch) in "WF" else 1 for ch in before)
    return before + visible(text[offset:hi]) + tail, " " * width + "^"


def _rule_dice(name: str, args: argparse.Namespace) -> tuple[Dice | DiceSum, str]:
    """The dice of a dice rule, or one die of a die rule of its own faces."""
    from ..pipeline import load_systems

    system_id = name.partition(".")[0]
    systems = load_systems(
        args.rules, {system_id}, more=getattr(args, "more_rules", ())
    )
    for system in systems:
        for rule in system.rules:
            dice = getattr(rule, "dice", None)
            if rule.qualified_id == name and isinstance(dice, Dice):
                return dice, f"{name} ({dice})"
            die = getattr(rule, "die", None)
            if rule.qualified_id == name and isinstance(die, DieFaces):
                pool = Pool(1, len(die.faces), listed=die.faces)
                return DiceSum(
                    (Term(1, pool),)
                ), f"{name} (a d{len(die.faces)} of its own faces)"
    dice_rules = [
        r.qualified_id
        for s in systems
        for r in s.rules
        if isinstance(getattr(r, "dice", None), Dice)
        or isinstance(getattr(r, "die", None), DieFaces)
    ]
    raise UsageError(
        f"{name!r} is neither a dice expression nor a dice rule",
        "dice rules: " + ", ".join(dice_rules) if dice_rules else None,
    )


def rolled_text(dice: Dice, faces: list[int], total: int) -> str:
    """How a roll adds up: ``4 + 2 + 6 = 12``, ``(3 + 4) x 10 = 70``."""
    if not dice.count:
        return str(total)
    text = " + ".join(str(f) for f in faces)
    if len(faces) > 1 and (dice.multiplier != 1 or dice.modifier):
        text = f"({text})"
    if dice.multiplier != 1:
        text = f"{text} \N{MULTIPLICATION SIGN} {dice.multiplier}"
    if dice.modifier:
        text += f" {'+' if dice.modifier > 0 else '-'} {abs(dice.modifier)}"
    if len(faces) == 1 and dice.multiplier == 1 and not dice.modifier:
        return str(total)
    return f"{text} = {total}"


def run(args: argparse.Namespace) -> int:
    dice, name = parse(args.expr, args)
    _x_note(dice)
    if isinstance(dice, DiceSum) and not all(p.numeric for p in dice.pools):
        return _run_symbols(dice.pools[0], name, stats=args.stats, seed=args.seed)
    if isinstance(dice, DiceSum):
        return run_notation(
            dice, name, stats=args.stats, seed=args.seed, depth=args.depth
        )
    problem = (dice_problem if args.stats else roll_problem)(dice)
    if problem is not None:
        what = "works out exactly" if args.stats else "rolls"
        raise UsageError(f"{dice} is more dice than rulesc {what}", problem)
    if args.stats:
        print(f"{name}:")
        for line in stats_lines(dice):
            print(f"  {line}")
        return 0
    rng = _Recorder(random.Random(args.seed))
    total = dice.roll(rng)
    unit = f" {dice.unit}" if dice.unit else ""
    print(f"{name}: {rolled_text(dice, rng.rolled, total)}{unit}")
    return 0


def _run_symbols(pool: Pool, name: str, *, stats: bool, seed: Any) -> int:
    """A die of symbols rolled (the face it shows, by the roll of a die of as
    many sides), or with ``stats`` each face with its chance."""
    if stats:
        weights = face_weights(pool)
        print(f"{name}:")
        for face, weight in weights.weights.items():
            chance = Fraction(weight, weights.denom)
            print(f"  {shown_face(face):<24} {percent(chance):>6}  {chance}")
        return 0
    rng = _Recorder(random.Random(seed))
    (face,) = roll(DiceSum((Term(1, pool),)), rng).results
    print(f"{name}: rolled {rng.rolled[0]}: {shown_face(face)}")
    return 0


def roll_once(dice: Dice, seed: Any) -> tuple[int, list[int]]:
    """Roll ``dice`` with a seed: the total and each die (for other commands)."""
    rng = _Recorder(random.Random(seed))
    return dice.roll(rng), rng.rolled
