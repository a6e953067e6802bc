"""A misspelt key is one error, at that key, naming it, with a did-you-mean hint.

The property test misspells a key of an object in a list (a rule, a course, a
parameter, a row's key, an example, an on_failure entry, ...) in the real rules
and the cookbook, and checks the file (schema, then the system's semantic
checks) in memory. Not covered: the cells of a table row, whose keys are the
rule's own column names (a misspelt column is one error in its row, but the
rules that use the table then fail too), and the records an example expects
(compared when the examples run).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.common.diagnostics import (
    Diagnostic,
    RulesError,
)
from rulesc.front.loader import (
    SourceFile,
    load_file,
    load_text,
)
from rulesc.front.semantics import build_system
from rulesc.front.validate import (
    _every_key,
    validate,
)
from rulesc.kinds import registry

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = sorted(
    p
    for base in (ROOT / "rules", ROOT / "tests" / "cookbook")
    for p in base.iterdir()
    if (p / "system.yaml").is_file()
)


class Site(NamedTuple):
    folder: Path
    name: str
    path: tuple[Any, ...]  # of the key


def _keys(src: SourceFile) -> list[tuple[Any, ...]]:
    every = _every_key(registry.generation())
    found: list[tuple[Any, ...]] = []

    def walk(node: Any, path: tuple[Any, ...], columns: set[str]) -> None:
        if isinstance(node, dict):
            names = {
                str(c.get("name"))
                for c in node.get("columns", ())
                if isinstance(c, dict)
            }
            for key, value in node.items():
                walk(value, (*path, key), columns | names)
        elif isinstance(node, list):
            for index, item in enumerate(node):
                if isinstance(item, dict) and "expect" not in path:
                    found.extend(
                        (*path, index, key)
                        for key in item
                        if isinstance(key, str)
                        and key in every
                        and not (path[-1:] == ("rows",) and key in columns)
                        and src.key_scalars[(*path, index, key)][2] is None
                    )
                walk(item, (*path, index), columns)

    walk(src.data, (), set())
    return found


@cache
def _loaded(folder: Path) -> dict[str, SourceFile]:
    return {
        p.name: load_file(p, f"rules/{folder.name}/{p.name}")
        for p in sorted(folder.glob("*.yaml"))
    }


SITES = [
    Site(folder, name, path)
    for folder in FOLDERS
    for name, src in _loaded(folder).items()
    for path in _keys(src)
]


def _errors(site: Site, new_key: str) -> list[Diagnostic]:
    files = dict(_loaded(site.folder))
    src = files[site.name]
    start, end, _ = src.key_scalars[site.path]
    changed = load_text(
        (src.text[:start] + new_key + src.text[end:]).encode("utf-8"), src.path
    )
    problems = validate(changed)
    if problems:
        return problems
    files[site.name] = changed
    try:
        build_system(
            files["system.yaml"],
            [f for n, f in files.items() if n != "system.yaml"],
            registry.kinds(),
        )
    except RulesError as e:
        return list(e.diagnostics)
    return []


@st.composite
def misspelt(draw: st.DrawFn) -> tuple[Site, str]:
    site = draw(st.sampled_from(SITES))
    key = site.path[-1]
    i = draw(st.integers(0, len(key) - 1))
    how = draw(st.sampled_from(["double", "drop", "swap", "change"]))
    if how == "double" or len(key) < 3:
        new = key[: i + 1] + key[i:]
    elif how == "drop":
        new = key[:i] + key[i + 1 :]
    elif how == "swap" and i + 1 < len(key) and key[i] != key[i + 1]:
        new = key[:i] + key[i + 1] + key[i] + key[i + 2 :]
    else:
        new = key[:i] + ("x" if key[i] != "x" else "q") + key[i + 1 :]
    return site, new


@settings(max_examples=300, derandomize=True, deadline=None)
@given(misspelt())
def test_a_misspelt_key_is_one_error_at_the_key(case: tuple[Site, str]) -> None:
    site, new = case
    src = _loaded(site.folder)[site.name]
    item = src.data
    for step in site.path[:-1]:
        item = item[step]
    if new in item or new in _every_key(registry.generation()):
        return  # not a misspelling: a key of its own
    errors = _errors(site, new)
    assert len(errors) == 1, (site, new, [(e.line, e.col, e.message) for e in errors])
    (error,) = errors
    assert error.file == src.path
    assert (error.line, error.col) == src.key_positions[site.path], (site, new, error)
    assert repr(new) in error.message, error
    assert error.hint is not None and "did you mean" in error.hint, error
    shown = f"{error.message}\n{error.hint}"
    assert len(shown) < 300 and shown.count("\n") < 3, shown


def test_every_list_of_objects_is_sampled() -> None:
    kinds = {site.path[-3] for site in SITES if isinstance(site.path[-3], str)}
    assert {"rules", "courses", "parameters", "rows", "examples", "on_failure"} <= kinds
    assert len(SITES) > 1000
