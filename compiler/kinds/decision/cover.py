"""Decision cover: the proof that a unique decision's cases answer every call, each once.

A decision whose cases are tried with ``hit_policy: unique`` answers with the
one case that matches. Its cases must match every call (else the call would
fall through them and answer nothing: ``None`` in Python, ``undefined`` in
JavaScript), unless its last case is ``when: "true"``, its fallback, which
answers where no other case does; and no two may match one call. The build
proves both by trying every input the conditions read: every value of each
parameter they read (over its declared range) and every value each name they
read can take, a name that rolls dice over each of its dice's possible
outcomes (``ending.outcomes``). Where that is not finite, or too much to try,
a decision without a fallback is an error saying why; one with a fallback
answers every call, and its overlaps are not proved.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...common.limits import MAX_PROOF_WORK
from ...front.model import Param
from ...kinds.formula.model import Let
from ...kinds.table.model import TableRule
from ...lang import expr
from ...lang.dice import pool_of
from ...lang.nodes import walk
from .ending import Spent, TooLarge, outcomes
from .model import DecisionCase

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder

__all__ = ["MAX_COVER", "MAX_INPUTS", "inputs_of", "prove_cover", "table_values"]

MAX_INPUTS = 20_000
"""The most combinations of parameters a proof tries (a limit of the tool)."""
MAX_COVER = 200_000
"""The most inputs, parameters and outcomes of the dice together, the proof
that a unique decision's cases cover every call tries (a limit of the tool)."""

_FALLBACK = 'add a last case when: "true", which answers where no other case does'
Env = dict[str, Any]


class Unproved(Exception):
    """Why the inputs the conditions read cannot all be tried, and the other
    remedy than a fallback, if any."""

    def __init__(self, why: str, remedy: str | None = None) -> None:
        super().__init__(why)
        self.why, self.remedy = why, remedy


def inputs_of(params: Sequence[Param]) -> list[list[Any]] | None:
    """Every value of each parameter (None too where it may be null), or None
    where one has too many to try."""
    values: list[list[Any]] = []
    count = 1
    for p in params:
        these = _values(p)
        count *= max(len(these or ()), 1)
        if not these or count > MAX_INPUTS:
            return None
        values.append(these)
    return values


def _values(p: Param) -> list[Any] | None:
    if p.type == "choice" and p.enum is not None:
        these: list[Any] = [m.label for m in p.enum.members]
    elif p.type == "bool":
        these = [False, True]
    elif p.one_of:  # an int that is one of these
        these = list(p.one_of)
    elif p.type == "int" and p.min is not None and p.max is not None:
        if p.max - p.min >= MAX_INPUTS:
            return None
        these = list(range(p.min, p.max + 1))
    else:
        return None
    return these + [None] * p.nullable


def table_values(b: SystemBuilder) -> dict[str, dict[str, dict[str, object]]]:
    """Each table rule's rows as the reference evaluator reads them."""
    found: dict[str, dict[str, dict[str, object]]] = {}
    for rule in b.built.values():
        if isinstance(rule, TableRule):
            found[rule.function] = {
                row.key.label: {
                    c.name: v for c, v in zip(rule.columns, row.cells, strict=True)
                }
                for row in rule.rows
            }
    return found


def prove_cover(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    params: Sequence[Param],
    cases: Sequence[DecisionCase],
    lets: Sequence[Let],
    unread: frozenset[str] = frozenset(),
) -> None:
    """Prove that a unique decision's cases match every call (unless its last
    case is its fallback), and that no two match one call; each failure a
    located error. ``unread``: names the cases may read that the proof
    cannot try (the state a repeating decision's turns end with)."""
    fallback = bool(cases) and cases[-1].when_text == "true"
    tested = list(cases[:-1] if fallback else cases)
    for index, case in enumerate(tested):
        if case.when_text == "true":
            b.err(
                src,
                (*path, "cases", index, "when"),
                'only the last case of a unique decision may be when: "true": '
                "it answers where no other case does",
                "narrow this condition, or make this case the last",
            )
            return
    conditions = [c.when for c in tested]
    if any(when is None for when in conditions):
        return  # a condition that did not build: already reported
    nodes = [when.node for when in conditions if when is not None]
    try:
        envs = _environments(b, params, lets, nodes, unread)
    except Unproved as unproved:
        if not fallback:
            b.err(
                src,
                (*path, "hit_policy"),
                f"the cases cannot be proved to answer every call: {unproved.why}",
                _FALLBACK + (f", or {unproved.remedy}" if unproved.remedy else ""),
            )
        return
    _try_every_input(b, src, path, nodes, envs, fallback)


def _try_every_input(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    nodes: list[expr.Node],
    envs: list[tuple[Env, str]],
    fallback: bool,
) -> None:
    """Each input tried on every condition: the first that none matches (when
    there is no fallback), and each pair of cases that both match one."""
    tables = table_values(b)
    reported: set[tuple[int, int]] = set()
    uncovered = fallback
    for env, shown in envs:
        matched = []
        for index, node in enumerate(nodes):
            try:
                holds = expr.evaluate(node, env, rounding=b.rounding, tables=tables)
            except ValueError:  # the call is refused there: an answer
                matched.append(-1)
                continue
            if holds:
                matched.append(index)
        if not matched and not uncovered:
            uncovered = True
            b.err(
                src,
                (*path, "hit_policy"),
                f"no case matches {shown or 'a call'}: a unique decision's cases "
                "must answer every call",
                f"add a case that matches it, or {_FALLBACK}",
            )
        both = [i for i in matched if i >= 0][:2]
        if len(both) == 2 and tuple(both) not in reported:
            first, second = both
            reported.add((first, second))
            b.err(
                src,
                (*path, "cases", second, "when"),
                f"cases {first + 1} and {second + 1} both match {shown or 'every call'}",
                "a unique decision lets at most one case match: narrow the conditions",
            )


def _environments(
    b: SystemBuilder,
    params: Sequence[Param],
    lets: Sequence[Let],
    nodes: list[expr.Node],
    unread: frozenset[str],
) -> list[tuple[Env, str]]:
    """Every input the conditions read, with how it is shown: the values of
    the parameters they read, then of each name they read, in order (a name
    that rolls dice: each value it can take). Raises ``Unproved``."""
    needed: set[str] = set()
    for node in nodes:
        needed |= expr.names_used(node)
        if expr.rules_called(node):
            raise Unproved("a condition calls another rule")
    read: list[Let] = []
    for let in reversed(lets):
        if let.name in needed:
            needed |= expr.names_used(let.checked.node)
            read.insert(0, let)
    if needed & unread:
        name = sorted(needed & unread)[0]
        raise Unproved(f"they read {name!r}, which the turns end with")
    for let in read:
        _can_try(let)
    given = [p for p in params if p.name in needed]
    values = inputs_of(given)
    if values is None:
        loose = next(p for p in given if _values(p) is None)
        raise Unproved(
            f"{loose.name!r} takes too many values to try each",
            f"give {loose.name!r} a min and a max (at most {MAX_INPUTS:,} values)",
        )
    names = [p.name for p in given]
    envs = [
        dict(zip(names, combo, strict=True)) for combo in itertools.product(*values)
    ]
    return _bind(b, envs, read, names)


def _can_try(let: Let) -> None:
    """Raise ``Unproved`` where the values of ``let`` cannot all be tried."""
    for node in walk(let.checked.node):
        if isinstance(node, expr.Call) and (node.rule or node.func == "roll"):
            what = "calls another rule" if node.rule else "rolls a dice value"
            raise Unproved(f"{let.name!r} {what}")
        if isinstance(node, expr.Dice) and _endless(node):
            raise Unproved(
                f"{let.name!r} rolls dice that explode without end",
                "explode them once (!o)",
            )


def _endless(node: expr.Dice) -> bool:
    """Whether the dice may explode again and again (their totals have no end)."""
    return pool_of(node).explode in ("!", "!!")


def _bind(
    b: SystemBuilder, envs: list[Env], lets: Sequence[Let], shown: list[str]
) -> list[tuple[Env, str]]:
    """Each input with every value of each name in turn (those the dice can
    roll); an input whose name is refused there is left out (the call is
    refused: an answer)."""
    tables = table_values(b)
    spent = Spent(
        b.allowance("turn proofs", MAX_PROOF_WORK),
        {id(let.checked.node): sum(1 for _ in walk(let.checked.node)) for let in lets},
    )
    for let in lets:
        after: list[Env] = []
        for env in envs:
            try:
                values = outcomes(let.checked.node, env, b.rounding, tables, spent)
            except TooLarge:
                values = None
            except ValueError:
                continue
            if values is None or len(after) + len(values) > MAX_COVER:
                raise Unproved(
                    f"its inputs and the outcomes of {let.name!r} are more than "
                    f"{MAX_COVER:,} to try",
                    "narrow the parameters' ranges",
                )
            after += [env | {let.name: value} for value in values]
        envs = after
    names = [*shown, *(let.name for let in lets)]
    return [(env, ", ".join(f"{n}={env[n]!r}" for n in names)) for env in envs]
