"""The shard driver (``python -m shogi_lab.cluster``): merged shards equal the CLI's
unsharded answer, finished shards are kept and reused. These run the shards in-process
(``--no-ray``); `.ci/run` runs the same driver on a local 2-worker Ray cluster."""

import dataclasses
import functools
import json
import os
import pathlib
import signal
import subprocess
import sys
import time
import types

import pytest
from conftest import cli_path

from shogi_lab import cluster, tsume


def untimed(lines):
    rows = [json.loads(line) for line in lines.splitlines() if line.strip()]
    for r in rows:
        r.pop("time_ms", None)
    return rows


@pytest.mark.parametrize("shards,mode", [(1, []), (3, []), (4, ["--any-mate"]), (16, [])])
def test_tsume_shards_merge_to_the_cli_output(cli, root, tmp_path, shards, mode):
    file = str(root / "specs" / "tsume" / "cases.sfen")
    want = untimed(cli("tsume", file, "--json", "--nodes", "20000", *mode))
    out = tmp_path / "t"
    argv = ["tsume", file, "--nodes", "20000", *mode, "--shards", str(shards), "--no-ray", "--out", str(out)]
    assert cluster.main(argv) == 0
    assert untimed((out / "merged.jsonl").read_text(encoding="utf-8")) == want
    assert len(list(out.glob("shard-*.jsonl"))) == shards


def test_unreadable_problems_are_located_as_by_the_cli(root, tmp_path, capsys):
    # A problem line the solver cannot load: the merged row is the CLI's, its error
    # located at the file's line and column (`PATH:LINE:COL: message`).
    file = tmp_path / "mixed.sfen"
    good = (root / "specs" / "tsume" / "cases.sfen").read_text(encoding="utf-8").splitlines()
    good = [line for line in good if line.strip() and not line.startswith("#")][:2]
    file.write_text(f"{good[0]}\nbad\tlnsgk/9 b - 1\n{good[1]}\n", encoding="utf-8")
    r = subprocess.run([str(cli_path()), "tsume", str(file), "--json", "--nodes", "20000"],
                       capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    want = untimed(r.stdout)
    assert want[1]["result"] == "error" and want[1]["error"].startswith(f"{file}:2:5: ")
    out = tmp_path / "t"
    argv = ["tsume", str(file), "--nodes", "20000", "--shards", "2", "--no-ray", "--out", str(out)]
    # The CLI's exit code (2: bad input; the driver said 1) and its stderr line.
    capsys.readouterr()
    assert cluster.main(argv) == 2
    assert capsys.readouterr().err.strip() == "shogi-lab cluster: " + r.stderr.strip().removeprefix("shogi-lab: ")
    assert untimed((out / "merged.jsonl").read_text(encoding="utf-8")) == want


def test_problem_files_are_read_as_the_cli_reads_them(tmp_path, capsys):
    # A file that is not UTF-8 is one line and exit 2, as the CLI (it was a UnicodeDecodeError
    # traceback); a UTF-8 byte order mark is no part of the first id (it stayed in it: "\ufeffa").
    mate1 = "8k/9/8P/9/9/9/9/9/9 b G 1"
    latin = tmp_path / "latin1.sfen"
    latin.write_bytes(f"a\t{mate1}\nb\t{mate1} # caf\xe9\n".encode("latin-1"))
    r = subprocess.run([str(cli_path()), "tsume", str(latin), "--json"], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.strip() == f"shogi-lab: {latin}:2:34: not UTF-8 text"
    capsys.readouterr()
    argv = ["--shards", "2", "--no-ray", "--out", str(tmp_path / "out-latin")]
    assert cluster.main(["tsume", str(latin), *argv]) == 2
    assert capsys.readouterr().err == "shogi-lab cluster: " + r.stderr.removeprefix("shogi-lab: ")
    bom = tmp_path / "bom.sfen"
    bom.write_bytes(b"\xef\xbb\xbf" + f"a\t{mate1}\n".encode())
    want = untimed(subprocess.run([str(cli_path()), "tsume", str(bom), "--json"], capture_output=True,
                                  text=True, check=True).stdout)
    assert want[0]["id"] == "a"
    out = tmp_path / "out-bom"
    assert cluster.main(["tsume", str(bom), "--shards", "1", "--no-ray", "--out", str(out)]) == 0
    assert untimed((out / "merged.jsonl").read_text(encoding="utf-8")) == want


def test_answers_not_certified_are_counted_as_by_the_cli(root, tmp_path, monkeypatch, capsys):
    # `shogi-lab tsume` prints "N of M answer(s) not certified" (stderr, exit unchanged)
    # when certificates could not be checked; the driver said nothing. It counts the merged
    # answers, a resumed run's kept shards too, as the CLI counts: a mate or nomate whose
    # certificate was refused (certified false) or cut short by a stop (null). Two answers
    # of cases.sfen are made so here (a real one takes minutes of certificate work).
    file = root / "specs" / "tsume" / "cases.sfen"
    rows = {r[0]: r[1] for r in (line.split("\t") for line in file.read_text(encoding="utf-8").splitlines()
                                 if line.strip() and not line.startswith("#"))}
    made = {rows["one-ply-gold-gote"]: False, rows["lone-pawn"]: None}
    real = tsume.solve

    def uncertified(sfen, **limits):
        r = real(sfen, **limits)
        return dataclasses.replace(r, certified=made[sfen]) if sfen in made and r.certified else r

    monkeypatch.setattr(tsume, "solve", uncertified)
    out = tmp_path / "t"
    argv = ["tsume", str(file), "--nodes", "20000", "--shards", "3", "--no-ray", "--out", str(out)]
    capsys.readouterr()
    assert cluster.main(argv) == 0
    assert capsys.readouterr().err.splitlines()[-1] == f"2 of {len(rows)} answer(s) not certified"
    merged = untimed((out / "merged.jsonl").read_text(encoding="utf-8"))
    assert [r["certified"] for r in merged if r["id"] in ("one-ply-gold-gote", "lone-pawn")] == [False, None]
    # Resumed with the real solver: the kept shards' answers still count.
    monkeypatch.setattr(tsume, "solve", real)
    (out / "shard-2-of-3.jsonl").unlink()
    assert cluster.main(argv) == 0
    assert capsys.readouterr().err.splitlines()[-1] == f"2 of {len(rows)} answer(s) not certified"
    # Nothing certified on purpose (--no-certify), or everything certified: no line, as the CLI.
    for options in (["--no-certify"], []):
        r = subprocess.run([str(cli_path()), "tsume", str(file), "--json", "--nodes", "20000", *options],
                           capture_output=True, text=True)
        assert r.returncode == 0 and "not certified" not in r.stderr, r.stderr
        assert cluster.main(["tsume", str(file), "--nodes", "20000", *options, "--shards", "2", "--no-ray",
                             "--out", str(tmp_path / "-".join(["c", *options]))]) == 0
        assert "not certified" not in capsys.readouterr().err


def test_tsume_limits_the_cli_refuses_are_refused(tmp_path, root):
    file = str(root / "specs" / "tsume" / "cases.sfen")
    base = ["tsume", file, "--shards", "1", "--no-ray", "--out", str(tmp_path / "x")]
    for bad in (["--count-futile", "--any-mate"], ["--time", "nan"], ["--time", "-1"]):
        r = subprocess.run([str(cli_path()), "tsume", file, *bad], capture_output=True, text=True)
        assert r.returncode == 2, bad
        with pytest.raises(SystemExit) as e:
            cluster.main(base + bad)
        assert e.value.code == 2, bad
    assert not (tmp_path / "x" / "job.json").exists()


def test_place_shards_sum_and_resume(cli, tmp_path, capsys):
    want = cli.json("place", "--count", "--sweep", "RBG")[0]
    out = tmp_path / "p"
    argv = ["place", "RBG", "--sweep", "--shards", "5", "--no-ray", "--out", str(out), "--expect", str(want["count"])]
    assert cluster.main(argv) == 0
    merged = json.loads((out / "merged.json").read_text())
    assert (merged["count"], merged["mirror_symmetric"]) == (want["count"], want["mirror_symmetric"])
    # Resume: a finished shard is reused (its file is not rewritten), a missing one is recomputed.
    kept = out / "shard-1-of-5.json"
    kept_text = kept.read_text()
    stamp = kept.stat().st_mtime_ns
    (out / "shard-3-of-5.json").unlink()
    capsys.readouterr()
    assert cluster.main(argv) == 0
    assert "resuming: 4 of 5" in capsys.readouterr().err
    assert kept.stat().st_mtime_ns == stamp and kept.read_text() == kept_text
    assert json.loads((out / "merged.json").read_text())["count"] == want["count"]
    # A wrong expectation fails; another job in the same directory is refused.
    assert cluster.main(argv[:-1] + [str(want["count"] + 1)]) == 1
    assert cluster.main(["place", "RB", "--shards", "5", "--no-ray", "--out", str(out)]) == 2


def test_place_search_shards(cli, tmp_path):
    want = cli.json("place", "--count", "--both-directions", "RBG")[0]
    out = tmp_path / "s"
    assert cluster.main(["place", "RBG", "--both-directions", "--shards", "3", "--no-ray", "--out", str(out)]) == 0
    assert json.loads((out / "merged.json").read_text())["count"] == want["count"]


def test_bad_input_is_one_line(tmp_path, capsys):
    assert cluster.main(["place", "X9", "--shards", "2", "--no-ray", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("shogi-lab cluster: bad piece set") and "\n" not in err
    assert cluster.main(["place", "RB", "--sweep", "--both-directions", "--shards", "2", "--no-ray",
                         "--out", str(tmp_path / "y")]) == 2
    assert cluster.main(["tsume", str(tmp_path / "missing.sfen"), "--shards", "2", "--no-ray",
                         "--out", str(tmp_path / "z")]) == 2
    with pytest.raises(SystemExit):
        cluster.main(["place", "RB", "--shards", "0"])


GEN_JOBS = [
    ["positions", "--count", "23", "--seed", "7", "--depth", "1"],
    ["tsume", "--count", "5", "--plies", "3", "--seed", "7"],
    ["quantum", "--count", "23", "--seed", "7"],
    ["records", "--count", "11", "--seed", "7", "--to", "usi"],
    ["records", "--count", "5", "--seed", "7", "--to", "kif"],
]


@pytest.mark.parametrize("job", GEN_JOBS, ids=lambda j: "-".join(j[:1] + j[-2:]))
@pytest.mark.parametrize("shards", [1, 3, 4])
def test_gen_shards_concatenate_to_the_cli_run(cli, tmp_path, job, shards):
    want = cli("gen", *job)
    assert want.count("\n") == int(job[2])
    out = tmp_path / "g"
    assert cluster.main(["gen", *job, "--shards", str(shards), "--no-ray", "--out", str(out)]) == 0
    assert (out / "merged.jsonl").read_text(encoding="utf-8") == want  # byte for byte
    parts = [(out / f"shard-{i}-of-{shards}.jsonl").read_text(encoding="utf-8") for i in range(shards)]
    # Each shard is the CLI's own `--shard I/N` part.
    assert parts == [cli("gen", *job, "--shard", f"{i}/{shards}") for i in range(shards)]


def test_gen_more_shards_than_vectors_and_resume(cli, tmp_path, capsys):
    job = ["quantum", "--count", "3", "--seed", "11"]
    want = cli("gen", *job)
    out = tmp_path / "q"
    argv = ["gen", *job, "--shards", "5", "--no-ray", "--out", str(out)]
    assert cluster.main(argv) == 0
    assert (out / "merged.jsonl").read_text(encoding="utf-8") == want
    assert (out / "shard-4-of-5.jsonl").read_text() == ""  # an empty part is a finished part
    kept = out / "shard-0-of-5.jsonl"
    stamp = kept.stat().st_mtime_ns
    (out / "shard-2-of-5.jsonl").unlink()
    (out / "merged.jsonl").unlink()
    capsys.readouterr()
    assert cluster.main(argv) == 0
    assert "resuming: 4 of 5" in capsys.readouterr().err
    assert kept.stat().st_mtime_ns == stamp
    assert (out / "merged.jsonl").read_text(encoding="utf-8") == want
    # The same directory with another seed is another job.
    assert cluster.main(["gen", "quantum", "--count", "3", "--seed", "12", "--shards", "5", "--no-ray",
                         "--out", str(out)]) == 2


def test_gen_tsume_vectors_left_out_fail_like_the_cli(cli, tmp_path, capsys):
    # 30 candidates per vector: 3 of these 6 find no 3-ply mate; the CLI prints the others and exits 1.
    job = ["tsume", "--count", "6", "--plies", "3", "--seed", "7", "--max-candidates", "30"]
    exe = cli_path()
    r = subprocess.run([str(exe), "gen", *job], capture_output=True, text=True)
    assert r.returncode == 1 and r.stderr.startswith("shogi-lab: 3 of 6 vectors") and r.stdout.count("\n") == 3
    out = tmp_path / "t"
    capsys.readouterr()
    assert cluster.main(["gen", *job, "--shards", "3", "--no-ray", "--out", str(out)]) == 1
    assert capsys.readouterr().err.strip() == "shogi-lab cluster: " + r.stderr.strip().removeprefix("shogi-lab: ")
    assert (out / "merged.jsonl").read_text(encoding="utf-8") == r.stdout


def test_gen_bindings_equal_the_cli(cli):
    from shogi_lab import gen
    assert gen.positions(4, seed=3, depth=1) == [json.loads(x) for x in cli("gen", "positions", "--count", "4",
                                                                             "--seed", "3", "--depth", "1").splitlines()]
    assert gen.records_jsonl(3, "csa", seed=5, shard=(1, 2)) == cli("gen", "records", "--count", "3", "--seed", "5",
                                                                    "--to", "csa", "--shard", "1/2")
    assert gen.quantum(2, seed=9) == [json.loads(x) for x in cli("gen", "quantum", "--count", "2", "--seed", "9")
                                      .splitlines()]
    # The solver runs under a stop flag in the binding (Ctrl-C): same vectors, same nodes.
    assert gen.tsume_jsonl(2, plies=3, seed=4) == (cli("gen", "tsume", "--count", "2", "--plies", "3",
                                                       "--seed", "4"), [])


@pytest.mark.parametrize("call,message", [
    (lambda g: g.positions(0), "bad count 0"),
    (lambda g: g.positions(2, depth=6), "bad depth 6"),
    (lambda g: g.tsume_jsonl(2, plies=2), "bad plies 2"),
    (lambda g: g.records(2, to="pgn"), "bad format \"pgn\""),
    (lambda g: g.quantum(2, shard=(2, 2)), "bad shard 2/2"),
])
def test_gen_bad_arguments_are_one_line(call, message):
    from shogi_lab import ShogiLabError, gen
    with pytest.raises(ShogiLabError) as e:
        call(gen)
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_gen_bad_options_in_the_driver(tmp_path, capsys):
    base = ["--shards", "2", "--no-ray", "--out", str(tmp_path / "x")]
    assert cluster.main(["gen", "positions", "--depth", "9", *base]) == 2
    assert capsys.readouterr().err.strip() == "shogi-lab cluster: bad depth 9: need 0 to 5"
    for argv in (["gen", "tsume"], ["gen", "records"], ["gen", "quantum", "--depth", "1"],
                 ["gen", "positions", "--count", "0"], ["gen", "quantum", "--seed", "-1"]):
        with pytest.raises(SystemExit):
            cluster.main(argv + base)
    assert not (tmp_path / "x" / "job.json").exists()


MATE1 = "8k/9/8P/9/9/9/9/9/9 b G 1"


def test_an_edited_problem_file_is_another_job(tmp_path, capsys):
    # The job was the file's name and size: a problem edited in place (same length) kept its
    # stale shard, and merged.jsonl gave the old problem's answer under the new file (exit 0).
    file = tmp_path / "p.sfen"
    file.write_text(f"a\t{MATE1}\nb\t{MATE1.replace('G', 'S')}\n", encoding="utf-8")
    out = tmp_path / "t"
    argv = ["tsume", str(file), "--shards", "2", "--no-ray", "--out", str(out)]
    assert cluster.main(argv) == 0
    assert [r["result"] for r in untimed((out / "merged.jsonl").read_text(encoding="utf-8"))] == ["mate", "nomate"]
    file.write_text(f"a\t{MATE1.replace('G', 'S')}\nb\t{MATE1}\n", encoding="utf-8")  # same size
    capsys.readouterr()
    assert cluster.main(argv) == 2
    assert "holds another job" in capsys.readouterr().err
    assert cluster.main(argv[:-1] + [str(tmp_path / "t2")]) == 0
    assert [r["result"] for r in untimed((tmp_path / "t2" / "merged.jsonl").read_text(encoding="utf-8"))] == [
        "nomate", "mate"]


@pytest.mark.parametrize("bad", [["--nodes", "-1"], ["--memory", "0"], ["--memory", "-3"],
                                 ["--memory", str((1 << 24) + 1)]])
def test_tsume_nodes_and_memory_the_cli_refuses_are_refused(root, tmp_path, bad):
    # --nodes -1 and --memory -3 failed every task with an OverflowError traceback; --memory 0
    # became every problem's "error" row ("could not be read"), written as finished shards.
    refused_by_cli_and_driver(root, tmp_path, bad)


def refused_by_cli_and_driver(root, tmp_path, bad):
    """`shogi-lab tsume` and the driver's tsume job both refuse `bad` (exit 2), the driver
    before it writes its job."""
    file = str(root / "specs" / "tsume" / "cases.sfen")
    r = subprocess.run([str(cli_path()), "tsume", file, *bad], capture_output=True, text=True)
    assert r.returncode == 2, (bad, r.stderr)
    with pytest.raises(SystemExit) as e:
        cluster.main(["tsume", file, *bad, "--shards", "2", "--no-ray", "--out", str(tmp_path / "x")])
    assert e.value.code == 2
    assert not (tmp_path / "x" / "job.json").exists()


@pytest.mark.parametrize("job", [["tsume", "specs/tsume/cases.sfen"], ["gen", "positions", "--count", "5"]])
def test_expect_outside_place_is_refused(root, tmp_path, monkeypatch, job):
    # It was accepted and ignored: `gen positions --count 5 --expect 7` exited 0.
    monkeypatch.chdir(root)
    with pytest.raises(SystemExit) as e:
        cluster.main([*job, "--expect", "7", "--shards", "2", "--no-ray", "--out", str(tmp_path / "x")])
    assert e.value.code == 2
    assert not (tmp_path / "x" / "job.json").exists()


def run_driver(*argv, timeout=60):
    """The driver as a command (what could hang runs with a timeout)."""
    return subprocess.run([sys.executable, "-m", "shogi_lab.cluster", *argv], capture_output=True,
                          text=True, timeout=timeout)


def test_a_huge_shard_count_is_refused_at_once(tmp_path):
    # --shards 5000000000 built a list of 5e9 tasks (minutes, gigabytes) before anything ran.
    r = run_driver("place", "RB", "--shards", "5000000000", "--no-ray", "--out", str(tmp_path / "x"))
    assert r.returncode == 2 and "bad --shards 5000000000: need 1 to 1000000" in r.stderr
    assert not (tmp_path / "x").exists()


def test_more_threads_than_local_cpus_is_refused_before_ray_starts(tmp_path):
    # Each task asks for --threads CPUs: with more than the local instance has, no task could
    # start and the driver waited for ever, silently.
    r = run_driver("gen", "positions", "--count", "4", "--shards", "2", "--workers", "2", "--threads", "3",
                   "--out", str(tmp_path / "x"))
    assert r.returncode == 2 and "--threads 3 is more than the 2 CPUs" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and not (tmp_path / "x" / "job.json").exists()


def fail_place_shard(monkeypatch, failing, error):
    """Makes the place shard `failing` raise `error` (the others run as before); returns the
    real shard function, to put back."""
    real = cluster.run_place_shard

    def flaky(pieces, both, method, index, count):
        if index == failing:
            raise error
        return real(pieces, both, method, index, count)

    monkeypatch.setattr(cluster, "run_place_shard", flaky)
    return real


def test_a_failing_shard_keeps_the_others_and_a_rerun_resumes(cli, tmp_path, monkeypatch, capsys):
    # A shard that raised ended the run with a traceback and exit 1 (the code of "unknown
    # within the limits"); the shards after it never ran. Now the others run and are kept,
    # no merged file is written, the exit is 3 and the same command computes the rest.
    want = cli.json("place", "--count", "--sweep", "RBG")[0]
    real = fail_place_shard(monkeypatch, 1, MemoryError("transposition table: too big\nsecond line"))
    out = tmp_path / "p"
    argv = ["place", "RBG", "--sweep", "--shards", "3", "--no-ray", "--out", str(out)]
    capsys.readouterr()
    assert cluster.main(argv) == 3
    err = capsys.readouterr().err.splitlines()
    assert err == ["shard 1/3 failed: MemoryError: transposition table: too big",
                   f"shogi-lab cluster: shard 1/3 failed: MemoryError: transposition table: too big; the 2 "
                   f"finished shards are kept in {out}, the same command computes the rest"]
    assert sorted(p.name for p in out.iterdir()) == ["driver.lock", "job.json", "shard-0-of-3.json",
                                                     "shard-2-of-3.json"]
    monkeypatch.setattr(cluster, "run_place_shard", real)
    assert cluster.main(argv) == 0
    assert "resuming: 2 of 3" in capsys.readouterr().err
    assert json.loads((out / "merged.json").read_text())["count"] == want["count"]


def test_ctrl_c_keeps_the_finished_shards(tmp_path, monkeypatch, capsys):
    real = cluster.run_gen_shard

    def interrupted_at_2(what, params, index, count):
        if index == 2:
            raise KeyboardInterrupt
        return real(what, params, index, count)

    monkeypatch.setattr(cluster, "run_gen_shard", interrupted_at_2)
    out = tmp_path / "g"
    argv = ["gen", "quantum", "--count", "6", "--shards", "3", "--no-ray", "--out", str(out)]
    capsys.readouterr()
    try:
        code = cluster.main(argv)
    except KeyboardInterrupt:  # caught here, or it would end the pytest session
        pytest.fail("KeyboardInterrupt escaped the driver")
    assert code == 130
    assert capsys.readouterr().err.strip() == (f"shogi-lab cluster: interrupted: 2 of 3 shards done in {out}; "
                                               "the same command resumes")
    assert not (out / "merged.jsonl").exists() and (out / "shard-1-of-3.jsonl").exists()


def test_output_directory_problems_are_one_line(tmp_path, monkeypatch, capsys):
    # An --out that is a file, a job.json that is no JSON, Ray missing: tracebacks before.
    afile = tmp_path / "afile"
    afile.write_text("x")
    base = ["gen", "quantum", "--count", "2", "--shards", "2"]
    capsys.readouterr()
    assert cluster.main([*base, "--no-ray", "--out", str(afile)]) == 2
    assert capsys.readouterr().err.startswith(f"shogi-lab cluster: cannot use --out {afile}: ")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "job.json").write_text('{"job": ')
    assert cluster.main([*base, "--no-ray", "--out", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(f"shogi-lab cluster: {bad / 'job.json'} cannot be read")
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    assert cluster.main([*base, "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("shogi-lab cluster: Ray is not installed") and err.count("\n") == 1


def test_shards_without_a_job_file_are_not_taken_for_this_job(tmp_path, capsys):
    # With job.json removed, the shards beside it were reused for whatever job came next:
    # a quantum run's shard merged into a positions run (exit 0).
    out = tmp_path / "g"
    base = ["--count", "4", "--shards", "2", "--no-ray", "--out", str(out)]
    assert cluster.main(["gen", "quantum", *base]) == 0
    (out / "job.json").unlink()
    (out / "shard-1-of-2.jsonl").unlink()
    capsys.readouterr()
    assert cluster.main(["gen", "positions", *base]) == 2
    assert capsys.readouterr().err.strip() == (f"shogi-lab cluster: {out} holds shard files (shard-0-of-2.jsonl …) "
                                               "but no job.json, so their job is unknown; use another --out")
    assert not (out / "job.json").exists()


@pytest.mark.parametrize("method", [["--sweep"], ["--both-directions"]])
def test_place_merged_is_the_clis_object(cli, tmp_path, method):
    # merged.json held pieces, directions, method, count, mirror_symmetric and
    # count_up_to_mirror only: the CLI's nodes (search), layouts, states and peak_states
    # (sweep), shard and time_ms were missing. The shards' nodes, layouts and states sum
    # to the unsharded run's, peak_states is the largest.
    want = cli.json("place", "--count", *method, "RBG")[0]
    out = tmp_path / "p"
    assert cluster.main(["place", "RBG", *method, "--shards", "3", "--no-ray", "--out", str(out)]) == 0
    merged = json.loads((out / "merged.json").read_text())
    extra = ["shards", "cpu_s_sum", "cpu_s_max", "cpu_s_max_worker", "wall_s"]
    assert list(merged) == list(want) + extra
    assert {k: v for k, v in merged.items() if k not in extra + ["time_ms"]} == {
        k: v for k, v in want.items() if k != "time_ms"}


class FakeRef:
    def __init__(self, value=None, error=None):
        self.value, self.error = value, error


class FakeRay(types.ModuleType):
    """The part of Ray the driver uses, running each task at once in this process: the
    driver's Ray path without a Ray instance. Records what each task was given."""

    def __init__(self):
        super().__init__("ray")
        self.puts, self.calls = [], []

    def init(self, **kwargs):
        pass

    def shutdown(self):
        pass

    def nodes(self):
        return [{"Alive": True, "Resources": {"CPU": 2.0}}]

    def put(self, value):
        self.puts.append(value)
        return FakeRef(value)

    def remote(self, **options):
        def wrap(fn):
            def run(*args):
                self.calls.append(args)
                try:
                    return FakeRef(fn(*[a.value if isinstance(a, FakeRef) else a for a in args]))
                except Exception as e:
                    return FakeRef(error=e)
            return types.SimpleNamespace(remote=run)
        return wrap

    def wait(self, refs, num_returns=1, timeout=None):
        return refs[:num_returns], refs[num_returns:]

    def get(self, ref):
        if ref.error is not None:
            raise ref.error
        return ref.value


def test_a_large_problem_file_goes_to_ray_once(cli, root, tmp_path, monkeypatch):
    # The file's text was an argument of every task, so Ray serialized and stored it once
    # per shard (64 shards of a 300 MB file: 19 GB). It is put once; the tasks get its reference.
    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    monkeypatch.setattr(cluster, "SHARED_ARG_CHARS", 100, raising=False)  # cases.sfen is longer
    file = str(root / "specs" / "tsume" / "cases.sfen")
    text = (root / "specs" / "tsume" / "cases.sfen").read_text(encoding="utf-8")
    out = tmp_path / "t"
    assert cluster.main(["tsume", file, "--nodes", "20000", "--shards", "4", "--workers", "2", "--out", str(out)]) == 0
    assert fake.puts == [text] and len(fake.calls) == 4
    assert not any(isinstance(x, str) and x == text for args in fake.calls for x in args)
    assert untimed((out / "merged.jsonl").read_text(encoding="utf-8")) == untimed(cli("tsume", file, "--json",
                                                                                       "--nodes", "20000"))


def test_a_failing_ray_task_keeps_the_others(cli, tmp_path, monkeypatch, capsys):
    # On Ray, ray.get of the failed task raised out of the driver (a traceback, exit 1) and
    # the shards still running were lost with the instance.
    monkeypatch.setitem(sys.modules, "ray", FakeRay())
    real = fail_place_shard(monkeypatch, 0, MemoryError("no room"))
    out = tmp_path / "p"
    argv = ["place", "RBG", "--sweep", "--shards", "3", "--workers", "2", "--out", str(out)]
    capsys.readouterr()
    assert cluster.main(argv) == 3
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"shogi-lab cluster: shard 0/3 failed: MemoryError: no room; the 2 finished shards are kept in {out}, "
        "the same command computes the rest")
    assert (out / "shard-1-of-3.json").exists() and (out / "shard-2-of-3.json").exists()
    monkeypatch.setattr(cluster, "run_place_shard", real)
    assert cluster.main(argv) == 0
    assert json.loads((out / "merged.json").read_text())["count"] == cli.json("place", "--count", "--sweep", "RBG")[0]["count"]


def test_no_cluster_at_the_address_is_one_line(tmp_path, monkeypatch, capsys):
    # `--address auto` with no cluster running: Ray's ConnectionError traceback, exit 1.
    class NoCluster(FakeRay):
        def init(self, **kwargs):
            raise ConnectionError("Could not find any running Ray instance.\nPlease specify …")

    monkeypatch.setitem(sys.modules, "ray", NoCluster())
    capsys.readouterr()
    argv = ["gen", "quantum", "--count", "2", "--shards", "2", "--address", "auto", "--out", str(tmp_path / "g")]
    assert cluster.main(argv) == 2
    assert capsys.readouterr().err == ("shogi-lab cluster: cannot join the Ray cluster at auto: "
                                       "ConnectionError: Could not find any running Ray instance.\n")


TSUME_OPTIONS = [
    ["--max-plies", "3"],
    ["--alt-nodes", "5000"],
    ["--defender-hand-as-given"],
    ["--certificate-nodes", "3"],
    ["--max-plies", "5", "--alt-nodes", "2000", "--defender-hand-as-given", "--certificate-nodes", "1000"],
]


@pytest.mark.parametrize("options", TSUME_OPTIONS, ids=[" ".join(o) for o in TSUME_OPTIONS])
def test_tsume_options_of_the_cli_reach_every_shard(root, tmp_path, capsys, options):
    # `shogi-lab tsume`'s --max-plies, --alt-nodes, --defender-hand-as-given and
    # --certificate-nodes were no options of the driver (argparse refused them): the merged
    # rows and the exit code are the CLI's with them.
    file = str(root / "specs" / "tsume" / "cases.sfen")
    r = subprocess.run([str(cli_path()), "tsume", file, "--json", "--nodes", "20000", *options],
                       capture_output=True, text=True)
    assert r.returncode in (0, 1), r.stderr
    want = untimed(r.stdout)
    out = tmp_path / "t"
    argv = ["tsume", file, "--nodes", "20000", *options, "--shards", "3", "--no-ray", "--out", str(out)]
    capsys.readouterr()
    assert cluster.main(argv) == r.returncode
    assert untimed((out / "merged.jsonl").read_text(encoding="utf-8")) == want
    job = json.loads((out / "job.json").read_text(encoding="utf-8"))
    assert all(job[k.lstrip("-").replace("-", "_")] is not None for k in options if k.startswith("--"))


def test_tsume_options_change_the_answers(root, tmp_path):
    # The options are not dropped on the way: each changes some row of cases.sfen.
    file = str(root / "specs" / "tsume" / "cases.sfen")

    def merged(*options):
        out = tmp_path / "-".join(["o", *options]).replace("--", "")
        cluster.main(["tsume", file, "--nodes", "20000", *options, "--shards", "2", "--no-ray", "--out", str(out)])
        return untimed((out / "merged.jsonl").read_text(encoding="utf-8"))

    plain = merged()
    for options in TSUME_OPTIONS[:4]:
        assert merged(*options) != plain, options


@pytest.mark.parametrize("bad", [["--max-plies", "-1"], ["--max-plies", "65536"], ["--alt-nodes", "-1"],
                                 ["--certificate-nodes", "0"], ["--certificate-nodes", "1000000001"]])
def test_tsume_new_options_the_cli_refuses_are_refused(root, tmp_path, capsys, bad):
    refused_by_cli_and_driver(root, tmp_path, bad)
    assert f"bad {bad[0]} {bad[1]}: need " in capsys.readouterr().err


def test_no_ray_workers_run_a_local_process_pool(cli, root, tmp_path, capsys):
    # --workers was silently ignored with --no-ray: the shards ran one after another in the
    # driver's process. Now they run in a pool of that many local processes.
    want = cli.json("place", "--count", "--sweep", "RBG")[0]
    out = tmp_path / "p"
    assert cluster.main(["place", "RBG", "--sweep", "--shards", "6", "--no-ray", "--workers", "2",
                         "--out", str(out), "--expect", str(want["count"])]) == 0
    pids = {json.loads(p.read_text())["worker"].split(":")[1] for p in out.glob("shard-*.json")}
    assert str(os.getpid()) not in pids and 1 <= len(pids) <= 2
    file = str(root / "specs" / "tsume" / "cases.sfen")
    rows = untimed(cli("tsume", file, "--json", "--nodes", "20000"))
    out = tmp_path / "t"
    assert cluster.main(["tsume", file, "--nodes", "20000", "--shards", "4", "--no-ray", "--workers", "3",
                         "--out", str(out)]) == 0
    assert untimed((out / "merged.jsonl").read_text(encoding="utf-8")) == rows


def test_no_ray_workers_a_failing_shard_is_one_line(root, tmp_path):
    # A shard that raises in a pool process (a table the machine cannot give) is the driver's
    # exit 3 and one line per shard, as with Ray: no traceback.
    file = str(root / "specs" / "tsume" / "cases.sfen")
    r = run_driver("tsume", file, "--memory", str(1 << 24), "--shards", "2", "--no-ray", "--workers", "2",
                   "--out", str(tmp_path / "m"), timeout=120)
    assert r.returncode == 3, r.stderr
    lines = r.stderr.strip().splitlines()
    assert "Traceback" not in r.stderr and len(lines) == 3, r.stderr
    assert lines[-1].startswith("shogi-lab cluster: shard 0/2 failed: MemoryError: ")


def flaky_place_shard(marks, plan, pieces, both, method, index, count):
    """The place shard, run by a local pool process (the driver pickles it by name, so it
    lives here and not in a test): shard `index` under `plan` (`"kill"`: its process kills
    itself with SIGKILL, every time; `"kill-once"`: the first time; `"raise"`: MemoryError).
    Each attempt of a planned shard leaves a file in the directory `marks`."""
    what = plan.get(index)
    if what is not None:
        attempt = len(list(pathlib.Path(marks).glob(f"shard-{index}-*")))
        (pathlib.Path(marks) / f"shard-{index}-{attempt}").touch()
        if what == "raise":
            raise MemoryError("no room")
        if what == "kill" or attempt == 0:
            os.kill(os.getpid(), signal.SIGKILL)
    return cluster.run_place_shard(pieces, both, method, index, count)


def attempts(marks, index):
    return len(list(marks.glob(f"shard-{index}-*")))


def test_no_ray_workers_a_shard_whose_process_dies_is_retried(cli, tmp_path, monkeypatch, capsys):
    # A pool process killed (SIGKILL, the OOM killer) broke the whole pool: that shard and
    # every shard still running or waiting failed (BrokenProcessPool), and none was retried,
    # as Ray retries. Now the shard runs again in a new process and the job ends as usual.
    marks = tmp_path / "marks"
    marks.mkdir()
    monkeypatch.setattr(cluster, "run_place_shard", functools.partial(flaky_place_shard, str(marks), {1: "kill-once"}))
    want = cli.json("place", "--count", "--sweep", "RBG")[0]
    out = tmp_path / "p"
    capsys.readouterr()
    assert cluster.main(["place", "RBG", "--sweep", "--shards", "3", "--no-ray", "--workers", "2",
                         "--out", str(out), "--expect", str(want["count"])]) == 0
    assert attempts(marks, 1) == 2
    assert "shard 1/3: its worker process died (killed by SIGKILL); retry 1 of 2" in capsys.readouterr().err
    assert json.loads((out / "merged.json").read_text())["count"] == want["count"]


def test_no_ray_workers_a_shard_that_dies_every_time_fails_after_the_retries(cli, tmp_path, monkeypatch, capsys):
    # Ray's retries (two) and no more; one line names the shard; a shard that raises is not
    # retried; the others are kept and a rerun computes the rest.
    assert cluster.RETRIES == 2
    marks = tmp_path / "marks"
    marks.mkdir()
    plan = {1: "kill", 3: "raise"}
    monkeypatch.setattr(cluster, "run_place_shard", functools.partial(flaky_place_shard, str(marks), plan))
    out = tmp_path / "p"
    argv = ["place", "RBG", "--sweep", "--shards", "4", "--no-ray", "--workers", "2", "--out", str(out)]
    capsys.readouterr()
    assert cluster.main(argv) == 3
    assert (attempts(marks, 1), attempts(marks, 3)) == (3, 1)
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if line.startswith("shard 1/4")] == [
        "shard 1/4: its worker process died (killed by SIGKILL); retry 1 of 2",
        "shard 1/4: its worker process died (killed by SIGKILL); retry 2 of 2",
        "shard 1/4 failed: its worker process died 3 times (the last: killed by SIGKILL)",
    ]
    assert [line for line in err if line.startswith("shard 3/4")] == ["shard 3/4 failed: MemoryError: no room"]
    assert err[-1] == (f"shogi-lab cluster: shard 1/4 failed: its worker process died 3 times (the last: killed by "
                       f"SIGKILL) (and 1 more shard(s)); the 2 finished shards are kept in {out}, the same command "
                       "computes the rest")
    assert sorted(p.name for p in out.glob("shard-*")) == ["shard-0-of-4.json", "shard-2-of-4.json"]
    monkeypatch.setattr(cluster, "run_place_shard", functools.partial(flaky_place_shard, str(marks), {}))
    assert cluster.main(argv) == 0
    assert json.loads((out / "merged.json").read_text())["count"] == cli.json("place", "--count", "--sweep", "RBG")[0]["count"]


def test_address_with_no_ray_is_refused(tmp_path, capsys):
    # It was ignored: the shards ran here, not on the cluster asked for.
    with pytest.raises(SystemExit) as e:
        cluster.main(["gen", "quantum", "--count", "2", "--shards", "2", "--no-ray", "--address", "auto",
                      "--out", str(tmp_path / "g")])
    assert e.value.code == 2
    assert "--address joins a Ray cluster: it cannot be used with --no-ray" in capsys.readouterr().err


def test_a_second_driver_on_the_same_out_is_refused(tmp_path, capsys):
    # Two drivers on one --out overwrote each other's job.json and shards. A running driver
    # holds an exclusive lock on DIR/driver.lock; the second exits 2 with one line, writing nothing.
    fcntl = pytest.importorskip("fcntl")
    out = tmp_path / "g"
    out.mkdir()
    argv = ["gen", "quantum", "--count", "4", "--shards", "2", "--no-ray", "--out", str(out)]
    with open(out / "driver.lock", "w") as held:  # the first driver, running
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        capsys.readouterr()
        assert cluster.main(argv) == 2
        err = capsys.readouterr().err
        assert err == (f"shogi-lab cluster: another driver is running on --out {out} (it holds "
                       f"{out / 'driver.lock'}); wait for it to end or use another --out\n")
        assert sorted(p.name for p in out.iterdir()) == ["driver.lock"]
        # The same from a second process (the lock is not the process's own).
        r = run_driver(*argv)
        assert r.returncode == 2 and r.stderr == err, r.stderr
    # Once the first driver is done, the directory is free; a finished driver lets go.
    assert cluster.main(argv) == 0
    assert cluster.main(argv) == 0


def test_a_running_driver_keeps_a_second_out(tmp_path):
    # Two real drivers at once: the second is refused while the first computes (a job of
    # minutes, killed once the second has answered, so no machine is fast enough to end it first).
    out = tmp_path / "t"
    slow = ["gen", "tsume", "--count", "100000", "--plies", "7", "--seed", "5", "--shards", "1", "--no-ray",
            "--out", str(out)]
    first = subprocess.Popen([sys.executable, "-m", "shogi_lab.cluster", *slow], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (out / "job.json").exists() and time.monotonic() < deadline and first.poll() is None:
            time.sleep(0.05)
        assert first.poll() is None, "the first driver ended before the second started: make its job longer"
        r = run_driver(*slow)
        assert r.returncode == 2 and "another driver is running on --out" in r.stderr, r.stderr
    finally:
        first.kill()
        first.communicate()


def test_no_ray_workers_ctrl_c_stops_the_pool(tmp_path):
    # Ctrl-C reaches the driver and its pool processes (one process group, as from a
    # terminal): exit 130 and one line, no traceback from the workers, and no worker left running.
    out = tmp_path / "g"
    code = ("import signal, sys\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "from shogi_lab import cluster\nsys.exit(cluster.main(sys.argv[1:]))")
    driver = subprocess.Popen([sys.executable, "-c", code, "gen", "tsume", "--count", "40", "--plies", "7", "--seed",
                               "5", "--shards", "4", "--no-ray", "--workers", "2", "--out", str(out)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        workers: list = []
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            children = subprocess.run(["pgrep", "-P", str(driver.pid)], capture_output=True, text=True).stdout.split()
            workers = [c for c in children if "spawn_main" in pathlib.Path(f"/proc/{c}/cmdline").read_text(errors="replace")]
        assert len(workers) == 2 and driver.poll() is None
        os.killpg(driver.pid, signal.SIGINT)
        _, err = driver.communicate(timeout=60)
    finally:
        if driver.poll() is None:
            os.killpg(driver.pid, signal.SIGKILL)
            driver.communicate()
    assert driver.returncode == 130, err
    assert "Traceback" not in err and err.splitlines()[-1].startswith("shogi-lab cluster: interrupted: ")
    deadline = time.monotonic() + 10
    while any(os.path.exists(f"/proc/{w}") for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(os.path.exists(f"/proc/{w}") for w in workers)
