"""The JavaScript runtime's primitives (generated/js/) against Python's, under ``node --test``.

Random is CPython's random.Random draw for draw; the case folding is
str.casefold. How the rules answer in JavaScript, alike, is the conformance
kit's (tests/test_conformance.py).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from .js_node import PACKAGE, node_test

SEEDS = [
    0,
    1,
    2,
    7,
    42,
    -1,
    -7,
    -(2**31),
    2**31 - 1,
    2**32 - 1,
    2**32,
    2**32 + 1,
    2**53 - 1,
    2**63,
    2**64 - 1,
    2**64,
    2**64 + 12345,
    -(2**70) + 3,
    3**100,
    123456789012345678901234567890,
    *random.Random(2024).sample(range(2**40), 20),
]
RANGES = [
    (1, 2),
    (1, 6),
    (1, 20),
    (0, 99),
    (-5, 5),
    (1, 2**31),
    (0, 2**32 - 1),
    (0, 2**32),
    (-(2**40), 2**40),
    (1, 10**15),
    (0, 2**53 - 1),
    (-(2**53) + 1, 2**53 - 1),
    (5, 5),
]
BITS = [1, 31, 32, 33, 64, 65, 100]
PER_RANGE = 25


def test_random_is_cpythons_random_stream(tmp_path: Path) -> None:
    seeds = []
    for seed in SEEDS:
        rng = random.Random(seed)
        draws = [[rng.randint(a, b) for _ in range(PER_RANGE)] for a, b in RANGES]
        bits = [str(rng.getrandbits(k)) for k in BITS]
        seeds.append(
            {
                "seed": str(seed),
                "randint": draws,
                "getrandbits": bits,
                "random": rng.random(),
            }
        )
    spec = {
        "package": str(PACKAGE),
        "seeds": seeds,
        "ranges": RANGES,
        "bits": BITS,
        "per_range": PER_RANGE,
    }
    node_test("random.test.mjs", spec, tmp_path)


def test_case_folding_is_str_casefold(tmp_path: Path) -> None:
    changed = [
        [cp, chr(cp).casefold()]
        for cp in range(sys.maxunicode + 1)
        if not 0xD800 <= cp < 0xE000 and chr(cp).casefold() != chr(cp)
    ]
    node_test("fold.test.mjs", {"package": str(PACKAGE), "changed": changed}, tmp_path)
