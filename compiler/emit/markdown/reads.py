"""Reads: how a rule's page says what its expressions read (tables' fields by their columns' titles, links to the rules called)."""

from __future__ import annotations

from collections.abc import Sequence

from ...front.model import System
from ...kinds.table.model import TableRule
from ...lang import expr
from ...lang.naming import words_of
from ...lang.nodes import walk
from ..literals import md_cell
from ..viewkit import rule_link
from .math import (
    latex_text,
)


class Reads:
    """How a rule's page says what its expressions read: a field of a table's
    row by the column's title, in words and in math, and links to those tables
    and to the rules it calls."""

    def __init__(self, system: System) -> None:
        self.tables = {r.function: r for r in system.rules if isinstance(r, TableRule)}
        self.functions = {
            f: r
            for r in system.rules
            if isinstance(f := getattr(r, "function", None), str)
        }

    def _title(self, table: str, field: str) -> str:
        rule = self.tables.get(table)
        column = (
            next((c for c in rule.columns if c.name == field), None) if rule else None
        )
        return column.title if column is not None else words_of(field)

    def words(self, table: str, field: str, key: str) -> str:
        """A field of a table's row in words: its column's title, for the key."""
        return f"{md_cell(self._title(table, field))} for {key}"

    def call_words(self, function: str, args: list[str]) -> str:
        """Another rule's answer (or a table's row) in words: a link to the
        rule, for its arguments."""
        rule = self.functions.get(function)
        said = rule_link(rule) if rule is not None else md_cell(words_of(function))
        if not args:
            return said
        given = ", ".join(args[:-1]) + (" and " if len(args) > 1 else "") + args[-1]
        return f"{said} for {given}"

    def latex(self, table: str, field: str, key: str) -> str:
        return rf"\text{{{latex_text(self._title(table, field))}}}({key})"

    def links(self, nodes: Sequence[expr.Node], own: str) -> str:
        """The rules ``nodes`` read or call, other than ``own``, as links."""
        names = sorted(
            {
                n
                for node in nodes
                for n in expr.tables_used(node) | expr.rules_called(node)
            }
        )
        rules = [self.functions[n] for n in names if n in self.functions]
        return ", ".join(rule_link(r) for r in rules if r.id != own)

    def rolled(self, nodes: Sequence[expr.Node]) -> str:
        """The rules ``nodes`` call that roll dice (with the caller's rng), as links."""
        names = sorted(
            {
                n.func
                for node in nodes
                for n in walk(node)
                if isinstance(n, expr.Call) and n.rolls and n.rule
            }
        )
        return ", ".join(rule_link(self.functions[n]) for n in names)
