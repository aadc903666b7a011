"""Bad arguments, interrupts and threads, as a notebook meets them: every bad argument is a
Python exception (never a panic, a hang or a crash of the interpreter), long counts stop
on Ctrl-C, and objects cross threads, copies and pickles.

What could hang or kill the interpreter runs in a child process with a timeout."""

import copy
import pickle
import signal
import subprocess
import sys
import threading

import pytest

import shogi_lab
from shogi_lab import Position, ShogiLabError, quantum, tsume

MATE1 = "8k/9/8P/9/9/9/9/9/9 b G 1"


def run_child(code: str, timeout: float = 120) -> str:
    """Runs `code` in a child interpreter; its stdout (a crash or a hang fails the test)."""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr[-2000:]}"
    return r.stdout


def test_tsume_time_beyond_the_clis_bound_is_an_input_error():
    # 1e20 s panicked converting to a Duration (PanicException); 1e19 s overflowed the
    # solver's Instant (a panic on its thread). The CLI's --time takes 0 to 1e9.
    for t in [1e10, 1e19, 1e20, 1e300]:
        with pytest.raises(ShogiLabError, match="bad time"):
            tsume.solve(MATE1, time=t)
    assert tsume.solve(MATE1, time=1e9).result == "mate"


def test_tsume_huge_memory_is_a_memory_error_not_a_hang():
    # From 2**44 MiB the table's sizing loop wrapped around and never ended (no Ctrl-C either).
    out = run_child(f"""
import shogi_lab.tsume as t
for mib in [2**44, 2**63, 2**64 - 1]:
    try:
        t.solve({MATE1!r}, memory_mib=mib)
        print("solved")
    except MemoryError:
        print("MemoryError")
""", timeout=60)
    assert out.split() == ["MemoryError"] * 3


def test_tsume_progress_must_be_callable():
    # A solve that ends before the first progress call accepted anything.
    with pytest.raises(TypeError, match="progress must be callable"):
        tsume.solve(MATE1, progress=5)
    with pytest.raises(TypeError, match="progress must be callable"):
        tsume.solve(MATE1, progress="print")
    seen = []
    assert tsume.solve(MATE1, progress=seen.append).result == "mate"
