"""Semantic checks: turn validated rules files into the model, locating every problem.

The schema has already checked shapes and types; this stage checks what a schema
cannot: references between parts, Python names, dice notation, formulas, and
that every table row matches its columns and key.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from ..common.diagnostics import (
    Diagnostic,
    Path,
    RulesError,
    pointer,
)
from ..common.limits import (
    MAX_CALL_CHAIN,
    MAX_EXACT,
    MAX_FILE_DICE_WORK,
    MAX_ROLLED_RESULTS,
    Allowance,
    Budget,
    dice_problem,
    dice_work,
)
from ..core.exact_proofs import prove_rules
from ..core.ir import Unit
from ..core.lowered import lowered_with
from ..kinds.dice.model import DiceRule
from ..kinds.formula.model import (
    FormulaRule,
    Let,
)
from ..kinds.table.model import (
    TableRoll,
    TableRule,
)
from ..lang import expr
from ..lang.naming import (
    DICE_LIKE,
    fold,
    module_problem,
    name_problem,
    words_of,
)
from ..lang.nodes import walk
from ..runtime.dice import (
    Dice,
    DiceSyntaxError,
    parse_dice,
)
from .contents import (
    group_rules,
    source_part,
)
from .declared import declared
from .house_guard import unmerged
from .loader import SourceFile
from .model import (
    HOUSE_SECTION,
    CellValue,
    Column,
    EnumMember,
    EnumType,
    Erratum,
    Example,
    Loc,
    Name,
    NotModelled,
    Param,
    Rolls,
    Row,
    Rule,
    Ruling,
    System,
)
from .scope import (
    declared_class,
    param_spec,
    record_type_of,
    uncalled,
)

T = TypeVar("T")
R = TypeVar("R")


class KindHooks(Protocol):
    """What building a system asks of a rule kind: the hooks of
    ``compiler.kinds.base.Kind`` it calls (stated here, as the kinds' hooks name
    this module's builder, so neither module imports the other's type)."""

    @property
    def callable(self) -> bool: ...

    def build(
        self,
        b: SystemBuilder,
        src: SourceFile,
        path: Path,
        raw: dict[str, Any],
        common: dict[str, Any],
        /,
    ) -> Any: ...

    def finish(self, b: SystemBuilder, rules: Sequence[Any], /) -> None: ...

    def enums(self, rule: Any, /) -> Sequence[EnumType]: ...

    def scope(
        self, rule: Any, /
    ) -> expr.Table | expr.Function | expr.DieFaces | None: ...

    def rolls(self, rule: Any, /) -> Rolls | None: ...

    @property
    def lower(self) -> Callable[[System, Any], Unit]: ...


def build_system(
    system_src: SourceFile,
    rule_srcs: Iterable[SourceFile],
    kinds: Mapping[str, KindHooks],
) -> System:
    """Build one system's model with the given kinds (the registry's, in build
    order); raise ``RulesError`` with every problem found. A system of house
    rules is built from its merged copy (``house.extend``)."""
    rule_srcs = list(rule_srcs)
    if problems := unmerged(system_src, rule_srcs):
        raise RulesError(problems)
    return SystemBuilder(system_src, kinds).build(rule_srcs)


def in_output_order(rules: list[Rule], uses: Mapping[str, set[str]]) -> list[Rule]:
    """The rules in file order, except that the rules a rule uses come before it
    (its module-level data may name their classes). Uses point at rules built
    earlier, so there is no cycle; the walk keeps its own stack, not Python's."""
    by_id = {rule.id: rule for rule in rules}
    order = {rule.id: index for index, rule in enumerate(rules)}
    placed: list[Rule] = []
    done: set[str] = set()
    visiting: set[str] = set()
    for rule in rules:
        stack = [(rule.id, False)]
        while stack:
            rule_id, ready = stack.pop()
            if rule_id in done:
                continue
            if ready:
                done.add(rule_id)
                placed.append(by_id[rule_id])
                continue
            if rule_id in visiting:
                continue
            visiting.add(rule_id)
            stack.append((rule_id, True))
            used = sorted(
                uses.get(rule_id, set()) & by_id.keys() - done, key=order.__getitem__
            )
            stack += [(u, False) for u in reversed(used)]
    return placed


def fingerprint(data: Any) -> str:
    """A stable digest of a rule's data, to tell which rules changed."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _written(src: SourceFile, path: Path) -> object:
    """The value written at ``path`` of ``src`` (None where there is none)."""
    node: Any = src.data
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node


class SystemBuilder:
    def __init__(self, system_src: SourceFile, kinds: Mapping[str, KindHooks]) -> None:
        self.system_src = system_src
        self.kinds = kinds  # the registry's kinds, in build order
        self.errors: list[Diagnostic] = []
        meta = system_src.data
        self.system_id: str = meta["system"]
        self.rounding = meta["rounding"]
        self.notation = meta["dice_notation"]
        self.names: dict[str, tuple[SourceFile, Path]] = {}  # module-level names
        self.given: list[
            Name
        ] = []  # every name the rules give, for compiler.emit.emitted
        self.rule_ids: dict[str, tuple[SourceFile, Path]] = {}
        self.built: dict[str, Rule] = {}  # rules built so far, for references
        # what each built rule is to an expression, worked out once a rule
        self._seen: dict[
            str, tuple[Rule, expr.Table | expr.Function | expr.DieFaces | None]
        ] = {}
        # the record type (or state class) each built rule declares, if any
        self._types: dict[str, tuple[Rule, expr.RecordType | None]] = {}
        # Rules (and the names they define) that failed: references to them are
        # not reported again, so one mistake gives one error.
        self.failed: set[str] = set()
        # Each time unit's length in minutes, and its name for one of it where
        # the system gives one (time_units in system.yaml).
        self.time_units: dict[str, int] = {}
        self.time_unit_singular: dict[str, str] = {}
        for unit, spec in meta.get("time_units", {}).items():
            if isinstance(spec, dict):
                self.time_units[unit] = int(spec["minutes"])
                if "singular" in spec:
                    self.time_unit_singular[unit] = str(spec["singular"])
            else:
                self.time_units[unit] = int(spec)
        self.built_order: list[tuple[int, Rule]] = []
        self.placed: dict[str, tuple[SourceFile, Path, dict[str, Any]]] = {}
        self.attempted: set[int] = set()
        self.building: list[str] = []  # rule ids being built, outermost first
        # For each rule being built, its longest chain of calls so far (the
        # length, the rule called first on it); for each rule built, its chain's
        # length and next step (limits.MAX_CALL_CHAIN).
        self.reach: list[tuple[int, str | None]] = []
        self.depth: dict[str, int] = {}
        self.longest: dict[str, str] = {}

        # The rules each rule's outputs use (its table, an enum it shares...):
        # the generated modules define those first (``in_output_order``).
        self.uses: dict[str, set[str]] = {}
        self.callable: dict[str, tuple[int, SourceFile, Path, dict[str, Any]]] = {}
        # the functions of rules an expression cannot call, each with why
        self.uncallable: dict[str, str] = {}
        # the rules that declare a record type (or a state class), by class
        self.typed: dict[str, tuple[int, SourceFile, Path, dict[str, Any]]] = {}
        # The wrong declarations of the rule being built that break their uses
        # (a parameter named like a table, one that failed): name -> the index of
        # its error in self.errors, which lists each use as a note.
        self.declared: dict[str, int] = {}
        # The names refused as they read as dice notation: their uses are no
        # errors of their own.
        self.dice_like: set[str] = set()
        # The exact distributions each file's dice need, counted before any is
        # worked out (limits.MAX_FILE_DICE_WORK).
        self.dice_budget = Budget(MAX_FILE_DICE_WORK)
        self.budgets: dict[str, Budget] = {}  # the kinds' own, by name
        self.allowances: dict[str, Allowance] = {}  # the kinds', for the system

    # -- plumbing --------------------------------------------------------------

    def budget(self, name: str, most: int) -> Budget:
        """A kind's budget of work per rules file (see limits.Budget), by name."""
        return self.budgets.setdefault(name, Budget(most))

    def allowance(self, name: str, most: int) -> Allowance:
        """A kind's allowance of work for the whole system (limits.Allowance), by name."""
        return self.allowances.setdefault(name, Allowance(most))

    def err(
        self,
        src: SourceFile,
        path: Path,
        message: str,
        hint: str | None = None,
        *,
        key: bool = False,
        span: tuple[str, int, int] | None = None,
        notes: tuple[str, ...] = (),
    ) -> None:
        """Report an error at ``path`` (see ``SourceFile.error`` for ``span``)."""
        self.errors.append(
            src.error(path, message, hint, key=key, span=span, notes=notes)
        )

    def loc(self, src: SourceFile, path: Path) -> Loc:
        line, col = src.where(path)
        return Loc(src.path, line, col)

    def claim(self, src: SourceFile, path: Path, name: str, what: str) -> None:
        """Reserve a module-level Python name, reporting clashes and bad names."""
        if not self.good_name(src, path, name, what):
            return
        if name in self.names:
            other, other_path = self.names[name]
            line, _ = other.where(other_path)
            self.err(
                src,
                path,
                f"{what} {name!r} is already used (at {other.path}:{line})",
                "choose another name",
            )
            if _written(src, path) != name and _written(other, other_path) == name:
                # this one is made from its name: say so where the name is written
                here, _ = src.where(path)
                self.err(
                    other,
                    other_path,
                    f"{what} {name!r} is also made from the name at {src.path}:{here}",
                    "choose another name",
                )
            return
        self.names[name] = (src, path)
        self.given.append(
            Name(name, what, "module", self.loc(src, path), pointer(path))
        )

    def local_name(self, src: SourceFile, path: Path, name: str, what: str) -> bool:
        """Check a name inside a generated function or class (a parameter, a
        field, a member); False, with the error reported, when it cannot be one."""
        if not self.good_name(src, path, name, what):
            return False
        self.given.append(Name(name, what, "local", self.loc(src, path), pointer(path)))
        return True

    def good_name(self, src: SourceFile, path: Path, name: str, what: str) -> bool:
        """Whether the rules may give ``name`` (else the error, at it). A name
        that reads as dice notation is refused here only: its uses in
        expressions are not errors of their own (one cause, one error)."""
        problem = name_problem(name)
        if problem is None:
            return True
        if DICE_LIKE.match(name):
            self.dice_like.add(name)
            hint = "choose a name that does not start with d and a digit"
        else:
            hint = "choose another name"
        self.err(src, path, f"{what} {problem}", hint)
        return False

    # -- the system ------------------------------------------------------------

    def build(self, rule_srcs: list[SourceFile]) -> System:
        folder = self.system_src.path.rsplit("/", 2)[-2]
        if self.system_id != folder:
            self.err(
                self.system_src,
                ("system",),
                f"system id {self.system_id!r} does not match its folder {folder!r}",
                f"write system: {folder}",
            )
        problem = module_problem(self.system_id)
        if problem:
            self.err(self.system_src, ("system",), f"system id {problem}")
        pending: list[tuple[int, int, SourceFile, Path, dict[str, Any]]] = []
        for src in rule_srcs:
            if src.data["system"] != self.system_id:
                self.err(
                    src,
                    ("system",),
                    f"file says system {src.data['system']!r} but is in the folder of {self.system_id!r}",
                    f"write system: {self.system_id}",
                )
            for index, raw in enumerate(src.data["rules"]):
                pending.append((len(pending), index, src, ("rules", index), raw))
        # Rules that refer to others are built after them; output keeps file order.
        # A rule whose expressions call another rule of a later kind builds that
        # one first (see require); a cycle of calls is an error.
        built: list[tuple[int, Rule]] = self.built_order
        self.callable = {
            raw["function"]: (order, src, path, raw)
            for order, _, src, path, raw in pending
            if raw.get("kind") in self.kinds
            and self.kinds[raw["kind"]].callable
            and isinstance(raw.get("function"), str)
        }
        self.uncallable = {
            raw["function"]: why
            for _, _, _, _, raw in pending
            if isinstance(raw.get("function"), str)
            and (why := uncalled(raw, self.kinds)) is not None
        }
        self.typed = {
            name: (order, src, path, raw)
            for order, _, src, path, raw in pending
            if isinstance(name := declared_class(raw), str)
        }
        order_of = {name: index for index, name in enumerate(self.kinds)}
        for order, _, src, path, raw in sorted(
            pending, key=lambda p: (order_of[p[4]["kind"]], p[0])
        ):
            self.build_once(order, src, path, raw)
        rules = in_output_order(
            [rule for _, rule in sorted(built, key=lambda item: item[0])], self.uses
        )
        for kind in self.kinds.values():
            kind.finish(self, rules)
        meta = self.system_src.data
        left_out = self.unique(
            self.system_src,
            (),
            "not_modelled",
            meta,
            lambda n: NotModelled(n["id"], n["summary"], n["reason"]),
        )
        contents = group_rules(self, self.system_src, rules)
        if self.errors:
            raise RulesError(self.errors)
        system = System(
            id=self.system_id,
            title=meta["title"],
            summary=meta["summary"],
            source_file=meta.get("source", {}).get("file", ""),
            source_work=meta.get("source", {}).get("work", ""),
            rounding=self.rounding,
            dice_notation=self.notation,
            files=tuple(src.path for src in rule_srcs),
            rules=tuple(rules),
            enums=tuple(e for rule in rules for e in self.kinds[rule.kind].enums(rule)),
            rolls=tuple(
                (rule.id, rolls)
                for rule in rules
                if (rolls := self.kinds[rule.kind].rolls(rule)) is not None
            ),
            loc=self.loc(self.system_src, ("system",)),
            names=tuple(self.given),
            not_modelled=left_out,
            source_part=source_part(meta.get("source", {})),
            contents=contents,
        )
        prove_rules(self.err, system, self.placed, self.lowering)  # their arithmetic
        if self.errors:
            raise RulesError(self.errors)
        return system

    def lowering(self, system: System, rule: Rule) -> Unit:
        """``rule`` lowered to the core by its kind."""
        return lowered_with(system, rule, self.kinds[rule.kind].lower)

    def build_once(
        self, order: int, src: SourceFile, path: Path, raw: dict[str, Any]
    ) -> None:
        if order in self.attempted:
            return
        self.attempted.add(order)
        self.building.append(raw["id"])
        self.reach.append((0, None))
        outer, self.declared = self.declared, {}
        try:
            rule = self.rule(src, path, raw)
        finally:
            self.building.pop()
            depth, step = self.reach.pop()
            self.depth[raw["id"]] = depth + 1
            if step is not None:
                self.longest[raw["id"]] = step
            self.declared = outer
        if rule is not None:
            self.built_order.append((order, rule))
            self.placed[rule.id] = (src, path, raw)

    def require(self, src: SourceFile, path: Path, names: Iterable[str]) -> bool:
        """Build the rules an expression calls (or whose record types or
        states it makes) first; False on a cycle of calls."""
        for name in sorted(names):
            entry = self.callable.get(name) or self.typed.get(name)
            if entry is None:
                continue
            order, csrc, cpath, craw = entry
            if craw["id"] in self.building:
                cycle = self.building[self.building.index(craw["id"]) :]
                self.err(
                    src,
                    path,
                    "a cycle of rules calling each other: "
                    + " -> ".join([*cycle, craw["id"]]),
                    "a rule cannot depend on itself, even through other rules",
                )
                self.failed.add(craw["id"])
                return False
            if order not in self.attempted and len(self.building) >= MAX_CALL_CHAIN:
                self.chain_too_long(src, path, [*self.building, craw["id"]])
                return False
            self.build_once(order, csrc, cpath, craw)
            if craw["id"] in self.failed:  # reported where it failed
                return False
            depth = self.depth.get(craw["id"], 1)
            if len(self.building) + depth > MAX_CALL_CHAIN:
                self.chain_too_long(
                    src, path, [*self.building, *self.chain(craw["id"])]
                )
                return False
            if depth > self.reach[-1][0]:
                self.reach[-1] = (depth, craw["id"])
        return True

    def chain(self, rule_id: str) -> list[str]:
        """The longest chain of calls from ``rule_id``, itself first."""
        chain = [rule_id]
        while (step := self.longest.get(chain[-1])) is not None:
            chain.append(step)
        return chain

    def chain_too_long(self, src: SourceFile, path: Path, chain: list[str]) -> None:
        shown = " -> ".join([*chain[:3], "…", *chain[-2:]])
        self.err(
            src,
            path,
            f"a chain of {len(chain)} rules calling each other ({shown}): "
            f"at most {MAX_CALL_CHAIN} in a chain (a limit of rulesc)",
            "call the rules at the end of the chain from fewer steps away, "
            "or write their expressions into one",
        )

    def ladders(self) -> dict[str, expr.Ladder]:
        """Every ordered enum of the system built so far, as expressions step along it."""
        return {
            enum.name: expr.Ladder(
                enum.name, tuple(m.label for m in enum.members), enum.past_end
            )
            for rule in self.built.values()
            for enum in self.kinds[rule.kind].enums(rule)
            if enum.ordered
        }

    def record_types(self) -> dict[str, expr.RecordType]:
        """Every record type and state class of the rules built so far, by class."""
        found: dict[str, expr.RecordType] = {}
        for rule in self.built.values():
            known = self._types.get(rule.id)
            if known is None or known[0] is not rule:
                known = (rule, record_type_of(rule))
                self._types[rule.id] = known
            if known[1] is not None:
                found[known[1].name] = known[1]
        return found

    def record_type(
        self,
        src: SourceFile,
        path: Path,
        name: str,
        *,
        state: bool = False,
        declared: bool = False,
    ) -> expr.RecordType | None:
        """The record type (``state``: the state class) ``name`` the rules
        declare, built first where it is declared later; None where there is
        none (reported) or it failed (reported where it did)."""
        if name in self.typed and not self.require(src, path, [name]):
            return None
        found = self.record_types().get(name)
        if found is None:
            entry = self.typed.get(name)
            if name in self.failed or (entry and entry[3]["id"] in self.failed):
                return None
            what = "state with fields" if state else "record type"
            known = sorted(
                n for n, t in self.record_types().items() if t.state == state
            )
            close = difflib.get_close_matches(name, known, n=1)
            hint = (
                f"did you mean {close[0]!r}?"
                if close
                else (
                    f"{what}s: {', '.join(known)}"
                    if known
                    else f"declare the {what} first"
                )
            )
            self.err(src, path, f"no {what} {name!r} in this system", hint)
            return None
        if found.state != state:
            what = "a state" if found.state else "a record type"
            key = "state" if found.state else "record"
            self.err(
                src,
                path,
                f"{name!r} is {what}",
                f"write type: {key}, {key}: {name}",
            )
            return None
        rule = self.built.get(found.rule)
        if declared and not state and getattr(rule, "kind", "record") != "record":
            self.err(
                src,
                path,
                f"{name!r} is what a rule of cases answers: a record a parameter "
                "or a record type holds is one a record rule declares",
                f"declare {name} with kind: record, and answer it with result: {name}",
            )
            return None
        if found.rule:
            self.use(found.rule)
        return found

    def expression_scope(
        self,
    ) -> tuple[dict[str, expr.Table], dict[str, expr.Function]]:
        """What an expression may call: the tables, and the other rules built so far
        (each kind says what its rules are to an expression)."""
        tables: dict[str, expr.Table] = {}
        functions: dict[str, expr.Function] = {}
        for rule in self.built.values():
            seen = self.seen(rule)
            if isinstance(seen, expr.Table):
                tables[seen.name] = seen
            elif isinstance(seen, expr.Function):
                functions[seen.name] = seen
        return tables, functions

    def dies(self) -> dict[str, expr.DieFaces]:
        """The dice of the rules' own built so far, by the name ``d(name)``
        rolls them by (each kind says what its rules are to an expression)."""
        found: dict[str, expr.DieFaces] = {}
        for rule in self.built.values():
            seen = self.seen(rule)
            if isinstance(seen, expr.DieFaces):
                found[seen.name] = seen
        return found

    def rule(self, src: SourceFile, path: Path, raw: dict[str, Any]) -> Rule | None:
        rule_id = raw["id"]
        if rule_id in self.rule_ids:
            other, other_path = self.rule_ids[rule_id]
            self.err(
                src,
                (*path, "id"),
                f"duplicate rule id {rule_id!r} "
                f"({self.first_at(src, other, other_path, (*path, 'id'))})",
                "rule ids must be unique in a system",
            )
            return None
        self.rule_ids[rule_id] = (src, (*path, "id"))
        before = len(self.errors)
        common: dict[str, Any] = {
            "system": self.system_id,
            "id": rule_id,
            "title": raw["title"],
            "summary": raw["summary"],
            "section": raw.get("source", {}).get("section", HOUSE_SECTION),
            "source_note": raw.get("source", {}).get("note"),
            "rulings": self.unique(
                src,
                path,
                "rulings",
                raw,
                lambda r: Ruling(r["id"], r.get("question"), r["ruling"], r["reason"]),
            ),
            "errata": self.unique(src, path, "errata", raw, _erratum),
            "loc": self.loc(src, path),
            "fingerprint": fingerprint(raw),
        }
        names_before = set(self.names)
        rule: Rule | None = self.kinds[raw["kind"]].build(self, src, path, raw, common)
        if len(self.errors) > before or rule is None:
            self.failed |= {rule_id, *(set(self.names) - names_before)}
            return None
        self.built[rule.id] = rule
        return rule

    def expr_error(
        self, src: SourceFile, path: Path, text: str, exc: expr.ExprError, what: str
    ) -> None:
        """Report an expression error at the offending part of it."""
        span = (text, exc.start, exc.end)
        self.err(src, path, f"{what}: {exc.message}", exc.hint, span=span)

    def interval(self, src: SourceFile, path: Path, raw: dict[str, Any]) -> int | None:
        """A length of time in minutes, from an amount and a system time unit."""
        per = self.time_units.get(raw["unit"])
        if per is None:
            units = ", ".join(sorted(self.time_units)) or "none yet"
            self.err(
                src,
                (*path, "unit"),
                f"unknown time unit {raw['unit']!r}",
                f"units of this system (time_units in system.yaml): {units}",
            )
            return None
        return int(raw["amount"]) * per

    def duration_text(self, raw: dict[str, Any]) -> str:
        """An amount of a time unit in words: "2 hours", and "1 hour" where the
        system gives the unit's singular (else "1 hours", the unit as named)."""
        amount, unit = int(raw["amount"]), str(raw["unit"])
        if amount == 1 and unit in self.time_unit_singular:
            return f"1 {self.time_unit_singular[unit]}"
        return f"{amount} {unit}"

    def every_text(self, raw: dict[str, Any]) -> str:
        """An interval in words: "every 2 hours", and "every hour" where the
        system gives the unit's singular."""
        if int(raw["amount"]) == 1 and raw["unit"] in self.time_unit_singular:
            return f"every {self.time_unit_singular[raw['unit']]}"
        return f"every {self.duration_text(raw)}"

    def use(self, rule_id: str) -> None:
        """Note that the rule being built uses the rule ``rule_id`` (so its
        outputs come after those of that rule)."""
        if self.building and rule_id != self.building[-1]:
            self.uses.setdefault(self.building[-1], set()).add(rule_id)

    def reference(
        self, src: SourceFile, path: Path, rule_id: str, kind: type[R], what: str
    ) -> R | None:
        """The rule ``rule_id`` refers to, which must be of ``kind``."""
        found = self.built.get(rule_id)
        if isinstance(found, kind):
            self.use(rule_id)
            return found
        if rule_id in self.failed:
            return None
        if found is not None:
            self.err(src, path, f"{rule_id!r} is a {found.kind} rule, not {what}")
            return None
        close = difflib.get_close_matches(rule_id, list(self.built), n=1)
        hint = f"did you mean {close[0]!r}?" if close else f"name {what} of this system"
        self.err(src, path, f"unknown rule {rule_id!r}", hint)
        return None

    def unique(
        self,
        src: SourceFile,
        path: Path,
        field: str,
        raw: dict[str, Any],
        make: Callable[[dict[str, Any]], T],
    ) -> tuple[T, ...]:
        seen: dict[str, int] = {}
        items = []
        for index, item in enumerate(raw.get(field, [])):
            if item["id"] in seen:
                first = self.first_at(
                    src,
                    src,
                    (*path, field, seen[item["id"]], "id"),
                    (*path, field, index, "id"),
                )
                self.err(
                    src,
                    (*path, field, index, "id"),
                    f"duplicate id {item['id']!r} in {field} ({first})",
                )
            seen.setdefault(item["id"], index)
            items.append(make(item))
        return tuple(items)

    # -- enums -----------------------------------------------------------------

    def enum(
        self,
        src: SourceFile,
        path: Path,
        class_name: str,
        members: list[dict[str, str]],
        ordered: bool,
        *,
        name_at: Path | None = None,
        members_at: Path | None = None,
    ) -> EnumType:
        """The enum ``class_name`` (written at ``name_at``, else at ``path``/enum)
        with ``members`` (written at ``members_at``, else at ``path``/members,
        unless derived)."""
        self.claim(src, name_at or (*path, "enum"), class_name, "enum class")
        names: dict[str, int] = {}
        labels: dict[str, int] = {}
        result = []
        listed = members_at or (*path, "members")
        for index, member in enumerate(members):
            mpath = (*listed, index)
            name, label = member["name"], member["label"]
            if name in names:
                fpath = (*listed, names[name])
                if members[names[name]]["label"] == label:  # the same member twice
                    first = self.first_at(src, src, fpath, mpath)
                    self.err(src, mpath, f"duplicate member {name!r} ({first})")
                    continue
                first = self.first_at(src, src, (*fpath, "name"), (*mpath, "name"))
                self.err(
                    src, (*mpath, "name"), f"duplicate member name {name!r} ({first})"
                )
            self.local_name(src, (*mpath, "name"), name, "member name")
            if not label.strip():
                self.err(
                    src,
                    (*mpath, "label"),
                    "a label cannot be empty or only spaces",
                    "write the label the source uses",
                )
            elif label != label.strip():
                self.err(
                    src,
                    (*mpath, "label"),
                    f"label {label!r} has spaces around it",
                    f"write {label.strip()!r}: callers would have to match the spaces",
                )
            # The runtime looks labels up by casefold(); NFKC folding also catches
            # look-alikes such as full-width letters and ligatures.
            folds = (fold(label), label.casefold())
            clash = next((labels[f] for f in folds if f in labels), None)
            if clash is not None:
                first = members[clash]["label"]
                at = self.first_at(
                    src, src, (*listed, clash, "label"), (*mpath, "label")
                )
                if first == label:
                    self.err(
                        src,
                        (*mpath, "label"),
                        f"duplicate label {label!r} ({at})",
                        "each member has a label of its own",
                    )
                else:
                    folded = (
                        "case is"
                        if label.casefold() == first.casefold()
                        else "case and Unicode are"
                    )
                    self.err(
                        src,
                        (*mpath, "label"),
                        f"label {label!r} is the same as {first!r} once {folded} "
                        f"folded ({at})",
                        "labels must differ by more than case or Unicode form",
                    )
            names.setdefault(name, index)
            for folded in folds:
                labels.setdefault(folded, index)
            result.append(EnumMember(name, label))
        return EnumType(class_name, tuple(result), ordered, self.loc(src, path))

    # -- tables ----------------------------------------------------------------

    def table(
        self, src: SourceFile, path: Path, raw: dict[str, Any], common: dict[str, Any]
    ) -> TableRule:
        key = raw["key"]
        self.claim(src, (*path, "function"), raw["function"], "function")
        enum = self.enum(
            src, (*path, "key"), key["enum"], key["members"], key.get("ordered", False)
        )
        if "past_end" in key:
            if not enum.ordered:
                self.err(
                    src,
                    (*path, "key", "past_end"),
                    "only an ordered key can be stepped along",
                    "add ordered: true",
                    key=True,
                )
            enum = replace(enum, past_end=key["past_end"])
        self.claim(src, (*path, "row"), raw["row"], "row class")
        columns = self.columns(src, path, raw["columns"])
        seen = {c.name for c in columns}
        self.local_name(src, (*path, "key", "param"), key["param"], "parameter name")
        if key["param"] in seen:
            self.err(
                src,
                (*path, "key", "param"),
                f"key parameter {key['param']!r} is also a column name",
            )
        rows = self.rows(src, (*path, "rows"), raw["rows"], enum, columns)
        rolls = None
        if "rolls" in raw:
            spec = raw["rolls"]
            names = [c.name for c in columns]
            dice = self.dice(src, (*path, "rolls", "dice"), spec["dice"], None)
            if (
                spec["column"] not in names
                or columns[names.index(spec["column"])].type != "range"
            ):
                self.err(
                    src,
                    (*path, "rolls", "column"),
                    f"{spec['column']!r} is not a range column of this table",
                )
            elif dice is not None:
                self.claim(
                    src, (*path, "rolls", "function"), spec["function"], "function"
                )
                self.check_roll_cover(
                    src, path, rows, names.index(spec["column"]), dice
                )
                rolls = TableRoll(spec["function"], spec["column"], dice)
        examples = self.examples(
            src,
            path,
            raw,
            {key["param"]},
            roll_columns={c.name for c in columns if c.type == "dice"},
        )
        return TableRule(
            **common,
            examples=examples,
            function=raw["function"],
            key_param=key["param"],
            key_title=key["title"],
            enum=enum,
            row_class=raw["row"],
            columns=tuple(columns),
            rows=rows,
            rolls=rolls,
        )

    def columns(
        self,
        src: SourceFile,
        path: Path,
        raw_columns: list[dict[str, Any]],
        key: str = "columns",
    ) -> list[Column]:
        """The columns of a table, with their names checked."""
        columns = []
        seen: dict[str, int] = {}
        for index, col in enumerate(raw_columns):
            if col["name"] in seen:
                first = self.first_at(
                    src,
                    src,
                    (*path, key, seen[col["name"]], "name"),
                    (*path, key, index, "name"),
                )
                self.err(
                    src,
                    (*path, key, index, "name"),
                    f"duplicate column {col['name']!r} ({first})",
                )
            else:
                self.local_name(
                    src, (*path, key, index, "name"), col["name"], "column name"
                )
            seen.setdefault(col["name"], index)
            columns.append(
                Column(
                    name=col["name"],
                    type=col["type"],
                    nullable=col.get("nullable", False),
                    null_label=col.get("null_label", "—"),
                    signed=col.get("signed", False),
                    unit=col.get("unit"),
                    title=col["title"],
                    description=col.get("description"),
                )
            )
        return columns

    def cells(
        self,
        src: SourceFile,
        rpath: Path,
        raw: dict[str, Any],
        columns: list[Column],
        what: str,
        key_fields: frozenset[str] = frozenset({"key"}),
    ) -> tuple[CellValue, ...]:
        """One row's cells, in column order; unknown and missing cells reported."""
        names = [c.name for c in columns]
        meant = set()  # columns an unknown cell is a misspelling of: said once
        for extra in sorted(raw.keys() - {*key_fields, *names}):
            close = difflib.get_close_matches(extra, [*names, *sorted(key_fields)], n=1)
            if close and close[0] in names and close[0] not in raw:
                meant.add(close[0])
            self.err(
                src,
                (*rpath, extra),
                f"unknown column {extra!r}",
                f"did you mean {close[0]!r}?"
                if close
                else "columns: " + ", ".join(names),
                key=True,
            )
        cells: list[CellValue] = []
        for col in columns:
            if col.name not in raw:
                if col.name in meant:
                    cells.append(None)
                    continue
                self.err(
                    src,
                    rpath,
                    f"{what} has no value for column {col.name!r}",
                    f"add '{col.name}:' (null where the source says N/A)"
                    if col.nullable
                    else f"add '{col.name}:'",
                )
                cells.append(None)
                continue
            cells.append(self.cell(src, (*rpath, col.name), raw[col.name], col))
        return tuple(cells)

    def rows(
        self,
        src: SourceFile,
        path: Path,
        raw_rows: list[dict[str, Any]],
        enum: EnumType,
        columns: list[Column],
    ) -> tuple[Row, ...]:
        by_label = {m.label: m for m in enum.members}
        found: dict[str, Row] = {}
        first_row: dict[str, int] = {}
        for index, raw in enumerate(raw_rows):
            rpath = (*path, index)
            label = raw["key"]
            member = by_label.get(label)
            if member is None:
                close = difflib.get_close_matches(label, list(by_label), n=1)
                hint = (
                    f"did you mean {close[0]!r}?"
                    if close
                    else "labels: " + ", ".join(repr(x) for x in by_label)
                )
                self.err(
                    src,
                    (*rpath, "key"),
                    f"row key {label!r} is not a label of {enum.name}",
                    hint,
                )
                continue
            if label in first_row:
                first = self.first_at(
                    src, src, (*path, first_row[label], "key"), (*rpath, "key")
                )
                self.err(
                    src,
                    (*rpath, "key"),
                    f"duplicate row {label!r} ({first})",
                    "each label has exactly one row",
                )
                continue
            first_row[label] = index
            cells = self.cells(src, rpath, raw, columns, f"row {label!r}")
            found[label] = Row(member, cells, self.loc(src, rpath))
        for member in enum.members:
            if member.label in found or any(r["key"] == member.label for r in raw_rows):
                continue
            self.err(
                src,
                path,
                f"no row for {member.label!r}",
                f"add a row with key: {member.label!r}",
                key=True,
            )
        return tuple(found[m.label] for m in enum.members if m.label in found)

    def cell(self, src: SourceFile, path: Path, value: Any, col: Column) -> CellValue:
        if value is None:
            if not col.nullable:
                self.err(
                    src,
                    path,
                    f"column {col.name!r} cannot be null",
                    "give a value, or mark the column nullable: true",
                )
            return None
        if col.type == "dice":
            unit = col.unit
            if isinstance(value, dict):
                extra = sorted(set(value) - {"dice", "unit"}, key=str)
                given = value.get("unit", unit)
                if "dice" not in value or extra or not isinstance(given, str | None):
                    self.err(
                        src,
                        (*path, extra[0]) if extra else path,
                        "a dice cell with its own unit is {dice: EXPRESSION, unit: UNIT}",
                        "write e.g. {dice: 2d6, unit: minutes}, or the expression alone",
                        key=bool(extra),
                    )
                    return None
                return self.dice(src, (*path, "dice"), value["dice"], given)
            return self.dice(src, path, value, unit)
        if col.type == "range":
            return self.range_cell(src, path, value, col)
        expected: dict[str, type[int | str | bool]] = {
            "int": int,
            "text": str,
            "bool": bool,
        }
        if type(value) is expected[col.type]:
            cell: int | str | bool = value
            return cell
        self.err(
            src, path, f"column {col.name!r} holds {col.type} values, not {value!r}"
        )
        return None

    def range_cell(
        self, src: SourceFile, path: Path, value: Any, col: Column
    ) -> tuple[int, int] | None:
        """A range cell: [low, high] (both included), or one number."""
        if type(value) is int:
            return (value, value)
        if (
            isinstance(value, list)
            and len(value) == 2
            and all(type(v) is int for v in value)
            and value[0] <= value[1]
        ):
            return (value[0], value[1])
        self.err(
            src,
            path,
            f"column {col.name!r} holds ranges, not {value!r}",
            "write [low, high] with low <= high, or a single number",
        )
        return None

    def check_roll_cover(
        self, src: SourceFile, path: Path, rows: tuple[Row, ...], index: int, dice: Dice
    ) -> None:
        """The rows' ranges in one column cover every result of ``dice`` exactly once.

        Worked out on the ranges' ends, never value by value: a range may be as
        wide as its numbers allow."""
        results = dice.max - dice.min + 1
        if results > MAX_ROLLED_RESULTS:
            self.err(
                src,
                (*path, "rolls", "dice"),
                f"{dice} can come to {results:,} results: a table's roll may come to "
                f"at most {MAX_ROLLED_RESULTS:,} (a limit of rulesc)",
                "the build writes a lookup of every result: roll fewer or smaller dice",
            )
            return
        earlier: list[tuple[int, int, Row]] = []
        for position, row in enumerate(rows):
            cell = row.cells[index]
            if not isinstance(cell, tuple):
                continue
            low, high = cell
            where = (*path, "rows", position)
            if low < dice.min or high > dice.max:
                outside = low if low < dice.min else max(low, dice.max + 1)
                self.err(
                    src,
                    where,
                    f"{row.key.label!r} covers {outside}, which {dice} cannot roll",
                )
            shared = [max(low, a) for a, b, _ in earlier if a <= high and low <= b]
            if shared:
                clash = min(shared)
                owner = next(r for a, b, r in earlier if a <= clash <= b)
                self.err(
                    src,
                    where,
                    f"{row.key.label!r} and {owner.key.label!r} both cover {clash}",
                    "each result of the roll belongs to one row",
                )
            earlier.append((low, high, row))
        missing: list[int] = []
        next_free = dice.min
        for low, high, _ in sorted(earlier, key=lambda e: e[0]):
            if low > next_free:
                missing += range(next_free, min(low, dice.max + 1, next_free + 8))
            next_free = max(next_free, high + 1)
        if next_free <= dice.max:
            missing += range(next_free, min(dice.max + 1, next_free + 8))
        if missing:
            shown = ", ".join(map(str, missing[:8]))
            self.err(
                src,
                (*path, "rolls"),
                f"no row covers {shown} of {dice}",
                "every result of the roll needs a row",
                key=True,
            )

    # -- dice ------------------------------------------------------------------

    def dice(
        self, src: SourceFile, path: Path, value: Any, unit: str | None
    ) -> Dice | None:
        if isinstance(value, bool) or not isinstance(value, int | str):
            self.err(
                src,
                path,
                f"{value!r} is not a dice expression",
                "write e.g. 2d6+1, or a whole number",
            )
            return None
        try:
            dice = parse_dice(str(value), unit, bare_d6=self.notation == "gurps")
        except DiceSyntaxError as exc:
            span = (str(value), exc.offset, exc.offset + 1)
            self.err(src, path, exc.message, exc.hint, span=span)
            return None
        if (problem := dice_problem(dice)) is not None:
            self.err(
                src, path, f"{dice} is more dice than rulesc works out exactly", problem
            )
            return None
        if not -MAX_EXACT <= dice.min <= dice.max <= MAX_EXACT:
            self.err(
                src,
                path,
                f"{dice} may roll {dice.min:,} to {dice.max:,}: past {MAX_EXACT:,} "
                "(2**53 - 1), the largest whole number both runtimes hold exactly",
                "use a smaller multiplier or modifier",
            )
            return None
        total = self.dice_budget.spend(src.path, str(dice), dice_work(dice))
        if total is not None:
            if self.dice_budget.first_refusal(src.path):
                self.err(
                    src,
                    path,
                    f"{dice} brings this file's dice to {total:,} dice x sums of exact "
                    f"distributions: at most {MAX_FILE_DICE_WORK:,} a file (a limit of rulesc)",
                    "every distinct dice expression is charted with its exact chances: "
                    "write fewer distinct large dice in one file",
                )
            return None
        return dice

    def dice_rule(
        self, src: SourceFile, path: Path, raw: dict[str, Any], common: dict[str, Any]
    ) -> DiceRule | None:
        self.claim(src, (*path, "constant"), raw["constant"], "constant")
        self.claim(src, (*path, "id"), raw["id"], "rule id")
        dice = self.dice(src, (*path, "dice"), raw["dice"], raw.get("unit"))
        examples = self.examples(src, path, raw, set(), roll_columns=set())
        if dice is None:
            return None
        return DiceRule(
            **common, examples=examples, constant=raw["constant"], dice=dice
        )

    # -- formulas --------------------------------------------------------------

    def formula(
        self, src: SourceFile, path: Path, raw: dict[str, Any], common: dict[str, Any]
    ) -> FormulaRule | None:
        self.claim(src, (*path, "function"), raw["function"], "function")
        params: list[Param] = []
        specs: dict[str, expr.Param] = {}
        self.param_order(src, path, raw["parameters"])
        for index, p in enumerate(raw["parameters"]):
            param = self.param(src, (*path, "parameters", index), p, specs)
            if param is not None:
                params.append(param)
                specs[param.name] = param_spec(param)
        lets, scope = self.lets(src, path, raw.get("let", []), specs)
        if lets is None:
            return None
        if "cases" in raw:
            composed = self.formula_cases(src, path, raw["cases"], scope)
            if composed is None:
                return None
            text, epath = composed, (*path, "cases")
        else:
            text, epath = raw["expression"], (*path, "expression")
        ok, checked = self.compile_expression(
            src, epath, text, scope, "formula", rolls=True
        )
        if not ok:
            return None
        if checked is not None:
            if problem := expr.fits(checked, expr.Field("int")):
                self.err(
                    src,
                    epath,
                    f"the formula {problem}",
                    "a formula must always give a whole number",
                )
            elif "unbounded_because" not in raw and (
                checked.interval is None
                or checked.interval.lo is None
                or checked.interval.hi is None
            ):
                self.err(
                    src,
                    epath,
                    f"the formula's result is unbounded ({checked.interval})",
                    "bound it with clamp(x, lo, hi), give its parameters min and max, "
                    "or say why the source sets no limit in unbounded_because",
                )
            nodes = [checked.node, *(let.checked.node for let in lets)]
            self.odds_follow(src, epath, nodes, "formula")
            used = self.unused_lets(src, path, raw, lets, [checked.node])
            unused = set(specs) - used
            for name in sorted(unused):
                index = next(
                    i for i, p in enumerate(raw["parameters"]) if p["name"] == name
                )
                self.err(
                    src,
                    (*path, "parameters", index, "name"),
                    f"parameter {name!r} is not used by the expression",
                    "remove it or use it",
                )
        examples = self.examples(
            src, path, raw, {p["name"] for p in raw["parameters"]}, roll_columns=set()
        )
        if checked is None:
            return None
        return FormulaRule(
            **common,
            examples=examples,
            function=raw["function"],
            unit=raw.get("unit"),
            params=tuple(params),
            expression=text,
            checked=checked,
            unbounded_because=raw.get("unbounded_because"),
            lets=lets,
        )

    def lets(
        self,
        src: SourceFile,
        path: Path,
        raw: list[dict[str, Any]],
        specs: Mapping[str, expr.Param],
        guards: dict[int, tuple[int, dict[str, expr.Param]]] | None = None,
    ) -> tuple[tuple[Let, ...] | None, dict[str, expr.Param]]:
        """A rule's ``let`` names, each checked in the scope of the parameters and
        the names before it; (None, ...) when one is wrong (reported). An item
        with no name is a guard (a decision's): ``guards`` gets, by its index,
        how many names come before it and the scope it is checked in."""
        scope = dict(specs)
        lets: list[Let] = []
        ok = True
        for index, item in enumerate(raw):
            at = (*path, "let", index)
            if "name" not in item and guards is not None:
                guards[index] = (len(lets), dict(scope))
                continue
            name = item["name"]
            if guard := next(
                (k for k in ("when", "then", "refuse") if k in item), None
            ):
                self.err(
                    src,
                    (*at, guard),
                    "a let item is a name and its value, or a guard: 'when:' "
                    "with 'then:' or 'refuse:'",
                    "write the guard as an item of its own, with no name",
                    key=True,
                )
                ok = False
                continue
            if name in scope:
                what = "a parameter" if name in specs else "a name bound before"
                self.err(
                    src,
                    (*at, "name"),
                    f"{name!r} is already {what}",
                    "choose another name",
                )
                ok = False
                continue
            if not self.local_name(src, (*at, "name"), name, "let name"):
                ok = False
                continue
            before = len(self.errors)
            _, checked = self.compile_expression(
                src, (*at, "value"), item["value"], scope, "let value", rolls=True
            )
            if checked is None:
                if len(self.errors) > before:  # its uses are notes of this error
                    self.declared.setdefault(name, before)
                ok = False
                continue
            if checked.type not in _LET_TYPES:
                self.declared.setdefault(name, len(self.errors))
                self.err(
                    src,
                    (*at, "value"),
                    f"a let value is a number, a flag, a label, a text, a list, a "
                    f"record or a state, not {expr.describe(checked)}",
                    None,
                )
                ok = False
                continue
            if checked.type == "list" and checked.item is None:
                self.declared.setdefault(name, len(self.errors))
                self.err(
                    src,
                    (*at, "value"),
                    "a let value that is always the empty list has no type of elements",
                    "write [] where a list of a known type meets it: joined "
                    "to one, or as a list field's or a list state value's value",
                )
                ok = False
                continue
            kind = checked.type if checked.type in ("bool", "choice") else "int"
            scope[name] = expr.Param(name, kind, bound=checked)
            lets.append(
                Let(
                    name,
                    item["value"],
                    checked,
                    item.get("description"),
                    self.loc(src, (*at, "name")),
                )
            )
        return (tuple(lets) if ok else None), scope

    def odds_follow(
        self, src: SourceFile, path: Path, nodes: Sequence[expr.Node], what: str
    ) -> bool:
        """Whether a rule's odds (derived from ``nodes``, where it rolls) can
        follow every rule it calls that rolls: each must have odds of its
        whole answer, or answer a record whose field is read right there
        (``name(args).field``); else a located error."""
        functions = self.expression_scope()[1]
        for node in nodes:
            read = {
                id(n.obj)
                for n in walk(node)
                if isinstance(n, expr.Attr) and isinstance(n.obj, expr.Call)
            }
            for call in walk(node):
                if not isinstance(call, expr.Call) or not call.rolls or not call.rule:
                    continue
                function = functions.get(call.func)
                if function is None or function.chances:
                    continue
                if function.fields is not None and id(call) in read:
                    continue  # the field's chances, from its private odds
                self.err(
                    src,
                    path,
                    f"the {what}'s odds would follow {call.func}(), which rolls and "
                    f"answers a {function.result.type}: its odds of that are not "
                    "worked out",
                    "call a rule that rolls and answers one value (a number, a "
                    "flag or a label), read one field of a record it answers "
                    "(name(args).field), or roll the dice here"
                    + ("" if what == "formula" else ", or remove 'odds'"),
                )
                return False
        return True

    def unused_lets(
        self,
        src: SourceFile,
        path: Path,
        raw: dict[str, Any],
        lets: tuple[Let, ...],
        nodes: Sequence[expr.Node],
    ) -> set[str]:
        """Report each let no expression after it reads (``nodes``: the rule's
        expressions besides its lets); the names all of them read."""
        used = set[str]().union(
            *(expr.names_used(n) for n in nodes),
            *(expr.names_used(let.checked.node) for let in lets),
        )
        for let in lets:
            if let.name not in used:
                index = next(
                    i for i, b in enumerate(raw["let"]) if b.get("name") == let.name
                )
                self.err(
                    src,
                    (*path, "let", index, "name"),
                    f"{let.name!r} is not used by the expressions after it",
                    "remove it or use it",
                )
        return used

    def compile_expression(
        self,
        src: SourceFile,
        path: Path,
        text: str,
        specs: Mapping[str, expr.Param],
        what: str,
        *,
        given: expr.Node | None = None,
        skip_failed: bool = False,
        rolls: bool = False,
    ) -> tuple[bool, expr.Checked | None]:
        """Check one expression of a rule in the system's scope, building the rules
        it calls first. (False, None) on a cycle of calls, (True, None) on a
        mistake in the expression, both reported; ``skip_failed`` leaves unreported
        a mistake that names a rule or parameter already reported."""
        if self.dice_like and self.dice_like & set(_WORD.findall(text)):
            return True, None  # reads a name refused where it is given
        try:
            called = expr.rules_called_in(text, {**self.callable, **self.typed})
        except expr.ExprError:
            called = frozenset()
        if not self.require(src, path, called):
            return False, None
        tables, functions = self.expression_scope()
        # A parameter named like a table is reported at the parameter (see
        # param); in the rule's expressions the name is the parameter's.
        tables = {name: table for name, table in tables.items() if name not in specs}
        self.note_uses(src, path, text)
        try:
            checked = expr.compile_formula(
                text,
                specs,
                tables=tables,
                functions=functions,
                ladders=self.ladders(),
                given=given,
                exact=True,
                others=self.uncallable,
                records=self.record_types(),
                dies=self.dies(),
            )
            if not rolls and (dice := expr.dice_in(checked.node)) is not None:
                rolled = expr.rolled_text(dice)
                message = (
                    f"only a formula's expression or a let value rolls dice: {rolled}"
                )
                hint = "bind the roll to a name with let, and read the name here (the function then takes the rng)"
                raise expr.ExprError(message, dice.start, dice.end, hint)
        except expr.ExprError as exc:
            culprit = _word_at(text, exc.start)
            if culprit in self.declared:
                return True, None  # a use of a wrong declaration, noted at it
            if not skip_failed or text[exc.start : exc.end] not in self.failed:
                self.expr_error(src, path, text, exc, what)
            return True, None
        return True, checked

    def note_uses(self, src: SourceFile, path: Path, text: str) -> None:
        """Add each use in ``text`` of a wrong declaration to its error, as a note."""
        if not self.declared:
            return
        try:
            tree = expr.parse(text)
        except expr.ExprError:
            return
        for node in walk(tree):
            if isinstance(node, expr.Name):
                name = node.name
            elif isinstance(node, expr.Call):
                name = node.func
            else:
                continue
            if name not in self.declared:
                continue
            found = src.inside(path, text, node.start, node.start + len(name))
            line, col = found[:2] if found else src.where(path)
            index = self.declared[name]
            first = self.errors[index]
            note = f"used at {src.path}:{line}:{col}"
            self.errors[index] = replace(first, notes=(*first.notes, note))

    def declaration_error(
        self, src: SourceFile, path: Path, name: str, message: str, hint: str
    ) -> None:
        """A wrong declaration of ``name``: one error at it, its uses as notes."""
        self.declared[name] = len(self.errors)
        self.err(src, path, message, hint)

    def formula_cases(
        self,
        src: SourceFile,
        path: Path,
        cases: list[dict[str, Any]],
        specs: dict[str, expr.Param],
    ) -> str | None:
        """A formula's cases as the one expression they make: ``then if when else
        ...``. Each part is checked on its own first, so an error is located at it."""
        ok = True
        parts: list[tuple[str, str]] = []
        for index, case in enumerate(cases):
            cpath = (*path, "cases", index)
            when, then = case["when"], str(case["then"])
            last = index == len(cases) - 1
            if last and when.strip() != "true":
                self.err(
                    src,
                    (*cpath, "when"),
                    'the last case must be when: "true"',
                    "it answers when no other case holds",
                )
                ok = False
            for key, text in (("when", when), ("then", then)):
                built, checked = self.compile_expression(
                    src, (*cpath, key), text, specs, f"case {key}"
                )
                if not built:
                    return None
                if checked is None:
                    ok = False
                    continue
                want = expr.Field("bool" if key == "when" else "int")
                if problem := expr.fits(checked, want):
                    self.err(
                        src,
                        (*cpath, key),
                        f"the case's {key} {problem.replace('the field is', 'it must give')}",
                        "a condition is true or false"
                        if key == "when"
                        else "a formula always gives a whole number",
                    )
                    ok = False
            parts.append((when, then))
        if not ok:
            return None
        text = f"({parts[-1][1]})"
        for when, then in reversed(parts[:-1]):
            text = f"({then}) if ({when}) else {text}"
        return text

    def param_order(
        self, src: SourceFile, path: Path, raw_params: list[dict[str, Any]]
    ) -> None:
        """Parameters without a default come before those with one, unless they
        are keyword-only (every one after the first keyword-only one is)."""
        defaulted: str | None = None
        for index, p in enumerate(raw_params):
            if p.get("keyword_only", False):
                return
            if "default" in p or "default_from" in p:
                defaulted = defaulted or p["name"]
            elif defaulted is not None:
                self.err(
                    src,
                    (*path, "parameters", index, "name"),
                    f"parameter {p['name']!r} has no default but comes after "
                    f"{defaulted!r}, which has one",
                    "give it a default, move it before the parameters with defaults, "
                    "or make it keyword_only: true",
                )

    def param(
        self,
        src: SourceFile,
        path: Path,
        p: dict[str, Any],
        seen: dict[str, expr.Param],
    ) -> Param | None:
        """One parameter; None, reported at it, when it cannot be one (its uses
        are then notes of that error, not errors of their own)."""
        name = p["name"]
        if name in seen:
            siblings = _node(src.data, path[:-1])
            first = next(i for i, q in enumerate(siblings) if q["name"] == name)
            self.err(
                src,
                (*path, "name"),
                f"duplicate parameter {name!r} "
                f"({self.first_at(src, src, (*path[:-1], first, 'name'), (*path, 'name'))})",
            )
            return None
        before = len(self.errors)
        param = self.new_param(src, path, p)
        if param is not None and isinstance(p.get("title"), str):
            param = replace(param, title=p["title"])
        if param is None and len(self.errors) > before:
            self.declared.setdefault(name, before)
        table = self.table_named(name)
        if param is not None and table is not None:
            self.declaration_error(
                src,
                (*path, "name"),
                name,
                f"parameter {name!r} has the name of a table "
                f"(at {table.file}:{table.line})",
                "rename the parameter: parameters, tables and functions share one "
                "namespace",
            )
        return param

    def seen(self, rule: Rule) -> expr.Table | expr.Function | expr.DieFaces | None:
        """What ``rule`` is to an expression (its kind's ``scope``), worked out
        once for each rule built."""
        found = self._seen.get(rule.id)
        if found is None or found[0] is not rule:
            found = (rule, self.kinds[rule.kind].scope(rule))
            self._seen[rule.id] = found
        return found[1]

    def table_named(self, name: str) -> Loc | None:
        """Where the table an expression reads as ``name`` is, if there is one."""
        for rule in self.built.values():
            seen = self.seen(rule)
            if isinstance(seen, expr.Table) and seen.name == name:
                return rule.loc
        return None

    def first_at(
        self, src: SourceFile, other: SourceFile, path: Path, here: Path
    ) -> str:
        """Where the first of a duplicate is, for the error at ``here`` of
        ``src``: 'first at line N' (and its column when on the same line),
        'first at FILE:N' in another file."""
        line, col = other.where(path)
        if other is not src:
            return f"first at {other.path}:{line}"
        if src.where(here)[0] == line:
            return f"first at line {line}, column {col}"
        return f"first at line {line}"

    def new_param(self, src: SourceFile, path: Path, p: dict[str, Any]) -> Param | None:
        name, kind = p["name"], p["type"]
        if not self.local_name(src, (*path, "name"), name, "parameter name"):
            return None
        if kind in ("text", "list", "record", "state"):
            return self.value_param(src, path, p)
        lo, hi = p.get("min"), p.get("max")
        one_of = self.one_of(src, path, p)
        if one_of:  # the values given are the range
            lo = min(one_of) if lo is None else lo
            hi = max(one_of) if hi is None else hi
        enum = None
        if p.get("nullable") and kind != "choice":
            self.err(src, (*path, "nullable"), "only a choice parameter can be null")
        if kind != "int" and (lo is not None or hi is not None):
            self.err(
                src,
                (*path, "min" if lo is not None else "max"),
                f"a {kind} parameter has no min or max",
            )
        if lo is not None and hi is not None and lo > hi:
            self.err(src, (*path, "min"), f"min {lo} is above max {hi}")
        owns_enum = True
        if kind == "mapping":
            return self.mapping_param(src, path, p)
        if kind == "choice":
            if "enum" not in p:
                self.err(src, path, "a choice parameter needs 'enum'")
                return None
            if "members" in p:
                enum = self.enum(src, path, p["enum"], p["members"], False)
            else:
                enum = self.find_enum(src, (*path, "enum"), p["enum"])
                owns_enum = False
                if enum is None:
                    return None
        elif "enum" in p or "members" in p:
            self.err(
                src,
                (*path, "enum" if "enum" in p else "members"),
                f"only a choice parameter has enum members, not an {kind} one",
                key=True,
            )
        default = p.get("default")
        if "default" in p:
            ok = {
                "int": type(default) is int
                and (lo is None or default >= lo)
                and (hi is None or default <= hi)
                and (not one_of or default in one_of),
                "bool": type(default) is bool,
                "choice": enum is not None
                and (
                    any(m.label == default for m in enum.members)
                    or (default is None and p.get("nullable", False))
                ),
            }[kind]
            if not ok:
                self.err(
                    src,
                    (*path, "default"),
                    f"default {default!r} is not a valid {kind} value for {name!r}",
                )
        return Param(
            name,
            kind,
            lo,
            hi,
            default,
            "default" in p,
            p["description"],
            enum,
            keyword_only=p.get("keyword_only", False),
            owns_enum=owns_enum,
            nullable=p.get("nullable", False),
            one_of=one_of,
        )

    def value_param(
        self, src: SourceFile, path: Path, p: dict[str, Any]
    ) -> Param | None:
        """A parameter that is a text, a list, a record or a state: its type
        as declared (``compiler/front/declared.py``); only a text takes a default."""
        owned: list[EnumType] = []
        found = declared(self, src, path, p, owned=owned)
        if owned:
            self.err(
                src,
                (*path, "members"),
                "a list parameter's labels are a set another rule defines",
                "name the enum of a choice another rule defines, without members",
                key=True,
            )
            return None
        if "default" in p and p["type"] != "text":
            self.err(
                src,
                (*path, "default"),
                f"a {p['type']} parameter has no default",
                "remove 'default': every call gives it",
                key=True,
            )
            return None
        if "default" in p and not isinstance(p["default"], str | None):
            self.err(src, (*path, "default"), "a text's default is a text")
            return None
        if found is None:
            return None
        column = found.column
        return Param(
            p["name"],
            p["type"],
            column.lo,
            column.hi,
            p.get("default"),
            "default" in p,
            p["description"],
            found.enum,
            keyword_only=p.get("keyword_only", False),
            owns_enum=False,
            nullable=column.nullable,
            spec=column,
        )

    def one_of(self, src: SourceFile, path: Path, p: dict[str, Any]) -> tuple[int, ...]:
        """The values an int parameter takes, one of which a call gives
        (``values: [4, 6, 8]``), ascending; none where it says none (a
        mapping's ``values`` names an enum; reported where it is wrong)."""
        given = p.get("values")
        if p["type"] == "mapping" or given is None:
            return ()
        at = (*path, "values")
        if p["type"] != "int" or not isinstance(given, list):
            self.err(
                src,
                at,
                f"only an int parameter lists its values, not a {p['type']} one",
                "remove values: (a mapping's values: names the enum it maps to)",
            )
            return ()
        found = tuple(sorted(set(given)))
        if len(found) < len(given):
            self.err(src, at, "a value is listed twice", "list each value once")
        lo, hi = p.get("min"), p.get("max")
        outside = [
            v
            for v in found
            if (lo is not None and v < lo) or (hi is not None and v > hi)
        ]
        if outside:
            self.err(
                src,
                at,
                f"{outside[0]} is outside min..max ({lo}..{hi})",
                "list values within min and max, or leave min and max out",
            )
        return found

    def mapping_param(
        self, src: SourceFile, path: Path, p: dict[str, Any]
    ) -> Param | None:
        """A mapping parameter: every member of one enum to a member of another."""
        keys = self.find_enum(src, (*path, "key"), p.get("key", ""))
        named = p.get("values", "")
        if not isinstance(named, str):  # the values of an int, given to a mapping
            self.err(
                src,
                (*path, "values"),
                "a mapping's values name the enum its keys map to, not a list",
                "values: EnumName (a list of values is an int parameter's)",
            )
            return None
        values = self.find_enum(src, (*path, "values"), named)
        call = None
        if "default_from" in p:
            spec = p["default_from"]
            rule = self.built.get(spec["rule"])
            if rule is not None:
                self.use(rule.id)
            # Any rule answering a mapping may give a mapping parameter's default.
            if rule is None or getattr(rule, "shape", None) != "mapping":
                if spec["rule"] not in self.failed:
                    self.err(
                        src,
                        (*path, "default_from", "rule"),
                        f"{spec['rule']!r} is not a decision rule answering a mapping",
                        "it must be defined before this rule",
                    )
                return None
            function: str = getattr(rule, "function", rule.id)
            call = (function, tuple(spec.get("args", {}).items()))
            titles = {
                q.name: q.title or words_of(q.name)
                for q in getattr(rule, "params", ())
                if isinstance(q, Param)
            }
            said = (
                rule.title,
                tuple((titles.get(k, words_of(k)), v) for k, v in call[1]),
            )
        if keys is None or values is None:
            return None
        return Param(
            p["name"],
            "mapping",
            None,
            None,
            None,
            "default_from" in p,
            p["description"],
            keys,
            keyword_only=p.get("keyword_only", False),
            owns_enum=False,
            value_enum=values,
            default_call=call,
            default_said=said if call is not None else None,
        )

    def find_enum(self, src: SourceFile, path: Path, name: str) -> EnumType | None:
        """An enum another rule of the system already defines."""
        if not isinstance(name, str):
            self.err(src, path, "an enum is named by a text", "e.g. CoverLevel")
            return None
        found = {
            enum.name: (enum, rule)
            for rule in self.built.values()
            for enum in self.kinds[rule.kind].enums(rule)
        }
        if name in found:
            self.use(found[name][1].id)
            return found[name][0]
        if name in self.failed:
            return None
        close = difflib.get_close_matches(name, list(found), n=1)
        self.err(
            src,
            path,
            f"no enum {name!r} in this system",
            f"did you mean {close[0]!r}?"
            if close
            else "give 'members' to define it here",
        )
        return None

    # -- examples --------------------------------------------------------------

    def examples(
        self,
        src: SourceFile,
        path: Path,
        raw: dict[str, Any],
        params: set[str],
        *,
        roll_columns: set[str],
    ) -> tuple[Example, ...]:
        result = []
        names: dict[str, int] = {}
        for index, ex in enumerate(raw.get("examples", [])):
            epath = (*path, "examples", index)
            if ex["name"] in names:
                at = (*path, "examples", names[ex["name"]], "name")
                self.err(
                    src,
                    (*epath, "name"),
                    f"duplicate example name {ex['name']!r} "
                    f"({self.first_at(src, src, at, (*epath, 'name'))})",
                )
            names.setdefault(ex["name"], index)
            for arg in ex.get("args", {}):
                if arg not in params:
                    hint = (
                        ("parameters: " + ", ".join(sorted(params)))
                        if params
                        else "this rule takes no arguments"
                    )
                    self.err(
                        src,
                        (*epath, "args", arg),
                        f"unknown argument {arg!r}",
                        hint,
                        key=True,
                    )
            roll = ex.get("roll")
            if roll is not None and roll not in roll_columns:
                hint = (
                    "dice columns: " + ", ".join(sorted(roll_columns))
                    if roll_columns
                    else "this rule has no dice columns"
                )
                self.err(src, (*epath, "roll"), f"cannot roll {roll!r}", hint)
            result.append(
                Example(
                    name=ex["name"],
                    summary=ex["summary"],
                    args=tuple(ex.get("args", {}).items()),
                    dice=tuple(ex["dice"]) if "dice" in ex else None,
                    roll=roll,
                    expect=ex.get("expect"),
                    raises=ex.get("raises"),
                    erratum=_erratum(ex["erratum"]) if "erratum" in ex else None,
                    loc=self.loc(src, epath),
                    select=(
                        (ex["select"]["field"], tuple(ex["select"]["where"].items()))
                        if "select" in ex
                        else None
                    ),
                    from_source=ex.get("from_source"),
                )
            )
        return tuple(result)


def _node(data: Any, path: Path) -> Any:
    for part in path:
        data = data[part]
    return data


_WORD = re.compile(r"[A-Za-z_]\w*")
# What a let may hold: any value but dice (and null alone).
_LET_TYPES = ("int", "bool", "choice", "text", "list", "record", "state")


def _word_at(text: str, start: int) -> str:
    """The name that starts at ``start`` of a formula, or ''."""
    end = start
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return text[start:end]


def _erratum(raw: dict[str, Any]) -> Erratum:
    return Erratum(raw["id"], raw["source_says"], raw["rules_give"], raw["reason"])
