"""Run a sharded batch as Ray tasks, merge the shards, resume after a failure.

    python -m shogi_lab.cluster tsume FILE --shards N [--nodes …] [--out DIR]
    python -m shogi_lab.cluster place SET [--sweep] [--both-directions] --shards N [--out DIR]
    python -m shogi_lab.cluster gen positions|tsume|quantum|records [--count C --seed S …] --shards N [--out DIR]

Each shard is one Ray task calling the bindings (the same `--shard I/N`
partition as the CLI: contiguous blocks of the problem list for ``tsume``,
round robin over top-level branches / long-range layouts for ``place``,
contiguous blocks of the vectors for ``gen``). A
finished shard is written atomically to ``DIR/shard-I-of-N.json[l]``; a rerun
with the same job (``DIR/job.json``: the options and, for ``tsume``, the problem file's
SHA-256, so an edited file is another job) keeps those and runs only the missing
shards; another job in the same ``DIR``, or shards there without a ``job.json``, is
refused. The merged
result is ``DIR/merged.jsonl`` (tsume: the shards concatenated in order, equal to
``shogi-lab tsume FILE --json`` apart from ``time_ms``; gen: byte for byte the
output of ``shogi-lab gen …`` without ``--shard``) or ``DIR/merged.json`` (place: the
object of ``shogi-lab place --count --json`` apart from ``time_ms``, the shards' sum,
followed by the driver's ``shards``, ``cpu_s_sum``, ``cpu_s_max``, ``cpu_s_max_worker``
and ``wall_s``).

Exit codes are the CLI's, and 3 for a failed shard: 0 every answer found; 1 an answer
missing within the limits (a problem ``unknown``, a ``gen tsume`` vector left out, a count other than ``--expect``);
2 bad input (an option, a file that cannot be read or is not UTF-8, a problem line that
cannot be read: its row holds the CLI's located error, the first is printed); 3 a
shard failed (its task raised, e.g. ``MemoryError`` for a ``--memory`` the worker cannot
give, or its worker process died more often than Ray or the local pool retries: twice);
the other shards run to their end
and are kept, no merged file is written, and a rerun computes only the missing shards.
Ctrl-C stops the driver (exit 130); the shards finished by then are kept. As the CLI,
``tsume`` prints ``N of M answer(s) not certified`` on stderr (the exit unchanged) when
some merged answer's certificate could not be checked.

By default Ray starts a local instance with ``--workers`` CPUs (default: all; ``--threads``,
the CPUs of each task, must not exceed them, or no task could start);
``--address auto`` or ``--address ray://HEAD:10001`` joins a running cluster
(every node needs ``pip install shogi_lab`` of the same version). ``--no-ray`` runs the
shards without Ray: one after another in this process, or with ``--workers N`` in a pool
of N local processes (each with ``--threads`` rayon threads; a shard whose process dies
runs again in a new one, twice at most as Ray retries it, then fails, exit 3; a shard that
raises is not retried, here or on Ray); ``--address`` is refused with it.

One driver at a time writes an ``--out``: it holds an exclusive lock (``flock``) on
``DIR/driver.lock`` while it runs, and a second driver started on the same directory
exits 2 with one line saying so (nothing written).
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import hashlib
import json
import os
import signal
import socket
import sys
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from . import _native, gen, placement, tsume

JOB_FILE = "job.json"
# At most this many shards: each is a Ray task and a file (a typo such as 10**9 built a
# list of a billion tasks, for minutes, before anything ran).
MAX_SHARDS = 1_000_000
# The CLI's bound on `tsume --memory` (MiB).
MAX_MEMORY_MIB = 1 << 24
# The CLI's bounds on `tsume --max-plies` (a u16) and `--certificate-nodes`.
MAX_PLIES = 2**16 - 1
MAX_CERTIFICATE_NODES = 1_000_000_000
# The options of `tsume` added after job.json files were first written, with their
# defaults: a job records them only when set, so a directory of an earlier run resumes.
TSUME_LATER_OPTIONS = {"alt_nodes": 0, "max_plies": None, "defender_hand_as_given": False,
                       "certificate_nodes": None}
# A one-ply mate, to check the solver's options in the driver before any shard runs.
MATE1 = "8k/9/8P/9/9/9/9/9/9 b G 1"
# The lock file in --out that a running driver holds.
LOCK_FILE = "driver.lock"
# A str argument of a shard this long or longer is put in Ray's object store once.
SHARED_ARG_CHARS = 100_000
# A shard whose worker process dies runs again this many more times: Ray's retries of a
# task (``max_retries``), and the local pool's (``--no-ray --workers``). A shard that
# raises is not retried by either.
RETRIES = 2


def _write_atomically(path: str, text: str) -> None:
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def run_tsume_shard(problems_text: str, path: str, index: int, count: int, limits: Dict[str, Any]) -> str:
    """The JSON lines of shard ``index``/``count`` of a problem file (the CLI's ``tsume --json`` fields);
    ``path`` is the file's name as the user gave it, for the errors of problems it cannot read."""
    problems = _native.tsume_problems(problems_text, path, bool(limits.get("defender_hand_as_given")))
    start, end = _native.shard_block(index, count, len(problems))
    lines = []
    for pid, sfen, _line, unreadable in problems[start:end]:
        if unreadable is None:
            try:
                r = tsume.solve(sfen, **limits)
            except _native.ShogiLabError as e:
                unreadable = str(e)
        if unreadable is not None:
            # The CLI's line for a problem it cannot read (TsumeOut::unreadable): every
            # field of the answer null, the counts 0, the error located in the file.
            o: Dict[str, Any] = {f.name: None for f in dataclasses.fields(tsume.TsumeResult)}
            o.update({"id": pid, "sfen": sfen, "result": "error", "nodes": 0, "plays": 0, "time_ms": 0,
                      "error": unreadable})
            lines.append(json.dumps(o, ensure_ascii=False))
            continue
        # The CLI's TsumeOut itself (src/output/tsume.rs), with the problem's id.
        lines.append(json.dumps(dataclasses.asdict(dataclasses.replace(r, id=pid)), ensure_ascii=False))
    return "".join(line + "\n" for line in lines)


def run_place_shard(pieces: str, both: bool, method: str, index: int, count: int) -> str:
    """One shard's placement count as a JSON object, with the CPU seconds of the task's
    process during the count (``cpu_s``: all its threads, Ray's own included) and the
    process that ran it (``worker``: host:pid)."""
    t = time.process_time()
    d = placement.count(pieces, both_directions=both, method=method, shard=(index, count))
    d["cpu_s"] = round(time.process_time() - t, 3)
    d["shard"] = f"{index}/{count}"
    d["worker"] = f"{socket.gethostname()}:{os.getpid()}"
    return json.dumps(d) + "\n"


def run_gen_shard(what: str, params: Dict[str, Any], index: int, count: int) -> Tuple[str, List[int]]:
    """Shard ``index``/``count`` of ``shogi-lab gen WHAT``: its JSON lines (the CLI's
    ``--shard I/N`` output) and, for ``tsume``, the vectors left out (no mate found)."""
    shard = (index, count)
    if what == "positions":
        return gen.positions_jsonl(params["count"], params["seed"], params["depth"], shard), []
    if what == "tsume":
        text, missing = gen.tsume_jsonl(params["count"], params["plies"], params["seed"], params["nodes"],
                                        params["max_candidates"], shard)
        return text, list(missing)
    if what == "quantum":
        return gen.quantum_jsonl(params["count"], params["seed"], shard), []
    return gen.records_jsonl(params["count"], params["to"], params["seed"], shard), []


# Options of `gen`: name → (default, the generators that take it); as `shogi-lab gen`.
GEN_OPTIONS: Dict[str, Tuple[Any, Tuple[str, ...]]] = {
    "depth": (2, ("positions",)),
    "plies": (None, ("tsume",)),
    "nodes": (200_000, ("tsume",)),
    "max_candidates": (100_000, ("tsume",)),
    "to": (None, ("records",)),
}


def _sum_by(rows: List[Dict[str, Any]], key: str, value: str) -> Dict[Any, float]:
    sums: Dict[Any, float] = {}
    for r in rows:
        sums[r.get(key)] = sums.get(r.get(key), 0.0) + r[value]
    return sums


def _parse(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m shogi_lab.cluster", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="job", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--shards", type=int, required=True, help=f"number of shards (Ray tasks), 1 to {MAX_SHARDS}")
    common.add_argument("--out", default=None, help="output directory (default: ray-out/<job>)")
    common.add_argument("--address", default=None, help="Ray cluster address (default: start a local instance)")
    common.add_argument("--workers", type=int, default=None,
                        help="CPUs of the local Ray instance (default: all); with --no-ray, run the shards in "
                             "a pool of this many local processes")
    common.add_argument("--threads", type=int, default=1, help="rayon threads (CPUs) of each task (default 1; at most --workers)")
    common.add_argument("--no-ray", action="store_true",
                        help="run the shards without Ray: one after another in this process, or in --workers processes")
    common.add_argument("--expect", type=int, default=None, help="place only: fail (exit 1) unless the merged count is this")
    t = sub.add_parser("tsume", parents=[common], help="solve a problem file")
    t.add_argument("file")
    t.add_argument("--nodes", type=int, default=None)
    t.add_argument("--time", type=float, default=None, help="seconds per problem")
    t.add_argument("--memory", type=int, default=256, help=f"table MiB per task (1 to {MAX_MEMORY_MIB}, as the CLI; default 256)")
    t.add_argument("--any-mate", action="store_true",
                   help="the first mate proven instead of the proven-shortest solution (as the CLI)")
    t.add_argument("--shortest", action="store_true", help=argparse.SUPPRESS)  # the default; old scripts
    t.add_argument("--no-certify", action="store_true", help="as tsume --no-certify: skip the in-process certificate check")
    t.add_argument("--count-futile", action="store_true",
                   help="as tsume --count-futile: count 無駄合 as plies (proven-shortest lengths then also get certified)")
    t.add_argument("--alt-nodes", type=int, default=0,
                   help="as tsume --alt-nodes: look for other mating first moves (余詰) with this many nodes each")
    t.add_argument("--max-plies", type=int, default=None,
                   help=f"as tsume --max-plies: only look for mates of at most this many plies (0 to {MAX_PLIES})")
    t.add_argument("--defender-hand-as-given", action="store_true",
                   help="as tsume --defender-hand-as-given: keep the defender's hand as given")
    t.add_argument("--certificate-nodes", type=int, default=None,
                   help=f"as tsume --certificate-nodes: graph nodes each half of a proven length's certificate "
                        f"may hold (1 to {MAX_CERTIFICATE_NODES})")
    p = sub.add_parser("place", parents=[common], help="count placements")
    p.add_argument("pieces")
    p.add_argument("--sweep", action="store_true", help="count by the transfer-matrix sweep (one direction)")
    p.add_argument("--both-directions", action="store_true")
    g = sub.add_parser("gen", parents=[common], help="generate test vectors (as shogi-lab gen)")
    g.add_argument("what", choices=["positions", "tsume", "quantum", "records"])
    g.add_argument("--count", type=int, default=100, help="number of vectors (default 100)")
    g.add_argument("--seed", type=int, default=1, help="the same seed gives the same vectors (default 1)")
    g.add_argument("--depth", type=int, default=None, help="positions: perft depths 1..=D (default 2)")
    g.add_argument("--plies", type=int, default=None, help="tsume: mate length in plies (odd; required)")
    g.add_argument("--nodes", type=int, default=None, help="tsume: solver nodes per candidate (default 200000)")
    g.add_argument("--max-candidates", type=int, default=None,
                   help="tsume: give up a vector after this many candidates (default 100000)")
    g.add_argument("--to", choices=["kif", "ki2", "csa", "jkf", "usi"], default=None,
                   help="records: the record format (required)")
    a = ap.parse_args(argv)
    if a.job == "tsume" and a.count_futile and a.any_mate:
        ap.error("the argument '--count-futile' cannot be used with '--any-mate'")  # as the CLI
    if a.job == "tsume" and a.time is not None and not 0 <= a.time <= 1e9:  # NaN too
        ap.error(f"bad --time {a.time}: the time must be a finite number of seconds between 0 and 1e9")
    if a.job == "gen":
        for name, (default, owners) in GEN_OPTIONS.items():
            value = getattr(a, name)
            if value is None:
                setattr(a, name, default)
            elif a.what not in owners:
                ap.error(f"--{name.replace('_', '-')} does not apply to gen {a.what}")
        for name in ("count", "seed", "depth", "plies", "nodes", "max_candidates"):
            value = getattr(a, name)
            low = 0 if name in ("seed", "depth") else 1
            high = 2**16 - 1 if name in ("depth", "plies") else 2**64 - 1  # the bindings check the rest
            if value is not None and not low <= value <= high:
                ap.error(f"bad --{name.replace('_', '-')} {value}: need {low} to {high}")
        if a.what == "tsume" and a.plies is None:
            ap.error("gen tsume needs --plies")
        if a.what == "records" and a.to is None:
            ap.error("gen records needs --to")
    if a.job == "tsume":  # the CLI's ranges (a bad value failed every task, or became every problem's error)
        if a.nodes is not None and not 0 <= a.nodes <= 2**64 - 1:
            ap.error(f"bad --nodes {a.nodes}: need 0 to {2**64 - 1}")
        if not 1 <= a.memory <= MAX_MEMORY_MIB:
            ap.error(f"bad --memory {a.memory}: need 1 to {MAX_MEMORY_MIB} (MiB)")
        if not 0 <= a.alt_nodes <= 2**64 - 1:
            ap.error(f"bad --alt-nodes {a.alt_nodes}: need 0 to {2**64 - 1}")
        if a.max_plies is not None and not 0 <= a.max_plies <= MAX_PLIES:
            ap.error(f"bad --max-plies {a.max_plies}: need 0 to {MAX_PLIES}")
        if a.certificate_nodes is not None and not 1 <= a.certificate_nodes <= MAX_CERTIFICATE_NODES:
            ap.error(f"bad --certificate-nodes {a.certificate_nodes}: need 1 to {MAX_CERTIFICATE_NODES}")
    if a.expect is not None and a.job != "place":
        # It was accepted and ignored: the run exited 0 whatever it found.
        ap.error(f"--expect applies to place only (the merged count), not to {a.job}")
    if not 1 <= a.shards <= MAX_SHARDS:
        ap.error(f"bad --shards {a.shards}: need 1 to {MAX_SHARDS}")
    if a.workers is not None and a.workers < 1:
        ap.error(f"bad --workers {a.workers}: need at least 1")
    if a.threads < 1:
        ap.error(f"bad --threads {a.threads}: need at least 1")
    if a.no_ray and a.address is not None:
        # It was ignored: the shards ran here, not on the cluster asked for.
        ap.error("--address joins a Ray cluster: it cannot be used with --no-ray")
    if not a.no_ray and a.address is None and a.workers is not None and a.threads > a.workers:
        # Each task asks for --threads CPUs: on a local instance of fewer, none could start
        # and the driver waited for ever.
        ap.error(f"--threads {a.threads} is more than the {a.workers} CPUs of the local Ray instance "
                 "(--workers): no task could start")
    return a


def _fail(message: str, code: int = 2) -> int:
    print(f"shogi-lab cluster: {message}", file=sys.stderr)
    return code


def _first_line(e: BaseException) -> str:
    """``Type: message`` of a shard's exception, on one line (a Ray task's error: its cause)."""
    cause = getattr(e, "cause", None)
    if isinstance(cause, BaseException):
        e = cause
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0]}" if text else type(e).__name__


def _lock(out: str) -> Tuple[Optional[int], Optional[str]]:
    """An exclusive lock on ``out`` (``flock`` of its ``driver.lock``), held until the file
    descriptor returned is closed (by the process's end at the latest), or why not: two
    drivers writing one ``--out`` at once overwrote each other's job and shards. ``(None,
    None)`` where there is no ``fcntl`` (Windows): no lock."""
    try:
        import fcntl
    except ImportError:
        return None, None
    path = os.path.join(out, LOCK_FILE)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        return None, f"cannot lock --out {out}: {path}: {e.strerror or e}"
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        os.close(fd)
        if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return None, (f"another driver is running on --out {out} (it holds {path}); "
                          "wait for it to end or use another --out")
        # A file system without locks (ENOLCK): the driver still runs, unguarded.
        print(f"shogi-lab cluster: warning: cannot lock {path} ({e.strerror or e}): "
              "make sure no other driver writes --out", file=sys.stderr)
        return None, None
    return fd, None


def _pool_worker(threads: int) -> None:
    """A local pool process's start: Ctrl-C goes to the driver, which stops the pool (the
    worker's own ``KeyboardInterrupt`` printed a traceback per process); rayon takes
    ``--threads`` threads unless ``RAYON_NUM_THREADS`` says otherwise."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.setdefault("RAYON_NUM_THREADS", str(threads))


def _pool_process(conn: Any, threads: int) -> None:
    """A local pool process: runs the shards the driver sends on ``conn`` (``(function,
    arguments)``, one at a time) and answers each with ``("done", result)``, or with
    ``("failed", line)`` when it raised (any exception: only a death is retried); ends at
    ``None`` or when the driver's end closes."""
    _pool_worker(threads)
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        fn, args = job
        try:
            reply: Tuple[str, Any] = ("done", fn(*args))
        except BaseException as e:  # SystemExit too: the shard's own failure, not a death
            reply = ("failed", _first_line(e))
        try:
            conn.send(reply)
        except Exception as e:  # a result that cannot be sent (pickled): the shard's failure
            conn.send(("failed", _first_line(e)))


def _death(exitcode: Optional[int]) -> str:
    """How a pool process ended: ``killed by SIGKILL``, ``exit code 1``."""
    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit code {exitcode}"


class _Slot:
    """One local pool process, its end of the pipe, and the shard it runs (``None``: idle)."""

    def __init__(self, process: Any, conn: Any) -> None:
        self.process, self.conn = process, conn
        self.shard: Optional[int] = None


def _run_in_processes(calls: List[Tuple[Callable[..., Any], Tuple[Any, ...]]], todo: List[int], workers: int,
                      threads: int, finish: Callable[[int, Any], None], failed: Dict[int, str], shards: int) -> None:
    """``--no-ray --workers N``: the shards ``todo`` in N local processes (started fresh,
    ``spawn``: a fork would copy this process's rayon pool without its threads), one shard
    at a time each, each shard kept as it ends. A shard whose process dies (killed, e.g.
    SIGKILL or the kernel's OOM killer, or crashed) runs again in a new process, up to
    ``RETRIES`` more times as Ray retries it; then, or when it raises (never retried, as on
    Ray), it is recorded in ``failed``. Ctrl-C (``KeyboardInterrupt``) stops the processes
    and propagates. (A ``concurrent.futures`` pool cannot tell whose process died: one
    death broke the pool and failed every shard still running or waiting.)"""
    import collections
    import multiprocessing
    from multiprocessing.connection import wait

    context = multiprocessing.get_context("spawn")
    # signal.signal works only on the main thread; elsewhere _pool_worker does it.
    main_thread = threading.current_thread() is threading.main_thread()

    def start() -> _Slot:
        ours, theirs = context.Pipe()
        process = context.Process(target=_pool_process, args=(theirs, threads), daemon=True)
        # Started with SIGINT ignored, the process starts with it ignored (exec keeps an
        # ignored signal, and Python then leaves it so): a Ctrl-C during its start printed a
        # KeyboardInterrupt traceback from each.
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main_thread else None
        try:
            process.start()
        finally:
            if main_thread:
                signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)
        theirs.close()
        return _Slot(process, ours)

    queue = collections.deque(todo)
    deaths = dict.fromkeys(todo, 0)
    left = len(todo)  # shards running or waiting (the "k of N" done counts the kept ones)
    slots: List[_Slot] = []
    try:
        while queue or any(s.shard is not None for s in slots):
            # Every waiting shard to an idle process, starting processes up to `workers`.
            for slot in [s for s in slots if s.shard is None and not s.process.is_alive()]:
                slots.remove(slot)  # died idle: no shard's fault
                slot.conn.close()
            idle = [s for s in slots if s.shard is None]
            while len(idle) < len(queue) and len(slots) < workers:
                slots.append(start())
                idle.append(slots[-1])
            for slot in idle:
                if not queue:
                    break
                slot.shard = queue.popleft()
                try:
                    slot.conn.send(calls[slot.shard])
                except OSError:  # its process died: seen below
                    pass
            running = [s for s in slots if s.shard is not None]
            ready = wait([s.conn for s in running] + [s.process.sentinel for s in running])
            for slot in running:
                if slot.conn not in ready and slot.process.sentinel not in ready:
                    continue
                i = slot.shard
                assert i is not None
                reply = None
                try:
                    if slot.conn.poll():
                        reply = slot.conn.recv()
                except Exception:  # EOF, or a reply cut short by the death
                    reply = None
                if reply is not None:
                    slot.shard = None
                    left -= 1
                    kind, value = reply
                    if kind == "done":
                        finish(i, value)  # kept even if a later shard fails
                        print(f"shard {i}/{shards} done ({shards - left} of {shards})", file=sys.stderr)
                    else:
                        failed[i] = value
                        print(f"shard {i}/{shards} failed: {value}", file=sys.stderr)
                    continue
                # The process died running shard i.
                slot.process.join()
                slot.conn.close()
                slots.remove(slot)
                deaths[i] += 1
                why = _death(slot.process.exitcode)
                if deaths[i] > RETRIES:
                    left -= 1
                    failed[i] = f"its worker process died {deaths[i]} times (the last: {why})"
                    print(f"shard {i}/{shards} failed: {failed[i]}", file=sys.stderr)
                else:
                    print(f"shard {i}/{shards}: its worker process died ({why}); retry {deaths[i]} of {RETRIES}",
                          file=sys.stderr)
                    queue.appendleft(i)
    except BaseException:  # Ctrl-C: no shard is waited for
        for slot in slots:
            slot.process.terminate()
        for slot in slots:
            slot.process.join()
        raise
    for slot in slots:
        try:
            slot.conn.send(None)
        except OSError:
            pass
    for slot in slots:
        slot.process.join()
        slot.conn.close()


def main(argv: Optional[Sequence[str]] = None) -> int:
    a = _parse(argv)
    out = a.out or os.path.join("ray-out", a.job)
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:  # a file of that name, no permission: one line, not a traceback
        return _fail(f"cannot use --out {out}: {e.strerror or e}")
    fd, busy = _lock(out)
    if busy:
        return _fail(busy)
    try:
        return _run(a, out)
    finally:
        if fd is not None:
            os.close(fd)  # releases the lock


def _run(a: argparse.Namespace, out: str) -> int:
    """The job of ``a`` in ``out``, which this driver has locked."""
    calls: List[Tuple[Callable[..., Any], Tuple[Any, ...]]]  # each shard's function and arguments
    if a.job == "tsume":
        try:  # as the CLI reads it: UTF-8 (else PATH:LINE:COL: not UTF-8 text), a BOM removed
            text = _native.read_text(a.file)
        except _native.ShogiLabError as e:
            print(f"shogi-lab cluster: {e}", file=sys.stderr)
            return 2
        if not _native.tsume_problems(text):
            print(f"shogi-lab cluster: {a.file}: no problems in the input (empty, or only blank and # lines)",
                  file=sys.stderr)
            return 2
        limits = {"nodes": a.nodes, "time": a.time, "memory_mib": a.memory, "shortest": not a.any_mate,
                  "certify": not a.no_certify, "count_futile": a.count_futile, "alt_nodes": a.alt_nodes,
                  "max_plies": a.max_plies, "defender_hand_as_given": a.defender_hand_as_given,
                  "certificate_nodes": a.certificate_nodes}
        try:  # the options as the solver checks them (--certificate-nodes against this machine's
            # memory), here: in a shard, a ShogiLabError became every problem's error row
            tsume.solve(MATE1, **{**limits, "nodes": 1, "time": None, "memory_mib": 1, "alt_nodes": 0})
        except _native.ShogiLabError as e:
            return _fail(str(e))
        # The text's hash, not only its size: a problem edited in place (same length) kept
        # its stale shards, and the merged file mixed the old answers with the new file.
        data = text.encode()
        recorded = {k: v for k, v in limits.items()
                    if k not in TSUME_LATER_OPTIONS or v != TSUME_LATER_OPTIONS[k]}
        job = {"job": "tsume", "file": os.path.abspath(a.file), "problems_bytes": len(data),
               "problems_sha256": hashlib.sha256(data).hexdigest(), "shards": a.shards, **recorded}
        ext = "jsonl"
        calls = [(run_tsume_shard, (text, a.file, i, a.shards, limits)) for i in range(a.shards)]
    elif a.job == "place":
        method = "sweep" if a.sweep else "search"
        try:  # validate in the driver so a bad set is one line, not a task traceback
            placement.first(a.pieces, both_directions=a.both_directions, node_limit=1)
            if a.sweep and a.both_directions:
                raise _native.ShogiLabError("the sweep counts one-directional placements only")
        except _native.ShogiLabError as e:
            print(f"shogi-lab cluster: {e}", file=sys.stderr)
            return 2
        job = {"job": "place", "pieces": a.pieces, "method": method,
               "both_directions": a.both_directions, "shards": a.shards}
        ext = "json"
        calls = [(run_place_shard, (a.pieces, a.both_directions, method, i, a.shards)) for i in range(a.shards)]
    else:
        params: Dict[str, Any] = {"count": a.count, "seed": a.seed}
        params.update({k: getattr(a, k) for k, (_, owners) in GEN_OPTIONS.items() if a.what in owners})
        try:  # validate in the driver (an empty part: no work) so bad options are one line
            run_gen_shard(a.what, params, a.count, a.count + 1)
        except _native.ShogiLabError as e:
            print(f"shogi-lab cluster: {e}", file=sys.stderr)
            return 2
        job = {"job": "gen", "what": a.what, **params, "shards": a.shards}
        ext = "jsonl"
        calls = [(run_gen_shard, (a.what, params, i, a.shards)) for i in range(a.shards)]

    job_path = os.path.join(out, JOB_FILE)
    if os.path.exists(job_path):
        try:
            with open(job_path, encoding="utf-8") as f:
                old = json.load(f)
        except (OSError, ValueError) as e:
            return _fail(f"{job_path} cannot be read ({e}); remove it (and the shards beside it) "
                         "or use another --out")
        if old != job:
            return _fail(f"{out} holds another job ({job_path}); use another --out")
    else:
        # Shards without a job.json (it was removed, or they came from elsewhere) would be
        # taken as this job's and merged unchecked.
        strays = sorted(n for n in os.listdir(out) if n.startswith("shard-"))
        if strays:
            return _fail(f"{out} holds shard files ({strays[0]} …) but no {JOB_FILE}, so their job "
                         "is unknown; use another --out")
        try:
            _write_atomically(job_path, json.dumps(job, ensure_ascii=False, indent=1) + "\n")
        except OSError as e:  # a read-only or full disk: one line, before any work
            return _fail(f"cannot write {job_path}: {e.strerror or e}")
    paths = [os.path.join(out, f"shard-{i}-of-{a.shards}.{ext}") for i in range(a.shards)]
    todo = [i for i in range(a.shards) if not os.path.exists(paths[i])]
    if len(todo) < a.shards:
        print(f"resuming: {a.shards - len(todo)} of {a.shards} shards already done in {out}", file=sys.stderr)

    def finish(i: int, result: Any) -> None:
        """Keeps shard i's result; its output file, written last, marks it done."""
        if isinstance(result, tuple):  # gen: (lines, vectors left out)
            result, missing = result
            if missing:
                _write_atomically(missing_path(i), json.dumps(missing) + "\n")
        _write_atomically(paths[i], result)

    def missing_path(i: int) -> str:
        return os.path.join(out, f"shard-{i}-of-{a.shards}.missing.json")

    t0 = time.monotonic()
    failed: Dict[int, str] = {}  # shard → its error, one line
    try:
        if todo and a.no_ray and a.workers is not None:
            _run_in_processes(calls, todo, a.workers, a.threads, finish, failed, a.shards)
        elif todo and a.no_ray:
            os.environ.setdefault("RAYON_NUM_THREADS", str(a.threads))
            for i in todo:
                fn, args = calls[i]
                try:
                    result = fn(*args)
                except Exception as e:  # the others still run and are kept (KeyboardInterrupt stops)
                    failed[i] = _first_line(e)
                    print(f"shard {i}/{a.shards} failed: {failed[i]}", file=sys.stderr)
                    continue
                finish(i, result)
        elif todo:
            try:
                import ray
            except ImportError:
                return _fail('Ray is not installed: pip install "ray>=2.9" (or "shogi_lab[cluster]"), '
                             "or run the shards in this process with --no-ray")
            env = {"env_vars": {"RAYON_NUM_THREADS": str(a.threads)}}
            try:
                if a.address:
                    ray.init(address=a.address, runtime_env=env, log_to_driver=False)
                else:
                    ray.init(num_cpus=a.workers, runtime_env=env, include_dashboard=False, log_to_driver=False)
            except Exception as e:  # no cluster at --address, …: one line, not Ray's traceback
                ray.shutdown()
                return _fail(f"cannot {'join the Ray cluster at ' + a.address if a.address else 'start Ray'}: "
                             f"{_first_line(e)}")
            try:
                most = max((n["Resources"].get("CPU", 0) for n in ray.nodes() if n.get("Alive")), default=0)
                if a.threads > most:
                    if not a.address:  # no task could ever start: the driver waited for ever
                        return _fail(f"--threads {a.threads} is more than the {most:g} CPUs of the local "
                                     "Ray instance: no task could start")
                    print(f"shogi-lab cluster: warning: no node of the cluster has --threads {a.threads} "
                          f"CPUs (the most: {most:g}); the tasks wait until such a node joins",
                          file=sys.stderr)
                remote = {fn: ray.remote(num_cpus=a.threads, max_retries=RETRIES)(fn) for fn, _ in calls[:1]}
                # A large argument (a tsume file's text) goes to the object store once, and
                # each task gets its reference (Ray resolves it): passed by value, it was
                # serialized and stored again for every shard (64 shards of a 300 MB file:
                # 19 GB).
                stored: Dict[int, Any] = {}

                def shared(x: Any) -> Any:
                    if isinstance(x, str) and len(x) >= SHARED_ARG_CHARS:
                        if id(x) not in stored:
                            stored[id(x)] = ray.put(x)
                        return stored[id(x)]
                    return x

                pending = {}
                for i in todo:
                    fn, args = calls[i]
                    pending[remote[fn].remote(*map(shared, args))] = i
                while pending:
                    # A timeout so that Ctrl-C (KeyboardInterrupt) reaches the driver between waits.
                    done, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
                    for ref in done:
                        i = pending.pop(ref)
                        try:
                            result = ray.get(ref)
                        except Exception as e:  # a task that raised, a worker that died past its retries
                            failed[i] = _first_line(e)
                            print(f"shard {i}/{a.shards} failed: {failed[i]}", file=sys.stderr)
                            continue
                        finish(i, result)  # kept even if a later shard fails
                        print(f"shard {i}/{a.shards} done ({a.shards - len(pending)} of {a.shards})",
                              file=sys.stderr)
            finally:
                ray.shutdown()
    except KeyboardInterrupt:
        kept = sum(os.path.exists(p) for p in paths)
        return _fail(f"interrupted: {kept} of {a.shards} shards done in {out}; "
                     "the same command resumes", 130)
    if failed:
        first = min(failed)
        more = f" (and {len(failed) - 1} more shard(s))" if len(failed) > 1 else ""
        return _fail(f"shard {first}/{a.shards} failed: {failed[first]}{more}; the "
                     f"{a.shards - len(failed)} finished shards are kept in {out}, the same command "
                     "computes the rest", 3)
    wall = time.monotonic() - t0

    texts = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            texts.append(f.read())
    if a.job == "gen":
        merged = "".join(texts)
        _write_atomically(os.path.join(out, "merged.jsonl"), merged)
        missing: List[int] = []
        for i in range(a.shards):
            if os.path.exists(missing_path(i)):
                with open(missing_path(i), encoding="utf-8") as f:
                    missing += json.load(f)
        print(json.dumps({"vectors": merged.count("\n"), "missing": len(missing), "shards": a.shards,
                          "wall_s": round(wall, 3), "out": out}))
        if missing:  # as `shogi-lab gen tsume` (exit 1)
            print(f"shogi-lab cluster: {len(missing)} of {a.count} vectors (the first: vector {missing[0]}) "
                  f"found no mate of exactly {a.plies} plies in {a.max_candidates} candidate positions",
                  file=sys.stderr)
            return 1
        return 0
    if a.job == "tsume":
        merged = "".join(texts)
        _write_atomically(os.path.join(out, "merged.jsonl"), merged)
        rows = [json.loads(line) for line in merged.splitlines()]
        by: Dict[str, int] = {}
        for r in rows:
            k = r.get("result", "error")
            by[k] = by.get(k, 0) + 1
        print(json.dumps({"problems": len(rows), **by, "shards": a.shards, "out": out}))
        # The CLI's line for answers whose certificate could not be checked, first on stderr
        # and with no effect on the exit: counted in the merged answers (kept shards' too) as
        # the CLI counts them — while certifying, a mate or nomate not certified (refused, or
        # cut short by a stop: `certified` false or null).
        if not a.no_certify:
            uncertified = sum(1 for r in rows if r.get("result") in ("mate", "nomate") and r.get("certified") is not True)
            if uncertified:
                print(f"{uncertified} of {len(rows)} answer(s) not certified", file=sys.stderr)
        # The CLI's exit codes and stderr line: 2 (bad input) when a problem could not be
        # read, naming the first; else 1 when a problem is unknown within the limits.
        bad = [r["error"] for r in rows if r.get("result") == "error"]
        if bad:
            more = f" (and {len(bad) - 1} more problem(s) that could not be read)" if len(bad) > 1 else ""
            print(f"shogi-lab cluster: {bad[0]}{more}", file=sys.stderr)
            return 2
        # As the CLI: under --max-plies, an `unknown` whose root is proven not mate within
        # that many plies (and no mate proven) answers the question asked.
        unsolved = sum(1 for r in rows if r.get("result") == "unknown" and not (
            a.max_plies is not None and r.get("mate_within") is None and r.get("no_mate_within") == a.max_plies))
        if unsolved:
            print(f"shogi-lab cluster: {unsolved} of {len(rows)} problem(s) unknown within limits",
                  file=sys.stderr)
            return 1
        return 0
    parts: List[Dict[str, Any]] = [json.loads(t) for t in texts]

    def combined(key: str, how: Any) -> Any:
        """The shards' values of `key` merged, or None where the method has none."""
        values = [p.get(key) for p in parts]
        return None if any(v is None for v in values) else how(values)

    # The CLI's `place --count --json` object (PlaceCount, in its key order), the shards'
    # values merged: count, mirror_symmetric, nodes, layouts and states sum (each shard
    # counts its own branches or layouts), peak_states is the largest, time_ms the shards'
    # sum. It held the counts only, without nodes, layouts, states, peak_states, shard and
    # time_ms. The driver's own measurements follow.
    count, mirror = sum(p["count"] for p in parts), sum(p["mirror_symmetric"] for p in parts)
    total = {
        "pieces": parts[0]["pieces"], "directions": parts[0]["directions"], "method": parts[0]["method"],
        "shard": None,
        "count": count,
        "count_up_to_mirror": (count + mirror) // 2,
        "mirror_symmetric": mirror,
        "nodes": combined("nodes", sum),
        "layouts": combined("layouts", sum),
        "states": combined("states", sum),
        "peak_states": combined("peak_states", max),
        "time_ms": combined("time_ms", sum),
        "shards": a.shards,
        "cpu_s_sum": round(sum(p["cpu_s"] for p in parts), 3),
        "cpu_s_max": max(p["cpu_s"] for p in parts),
        # The busiest worker's CPU: the lower bound on the wall time of the task phase
        # (None when a shard was written by a version that did not record its worker).
        "cpu_s_max_worker": round(max(_sum_by(parts, "worker", "cpu_s").values()), 3)
        if all("worker" in p for p in parts) else None,
        "wall_s": round(wall, 3),
    }
    _write_atomically(os.path.join(out, "merged.json"), json.dumps(total) + "\n")
    print(json.dumps(total))
    if a.expect is not None and total["count"] != a.expect:
        print(f"shogi-lab cluster: count {total['count']} but expected {a.expect}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
