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
