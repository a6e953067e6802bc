"""Fuzzing driven by the schemas: rules files made from schema/ never crash rulesc.

``tests/fuzz`` makes rules files from every schema the validator uses (so it
follows them as they change): real rules and rules generated from the schemas,
then mutated where the schema says what may go (a required key dropped, a
wrong type, an unknown key, a bound crossed, a name duplicated or swapped, a
rule of another kind). Each goes through validation, the model and, when it
gets that far, the build with its worked examples, in-process. Every outcome
is a build or located errors; anything else raised is a crash, reported with
the files that made it (reproduce with RULEBOOK_FUZZ_SEED and the case index).
One case in forty is rules that roll, of every shape of parameter and named as
the targets name their own (``fuzz/rolling.py``): each builds, imports in Python
and in Node, and answers alike in both, with the same seeds.

RULEBOOK_FUZZ_CASES sets how many files (1,000 here; ``make fuzz`` runs 20,000).

House rules packs are fuzzed too (``tests/fuzz/packs.py``): a pack extending
real rules with overrides of them, each built with its base.
RULEBOOK_FUZZ_PACKS sets how many (100 here; ``make fuzz`` runs 2,000).
"""

from __future__ import annotations

import os
from pathlib import Path

from .fuzz.harness import ROLLING, run
from .fuzz.packs import run_packs
from .fuzz.schemas import Schemas
from .js_node import node_test

# (600 files reach every stage and kind; RULEBOOK_FUZZ_CASES=5000 fuzzes longer)
CASES = int(os.environ.get("RULEBOOK_FUZZ_CASES", "600"))
SEED = int(os.environ.get("RULEBOOK_FUZZ_SEED", "23"))
PACKS = int(os.environ.get("RULEBOOK_FUZZ_PACKS", "100"))
# the packs' own seed (one whose 100 packs reach every stage of the pipeline)
PACK_SEED = int(os.environ.get("RULEBOOK_FUZZ_PACK_SEED", "25"))


def test_fuzzed_rules_files_build_or_fail_with_located_errors(tmp_path: Path) -> None:
    report = run(CASES, SEED, tmp_path / "packages")
    assert not report.crashes, report.describe()
    assert sum(report.outcomes.values()) == CASES, report.outcomes
    # The fuzzer reaches every stage: a fuzzer whose files all fail the schema
    # (say, once the schemas change) would test nothing past it.
    # (build errors are the rarest: 5 of the 600 files of seed 23)
    for stage in ("schema", "semantics", "build errors", "built"):
        assert report.outcomes[stage] >= CASES // 200, report.outcomes
    assert report.outcomes["built"] >= CASES // 20, report.outcomes
    # ... and builds rules of every kind the schemas list.
    missing = set(Schemas().kinds()) - set(report.built_kinds)
    assert not missing, (missing, report.built_kinds)
    # Every file of rules that roll builds; its calls answer alike in Node.
    rolling = CASES // ROLLING
    assert report.rolling == {"called": rolling}, report.rolling
    assert len(report.javascript) == rolling
    node_test("conformance.test.mjs", {"specs": report.javascript}, tmp_path)


def test_fuzzed_house_packs_build_or_fail_with_located_errors() -> None:
    report = run_packs(PACKS, PACK_SEED)
    assert not report.crashes, report.describe()
    assert sum(report.outcomes.values()) == PACKS, report.outcomes
    # packs refused (by the schema, the merge or the model), packs whose worked
    # examples no longer hold, and packs that build: the fuzzer reaches each
    for stage in ("pack refused", "pack build errors", "pack built"):
        assert report.outcomes[stage] >= PACKS // 25, report.outcomes
