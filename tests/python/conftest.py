"""Shared fixtures: the repository root and the CLI (the oracle the bindings are checked against)."""

import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cli_path() -> pathlib.Path:
    p = pathlib.Path(os.environ.get("SHOGI_LAB_BIN", ROOT / "target" / "release" / "shogi-lab"))
    if not p.exists():
        pytest.exit(f"{p} missing: run `cargo build --release` first (or set SHOGI_LAB_BIN)", 2)
    return p


@pytest.fixture(scope="session")
def cli():
    """Runs the CLI; returns stdout (exit codes 0 and 1 accepted)."""
    exe = cli_path()

    def run(*args: str) -> str:
        r = subprocess.run([str(exe), *args], capture_output=True, text=True, cwd=ROOT)
        assert r.returncode in (0, 1), f"{args}: exit {r.returncode}: {r.stderr}"
        return r.stdout

    def run_json(*args: str):
        return [json.loads(line) for line in run(*args, "--json").splitlines() if line.strip()]

    run.json = run_json
    return run


@pytest.fixture(scope="session")
def root() -> pathlib.Path:
    return ROOT


def interrupted_after(imports: str, call: str, seconds: float) -> str:
    """Runs `call` in a child Python (after `imports`), sends SIGINT `seconds` after the
    call starts, and returns what the child printed: "interrupted" when the call ended
    with KeyboardInterrupt, "finished" when it ran to its end."""
    # The child installs Python's SIGINT handler itself: a process started in the
    # background by a shell inherits SIGINT ignored, and Python then keeps it so.
    code = f"""
import signal
signal.signal(signal.SIGINT, signal.default_int_handler)
{imports}
print("ready", flush=True)
try:
    {call}
    print("finished")
except KeyboardInterrupt:
    print("interrupted")
"""
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(seconds)
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=120)
        return out.strip()
    finally:
        child.kill()
