"""Core expressions: a lowering's own expressions, parsed and checked as the rules' are."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields, is_dataclass, replace
from functools import lru_cache
from typing import Any

from ..front.model import (
    EnumType,
    Param,
)
from ..front.scope import param_spec
from ..lang import expr
from ..runtime.dice import Dice
from .ir import Local


def checked(
    text: str,
    params: Sequence[Param],
    names: Sequence[Local] = (),
    texts: Sequence[str] = (),
    *,
    bound: Mapping[str, expr.Checked] | None = None,
    labels: EnumType | None = None,
) -> expr.Checked:
    """``text`` as a checked expression over ``params`` and the locals ``names``
    (whole numbers within their limits, or labels of their set), and the names
    ``bound`` (each of its value's type). A lowering writes it from the rules'
    figures; an error in it is the lowering's, so it is raised as it is.

    ``{0}``, ``{1}``... in ``text`` stand for the texts ``texts`` (labels and
    words of the rules, as they are: quotes and all), put in as text literals
    after the text is read, so that no text of the rules is read as code.
    Where ``labels`` is given, those texts are labels of that set: texts to
    the checker, members of the set to the emitters.

    The same expression over the same names is read once a run: lowerings
    write many alike (``true``, ``null``, a rule's figures again)."""
    return _checked(
        text,
        tuple(params),
        tuple(names),
        tuple(texts),
        tuple((bound or {}).items()),
        labels,
    )


@lru_cache(maxsize=4096)
def _checked(
    text: str,
    params: tuple[Param, ...],
    names: tuple[Local, ...],
    texts: tuple[str, ...],
    bound: tuple[tuple[str, expr.Checked], ...],
    labels: EnumType | None,
) -> expr.Checked:
    scope = {p.name: param_spec(p) for p in [*params, *local_params(names)]}
    for name, value in bound:
        scope[name] = expr.Param(name, "int", bound=value)
    if not texts:
        return expr.compile_formula(text, scope)
    marks = [f'"{_MARK}{index}"' for index in range(len(texts))]
    node = _put(expr.parse(text.format(*marks)), texts, None)
    found = expr.check(node, scope)
    if labels is None:
        return found
    # the checker reads them as texts (it knows no set to read them in)
    return replace(found, node=_put(found.node, (), labels.name))


_MARK = "\x1f"  # in no text of the rules' (a control character)


def _put(node: Any, texts: Sequence[str], enum: str | None) -> Any:
    """``node`` with each marked text literal's text put in; or, where ``enum``
    is given, each text literal that is no label made a label of ``enum``.
    A part with nothing to put in is kept as it is (not copied)."""

    def leaf(part: Any) -> Any:
        if not isinstance(part, expr.StrLit):
            return part
        if enum is not None:
            return part if part.is_label else replace(part, enum=enum)
        if part.value.startswith(_MARK):
            return replace(part, value=texts[int(part.value[len(_MARK) :])])
        return part

    return rebuilt(node, leaf)


def rebuilt(node: Any, leaf: Callable[[Any], Any]) -> Any:
    """``node`` with each part ``leaf`` changes (it answers a part itself
    where it changes nothing) changed, and the parts above it rebuilt; a part
    with nothing changed is kept as it is (not copied)."""
    found = leaf(node)
    if found is not node:
        return found
    if isinstance(node, tuple):
        items = tuple(rebuilt(item, leaf) for item in node)
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    if not is_dataclass(node) or isinstance(node, type):
        return node
    changes = {}
    for f in fields(node):
        part = getattr(node, f.name)
        if isinstance(part, tuple) or is_dataclass(part):
            put = rebuilt(part, leaf)
            if put is not part:
                changes[f.name] = put
    return replace(node, **changes) if changes else node


def local_params(names: Sequence[Local]) -> list[Param]:
    """The locals expressions read, as parameters are seen (``local_param``):
    numbers, flags and labels (dice and lists are read as names ``bound``)."""
    return [
        local_param(n)
        for n in names
        if n.record is None and n.type not in ("dice", "list")
    ]


def local_param(name: Local) -> Param:
    """A local as a parameter is seen (its type and limits), for the emitters'
    and checker's tables of names."""
    if name.enum is not None:
        return Param(
            name.name,
            "choice",
            None,
            None,
            None,
            False,
            "",
            name.enum,
            nullable=name.nullable,
        )
    if name.type == "bool":
        return Param(name.name, "bool", None, None, None, False, "", None)
    return Param(
        name.name,
        "int",
        name.lo,
        name.hi,
        None,
        False,
        "",
        None,
        nullable=name.nullable,
    )


def notation(dice: Dice) -> str:
    """Dice as the expression language writes a roll of them."""
    text = f"{dice.count}d{dice.sides}" if dice.count else "0"
    if dice.multiplier != 1:
        text = f"{text} * {dice.multiplier}"
    return f"({text} + {dice.modifier})" if dice.modifier else text
