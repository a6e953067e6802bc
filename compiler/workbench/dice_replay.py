"""Dice replayed: the dice a rule's run rolled, rolled again in a formula's order for its steps."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..lang.dice import rolled_pool
from ..lang.evaluate import items_at
from ..lang.expr import (
    Call,
    Dice,
)
from ..runtime.dice import Scripted
from ..runtime.dice_rolls import Rolled, roll
from ..runtime.dice_terms import DiceSum, Term

__all__ = ["Replay"]


class Replay:
    """Rolls each dice term of a formula once, with the faces the runtime rolled
    (``faces``, in order), by the compiler's dice core; ``rolled`` keeps each
    term's roll for the steps to show. ``part`` counts the expressions of a
    rule (its ``let`` values, then its own), whose offsets each start at 0.
    A call of a rule that rolls is made once too, its dice the next faces
    (``called`` keeps its answer and the faces it rolled)."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)
        self.rng = Scripted(self.faces)
        # by the expression, the node's place in it, and the item of each
        # comprehension it is in (a body rolls anew for each item)
        self.rolled: dict[tuple[int, int, int, tuple[int, ...]], Rolled | None] = {}
        self.called: dict[
            tuple[int, int, int, tuple[int, ...]], tuple[Any, list[int]]
        ] = {}
        self.part = 0

    def __call__(self, node: Dice, count: int | None, sides: int | None) -> Any:
        key = (self.part, node.start, node.end, items_at())
        if key not in self.rolled:
            pool = rolled_pool(node, count, sides)
            dice = None if pool is None else DiceSum((Term(1, pool),))
            self.rolled[key] = None if dice is None else roll(dice, self.rng)
        rolled = self.rolled[key]
        if rolled is None:
            return [] if node.results else 0
        return list(rolled.results) if node.results else rolled.total

    def call(self, node: Call, call: Callable[[Any], Any]) -> Any:
        """The answer of a call of a rule that rolls, made once with the rng."""
        key = (self.part, node.start, node.end, items_at())
        if key not in self.called:
            start = len(self.faces) - self.rng.remaining
            answer = call(self.rng)
            end = len(self.faces) - self.rng.remaining
            self.called[key] = (answer, self.faces[start:end])
        return self.called[key][0]

    def note(self, node: Dice | Call) -> str:
        """What a dice term rolled: every face, and the dice kept when not all;
        what a call of a rule that rolls rolled: every face."""
        where = (self.part, node.start, node.end)
        if isinstance(node, Call):
            used = [
                f
                for k, (_, faces) in self.called.items()
                if k[:3] == where
                for f in faces
            ]
            shown = ", ".join(str(face) for face in used)
            return f"rolled {shown}" if used else "no dice"
        rolls = [r for k, r in self.rolled.items() if k[:3] == where and r is not None]
        if not rolls:
            return "no dice"
        faces = ", ".join(shown_face(face) for r in rolls for face in r.rolled)
        kept = ", ".join(shown_face(die) for r in rolls for die in r.results)
        same = all(list(r.rolled) == list(r.results) for r in rolls)
        return f"rolled {faces}" + ("" if same else f"; kept {kept}")

    def made(self, node: Call) -> bool:
        """Whether the call ``node`` of a rule that rolls was made (and rolled)."""
        where = (self.part, node.start, node.end)
        return any(key[:3] == where for key in self.called)


def shown_face(face: object) -> str:
    """A face rolled as the steps show it: a number, a die's symbols, or blank."""
    if isinstance(face, tuple):
        return "+".join(str(x) for x in face) if face else "blank"
    return str(face)
