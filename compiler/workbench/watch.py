"""``rulesc build --watch``: rebuild on every save, printing errors as they appear.

A portable polling loop (no file-watching service or extra dependency): every
``--poll`` seconds the rules folder's content digest is taken (the one the build
cache keys on); when it changes and then holds still for one more poll (an
editor may save a file in several writes), the output is rebuilt exactly as
``rulesc build`` would, through the build cache. Errors are printed as a build prints them (a write the OS refuses, as
``rulesc: cannot write PATH: REASON``), and watching goes on; Ctrl-C stops it.
Given no ``--rules``, each build reads the house packs ``rules/package.yaml``
lists again, so a pack listed (or taken out) while watching is built (or left
out) at the next save, and then watched.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path as FsPath
from typing import TYPE_CHECKING

from .usage import UsageError

if TYPE_CHECKING:
    from ..common.diagnostics import RulesError


def _digest(rules_dir: FsPath, more: Sequence[FsPath] = ()) -> str | None:
    """The content of the rules folder (and of the folders of house rules
    ``more``), as one digest; None when one cannot be read."""
    from ..output.cache import scan

    digests = []
    for folder in (rules_dir, *more):
        found = scan(folder)
        if found is None:
            return None
        digests.append(found.digest)
    return " ".join(digests)


def _stamp() -> str:
    return time.strftime("%H:%M:%S")


def build_once(args: argparse.Namespace, argv: list[str]) -> bool:
    """One build into ``args.out``; True when it succeeded."""
    from ..common.diagnostics import RulesError
    from ..common.fs_errors import (
        EnvironmentProblem,
        reading,
        writing,
    )
    from ..output import progress
    from ..output.cache import (
        build,
        cache_dir_for,
    )
    from ..output.writer import write_counted

    progress.reset()
    progress.at_stake(f"{args.out.as_posix()}/")
    try:
        with reading(args.rules):
            cache_dir = None if args.no_cache else cache_dir_for(args.out)
            outputs = build(
                args.rules,
                cache_dir,
                later=True,
                more=getattr(args, "more_rules", ()),
            )
        with writing(args.out):
            changes = write_counted(args.out, outputs.files, shown=args.out.as_posix())
        outputs.remember()  # the cache only once the output is written
    except EnvironmentProblem as exc:  # a full disk, a read-only folder...
        print(f"[{_stamp()}] {args.out.as_posix()}/ was left as it was", flush=True)
        print(exc.line, file=sys.stderr, flush=True)
        return False
    except RulesError as exc:
        _failed(args, exc, argv)
        return False
    line = changes.text(len(outputs.files), args.out.as_posix())
    print(f"[{_stamp()}] ok: {line}", flush=True)
    return True


def _failed(args: argparse.Namespace, exc: RulesError, argv: list[str]) -> None:
    """Say that a build found errors, and print them."""
    from .display import print_diagnostics

    count = len(exc.diagnostics)
    print(
        f"[{_stamp()}] {count} error{'s' if count != 1 else ''}; "
        f"{args.out.as_posix()}/ was left as it was",
        flush=True,
    )
    print_diagnostics(exc.diagnostics, argv)
    sys.stderr.flush()


def _relisted(args: argparse.Namespace, argv: list[str]) -> bool:
    """Read the house packs package.yaml lists again (no --rules was given);
    False, its errors printed, when the list names no rules folder."""
    from ..common.diagnostics import RulesError
    from ..front.rules_folders import house_packs

    try:
        args.more_rules = tuple(house_packs(args.rules))
    except RulesError as exc:
        _failed(args, exc, argv)
        return False
    argv[:] = _argv(args)
    return True


def run(args: argparse.Namespace) -> int:
    rules_dir: FsPath = args.rules
    if not rules_dir.is_dir():
        raise UsageError(
            f"no rules folder {rules_dir.as_posix()}/ to watch",
            "run rulesc from the project root, or pass --rules",
        )
    if args.poll <= 0:
        raise UsageError("--poll takes a number of seconds above 0")
    from ..output.outdir import refusal

    problem = refusal(args.out, rules_dir)
    if problem is not None:
        raise UsageError(
            f"--out {problem}",
            "name a new or empty folder, or one rulesc built (the default is generated)",
        )
    argv = _argv(args)
    given = getattr(args, "folders_given", True)
    print(
        f"watching {rules_dir.as_posix()}/ (Ctrl-C to stop); "
        f"building into {args.out.as_posix()}/",
        flush=True,
    )
    builds = 0
    last_ok = False
    seen = _digest(rules_dir, args.more_rules)
    building = False
    try:
        while True:
            building = True
            watched = args.more_rules
            listed = given or _relisted(args, argv)
            if args.more_rules != watched:  # other packs: watched from now on
                seen = _digest(rules_dir, args.more_rules)
            last_ok = listed and build_once(args, argv)
            building = False
            builds += 1
            if args.max_builds is not None and builds >= args.max_builds:
                break
            seen = _wait_for_change(rules_dir, seen, args.poll, args.more_rules)
    except KeyboardInterrupt:
        from ..output import progress

        during = f" during a build: {progress.report()}" if building else ""
        print(f"\n[{_stamp()}] stopped watching{during}", flush=True)
        return 0
    return 0 if last_ok else 1


def _argv(args: argparse.Namespace) -> list[str]:
    """The command line the errors' hints repeat: the folders built."""
    argv = ["--format", args.format, "--rules", str(args.rules)]
    return argv + [w for f in args.more_rules for w in ("--rules", str(f))]


def _wait_for_change(
    rules_dir: FsPath, seen: str | None, poll: float, more: Sequence[FsPath] = ()
) -> str | None:
    """Block until the rules folders' content changes and settles; its new digest."""
    while True:
        time.sleep(poll)
        now = _digest(rules_dir, more)
        if now == seen:
            continue
        while True:  # wait until a whole save has landed
            time.sleep(poll)
            settled = _digest(rules_dir, more)
            if settled == now:
                return now
            now = settled
