"""Trace: the core's tracing interpreter, run by ``rulesc explain`` over a rule lowered to a procedure or a state.

Each statement of the procedure (or of a state's transition) is worked out in
order, by the reference evaluator of expressions, with the dice the generated
runtime rolled replayed in the order it rolled them; each line says what a
statement did. The answer it reaches is compared with the runtime's, which is
the one shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..core.ir import (
    Bind,
    Emit,
    If,
    Label,
    Lookup,
    Make,
    Part,
    Present,
    Procedure,
    Read,
    Recorded,
    Refuse,
    Return,
    Set,
    State,
    Stmt,
    Transition,
    Turns,
    Unit,
    While,
    Written,
    statements_of,
)
from ..front.model import (
    Column,
    EnumType,
    Param,
)
from ..front.scope import table_values
from ..lang import expr
from ..lang.nodes import (
    Call,
    Dice,
    Name,
    walk,
)
from ..lang.py_names import (
    field_of,
    py_kwargs,
    pyattr,
    pyname,
)
from .common import plain, record_lines
from .context import (
    Context,
    agree,
    explain_answer,
    functions_called,
    runtime_values,
)
from .dice_replay import Replay, shown_face
from .odds_lines import odds_section
from .steps import Stepper, shown
from .steps import lines as step_lines
from .usage import UsageError

__all__ = ["MAX_LINES", "explain_lowered", "trace_transition", "traced_call"]

# A run's steps past this many lines are counted, not shown (a loop may run
# up to the runtime's entry limit).
MAX_LINES = 200


REFUSED = "(refused)"
"""What the steps answer where they refuse the call (the runtime, which
refused first, then did not: the steps and the runtime disagree)."""


class _Answered(Exception):
    """A ``Return``: the procedure's answer."""

    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value


def explain_lowered(ctx: Context, lower: Callable[..., Unit]) -> None:
    """``rulesc explain`` of a rule that lowers to the core: its inputs, its
    dice, and, for a procedure, each step it took, then its answer. A call
    the rule itself refuses (a ``Refuse`` its steps reach) is shown step by
    step too; one refused for its arguments is a usage error."""
    unit = lower(ctx.system, ctx.rule)
    main = unit.main
    if not isinstance(main, Procedure):
        explain_answer(ctx)
        return
    function = ctx.function(main.name)
    specs, given = ctx.inputs(function)
    ctx.show_inputs(specs, given)
    refused, answer = ctx.attempt(function, given, specs)
    if refused is not None and not any(
        isinstance(s, Refuse) for s in statements_of(main.body)
    ):
        raise UsageError(f"{ctx.rule.qualified_id} refuses these inputs: {refused}")
    ctx.dice_rolled()
    faces = [face for _, face in ctx.rng.rolled] if ctx.rng is not None else None
    dice = Replay(faces) if faces is not None else None
    tracer = _Tracer(ctx, unit, main.item, main.answer, dice, main.keys)
    if refused is not None:
        try:  # arguments the runtime refused may be past what the steps read
            env = {
                p.name: tracer.value_of(p, _argument(ctx, p, given))
                for p in main.params
            }
            reference = tracer.run_procedure(main, env)
        except Exception:
            reference = None
        if reference is not REFUSED or tracer.refusal != refused:
            raise UsageError(f"{ctx.rule.qualified_id} refuses these inputs: {refused}")
        ctx.out.section("Steps, in order", tracer.shown_lines())
        ctx.out.section("Answer", [f"  refused: {refused}"])
        return
    env = {p.name: tracer.value_of(p, _argument(ctx, p, given)) for p in main.params}
    reference = tracer.run_procedure(main, env)
    ctx.out.section("Steps, in order", tracer.shown_lines())
    ctx.out.section("Answer", record_lines(answer, ctx.kind.columns(ctx.rule)))
    agree(ctx, reference, answer)
    if main.odds is not None:  # and the chances of each answer, worked out
        fields = main.odds_of if isinstance(main.item, str) else ()
        what = " and ".join(fields) if fields else "its answer"
        if main.joint:
            what += " together"
        shown = () if main.joint else fields
        odds_section(ctx, ctx.function(main.odds_function), given, what, shown)


def _argument(ctx: Context, param: Param, given: dict[str, Any]) -> Any:
    """The value a call takes for ``param``: as given, or its default (one a
    call of another rule gives, worked out by calling it)."""
    if pyname(param.name) in given:  # given by Python name (as the runtime takes it)
        return given[pyname(param.name)]
    if param.default_call is not None:
        name, args = param.default_call
        return plain(ctx.function(name)(**py_kwargs(dict(args))))
    return param.default


def _bound(procedure: Procedure) -> tuple[Stmt, ...]:
    """A procedure's bound names as the statements that set them, in order,
    each guard among them where it is tried."""
    return tuple(
        Set(step.name, step.checked) if isinstance(step, Bind) else step
        for step in procedure.prelude()
    )


def trace_transition(
    ctx: Context,
    unit: Unit,
    state: State,
    transition: Transition,
    subject: Any,
    args: dict[str, Any],
) -> tuple[list[str], Any, dict[str, Any]]:
    """The steps of a transition written as statements, on ``subject`` (a
    state of the generated runtime, before the call), with ``args``: its
    lines, its answer, and every field as the steps leave it."""
    tracer = _Tracer(ctx, unit, transition.record or 0, None, None)
    before = {f.name: getattr(subject, field_of(subject, f.name)) for f in state.fields}
    tracer.fields = dict(before)
    env = dict(before) | {
        d.name: getattr(subject, field_of(subject, d.name)) for d in state.derived
    }
    env |= {
        p.name: tracer.value_of(p, args.get(p.name, p.default))
        for p in transition.params
    }
    if transition.body is not None:
        reference = tracer.run(transition.body, env)
    else:
        reference = tracer.changes(state, transition, env)
    return tracer.shown_lines(), reference, tracer.fields


def traced_call(
    ctx: Context, unit: Unit, name: str, subject: Any, args: dict[str, Any]
) -> tuple[Any, list[str]]:
    """The transition ``name`` of ``subject`` (a state of the generated
    runtime, of the unit's state) called with ``args``, its steps traced
    first: its answer and the lines; a WARNING where the runtime's answer or
    fields differ from the steps'. The runtime's refusals are raised as they are."""
    state = unit.main
    assert isinstance(state, State)
    transition = next(t for t in state.transitions if t.name == name)
    lines, reference, fields = trace_transition(
        ctx, unit, state, transition, subject, args
    )
    answer = getattr(subject, field_of(subject, name))(**py_kwargs(args))
    now = {field: getattr(subject, field_of(subject, field)) for field in fields}
    agree(ctx, (reference, fields), (answer, now))
    return answer, lines


class _Tracer:
    """Runs one body of statements over an environment of names, line by line
    (``item``: what a ``Make`` makes, ``answer``: the list an ``Emit`` adds to)."""

    def __init__(
        self,
        ctx: Context,
        unit: Unit,
        item: int | str | Column,
        answer: str | None,
        dice: Replay | None,
        keys: EnumType | None = None,
    ) -> None:
        self.ctx, self.unit, self.item, self.answer = ctx, unit, item, answer
        self.keys = keys
        self.dice = dice
        self.module = ctx.module
        self.tables, self.rows = table_values(ctx.system)
        self.lines: list[str] = []
        self.count = 0  # every line, shown or not
        # a state's fields, as the steps set them (reads see them as before)
        self.fields: dict[str, Any] = {}
        self.refusal: str | None = None  # why the steps refused the call
        self.worked: list[str] = []  # the worked parts of the item being made

    # -- values ----------------------------------------------------------------

    def value_of(self, param: Param, value: Any) -> Any:
        """An argument as the runtime reads it: a label as its member, a
        mapping's keys and values as members."""
        if param.type == "choice" and param.enum is not None and value is not None:
            return self._member(param.enum.name, value)
        if param.type == "mapping" and param.enum and param.value_enum and value:
            keys, values = param.enum.name, param.value_enum.name
            return {
                self._member(keys, k): self._member(values, v) for k, v in value.items()
            }
        return value

    def _member(self, enum: str, label: Any) -> Any:
        return getattr(self.module, pyname(enum))(label)

    def evaluate(self, checked: expr.Checked, env: dict[str, Any]) -> Any:
        node = checked.node
        value = expr.evaluate(
            node,
            env,
            rounding=self.ctx.system.rounding,
            tables=self.tables,
            functions=functions_called(self.ctx, node),
            dice=self.dice,
            calls=None if self.dice is None else self.dice.call,
            values=runtime_values(self.ctx),
        )
        return value

    def rolled(self, checked: expr.Checked) -> str:
        """What the expression's dice rolled, as a note of its line (a rule
        it called that rolls by name)."""
        if self.dice is None:
            return ""
        notes = [
            (f"{node.func} " if isinstance(node, Call) else "") + self.dice.note(node)
            for node in walk(checked.node)
            if isinstance(node, Dice)
            or (isinstance(node, Call) and self.dice.made(node))
        ]
        return f"   ({'; '.join(notes)})" if notes else ""

    def next_part(self) -> None:
        """The next expression's dice start again at offset 0."""
        if self.dice is not None:
            self.dice.part += 1

    def part(self, value: Part, env: dict[str, Any], label: str = "") -> Any:
        """A part of an item; one worked out from an expression is noted in
        ``worked`` (``label``: the part's name), for the line after the item's."""
        if isinstance(value, Read):
            held = env[value.name]
            return getattr(held, field_of(held, value.field))
        if isinstance(value, Label):
            return self._member(value.enum.name, value.label)
        if isinstance(value, Written):
            return value.value
        if isinstance(value, Recorded):  # a timeline's: no procedure records any
            raise AssertionError(value)
        found = self.evaluate(value, env)
        source = expr.to_source(value.node)
        plain = isinstance(value.node, Name) or source in (shown(found), _shown(found))
        if label and not plain:
            note = self.rolled(value)
            self.worked.append(f"{label} = {source} = {_shown(found)}{note}")
            self.worked += self.working(value, env)
        self.next_part()
        return found

    def working(self, value: expr.Checked, env: dict[str, Any]) -> list[str]:
        """How an expression that rolls nothing reached its value, operation
        by operation, where a step has something to say (a table's row read,
        a step along a ladder, a default taken)."""
        if self.dice is not None and any(
            isinstance(n, Dice | Call) for n in walk(value.node)
        ):
            return []  # its dice are replayed once, by the evaluation above
        stepper = Stepper(
            env,
            rounding=self.ctx.system.rounding,
            tables=self.tables,
            rows=self.rows,
            functions=functions_called(self.ctx, value.node),
            values=runtime_values(self.ctx),
        )
        stepper.run(value.node)
        steps = stepper.steps
        if not any(step.note for step in steps):
            return []
        return step_lines(steps, indent="  ")

    def made(
        self, values: tuple[expr.Checked, ...] | Make | Part, env: dict[str, Any]
    ) -> Any:
        self.worked = []
        if not isinstance(values, tuple | Make):
            return self.part(values, env, "the answer")
        if isinstance(values, Make) and self.keys is not None:
            keys = self.keys
            return {
                self._member(keys.name, m.label): self.part(v, env, m.label)
                for m, v in zip(keys.members, values.values, strict=True)
            }
        if isinstance(values, Make):
            item = self.item
            assert isinstance(item, str)
            record = self.unit.record(item)
            parts = {
                pyattr(c.name): self.part(v, env, c.name)
                for c, v in zip(record.fields, values.values, strict=True)
            }
            for method in record.methods:  # the values its methods hold unseen
                ok = method.only_if is None or self.evaluate(method.only_if, env)
                parts |= {
                    name: ok if p is None else env[p.name]
                    for name, p in method.hidden()
                }
            return getattr(self.module, pyname(item))(**parts)
        found = [self.part(v, env) for v in values]
        return found[0] if len(found) == 1 else tuple(found)

    def say_worked(self, indent: str) -> None:
        """The parts of the item just made that were worked out, one a line."""
        for line in self.worked:
            self.say(f"{indent}  {line}")
        self.worked = []

    # -- statements ------------------------------------------------------------

    def run_procedure(self, procedure: Procedure, env: dict[str, Any]) -> Any:
        """A procedure's answer: its names bound, its turns taken, then its
        body, the lines written on the way."""
        if procedure.turns is None:
            return self.run(_bound(procedure) + procedure.body, env)
        try:
            self.statements(_bound(procedure), env, [], "  ")
        except _Answered as done:  # pragma: no cover - names end nothing
            return done.value
        self.take_turns(procedure.turns, env)
        return self.run(procedure.body, env)

    def take_turns(self, turns: Turns, env: dict[str, Any]) -> None:
        """The turns into ``env``: the start, each turn's names and the state
        it leaves, then why they ended."""
        for value in turns.state:
            env[value.name] = self.evaluate(value.start, env)
            self.next_part()
        counter = turns.counter
        env[counter] = 0

        def state() -> str:
            return ", ".join(f"{v.name} {_shown(env[v.name])}" for v in turns.state)

        self.say(f"  start: {state()}")
        until = expr.to_source(turns.until.node)
        while True:
            ended = self.evaluate(turns.until, env)
            self.next_part()
            if ended:
                self.say(f"  the turns end after {env[counter]}: {until}")
                break
            if turns.most is not None and env[counter] == turns.most:
                self.say(f"  the turns stop after {turns.most}, the most there are")
                break
            env[counter] += 1
            self.say(f"  turn {env[counter]}:")
            for bind in turns.binds:
                env[bind.name] = self.evaluate(bind.checked, env)
                note = self.rolled(bind.checked)
                self.next_part()
                source = expr.to_source(bind.checked.node)
                self.say(f"    {bind.name} = {source} = {_shown(env[bind.name])}{note}")
            renewed = {}
            for renew in turns.sets:
                renewed[renew.name] = self.evaluate(renew.value, env)
                self.next_part()
            env.update(renewed)
            self.say(f"    then {state()}")

    def run(self, body: Sequence[Stmt], env: dict[str, Any]) -> Any:
        """The answer of ``body``, its lines written on the way."""
        answer: list[Any] = []
        try:
            self.statements(body, env, answer, "  ")
        except _Answered as done:
            return done.value
        return answer

    def changes(self, state: State, t: Transition, env: dict[str, Any]) -> Any:
        """A transition of changes: its test, its names, then every change at
        once from the values before; the field it answers, if any."""
        if t.unless is not None:
            held, said = self.test(t.unless, env)
            self.say(f"  unless {said}: {'yes, so nothing changes' if held else 'no'}")
            if held:
                return None
        for bind in t.binds:
            env[bind.name] = self.evaluate(bind.checked, env)
            source = expr.to_source(bind.checked.node)
            self.say(f"  {bind.name} = {source} = {_shown(env[bind.name])}")
        found: dict[str, Any] = {}
        for change in t.changes:
            value = self.evaluate(change.value, env)
            field = state.field(change.field)
            held = value
            if change.clamp and field.hi is not None:
                held = min(held, field.hi)
            if change.clamp and field.lo is not None:
                held = max(held, field.lo)
            found[change.field] = held
            source = expr.to_source(change.value.node)
            worked = "" if source == shown(value) else f" = {shown(value)}"
            kept = f", held at {shown(held)}" if held != value else ""
            self.say(f"  the state's {change.field} becomes {source}{worked}{kept}")
        self.fields.update(found)
        return None if t.answers is None else self.fields[t.answers]

    def say(self, line: str) -> None:
        self.count += 1
        if self.count <= MAX_LINES:
            self.lines.append(line)

    def shown_lines(self) -> list[str]:
        more = self.count - len(self.lines)
        return self.lines + ([f"  ... and {more} more line(s)"] if more else [])

    def test(
        self, test: expr.Checked | Present, env: dict[str, Any]
    ) -> tuple[bool, str]:
        if isinstance(test, Present):
            names = " and ".join(test.names)
            return all(env[n] is not None for n in test.names), f"{names} hold values"
        held = bool(self.evaluate(test, env))
        note = self.rolled(test)
        self.next_part()
        return held, f"{expr.to_source(test.node)}{note}"

    def statements(
        self, body: Sequence[Stmt], env: dict[str, Any], answer: list[Any], indent: str
    ) -> None:
        for stmt in body:
            if isinstance(stmt, Set) and stmt.name in self.fields:
                value = self.evaluate(stmt.value, env)
                self.next_part()
                self.fields[stmt.name] = value
                source = expr.to_source(stmt.value.node)
                worked = "" if source == shown(value) else f" = {shown(value)}"
                self.say(f"{indent}the state's {stmt.name} becomes {source}{worked}")
            elif isinstance(stmt, Set):
                env[stmt.name] = self.evaluate(stmt.value, env)
                note = self.rolled(stmt.value)
                self.next_part()
                source = expr.to_source(stmt.value.node)
                self.say(
                    f"{indent}{stmt.name} = {source} = {_shown(env[stmt.name])}{note}"
                )
            elif isinstance(stmt, Lookup):
                key = self.evaluate(stmt.key, env)
                self.next_part()
                found = getattr(self.module, stmt.entries)[key]
                env[stmt.name] = found
                self.say(
                    f"{indent}{stmt.name} = the entry of {stmt.function} for "
                    f"{shown(key)} = {_shown(found)}"
                )
            elif isinstance(stmt, If):
                branches, otherwise = stmt.branches
                for index, (test, then) in enumerate(branches):
                    held, said = self.test(test, env)
                    lead = "otherwise, if" if index else "if"
                    self.say(f"{indent}{lead} {said}: {'yes' if held else 'no'}")
                    if held:
                        self.statements(then, env, answer, indent + "  ")
                        break
                else:
                    if otherwise:
                        self.say(f"{indent}otherwise:")
                        self.statements(otherwise, env, answer, indent + "  ")
            elif isinstance(stmt, While):
                while True:
                    held, said = self.test(stmt.test, env)
                    self.say(f"{indent}while {said}: {'yes' if held else 'no'}")
                    if not held:
                        break
                    self.statements(stmt.body, env, answer, indent + "  ")
            elif isinstance(stmt, Emit):
                item = self.made(stmt.values, env)
                answer.append(item)
                self.say(f"{indent}add {_shown(item)} to {self.answer}")
                self.say_worked(indent)
            elif isinstance(stmt, Return):
                item = self.made(stmt.value, env)
                self.say(f"{indent}answer {_shown(item)}")
                self.say_worked(indent)
                raise _Answered(item)
            elif isinstance(stmt, Refuse):
                self.say(f"{indent}refuse the call: {stmt.message}")
                self.refusal = stmt.message
                raise _Answered(REFUSED)


def _shown(value: Any) -> str:
    """A value of a step: a record (a state) by its fields, a member by its label."""
    if hasattr(type(value), "_fields") and hasattr(value, "to_dict"):  # a state
        return "(" + _shown(dict(value.to_dict())) + ")"
    fields = getattr(type(value), "FIELDS", None)
    if fields is not None and type(value).__name__ != "Dice":
        return ", ".join(f"{f} {_shown(getattr(value, f))}" for f in fields)
    if isinstance(value, tuple):
        return "(" + ", ".join(_shown(v) for v in value) + ")"
    if isinstance(value, list) and value and all(_face(v) for v in value):
        return "[" + ", ".join(shown_face(v) for v in value) + "]"  # dice of symbols
    if isinstance(value, list):  # a list (its records each in brackets)
        return "[" + ", ".join(_item_shown(v) for v in value) + "]"
    if isinstance(value, dict):  # a value by key: each key by its label
        return ", ".join(f"{k} {_shown(v)}" for k, v in value.items())
    if isinstance(value, str):
        return shown(str(value))
    return shown(value)


def _item_shown(value: Any) -> str:
    """An item of a list: a record (or a value by key) in brackets."""
    record = isinstance(value, dict) or hasattr(type(value), "FIELDS")
    text = _shown(value)
    return f"({text})" if record and type(value).__name__ != "Dice" else text


def _face(value: object) -> bool:
    """Whether ``value`` is a face of a die of symbols (a tuple of them)."""
    return isinstance(value, tuple) and all(isinstance(x, str) for x in value)
