"""Atomic and concurrent builds: generated/ is always one whole build, never a mix.

A write that fails at any step, or a process killed at any step, leaves the old
tree; the next build cleans up after it. Builds running at once each swap in a
whole tree, one after the other.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rulesc.output import writer
from rulesc.output.writer import (
    read_tree,
    write_tree,
)
from rulesc.pipeline import build

from .conftest import ROOT, RULES

OLD = {"rulebook/a.py": b"old a\n", "rulebook/b.py": b"old b\n", "gone.md": b"x\n"}
NEW = {
    "rulebook/a.py": b"new a\n",
    "rulebook/b.py": b"new b\n",
    "docs/c.md": b"new c\n",
    "docs/d.md": b"new d\n",
}
STEPS = len(NEW) + 2  # each file, the chmod, the swap

# Runs write_tree in a child process that announces each step and then waits to be
# killed there: "step N" is printed just before step N happens.
DRIVER = """
import os, sys, time, json
from pathlib import Path
from rulesc.output import writer
count = 0
def pause():
    global count
    print(f"step {count}", flush=True)
    count += 1
    time.sleep(30 if count > int(sys.argv[2]) else 0)
def hooked(real):
    def call(*args, **kwargs):
        pause()
        return real(*args, **kwargs)
    return call
Path.write_bytes = hooked(Path.write_bytes)
os.chmod = hooked(os.chmod)
os.rename = hooked(os.rename)
swap = writer._swap
def swap_then_pause(*args):
    swap(*args)
    pause()
writer._swap = hooked(swap_then_pause)
if sys.argv[3] == "fallback":
    writer._renameat2 = lambda: None
files = {k: v.encode() for k, v in json.loads(sys.stdin.read()).items()}
writer.write_tree(Path(sys.argv[1]), files)
print("done", flush=True)
"""


def _leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if ".new-" in p.name)


@pytest.mark.parametrize("step", range(STEPS))
def test_a_write_that_fails_at_any_step_leaves_the_old_tree(
    step: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "generated"
    write_tree(out, OLD)
    calls = [0]

    def failing(real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls[0] += 1
            if calls[0] == step + 1:
                raise OSError(28, "No space left on device")
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(Path, "write_bytes", failing(Path.write_bytes))
    monkeypatch.setattr(os, "chmod", failing(os.chmod))
    monkeypatch.setattr(writer, "_swap", failing(writer._swap))
    with pytest.raises(OSError, match="No space left"):
        write_tree(out, NEW)
    assert read_tree(out) == OLD
    assert _leftovers(out) == []


def _kill_at(step: int, out: Path, mode: str) -> None:
    """Run write_tree(out, NEW) in a child process and SIGKILL it at ``step``."""
    child = subprocess.Popen(
        [sys.executable, "-c", DRIVER, str(out), str(step), mode],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(_json(NEW))
    child.stdin.close()
    for line in child.stdout:
        if line.strip() == f"step {step}":
            break
    child.send_signal(signal.SIGKILL)
    assert child.wait() == -signal.SIGKILL, f"step {step} was never reached"
    child.stdout.close()


def _json(files: dict[str, bytes]) -> str:
    return json.dumps({k: v.decode() for k, v in files.items()})


@pytest.mark.parametrize("mode", ["exchange", "fallback"])
def test_a_build_killed_at_any_step_leaves_old_or_new_never_a_mix(
    mode: str, tmp_path: Path
) -> None:
    # + the pause after the swap; the fallback swaps in three renames
    steps = STEPS + 1 + (3 if mode == "fallback" else 0)
    states = []
    for step in range(steps):
        out = tmp_path / f"killed{step}" / "generated"
        write_tree(out, OLD)
        _kill_at(step, out, mode)
        with writer.build_lock(out):
            writer._recover(out)
        states.append("old" if read_tree(out) == OLD else "new")
        assert read_tree(out) in (OLD, NEW), f"killed at step {step}"
        assert _leftovers(out) == []
        write_tree(out, NEW)
        assert read_tree(out) == NEW
    # Old until the swap (in the fallback, until its second rename), new after it.
    swapped = 2 if mode == "fallback" else 1
    assert states == ["old"] * (steps - swapped) + ["new"] * swapped


def test_builds_racing_in_threads_leave_one_whole_tree(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    trees = [
        {f"rulebook/m{i}.py": f"tree {t} file {i}\n".encode() for i in range(6)}
        for t in range(4)
    ]

    def build(tree: dict[str, bytes]) -> None:
        for _ in range(15):
            write_tree(out, tree)

    threads = [threading.Thread(target=build, args=(t,)) for t in trees]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert read_tree(out) in trees
    assert _leftovers(out) == []


def _system(root: Path, change: tuple[str, str] | None = None) -> Path:
    """A rules folder with d20_scifi alone, with one text in zero_g.yaml changed."""
    rules = root / "rules"
    shutil.copytree(RULES / "d20_scifi", rules / "d20_scifi")
    if change is not None:
        path = rules / "d20_scifi" / "zero_g.yaml"
        text = path.read_text(encoding="utf-8")
        assert text.count(change[0]) == 1
        path.write_text(text.replace(*change), encoding="utf-8")
    return rules


def test_rulesc_builds_at_once_never_leave_a_mix(tmp_path: Path) -> None:
    first = _system(tmp_path / "first")
    second = _system(
        tmp_path / "second", ("max_increments: 20,", "max_increments: 25,")
    )
    trees = (build(first).files, build(second).files)
    assert trees[0] != trees[1]
    out = str(tmp_path / "generated")
    racers = [
        subprocess.Popen(
            [sys.executable, "-m", "rulesc", "build", "--out", out],
            cwd=rules.parent,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for rules in (first, second, first)
    ]
    for racer in racers:
        _, err = racer.communicate()
        assert racer.returncode == 0, err
    assert read_tree(tmp_path / "generated") in trees
    assert _leftovers(tmp_path / "generated") == []
