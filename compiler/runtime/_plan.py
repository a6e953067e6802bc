"""Plans of the odds engine: a rule's odds as steps over environments of the values still needed.

A generated ``<function>_odds`` hands the engine a plan: its sources (a dice
total, a pool read through folds, a call of a rule that rolls), each
independent of every other once the values it reads are known, and its lets
(a value worked out from values before it), in the rule's order; then the
values it answers. Values are numbered; a step reads values by number and
binds its own. The engine keeps one distribution over environments (the
values that later steps still read), adds one source at a time (each
environment with each value of the source: a product, never a nesting of
one source inside another), works each let out once per environment, and
after each step keeps only what later steps read, merging the environments
that become equal. A source reading values is worked out once for each of
their values; one whose value nothing reads only weighs each environment by
its chance of being known. Each step's work (the environments, times the
values a source adds) is counted before it is done (``spend``), the same in
JavaScript. A comprehension whose body or test rolls is a source (``each``):
its list, made item by item from runs of its test's and its body's plans.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from math import lcm
from operator import itemgetter
from typing import Any, Protocol, TypeAlias

from ._dist import Dist
from ._support import MAX_ENTRIES, spend, too_many, weighed

__all__ = ["Step", "each", "let", "live", "run", "source"]

Key = tuple[Any, ...]

# What makes a step's chances (a source) or value (a let) from the values it
# reads: a function of as many values as it reads (each typed Any, so the
# generated lambdas type-check strictly; at most 24 values read by one step).
Made: TypeAlias = (
    Callable[[], Dist]
    | Callable[[Any], Dist]
    | Callable[[Any, Any], Dist]
    | Callable[[Any, Any, Any], Dist]
    | Callable[[Any, Any, Any, Any], Dist]
    | Callable[[Any, Any, Any, Any, Any], Dist]
    | Callable[[Any, Any, Any, Any, Any, Any], Dist]
    | Callable[[Any, Any, Any, Any, Any, Any, Any], Dist]
    | Callable[[Any, Any, Any, Any, Any, Any, Any, Any], Dist]
    | Callable[[Any, Any, Any, Any, Any, Any, Any, Any, Any], Dist]
    | Callable[[Any, Any, Any, Any, Any, Any, Any, Any, Any, Any], Dist]
    | Callable[[Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any], Dist]
    | Callable[[Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any], Dist]
    | Callable[[Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any], Dist]
    | Callable[
        [Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any], Dist
    ]
    | Callable[
        [Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any],
        Dist,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Dist,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Dist,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Dist,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Dist,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Dist,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Dist,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Dist,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Dist,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Dist,
    ]
)
Worked: TypeAlias = (
    Callable[[], Any]
    | Callable[[Any], Any]
    | Callable[[Any, Any], Any]
    | Callable[[Any, Any, Any], Any]
    | Callable[[Any, Any, Any, Any], Any]
    | Callable[[Any, Any, Any, Any, Any], Any]
    | Callable[[Any, Any, Any, Any, Any, Any], Any]
    | Callable[[Any, Any, Any, Any, Any, Any, Any], Any]
    | Callable[[Any, Any, Any, Any, Any, Any, Any, Any], Any]
    | Callable[[Any, Any, Any, Any, Any, Any, Any, Any, Any], Any]
    | Callable[[Any, Any, Any, Any, Any, Any, Any, Any, Any, Any], Any]
    | Callable[[Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any], Any]
    | Callable[[Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any], Any]
    | Callable[[Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any], Any]
    | Callable[
        [Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any], Any
    ]
    | Callable[
        [Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, Any], Any
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Any,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Any,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Any,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Any,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Any,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Any,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Any,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Any,
    ]
    | Callable[
        [
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        Any,
    ]
)


class Step:
    """A step of a plan: ``make`` of the values ``reads`` names, binding the
    values ``binds`` names: a let's value, or a source's chances (a ``Dist``
    of one value, or with ``several`` of a tuple of them)."""

    __slots__ = ("binds", "make", "reads", "several", "source")

    def __init__(
        self,
        make: Callable[..., Any],
        reads: tuple[int, ...],
        binds: tuple[int, ...],
        *,
        source: bool,
        several: bool = False,
    ) -> None:
        self.make = make
        self.reads = reads
        self.binds = binds
        self.source = source
        self.several = several


def source(
    make: Made,
    reads: tuple[int, ...],
    binds: tuple[int, ...],
    several: bool = False,
) -> Step:
    """A source: ``make(*values read)`` is its chances."""
    return Step(make, reads, binds, source=True, several=several)


def let(make: Worked, reads: tuple[int, ...], bind: int) -> Step:
    """A let: ``make(*values read)`` is its value."""
    return Step(make, reads, (bind,), source=False)


def run(steps: Sequence[Step], answers: tuple[int, ...]) -> Dist:
    """The chances of the values ``answers`` names (a tuple of them) after
    the steps."""
    live_after = live(steps, answers)
    layout: tuple[int, ...] = ()
    env: dict[Key, int] = {(): 1}
    denom, cut = 1, 0
    for step, after in zip(steps, live_after, strict=True):
        if after is None:  # a let nothing reads
            continue
        at = {v: i for i, v in enumerate(layout)}
        reads = _picker([at[v] for v in step.reads])
        ext = layout + step.binds
        keep = [i for i, v in enumerate(ext) if v in after]
        if step.source:
            env, denom, cut = _added(env, denom, cut, step, reads, keep, len(layout))
        else:
            env = _worked(env, denom, step, reads, _picker(keep))
        layout = tuple(ext[i] for i in keep)
        if len(env) > MAX_ENTRIES:
            raise too_many("environments of odds")
    at = {v: i for i, v in enumerate(layout)}
    pick = _picker([at[v] for v in answers])
    found: dict[Key, int] = {}
    for key, w in env.items():
        value = pick(key)
        found[value] = found.get(value, 0) + w
    return Dist(found, cut, denom)


class Planned(Protocol):
    """A step as liveness reads it (the runtime's, or the compiler's plan's)."""

    @property
    def source(self) -> bool: ...
    @property
    def reads(self) -> tuple[int, ...]: ...
    @property
    def binds(self) -> tuple[int, ...]: ...


def live(
    steps: Sequence[Planned], answers: tuple[int, ...]
) -> list[frozenset[int] | None]:
    """The values still read after each step (None for a let nothing reads:
    it is skipped): the build follows a plan as the runtime does."""
    now = set(answers)
    found: list[frozenset[int] | None] = [None] * len(steps)
    for i in reversed(range(len(steps))):
        step = steps[i]
        if not step.source and step.binds[0] not in now:
            continue
        found[i] = frozenset(now)
        now.difference_update(step.binds)
        now.update(step.reads)
    return found


def _picker(at: list[int]) -> Callable[[Key], Key]:
    """A function taking the items ``at`` of a key, as a tuple."""
    if not at:
        return lambda key: ()
    if len(at) == 1:
        (one,) = at
        return lambda key: (key[one],)
    return itemgetter(*at)


def _worked(
    env: dict[Key, int],
    denom: int,
    step: Step,
    reads: Callable[[Key], Key],
    keep: Callable[[Key], Key],
) -> dict[Key, int]:
    """Each environment with a let's value, kept as later steps read it."""
    spend(weighed(len(env), denom.bit_length()))
    make = step.make
    found: dict[Key, int] = {}
    for key, w in env.items():
        value = make(*reads(key))
        if type(value) is list:
            value = _frozen(value)  # pyright: ignore[reportUnknownArgumentType]
        new = keep((*key, value))
        found[new] = found.get(new, 0) + w
    return found


def _frozen(value: list[Any]) -> tuple[Any, ...]:
    return tuple(
        _frozen(v) if type(v) is list else v  # pyright: ignore[reportUnknownArgumentType]
        for v in value
    )


def _added(
    env: dict[Key, int],
    denom: int,
    cut: int,
    step: Step,
    reads: Callable[[Key], Key],
    keep: list[int],
    width: int,
) -> tuple[dict[Key, int], int, int]:
    """Each environment with each value of a source (worked out once for each
    set of values it reads), kept as later steps read it; where nothing reads
    it, weighed by its chance of being known."""
    made: dict[Key, Dist] = {}
    for key in env:
        args = reads(key)
        if args not in made:
            made[args] = step.make(*args)
    common = lcm(*(d.denom for d in made.values()))
    known = {args: sum(d.weights.values()) for args, d in made.items()}
    read = any(i >= width for i in keep)
    units = sum(len(made[reads(key)].weights) for key in env) if read else len(env)
    spend(weighed(units, (denom * common).bit_length()))
    pick = _picker(keep)
    several = step.several
    found: dict[Key, int] = {}
    cut *= common
    for key, w in env.items():
        args = reads(key)
        part = made[args]
        scale = w * (common // part.denom)
        cut += scale * part.cut
        if not read:
            new = pick(key)
            found[new] = found.get(new, 0) + scale * known[args]
            continue
        for value, wv in part.weights.items():
            new = pick((*key, *value) if several else (*key, value))
            found[new] = found.get(new, 0) + scale * wv
    return found, denom * common, cut


def each(
    items: Iterable[Any],
    test: Callable[[Any], Dist] | None,
    body: Callable[[Any], Dist],
) -> Dist:
    """The chances of a comprehension's list, made item by item in order: the
    chances of the item's test (a run of its plan; None: it always holds),
    then, where it holds, of its body (each item's dice its own), each list so
    far extended by each value of the body; the tails of both kept."""
    held: dict[Key, int] = {(): 1}
    denom, cut = 1, 0
    for item in items:
        tested = Dist({(True,): 1}, 0, 1) if test is None else test(item)
        holds = sum(w for v, w in tested.weights.items() if v[0])
        fails = sum(w for v, w in tested.weights.items() if not v[0])
        made = body(item) if holds else Dist({}, 0, 1)
        scale = tested.denom * made.denom
        units = len(held) * (int(fails > 0) + len(made.weights))
        spend(weighed(units, (denom * scale).bit_length()))
        weight = sum(held.values())
        cut = cut * scale + weight * tested.cut * made.denom + weight * holds * made.cut
        found: dict[Key, int] = {}
        for done, w in held.items():
            if fails:
                found[done] = found.get(done, 0) + w * fails * made.denom
            for (value,), wv in made.weights.items():
                new = (*done, value)
                found[new] = found.get(new, 0) + w * holds * wv
        held, denom = found, denom * scale
        if len(held) > MAX_ENTRIES:
            raise too_many("lists of odds")
    return Dist(held, cut, denom)
