"""Goldens: the committed generated/ is exactly what building rules/ gives.

After an intended change, the remedy is the one ``rulesc check`` gives
(``diagnostics.REMEDY``: ``rulesc build``); ``--update-goldens`` does the same
from pytest.
"""

from __future__ import annotations

import difflib
import json

import pytest

from rulesc.common.diagnostics import REMEDY
from rulesc.output.writer import (
    read_tree,
    write_tree,
)
from rulesc.pipeline import Outputs

from .conftest import GENERATED


def test_generated_matches_rules(
    built: Outputs, request: pytest.FixtureRequest
) -> None:
    if request.config.getoption("--update-goldens"):
        write_tree(GENERATED, built.files)
    on_disk = read_tree(GENERATED)
    missing = sorted(built.files.keys() - on_disk.keys())
    extra = sorted(on_disk.keys() - built.files.keys())
    assert not missing, f"generated/ lacks {missing}; {REMEDY}"
    assert not extra, f"generated/ has files no build writes: {extra}"
    for path, blob in sorted(built.files.items()):
        if on_disk[path] != blob:
            diff = "".join(
                difflib.unified_diff(
                    on_disk[path].decode("utf-8").splitlines(keepends=True),
                    blob.decode("utf-8").splitlines(keepends=True),
                    f"generated/{path} (committed)",
                    f"generated/{path} (fresh build)",
                    n=2,
                )
            )
            pytest.fail(f"generated/{path} is stale; {REMEDY}\n{diff}")


def test_every_output_is_marked_generated(built: Outputs) -> None:
    for path, blob in built.files.items():
        if path == "rulebook/py.typed":
            assert blob == b""  # PEP 561: an empty marker
            continue
        if path in ("LICENSE", "js/LICENSE"):  # the licence's own text, verbatim
            assert blob.startswith(b"MIT License\n"), path  # rules/package.yaml's
            continue
        if path.endswith(".schema.json"):  # a JSON Schema says it in $comment
            assert "@generated" in json.loads(blob)["$comment"], path
            assert "DO NOT EDIT" in json.loads(blob)["$comment"], path
            continue
        if path.endswith(".json"):
            assert "DO NOT EDIT" in json.loads(blob)["@generated"]
            continue
        head = blob.decode("utf-8").splitlines()[0]
        assert "@generated" in head and "DO NOT EDIT" in head, path


def test_outputs_carry_no_timestamp_or_version(built: Outputs) -> None:
    import re

    stamp = re.compile(rb"20[0-9]{2}-[01][0-9]-[0-3][0-9]|rulesc [0-9]+\.[0-9]+")
    for path, blob in built.files.items():
        assert not stamp.search(blob), path
