"""``rulesc accept`` for house rules: an inherited example's new answer is restated in the house rules' folder, never in the base's files.

It goes where the house rules' YAML says it belongs: into the expect the
rule's override already restates; else into that override (a new entry of
its ``examples``, or the key), wherever the override stands in the pack's
files and in whichever style (block or flow) it is written; a rule with no
override gets one under the ``overrides`` of the pack's ``accepted.yaml`` (the
key, or the file, made where there is none). Each change is an edit of the
text (``yaml_edit``): every byte it does not change stays.
"""

from __future__ import annotations

from pathlib import Path as FsPath
from typing import Any

from ..common.diagnostics import (
    Diagnostic,
    RulesError,
)
from ..common.fs_errors import reading
from ..front.loader import load_text
from ..front.model import (
    Example,
    System,
)
from . import rewrite
from .accept_write import Drafts
from .yaml_edit import Path, add, apply, compare_plain, edits
from .yaml_text import Flow, string

ACCEPTED = "accepted.yaml"  # the file of a house rules' folder accept restates in


def inherited(system: System, ex: Example) -> bool:
    """Whether ``ex`` is a worked example a system of house rules inherits (its
    place is in the base's files, which accept never rewrites)."""
    house = system.house
    return (
        house is not None
        and house.base is not None
        and ex.loc.file not in house.own_files
    )


def target(rules_dir: FsPath, system: System) -> tuple[FsPath, str]:
    """The file accept restates a system's examples in, and its shown path."""
    assert system.house is not None
    shown = f"{system.house.at.file.rsplit('/', 1)[0]}/{ACCEPTED}"
    return rules_dir.parent / shown, shown


NO_PLACE = "accept finds no place in it to write the answer"


class _Unread(Exception):
    """A file of the pack is no longer as built."""

    def __init__(self, shown: str) -> None:
        self.shown = shown


class Pack:
    """The files of one system of house rules, as accept edits them
    (``drafts``: every file accept writes)."""

    def __init__(self, rules_dir: FsPath, system: System, drafts: Drafts) -> None:
        assert system.house is not None
        self.system, self.drafts = system, drafts
        _, self.accepted = target(rules_dir, system)
        own = system.house.own_files
        self.order = [*own, *([] if self.accepted in own else [self.accepted])]

    def text(self, shown: str) -> str:
        """The file's text as edited so far (read once)."""
        new = self._new_file if shown == self.accepted else None
        return self.drafts.open(shown, new).text

    def _new_file(self) -> str:
        """A new accepted.yaml: the schema line of the system file, if it has
        one, and the system's id, with the system file's line ending."""
        assert self.system.house is not None
        meta = self.drafts.path(self.system.house.at.file)
        with reading(meta):
            text = meta.read_bytes().decode("utf-8", "replace")
        first = rewrite.lines(text)[0] if text else ""
        ending = rewrite.break_at(text, 0)
        head = ""
        if first.startswith("# yaml-language-server:"):
            head = first.replace("system.schema.json", "rules.schema.json") + ending
        return f"{head}system: {string(self.system.id)}{ending}"

    def data(self, shown: str) -> Any:
        """The file's tree as the rules' reader reads its text so far."""
        try:
            return load_text(self.text(shown).encode("utf-8"), shown).data
        except RulesError:
            raise _Unread(shown) from None

    def restate(
        self, rule_id: str, name: str, old: Any, new: Any, refused: list[Diagnostic]
    ) -> bool:
        """Restate worked example ``name`` of rule ``rule_id`` answering ``new``
        (the build ran it expecting ``old``); False (a refusal added) when the
        file it goes in is no longer as built."""
        try:
            shown, at = self._override(rule_id)
            if shown in self.drafts.stale:
                return False
            text = self._restated(shown, at, rule_id, name, old, new)
        except _Unread as unread:
            self.drafts.refuse(unread.shown, refused, rewrite.CHANGED)
            return False
        except LookupError:  # a collection accept cannot add to (written empty)
            self.drafts.refuse(shown, refused, NO_PLACE)
            return False
        self.drafts.files[shown].text = text
        return True

    def _override(self, rule_id: str) -> tuple[str, Path | None]:
        """The file holding the override of ``rule_id`` and its path there
        (accepted.yaml and None when there is none)."""
        for shown in self.order:
            data = self.data(shown)
            listed = data.get("overrides") if isinstance(data, dict) else None
            for index, entry in enumerate(listed if isinstance(listed, list) else []):
                if isinstance(entry, dict) and entry.get("rule") == rule_id:
                    return shown, ("overrides", index)
        return self.accepted, None

    def _restated(
        self, shown: str, at: Path | None, rule_id: str, name: str, old: Any, new: Any
    ) -> str:
        text = self.text(shown)
        item = {"name": name, "expect": Flow(new)}
        if at is None:  # a new override, under overrides
            entry = {"rule": rule_id, "examples": [item]}
            data = self.data(shown)
            listed = data.get("overrides", []) if isinstance(data, dict) else None
            if not isinstance(listed, list):
                raise _Unread(shown)
            self._answer(
                shown, ("overrides", len(listed), "examples", 0, "expect"), new
            )
            if "overrides" in data:
                return add(text, ("overrides",), None, entry)
            return add(text, (), "overrides", [entry])
        override = self.data(shown)
        for step in at:
            override = override[step]
        examples = override.get("examples")
        if examples is not None and not isinstance(examples, list):
            raise _Unread(shown)
        if examples is None:
            self._answer(shown, (*at, "examples", 0, "expect"), new)
            return add(text, at, "examples", [item])
        names = [e.get("name") if isinstance(e, dict) else None for e in examples]
        if name not in names:
            self._answer(shown, (*at, "examples", len(examples), "expect"), new)
            return add(text, (*at, "examples"), None, item)
        index = names.index(name)
        path = (*at, "examples", index, "expect")
        self._answer(shown, path, new)
        if "expect" not in examples[index]:
            return add(text, path[:-1], "expect", Flow(new))
        if not compare_plain(examples[index]["expect"], old):
            raise _Unread(shown)  # restated since the build: not the answer it ran
        return apply(text, list(edits(text, path, old, new)))

    def _answer(self, shown: str, path: Path, new: Any) -> None:
        self.drafts.open(shown).answers.append((path, new))
