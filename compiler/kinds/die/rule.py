"""die: a die of the rules' own faces, checked, and lowered to a constant of the core holding them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.docs import rule_doc
from ...core.ir import Const, Prim, Unit
from ...front.model import System
from ...kinds.die.model import DieRule
from ...lang.nodes import DieFaces

if TYPE_CHECKING:
    from ...common.diagnostics import Path
    from ...front.loader import SourceFile
    from ...front.semantics import SystemBuilder


def build(
    b: SystemBuilder,
    src: SourceFile,
    path: Path,
    raw: dict[str, Any],
    common: dict[str, Any],
) -> DieRule | None:
    """The die ``raw`` says: all its faces numbers, or (with ``symbols``) each
    face a list of symbols it declares, kept in their declared order."""
    constant = raw.get("constant", raw["id"].upper())
    b.claim(
        src,
        (*path, "constant") if "constant" in raw else (*path, "id"),
        constant,
        "constant",
    )
    faces: list[Any] = raw["faces"]
    symbols: list[str] = raw.get("symbols", [])
    lists = [isinstance(face, list) for face in faces]
    if any(lists) and not all(lists):
        at = (*path, "faces", lists.index(not lists[0]))
        b.err(src, at, "a die's faces are all numbers, or all lists of symbols")
        return None
    examples = b.examples(src, path, raw, set(), roll_columns=set())
    if not all(lists):
        if symbols:
            b.err(
                src,
                (*path, "symbols"),
                "a die of numbers shows no symbols",
                "remove symbols:, or give each face the list of symbols it shows",
                key=True,
            )
            return None
        return DieRule(
            **common,
            examples=examples,
            constant=constant,
            faces=tuple(faces),
            symbols=(),
        )
    if not symbols:
        b.err(
            src,
            (*path, "faces"),
            "a die of symbols declares them",
            "list them in symbols: [hit, edge], then each face's: [hit]",
        )
        return None
    order = {symbol: index for index, symbol in enumerate(symbols)}
    ok = True
    for index, listed in enumerate(faces):
        for place, symbol in enumerate(listed):
            if symbol not in order:
                b.err(
                    src,
                    (*path, "faces", index, place),
                    f"{symbol!r} is not a symbol of this die",
                    "its symbols: " + ", ".join(symbols),
                )
                ok = False
    if not ok:
        return None
    shown = tuple(tuple(sorted(face, key=order.__getitem__)) for face in faces)
    return DieRule(
        **common,
        examples=examples,
        constant=constant,
        faces=shown,
        symbols=tuple(symbols),
    )


def scope(rule: DieRule) -> DieFaces:
    """What an expression sees of the die: its faces, rolled as d(id)."""
    return rule.die


def lower(system: System, rule: DieRule) -> Unit:
    """The die as a constant holding its faces, also named by the rule's id."""
    kind: Prim = "symbol_faces" if rule.symbols else "faces"
    const = Const(rule.constant, kind, rule.faces, rule_doc(rule), (rule.id,))
    return Unit((const,), rule.constant)
