"""Run a sharded batch as Ray tasks, merge the shards, resume after a failure.

    python -m shogi_lab.cluster tsume FILE --shards N [--nodes …] [--out DIR]
    python -m shogi_lab.cluster place SET [--sweep] [--both-directions] --shards N [--out DIR]

Each shard is one Ray task calling the bindings (the same `--shard I/N`
partition as the CLI: contiguous blocks of the problem list for ``tsume``,
round robin over top-level branches / long-range layouts for ``place``). A
finished shard is written atomically to ``DIR/shard-I-of-N.json[l]``; a rerun
with the same job keeps those and runs only the missing shards. The merged
result is ``DIR/merged.jsonl`` (tsume: the shards concatenated in order, equal to
``shogi-lab tsume FILE --json`` apart from ``time_ms``) or ``DIR/merged.json``
(place: counts summed).

By default Ray starts a local instance with ``--workers`` CPUs (default: all);
``--address auto`` or ``--address ray://HEAD:10001`` joins a running cluster
(every node needs ``pip install shogi_lab`` of the same version).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, Dict, List, Optional, Sequence

from . import _native, placement, tsume

JOB_FILE = "job.json"


def _write_atomically(path: str, text: str) -> None:
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def run_tsume_shard(problems_text: str, index: int, count: int, limits: Dict[str, Any]) -> str:
    """The JSON lines of shard ``index``/``count`` of a problem file (the CLI's ``tsume --json`` fields)."""
    problems = _native.tsume_problems(problems_text)
    start, end = _native.shard_block(index, count, len(problems))
    lines = []
    for pid, sfen, _line in problems[start:end]:
        # The same fields, in the same order, as the CLI's TsumeOut (src/output/tsume.rs).
        o: Dict[str, Any] = {"id": pid, "sfen": sfen, "result": "error", "plies": None, "shortest": None,
                             "usi": None, "kif": None, "no_mate_within": None, "alternatives": None,
                             "certified": None, "nodes": 0, "time_ms": 0, "error": None}
        try:
            r = tsume.solve(sfen, **limits)
        except _native.ShogiLabError as e:
            o["error"] = str(e)
            lines.append(json.dumps(o, ensure_ascii=False))
            continue
        mate = r.result == "mate"
        o.update({"sfen": r.sfen, "result": r.result, "plies": r.plies,
                  "shortest": r.shortest if mate else None,
                  "usi": " ".join(r.usi) if mate else None, "kif": r.kif,
                  "certified": r.certified, "nodes": r.nodes, "time_ms": r.time_ms})
        lines.append(json.dumps(o, ensure_ascii=False))
    return "".join(line + "\n" for line in lines)


def run_place_shard(pieces: str, both: bool, method: str, index: int, count: int) -> str:
    """One shard's placement count as a JSON object (with its CPU seconds)."""
    t = time.process_time()
    d = placement.count(pieces, both_directions=both, method=method, shard=(index, count))
    d["cpu_s"] = round(time.process_time() - t, 3)
    d["shard"] = f"{index}/{count}"
    return json.dumps(d) + "\n"


def _parse(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m shogi_lab.cluster", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="job", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--shards", type=int, required=True, help="number of shards (Ray tasks)")
    common.add_argument("--out", default=None, help="output directory (default: ray-out/<job>)")
    common.add_argument("--address", default=None, help="Ray cluster address (default: start a local instance)")
    common.add_argument("--workers", type=int, default=None, help="CPUs of the local instance (default: all)")
    common.add_argument("--threads", type=int, default=1, help="rayon threads inside each task (default 1)")
    common.add_argument("--no-ray", action="store_true", help="run the shards one after another in this process")
    common.add_argument("--expect", type=int, default=None, help="place: fail (exit 1) unless the merged count is this")
    t = sub.add_parser("tsume", parents=[common], help="solve a problem file")
    t.add_argument("file")
    t.add_argument("--nodes", type=int, default=None)
    t.add_argument("--time", type=float, default=None, help="seconds per problem")
    t.add_argument("--memory", type=int, default=256, help="table MiB per task")
    t.add_argument("--any-mate", action="store_true",
                   help="the first mate proven instead of the proven-shortest solution (as the CLI)")
    t.add_argument("--shortest", action="store_true", help=argparse.SUPPRESS)  # the default; old scripts
    t.add_argument("--no-certify", action="store_true", help="as tsume --no-certify: skip the in-process certificate check")
    p = sub.add_parser("place", parents=[common], help="count placements")
    p.add_argument("pieces")
    p.add_argument("--sweep", action="store_true", help="count by the transfer-matrix sweep (one direction)")
    p.add_argument("--both-directions", action="store_true")
    a = ap.parse_args(argv)
    if a.shards < 1:
        ap.error(f"bad --shards {a.shards}: need at least 1")
    if a.workers is not None and a.workers < 1:
        ap.error(f"bad --workers {a.workers}: need at least 1")
    if a.threads < 1:
        ap.error(f"bad --threads {a.threads}: need at least 1")
    return a


def main(argv: Optional[Sequence[str]] = None) -> int:
    a = _parse(argv)
    out = a.out or os.path.join("ray-out", a.job)
    os.makedirs(out, exist_ok=True)
    if a.job == "tsume":
        try:
            with open(a.file, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            print(f"shogi-lab cluster: {a.file}: {e.strerror}", file=sys.stderr)
            return 2
        if not _native.tsume_problems(text):
            print(f"shogi-lab cluster: {a.file}: no problems in the input", file=sys.stderr)
            return 2
        limits = {"nodes": a.nodes, "time": a.time, "memory_mib": a.memory, "shortest": not a.any_mate,
                  "certify": not a.no_certify}
        job = {"job": "tsume", "file": os.path.abspath(a.file), "problems_bytes": len(text.encode()),
               "shards": a.shards, **limits}
        ext = "jsonl"
        calls = [(run_tsume_shard, (text, i, a.shards, limits)) for i in range(a.shards)]
    else:
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

    job_path = os.path.join(out, JOB_FILE)
    if os.path.exists(job_path):
        with open(job_path, encoding="utf-8") as f:
            old = json.load(f)
        if old != job:
            print(f"shogi-lab cluster: {out} holds another job ({job_path}); use another --out",
                  file=sys.stderr)
            return 2
    else:
        _write_atomically(job_path, json.dumps(job, ensure_ascii=False, indent=1) + "\n")
    paths = [os.path.join(out, f"shard-{i}-of-{a.shards}.{ext}") for i in range(a.shards)]
    todo = [i for i in range(a.shards) if not os.path.exists(paths[i])]
    if len(todo) < a.shards:
        print(f"resuming: {a.shards - len(todo)} of {a.shards} shards already done in {out}", file=sys.stderr)

    t0 = time.monotonic()
    if todo and a.no_ray:
        os.environ.setdefault("RAYON_NUM_THREADS", str(a.threads))
        for i in todo:
            fn, args = calls[i]
            _write_atomically(paths[i], fn(*args))
    elif todo:
        import ray

        env = {"env_vars": {"RAYON_NUM_THREADS": str(a.threads)}}
        if a.address:
            ray.init(address=a.address, runtime_env=env, log_to_driver=False)
        else:
            ray.init(num_cpus=a.workers, runtime_env=env, include_dashboard=False, log_to_driver=False)
        try:
            remote = {fn: ray.remote(num_cpus=a.threads, max_retries=2)(fn) for fn, _ in calls[:1]}
            pending = {}
            for i in todo:
                fn, args = calls[i]
                pending[remote[fn].remote(*args)] = i
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    i = pending.pop(ref)
                    _write_atomically(paths[i], ray.get(ref))  # kept even if a later shard fails
                    print(f"shard {i}/{a.shards} done ({a.shards - len(pending)} of {a.shards})",
                          file=sys.stderr)
        finally:
            ray.shutdown()
    wall = time.monotonic() - t0

    texts = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            texts.append(f.read())
    if a.job == "tsume":
        merged = "".join(texts)
        _write_atomically(os.path.join(out, "merged.jsonl"), merged)
        rows = [json.loads(line) for line in merged.splitlines()]
        by = {}
        for r in rows:
            k = r.get("result", "error")
            by[k] = by.get(k, 0) + 1
        print(json.dumps({"problems": len(rows), **by, "shards": a.shards, "out": out}))
        return 0 if by.get("unknown", 0) == 0 and by.get("error", 0) == 0 else 1
    parts: List[Dict[str, Any]] = [json.loads(t) for t in texts]
    total = {
        "pieces": parts[0]["pieces"], "directions": parts[0]["directions"], "method": parts[0]["method"],
        "count": sum(p["count"] for p in parts),
        "mirror_symmetric": sum(p["mirror_symmetric"] for p in parts),
        "shards": a.shards,
        "cpu_s_sum": round(sum(p["cpu_s"] for p in parts), 3),
        "cpu_s_max": max(p["cpu_s"] for p in parts),
        "wall_s": round(wall, 3),
    }
    total["count_up_to_mirror"] = (total["count"] + total["mirror_symmetric"]) // 2
    _write_atomically(os.path.join(out, "merged.json"), json.dumps(total) + "\n")
    print(json.dumps(total))
    if a.expect is not None and total["count"] != a.expect:
        print(f"shogi-lab cluster: count {total['count']} but expected {a.expect}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
