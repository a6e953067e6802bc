"""Pipeline: load -> validate -> model -> render -> format -> examples -> outputs.

Every stage reports all the problems it finds before the build stops; nothing is
written here (see ``writer``).
"""

from __future__ import annotations

import hashlib
import importlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path as FsPath
from typing import Protocol

from .common import json_text
from .common.diagnostics import (
    Diagnostic,
    RulesError,
)
from .common.parts import (
    Part,
    Shares,
)
from .emit.target import View, Work
from .emit.targets import TARGETS
from .examples import check_examples, runtime_from
from .front import house
from .front.loader import (
    SourceFile,
    link_problem,
    load_file,
)
from .front.model import System
from .front.rules_folders import recorded
from .front.semantics import build_system
from .front.settings import (
    DEFAULTS,
    Settings,
)
from .front.settings import FILE_NAME as SETTINGS_FILE
from .front.settings import read as read_settings
from .front.validate import (
    listing,
    validate,
)
from .kinds import registry
from .odds import work as odds_work
from .output import outdir


class Memo(Protocol):
    """Loaded rules files kept between builds (compiler/output/cache.py has the one in use)."""

    def get(self, path: FsPath, shown: str) -> SourceFile | None: ...

    def put(self, path: FsPath, shown: str, source: SourceFile) -> None: ...


MANIFEST = outdir.MANIFEST  # what makes a folder one rulesc built


@dataclass(frozen=True, slots=True)
class Outputs:
    """What a build produces: file contents by path under the output folder;
    the systems it built (every one, unless a cache gave parts) and the part of
    every system (``compiler.parts``)."""

    systems: tuple[System, ...]
    parts: tuple[Part, ...]
    files: dict[str, bytes]


def _shown(path: FsPath, rules_dir: FsPath, root: FsPath | None = None) -> str:
    """``path`` as diagnostics and outputs show it: from the rules folder's
    parent, or from ``root`` (the first --rules folder's parent) for a folder of
    house rules given after it, absolute when it is not under that."""
    if root is None:
        return path.relative_to(rules_dir.parent).as_posix()
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.resolve().as_posix()


# The rules folder's name begins every path the outputs name (as file names
# do, loader._SAFE_FILE_NAME); "", "." and ".." are what --rules . and .. give.
_SAFE_FOLDER_NAME = re.compile(r"\.{0,2}|[A-Za-z0-9_][A-Za-z0-9_.-]*")


def _system_dirs(rules_dir: FsPath, errors: list[Diagnostic]) -> list[FsPath]:
    if not rules_dir.is_dir():
        raise RulesError(
            [
                Diagnostic(
                    rules_dir.as_posix(),
                    1,
                    1,
                    "no rules folder here",
                    "run rulesc from the project root, or pass --rules",
                )
            ]
        )
    if not _SAFE_FOLDER_NAME.fullmatch(rules_dir.name):
        raise RulesError(
            [
                Diagnostic(
                    rules_dir.as_posix(),
                    1,
                    1,
                    f"rules folder name {rules_dir.name!r} may use only ASCII "
                    "letters, digits, '_', '-' and '.'",
                    "rename the folder; its name appears in the generated code and docs",
                )
            ]
        )
    found = sorted(p for p in rules_dir.iterdir() if not p.name.startswith("."))
    links = {p: d for p in found if (d := link_problem(p, rules_dir)) is not None}
    errors += links.values()  # a folder linked from outside is never listed
    return [p for p in found if p not in links and p.is_dir()]


def load_sources(
    rules_dir: FsPath,
    only: set[str] | None = None,
    memo: Memo | None = None,
    *,
    root: FsPath | None = None,
) -> list[tuple[SourceFile, list[SourceFile]]]:
    """Load and schema-check every rules file; raise with every error found.
    ``root``: show paths from there (see ``_shown``)."""
    errors: list[Diagnostic] = []
    systems = []
    for folder in _system_dirs(rules_dir, errors):
        if only is not None and folder.name not in only:
            continue
        system_file = folder / "system.yaml"
        loaded: list[SourceFile] = []
        meta: SourceFile | None = None
        files = sorted(folder.glob("*.yaml"))
        links = [d for p in files if (d := link_problem(p, rules_dir)) is not None]
        if links:
            errors += links
            continue
        for extra in sorted(folder.iterdir()):
            if extra.is_file() and extra.suffix in (".yml", ".json"):
                errors.append(
                    Diagnostic(
                        _shown(extra, rules_dir, root),
                        1,
                        1,
                        f"rules files end in .yaml, not {extra.suffix}",
                        f"rename it to {extra.stem}.yaml",
                    )
                )
        if not system_file.is_file():
            errors.append(
                Diagnostic(
                    _shown(folder, rules_dir, root),
                    1,
                    1,
                    "system folder has no system.yaml",
                    "add system.yaml naming the system, its source and its rounding",
                )
            )
        for path in files:
            shown = _shown(path, rules_dir, root)
            source = memo.get(path, shown) if memo is not None else None
            if source is None:
                try:
                    source = load_file(path, shown)
                except RulesError as exc:
                    errors.extend(exc.diagnostics)
                    continue
                problems = validate(source)
                errors.extend(problems)
                if problems:
                    continue
                if memo is not None:
                    memo.put(path, shown, source)
            if path == system_file:
                meta = source
            else:
                loaded.append(source)
        if meta is not None and len(loaded) + 1 == len(files):
            systems.append((meta, loaded))
    if errors:
        raise RulesError(errors)
    return systems


def load_systems(
    rules_dir: FsPath,
    only: set[str] | None = None,
    memo: Memo | None = None,
    *,
    more: Sequence[FsPath] = (),
) -> list[System]:
    """Every system of the rules folder (and of the folders ``more``, whose
    systems may extend those of earlier folders: compiler/front/house.py), checked;
    raise with every error found. ``only``: those systems (and what they extend)."""
    found = _found(rules_dir, None if more else only, memo, more)
    loaded = {meta.data["system"] for meta, _ in found}
    if (
        only is not None
        and not more
        and any(meta.data.get("extends") not in (None, *loaded) for meta, _ in found)
    ):  # a system of house rules needs the system it extends
        found = _found(rules_dir, None, memo, more)
    systems = build_systems(found)
    return systems if only is None else [s for s in systems if s.id in only]


def build_systems(found: Sequence[tuple[SourceFile, list[SourceFile]]]) -> list[System]:
    """The systems of loaded, schema-checked files (each system file with its
    rules files), those of house rules merged with what they extend
    (``house.extend``), checked; raise with every error found."""
    errors: list[Diagnostic] = []
    systems = []
    for meta, files, ext in house.extend(found):
        try:
            system = build_system(meta, files, registry.kinds())
        except RulesError as exc:
            errors.extend(exc.diagnostics)
            continue
        marks = house.house_of(meta, files, ext)
        systems.append(system if marks is None else replace(system, house=marks))
    if errors:
        raise RulesError(errors)
    return systems


def _found(
    rules_dir: FsPath,
    only: set[str] | None,
    memo: Memo | None,
    more: Sequence[FsPath],
) -> list[tuple[SourceFile, list[SourceFile]]]:
    """``load_sources`` of every folder, paths shown from the first's parent."""
    errors: list[Diagnostic] = []
    found = []
    for index, folder in enumerate((rules_dir, *more)):
        try:
            found += load_sources(
                folder,
                only,
                memo if index == 0 else None,
                root=rules_dir.parent if index else None,
            )
        except RulesError as exc:
            errors.extend(exc.diagnostics)
    if errors:
        raise RulesError(errors)
    return found


def merged_sources(
    rules_dir: FsPath, more: Sequence[FsPath] = ()
) -> dict[str, list[SourceFile]]:
    """Every system's rules files by system id, a system of house rules' as
    merged with its overrides (``house.extend``); raise with every error."""
    found = _found(rules_dir, None, None, more)
    return {meta.data["system"]: files for meta, files, _ in house.extend(found)}


def unknown_sources(
    rules_dir: FsPath, systems: list[System], sources: FsPath
) -> list[Diagnostic]:
    """A system whose ``source.file`` is not a file of the folder ``sources``."""
    found = []
    for system in systems:
        if system.house is not None and (system.house.base or not system.house.source):
            continue  # house rules: no document of their own (their base's is checked)
        if not (sources / system.source_file).is_file() or "/" in system.source_file:
            meta = load_file(rules_dir / system.id / "system.yaml", system.loc.file)
            found.append(
                meta.error(
                    ("source", "file"),
                    f"no source document {system.source_file!r} in {sources.as_posix()}/",
                    "name the document by its file name in that folder",
                )
            )
    return found


def own_files(system_id: str, rule_ids: Iterable[str] = ()) -> tuple[str, ...]:
    """The outputs made from one system alone, every target's (``rule_ids``:
    its rules, each of which may have outputs of its own)."""
    rule_ids = tuple(rule_ids)
    return tuple(path for t in TARGETS for path in t.own(system_id, rule_ids))


def system_files(system: System) -> tuple[str, ...]:
    """``own_files`` of a built system."""
    return own_files(system.id, (r.id for r in system.rules))


def shared_files() -> tuple[str, ...]:
    """The outputs made from every system together, or from none."""
    return (*(path for t in TARGETS for path in t.shared()), MANIFEST)


def _where(system: System | Part) -> tuple[str, int, int]:
    """Where a system (or the system of a part) is declared."""
    if isinstance(system, Part):
        return system.loc
    return (system.loc.file, system.loc.line, system.loc.col)


def _path_clashes(systems: Sequence[System | Part]) -> list[Diagnostic]:
    """A system whose own outputs would be one of the shared outputs, or whose
    id a target reserves."""
    shared = set(shared_files())
    reserved = [
        Diagnostic(
            *_where(s),
            f"system id {s.id!r} {why}",
            "choose another id (and rename its folder)",
            "/system",
        )
        for target in TARGETS
        for taken, why in target.reserved.items()
        for s in systems
        if s.id == taken
    ]
    return reserved + [
        Diagnostic(  # one error for the id, however many files it would clash on
            *_where(s),
            f"system id {s.id!r} would make {listing(paths)}, which the build "
            "already writes for the package as a whole",
            "choose another id (and rename its folder)",
            "/system",
        )
        for s in systems
        if (paths := [path for path in own_files(s.id) if path in shared])
    ]


def check_code(systems: Sequence[System]) -> None:
    """Raise ``RulesError`` with every error building ``systems``' outputs would
    give before running their examples (every target's check: their names, in
    each language, and the figures a language cannot hold): what ``rulesc
    validate`` checks besides the rules themselves, so that it fails where a
    build would."""
    errors = _path_clashes(systems)
    for target in TARGETS:
        errors += target.check(systems, not errors)
    if errors:
        raise RulesError(errors)


def generate(
    systems: Sequence[System | Part],
    *,
    run_examples: bool = True,
    settings: Settings = DEFAULTS,
) -> Outputs:
    """Make every target's outputs, and run every worked example against the
    new runtime (``compiler/emit/target.py`` has the order of the targets' hooks).

    ``run_examples=False`` is for tests that change figures in a copy of the
    rules without rewriting every example; rulesc always runs them. A ``Part``
    among ``systems`` stands for a system an earlier build made (and checked)
    from the very same sources and compiler (``compiler/output/cache.py``): its outputs
    are the part's, neither rendered nor run again, and its model is not needed.
    ``settings`` name the packages (``compiler/front/settings.py``).
    """
    if clashes := _path_clashes(systems):
        raise RulesError(clashes)
    errors: list[Diagnostic] = odds_work.check(systems)
    work = Work(systems, settings, [s for s in systems if isinstance(s, System)])
    for target in TARGETS:
        try:  # every error of every target at once
            work.files.update(target.code(work, not errors))
        except RulesError as exc:
            errors.extend(exc.diagnostics)
    if errors:
        raise RulesError(errors)
    errors += _run(work, run_examples)
    if errors:
        raise RulesError(errors)
    for target in TARGETS:
        work.files.update(target.pages(work))
    made = {system.id: part_of(system, work) for system in work.built}
    for system in work.built:
        for path in system_files(system):
            work.files.pop(path, None)  # (a kit is not made without the examples)
    parts = [made[s.id] if isinstance(s, System) else s for s in systems]
    shares = [p.shares() for p in parts]
    for target in TARGETS:
        work.files.update(target.together(shares, work))
    data = {path: text.encode("utf-8") for path, text in work.files.items()}
    for target in TARGETS:
        data.update(target.assemble(parts))
    for part in parts:
        data.update(part.own)  # its modules, pages and charts
    data = dict(sorted(data.items()))
    data[MANIFEST] = manifest(shares, data, settings)
    return Outputs(tuple(work.built), tuple(parts), data)


def _run(work: Work, run_examples: bool) -> list[Diagnostic]:
    """Run the worked examples of the systems built now against the target
    that runs them (its package as made so far: its shared files and those
    systems' own), and let every target observe each system's loaded module;
    the errors found (the examples' only when ``run_examples``)."""
    runner = next(t for t in TARGETS if t.runs)
    needed = set(runner.shared()) | {
        path for s in work.built for path in runner.own(s.id, (r.id for r in s.rules))
    }
    files = {p: t for p, t in work.files.items() if p in needed}
    errors: list[Diagnostic] = []
    with runtime_from(files if work.built else {}) as package:
        for system in work.built:
            module = importlib.import_module(f"{package}.{system.id}")
            problems, work.results[system.id] = check_examples(system, module)
            problems = house.inherited_examples(system, problems)
            if run_examples and not problems:
                work.sound.add(system.id)
            for target in TARGETS:
                errors.extend(target.observe(system, module, work))
            if run_examples:
                errors.extend(problems)
    return errors


def part_of(system: System, work: Work) -> Part:
    """The part of a built ``system`` (``compiler.parts``): its own outputs
    (found in ``work.files``) and every target's share of it."""
    own = {
        path: work.files[path] for path in system_files(system) if path in work.files
    }
    views: dict[str, View] = {}
    data: dict[str, str] = {}
    for target in TARGETS:
        share = target.share(system, own, work)
        own.update(share.own)
        if share.view is not None:
            views[target.name] = share.view
        if share.data is not None:
            data[target.name] = share.data
    shares = Shares(
        id=system.id,
        files=tuple(system.files),
        rules={
            rule.qualified_id: {
                "fingerprint": rule.fingerprint,
                "defined_at": str(rule.loc),
            }
            for rule in system.rules
        },
        views=views,
    )
    return Part.of(
        (system.loc.file, system.loc.line, system.loc.col),
        {path: text.encode("utf-8") for path, text in own.items()},
        data,
        shares,
    )


def manifest(
    parts: Sequence[Shares], files: dict[str, bytes], settings: Settings = DEFAULTS
) -> bytes:
    """What the output was built from: each rule's fingerprint, the package
    settings, each file's digest."""
    doc = {
        "@generated": "by rulesc - DO NOT EDIT",
        "package": settings.recorded(),
        "rules": {
            qualified: entry for p in parts for qualified, entry in p.rules.items()
        },
        **({"folders": list(settings.folders)} if settings.folders else {}),
        "files": {
            path: hashlib.sha256(blob).hexdigest()
            for path, blob in sorted(files.items())
        },
    }
    return (json_text.dumps(doc, sort_keys=True) + "\n").encode("utf-8")


def build(
    rules_dir: FsPath, *, run_examples: bool = True, more: Sequence[FsPath] = ()
) -> Outputs:
    """The whole front end and rendering, in memory (``more``: folders of house
    rules, see ``load_systems``)."""
    systems, settings = load_all(rules_dir, more=more)
    return generate(systems, run_examples=run_examples, settings=settings)


def load_all(
    rules_dir: FsPath, only: set[str] | None = None, *, more: Sequence[FsPath] = ()
) -> tuple[list[System], Settings]:
    """Every system of the rules folder (and of ``more``), and the package
    settings (those of the last folder with a package.yaml: see
    ``compiler/front/settings.py``); raise with every error of all at once."""
    errors: list[Diagnostic] = []
    settings = DEFAULTS
    for index, folder in enumerate((rules_dir, *more)):
        shown = _shown(
            folder / SETTINGS_FILE, folder, rules_dir.parent if index else None
        )
        try:
            settings = read_settings(folder, shown=shown) or settings
        except RulesError as exc:
            errors.extend(exc.diagnostics)
    try:
        systems = load_systems(rules_dir, only, more=more)
    except RulesError as exc:
        errors.extend(exc.diagnostics)
    if errors:
        raise RulesError(errors)
    return systems, replace(settings, folders=tuple(recorded([rules_dir, *more])))
