"""Rules folders: which folders a command reads (the base and its house packs), resolved in one place.

A project names the folders it builds in its rules folder's ``package.yaml``:
``house_packs:``, a list of folders of house rules relative to the folder
holding package.yaml, read after it, in order. Every command that reads rules
(``validate build check diff accept explain simulate roll``, ``build --watch``)
takes its folders from ``resolve``: with no ``--rules``, ``rules`` and its house
packs; with ``--rules`` (once or more), exactly the folders given.

A build records the folders it read (``recorded``) in its manifest, so that
``rulesc check`` given other folders says so once (``mismatch``) rather than
naming every rule of the folder it was not given.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path as FsPath

from ..common.diagnostics import Diagnostic, RulesError

BASE = FsPath("rules")
FILE_NAME = "package.yaml"
MANIFEST = "manifest.json"  # output/outdir.py's
KEY = "house_packs"
_LISTED = re.compile(rf"^{KEY}[ \t]*:", re.MULTILINE)


def resolve(given: Sequence[FsPath] | None, base: FsPath = BASE) -> list[FsPath]:
    """The folders a command reads: those given on the command line, or else
    ``base`` and the house packs its package.yaml lists (raises ``RulesError``,
    located in package.yaml, for a pack that is missing or holds no system)."""
    if given:
        return list(given)
    return [base, *house_packs(base)]


def house_packs(base: FsPath) -> list[FsPath]:
    """The folders ``base``'s package.yaml lists under ``house_packs`` (none
    without one); each as a path from where ``base`` is (``rules/../tests/house``
    is ``tests/house``). A value of the wrong shape is left to the schema, which
    every build and validation checks package.yaml against."""
    path = base / FILE_NAME
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:  # none (or unreadable: the settings say so, located)
        return []
    if not _LISTED.search(text):  # read as text: no YAML for most projects
        return []
    from .loader import load_file

    source = load_file(path, f"{base.resolve().name}/{FILE_NAME}")
    data = source.data
    listed = data.get(KEY) if isinstance(data, dict) else None
    if not isinstance(listed, list):
        return []
    folders: list[FsPath] = []
    errors: list[Diagnostic] = []
    for index, entry in enumerate(listed):
        if not isinstance(entry, str) or not entry:
            continue
        folder = FsPath(os.path.normpath(base / entry))
        problem = _problem(folder)
        if problem is None:
            folders.append(folder)
            continue
        errors.append(
            source.error(
                (KEY, index),
                f"house pack {entry!r} ({folder.as_posix()}) {problem}",
                "each house pack is a folder, relative to this file's, of system "
                "folders (each with its system.yaml); mend the path or take it "
                "out of house_packs",
            )
        )
    if errors:
        raise RulesError(errors)
    return folders


def _problem(folder: FsPath) -> str | None:
    """Why ``folder`` is no rules folder (None: it is one)."""
    if not folder.exists():
        return "is no such folder"
    if not folder.is_dir():
        return "is not a folder"
    try:
        systems = [
            p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")
        ]
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    return None if systems else "holds no system folder"


def recorded(folders: Sequence[FsPath]) -> list[str]:
    """The folders as a build's manifest records them: posix paths from the
    first folder's parent (``rules``, ``tests/house``), as the build's other
    paths are shown."""
    if not folders:
        return []
    root = folders[0].resolve().parent
    return [FsPath(os.path.relpath(f.resolve(), root)).as_posix() for f in folders]


def same_as_built(out: FsPath, shown_out: str, folders: Sequence[FsPath]) -> None:
    """Raise ``RulesError`` with one error when ``out`` (its manifest) was built
    from other rules folders than ``folders``: ``rulesc check`` compares them
    before anything else."""
    import json

    try:
        doc = json.loads((out / MANIFEST).read_bytes())
    except (OSError, ValueError):  # none yet, or broken: the check says so
        return
    built = doc.get("folders") if isinstance(doc, dict) else None
    problem = mismatch(built, recorded(folders), shown_out, f"{shown_out}/{MANIFEST}")
    if problem is not None:
        raise RulesError([problem])


def mismatch(
    built: object, given: Sequence[str], shown_out: str, manifest: str
) -> Diagnostic | None:
    """The one error ``rulesc check`` gives when the output was built from other
    folders than those it is given (None when they are the same, or the
    manifest records none: it was built before folders were recorded)."""
    if not isinstance(built, list) or not all(isinstance(f, str) for f in built):
        return None
    if built == list(given):
        return None
    missing = [f for f in built if f not in given]
    extra = [f for f in given if f not in built]
    settings = f"{given[0] if given else BASE.as_posix()}/{FILE_NAME}"
    if missing:
        what = f"{shown_out}/ was built with {_named(missing, built[0])}, which this check was not given"
        hint = (
            f"list it under {KEY} in {settings} (a path from that folder), or "
            f"pass --rules {' --rules '.join(built)}; to leave it out, rebuild "
            "without it (rulesc build) and commit what it writes"
        )
    elif extra:
        what = f"this check was given {_named(extra, given[0])}, which {shown_out}/ was not built with"
        hint = (
            f"build with it (rulesc build --rules {' --rules '.join(given)}), or "
            f"take it out of {KEY} in {settings} or of --rules"
        )
    else:
        what = (
            f"{shown_out}/ was built from the rules folders {', '.join(built)} in "
            f"that order; this check was given {', '.join(given)}"
        )
        hint = "give the folders in the order built, or rebuild: rulesc build"
    return Diagnostic(manifest, 1, 1, what, hint)


def _named(folders: Sequence[str], base: str) -> str:
    kind = "rules" if base in folders else "house"
    if len(folders) == 1:
        return f"{kind} folder {folders[0]}"
    return f"{kind} folders " + ", ".join(folders)
