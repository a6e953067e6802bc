"""``rulesc roll`` for dice notation beyond the rules' own: a roll shown die by die, and exact stats.

The rules' own notation (``3d6``, ``2d6x10``, GURPS ``3d-1``) is rolled as it
always was (``compiler.workbench.roll``); anything else the runtime's notation
reads (``d20``, ``4d6kh3``, ``(2d6+3)*2``, ``{1d20, 1d20}kh1``, ``3d6 >= 10``,
``1d20+5[STR]``...) is rolled and worked out here.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, cast

from ..common.limits import notation_problem
from ..common.visible import visible
from ..runtime.dice_odds import MAX_DEPTH, Odds, odds
from ..runtime.dice_rolls import NodeRoll, Part, PoolRoll, Rolled, roll
from ..runtime.dice_terms import AnyNode, DiceSum, Pool, counting_text, number_text
from ..runtime.dice_tree import Binary, Call, Group, Labeled, Test
from ..runtime.errors import RuleInputError
from .dicestats import chart_lines
from .text import number, percent
from .usage import UsageError


def run_notation(
    dice: DiceSum, name: str, *, stats: bool, seed: Any, depth: int
) -> int:
    """Roll ``dice`` (or print its stats) as ``rulesc roll`` does."""
    if not 0 <= depth <= MAX_DEPTH:
        raise UsageError(
            f"--depth must be 0 to {MAX_DEPTH}, not {depth}",
            "the number of dice an explosion is followed to (default 10)",
        )
    problem = notation_problem(dice, stats=stats, depth=depth)
    if problem is not None:
        what = "works out exactly" if stats else "rolls"
        raise UsageError(f"{dice} is more dice than rulesc {what}", problem)
    try:
        if stats:
            lines = odds_lines(odds(dice, depth), depth)
            print(f"{name}:")
            for line in lines:
                print(f"  {line}")
            return 0
        rolled = roll(dice, random.Random(seed))
    except RuleInputError as error:  # a limit of the runtime
        raise UsageError(str(error)) from None
    print(f"{name}: {rolled_text(dice, rolled)}")
    return 0


def odds_lines(found: Odds, depth: int) -> list[str]:
    """Range, mean, tail and the chart of ``found``."""
    more = f" (and more, past depth {depth})" if found.tail else ""
    lines = [f"range: {found.min} to {found.max}{more}"]
    mean = found.mean
    if mean is None:
        known = 1 - found.tail
        listed = sum((v * p for v, p in found.chances.items()), Fraction(0)) / known
        lines.append(
            f"mean:  {number(listed)} of the values listed"
            + (f" (exactly {listed})" if listed.denominator != 1 else "")
        )
        lines.append(
            f"tail:  {percent(found.tail)} (exactly {found.tail}): an explosion "
            f"past depth {depth} leaves the value unknown (--depth follows more)"
        )
    else:
        lines.append(
            f"mean:  {number(mean)}"
            + (f" (exactly {mean})" if mean.denominator != 1 else "")
        )
    if len(found.chances) == 1 and not found.tail:
        return [*lines, f"always {found.min}"]
    return lines + chart_lines(found.chances)


def rolled_text(dice: DiceSum, rolled: Rolled) -> str:
    """How a roll adds up: ``[6, 4, 3, 1 dropped] + 2 = 15``; ``*`` marks a die
    that meets a pool's target, ``~`` one that meets its failure, ``→`` a
    reroll, ``!`` a die that exploded; products, calls, groups, comparisons of
    totals and labels are shown as written, each with its dice."""
    parts = rolled.terms
    if (
        len(parts) == 1
        and isinstance(dice.terms[0].value, Pool)
        and isinstance(parts[0], PoolRoll)
        and dice.terms[0].sign > 0
        and _single(dice.terms[0].value, parts[0])
    ):
        return str(rolled.total)
    return f"{_terms_text(dice, parts)} = {rolled.total}"


def _terms_text(dice: DiceSum, parts: tuple[Part, ...]) -> str:
    shown = ""
    for i, (term, part) in enumerate(zip(dice.terms, parts, strict=True)):
        text = _part_text(term.value, part)
        if i:
            shown += (" - " if term.sign < 0 else " + ") + text
        else:
            shown += ("-" if term.sign < 0 else "") + text
    return shown


def _part_text(node: AnyNode, part: Part) -> str:
    """One node of the expression with its roll."""
    if isinstance(node, Pool) and isinstance(part, PoolRoll):
        return _pool_text(node, part)
    if not isinstance(part, NodeRoll):
        return number_text(node) if isinstance(node, int | Fraction) else str(node)
    inner = [
        _part_text(cast("AnyNode", child), sub)
        for child, sub in zip(_children(node), part.parts, strict=True)
    ]
    if isinstance(node, DiceSum):
        return f"({_terms_text(node, part.parts)})"
    if isinstance(node, Binary):
        right = f"({inner[1]})" if isinstance(node.right, Binary) else inner[1]
        return f"{inner[0]} {node.op} {right}"
    if isinstance(node, Call):
        return f"{node.name}({', '.join(inner)})"
    if isinstance(node, Group):
        items = [
            t if k else f"{t} dropped" for t, k in zip(inner, part.kept, strict=True)
        ]
        options = counting_text(node.keep, node.keep_count, node.target, node.failure)
        return f"{{{', '.join(items)}}}{options}"
    if isinstance(node, Test):
        return f"({inner[0]} {node.op} {inner[1]}: {'yes' if part.value else 'no'})"
    if isinstance(node, Labeled):
        return f"{inner[0]} [{visible(node.label)}]"
    return str(node)


def _children(node: AnyNode) -> tuple[object, ...]:
    return node.children() if not isinstance(node, int | Fraction) else ()


def _single(pool: Pool, rolled: PoolRoll) -> bool:
    """A lone die that showed one face and counts as itself."""
    return (
        len(rolled.dice) == 1
        and len(rolled.faces[0]) == 1
        and pool.multiplier == 1
        and pool.target is None
        and rolled.dice[0] == rolled.faces[0][0]
    )


def _pool_text(pool: Pool, rolled: PoolRoll) -> str:
    shown: list[tuple[int, str]] = []
    for die, faces, kept, hit, fail in zip(
        rolled.dice, rolled.faces, rolled.kept, rolled.hits, rolled.fails, strict=True
    ):
        if pool.explode == "!!" and len(faces) > 1:
            text = f"{die} ({' '.join(map(str, faces))})"
        else:
            text = "\N{RIGHTWARDS ARROW}".join(map(str, faces))
            if pool.explode == "!p" and die != faces[-1]:
                text += "-1"  # a die a penetrating explosion added
            if pool.explode in ("!", "!p", "!o") and pool.explodes(faces[-1]):
                text += "!"
        text += ("*" if hit else "") + ("~" if fail else "")
        shown.append((die, text if kept else f"{text} dropped"))
    if pool.sort is not None:  # (display only)
        shown.sort(key=lambda d: d[0], reverse=pool.sort == "d")
    text = f"[{', '.join(t for _, t in shown)}]"
    if pool.multiplier != 1:
        text += f" \N{MULTIPLICATION SIGN} {pool.multiplier}"
    return text
