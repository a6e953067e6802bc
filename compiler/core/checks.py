"""Argument checks: what each argument of a call must be, as nodes of the core that every target prints.

A check names the refusal it makes (``says``: a key of the runtimes' one table
of messages, ``runtime._messages``); the targets print the test and the call
of their runtime's refusal, and the runtime puts the message together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..front.model import Param

What = Literal["whole", "limit", "one_of", "flag", "label"]

# The messages of the runtimes' table each check's refusal says.
SAYS: dict[What, tuple[str, ...]] = {
    "whole": ("not_int", "outside", "outside_because"),
    "limit": ("outside_because",),
    "one_of": ("not_one_of",),
    "flag": ("not_flag",),
    "label": ("not_label",),
}


@dataclass(frozen=True, slots=True)
class Check:
    """The argument ``name`` must be: ``whole``, an int within ``lo..hi``
    (None: within the exact integers every runtime holds); ``limit``, at most
    ``hi`` (past it the call would be too much work; ``lo`` its least);
    ``one_of``, one of ``values``; ``flag``, a bool; ``label``, a label of the
    set ``enum`` (or None, where ``nullable``)."""

    what: What
    name: str
    lo: int | None = None
    hi: int | None = None
    values: tuple[int, ...] = ()
    enum: str | None = None
    nullable: bool = False

    @property
    def says(self) -> tuple[str, ...]:
        return SAYS[self.what]


def argument_checks(param: Param) -> tuple[Check, ...]:
    """The checks of a number's, flag's or label's argument, in order (a
    mapping's, text's, list's, record's or state's the runtime checks whole)."""
    name = param.name
    if param.spec is not None or param.type == "mapping":
        return ()
    if param.type == "choice" and param.enum is not None:
        return (Check("label", name, enum=param.enum.name, nullable=param.nullable),)
    if param.type == "bool":
        return (Check("flag", name),)
    found = [Check("whole", name, param.min, param.max)]
    if param.limit is not None:
        found.append(Check("limit", name, param.min, param.limit))
    if param.one_of:
        found.append(Check("one_of", name, values=param.one_of))
    return tuple(found)
