"""Kind: what a rule kind plugs into the compiler, one field per hook.

A kind is a folder under ``compiler/kinds/`` (or anywhere, for a kind
registered at run time; see ``compiler/kinds/registry.py``) holding:

- ``schema.json``: the JSON Schema of one rule of the kind (Draft 2020-12);
  the build composes ``schema/`` from these, so editors and ``rulesc check``
  see them;
- ``data.schema.json``: the JSON Schema of the kind's own part of a rule in
  ``rules.json`` (what its ``data_view`` answers; ``compiler/emit/json/rules_json.py``
  composes the schema of the whole file from these);
- ``model.py``: the frozen dataclasses of its rules (subclasses of ``RuleBase``);
- ``rule.py``: its build and checks, and its ``lower``: its rules lowered to
  the core (compiler/core/), which every target's emitter (compiler/emit/)
  prints, so a kind holds no template and no code of any target;
  ``workbench.py`` its explain, simulate and diff hooks;
- ``kind.py`` defining ``KIND``, an instance of ``Kind`` (a kind loaded from a
  folder of its own may define it in ``__init__.py`` instead).

Every hook is a required field: a kind that has nothing to do for one says so
with one of the shared answers in ``compiler/kinds/calls.py``, so a test can
check every registered kind against every hook (tests/test_kind_plugins.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path as FsPath
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..common.diagnostics import Path
    from ..core.ir import Unit
    from ..core.jsonkit import Refs
    from ..front.loader import SourceFile
    from ..front.model import (
        Column,
        EnumType,
        Example,
        Param,
        Rolls,
        System,
    )
    from ..front.semantics import SystemBuilder
    from ..lang import expr
    from ..workbench.common import Input

SCHEMA_FILE = "schema.json"
DATA_SCHEMA_FILE = "data.schema.json"  # the kind's part of a rule in rules.json

View = dict[str, Any]


@dataclass(frozen=True)
class Kind:
    """A rule kind: its name, its folder, and its hooks into every stage."""

    name: str
    folder: FsPath
    # "a table", "a rule by cases": what a reader at the table calls a rule of
    # it, as the reference pages and explain name it (never the kind's own name).
    text: str
    # Support modules of the generated package (compiler/runtime/) its code imports.
    runtime: tuple[str, ...]
    # Whether expressions may call its rules by their function name.
    callable: bool
    # Support modules of the JavaScript package (compiler/runtime_js/) its code imports.
    js_runtime: tuple[str, ...]

    # -- build: semantic checks into the model -----------------------------------
    # (builder, file, path of the rule, its raw data, the fields every rule has)
    build: Callable[
        [SystemBuilder, SourceFile, Path, dict[str, Any], dict[str, Any]], Any
    ]
    # Checks that need every rule of the system built.
    finish: Callable[[SystemBuilder, Sequence[Any]], None]
    # Every enum the rule's part of the module defines.
    enums: Callable[[Any], Sequence[EnumType]]
    # What an expression sees of a rule: a table it reads, a function it calls, or None.
    scope: Callable[[Any], expr.Table | expr.Function | expr.DieFaces | None]

    # -- the core: what every target prints ---------------------------------------
    # The rule lowered to the core (compiler/core/), which the emitters of
    # compiler/emit/ print for every target.
    lower: Callable[[System, Any], Unit]

    # How a rule is called, said once in the rules' own names (no target's
    # spelling), for the conformance kit and the reference's forms: (generated
    # module, rule, arguments by the rules' names, whether the call rolls, the
    # dice field of the answer to roll) -> a call (compiler/core/calls.py),
    # which each target spells its own way.
    call: Callable[[Any, Any, dict[str, Any], bool, str | None], dict[str, Any]]
    # The rule's own part of rules.json, as plain JSON data (the keys every rule
    # has are added by compiler/emit/json/rules_json.py); its schema is data.schema.json.
    data_view: Callable[[System, Any, Refs], View]

    # -- worked examples ----------------------------------------------------------
    # The call an example makes, as a reader would write it.
    call_text: Callable[[Any, Example], str]
    # The answer of an example's call: (generated module, rule, example, rng).
    run_example: Callable[[Any, Any, Example, Any], Any]
    # An answer as plain JSON (for diff and simulate --json).
    plain: Callable[[Any, Any], Any]

    # -- the workbench (explain, simulate, diff) ------------------------------------
    # The rule's parameters as the rules declare them, by name.
    params: Callable[[Any], dict[str, Param]]
    # The inputs a call of the rule takes, as a form fills them: (rule, its
    # generated Python module) -> inputs (an rng among them where it rolls), or
    # None for a rule whose inputs no form gives (compiler/emit/markdown/forms.py).
    inputs: Callable[[Any, Any], list[Input] | None]
    # Titles, units and null labels of an answer's fields.
    columns: Callable[[Any], dict[str, Column]]
    # rulesc explain: (explain context) -> None, writing into its sections.
    explain: Callable[[Any], None]
    # The name of the generated function whose parameters are the rule's inputs,
    # or None when it takes none; and how diff names what it calls.
    entry: Callable[[Any], str | None]
    call_name: Callable[[Any], str]
    # rulesc diff: the inputs to compare a rule's answers on (given the entry's
    # parameters, merged from before and after a change); and a sample's answer: (runtime, module, rule, inputs, seed) -> answer.
    samples: Callable[[Any, Sequence[Any]], list[Any]]
    sample_answer: Callable[[Any, Any, Any, dict[str, Any], int | None], Any]
    # The generated function that rolls dice, if the rule has one (a follow-up of a
    # decision may call it).
    rolls: Callable[[Any], Rolls | None]
    # rulesc simulate: the callable one run calls (raising UsageError when the
    # rule has nothing to run), the lines of one run, and the summary of many.
    simulate: Callable[[Any, Any], Callable[..., Any]]
    run_lines: Callable[[Any, Any, Any], list[str]]
    summary: Callable[[Any, Sequence[Any]], tuple[dict[str, Any], Callable[[int], str]]]

    @property
    def schema_path(self) -> FsPath:
        return self.folder / SCHEMA_FILE

    @property
    def data_schema_path(self) -> FsPath:
        return self.folder / DATA_SCHEMA_FILE


HOOKS = tuple(
    f.name
    for f in dataclasses.fields(Kind)
    if f.name not in {"name", "folder", "text", "runtime", "callable", "js_runtime"}
)
