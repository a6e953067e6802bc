"""Decision guards: a refusal or an early answer among a decision's names, tried before the dice after it are rolled.

A decision's ``let`` may hold, between its names, ``{when: COND, refuse:
TEXT}`` and ``{when: COND, then: ANSWER}``: each is tried in order with the
names, reading the parameters and the names before it, so a call is refused
(``sides not in [4, 6, 8]``) or answered (``first == 1``) before the dice of
the names after it are rolled. A refusal says the arguments are outside the
rule: it reads no name whose value rolls dice (the odds function refuses the
same calls); an early answer may read them, and its odds are the chances of
the rolls that reach it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ...kinds.decision.model import DecisionCase, Guard, Slot
from ...kinds.formula.model import Let
from ...lang import expr

if TYPE_CHECKING:
    from ...common.diagnostics import Path

__all__ = ["build_guards", "rolled_names"]


class Cases(Protocol):
    """What builds a decision's cases (``rule._Builder``), as guards use it."""

    raw: dict[str, Any]
    path: Path
    specs: dict[str, expr.Param]

    def err(
        self, path: Path, message: str, hint: str | None = None, *, key: bool = False
    ) -> None: ...

    def case(
        self,
        cpath: Path,
        case: dict[str, Any],
        shape: str,
        slots: list[Slot],
        defaults: dict[str, Any],
    ) -> DecisionCase | None: ...


def rolled_names(lets: tuple[Let, ...]) -> set[str]:
    """The names whose values roll dice: their own, or a name's before them."""
    found: set[str] = set()
    for let in lets:
        node = let.checked.node
        if expr.dice_in(node) is not None or expr.names_used(node) & found:
            found.add(let.name)
    return found


def build_guards(
    d: Cases,
    scopes: dict[int, tuple[int, dict[str, expr.Param]]],
    lets: tuple[Let, ...],
    answer: tuple[str, list[Slot], dict[str, Any]],
) -> tuple[Guard, ...]:
    """The guards of the decision ``d`` builds (``scopes``: for the index of
    each in its ``let``, the names before it and the scope it reads), each
    checked as a case is (``answer``: the decision's shape, slots and
    defaults); a wrong one is reported and left out."""
    found: list[Guard] = []
    rolled = rolled_names(lets)
    for index, (before, scope) in sorted(scopes.items()):
        raw = d.raw["let"][index]
        at: Path = (*d.path, "let", index)
        if "when" not in raw or "value" in raw:
            d.err(
                at,
                "a let item is a name and its value, or a guard: 'when:' with "
                "'then:' or 'refuse:'",
                "give a name to the value, or a when: to the guard",
            )
            continue
        outer, d.specs = d.specs, scope
        try:
            case = d.case(at, raw, *answer)
        finally:
            d.specs = outer
        if case is None:
            continue
        if case.refuse is not None and case.when is not None:
            read = sorted(expr.names_used(case.when.node) & rolled)
            if read:
                d.err(
                    (*at, "when"),
                    f"a refusal comes before the dice: it reads {read[0]!r}, "
                    "whose value rolls them",
                    "refuse on the parameters and the names that roll no dice, "
                    "or answer early with then:",
                )
                continue
        why = _no_early_answer(d.raw)
        if case.values is not None and why is not None:
            d.err(
                (*at, "then"),
                f"{why}: a guard among its names may refuse, not answer",
                "refuse, or give the answer as a case",
                key=True,
            )
            continue
        found.append(Guard(before, case))
    return tuple(found)


def _no_early_answer(raw: dict[str, Any]) -> str | None:
    """Why a decision's guards may not answer, or None."""
    if raw.get("hit_policy") == "collect":
        return "a decision that collects answers a list"
    if raw.get("methods"):
        return "a decision whose answers have methods answers in its cases"
    return None
