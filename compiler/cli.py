"""CLI: the ``rulesc`` command (validate, build, check) and its exit codes.

The rules editor's workbench (roll, explain, simulate, diff, build --watch, and
errors shown on a terminal) lives in ``compiler.workbench``.

Exit 0 when all is well, 1 for errors in the rules or stale output (or a file
the OS would not let rulesc read or write: a full disk, a read-only folder), 2
for a usage error, 3 for an internal error (a bug in rulesc: please file it).
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path as FsPath

from .common.diagnostics import RulesError
from .common.fs_errors import (
    EnvironmentProblem,
    reading,
    writing,
)
from .common.visible import visible
from .front.settings import FILE_NAME as SETTINGS_FILE

EXIT_OK, EXIT_RULES, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
DISTRIBUTION = "rulebook-compiler"  # pyproject.toml's [project] name


class _Version(argparse.Action):
    """``--version``: the compiler's version, as its distribution was installed
    (read only when asked: importing the metadata costs every other run)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from importlib import metadata

        try:
            version = metadata.version(DISTRIBUTION)
        except metadata.PackageNotFoundError:
            version = "(not installed: no version)"
        sys.stdout.write(f"rulesc {version}\n")
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulesc",
        description="Compile tabletop rules data (rules/*.yaml) into the typed "
        "rulebook runtime and Markdown docs (generated/).",
    )
    parser.add_argument(
        "--version",
        action=_Version,
        nargs=0,
        help="print rulesc's version and exit",
    )
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--rules",
        type=FsPath,
        action="append",
        default=None,
        help="the rules folder (default: rules, and the house packs its "
        "package.yaml lists); give it again for folders of house rules, whose "
        "systems may extend those of earlier folders",
    )
    common.add_argument(
        "--format",
        choices=("text", "json", "github"),
        default="text",
        help="how to print errors: text, json, or github (workflow annotations)",
    )
    out = argparse.ArgumentParser(add_help=False)
    out.add_argument(
        "--out",
        type=FsPath,
        default=FsPath("generated"),
        help="the output folder (default: generated)",
    )
    out.add_argument(
        "--no-cache",
        action="store_true",
        help="neither use nor fill the build cache kept beside the output folder",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    validate = sub.add_parser(
        "validate", parents=[common], help="check rules files without building"
    )
    validate.add_argument(
        "--sources",
        type=FsPath,
        metavar="DIR",
        help="the folder of source documents: each system's source.file must be in it",
    )
    validate.add_argument(
        "--no-examples",
        action="store_true",
        help="run every check but the worked examples (those that do not hold "
        "are no error; rulesc build still runs them)",
    )
    validate.add_argument(
        "paths",
        nargs="*",
        type=FsPath,
        metavar="PATH",
        help="files or system folders (default: all)",
    )
    build = sub.add_parser(
        "build",
        parents=[common, out],
        help="validate, run the worked examples, and write the output",
    )
    sub.add_parser(
        "check",
        parents=[common, out],
        help="fail if the output is not what a build would write",
    )
    # roll, explain, simulate, diff, build --watch (argparse only until one runs)
    from .workbench.commands import register

    register(sub, common=common, build=build)
    return parser


def _systems_named(
    paths: Sequence[FsPath], rules_dir: FsPath, more: Sequence[FsPath] = ()
) -> set[str] | None:
    """The systems the paths given to ``validate`` name (None: all of them).

    A path must be a rules folder, a system folder of one, a rules file of a
    system folder, or a rules folder's package.yaml (checked with any
    validation); anything else is a usage error, as a missing path is."""
    if not paths:
        return None
    names: set[str] = set()
    roots = [folder.resolve() for folder in (rules_dir, *more)]
    for path in paths:
        resolved = path.resolve()
        inside = [resolved.relative_to(r) for r in roots if resolved.is_relative_to(r)]
        if not inside:
            raise _Usage(
                f"{_shown(path)}: not inside the rules folder {rules_dir.as_posix()}/",
                "pass a file or folder under it, or set --rules",
            )
        if not path.exists():
            raise _Usage(f"{_shown(path)}: no such file or folder", _NAMED)
        rel = inside[-1]
        if not rel.parts:
            return None
        system = _system_of(path, rel)
        if system is None:
            raise _Usage(f"{_shown(path)}: not a rules file rulesc reads", _NAMED)
        names.update(system)
    return names


_NAMED = (
    "pass a rules folder, a system folder, a rules file of one "
    "(SYSTEM/NAME.yaml), or package.yaml"
)
_RULES_FILES = (".yaml", ".yml", ".json")  # .yml and .json: the loader says rename


def _system_of(path: FsPath, rel: FsPath) -> set[str] | None:
    """The system a path inside a rules folder names (none for its
    package.yaml), or None when rulesc reads no such path."""
    if any(part.startswith(".") for part in rel.parts) or len(rel.parts) > 2:
        return None
    if len(rel.parts) == 1:
        if path.is_dir():
            return {rel.parts[0]}
        return set() if rel.name == SETTINGS_FILE and path.is_file() else None
    if path.is_file() and path.suffix in _RULES_FILES:
        return {rel.parts[0]}
    return None


def _shown(path: FsPath) -> str:
    try:
        return path.resolve().relative_to(FsPath.cwd()).as_posix()
    except ValueError:
        return path.as_posix()


class _Usage(Exception):
    """A folder named on the command line that is not one rulesc can use."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


def _folders(args: argparse.Namespace) -> None:
    """Refuse, before any work, a --rules that is no folder or holds no system
    folder, and a --sources that is no folder: each would else be answered as a
    build of nothing ("ok: 0 rules")."""
    hint = "run rulesc from the project root, or pass --rules"
    for rules in (args.rules, *args.more_rules):
        with reading(rules):
            if not rules.exists():
                raise _Usage(f"--rules {_shown(rules)}: no such folder", hint)
            if not rules.is_dir():
                raise _Usage(f"--rules {_shown(rules)}: not a folder", hint)
            if not any(
                p.is_dir() for p in rules.iterdir() if not p.name.startswith(".")
            ):
                raise _Usage(
                    f"--rules {_shown(rules)}/ holds no system folder",
                    "each system is a folder of rules files with its system.yaml",
                )
    sources: FsPath | None = getattr(args, "sources", None)
    if sources is not None and not sources.is_dir():
        raise _Usage(
            f"--sources {_shown(sources)}: no such folder",
            "name the folder that holds the source documents",
        )


_NEGATIVE_DICE = re.compile(r"-[ \t]*(?:[0-9d(\[{]|floor|ceil|round|abs|max|min)")
"""A dice expression that starts with a minus (``-d6``, ``-1d4+3``)."""


def _roll_dashes(argv: Sequence[str]) -> list[str]:
    """``argv`` with a ``roll``'s EXPR that starts with a minus moved after
    ``--`` (so ``rulesc roll -d6`` needs none), the rest as given."""
    found = list(argv)
    if "roll" not in found or "--" in found:
        return found
    after = found.index("roll") + 1
    for at in range(after, len(found)):
        before = found[at - 1]
        valued = before.startswith("-") and "=" not in before and before != "--stats"
        if _NEGATIVE_DICE.match(found[at]) and not (at > after and valued):
            return [*found[:at], *found[at + 1 :], "--", found[at]]
    return found


def run(argv: Sequence[str]) -> int:
    from .output import progress

    progress.reset()
    args = _parser().parse_args(_roll_dashes(argv))
    from .front.rules_folders import resolve

    # the one place folders are resolved: --rules, or rules/ and its house_packs
    given = getattr(args, "rules", None)
    folders = resolve(given)
    args.rules, args.more_rules = folders[0], tuple(folders[1:])
    args.folders_given = bool(given)  # else build --watch reads the list again
    try:
        _folders(args)
        return _run(args)
    except _Usage as exc:
        command = args.command
        if command == "build" and getattr(args, "watch", False):
            command = "build --watch"
        print(f"rulesc {command}: error: {visible(exc.message)}", file=sys.stderr)
        print(f"  hint: {exc.hint}", file=sys.stderr)
        return EXIT_USAGE


def _run(args: argparse.Namespace) -> int:
    if getattr(args, "workbench", None):
        from .workbench.commands import dispatch

        with reading(args.rules):
            return dispatch(args)
    if args.command == "validate":
        from .validation import validate

        only = _systems_named(args.paths, args.rules, args.more_rules)
        with reading(args.rules):
            line = validate(
                args.rules,
                only,
                more=args.more_rules,
                sources=args.sources,
                examples=not args.no_examples,
            )
        print(line)
        return EXIT_OK
    if args.command == "build":
        from .output.outdir import refusal

        problem = refusal(args.out, args.rules)
        if problem is not None:
            print(f"rulesc build: error: --out {problem}", file=sys.stderr)
            print(
                "  hint: name a new or empty folder, or one rulesc built "
                "(the default is generated)",
                file=sys.stderr,
            )
            return EXIT_USAGE
        from .output import progress

        progress.at_stake(f"{_shown(args.out)}/")
    if args.command == "check":  # built from other folders: say that alone
        from .front.rules_folders import same_as_built

        with reading(args.out):
            same_as_built(args.out, _shown(args.out), [args.rules, *args.more_rules])
    # Imports stay lazy: a build the cache answers loads no YAML, schema or Jinja.
    from .output.cache import (
        build,
        cache_dir_for,
    )

    with reading(args.rules):
        outputs = build(
            args.rules,
            None if args.no_cache else cache_dir_for(args.out),
            later=True,
            more=args.more_rules,
        )
    if args.command == "build":
        line = write_output(args.out, outputs.files)
        outputs.remember()  # the cache only once the output is written
        print(f"ok: {line}")
        return EXIT_OK
    outputs.remember()
    problems = []
    with reading(args.out):
        from .output.outtree import (
            as_compared,
            foreign,
            listed,
            walk,
        )

        shown = _shown(args.out)
        tree = walk(args.out, set(outputs.files) | listed(args.out))
        problems = foreign(shown, tree, outputs.files)
        on_disk = as_compared(tree, outputs.files)
        if on_disk != outputs.files:
            from .output.staleness import stale

            problems += stale(shown, outputs.systems, outputs.files, on_disk)
    schema_dir = _own_schemas_for(args.out)
    if schema_dir is not None:
        from .front import schemas

        with reading(schema_dir):
            problems += schemas.stale(schema_dir)
    if problems:
        raise RulesError(problems)
    print(f"ok: {_shown(args.out)}/ is up to date")
    return EXIT_OK


def write_output(out_dir: FsPath, files: Mapping[str, bytes]) -> str:
    """Write the output tree (and, for the checkout's own generated/, schema/);
    what changed, as a build says it after ``ok: ``. The schemas come first:
    when the OS refuses a write (``EnvironmentProblem``), the output tree is
    left as it was."""
    from .output import progress
    from .output.writer import write_counted

    schemas = False
    schema_dir = _own_schemas_for(out_dir)
    if schema_dir is not None:
        from .front.schemas import write

        with writing(schema_dir), progress.step(f"{_shown(schema_dir)}/") as now:
            schemas = now.written = write(schema_dir)
    shown = _shown(out_dir)
    with writing(out_dir):
        changes = write_counted(out_dir, files, shown=shown)
    line = changes.text(len(files), shown)
    if schemas and schema_dir is not None:
        line += f"; {_shown(schema_dir)}/ written"
    return line


def _own_schemas() -> FsPath | None:
    """The repository's schema/, where rulesc runs from a checkout (not installed)."""
    from .front.schemas import (
        SCHEMA_DIR,  # not validate's: a check loads no JSON Schema
    )

    inside = SCHEMA_DIR.parent == FsPath(__file__).resolve().parent
    return None if inside else SCHEMA_DIR


def _own_schemas_for(out_dir: FsPath) -> FsPath | None:
    """The checkout's schema/, when ``out_dir`` is the checkout's own generated/
    beside it: a build into another folder writes (and a check reads) nothing
    else, whatever the rules."""
    schema_dir = _own_schemas()
    if schema_dir is None:
        return None
    mine = (schema_dir.parent / "generated").resolve()
    return schema_dir if out_dir.resolve() == mine else None


def _never_fail_to_print() -> None:
    """Errors quote the rules' text: print it even where the terminal is not UTF-8."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    _never_fail_to_print()
    from .workbench.output import guarded

    with guarded():
        return _main(args)


def _main(args: list[str]) -> int:
    try:
        return run(args)
    except RulesError as exc:
        # text (with the YAML line and a caret on a terminal), json or github
        from .workbench.display import print_diagnostics

        print_diagnostics(exc.diagnostics, args)
        return EXIT_RULES
    except EnvironmentProblem as exc:  # a full disk, a read-only folder...
        print(exc.line, file=sys.stderr)
        return EXIT_RULES
    except KeyboardInterrupt:
        from .output import progress

        print(f"rulesc: interrupted; {progress.report()}", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug in rulesc, never in the rules
        print(
            f"rulesc: internal error: {type(exc).__name__}: {visible(str(exc))}",
            file=sys.stderr,
        )
        print(
            "This is a bug in rulesc, not in your rules: please file an issue with the command you ran and the rules involved.",
            file=sys.stderr,
        )
        if os.environ.get("RULESC_DEBUG"):
            traceback.print_exc()
        else:
            print("(set RULESC_DEBUG=1 to see the traceback)", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    raise SystemExit(main())
