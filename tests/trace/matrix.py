"""The traceability matrix: reading ``tests/trace/<system>.yaml`` and checking it.

Each matrix lists every passage of a system's source document (see
``tests/trace/passages.py``) with exactly one account of it: the ``rules`` that
encode it (optionally ``at`` JSON pointers into their data), the ``ruling`` that
records a reading the source leaves open, the ``not_modelled`` note (in the
system's ``system.yaml``) that says why the rules leave it out, or
``no_mechanic: true``.

The checks return problems as lines of text. They name passages by file, line
range and digest, never by their text: the source's prose stays out of the
project, test output included.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from .passages import Passage, passages

TRACE = Path(__file__).resolve().parent
ACCOUNTS = ("rules", "ruling", "not_modelled", "no_mechanic")
_LINES = re.compile(r"^([1-9][0-9]*)-([1-9][0-9]*)$")
_DIGEST = re.compile(r"^[0-9a-f]{12}$")
NAMES = ("id", "name", "key")  # what names a list item in a pointer


@dataclass(frozen=True, slots=True)
class SystemData:
    """What the checks need of a system's rules: raw rule data and notes."""

    id: str
    source_file: str
    rules: dict[str, dict[str, Any]]  # rule id -> the rule's YAML data
    not_modelled: tuple[str, ...]  # the ids of system.yaml's not_modelled notes


def _yaml(path: Path) -> Any:
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def names_a_source(folder: Path) -> bool:
    """Whether the system of ``rules/<system>/`` names a source document of its
    own (house rules do not: ``house: true``, or ``extends`` another system)."""
    meta = _yaml(folder / "system.yaml")
    return "source" in meta and "extends" not in meta and meta.get("house") is not True


def load_system(folder: Path) -> SystemData:
    """A system's rules data, read straight from ``rules/<system>/``; a house
    rule (``house: true``) is not the source's, and is left out."""
    meta = _yaml(folder / "system.yaml")
    rules: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.yaml")):
        if path.name != "system.yaml":
            for rule in _yaml(path).get("rules", []):
                if rule.get("house") is not True:
                    rules[rule["id"]] = rule
    notes = tuple(n["id"] for n in meta.get("not_modelled", []))
    return SystemData(meta["system"], meta["source"]["file"], rules, notes)


def load_matrix(path: Path) -> dict[str, Any]:
    """A matrix file's data: ``system``, ``source`` and ``passages``."""
    data = _yaml(path)
    if not isinstance(data, dict):
        raise ValueError(f"{path.name}: not a mapping")
    return data


def _item(items: list[Any], key: str) -> Any:
    """The list item a pointer token names: its index, or its id, name or key."""
    if key.isdigit():
        return (
            items[int(key)] if key == str(int(key)) and int(key) < len(items) else None
        )
    named = [
        item
        for item in items
        if isinstance(item, dict)
        and key == next((item[k] for k in NAMES if k in item), None)
    ]
    return named[0] if len(named) == 1 else None


def resolves(data: Any, pointer: str) -> bool:
    """Whether a JSON pointer (RFC 6901) names a node of ``data``.

    One extension: a list item may be named by its ``id``, ``name`` or ``key``
    (the first it has) instead of its index, as in ``/rulings/round_down``, so
    that a pointer keeps its target when items are added before it.
    """
    if pointer == "":
        return True
    if not pointer.startswith("/"):
        return False
    node = data
    for token in pointer[1:].split("/"):
        key = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and (found := _item(node, key)) is not None:
            node = found
        else:
            return False
    return True


def _where(matrix: dict[str, Any], index: int, entry: Any) -> str:
    lines = entry.get("lines") if isinstance(entry, dict) else None
    return f"{matrix.get('source')}: passage {index + 1} (lines {lines})"


def shape_problems(matrix: dict[str, Any]) -> list[str]:
    """Entries that are not {lines, digest, one account}, or out of order."""
    problems = []
    entries = matrix.get("passages")
    if not isinstance(entries, list) or not entries:
        return [f"{matrix.get('source')}: no passages listed"]
    previous = (0, 0)
    for index, entry in enumerate(entries):
        where = _where(matrix, index, entry)
        if not isinstance(entry, dict):
            problems.append(f"{where}: not a mapping")
            continue
        match = _LINES.match(str(entry.get("lines", "")))
        if match is None or int(match[1]) > int(match[2]):
            problems.append(f'{where}: lines must be "first-last", 1-based')
        elif (int(match[1]), int(match[2])) < previous:
            problems.append(f"{where}: out of order")
        else:
            previous = (int(match[1]), int(match[2]))
        if not isinstance(entry.get("digest"), str) or not _DIGEST.match(
            entry["digest"]
        ):
            problems.append(f"{where}: digest must be 12 lowercase hex digits")
        accounts = [key for key in ACCOUNTS if key in entry]
        if len(accounts) != 1:
            problems.append(
                f"{where}: needs exactly one of {', '.join(ACCOUNTS)}"
                f" (has {', '.join(accounts) or 'none'})"
            )
        unknown = set(entry) - {"lines", "digest", "at", *ACCOUNTS}
        if unknown:
            problems.append(f"{where}: unknown keys {', '.join(sorted(unknown))}")
        if "at" in entry and "rules" not in entry:
            problems.append(f"{where}: at is only for rules")
        if "no_mechanic" in entry and entry["no_mechanic"] is not True:
            problems.append(f"{where}: no_mechanic must be true")
    return problems


def _pointer_problems(
    where: str, rules: list[Any], at: Any, system: SystemData
) -> list[str]:
    if not isinstance(at, list) or not at:
        return [f"{where}: at must be a list of JSON pointers"]
    problems = []
    for item in at:
        text = str(item)
        rule_id, _, pointer = text.rpartition("#") if "#" in text else ("", "", text)
        if rule_id and rule_id not in rules:
            problems.append(f"{where}: at {text!r} names rule {rule_id!r}, not listed")
            continue
        target = rule_id or str(rules[0])
        data = system.rules.get(target)
        if data is not None and not resolves(data, pointer):
            problems.append(f"{where}: at {text!r} is not in rule {target!r}")
    return problems


def reference_problems(matrix: dict[str, Any], system: SystemData) -> list[str]:
    """Rules, rulings, notes and pointers the matrix names that do not exist."""
    problems = []
    if matrix.get("system") != system.id:
        problems.append(
            f"matrix of {matrix.get('system')!r} checked against {system.id!r}"
        )
    if matrix.get("source") != system.source_file:
        problems.append(
            f"matrix source {matrix.get('source')!r} is not the system's"
            f" source.file {system.source_file!r}"
        )
    for index, entry in enumerate(matrix.get("passages") or []):
        if not isinstance(entry, dict):
            continue
        where = _where(matrix, index, entry)
        if "rules" in entry:
            rules = entry["rules"]
            if not isinstance(rules, list) or not rules:
                problems.append(f"{where}: rules must be a list of rule ids")
                continue
            problems += [
                f"{where}: no rule {r!r} in {system.id}"
                for r in rules
                if r not in system.rules
            ]
            if "at" in entry:
                problems += _pointer_problems(where, rules, entry["at"], system)
        if "ruling" in entry:
            parts = str(entry["ruling"]).split(".")
            rulings = (
                system.rules.get(parts[1], {}).get("rulings", [])
                if len(parts) == 3 and parts[0] == system.id
                else []
            )
            if not any(r.get("id") == parts[-1] for r in rulings):
                problems.append(
                    f"{where}: no ruling {entry['ruling']!r}"
                    " (write system.rule_id.ruling_id)"
                )
        if "not_modelled" in entry and entry["not_modelled"] not in system.not_modelled:
            problems.append(
                f"{where}: no not_modelled note {entry['not_modelled']!r}"
                f" in rules/{system.id}/system.yaml"
            )
    return problems


def coverage_problems(matrix: dict[str, Any], system: SystemData) -> list[str]:
    """Rules and notes of the system that no passage of the matrix names."""
    entries = [e for e in matrix.get("passages") or [] if isinstance(e, dict)]
    named_rules = {r for e in entries for r in e.get("rules") or []}
    named_rules |= {
        str(e["ruling"]).split(".")[1] for e in entries if "." in str(e.get("ruling"))
    }
    named_notes = {e.get("not_modelled") for e in entries}
    problems = [
        f"rule {rule_id!r} of {system.id} is not traced to any passage of"
        f" {system.source_file}"
        for rule_id in system.rules
        if rule_id not in named_rules
    ]
    problems += [
        f"not_modelled note {note!r} of {system.id} is not traced to any passage"
        f" of {system.source_file}"
        for note in system.not_modelled
        if note not in named_notes
    ]
    return problems


def _key(entry: dict[str, Any]) -> tuple[str, str]:
    return str(entry.get("lines")), str(entry.get("digest"))


def passage_problems(
    matrix: dict[str, Any], found: Iterable[Passage], file_name: str
) -> list[str]:
    """Where the matrix's passages differ from the passages found in the source.

    Names each passage by ``file_name``, line range and digest, never by text.
    """
    have = list(found)
    listed = [_key(e) for e in matrix.get("passages") or [] if isinstance(e, dict)]
    in_source = {(p.lines, p.digest) for p in have}
    stale = [key for key in listed if key not in in_source]
    listed_set = set(listed)
    listed_digests = {digest for _, digest in listed}
    stale_lines = {lines for lines, _ in stale}
    problems = []
    for p in have:
        if (p.lines, p.digest) in listed_set:
            continue
        if p.digest in listed_digests:
            what = "moved (the matrix lists its digest at other lines)"
        elif p.lines in stale_lines:
            what = "changed (the matrix lists another digest at these lines)"
        else:
            what = "new"
        problems.append(
            f"{file_name}:{p.lines}: untraced passage, digest {p.digest}: {what};"
            " add it to the matrix and classify it"
        )
    for lines, digest in stale:
        problems.append(
            f"{file_name}:{lines}: the matrix lists digest {digest}, which the"
            " source no longer has there; remove or update the entry"
        )
    if not problems and listed != [(p.lines, p.digest) for p in have]:
        problems.append(f"{file_name}: the matrix lists its passages out of order")
    return problems


def source_problems(matrix: dict[str, Any], source: Path) -> list[str]:
    """``passage_problems`` for the source document at ``source``."""
    return passage_problems(matrix, passages(source), source.name)


def matrices() -> dict[str, Path]:
    """Every matrix file, by the system it traces (its file name)."""
    return {path.stem: path for path in sorted(TRACE.glob("*.yaml"))}
