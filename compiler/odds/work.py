"""Odds work at build: the most steps a rule's odds can take over its parameters' ranges, from its plan, before any call.

The runtime counts each step of its odds engine before taking it and
refuses a call past ``MAX_WORK`` (``rulebook._support.spend``). The build
follows the same plan (``compiler.odds.plan``), step by step, with sizes
instead of chances: how many environments there can be (at most the values
of what is still read, each value's count bounded by its range), how many
values each source can add (a total's range, a pool's folds' ranges), and
what each source costs (a total's ``counted_work``, a pool's steps over the
multiset of its outcomes, a called rule's own bound, a comprehension's
plans of its test and body once for each of its items at most), each at
the worst its parameters' ranges allow. The bound is no less than what any
call counts; a rule whose bound passes ``MAX_WORK`` is a located error at
its line (``check``). Where a size cannot be bounded (a value without a
range) nothing is said, but for the items of a comprehension that rolls: a
list whose length the build cannot bound is a located error too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from math import comb, prod

from ..common.diagnostics import Diagnostic
from ..core.ir import (
    Function,
    Procedure,
    Unit,
)
from ..core.program import lowered
from ..front.model import (
    Param,
    System,
)
from ..lang.dice import pool_of
from ..lang.evaluate import evaluate
from ..lang.nodes import (
    IV_ARITH,
    Binary,
    BoolLit,
    Call,
    Comp,
    Cond,
    Dice,
    Field,
    Interval,
    IntLit,
    ListLit,
    Name,
    Node,
    NullLit,
    StrLit,
    Unary,
    iv_abs,
    iv_hull,
    iv_max,
    iv_min,
    iv_neg,
    walk,
)
from ..lang.nodes import Function as ExprFunction
from ..runtime._multiset import die_outcomes
from ..runtime._plan import live as live_after
from ..runtime._support import (
    MAX_EXACT,
    MAX_WORK,
    weighed,
)
from ..runtime.dice_odds import (
    DEPTH,
    counted_work,
)
from ..runtime.dice_terms import Pool
from .plan import (
    Plan,
    Step,
)

__all__ = ["check", "plan_work"]

_COMPARE = frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not"})
_MOST_DOMAIN = 10**12  # a size past any environment the runtime would hold


_UNKNOWN = object()


@dataclass(frozen=True, slots=True)
class Known:
    """What is known of a value before a call: how many values it can take
    (None: no bound), for a whole number its range, for a parameter of the
    call its value, and for a list the most items it holds and what each
    can be."""

    size: int | None
    interval: Interval | None = None
    value: object = _UNKNOWN
    items: int | None = None
    item: Known | None = None


class Unbounded(Exception):
    """A comprehension that rolls goes through a list whose length the build
    cannot bound: its odds' work has no bound (a located error)."""


def _sized(interval: Interval | None) -> Known:
    if interval is None or interval.lo is None or interval.hi is None:
        return Known(None, interval)
    return Known(max(interval.hi - interval.lo + 1, 1), interval)


_MOST_CALLS = 256
"""The most sets of arguments whose work the build follows one by one (past
it, the corners of the parameters' ranges)."""


def _values(param: Param) -> list[object] | None:
    """The values a call may give ``param`` (None: too many to list)."""
    found: list[object] = [None] if param.nullable else []
    if param.type == "int":
        low = -MAX_EXACT if param.min is None else param.min
        high = MAX_EXACT if param.max is None else param.max
        if high - low >= _MOST_CALLS:
            return None
        return [*found, *range(low, high + 1)]
    if param.type == "bool":
        return [*found, False, True]
    if param.type == "choice" and param.enum is not None:
        return found + [m.label for m in param.enum.members]
    return None


def _corners(param: Param) -> list[object]:
    """A parameter's extremes (and its middle): where its work is most."""
    if param.type != "int":
        return _values(param) or []
    low = -MAX_EXACT if param.min is None else param.min
    high = MAX_EXACT if param.max is None else param.max
    found: list[object] = [
        *sorted({low, high, (low + high) // 2, min(max(0, low), high)})
    ]
    return found


def calls(params: Sequence[Param]) -> list[dict[str, object]]:
    """The sets of arguments the build follows: every one the parameters
    allow where they are at most ``_MOST_CALLS``, else the corners of their
    ranges."""
    each = [_values(p) for p in params]
    if (
        all(v is not None for v in each)
        and prod(len(v or ()) for v in each) <= _MOST_CALLS
    ):
        lists = [v or [] for v in each]
    else:
        lists = [_corners(p) for p in params]
    found: list[dict[str, object]] = [{}]
    for param, values in zip(params, lists, strict=True):
        if not values:
            continue  # a list, a text...: what is known of it is its type's
        found = [{**f, param.name: v} for f in found for v in values]
        if len(found) > _MOST_CALLS:
            found = found[:_MOST_CALLS]
    return found


def _given(value: object) -> Known:
    if isinstance(value, int) and not isinstance(value, bool):
        return Known(1, Interval(value, value), value)
    return Known(1, None, value)


def _listed(param: Param) -> Known:
    """What is known of a list parameter (no call of the build gives one): one
    value a call, its most items and its items' range."""
    spec = param.spec
    most = None if spec is None else spec.max_items
    return Known(1, items=most, item=_sized(Interval(param.min, param.max)))


@dataclass
class _State:
    """The bound so far: environments, their values, the steps, the bits."""

    envs: int = 1
    work: int = 0
    bits: int = 0


class Bounds:
    """The work bounds of a system's rules' odds, each worked out once."""

    def __init__(self, system: System) -> None:
        self.system = system
        self.found: dict[tuple[str, tuple[str, ...]], int | None] = {}
        self.unbounded: set[str] = set()  # rules whose lists have no bound
        self.pools: dict[object, Made] = {}  # the pools worked out, by their dice
        self.units = {
            unit.entry: unit
            for unit in (lowered(system, rule) for rule in system.rules)
        }

    def seen(self, function: str) -> ExprFunction | None:
        """The rule ``function`` as expressions call it."""
        from ..front import scope
        from ..kinds.decision.model import DecisionRule
        from ..kinds.formula.model import FormulaRule

        for rule in self.system.rules:
            if getattr(rule, "function", None) != function:
                continue
            if isinstance(rule, DecisionRule):
                return scope.decision_function(rule)
            if isinstance(rule, FormulaRule):
                return scope.formula_function(rule)
        return None

    def of(self, function: str, fields: tuple[str, ...] = ()) -> int | None:
        """The bound of the odds of the rule ``function`` (of ``fields`` of
        its answer, where given), at the worst its parameters allow."""
        key = (function, fields)
        if key in self.found:
            return self.found[key]
        self.found[key] = None  # a cycle of calls (refused elsewhere): no bound
        unit = self.units.get(function)
        try:
            found = None if unit is None else self._unit(unit, fields)
        except Unbounded:
            self.unbounded.add(function)
            found = None
        self.found[key] = found
        return found

    def _unit(self, unit: Unit, fields: tuple[str, ...]) -> int | None:
        from .procedure import (
            places,
            procedure_plan,
        )

        main = unit.main
        depth: Node | None = None
        if isinstance(main, Function) and main.rolls:
            binds = [(b.name, b.checked.node) for b in main.binds]
            found = _plan(binds, [main.answer.node])
        elif isinstance(main, Procedure) and main.turns is None:
            wanted = fields or main.odds_of
            if not wanted:
                return None
            found = procedure_plan(main, places(unit, main, wanted))
            depth = None if main.depth is None else main.depth.node
        else:
            return None  # turns: their chain's bound is not worked out here
        most = 0
        for given in calls(main.params):
            known = {p.name: _listed(p) for p in main.params if p.type == "list"}
            known.update({name: _given(value) for name, value in given.items()})
            deep = None if depth is None else _interval(depth, known)
            work = plan_work(found, known, self, deep)
            if work is None:
                return None
            most = max(most, work)
            if most > MAX_WORK:
                break
        return most


def _plan(lets: Sequence[tuple[str, Node]], answers: Sequence[object]) -> Plan:
    from .plan import plan

    return plan(lets, answers)  # type: ignore[arg-type]


def check(systems: Sequence[object]) -> list[Diagnostic]:
    """A located error at each rule whose odds may pass ``MAX_WORK`` for a
    call its parameters' ranges allow."""
    found: list[Diagnostic] = []
    for system in systems:
        if not isinstance(system, System):
            continue
        bounds = Bounds(system)
        for rule in system.rules:
            function = getattr(rule, "function", None)
            if not isinstance(function, str):
                continue
            bound = bounds.of(function)
            loc = rule.loc
            if function in bounds.unbounded:
                found.append(
                    Diagnostic(
                        loc.file,
                        loc.line,
                        loc.col,
                        "its odds go through a comprehension that rolls over a "
                        "list whose length the build cannot bound: the steps they "
                        "take to work out have no bound",
                        "go through a list written out, a list parameter with "
                        "max_items, or a let of one; or remove its odds",
                    )
                )
                continue
            if bound is None or bound <= MAX_WORK:
                continue
            found.append(
                Diagnostic(
                    loc.file,
                    loc.line,
                    loc.col,
                    "its exact odds may take more steps to work out than the "
                    f"runtime takes ({MAX_WORK:,}: a limit of the runtime, not of "
                    f"the rules) for a call its parameters' ranges allow{_shown(bound)}",
                    "narrow the parameters' ranges, or read its dice through fewer "
                    "or smaller values",
                )
            )
    return found


def _shown(bound: int) -> str:
    """The bound, where it is a figure a reader can use."""
    return f" (up to {bound:,})" if bound < 1000 * MAX_WORK else ""


def plan_work(
    plan: Plan,
    params: Mapping[str, Known],
    bounds: Bounds | None = None,
    depth: Interval | None = None,
) -> int | None:
    """The most steps the engine takes on ``plan`` for any call whose
    parameters lie within ``params`` (None where a size has no bound)."""
    deep = DEPTH if depth is None or depth.hi is None else depth.hi
    followed = _follow(plan, dict(params), bounds, deep)
    return None if followed is None else followed[0]


Followed = tuple[int, int, list[Known]]
"""A plan followed: its steps, the bits of its denominator, its answers."""


def _follow(
    plan: Plan, known: dict[str, Known], bounds: Bounds | None, deep: int
) -> Followed | None:
    """The most steps of a run of ``plan`` (None where a size has no bound)."""
    live = live_after(plan.steps, plan.answers)
    state = _State()
    for step, after in zip(plan.steps, live, strict=True):
        if after is None:
            continue
        names = [plan.names[v] for v in step.reads]
        if not step.source:
            state.work += weighed(state.envs, state.bits)
            value = _value(step, known)
            if step.kind == "let" and step.node is not None and _boolean(step.node):
                truth = _truth(step.node, known)  # a test the call settles
                value = value if truth is None else Known(1, value=truth)
            known[plan.names[step.binds[0]]] = value
        else:
            guard = None if step.guard is None else plan.names[step.guard]
            made = (
                (1, 0, 0, [Known(1) for _ in step.binds])  # not rolled: none
                if guard is not None and known.get(guard, Known(None)).value is False
                else _source(step, known, bounds, deep)
            )
            if made is None:
                return None
            values, cost, bits, parts = made
            distinct = _product([known[n].size for n in names if n in known])
            cost *= min(state.envs, distinct or state.envs)
            read = any(v in after for v in step.binds)
            state.bits += bits
            state.work += cost + weighed(
                state.envs * (values if read else 1), state.bits
            )
            for v, part in zip(step.binds, parts, strict=True):
                known[plan.names[v]] = part
            state.envs *= values if read else 1
        held = _product([known.get(plan.names[v], Known(None)).size for v in after])
        if held is not None:
            state.envs = min(state.envs, held)
        if state.envs > _MOST_DOMAIN or state.work > _MOST_DOMAIN:
            return state.work, state.bits, [Known(None) for _ in plan.answers]
    answers = [known.get(plan.names[v], Known(None)) for v in plan.answers]
    return state.work, state.bits, answers


def _product(sizes: Sequence[int | None]) -> int | None:
    if any(s is None for s in sizes):
        return None
    return prod(s for s in sizes if s is not None)


def _value(step: Step, known: Mapping[str, Known]) -> Known:
    """What a let can be: its range's size, else at most one value for each
    set of the values it reads."""
    if step.kind == "cases":
        sizes: list[int | None] = []
        ivs: list[Interval | None] = []
        for _, value in step.cases:
            if isinstance(value, Node):
                part = _node(value, known)
                sizes.append(part.size)
                ivs.append(part.interval)
            else:
                sizes.append(1)
                ivs.append(None)
        total = None if None in sizes else sum(s for s in sizes if s is not None)
        return Known(total, None)
    assert step.node is not None
    return _node(step.node, known)


def _node(node: Node, known: Mapping[str, Known]) -> Known:
    """What an expression can be, from what its names can be."""
    if _boolean(node):
        return Known(2)
    match node:
        case Name() if node.name in known:
            return known[node.name]
        case StrLit() | NullLit():
            return Known(1)
        case ListLit():
            most, item = _items(node, known)
            parts = _product([_node(part, known).size for part in node.items])
            return Known(parts, items=most, item=item)
        case Cond() if (test := _truth(node.test, known)) is not None:
            return _node(node.body if test else node.orelse, known)
        case Cond():
            body, orelse = _node(node.body, known), _node(node.orelse, known)
            size = (
                None
                if body.size is None or orelse.size is None
                else body.size + orelse.size
            )
            both = None
            if body.interval is not None and orelse.interval is not None:
                both = iv_hull(body.interval, orelse.interval)
            if both is not None and both.bounded:
                found = _sized(both)
                size = found.size if size is None else min(size, found.size or size)
            return Known(size, both)
        case _:
            pass
    interval = _interval(node, known)
    reads = {n.name for n in walk(node) if isinstance(n, Name) and n.name in known}
    read = _product([known[n].size for n in reads])  # one value for each set
    if interval is not None and interval.bounded:
        found = _sized(interval)
        size = (
            found.size if read is None or found.size is None else min(found.size, read)
        )
        return Known(size, interval)
    return Known(read, interval)


def _boolean(node: Node) -> bool:
    match node:
        case BoolLit():
            return True
        case Unary(op="not"):
            return True
        case Binary(op=op) if op in _COMPARE or op in ("and", "or"):
            return True
        case _:
            return False


def _exact(node: Node, known: Mapping[str, Known]) -> object:
    """The value of an expression of the call's arguments alone (else unknown)."""
    env: dict[str, object] = {}
    for n in walk(node):
        if isinstance(n, Name):
            found = known.get(n.name)
            if found is None or found.value is _UNKNOWN:
                return _UNKNOWN
            env[n.name] = found.value
        elif isinstance(n, Dice) or (
            isinstance(n, Call) and (n.rule or n.func == "roll")
        ):
            return _UNKNOWN
    try:
        return evaluate(node, env, rounding="down")  # type: ignore[arg-type]
    except Exception:  # not worked out here: a table, a list...
        return _UNKNOWN


def _truth(node: Node, known: Mapping[str, Known]) -> bool | None:
    """Whether a test holds for every value of what it reads (True), for none
    (False), or it depends (None)."""
    value = _exact(node, known)
    if isinstance(value, bool):
        return value
    match node:
        case Binary(op="and"):
            left = _truth(node.left, known)
            if left is False:
                return False
            right = _truth(node.right, known)
            return True if left and right else (False if right is False else None)
        case Binary(op="or"):
            left = _truth(node.left, known)
            if left is True:
                return True
            right = _truth(node.right, known)
            return (
                False if left is False and right is False else (True if right else None)
            )
        case Unary(op="not"):
            inner = _truth(node.operand, known)
            return None if inner is None else not inner
        case Binary(op="<" | "<=" | ">" | ">=" | "==" | "!=" as op):
            low, high = _interval(node.left, known), _interval(node.right, known)
            if low is None or high is None:
                return None
            return _compared(op, low, high)
        case _:
            return None


def _compared(op: str, a: Interval, b: Interval) -> bool | None:
    """``a op b`` for every pair of values of the two ranges, none, or some."""
    if a.lo is None or a.hi is None or b.lo is None or b.hi is None:
        return None
    low_a, high_a, low_b, high_b = a.lo, a.hi, b.lo, b.hi
    if op in (">", ">="):
        low_a, high_a, low_b, high_b = low_b, high_b, low_a, high_a
        op = "<" if op == ">" else "<="
    if op == "<":
        return True if high_a < low_b else (False if low_a >= high_b else None)
    if op == "<=":
        return True if high_a <= low_b else (False if low_a > high_b else None)
    same = low_a == high_a == low_b == high_b
    apart = high_a < low_b or high_b < low_a
    if op == "==":
        return True if same else (False if apart else None)
    return False if same else (True if apart else None)


def _interval(node: Node, known: Mapping[str, Known]) -> Interval | None:
    """The range of a whole-number expression, from its names' (None where
    it is not worked out here)."""
    value = _exact(node, known)
    if isinstance(value, int) and not isinstance(value, bool):
        return Interval(value, value)
    match node:
        case IntLit():
            return Interval(node.value, node.value)
        case Name():
            found = known.get(node.name)
            return None if found is None else found.interval
        case Unary(op="-"):
            inner = _interval(node.operand, known)
            return None if inner is None else iv_neg(inner)
        case Binary(op="+" | "-" | "*" | "//", concat=False):
            left, right = _interval(node.left, known), _interval(node.right, known)
            if left is None or right is None:
                return None
            if node.op == "//" and right.contains(0):
                return None
            return IV_ARITH[node.op](left, right)
        case Cond() if (test := _truth(node.test, known)) is not None:
            return _interval(node.body if test else node.orelse, known)
        case Cond():
            body, orelse = _interval(node.body, known), _interval(node.orelse, known)
            return None if body is None or orelse is None else iv_hull(body, orelse)
        case Call(func="min" | "max" | "clamp", rule=False) if len(node.args) > 1:
            parts = [_interval(a, known) for a in node.args]
            if any(p is None for p in parts):
                return None
            ivs = [p for p in parts if p is not None]
            if node.func == "min":
                return iv_min(ivs)
            if node.func == "max":
                return iv_max(ivs)
            return iv_min([iv_max(ivs[:2]), ivs[2]])
        case Call(func="abs", rule=False):
            inner = _interval(node.args[0], known)
            return None if inner is None else iv_abs(inner)
        case _:
            return None


def _count(node: Dice, known: Mapping[str, Known]) -> Interval | None:
    if node.count is None:
        return Interval(pool_of(node).count, pool_of(node).count)
    return _interval(node.count, known)


def _worst(node: Dice, known: Mapping[str, Known]) -> Pool | None:
    """The pool a dice term rolls at its most dice and sides."""
    count = _count(node, known)
    if count is None or count.hi is None:
        return None
    sides = pool_of(node).sides
    if node.sides is not None:
        found = _interval(node.sides, known)
        if found is None or found.hi is None:
            return None
        sides = found.hi
    pool = pool_of(node)
    options = {f: getattr(pool, f) for f in pool.FIELDS if f not in ("count", "sides")}
    if options.get("keep") is not None:
        options["keep_count"] = pool.keep_count
    return Pool(max(count.hi, 1), max(sides, 1), **options)


def _die_bits(pool: Pool, depth: int) -> int:
    """The bits of one die's denominator (its explosions followed ``depth`` deep)."""
    per = (2 * len(pool.faces)).bit_length()
    return per * (depth + 1 if pool.explode is not None else 1) * 2


Made = tuple[int, int, int, list[Known]]
"""What a source can add: how many values, its own steps, its bits, and
each value it binds."""


def _source(
    step: Step,
    known: Mapping[str, Known],
    bounds: Bounds | None,
    depth: int,
) -> Made | None:
    match step.kind:
        case "total" | "kept" | "unread":
            assert isinstance(step.node, Dice)
            return _dice(step.kind, step.node, known, depth)
        case "pool":
            return _pool(step, known, depth, bounds.pools if bounds else {})
        case "called" | "record":
            return _call(step, known, bounds)
        case "each":
            return _each(step, known, bounds, depth)
        case _:
            return None  # a roll of a dice value: not bounded here


def _dice(kind: str, node: Dice, known: Mapping[str, Known], depth: int) -> Made | None:
    count = _count(node, known)
    if count is not None and count.hi is not None and count.hi <= 0:
        nothing = Known(1, Interval(0, 0))
        return 1, 0, 0, [nothing]  # no dice: a value known for certain
    pool = _worst(node, known)
    if pool is None:
        return None
    bits = _die_bits(pool, depth) * pool.count
    if kind == "unread":
        from ..runtime._dice_weights import chain_cost

        return 1, chain_cost(pool, depth, None), bits, [Known(1)]
    if kind == "total":
        from ..lang.dice import dice_interval

        count = _count(node, known)
        sides = None if node.sides is None else _interval(node.sides, known)
        total = _sized(dice_interval(node, count, sides))
        if pool.explode is not None:
            total = Known(None, None)
        elif total.size is not None:  # each total a sum of faces (a multiple: alike)
            kept = pool.kept if pool.keep is not None else pool.count
            spread = kept if pool.target is not None else kept * _spread(pool.faces)
            total = Known(min(total.size, spread + 1), total.interval)
        work = counted_work(pool, depth)
        if total.size is None:
            total = Known(_chained(pool, depth), total.interval)
        return total.size or 1, work, bits, [total]
    faces = _outcomes(pool, depth)
    multisets = comb(pool.count + faces, faces)
    work = sum(comb(i + faces, faces) * faces * (i + 1) for i in range(pool.count))
    die = Known(faces)  # a die kept: one of its outcomes (its face, unexploded)
    if pool.explode is None and pool.target is None and pool.multiplier == 1:
        die = _sized(Interval(min(pool.faces), max(pool.faces)))
    listed = Known(multisets, items=pool.count, item=die)
    return multisets, weighed(work, bits), bits, [listed]


def _spread(faces: Sequence[object]) -> int:
    """The highest face less the lowest (faces of numbers)."""
    numbers = [f for f in faces if isinstance(f, int)]
    return max(numbers) - min(numbers) if numbers else 0


def _chained(pool: Pool, depth: int) -> int:
    """At most how many totals a pool with explosions has."""
    deep = pool.count * (depth + 1)
    if pool.target is not None:
        return deep + 1
    faces = pool.faces
    return deep * max(faces) - pool.count * min(faces) + 1


def _outcomes(pool: Pool, depth: int) -> int:
    """At most how many outcomes one die of ``pool`` has (its chains of
    explosions each told apart)."""
    from ..runtime._dice_weights import chain_levels

    faces = len(pool.faces)
    if pool.explode is None:
        return faces
    return faces * sum(chain_levels(pool, depth, None))


def _pool(
    step: Step, known: Mapping[str, Known], depth: int, done: dict[object, Made]
) -> Made | None:
    """A pool's folds: the values each can take, and the steps over the
    multiset of its outcomes. Where its dice and its folds' values are known
    for the call, these are the runtime's own, worked out by it as a call
    works them out (``done``: those worked out, by pool); else bounded."""
    pools = [_worst(g.dice, known) for g in step.groups]
    if any(p is None for p in pools):
        return None
    worst = [p for p in pools if p is not None]
    folds: list[tuple[object, ...]] = []
    for fold in step.folds:
        exact = [_exact(v, known) for v in fold.values]
        folds.append((fold.kind, fold.groups, *exact, *[None] * (2 - len(exact))))
    exactly = all(
        _count(g.dice, known) in (None,) or _fixed(g.dice, known) for g in step.groups
    )
    if exactly and not any(v is _UNKNOWN for f in folds for v in f[2:]):
        key = (
            tuple(map(repr, worst)),
            tuple(g.item for g in step.groups),
            repr(folds),
            depth,
        )
        if key not in done:
            done[key] = _run_pool(step, worst, folds, depth)
        return done[key]
    return _pool_bound(step, worst, folds, depth)


def _fixed(node: Dice, known: Mapping[str, Known]) -> bool:
    """Whether a call knows a dice term's count and sides (its parameters'
    alone set them)."""
    parts = [p for p in (node.count, node.sides) if p is not None]
    return all(isinstance(_exact(p, known), int) for p in parts)


def _run_pool(
    step: Step, worst: Sequence[Pool], folds: Sequence[tuple[object, ...]], depth: int
) -> Made:
    """A pool worked out by the runtime as a call works it out: its steps,
    counted as the call counts them, and its folds' values (past the
    runtime's limit: more steps than it takes)."""
    from ..runtime import (
        _odds,
        _support,
    )
    from ..runtime.errors import RuleInputError

    call = _support.CALL
    saved = (call.depth, call.calls, call.work)
    call.depth, call.calls, call.work = 1, 0, 0
    try:
        groups = [
            _odds.item(_odds.total(_made(p), 1, p.sides, depth))
            if g.item
            else _odds.dice(_made(p), p.count, p.sides, depth)
            for g, p in zip(step.groups, worst, strict=True)
        ]
        made = _odds.pool(groups, folds)  # type: ignore[arg-type]
        work = call.work
    except RuleInputError:
        return 1, MAX_WORK + 1, 0, [Known(None)] * len(step.folds)
    finally:
        call.depth, call.calls, call.work = saved
    parts: list[Known] = []
    for at in range(len(step.folds)):
        values = {v[at] for v in made.weights}
        numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
        interval = Interval(min(numbers), max(numbers)) if numbers else None
        parts.append(Known(len(values), interval))
    return len(made.weights), work, made.denom.bit_length(), parts


def _made(pool: Pool) -> Callable[[int, int], Pool]:
    """A dice term's pool, as the generated code makes it (here: made already)."""
    return lambda count, sides: pool


def _pool_bound(
    step: Step, worst: Sequence[Pool], folds: Sequence[tuple[object, ...]], depth: int
) -> Made:
    """A pool's folds bounded (their dice or values not known before the call)."""
    parts: list[Known] = []
    bits = 0
    dies = []
    for group, pool in zip(step.groups, worst, strict=True):
        die = die_outcomes(pool, depth)
        dies.append((die, 1 if group.item else pool.count))
        bits += die.denom.bit_length() * (1 if group.item else pool.count)
    for fold in step.folds:
        kind, groups = fold.kind, fold.groups
        items = [x for g in groups for t in dies[g][0].weights for x in t]
        n = sum(dies[g][1] * max(len(t) for t in dies[g][0].weights) for g in groups)
        numbers = [x for x in items if isinstance(x, int)] or [0]
        low, high = min(numbers), max(numbers)
        if kind in ("count", "len", "tally"):
            parts.append(Known(n + 1, Interval(0, n)))
        elif kind == "sum":
            parts.append(_sized(Interval(min(0, n * low), max(0, n * high))))
        else:
            parts.append(Known(high - low + 2, Interval(low, high)))
    work = 0
    merged = 1
    values = prod(p.size or 1 for p in parts)
    for g, (die, count) in enumerate(dies):
        own = [i for i, f in enumerate(step.folds) if g in f.groups]
        work += _group_work(
            die.weights,
            count,
            [folds[i] for i in own],
            [parts[i] for i in own],
            bool(step.groups[g].item is False and worst[g].keep),
        )
        size = prod(parts[i].size or 1 for i in own)
        work += merged * size
        merged = min(merged * size, values)  # the folds' values, merged
    return values, weighed(work, bits), bits, parts


def _group_work(
    outcomes: Mapping[tuple[object, ...], int],
    n: int,
    folds: Sequence[tuple[object, ...]],
    parts: Sequence[Known],
    keeping: bool,
) -> int:
    """The most steps of one group's dice (``n``) over the folds that read it."""
    adds = [p.size or 1 for f, p in zip(folds, parts, strict=True) if f[0] in _ADDING]
    ords = [
        (f[0], p.size or 1)
        for f, p in zip(folds, parts, strict=True)
        if f[0] not in _ADDING
    ]
    added = prod(adds)
    kinds = {k for k, _ in ords}
    count = len(outcomes)
    if not ords and not keeping:
        return _power_work(_classes(outcomes, folds), n, added)
    descending = "max" in kinds or "min" not in kinds
    settles = "max" if descending else "min"
    if keeping:
        open_states = (n + 1) * prod(size for _, size in ords) * added
    elif all(k == settles for k, _ in ords):
        open_states = 1  # nothing placed while the highest (or lowest) is unknown
    else:
        open_states = (n + 1) * prod(size for _, size in ords) * added
    steps = count * open_states * (n + 1)
    done = count * open_states * (n + 1) * added
    powers = count * (n + 1) * _power_work(count, n, added)
    return steps + done + powers


_ADDING = frozenset({"count", "sum", "len", "tally"})


def _classes(
    outcomes: Mapping[tuple[object, ...], int], folds: Sequence[tuple[object, ...]]
) -> int:
    """How many outcomes a die has that add differently to the folds (each
    outcome alone where a fold's values are not known before a call)."""
    found: set[tuple[int, ...]] = set()
    for items in outcomes:
        share = []
        for kind, _, a, b in folds:
            if kind == "count" and (a is _UNKNOWN or b is _UNKNOWN):
                return len(outcomes)
            share.append(_share(str(kind), a, b, items))
        found.add(tuple(share))
    return max(len(found), 1)


def _share(kind: str, a: object, b: object, items: tuple[object, ...]) -> int:
    numbers = [x for x in items if isinstance(x, int)]
    if kind == "count":
        assert isinstance(a, int) and isinstance(b, int)
        return sum(1 for x in numbers if a <= x <= b)
    if kind == "sum":
        return sum(numbers)
    if kind == "len":
        return len(items)
    return sum(1 for x in items if x == a)


def _power_work(classes: int, n: int, values: int) -> int:
    """The most steps of ``n`` dice each showing one of ``classes`` (a share
    each): for each class, the states so far, each with up to n + 1 more."""
    work = n + 1
    for j in range(classes):
        work += min(comb(n + j, j), values * (n + 1)) * (n + 1)
    return work


def _call(step: Step, known: Mapping[str, Known], bounds: Bounds | None) -> Made | None:
    """A call of a rule that rolls: the values of what it answers (its
    answer's range, or the field read's), and its own bound."""
    if bounds is None or not isinstance(step.node, Call):
        return None
    call = step.node
    inner = bounds.of(call.func, step.fields)
    seen = bounds.seen(call.func)
    if inner is None or seen is None:
        return None
    if step.kind == "record":
        fields = seen.fields or {}
        slot = fields.get(step.fields[0])
        if slot is None:
            return None
        value = _field(slot)
    else:
        value = _field(seen.result)
    if value.size is None:
        return None
    return value.size, inner, 64, [value] * len(step.binds)


def _field(field: Field) -> Known:
    """The values a rule's answer (or a field of it) can take."""
    extra = 1 if field.nullable else 0
    if field.type == "int":
        found = _sized(Interval(field.min, field.max))
        return Known(None if found.size is None else found.size + extra, found.interval)
    if field.type == "bool":
        return Known(2 + extra)
    if field.type == "choice":
        return Known(len(field.choices) + extra)
    return Known(None)


def _each(
    step: Step, known: Mapping[str, Known], bounds: Bounds | None, depth: int
) -> Made | None:
    """A comprehension that rolls: for each item at most, a run of its
    test's plan and its body's (the item any of the items' values), then
    each list so far extended by each value of the body (or not)."""
    assert isinstance(step.node, Comp) and step.plans is not None
    comp, (tested, body) = step.node, step.plans
    most, item = _items(comp.items, known)
    if most is None:
        raise Unbounded
    inner = {**known, comp.name: item}
    runs = [_follow(p, dict(inner), bounds, depth) for p in (tested, body) if p]
    if any(r is None for r in runs):
        return None
    work = sum(r[0] for r in runs if r is not None)
    bits = sum(r[1] for r in runs if r is not None)
    values = runs[-1][2][0].size if runs[-1] is not None else None
    if values is None:
        return None if work <= _MOST_DOMAIN else (1, work, bits, [Known(None)])
    grows = values + (tested is not None)  # each value of the body, or none
    held, cost, total = 1, 0, 0
    for _ in range(most):
        total += bits
        cost += work + weighed(held * grows, total)
        held = min(held * grows, _MOST_DOMAIN)
    return held, cost, total, [Known(held, items=most)]


def _items(node: Node, known: Mapping[str, Known]) -> tuple[int | None, Known]:
    """The most items of a list a comprehension goes through, and what each
    can be."""
    if isinstance(node, ListLit):
        parts = [_node(part, known) for part in node.items]
        ivs = [p.interval for p in parts]
        if ivs and all(iv is not None and iv.bounded for iv in ivs):
            hull = ivs[0]
            for iv in ivs[1:]:
                assert hull is not None and iv is not None
                hull = iv_hull(hull, iv)
            return len(parts), _sized(hull)
        sizes = [p.size for p in parts]
        each = None if None in sizes else sum(s or 0 for s in sizes)
        return len(parts), Known(each)
    match node:
        case Name() if node.name in known:
            found = known[node.name]
            return found.items, found.item or Known(None)
        case Call(func="sorted" | "reversed", rule=False, args=(one,)):
            return _items(one, known)
        case Comp():  # at most its items', each unknown here
            return _items(node.items, known)[0], Known(None)
        case Binary(op="+", concat=True) | Cond():
            joined = isinstance(node, Binary)
            sides = (
                (node.left, node.right)
                if isinstance(node, Binary)
                else (node.body, node.orelse)
            )
            (most, item), (more, other) = (_items(p, known) for p in sides)
            if most is None or more is None:
                return None, Known(None)
            total = most + more if joined else max(most, more)
            if item.interval is not None and other.interval is not None:
                return total, _sized(iv_hull(item.interval, other.interval))
            return total, Known(None)
        case _:
            return None, Known(None)
