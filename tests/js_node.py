"""Node for the JavaScript tests: finding it, running ``node --test`` on a case file,
and hand-made cases (each a call plan with the Python runtime's answer; the
worked examples and samples of a build are its conformance kit's).

Without Node the JavaScript tests skip, except under ``make test``
(``RULEBOOK_JS_TESTS=required``) and in CI, where a missing Node is a failure.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis.strategies import SearchStrategy

from rulesc.emit.conformance.kit import rule_texts
from rulesc.emit.javascript import views as js_views
from rulesc.emit.javascript.names import jsname
from rulesc.emit.javascript.plan import js_plan
from rulesc.emit.python.calls import run_call
from rulesc.front.model import (
    Example,
    System,
)
from rulesc.kinds.registry import kind_of
from rulesc.lang.py_names import (
    RNG,
    pyattr,
    pyname,
    rules_name,
)

ROOT = Path(__file__).resolve().parent.parent
JS_TESTS = ROOT / "tests" / "js"
PACKAGE = ROOT / "generated" / "js"
T = TypeVar("T")


def required() -> bool:
    return os.environ.get("RULEBOOK_JS_TESTS") == "required" or bool(
        os.environ.get("CI")
    )


def missing(what: str) -> NoReturn:
    """Skip for want of ``what``, or fail where the JavaScript tests are required."""
    message = f"{what} is missing; `make build` installs it"
    if required():
        pytest.fail(message)
    pytest.skip(message)


def node() -> str:
    found = shutil.which("node")
    if found is None:
        missing("Node.js (node)")
    return found


def node_test(test_file: str, spec: dict[str, Any], tmp: Path) -> None:
    """Run one ``node --test`` file on the cases of ``spec``; fail with its report."""
    cases = tmp / f"{test_file}.json"
    cases.write_text(json.dumps(spec), encoding="utf-8")
    done = subprocess.run(
        [node(), "--test", "--test-reporter=spec", str(JS_TESTS / test_file)],
        env=dict(os.environ, RULEBOOK_JS_CASES=str(cases)),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, (
        f"node --test {test_file} failed:\n{done.stdout[-20000:]}\n{done.stderr[-4000:]}"
    )
    assert re.search(r"\bpass [1-9]", done.stdout), done.stdout  # tests did run


def node_cases(script: Path, spec: dict[str, Any], tmp: Path) -> Any:
    """Run ``script`` (a Node module of tests/js that reads the JSON file
    RULEBOOK_JS_CASES names) on ``spec``; the JSON it printed."""
    cases = tmp / f"{script.stem}.json"
    cases.write_text(json.dumps(spec), encoding="utf-8")
    done = subprocess.run(
        [node(), str(script)],
        env=dict(os.environ, RULEBOOK_JS_CASES=str(cases)),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout)


def drawn(strategy: SearchStrategy[T], count: int) -> list[T]:
    """``count`` values of ``strategy``, reproducibly, to send to one Node
    process and check afterwards, together."""
    found: list[T] = []

    @settings(max_examples=count, derandomize=True, database=None, deadline=None)
    @given(strategy)
    def collect(value: T) -> None:
        found.append(value)

    collect()
    return found


def tsc_strict(
    include: list[str], tmp_path: Path, files: Sequence[Path] = ()
) -> subprocess.CompletedProcess[str]:
    """``tsc --strict --noEmit`` (tests/js/tsconfig.json's options) on the
    ``include`` globs and ``files``, in a config written to ``tmp_path``."""
    tsc = JS_TESTS / "node_modules" / ".bin" / "tsc"
    node()
    if not tsc.is_file():
        missing("TypeScript (tests/js: npm ci)")
    options = {
        "strict": True,
        "noEmit": True,
        "target": "es2022",
        "module": "nodenext",
        "moduleResolution": "nodenext",
        "types": [],
        "exactOptionalPropertyTypes": True,
    }
    project: dict[str, Any] = {"compilerOptions": options, "include": include}
    if files:
        project["files"] = [str(f) for f in files]
    config = tmp_path / "tsconfig.json"
    config.write_text(json.dumps(project), "utf-8")
    return subprocess.run(
        [node(), str(tsc), "-p", str(config), "--pretty", "false"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def node_json(script: str, cwd: Path | None = None) -> Any:
    """Run ``script`` as an ES module under ``node -e``; the JSON it printed."""
    done = subprocess.run(
        [node(), "--input-type=module", "-e", script],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# -- the Python runtime's answers ---------------------------------------------------


def js_message(system: System, message: str, params: Iterable[str] = ()) -> str:
    """A message of the Python runtime as the JavaScript runtime words it: the
    rules' names (and ``params``, the called function's parameters by their
    Python names, which a kind may name itself) as each language spells them,
    and Python's words for values in JavaScript's; a message the rules data
    gives (a decision's refusal) is data, the same in both."""
    if message in rule_texts(system.rules, set()):
        return message
    given = {n.name for n in system.names} | {rules_name(p) for p in params}
    spelt: dict[str, str] = {}
    for name in given:
        for py in (pyname(name), pyattr(name), pyattr(name, "mutable")):
            if py != jsname(name):
                spelt.setdefault(py, jsname(name))
    for py in sorted(spelt, key=len, reverse=True):
        message = re.sub(rf"(?<![\w']){re.escape(py)}(?![\w])", spelt[py], message)
    message = message.replace("random.Random()", "new Random()")
    for py, js in (("True", "true"), ("False", "false"), ("None", "null")):
        message = re.sub(rf"(?<![\w']){py}\b", js, message)
    return message


def ported(system: System) -> set[str]:
    """The ids of the rules that are in the system's JavaScript module."""
    view, _ = js_views.module_view(system)
    return {r["id"] for r in view["rules"]}


def answer(
    system: System, module: Any, call: dict[str, Any], rng: Any
) -> dict[str, Any]:
    """The Python runtime's answer to a rule's call (compiler/core/calls.py),
    as JSON, or the message it refused with."""
    package = module.__name__.rsplit(".", 1)[0]
    errors = importlib.import_module(f"{package}.errors")
    json_module = importlib.import_module(f"{package}.json")
    try:
        value = run_call(module, call, rng)
        return {
            "answer": json_module.to_data(value),
            "text": json_module.dumps(value),
            "indented": json_module.dumps(value, indent=2, sort_keys=True),
        }
    except errors.RuleInputError as exc:
        params = [
            pyname(a["name"]) if "name" in a else RNG for a in call.get("args", ())
        ]
        return {"raises": js_message(system, str(exc), params)}


def example_case(system: System, module: Any, rule: Any, ex: Example) -> dict[str, Any]:
    scripted = importlib.import_module(
        module.__name__.rsplit(".", 1)[0] + ".dice"
    ).Scripted
    kind = kind_of(rule)
    rolls = ex.dice is not None and ex.roll is None
    call = kind.call(module, rule, dict(ex.args), rolls, ex.roll)
    dice = list(ex.dice) if ex.dice is not None else None
    rng = scripted(dice) if dice is not None else None
    case: dict[str, Any] = {
        "name": f"{rule.qualified_id} example {ex.name}",
        "plan": js_plan(call),
        "dice": dice,
        "python": answer(system, module, call, rng),
    }
    if not ex.raises:
        case["expect"] = ex.expect
        case["select"] = (
            [ex.select[0], [list(w) for w in ex.select[1]]] if ex.select else None
        )
    return case
