"""Exact proofs: each rule's own arithmetic (its kind's loops and handlers) proved within 2**53 - 1 at build time.

Every rule of a system that builds is lowered to the core and proved
(``core.exact``): a part of its arithmetic that may pass ``MAX_EXACT`` is a
located error at each parameter whose range lets it (one that, taken at a
single value, would keep the part within), naming what to give it; where no
parameter does, at the largest figure it follows from that the rule writes
(its digits, as a number or in dice), else at the rule. One error a parameter
(or figure), whatever else of the rule it lets pass too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..common.limits import MAX_EXACT
from ..front.model import (
    Param,
    Rule,
    System,
)
from ..runtime._support import MAX_ENTRIES
from .exact import (
    Prover,
    Unproved,
)
from .ir import (
    Decl,
    Function,
    Procedure,
    State,
    Timeline,
    Unit,
)
from .viewkit import bounds

if TYPE_CHECKING:
    from ..common.diagnostics import Path
    from ..front.loader import SourceFile

__all__ = ["prove_rules"]

Placed = tuple["SourceFile", "Path", dict[str, Any]]
# reports an error: (file, path in it, message, hint)
Report = Callable[["SourceFile", "Path", str, str], None]


def prove_rules(
    err: Report,
    system: System,
    placed: Mapping[str, Placed],
    lowered: Callable[[System, Rule], Unit],
) -> None:
    """Prove every rule of ``system`` (``placed``: where each rule is written,
    by id; ``lowered``: a rule lowered to the core), reporting what may pass
    ``MAX_EXACT``."""
    units = {rule.id: lowered(system, rule) for rule in system.rules}
    decls: dict[str, Decl] = {}
    for unit in units.values():
        for decl in unit.decls:
            name = getattr(decl, "name", None)
            if isinstance(name, str):
                decls.setdefault(name, decl)
    prover = Prover(decls)
    for rule in system.rules:
        unit = units[rule.id]
        if rule.id not in placed:
            continue
        found = prover.prove(unit)
        if found:
            _report(err, prover, unit, placed[rule.id], found)


def _report(
    err: Report, prover: Prover, unit: Unit, place: Placed, found: list[Unproved]
) -> None:
    """One error for each parameter to bound (or for the rule's figures)."""
    src, path, raw = place
    params = _params(unit)
    # a parameter is to bound where taking it at one value proves the part
    culprits: dict[str, list[str]] = {}
    for name in sorted(set().union(*(u.sources for u in found)) & params.keys()):
        still = {u.text for u in prover.prove(unit, {name: _one(params[name])})}
        for unproved in found:
            if name in unproved.sources and unproved.text not in still:
                culprits.setdefault(unproved.text, []).append(name)
    blamed: dict[str, list[Unproved]] = {}
    for unproved in found:
        names = culprits.get(unproved.text) or [_figure(unproved, raw)]
        for name in names:
            blamed.setdefault(name, []).append(unproved)
    for name, items in blamed.items():
        first = items[0]
        said = first.message
        if not said.startswith(f"'{first.text}'"):
            said = f"{said}, in '{first.text}'"
        if name.startswith("#") or not name:
            err(
                src,
                (*path, *(_figure_at(raw, int(name[1:])) if name else ())),
                f"the rule's figures: {said}",
                "use smaller figures: the rule's steps are counted at the most "
                f"a call takes ({MAX_ENTRIES:,} turns of each loop)",
            )
            continue
        param = params[name]
        err(
            src,
            (*path, *_written_at(raw, name)),
            f"{name} may be {bounds(param.min, param.max)}: {said}",
            _what_to_give(param),
        )


def _params(unit: Unit) -> dict[str, Param]:
    """The parameters of the unit's declarations, by name."""
    params: dict[str, Param] = {}
    for decl in unit.decls:
        found = (
            list(decl.params)
            if isinstance(decl, Function | Procedure | Timeline | State)
            else []
        )
        if isinstance(decl, State):
            found += [p for t in decl.transitions for p in t.params]
        for param in found:
            params.setdefault(param.name, param)
    return params


def _one(param: Param) -> int:
    """The value of ``param`` nearest 0."""
    lo = -MAX_EXACT if param.min is None else param.min
    hi = MAX_EXACT if param.max is None else param.max
    return max(lo, min(0, hi))


def _figure(unproved: Unproved, raw: Any) -> str:
    """The largest of the figures it follows from that the rule writes
    (``#`` and its digits), else ``""`` (the rule)."""
    figures = sorted(
        (int(s[1:]) for s in unproved.sources if s.startswith("#")), reverse=True
    )
    written = [f for f in figures if _figure_at(raw, f)]
    return f"#{written[0]}" if written else ""


def _what_to_give(param: Param) -> str:
    missing = [
        side for side, end in (("min", param.min), ("max", param.max)) if end is None
    ]
    if missing:
        return f"give {param.name} a {' and a '.join(missing)}"
    return f"narrow {param.name}'s range"


def _written_at(raw: dict[str, Any], name: str) -> tuple[str | int, ...]:
    """Where the rule's data declares the parameter ``name``: among its
    parameters (or elsewhere but its examples and rulings), a mapping
    ``name: NAME``, else a value NAME (a parameter it names); else the rule."""
    parts = {k: v for k, v in raw.items() if k not in ("examples", "rulings")}
    for hit in (
        lambda data: isinstance(data, dict) and data.get("name") == name,
        lambda data: data == name,
    ):
        for data, at in ((raw.get("parameters"), ("parameters",)), (parts, ())):
            found = _search(data, hit, at)
            if found:
                return found
    return ()


def _search(
    raw: Any,
    hit: Callable[[Any], bool],
    at: tuple[str | int, ...] = (),
    skip: tuple[str, ...] = (),
) -> tuple[str | int, ...]:
    """The path (below ``at``) of the first value of ``raw`` that ``hit``s,
    depth first, leaving out the keys ``skip``; () where none does."""
    if at and hit(raw):
        return at
    if isinstance(raw, dict):
        items: Any = [(k, v) for k, v in raw.items() if k not in skip]
    elif isinstance(raw, list):
        items = enumerate(raw)
    else:
        return ()
    for key, value in items:
        found = _search(value, hit, (*at, key), skip)
        if found:
            return found
    return ()


_NOT_FIGURES = ("examples", "rulings", "errata", "title", "summary", "source")


def _figure_at(raw: Any, figure: int) -> tuple[str | int, ...]:
    """Where the rule's data writes ``figure`` (a number, or a text such as
    dice holding its digits), but in its examples and words; () where not."""
    digits = re.compile(rf"(?<!\d){figure}(?!\d)")

    def hit(value: Any) -> bool:
        if isinstance(value, bool):
            return False
        if isinstance(value, int):
            return abs(value) == figure
        return isinstance(value, str) and digits.search(value) is not None

    return _search(raw, hit, (), _NOT_FIGURES)
