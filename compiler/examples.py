"""Examples: run the worked examples of the rules against a generated runtime."""

from __future__ import annotations

import enum
import importlib
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path as FsPath
from types import ModuleType
from typing import Any

from .common.diagnostics import Diagnostic
from .front.model import (
    Example,
    Rule,
    System,
)
from .kinds.calls import scripted
from .kinds.registry import kind_of
from .lang.py_names import field_of


def call_text(rule: Rule, ex: Example) -> str:
    """The call an example makes, as a reader would write it (valid Python)."""
    text = kind_of(rule).call_text(rule, ex)
    if ex.select is not None:
        field, where = ex.select
        tests = " and ".join(f"e.{field_of(None, k)} == {v!r}" for k, v in where)
        text = f"[e for e in {text}.{field_of(None, field)} if {tests}]"
    return text


def expect_text(ex: Example) -> str:
    """The expected answer, as the docs show it."""
    if ex.raises:
        return f"raises {ex.raises}"
    if isinstance(ex.expect, dict):
        return ", ".join(f"{k}={_show(v)}" for k, v in ex.expect.items())
    return _show(ex.expect)


def _show(value: Any) -> str:
    return (
        "None"
        if value is None
        else repr(value)
        if isinstance(value, str)
        else str(value)
    )


# The answers of the examples that held, by rule id and example name.
ExampleResults = dict[tuple[str, str], Any]


def run_example(module: ModuleType, rule: Rule, ex: Example) -> str | None:
    """Run one example; None when it holds, else what went wrong."""
    return _run(module, rule, ex)[0]


def _rng(module: ModuleType, ex: Example) -> Any:
    """The example's scripted dice, or None when it scripts none."""
    return scripted(module, list(ex.dice)) if ex.dice is not None else None


def _select(value: Any, ex: Example) -> Any:
    """The items of an answer's list field that an example picks out, if it does."""
    if ex.select is None:
        return value
    field, where = ex.select
    return [
        item
        for item in getattr(value, field_of(value, field))
        if all(
            compare(getattr(item, field_of(item, k), None), v, "") is None
            for k, v in where
        )
    ]


def example_value(module: ModuleType, rule: Rule, ex: Example) -> Any:
    """What an example's call answers, with its scripted dice (its selection made)."""
    return _select(kind_of(rule).run_example(module, rule, ex, _rng(module, ex)), ex)


def _run(module: ModuleType, rule: Rule, ex: Example) -> tuple[str | None, Any]:
    errors_mod = importlib.import_module(module.__name__.rsplit(".", 1)[0] + ".errors")
    rng = _rng(module, ex)
    answer: Any = None
    try:
        answer = kind_of(rule).run_example(module, rule, ex, rng)
        actual = _select(answer, ex)
    except errors_mod.RuleInputError as exc:
        if ex.raises == "RuleInputError":
            return None, None
        return f"raised RuleInputError: {exc}", None
    except Exception as exc:  # the example itself reports it; the build goes on
        return f"raised {type(exc).__name__}: {exc}", None
    if ex.raises:
        return f"expected it to raise {ex.raises}, but it answered {actual!r}", None
    if rng is not None and rng.remaining:
        return f"{rng.remaining} scripted dice were not used", None
    mismatch = compare(actual, ex.expect, "")
    if mismatch:
        return f"expected {expect_text(ex)}, got {mismatch}", None
    return None, answer


def compare(actual: Any, expect: Any, where: str) -> str | None:
    """None when ``actual`` matches the JSON value ``expect``, else what differs."""
    if isinstance(expect, Mapping):
        if actual is None:
            return f"{where.rstrip('.') + '=' if where else ''}None"
        for key, value in expect.items():
            present, item = _field(actual, key)
            if not present:
                return f"no field {where}{key}"
            found = compare(item, value, f"{where}{key}.")
            if found:
                return found
        return None
    if isinstance(actual, enum.Enum):
        same = actual.value == expect
    elif type(actual).__name__ == "Dice" and hasattr(type(actual), "FIELDS"):
        same = isinstance(expect, str | int) and str(actual) == str(expect)
    elif isinstance(expect, bool) or isinstance(actual, bool):
        same = type(actual) is type(expect) and actual == expect
    elif isinstance(expect, list):
        same = (
            isinstance(actual, list | tuple)
            and len(actual) == len(expect)
            and all(
                compare(a, e, where) is None
                for a, e in zip(actual, expect, strict=True)
            )
        )
    else:
        same = actual == expect
    if same:
        return None
    return f"{where.rstrip('.') + '=' if where else ''}{_show(_plain(actual))}"


def _field(actual: Any, key: str) -> tuple[bool, Any]:
    """A field of a record, or the entry of a mapping whose key (or label) is ``key``."""
    if isinstance(actual, Mapping):
        for k, v in actual.items():
            if k == key or (isinstance(k, enum.Enum) and k.value == key):
                return True, v
        return False, None
    name = field_of(actual, key)
    return hasattr(actual, name), getattr(actual, name, None)


def _plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    return value


@contextmanager
def runtime_from(files: Mapping[str, str]) -> Iterator[str]:
    """Import a just-rendered ``rulebook`` package in isolation; yields its name.

    The package is written to a temporary folder and imported under its own
    name, with any other ``rulebook`` modules set aside and restored after.
    """
    saved = {
        k: v
        for k, v in sys.modules.items()
        if k == "rulebook" or k.startswith("rulebook.")
    }
    for key in saved:
        del sys.modules[key]
    old_path = list(sys.path)
    old_bytecode = sys.dont_write_bytecode
    with tempfile.TemporaryDirectory(prefix="rulesc-examples-") as tmp:
        for rel, text in files.items():
            target = FsPath(tmp) / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        sys.path.insert(0, tmp)
        sys.dont_write_bytecode = True
        importlib.invalidate_caches()
        try:
            yield "rulebook"
        finally:
            for key in [
                k for k in sys.modules if k == "rulebook" or k.startswith("rulebook.")
            ]:
                del sys.modules[key]
            sys.modules.update(saved)
            sys.path[:] = old_path
            sys.dont_write_bytecode = old_bytecode


def check_examples(
    system: System, module: ModuleType
) -> tuple[list[Diagnostic], ExampleResults]:
    """Run every example of a system: a diagnostic for each that does not hold,
    and the full answer of each that does (the docs may show it)."""
    problems = []
    results: ExampleResults = {}
    for rule in system.rules:
        for ex in rule.examples:
            failure, answer = _run(module, rule, ex)
            results[(rule.id, ex.name)] = answer
            if failure:
                problems.append(
                    Diagnostic(
                        ex.loc.file,
                        ex.loc.line,
                        ex.loc.col,
                        f"worked example {ex.name!r} of rule {rule.qualified_id!r} "
                        f"does not hold: {failure}",
                        "if the new answer is intended, `rulesc accept` rewrites "
                        "the expect; else fix the rule's data; where the source's "
                        "own example disagrees with its tables, record an erratum",
                    )
                )
    return problems, results
