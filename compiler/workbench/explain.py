"""``rulesc explain SYSTEM.RULE [INPUT...]``: a rule's answer, and how it was reached.

The rules are built in memory from the rules folder as it is now (unsaved to
git or not), so an editor sees their own edits. The answer always comes from
the generated runtime; the explanation comes from the checked model of the
rules: the table row, the formula's steps (values from the reference
evaluator, which must agree with the runtime, or this says so), the decision's
cases, each with the rules file and line it was written at, then the rule's
rulings and errata.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Mapping
from typing import Any

from .. import expr
from ..model import (
    DecisionCase,
    DecisionRule,
    DiceRule,
    FactsRule,
    FormulaRule,
    Loc,
    ProcessRule,
    RangeTableRule,
    Rule,
    ShiftRule,
    StateRule,
    SuccessPoolRule,
    System,
    TableRule,
    TrackRule,
)
from . import steps as steps_mod
from .commands import cache_dir
from .common import (
    Input,
    Runtime,
    UsageError,
    Workspace,
    aligned,
    columns_of,
    inputs_of,
    open_workspace,
    percent,
    plain,
    read_inputs,
    record_lines,
    show,
    wrap,
)

KIND_TEXT = {
    "table": "a table",
    "dice": "a dice expression",
    "formula": "a formula",
    "range_table": "a table of ranges",
    "shift": "a step along a ladder",
    "exposure_schedule": "an exposure schedule",
    "pool": "a pool dealt over time",
    "track": "a staged track",
    "recovery": "a recovery rate",
    "process": "a simulation",
    "state": "a state ladder",
    "facts": "a set of facts",
    "decision": "a decision",
    "success_pool": "a dice pool",
    "covered_roll": "a roll against cover",
}


class Recorder:
    """An RNG (seeded or scripted) that remembers each die it rolled."""

    def __init__(self, rng: Any) -> None:
        self.rng = rng
        self.rolled: list[tuple[int, int]] = []

    def randint(self, a: int, b: int, /) -> int:
        value: int = self.rng.randint(a, b)
        self.rolled.append((b, value))
        return value


def make_rng(args: argparse.Namespace, runtime: Runtime) -> tuple[Recorder, str]:
    """The dice for a rule that rolls: scripted (--dice), seeded, or a fresh seed."""
    if getattr(args, "dice", None):
        try:
            results = [int(x) for x in str(args.dice).replace(" ", "").split(",") if x]
        except ValueError:
            raise UsageError(
                f"--dice takes whole numbers separated by commas, not {args.dice!r}"
            ) from None
        return Recorder(runtime.dice.Scripted(results)), f"scripted dice {results}"
    seed = (
        args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    )
    how = f"seed {seed}" + (
        "" if args.seed is not None else f" (--seed {seed} repeats it)"
    )
    return Recorder(random.Random(seed)), how


class Explanation:
    """The lines of one explanation, in sections."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def section(self, title: str, body: list[str]) -> None:
        if body:
            self.lines += ["", title, *body]

    def text(self) -> str:
        return "\n".join(self.lines)


def run(args: argparse.Namespace) -> int:
    ws = open_workspace(args.rules, cache_dir(args))
    system, rule = ws.find(args.rule)
    with ws.runtime() as runtime:
        text = explain(ws, system, rule, runtime, args)
    print(text)
    return 0


def explain(
    ws: Workspace,
    system: System,
    rule: Rule,
    runtime: Runtime,
    args: argparse.Namespace,
) -> str:
    module = runtime.module(system.id)
    out = Explanation()
    out.lines.append(f"{rule.qualified_id}: {rule.title}")
    out.lines.append(
        f"  {KIND_TEXT.get(rule.kind, rule.kind)}, defined at {_at(rule.loc)}"
    )
    out.lines += wrap(rule.summary)
    handler = _HANDLERS.get(type(rule), _generic)
    handler(_Context(ws, system, rule, runtime, module, args, out))
    _rulings(ws, rule, out)
    return out.text()


class _Context:
    def __init__(
        self,
        ws: Workspace,
        system: System,
        rule: Rule,
        runtime: Runtime,
        module: Any,
        args: argparse.Namespace,
        out: Explanation,
    ) -> None:
        self.ws, self.system, self.rule = ws, system, rule
        self.runtime, self.module, self.args, self.out = runtime, module, args, out

    def function(self, name: str | None = None) -> Callable[..., Any]:
        found: Callable[..., Any] = getattr(
            self.module, name or str(getattr(self.rule, "function", ""))
        )
        return found

    def inputs(
        self, function: Callable[..., Any]
    ) -> tuple[list[Input], dict[str, Any]]:
        specs = inputs_of(function, self.rule)
        return specs, read_inputs(specs, self.args.inputs)

    def call(
        self, function: Callable[..., Any], given: Mapping[str, Any], specs: list[Input]
    ) -> Any:
        """The runtime's answer; a refusal is a usage error naming the valid inputs."""
        kwargs = dict(given)
        rng_specs = [s for s in specs if s.kind == "rng"]
        if rng_specs:
            rng, how = make_rng(self.args, self.runtime)
            kwargs[rng_specs[0].name] = rng
            self.rng: Recorder | None = rng
            self.rng_how = how
        else:
            self.rng = None
        try:
            return function(**kwargs)
        except self.runtime.input_error as exc:
            raise UsageError(
                f"{self.rule.qualified_id} refuses these inputs: {exc}"
            ) from None

    def show_inputs(self, specs: list[Input], given: Mapping[str, Any]) -> None:
        rows = []
        for spec in specs:
            if spec.kind == "rng":
                continue
            if spec.name in given:
                value, note = given[spec.name], ""
            else:
                value, note = spec.default, " (default)"
            rows.append((spec.name, _input_text(value) + note, spec.description or ""))
        if not rows:
            self.out.section("Inputs", ["  (none)"])
            return
        name_w = max(len(r[0]) for r in rows)
        value_w = min(max(len(r[1]) for r in rows), 30)
        self.out.section(
            "Inputs",
            [
                f"  {n.ljust(name_w)}   {v.ljust(value_w)}   {d}".rstrip()
                for n, v, d in rows
            ],
        )

    def dice_rolled(self) -> None:
        if self.rng is None:
            return
        rolled = ", ".join(f"d{sides}: {value}" for sides, value in self.rng.rolled)
        self.out.section(
            f"Dice ({self.rng_how})", wrap(rolled or "no dice were rolled")
        )


def _input_text(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    return show(value)


def _at(loc: Loc) -> str:
    return f"{loc.file}:{loc.line}"


# -- kinds ------------------------------------------------------------------------


def _table(ctx: _Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, TableRule)
    function = ctx.function()
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    answer = ctx.call(function, given, specs)
    label = str(plain(getattr(answer, "key", None) or given.get(rule.key_param)))
    row = next((r for r in rule.rows if r.key.label == label), None)
    where = f", written at {_at(row.loc)}" if row is not None else ""
    ctx.out.section(
        f"Row {label!r} of the table{where}",
        record_lines(answer, columns_of(rule)),
    )
    if rule.rolls is not None:
        ctx.out.lines += wrap(
            f"(The table is also rolled on: {rule.rolls.function}(rng) rolls "
            f"{rule.rolls.dice} and reads the {rule.rolls.column} column.)"
        )


def _formula(ctx: _Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, FormulaRule)
    function = ctx.function()
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    answer = ctx.call(function, given, specs)
    env = {p.name: given.get(p.name, p.default) for p in rule.params}
    tables, rows = tables_env(ctx.system)
    stepper = steps_mod.Stepper(
        env,
        rounding=ctx.system.rounding,
        tables=tables,
        rows=rows,
        functions=_functions(ctx, rule.checked.node),
    )
    value = stepper.run(rule.checked.node)
    ctx.out.section(
        f"Formula, written at {ctx.ws.where(rule, 'expression')}",
        ["  " + expr.to_math(rule.checked.node, rounding=ctx.system.rounding)],
    )
    ctx.out.section("Steps, innermost first", steps_mod.lines(stepper.steps))
    ctx.out.section("Limits", [f"  {x}" for x in stepper.limits])
    unit = f" {rule.unit}" if rule.unit else ""
    ctx.out.section("Answer", [f"  {answer}{unit}"])
    _agree(ctx, value, answer)


def _agree(ctx: _Context, reference: Any, answer: Any) -> None:
    if plain(reference) != plain(answer):
        ctx.out.section(
            "WARNING",
            wrap(
                f"the steps above give {reference!r} but the generated runtime answers "
                f"{plain(answer)!r}: this is a bug in rulesc, please report it"
            ),
        )


def _functions(ctx: _Context, node: expr.Node) -> dict[str, Callable[..., Any]]:
    """The generated functions of the rules an expression calls."""
    return {name: ctx.function(name) for name in expr.rules_called(node)}


def tables_env(
    system: System,
) -> tuple[dict[str, dict[str, dict[str, object]]], dict[tuple[str, str], Loc]]:
    """Every table of the system as formulas read them, and where each row is."""
    tables: dict[str, dict[str, dict[str, object]]] = {}
    rows: dict[tuple[str, str], Loc] = {}
    for rule in system.rules:
        if not isinstance(rule, TableRule):
            continue
        fields = [
            (i, c.name)
            for i, c in enumerate(rule.columns)
            if c.type in ("int", "text", "bool", "dice")
        ]
        tables[rule.function] = {
            row.key.label: {name: row.cells[i] for i, name in fields}
            for row in rule.rows
        }
        for row in rule.rows:
            rows[(rule.function, row.key.label)] = row.loc
    return tables, rows


def _decision(ctx: _Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, DecisionRule)
    function = ctx.function()
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    env: dict[str, Any] = {}
    for p in rule.params:
        if p.name in given:
            env[p.name] = given[p.name]
        elif p.default_call is not None:
            name, call_args = p.default_call
            env[p.name] = plain(ctx.function(name)(**dict(call_args)))
        else:
            env[p.name] = p.default
    tables, rows = tables_env(ctx.system)
    functions: dict[str, Callable[..., Any]] = {}
    for case in rule.cases:
        for node in [case.when, *(v for _, (k, v) in case.values or () if k == "expr")]:
            if node is not None:
                functions |= _functions(ctx, node.node)

    def stepper() -> steps_mod.Stepper:
        return steps_mod.Stepper(
            env,
            rounding=ctx.system.rounding,
            tables=tables,
            rows=rows,
            functions=functions,
        )

    raw, _ = ctx.ws.raw(rule)
    lines: list[str] = []
    matched: tuple[int, DecisionCase] | None = None
    for index, case in enumerate(rule.cases):
        if case.when is None:
            continue
        always = case.when_text == "true"
        holds = True if always else bool(stepper().run(case.when.node))
        when = (
            "otherwise"
            if always
            else expr.to_math(case.when.node, rounding=ctx.system.rounding)
        )
        mark = "yes: this case answers" if holds else "no"
        lines.append(f"  {index + 1}. when {when}")
        lines.append(f"       → {mark}   ({ctx.ws.where(rule, 'cases', index)})")
        if not always and (holds or _reads_tables(case.when.node)):
            s = stepper()
            s.run(case.when.node)
            if len(s.steps) > 1 or any(st.note for st in s.steps):
                lines += steps_mod.lines(s.steps, indent="       ")
        if holds:
            matched = (index, case)
            left = len(rule.cases) - index - 1
            if left:
                rest = (
                    "the case after it is"
                    if left == 1
                    else f"the {left} cases after it are"
                )
                lines.append(f"  ({rest} not looked at)")
            break
    ctx.out.section("Cases, first match wins", lines)
    if matched is None:
        return
    index, case = matched
    if case.refuse is not None:
        ctx.out.section("Answer", [f"  refused: {case.refuse}"])
        try:
            function(**given)
        except ctx.runtime.input_error:
            return
        _agree(ctx, "refused", "an answer")
        return
    answer = ctx.call(function, given, specs)
    written = raw["cases"][index].get("then")
    named = set(written) if isinstance(written, dict) else {"value"}
    slots = {s.name: s for s in rule.slots}
    cols = columns_of(rule)
    out_lines: list[str] = []
    rows_out: list[tuple[str, str]] = []
    reference: dict[str, Any] = {}
    for name, (kind, item) in case.values or ():
        slot = slots[name]
        title = slot.title if rule.shape != "mapping" else name
        label = f"{title} ({name})" if rule.shape == "fields" else title
        origin = (
            ""
            if name in named or rule.shape != "fields"
            else "   (the field's default)"
        )
        if kind == "expr":
            s = stepper()
            value = s.run(item.node)
            reference[name] = value
            math = expr.to_math(item.node, rounding=ctx.system.rounding)
            rows_out.append((label, f"{_slot_text(value, cols.get(name))}   = {math}"))
            if s.steps and not (len(s.steps) == 1 and s.steps[0].note is None):
                out_lines.append(f"  {label}:")
                out_lines += steps_mod.lines(s.steps, indent="    ")
        else:
            value = item.label if kind == "member" else item
            reference[name] = value
            rows_out.append((label, _slot_text(value, cols.get(name)) + origin))
    ctx.out.section(f"Answer (case {index + 1})", aligned(rows_out) + out_lines)
    got = plain(answer)
    expected: Any = reference["value"] if rule.shape == "value" else reference
    _agree(ctx, expected, got)


def _reads_tables(node: expr.Node) -> bool:
    return bool(expr.tables_used(node)) or any(
        isinstance(n, expr.Index) for n in _walk(node)
    )


def _walk(node: expr.Node) -> list[expr.Node]:
    from ..expr_types import walk

    return list(walk(node))


def _slot_text(value: Any, column: Any) -> str:
    if isinstance(value, str):
        return value
    return show(value, column)


def _range_table(ctx: _Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, RangeTableRule)
    function = ctx.function()
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    answer = ctx.call(function, given, specs)
    value = given.get(rule.param.name)
    row = next(
        (
            r
            for r in rule.rows
            if isinstance(value, int)
            and r.lo <= value
            and (r.hi is None or value <= r.hi)
        ),
        None,
    )
    if row is None:
        ctx.out.section(
            "Row",
            [f"  {value} is below every row: the table gives nothing ({rule.below})"],
        )
    else:
        span = (
            f"{row.lo} or more"
            if row.hi is None
            else (str(row.lo) if row.lo == row.hi else f"{row.lo} to {row.hi}")
        )
        name = f" ({row.label})" if row.label else ""
        ctx.out.section(
            f"Row {span}{name}, written at {_at(row.loc)}",
            record_lines(answer, columns_of(rule)),
        )


def _shift(ctx: _Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, ShiftRule)
    function = ctx.function()
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    answer = ctx.call(function, given, specs)
    label = next(iter(given.values()), None)
    used = next((u for m, u in rule.shifted if m.label == label), None)
    steps = "up" if rule.offset > 0 else "down"
    lines = [
        f"  {label} steps {abs(rule.offset)} {steps} the ladder of {rule.table.qualified_id}"
        + (
            f": {used.label}"
            if used is not None
            else ": below its lowest level, so nothing"
        )
    ]
    if rule.applies_from is not None:
        lines.append(f"  (it applies from {rule.applies_from.label} up)")
    if used is not None:
        row = next(r for r in rule.table.rows if r.key.label == used.label)
        lines.append(f"  row {used.label} is written at {_at(row.loc)}")
    for name, value in rule.overrides:
        lines.append(f"  {name} is overridden: {show(value)}")
    ctx.out.section("Step", lines)
    ctx.out.section("Answer", record_lines(answer, columns_of(rule.table)))


def _track(ctx: _Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, TrackRule)
    track = getattr(ctx.module, rule.class_name)()
    try:
        rolls = [int(x) for x in ctx.args.inputs]
    except ValueError:
        raise UsageError(
            f"{rule.qualified_id} takes die results ({rule.roll}), e.g. 3 5 3"
        ) from None
    ctx.out.section(
        "Inputs", [f"  rolls of {rule.roll}: {', '.join(map(str, rolls)) or '(none)'}"]
    )
    records = []
    for roll in rolls:
        try:
            records.append(track.apply(roll))
        except ctx.runtime.input_error as exc:
            raise UsageError(
                f"{rule.qualified_id} refuses roll {roll}: {exc}"
            ) from None
    lines = []
    for roll, outcome in zip(rolls, records, strict=True):
        parts = [f"{show(outcome.effect)} stage {outcome.stage}"]
        if outcome.condition is not None:
            parts.append(f"-> {show(outcome.condition)}")
        if outcome.reroll:
            parts.append(f"({rule.reroll_label})")
        if getattr(outcome, rule.mark_field):
            parts.append("(a point marked)")
        lines.append(f"  roll {roll}: " + " ".join(parts))
    ctx.out.section("Outcomes, in order", lines or ["  (no rolls given)"])


def _state(ctx: _Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, StateRule)
    state = getattr(ctx.module, rule.class_name)()
    names = {t.name: t for t in rule.transitions}
    lines = []
    for word in ctx.args.inputs:
        name, _, amount = word.partition("=")
        transition = names.get(name)
        if transition is None:
            raise UsageError(
                f"{rule.qualified_id} has no transition {name!r}",
                "transitions: "
                + ", ".join(names)
                + " (with NAME=N for one that takes a number)",
            )
        args = []
        if amount:
            if transition.param is None or not amount.lstrip("-").isdigit():
                raise UsageError(
                    f"{name} takes {'no number' if transition.param is None else 'a whole number'}: {word!r}"
                )
            args.append(int(amount))
        try:
            level = getattr(state, name)(*args)
        except ctx.runtime.input_error as exc:
            raise UsageError(f"{rule.qualified_id} refuses {word}: {exc}") from None
        lines.append(f"  {word}: level {level}")
    ctx.out.section("Transitions, in order", lines or ["  (none given)"])
    body = [f"  level {state.level}"]
    body += [f"  effect: {effect}" for effect in state.effects] or ["  no effects"]
    body += [f"  {f.name}: {show(getattr(state, f.name))}" for f in rule.flags]
    ctx.out.section("State", body)


def _dice(ctx: _Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, DiceRule)
    from .roll import stats_lines

    if ctx.args.inputs:
        raise UsageError(f"{rule.qualified_id} takes no inputs")
    ctx.out.section(f"{rule.dice}", [f"  {line}" for line in stats_lines(rule.dice)])


def _facts(ctx: _Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, FactsRule)
    if ctx.args.inputs:
        raise UsageError(f"{rule.qualified_id} takes no inputs")
    value = getattr(ctx.module, rule.constant)
    ctx.out.section("Facts", record_lines(value, columns_of(rule)))


def _success_pool(ctx: _Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, SuccessPoolRule)
    function = ctx.function(rule.distribution_function)
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    dist = ctx.call(function, given, specs)
    pool = rule.pool
    lines = [
        f"  d{pool.sides}s; {pool.success_at} or more is a success; {pool.again_at} or "
        f"more rolls again; with no dice, one chance die: {pool.chance_success_at} "
        f"succeeds, {pool.chance_dramatic_at} is a dramatic failure",
    ]
    ctx.out.section("The pool", lines)
    from .text import bar_chart

    rows = [(str(k), v) for k, v in dist.items()]
    rows.append((f"more than {max(dist)}", dist.tail))
    detail = [f"at least {percent(dist.at_least(int(k)))}" for k, _ in rows[:-1]] + [""]
    body = bar_chart(rows, detail=detail)
    body.append(f"  dramatic failure: {percent(dist.dramatic_failure)}")
    body.append(f"  mean successes: {float(pool.mean(given.get('dice', 0))):.3f}")
    ctx.out.section("Successes (exact chances)", body)


def _process(ctx: _Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, ProcessRule)
    from .simulate import process_lines

    function = ctx.function()
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    answer = ctx.call(function, given, specs)
    ctx.out.section(f"Events ({ctx.rng_how})", process_lines(rule, answer))
    ctx.out.lines += [
        "",
        f"  (rulesc simulate {rule.qualified_id} --runs 1000 summarises many runs)",
    ]


def _generic(ctx: _Context) -> None:
    function = ctx.function()
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    answer = ctx.call(function, given, specs)
    ctx.dice_rolled()
    ctx.out.section("Answer", record_lines(answer, columns_of(ctx.rule)))


_HANDLERS: dict[type[Any], Callable[[_Context], None]] = {
    TableRule: _table,
    FormulaRule: _formula,
    DecisionRule: _decision,
    RangeTableRule: _range_table,
    ShiftRule: _shift,
    TrackRule: _track,
    DiceRule: _dice,
    FactsRule: _facts,
    SuccessPoolRule: _success_pool,
    ProcessRule: _process,
    StateRule: _state,
}


def _rulings(ws: Workspace, rule: Rule, out: Explanation) -> None:
    lines = []
    for index, ruling in enumerate(rule.rulings):
        lines.append(f"  {ruling.id}   ({ws.where(rule, 'rulings', index)})")
        if ruling.question:
            lines += wrap(f"Q: {ruling.question}", "    ")
        lines += wrap(f"Ruling: {ruling.ruling}", "    ")
        lines += wrap(f"Why: {ruling.reason}", "    ")
    out.section("Rulings of this rule (where the source is silent or unclear)", lines)
    lines = []
    for index, erratum in enumerate(rule.errata):
        lines.append(f"  {erratum.id}   ({ws.where(rule, 'errata', index)})")
        lines += wrap(f"The source says: {erratum.source_says}", "    ")
        lines += wrap(f"The rules give: {erratum.rules_give}", "    ")
        lines += wrap(f"Why: {erratum.reason}", "    ")
    out.section("Errata of this rule (where the source contradicts itself)", lines)
