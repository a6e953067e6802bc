"""Lua target (test only): the proof that a target is a thin printer over the plain core.

``LuaPrinter`` overrides the base printer (``rulesc.emit.printer``) where Lua
spells things its own way; ``module`` prints a system's formulas, tables and
decisions that roll no dice as one Lua chunk answering its functions. What the
runtime provides (argument checks, helpers) is ``tests/lua/runtime.lua``.
Not shipped: ``tests/test_lua_target.py`` runs it and counts its lines.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rulesc.core import ir
from rulesc.core import plain as p
from rulesc.core.checks import argument_checks
from rulesc.emit.printer import Names, Printer
from rulesc.front.model import (
    Param,
    System,
)
from rulesc.lang.nodes import DICE_PARTS
from rulesc.runtime.dice import Dice

_WORDS = "and break do else elseif end false for function goto if in local nil not or"
KEYWORDS = frozenset((_WORDS + " repeat return then true until while").split())


def braces(items: Any) -> str:
    """A Lua table of ``items`` (their code)."""
    return "{" + ", ".join(items) + "}"


def lua_name(name: str) -> str:
    return name + "_" if name in KEYWORDS else name


def lua_text(text: str) -> str:
    def one(ch: str) -> str:
        if ch in '"\\':
            return "\\" + ch
        return ch if ch.isprintable() else f"\\u{{{ord(ch):X}}}"

    return '"' + "".join(map(one, text)) + '"'


class LuaPrinter(Printer):
    """Lua: ``~=``, ``nil``, ``not`` binding tight; conditionals and values
    bound once as functions called in place; every helper the runtime's ``R``."""

    OPS: ClassVar[dict[str, tuple[str, int]]] = {
        **Printer.OPS,
        "!=": ("~=", Printer.EQ),
    }
    TEMPS: ClassVar[dict[str, str]] = {"default": "_d", "key": "_k", "count": "_c"}
    NULL = "nil"

    def text(self, value: str) -> str:
        return lua_text(value)

    def form_Not(self, node: p.Not) -> tuple[str, int]:
        return "not " + self.wrap(node.operand, self.UNARY), self.UNARY

    def form_If(self, node: p.If) -> tuple[str, int]:
        test, then = self.print(node.test), self.print(node.then)
        orelse = self.print(node.orelse)
        body = f"if {test} then return {then} else return {orelse} end"
        return f"(function() {body} end)()", self.ATOM

    def form_Let(self, node: p.Let) -> tuple[str, int]:
        name, value = self.TEMPS[node.hint], self.print(node.value)
        return (
            f"(function({name}) return {self.print(node.body)} end)({value})",
            self.ATOM,
        )

    def form_Helper(self, node: p.Helper) -> tuple[str, int]:
        args = [f"E.{node.enum}"] if node.enum else []
        args += [self.print(arg) for arg in node.args]
        return f"R.{node.name}({', '.join(args)})", self.ATOM

    def form_Reader(self, node: p.Reader) -> tuple[str, int]:
        return f"function(r) return r.{lua_name(node.name)} end", self.ATOM

    def form_List(self, node: p.List) -> tuple[str, int]:
        if not any(node.spread):
            return braces(self.print(item) for item in node.items), self.ATOM
        parts = [
            self.print(item) if spread else "{" + self.print(item) + "}"
            for spread, item in zip(node.spread, node.items, strict=True)
        ]
        return f"R.join({', '.join(parts)})", self.ATOM

    def form_Record(self, node: p.Record) -> tuple[str, int]:
        fields = zip(node.fields, node.args, strict=True)
        return braces(f"{lua_name(f)} = {self.print(a)}" for f, a in fields), self.ATOM

    def form_Each(self, node: p.Each) -> tuple[str, int]:
        name = self.names.name(node.name)
        tests = [] if node.test is None else [self.function(name, node.test)]
        parts = [self.print(node.items), self.function(name, node.body), *tests]
        return f"R.each({', '.join(parts)})", self.ATOM

    def function(self, name: str, body: p.Plain) -> str:
        return f"function({name}) return {self.print(body)} end"

    def keywords(self, pairs: list[tuple[str, str]]) -> list[str]:
        return [braces(f"{lua_name(k)} = {v}" for k, v in pairs)] if pairs else []


def names() -> Names:
    return Names(
        name=lua_name,
        field=lua_name,
        label=lambda enum, label: lua_text(label),
        choice=lambda param, label: lua_text(label),
        lookup=lambda table, key: f"F.{table}({key})",
        function=lambda name: f"F.{name}",
    )


def expression(checked: Any, system: System) -> str:
    return LuaPrinter(names()).print(p.lower(checked.node, system.rounding))


def value(item: object) -> str:
    """A value written in the rules, as Lua."""
    if item is None or isinstance(item, bool | int):
        return LuaPrinter(names()).print(p.Lit(item))
    if isinstance(item, str):
        return lua_text(item)
    if isinstance(item, Dice):
        parts = {**item.to_dict(), **{k: getattr(item, k) for k in DICE_PARTS}}
        return braces(f"{k} = {value(v)}" for k, v in parts.items())
    if isinstance(item, ir.New):
        return braces(f"{lua_name(c.name)} = {value(v)}" for c, v in item.fields)
    if isinstance(item, ir.Label):
        return lua_text(item.label)
    raise NotImplementedError(f"the Lua target writes no {type(item).__name__}")


def checks(params: tuple[Param, ...]) -> list[str]:
    """The core's checks of each argument (``core.checks``): the runtime's
    ``R.<what>`` refuses one outside it, in the words of the one table, or
    answers it (a label as its set spells it)."""
    found = []
    for c in (c for q in params for c in argument_checks(q)):
        values, enum = braces(map(str, c.values)), f"E.{c.enum}" if c.enum else "nil"
        given = [lua_text(c.name), lua_name(c.name), value(c.lo), value(c.hi)]
        found.append(
            f"{lua_name(c.name)} = "
            f"R.{c.what}({', '.join(given)}, {values}, {enum}, {value(c.nullable)})"
        )
    return found


def statements(
    body: tuple[ir.Stmt, ...], system: System, fields: list[str]
) -> list[str]:
    lines = []
    for stmt in body:
        if isinstance(stmt, ir.Set):
            lines.append(local(stmt.name, stmt.value, system))
        elif isinstance(stmt, ir.Refuse):
            lines.append(f"R.refuse({lua_text(stmt.message)})")
        elif isinstance(stmt, ir.Return):
            lines.append(f"do return {part(stmt.value, system, fields)} end")
        elif isinstance(stmt, ir.If) and not isinstance(stmt.test, ir.Present):
            then = statements(stmt.then, system, fields)
            orelse = statements(stmt.otherwise, system, fields)
            lines += [
                f"if {expression(stmt.test, system)} then",
                *then,
                "else",
                *orelse,
                "end",
            ]
        else:
            raise NotImplementedError(f"the Lua target runs no {type(stmt).__name__}")
    return lines


def part(found: object, system: System, fields: list[str]) -> str:
    if isinstance(found, ir.Make):
        items = zip(fields, found.values, strict=True)
        return braces(f"{lua_name(f)} = {part(v, system, fields)}" for f, v in items)
    if isinstance(found, ir.Read):
        field = f".{lua_name(found.field)}" if found.field else ""
        return lua_name(found.name) + field
    if isinstance(found, ir.Written | ir.Label):
        return value(found.value if isinstance(found, ir.Written) else found)
    return expression(found, system)


def declaration(
    decl: ir.Decl, system: System, records: dict[str, list[str]]
) -> list[str]:
    if isinstance(decl, ir.Enum):  # (every set of the system is in E)
        return []
    if isinstance(decl, ir.Table):
        rows = ", ".join(f"[{lua_text(k)}] = {value(v)}" for k, v in decl.rows)
        key = lua_name(decl.param)
        check = (
            f'R.label("{decl.param}", {key}, nil, nil, {{}}, E.{decl.key.name}, false)'
        )
        return [
            f"function F.{decl.name}({key}) {key} = {check} return ({{{rows}}})[{key}] end"
        ]
    if isinstance(decl, ir.Function):
        binds = [local(b.name, b.checked, system) for b in decl.binds]
        answer = f"return {expression(decl.answer, system)}"
        return [
            function_line(decl.name, decl.params),
            *checks(decl.params),
            *binds,
            answer,
            "end",
        ]
    if isinstance(decl, ir.Procedure):
        if decl.answer is not None or decl.guards or decl.turns or decl.binds:
            raise NotImplementedError("the Lua target runs no lists, guards, turns")
        fields = records.get(str(decl.item), [])
        body = [*checks(decl.params), *statements(decl.body, system, fields)]
        return [function_line(decl.name, decl.params), *body, "end"]
    if isinstance(decl, ir.Record):
        records[decl.name] = [c.name for c in decl.fields]
        return []
    raise NotImplementedError(f"the Lua target prints no {type(decl).__name__}")


def local(name: str, checked: Any, system: System) -> str:
    return f"local {lua_name(name)} = {expression(checked, system)}"


def function_line(name: str, params: tuple[Param, ...]) -> str:
    return f"function F.{name}({', '.join(lua_name(q.name) for q in params)})"


def module(system: System, units: list[ir.Unit]) -> str:
    """The Lua chunk of ``units`` (of ``system``): given the runtime ``R``, it
    answers the table of their functions."""
    lines = ["local R = ...", "local E, F = {}, {}"]
    for enum in system.enums:
        lines.append(
            f"E.{enum.name} = " + braces(lua_text(m.label) for m in enum.members)
        )
    records: dict[str, list[str]] = {}
    for unit in units:
        for decl in unit.decls:
            lines += declaration(decl, system, records)
    return "\n".join([*lines, "return F", ""])
