"""The shard driver (``python -m shogi_lab.cluster``): merged shards equal the CLI's
unsharded answer, finished shards are kept and reused. These run the shards in-process
(``--no-ray``); `.ci/run` runs the same driver on a local 2-worker Ray cluster."""

import json

import pytest

from shogi_lab import cluster


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
