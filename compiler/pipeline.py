"""Pipeline: load -> validate -> model -> render -> format -> examples -> outputs.

Every stage reports all the problems it finds before the build stops; nothing is
written here (see ``writer``).
"""

from __future__ import annotations

import hashlib
import importlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path as FsPath
from types import ModuleType
from typing import Protocol

from . import (
    house,
    js_naming,
    js_views,
    json_text,
    odds_work,
    outdir,
    registry,
    rules_json,
)
from .charts import FOLDER as CHARTS
from .charts import for_pages, relocated
from .contract import contract_view, label_candidates, module_entry
from .diagnostics import Diagnostic, RulesError
from .emit.conformance import kit_file, kit_text
from .emitted import clashes
from .examples import ExampleResults, check_examples, runtime_from
from .formatting import format_many
from .forms import system_forms
from .house_docs import mark_cells
from .loader import SourceFile, link_problem, load_file
from .model import System
from .odds_pages import rules_odds
from .pages import (
    CONTRACT_PAGE,
    INDEX_PAGE,
    NAV_PAGE,
    index_entry,
    index_view,
    nav_entry,
    nav_view,
    overview_page,
    overview_view,
    rule_page,
    rule_page_view,
)
from .parts import DATA_INDENT, RULES_JSON, RULES_SCHEMA, Part, Shares
from .render import render
from .semantics import build_system
from .settings import DEFAULTS, Settings
from .settings import FILE_NAME as SETTINGS_FILE
from .settings import read as read_settings
from .validate import listing, validate
from .viewkit import View, header
from .views import module_view, package_view, readme_view

RUNTIME = FsPath(__file__).resolve().parent / "runtime"
# The support modules every generated package has; each kind adds its own.
SUPPORT_MODULES = (
    "errors.py",
    "dice.py",
    "_support.py",
    "json.py",
    "dice_terms.py",
    "dice_notation.py",
    "dice_rolls.py",
    "_dice_weights.py",
    "dice_odds.py",
    "odds.py",
    "_dist.py",
    "_multiset.py",
    "_plan.py",
    "_odds.py",
    "_chain.py",
    "_state.py",
    "_timeline.py",
    "_values.py",
)


def support_modules() -> tuple[str, ...]:
    """Every support module of the generated package, the kinds' in registry order."""
    found = dict.fromkeys(SUPPORT_MODULES)
    for kind in registry.kinds().values():
        found.update(dict.fromkeys(kind.runtime))
    return tuple(found)


class Memo(Protocol):
    """Loaded rules files kept between builds (compiler/cache.py has the one in use)."""

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
    systems may extend those of earlier folders: compiler/house.py), checked;
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
    """The outputs made from one system alone: its module, its overview page, the
    page of each of its rules (``rule_ids``), its JavaScript module and types,
    and its conformance kit."""
    return (
        f"rulebook/{system_id}.py",
        overview_page(system_id),
        *(rule_page(system_id, r) for r in rule_ids),
        *js_views.js_own_files(system_id),
        kit_file(system_id),
    )


def system_files(system: System) -> tuple[str, ...]:
    """``own_files`` of a built system."""
    return own_files(system.id, (r.id for r in system.rules))


PACKAGE_INIT, PACKAGE_TYPED = "rulebook/__init__.py", "rulebook/py.typed"
PYPROJECT = "pyproject.toml"
PACKAGE_README = "README.md"  # the Python package's (the npm package's is js/'s)


def shared_files() -> tuple[str, ...]:
    """The outputs made from every system together, or from none."""
    support = tuple(f"rulebook/{name}" for name in support_modules())
    return (
        *support,
        PACKAGE_INIT,
        PACKAGE_TYPED,
        PYPROJECT,
        PACKAGE_README,
        INDEX_PAGE,
        CONTRACT_PAGE,
        NAV_PAGE,
        RULES_JSON,
        RULES_SCHEMA,
        MANIFEST,
        *js_views.js_shared_files(),
    )


def _where(system: System | Part) -> tuple[str, int, int]:
    """Where a system (or the system of a part) is declared."""
    if isinstance(system, Part):
        return system.loc
    return (system.loc.file, system.loc.line, system.loc.col)


def _path_clashes(systems: Sequence[System | Part]) -> list[Diagnostic]:
    """A system whose own module or page would be one of the shared outputs,
    or whose pages' folder would be the charts'."""
    shared = set(shared_files())
    charts = [
        Diagnostic(
            *_where(s),
            f"system id {s.id!r} would put its rule pages in docs/{CHARTS}/, "
            "where the build writes the charts",
            "choose another id (and rename its folder)",
            "/system",
        )
        for s in systems
        if s.id == CHARTS
    ]
    return charts + [
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


def _runtime_sources(
    systems: Sequence[System | Part], settings: Settings
) -> dict[str, str]:
    files: dict[str, str] = {}
    errors: list[Diagnostic] = []
    for name in support_modules():
        text = (RUNTIME / name).read_text(encoding="utf-8")
        files[f"rulebook/{name}"] = f"# {header([f'compiler/runtime/{name}'])}\n{text}"
    files[PACKAGE_TYPED] = ""
    pending = {PACKAGE_INIT: render("__init__.py.j2", package_view(systems, settings))}
    for system in systems:  # a part's module is in its own outputs
        if isinstance(system, System):
            module = own_files(system.id)[0]
            pending[module] = text = render("system.py.j2", module_view(system))
            errors.extend(clashes(system, text))
    if errors:
        raise RulesError(errors)
    # One ruff run for every module (by file name, as errors name them); the
    # systems' modules were parsed for their names (``clashes``) already.
    formatted = format_many(
        {path.removeprefix("rulebook/"): s for path, s in pending.items()},
        parsed={
            own_files(s.id)[0].removeprefix("rulebook/")
            for s in systems
            if isinstance(s, System)
        },
    )
    files.update({f"rulebook/{name}": text for name, text in formatted.items()})
    return files


def _js_sources(
    systems: Sequence[System | Part],
    *,
    derived: bool = True,
    ported: dict[str, set[str]] | None = None,
    settings: Settings,
) -> dict[str, str]:
    """The JavaScript package: its runtime, and each system's module and types
    (checked for names declared twice when ``derived``: not when the Python
    module's names already clash, as the JavaScript ones then do too).
    ``ported`` is given, by system id, the qualified ids of the rules its
    JavaScript module has."""
    files = js_views.runtime_files() | js_views.package_files(systems, settings)
    errors: list[Diagnostic] = []
    for system in systems:
        if isinstance(system, Part):
            continue  # its modules are in its own outputs
        own = js_views.js_own_files(system.id)
        problems = js_naming.clashes(system)
        view, figures = js_views.module_view(system)
        if ported is not None:
            ported[system.id] = {r["id"] for r in view["rules"]}
        errors += problems + figures
        if problems or figures:
            continue
        module, types = own
        files[module] = render("system.js.j2", view)
        files[types] = render("system.d.ts.j2", view)
        if derived:
            errors += js_views.duplicates(system, files[module], files[types])
    if errors:
        raise RulesError(errors)
    return files


def check_code(systems: Sequence[System]) -> None:
    """Raise ``RulesError`` with every error building ``systems``' modules would
    give before running their examples (their names, in both languages, and
    the figures JavaScript cannot hold): what ``rulesc validate`` checks
    besides the rules themselves, so that it fails where a build would."""
    errors = _path_clashes(systems)
    for system in systems:
        text = render("system.py.j2", module_view(system))
        errors += clashes(system, text)
    try:
        _js_sources(systems, derived=not errors, settings=DEFAULTS)
    except RulesError as exc:
        errors += exc.diagnostics
    if errors:
        raise RulesError(errors)


def generate(
    systems: Sequence[System | Part],
    *,
    run_examples: bool = True,
    settings: Settings = DEFAULTS,
) -> Outputs:
    """Render every output, and run every worked example against the new runtime.

    ``run_examples=False`` is for tests that change figures in a copy of the
    rules without rewriting every example (nor writing the conformance kits,
    which hold the answers of calls the examples vouch for); rulesc always runs them. A ``Part``
    among ``systems`` stands for a system an earlier build made (and checked)
    from the very same sources and compiler (``compiler/cache.py``): its outputs
    are the part's, neither rendered nor run again, and its model is not needed.
    ``settings`` name the packages (``compiler/settings.py``).
    """
    if clashes := _path_clashes(systems):
        raise RulesError(clashes)
    errors: list[Diagnostic] = odds_work.check(systems)
    files: dict[str, str] = {}
    ported: dict[str, set[str]] = {}  # each system's rules in JavaScript
    try:
        files.update(_runtime_sources(systems, settings))
    except RulesError as exc:  # every error of both languages at once
        errors.extend(exc.diagnostics)
    try:
        # JavaScript's derived names are Python's: a clash of them is reported once
        files.update(
            _js_sources(systems, derived=not errors, ported=ported, settings=settings)
        )
    except RulesError as exc:
        errors.extend(exc.diagnostics)
    if errors:
        raise RulesError(errors)
    results: dict[str, ExampleResults] = {}
    forms: dict[str, dict[str, View]] = {}
    odds: dict[str, dict[str, View]] = {}
    drawn: dict[str, dict[str, str]] = {}
    to_run = [s for s in systems if isinstance(s, System)]
    python = {
        path: text for path, text in files.items() if path.startswith("rulebook/")
    }
    # the support modules and the modules of the systems whose examples run
    others = {own_files(s.id)[0] for s in systems if isinstance(s, Part)}
    needed = {p: t for p, t in python.items() if p not in others}
    with runtime_from(needed if to_run else {}) as package:
        for system in to_run:
            module = importlib.import_module(f"{package}.{system.id}")
            problems, results[system.id] = check_examples(system, module)
            problems = house.inherited_examples(system, problems)
            forms[system.id] = system_forms(system, module, ported.get(system.id))
            if run_examples and not problems:  # else no kit (nor any output) is written
                made_of = (python, {own_files(s.id)[0] for s in systems})
                files[kit_file(system.id)] = _kit(
                    system, module, ported.get(system.id, set()), made_of
                )
            odds[system.id], spent = rules_odds(system, module)
            errors.extend(spent)
            drawn[system.id] = {  # the charts of the rules' odds, drawn with them
                name: svg
                for view in odds[system.id].values()
                if view.get("chart")
                for name, svg in view["chart"]["svgs"].items()
            }
            if run_examples:
                errors.extend(problems)
    if errors:
        raise RulesError(errors)
    made: dict[str, Part] = {}
    by_id = {s.id: s for s in to_run}
    for system in to_run:
        base = by_id.get(system.house.base or "") if system.house else None
        files[overview_page(system.id)] = render(
            "system.md.j2", overview_view(system, base)
        )
        for rule in system.rules:
            files[rule_page(system.id, rule.id)] = relocated(
                render(
                    "rule.md.j2",
                    {
                        "rule": rule_page_view(
                            system,
                            rule,
                            results[system.id],
                            forms[system.id].get(rule.id),
                            odds[system.id].get(rule.id),
                        )
                    },
                ),
                "../",
            )
    _mark_house_rules(to_run, files)
    for system in to_run:
        own = {path: files.pop(path) for path in system_files(system) if path in files}
        made[system.id] = part_of(system, own, python, drawn.get(system.id))
    parts = [made[s.id] if isinstance(s, System) else s for s in systems]
    shares = [p.shares() for p in parts]
    shared = {
        PYPROJECT: render("pyproject.toml.j2", package_view(parts, settings)),
        PACKAGE_README: render("README.md.j2", readme_view(parts, settings, "python")),
        INDEX_PAGE: render("index.md.j2", index_view(shares)),
        NAV_PAGE: render("SUMMARY.md.j2", nav_view(shares)),
        CONTRACT_PAGE: render("contract.md.j2", contract_view(shares, python)),
    }
    files.update(shared)
    pages = {path: text for path, text in shared.items() if path.startswith("docs/")}
    for name, svg in for_pages(pages).items():
        files[f"docs/{name}"] = svg
    files.update(rules_json.files(parts))
    data = {path: text.encode("utf-8") for path, text in files.items()}
    for part in parts:
        data.update(part.own)  # its modules, pages and charts
    data = dict(sorted(data.items()))
    data[MANIFEST] = manifest(shares, data, settings)
    return Outputs(tuple(to_run), tuple(parts), data)


_KITS: dict[str, str] = {}
"""Kits made in this process, by what they are made from (a test's builds make
the same kit many times); a few, the latest."""


def _kit(
    system: System,
    module: ModuleType,
    ported: set[str],
    made_of: tuple[Mapping[str, str], set[str]],
) -> str:
    """The conformance kit of ``system``, made anew unless this process made
    it already from the very same generated code (its module and the support
    modules, of ``made_of``: the package's Python files, the systems' module
    paths), rules (each one's fingerprint) and kinds."""
    python, modules = made_of
    own = own_files(system.id)[0]
    parts = [
        str(registry.generation()),
        *sorted(ported),
        *(f"{r.qualified_id} {r.fingerprint}" for r in system.rules),
        *(
            f"{p}\0{t}"
            for p, t in sorted(python.items())
            if p == own or p not in modules
        ),
    ]
    key = hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()
    if key not in _KITS:
        while len(_KITS) >= 8:
            del _KITS[next(iter(_KITS))]
        _KITS[key] = kit_text(system, module, ported, registry.kind_of)
    return _KITS[key]


def _mark_house_rules(systems: Sequence[System], files: dict[str, str]) -> None:
    """Mark, on the page of each rule of a system of house rules that the system
    it extends has too, every table cell that differs from the book's (the page
    of the rule there): a changed figure, and a chance in the odds it changes."""
    by_id = {s.id: s for s in systems}
    for system in systems:
        house = system.house
        base = by_id.get(house.base) if house and house.base else None
        if house is None or base is None:
            continue
        for rule_id in sorted({r.id for r in system.rules} - set(house.rules)):
            page, book = rule_page(system.id, rule_id), rule_page(base.id, rule_id)
            if page in files and book in files:
                files[page] = mark_cells(files[page], files[book])


def part_of(
    system: System,
    own: Mapping[str, str],
    modules: Mapping[str, str],
    drawn: Mapping[str, str] | None = None,
) -> Part:
    """The part of a built ``system`` (``compiler.parts``): ``own`` its own
    outputs, ``modules`` the package's modules (its own and the support
    modules) by path; ``drawn`` the charts of its rules' odds, by name."""
    pages = {p: t for p, t in own.items() if p.startswith("docs/")}
    found = for_pages(pages, drawn)
    charts = {f"docs/{name}": svg for name, svg in found.items()}
    text = json_text.dumps(rules_json.system_data(system))
    shares = Shares(
        id=system.id,
        files=tuple(system.files),
        index=index_entry(system),
        nav=nav_entry(system),
        contract=module_entry(system, modules),
        labels=label_candidates(system),
        rules={
            rule.qualified_id: {
                "fingerprint": rule.fingerprint,
                "defined_at": str(rule.loc),
            }
            for rule in system.rules
        },
    )
    return Part.of(
        (system.loc.file, system.loc.line, system.loc.col),
        {path: text.encode("utf-8") for path, text in {**own, **charts}.items()},
        text.replace("\n", "\n" + DATA_INDENT),
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
    ``compiler/settings.py``); raise with every error of all at once."""
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
    return systems, settings
