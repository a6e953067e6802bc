"""Licence: the text of the packages' LICENSE, one rulesc knows or a file of the rules folder.

``rulesc build`` writes the licence a rules folder's package.yaml names into
both packages (``generated/LICENSE``, ``generated/js/LICENSE``), which their
metadata point at. rulesc knows the text of the licences in ``KNOWN`` (MIT),
whose copyright line names ``copyright:``'s holder (by default "the <distribution>
authors"); any other licence takes its text from ``licence_file:``, a file of
the rules folder (beside package.yaml or below it: no ``..``, no link out).
"""

from __future__ import annotations

import os
from pathlib import Path as FsPath
from pathlib import PurePosixPath

Problem = tuple[str, str]  # a message and its hint

MAX_LICENCE_BYTES = 256 * 1024

_MIT = """\
MIT License

Copyright (c) {holder}

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""
# The licences whose text rulesc knows, by SPDX id: each a template of one
# ``{holder}`` (filled by replacement: the holder is data, never a format).
KNOWN = {"MIT": _MIT}


def default_holder(distribution: str) -> str:
    """Who the copyright line names when package.yaml names no one."""
    return f"the {distribution} authors"


def known_text(licence: str, holder: str) -> str | None:
    """The text of ``licence`` with ``holder`` in its copyright line, or None
    when rulesc does not know it."""
    template = KNOWN.get(licence)
    return None if template is None else template.replace("{holder}", holder)


def unknown(licence: str) -> Problem:
    """The refusal of a licence whose text rulesc does not know, with no file."""
    return (
        f"rulesc does not know the text of the licence {licence!r}, and no "
        "licence_file gives it",
        f"name a file of the rules folder holding its text in licence_file: "
        f"(licence_file: LICENSE), or use {', '.join(sorted(KNOWN))}, whose text "
        "rulesc knows",
    )


def file_text(rules_dir: FsPath, name: str) -> str | Problem:
    """The text of ``licence_file``'s ``name`` in ``rules_dir``, or why it is refused."""
    hint = (
        "licence_file is a path inside the rules folder, relative to package.yaml "
        "(LICENSE.txt, beside it), of a UTF-8 text file"
    )
    relative = PurePosixPath(name)
    if relative.is_absolute() or ".." in relative.parts or "\\" in name:
        return f"licence_file {name!r} is not inside the rules folder", hint
    path = rules_dir.joinpath(*relative.parts)
    real = FsPath(os.path.realpath(path))
    if not real.is_relative_to(FsPath(os.path.realpath(rules_dir))):
        return f"licence_file {name!r} leads outside the rules folder", hint
    if not real.is_file():
        return f"licence_file {name!r} is not a file of the rules folder", hint
    with real.open("rb") as opened:
        raw = opened.read(MAX_LICENCE_BYTES + 1)
    if len(raw) > MAX_LICENCE_BYTES:
        return f"licence_file {name!r} is over {MAX_LICENCE_BYTES} bytes", hint
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return f"licence_file {name!r} is not UTF-8 text", hint
    text = text.replace("\r\n", "\n")
    return text if text.endswith("\n") else text + "\n"
