"""House rules: a system that extends another takes a copy of its rules, merged with its overrides.

A system's ``system.yaml`` may say ``extends: BASE``: it then builds as a system
of its own from a copy of every rules file of BASE (the base itself is built
unchanged), with everything its own ``system.yaml`` leaves out taken from the
base's. Its own rules files may add rules (house rules) and list ``overrides``:
each names a base rule (``rule: ID``) and gives only what changes. Mappings merge
key by key; lists of entries with a key, id or name (rows, rulings, examples,
columns...) merge entry by entry, and new rulings, errata and examples are
added; any other value is replaced, and so is a worked example's ``expect``
(restated, it is the whole answer). A rule has at most one override in the
system's files, an entry at most one in an override's list: a second is an
error naming the first. A value overridden is placed, in every error, where
the override writes it (``SourceFile.borrowed``).
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..common.diagnostics import (
    Diagnostic,
    Path,
    RulesError,
)
from .loader import SourceFile
from .model import (
    House,
    Loc,
    Override,
    System,
)
from .validate import validate

Found = tuple[SourceFile, list[SourceFile]]

# The keys that name an entry of a list, in the order they are tried.
IDENTITIES = ("key", "id", "name", "param")
# The lists of a rule an override may add entries to, with the key that names
# each entry (any other entry an override names must be the base's).
OPEN_LISTS = {"rulings": "id", "errata": "id", "examples": "name"}


@dataclass
class Extension:
    """What merging a system's overrides found: the base it extends, its own
    files, the values changed, the rules added, the examples restated."""

    base: str
    at: Loc
    own_files: tuple[str, ...]
    changes: list[Override] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    restated: list[tuple[str, str, Loc]] = field(default_factory=list)


def house_of(
    meta: SourceFile, files: Sequence[SourceFile], ext: Extension | None
) -> House | None:
    """The ``House`` of a system built from ``meta`` and ``files``: None for a
    system of a published source with no house rule."""
    marked = [
        raw["id"]
        for src in files
        for raw in src.data.get("rules", [])
        if isinstance(raw, dict) and raw.get("house") is True
    ]
    sourced = "source" in meta.data
    if ext is None:
        if not marked and sourced and meta.data.get("house") is not True:
            return None
        line, col = meta.where(("system",))
        return House(
            None,
            Loc(meta.path, line, col),
            tuple(s.path for s in files),
            rules=tuple(marked),
            source=sourced,
        )
    return House(
        ext.base,
        ext.at,
        ext.own_files,
        tuple(ext.changes),
        tuple(dict.fromkeys([*ext.added, *marked])),
        tuple(ext.restated),
        sourced,
    )


def extend(
    found: Sequence[Found],
) -> list[tuple[SourceFile, list[SourceFile], Extension | None]]:
    """Every system of ``found`` (in the order of the --rules folders), each
    extending system as the merged copy of its base; raise with every error."""
    errors: list[Diagnostic] = []
    by_id: dict[str, Found] = {}
    for meta, files in found:
        sid = meta.data["system"]
        if sid in by_id:
            other = by_id[sid][0]
            errors.append(
                meta.error(
                    ("system",),
                    f"system {sid!r} is already defined in {other.path}",
                    "give the house rules a system id of their own, and extends: "
                    f"{sid}",
                )
            )
            continue
        by_id[sid] = (meta, files)
    merged: dict[str, tuple[SourceFile, list[SourceFile], Extension | None]] = {}
    failed: set[str] = set()

    def resolve(sid: str, chain: list[str]) -> None:
        if sid in merged or sid in failed:
            return
        meta, files = by_id[sid]
        base = meta.data.get("extends")
        if base is None:
            merged[sid] = (meta, files, None)
            return
        if base not in by_id:
            close = difflib.get_close_matches(base, list(by_id), n=3, cutoff=0.5)
            errors.append(
                meta.error(
                    ("extends",),
                    f"no system {base!r} to extend",
                    f"did you mean {' or '.join(close)}?"
                    if close
                    else "name a system of an earlier --rules folder: "
                    + ", ".join(sorted(s for s in by_id if s != sid)),
                )
            )
            failed.add(sid)
            return
        if base in chain or base == sid:
            loop = (
                [*chain[chain.index(base) :], sid, base]
                if base in chain
                else [sid, sid]
            )
            errors.append(
                meta.error(
                    ("extends",),
                    "systems extend each other in a cycle: " + " -> ".join(loop),
                    "a system cannot extend itself, directly or through others: "
                    "remove one of the extends",
                )
            )
            failed.add(sid)
            return
        resolve(base, [*chain, sid])
        if base not in merged:
            failed.add(sid)
            return
        try:
            merged[sid] = _merge(merged[base][0], merged[base][1], meta, files)
        except RulesError as exc:
            errors.extend(exc.diagnostics)
            failed.add(sid)

    for sid in by_id:
        resolve(sid, [])
    if errors:
        raise RulesError(errors)
    return [merged[sid] for sid in by_id]


def _merge(
    base_meta: SourceFile,
    base_files: list[SourceFile],
    meta: SourceFile,
    own: list[SourceFile],
) -> tuple[SourceFile, list[SourceFile], Extension]:
    """The system of ``meta`` and its files ``own`` merged with its base's (a
    system.yaml, and the rules files as already merged if the base extends
    another): the base's rules copied, the overrides applied, the rules added."""
    sid = meta.data["system"]
    line, col = meta.where(("extends",))
    ext = Extension(
        meta.data["extends"], Loc(meta.path, line, col), tuple(s.path for s in own)
    )
    new_meta = _copy(meta, {})
    taken = {
        key: value
        for key, value in base_meta.data.items()
        if key not in meta.data and key not in ("extends", "house")
    }
    # merged: what it extends is in ``ext`` (``unmerged`` refuses an extends)
    new_meta.data = {k: v for k, v in {**taken, **meta.data}.items() if k != "extends"}
    new_meta.borrowed.update({(key,): (base_meta, (key,)) for key in taken})
    copies = [_copy(src, {"system": sid}) for src in base_files]
    where_rule: dict[str, tuple[SourceFile, int]] = {}
    for src in copies:
        for index, raw in enumerate(src.data["rules"]):
            where_rule.setdefault(raw["id"], (src, index))
    errors: list[Diagnostic] = []
    touched: set[int] = set()
    added_files = []
    first: dict[str, tuple[SourceFile, Path]] = {}  # each rule's override
    for src in own:
        for index, entry in enumerate(src.data.get("overrides", [])):
            path: Path = ("overrides", index)
            again = first.get(entry["rule"])
            if again is not None:
                errors.append(
                    _twice(src, (*path, "rule"), again, "rule", entry["rule"])
                )
                continue
            first[entry["rule"]] = (src, (*path, "rule"))
            target = where_rule.get(entry["rule"])
            if target is None:
                close = difflib.get_close_matches(entry["rule"], list(where_rule), n=3)
                errors.append(
                    src.error(
                        (*path, "rule"),
                        f"no rule {entry['rule']!r} in system {ext.base!r} to override",
                        f"did you mean {' or '.join(close)}?"
                        if close
                        else "name a rule of the base system; to add a rule, list it "
                        "under rules:",
                    )
                )
                continue
            copied, at = target
            merger = _Merger(src, copied, entry["rule"], ext, errors)
            merger.rule(copied.data["rules"][at], entry, ("rules", at), path)
            touched.add(id(copied))
        for raw in src.data.get("rules", []):
            ext.added.append(raw["id"])
        added_files.append(_copy(src, {"rules": src.data.get("rules", [])}))
        added_files[-1].data.pop("overrides", None)
    for src in copies:  # what the overrides wrote must still be a valid rule
        if id(src) in touched:
            errors.extend(validate(src))
    if errors:
        raise RulesError(errors)
    return new_meta, copies + added_files, ext


def _twice(
    src: SourceFile, path: Path, first: tuple[SourceFile, Path], what: str, name: str
) -> Diagnostic:
    """An override naming again what another (``first``) names: each would
    change the same thing, the second silently replacing the first."""
    other, at = first
    line, col = other.where(at)
    return src.error(
        path,
        f"{what} {name!r} is overridden twice: first at {other.path}:{line}:{col}",
        "merge the two into one override: a second would silently replace what "
        "the first changes",
    )


def _copy(src: SourceFile, changes: dict[str, Any]) -> SourceFile:
    """A copy of ``src`` whose data can be changed (positions are shared)."""
    data = copy.deepcopy(src.data)
    data.update(changes)
    return SourceFile(
        src.path,
        data,
        src.positions,
        src.key_positions,
        src.first_line,
        src.text,
        src.scalars,
        src.key_scalars,
        dict(src.borrowed),
    )


def identity(items: list[Any]) -> str | None:
    """The key that names each entry of ``items`` (None when there is none)."""
    if not items or not all(isinstance(v, dict) for v in items):
        return None
    for key in IDENTITIES:
        if all(key in v for v in items) and len({str(v[key]) for v in items}) == len(
            items
        ):
            return key
    return None


class _Merger:
    """Merges one override into the copy of its base rule, noting what changed."""

    def __init__(
        self,
        src: SourceFile,
        target: SourceFile,
        rule_id: str,
        ext: Extension,
        errors: list[Diagnostic],
    ) -> None:
        self.src, self.target, self.rule_id = src, target, rule_id
        self.ext, self.errors = ext, errors

    def rule(
        self, base: dict[str, Any], entry: dict[str, Any], to: Path, at: Path
    ) -> None:
        for key, value in entry.items():
            if key == "rule":
                continue
            if key in ("id", "kind"):
                self.errors.append(
                    self.src.error(
                        (*at, key),
                        f"an override cannot change a rule's {key}",
                        "name the base rule with rule:; to add a rule of another "
                        "kind or id, list it under rules:",
                        key=True,
                    )
                )
                continue
            if key not in base and key not in OPEN_LISTS:
                self.unknown(at, key, base, ())
                continue
            if key not in base:
                base[key] = []
            base[key] = self.value(base[key], value, (*to, key), (*at, key), (key,))

    def unknown(
        self, at: Path, key: str, base: dict[str, Any], shown: tuple[str, ...]
    ) -> None:
        close = difflib.get_close_matches(key, [str(k) for k in base], n=3)
        where = " ".join(shown) or "the rule"
        self.errors.append(
            self.src.error(
                (*at, key),
                f"{self.rule_id}: {where} has no field {key!r} to override",
                f"did you mean {' or '.join(close)}?"
                if close
                else "fields: " + ", ".join(str(k) for k in base),
                key=True,
            )
        )

    def value(
        self, base: Any, new: Any, to: Path, at: Path, shown: tuple[str, ...]
    ) -> Any:
        whole = shown[0] == "examples" and shown[2:] == ("expect",)
        if isinstance(base, dict) and isinstance(new, dict) and not whole:
            for key, value in new.items():
                if key not in base:
                    self.unknown(at, key, base, shown)
                    continue
                base[key] = self.value(
                    base[key], value, (*to, key), (*at, key), (*shown, key)
                )
            return base
        ident = identity(base) if isinstance(base, list) and not whole else None
        if isinstance(base, list) and not base and len(shown) == 1:
            ident = OPEN_LISTS.get(shown[0])
        if ident is not None and isinstance(new, list):
            return self.entries(base, new, ident, to, at, shown)
        self.target.borrowed[to] = (self.src, at)
        if shown[0] != "examples" and new != base:
            self.ext.changes.append(Override(self.rule_id, shown, new, base))
        return new

    def entries(
        self,
        base: list[Any],
        new: list[Any],
        ident: str,
        to: Path,
        at: Path,
        shown: tuple[str, ...],
    ) -> list[Any]:
        index = {str(item[ident]): i for i, item in enumerate(base)}
        seen: dict[str, tuple[SourceFile, Path]] = {}
        for n, item in enumerate(new):
            here = (*at, n)
            if not isinstance(item, dict) or ident not in item:
                self.errors.append(
                    self.src.error(
                        here,
                        f"{self.rule_id}: each entry of {shown[-1]} names the one it "
                        f"changes by its {ident}",
                        f"write {ident}: and only the fields that change",
                    )
                )
                continue
            label = str(item[ident])
            if label in seen:
                what = f"{self.rule_id}: {shown[-1]} entry"
                self.errors.append(
                    _twice(self.src, (*here, ident), seen[label], what, label)
                )
                continue
            seen[label] = (self.src, (*here, ident))
            if shown == ("examples",):
                line, col = self.src.where(here)
                self.ext.restated.append(
                    (self.rule_id, label, Loc(self.src.path, line, col))
                )
            if label not in index:
                if shown == (shown[0],) and shown[0] in OPEN_LISTS:
                    base.append(item)
                    self.target.borrowed[(*to, len(base) - 1)] = (self.src, here)
                    if shown[0] != "examples":
                        self.ext.changes.append(
                            Override(self.rule_id, (*shown, label), item, None)
                        )
                    continue
                close = difflib.get_close_matches(label, list(index), n=3, cutoff=0.5)
                self.errors.append(
                    self.src.error(
                        (*here, ident),
                        f"{self.rule_id}: {shown[-1]} has no entry {label!r} to override",
                        f"did you mean {' or '.join(repr(c) for c in close)}?"
                        if close
                        else f"{shown[-1]}: " + ", ".join(repr(k) for k in index),
                    )
                )
                continue
            i = index[label]
            for key, value in item.items():
                if key == ident:
                    continue
                entry = base[i]
                if key not in entry:
                    self.unknown(here, key, entry, (*shown, label))
                    continue
                entry[key] = self.value(
                    entry[key], value, (*to, i, key), (*here, key), (*shown, label, key)
                )
        return base


def inherited_examples(system: System, problems: list[Diagnostic]) -> list[Diagnostic]:
    """The worked examples of a system of house rules that do not hold, each
    placed where a reader mends it: an inherited example the house rules do not
    restate at the system's ``extends`` (they changed its answer), a restated
    one where the house rules restate it."""
    house = system.house
    if house is None or house.base is None:
        return problems
    restated = {(rule, name): at for rule, name, at in house.restated}
    examples = {
        (ex.loc.file, ex.loc.line, ex.loc.col): (rule.id, ex.name)
        for rule in system.rules
        for ex in rule.examples
    }
    placed = []
    for problem in problems:
        found = examples.get((problem.file, problem.line, problem.col))
        if found is None or problem.file in house.own_files:
            placed.append(problem)
            continue
        rule_id, name = found
        at = restated.get(found)
        if at is not None:
            placed.append(replace(problem, file=at.file, line=at.line, col=at.col))
            continue
        placed.append(
            Diagnostic(
                house.at.file,
                house.at.line,
                house.at.col,
                f"inherited {problem.message} (the example is {house.base!r}'s, at "
                f"{problem.file}:{problem.line}; the house rules change its answer)",
                f"restate it in the house rules: under overrides, '- rule: {rule_id}' "
                f"with 'examples: [{{name: {name}, expect: ...}}]' giving the new "
                "answer (`rulesc accept` writes it there)",
                "/extends",
            )
        )
    return placed
