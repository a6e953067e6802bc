"""Target: what one output of the build declares, for the pipeline, the cache and the check.

A target (the Python package, the JavaScript package, the reference pages,
rules.json) is one ``Target``, declared in its package under ``compiler/emit/``
and appended to the list of ``compiler/emit/targets.py``. The pipeline, the
cache, ``rulesc check`` and the manifest iterate over that list and name no
target. A declaration imports nothing heavy (the cache reads it on a build it
answers whole): its hooks import their printers when they run.

A build runs the hooks in this order, each target in the list's order:

1. ``code``: the files made before any example runs (a runtime's modules);
2. the worked examples run against the target that ``runs`` them, and
   ``observe`` sees each system's loaded module (forms, odds, charts);
3. ``pages``: the files made from the examples' results;
4. ``share``: a system's part (``compiler.common.parts``): more files of its
   own, its view for the outputs made from every system, its data text;
5. ``together``: the outputs made from every system's share; ``assemble``:
   those made from the parts alone (the cache makes them again from its
   entries rather than store them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..common.diagnostics import Diagnostic

if TYPE_CHECKING:
    from ..common.parts import Part, Shares
    from ..examples import ExampleResults
    from ..front.model import System
    from ..front.settings import Settings

View = dict[str, Any]


@dataclass(slots=True)
class Work:
    """What the targets of one build share while it runs: the systems (a
    ``Part`` stands for one an earlier build made), the package settings, the
    files made so far by path, the systems built now (``built``) with their
    examples' results, and what each target keeps between its hooks
    (``kept``, by target name; another target may read it)."""

    systems: Sequence[System | Part]
    settings: Settings
    built: Sequence[System] = ()
    files: dict[str, str] = field(default_factory=dict)
    results: dict[str, ExampleResults] = field(default_factory=dict)
    kept: dict[str, dict[str, Any]] = field(default_factory=dict)
    # The systems whose worked examples the build checked and found to hold
    # (tests that change figures in a copy of the rules may not check them): a
    # target whose files vouch for answers (the conformance kit) writes them
    # for these alone.
    sound: set[str] = field(default_factory=set)

    def keep(self, target: str) -> dict[str, Any]:
        """What ``target`` keeps during this build."""
        return self.kept.setdefault(target, {})


@dataclass(frozen=True, slots=True)
class Share:
    """A target's share of one system's part: files of the system's own made
    from its other files (``own``), its view for the outputs made from every
    system (``view``), and its text read without unpickling (``data``)."""

    own: Mapping[str, str] = field(default_factory=dict)
    view: View | None = None
    data: str | None = None


def _none(*_: object, **__: object) -> dict[str, str]:
    return {}


def _no_problems(*_: object, **__: object) -> list[Diagnostic]:
    return []


def _no_bytes(*_: object) -> dict[str, bytes]:
    return {}


def _no_share(*_: object) -> Share:
    return Share()


def _nothing() -> None:
    return None


@dataclass(frozen=True, slots=True)
class Target:
    """One output of the build: its name, the files it writes for one system
    (``own``: by system id and rule ids) and for all (``shared``), the system
    ids it reserves (with why), what the cache hashes for it (``libraries``,
    whose installed versions key the cache; ``warm``, what a worker process
    should have made before building), its ``check`` (what ``rulesc validate``
    runs: ``clean`` says no other target found an error, as a target whose
    names derive from another's reports a clash once), and its hooks (see the
    module's docstring). ``code`` and ``pages`` raise ``RulesError`` with every
    error they find."""

    name: str
    own: Callable[[str, Iterable[str]], tuple[str, ...]]
    shared: Callable[[], tuple[str, ...]]
    reserved: Mapping[str, str] = field(default_factory=dict)
    libraries: tuple[str, ...] = ()
    warm: Callable[[], None] = _nothing
    check: Callable[[Sequence[System], bool], list[Diagnostic]] = _no_problems
    code: Callable[[Work, bool], dict[str, str]] = _none
    runs: bool = False
    observe: Callable[[System, ModuleType, Work], list[Diagnostic]] = _no_problems
    pages: Callable[[Work], dict[str, str]] = _none
    share: Callable[[System, Mapping[str, str], Work], Share] = _no_share
    together: Callable[[Sequence[Shares], Work], dict[str, str]] = _none
    assemble: Callable[[Sequence[Part]], dict[str, bytes]] = _no_bytes


TEMPLATE_LIBRARIES = ("jinja2", "markupsafe")


def warm_templates() -> None:
    """Make the Jinja environment and compile every template."""
    from . import render

    env = render.environment()
    for name in env.list_templates(filter_func=lambda n: n.endswith(".j2")):
        env.get_template(name)
