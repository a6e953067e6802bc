"""The generated JavaScript package's types as strict as the Python runtime's:
``tsc --strict`` reports exactly the lines of tests/js/negative.ts marked
``// expect-error`` (a misspelt label, a label in another case, a plain
``string``, a label of another set, a misspelt record field, an event kind the
process lacks...), the twin of tests/typecheck/negative.py (test_typing.py);
and no parameter of a generated module takes any ``string`` for a label."""

from __future__ import annotations

import json
import re
from pathlib import Path

from rulesc.pipeline import load_systems

from .conftest import ROOT, project_systems
from .js_node import JS_TESTS, PACKAGE, node_json, tsc_strict
from .test_cookbook import COOKBOOK, out  # noqa: F401  (the built cookbook)

NEGATIVE = JS_TESTS / "negative.ts"
_MARKER = re.compile(r"//\s*expect-error\s*$")
_ERROR = re.compile(
    r"^(?P<file>[^()\n]+)\((?P<line>\d+),\d+\): error (?P<code>TS\d+): "
)


def expected_lines(path: Path) -> set[int]:
    return {
        number
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
        if _MARKER.search(line)
    }


def _tsc(files: list[Path], include: list[str], tmp_path: Path) -> str:
    """What ``tsc --strict --noEmit`` reports on ``files`` and the ``include`` globs."""
    done = tsc_strict(include, tmp_path, files)
    assert done.stdout or done.returncode == 0, done.stderr
    return done.stdout


def test_the_negative_file_marks_cases() -> None:
    lines = expected_lines(NEGATIVE)
    text = NEGATIVE.read_text("utf-8").splitlines()
    assert len(lines) >= 20
    marked = [text[n - 1] for n in lines]
    assert any('cover("Halff")' in line for line in marked)
    assert any('hitLocation("Torsoo")' in line for line in marked)  # another rule
    assert any("row.coverAC" in line for line in marked)  # a misspelt field


def test_tsc_reports_exactly_the_marked_lines(tmp_path: Path) -> None:
    report = _tsc([NEGATIVE], [str(PACKAGE / "*.d.ts")], tmp_path)
    found = [m for line in report.splitlines() if (m := _ERROR.match(line))]
    here = [m for m in found if (ROOT / m["file"]).resolve() == NEGATIVE]
    got = {int(m["line"]) for m in here}
    want = expected_lines(NEGATIVE)
    assert got == want, (
        f"missing {sorted(want - got)}, unexpected {sorted(got - want)}\n{report}"
    )
    assert len(here) == len(found), report  # the package's own types are clean
    # each a type error, none that the file could not be read or a module found
    assert {m["code"] for m in here} <= {
        "TS2322",
        "TS2339",
        "TS2345",
        "TS2367",
        "TS2540",
        "TS2551",
    }, report


def _label_parameters(types: str) -> list[str]:
    """The declarations of a module's types that take any string where a
    label goes: ``X | string`` of a declared label set ``X``."""
    sets = set(re.findall(r"^export type (\w+) = \"", types, re.M))
    return [
        line
        for line in types.splitlines()
        if any(re.search(rf"\b{name} \| string\b", line) for name in sets)
        or "Record<string, " in line
    ]


def test_no_label_parameter_takes_any_string() -> None:
    for system in project_systems():
        types = (PACKAGE / f"{system.id}.d.ts").read_text("utf-8")
        assert not _label_parameters(types), system.id


def _split(params: str) -> list[str]:
    """A TypeScript parameter list split at its top-level commas."""
    parts, depth, part = [], 0, ""
    for ch in params:
        if ch in "<{([":
            depth += 1
        elif ch in ">})]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(part.strip())
            part = ""
        else:
            part += ch
    return [p for p in [*parts, part.strip()] if p]


_FUNCTION = re.compile(r"^export declare function (\w+)\((.*)\):")
_CONSTRUCTOR = re.compile(r"^  constructor\((.*)\);")
_METHOD = re.compile(r"^  (\w+)\((.*)\): ")


def _callables(system_id: str, types: str) -> list[tuple[str, str]]:
    """Each function, constructor and method a module's types declare: the
    TypeScript type of its parameters' tuple, and its parameter list."""
    found: list[tuple[str, str]] = []
    owner = None
    for line in types.splitlines():
        if declared := re.match(r"^export declare class (\w+)", line):
            owner = declared[1]
        elif line.startswith("}"):
            owner = None
        if function := _FUNCTION.match(line):
            found.append((f"Parameters<typeof {system_id}.{function[1]}>", function[2]))
        elif owner and (made := _CONSTRUCTOR.match(line)):
            found.append(
                (f"ConstructorParameters<typeof {system_id}.{owner}>", made[1])
            )
        elif owner and (method := _METHOD.match(line)):
            where = f"Parameters<{system_id}.{owner}[{json.dumps(method[1])}]>"
            found.append((where, method[2]))
    return found


def _label_slots(system_id: str, types: str) -> list[str]:
    """The type of each place of a module where a label goes, as a TypeScript
    type: each parameter (and option) of each function, constructor and method
    whose type is one of the module's label sets."""
    sets = set(re.findall(r"^export type (\w+) = \"", types, re.M))
    slots: list[str] = []
    for where, params in _callables(system_id, types):
        for index, part in enumerate(_split(params)):
            ts = part.partition(": ")[2]
            if ts.startswith("{"):
                for field in _split(ts.strip("{} ").replace(";", ",")):
                    key, _, kind = field.removeprefix("readonly ").partition(": ")
                    if kind.split(" | ")[0] in sets:
                        key = json.dumps(key.rstrip("?"))
                        slots.append(f"NonNullable<{where}[{index}]>[{key}]")
            elif ts.split(" | ")[0] in sets:
                slots.append(f"{where}[{index}]")
    return slots


def test_the_cookbook_takes_its_labels_only(out: Path, tmp_path: Path) -> None:  # noqa: F811
    """The cookbook (rules of every kind) too: no label parameter takes any
    string, and a value that is no label of its set is refused in each place a
    label goes (every parameter and option of a function, constructor or
    method), once each."""
    systems = [s.id for s in [*load_systems(COOKBOOK), *project_systems()]]
    lines = []
    for system_id in systems:
        package = out / "js" if (out / "js" / f"{system_id}.js").is_file() else PACKAGE
        types = (package / f"{system_id}.d.ts").read_text("utf-8")
        assert not _label_parameters(types), system_id
        lines.append(
            f'import * as {system_id} from "{(package / f"{system_id}.js").as_posix()}";'
        )
        slots = _label_slots(system_id, types)
        lines += [
            f'export const bad{n}: {slot} = "no such label"; // expect-error'
            for n, slot in enumerate(slots, start=len(lines))
        ]
    consumer = tmp_path / "labels.ts"
    consumer.write_text("\n".join(lines) + "\n", "utf-8")
    want = expected_lines(consumer)
    assert len(want) >= 20, lines
    report = _tsc([consumer], [str(out / "js" / "*.d.ts")], tmp_path)
    got = {int(m["line"]) for line in report.splitlines() if (m := _ERROR.match(line))}
    assert got == want, report


def test_a_string_from_outside_becomes_a_label_through_of() -> None:
    """Each label set's ``of`` answers the label a string names in any case, as
    Python's ``Kind(text)`` answers its member, and refuses one that names none
    (the way from a plain ``string`` to the exact type, checked at run time)."""
    import importlib
    from enum import Enum

    asked: list[tuple[str, str, str, str | None]] = []
    for system in project_systems():
        module = importlib.import_module(f"rulebook.{system.id}")
        for name in sorted(dir(module)):
            kind = getattr(module, name)
            if not (isinstance(kind, type) and issubclass(kind, Enum)):
                continue
            if kind.__module__ != module.__name__:  # the runtime's own
                continue
            for member in kind:
                label = str(member.value)
                for text in (label, label.lower(), label.upper()):
                    if text.isascii():
                        asked.append((system.id, name, text, kind(text).value))
            asked.append((system.id, name, "no such label", None))
    assert len(asked) > 100
    uris = {s: (PACKAGE / f"{s}.js").as_uri() for s, *_ in asked}
    script = "".join(f'import * as {s} from "{u}";\n' for s, u in uris.items())
    script += f"""
const asked = {json.dumps([a[:3] for a in asked])};
const modules = {{ {", ".join(uris)} }};
console.log(JSON.stringify(asked.map(([system, kind, text]) => {{
  try {{ return modules[system][kind].of(text); }} catch (e) {{ return [e.name, e.message]; }}
}})));
"""
    for (system_id, name, text, want), got in zip(
        asked, node_json(script), strict=True
    ):
        if want is None:
            assert got[0] == "RuleInputError", (system_id, name, got)
            assert got[1].startswith(f"a label of {name} must be one of "), got
        else:
            assert got == want, (system_id, name, text)
