//! `--shard I/N`: the parts of every sharded batch merge (by concatenation or
//! by summing counts) to exactly the unsharded result.

mod support;

use shogi_lab::placement::{sweep_count, sweep_count_shard, Directions, PieceSet, Problem};
use shogi_lab::quantum::game::{EngineKind, QuantumPosition, Variant};
use shogi_lab::shard::Shard;

fn shards(n: u64) -> impl Iterator<Item = Shard> {
    (0..n).map(move |i| Shard::new(i, n).unwrap())
}

#[test]
fn placement_search_shards_sum_to_the_count() {
    for (set, dirs) in [("R2B2", Directions::One), ("RBG", Directions::Two)] {
        let p = Problem::new(PieceSet::parse(set).unwrap(), dirs);
        let whole = p.count();
        for n in [1, 2, 3, 8] {
            let parts: Vec<_> = shards(n).map(|s| p.count_shard(s, &|_, _| {})).collect();
            assert_eq!(
                parts.iter().map(|c| c.count).sum::<u64>(),
                whole.count,
                "{set} in {n}"
            );
            assert_eq!(
                parts.iter().map(|c| c.symmetric).sum::<u64>(),
                whole.symmetric
            );
            assert_eq!(parts.iter().map(|c| c.nodes).sum::<u64>(), whole.nodes);
            if n > 1 {
                assert!(
                    parts.iter().filter(|c| c.count > 0).count() > 1,
                    "{set}: one shard did all"
                );
            }
        }
    }
}

#[test]
fn placement_sweep_shards_sum_to_the_count() {
    for set in ["RBG", "RB"] {
        let p = Problem::new(PieceSet::parse(set).unwrap(), Directions::One);
        let whole = sweep_count(&p).unwrap();
        let search = p.count();
        assert_eq!(whole.count, search.count, "{set}: sweep vs search");
        for n in [2, 5] {
            let parts: Vec<_> = shards(n)
                .map(|s| sweep_count_shard(&p, s, &|_, _| {}).unwrap())
                .collect();
            assert_eq!(
                parts.iter().map(|c| c.count).sum::<u64>(),
                whole.count,
                "{set} in {n}"
            );
            assert_eq!(
                parts.iter().map(|c| c.symmetric).sum::<u64>(),
                whole.symmetric
            );
            assert_eq!(parts.iter().map(|c| c.layouts).sum::<u64>(), whole.layouts);
        }
    }
}

#[test]
fn quantum_perft_shards_sum_to_perft() {
    for depth in 0..=2 {
        let mut p = QuantumPosition::new(EngineKind::Counting, Variant::Standard);
        let whole = p.perft(depth);
        for n in [1, 3, 7] {
            let sum: u64 = shards(n).map(|s| p.perft_shard(depth, s)).sum();
            assert_eq!(sum, whole, "depth {depth} in {n}");
        }
    }
    assert_eq!(
        QuantumPosition::new(EngineKind::Counting, Variant::Standard).perft(2),
        30992
    );
}

use support::run_shogi_lab as run;

/// JSON lines without the timing field (the only nondeterministic part).
fn untimed(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("time_ms");
            v
        })
        .collect()
}

#[test]
fn tsume_shards_concatenate_to_the_whole_run() {
    let file = "specs/tsume/cases.sfen";
    let base = ["tsume", file, "--json", "--nodes", "20000"];
    let (code, whole, _) = run(&base);
    let whole = untimed(&whole);
    assert!(whole.len() >= 10);
    for n in [2, 3, 4, 16] {
        let mut merged = Vec::new();
        let mut codes = Vec::new();
        for s in shards(n) {
            let spec = s.to_string();
            let mut args = base.to_vec();
            args.extend(["--shard", &spec]);
            let (c, out, err) = run(&args);
            assert!(c == 0 || c == 1, "{spec}: {err}");
            codes.push(c);
            merged.extend(untimed(&out));
        }
        assert_eq!(merged, whole, "{n} shards");
        assert_eq!(codes.iter().max().copied(), Some(code));
    }
}

#[test]
fn cli_shard_outputs_sum() {
    let mut sum = 0;
    for s in ["0/2", "1/2"] {
        let (code, out, err) = run(&["quantum", "perft", "2", "--shard", s]);
        assert_eq!(code, 0, "{err}");
        let n: u64 = out
            .trim()
            .strip_prefix("depth 2: ")
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        sum += n;
    }
    assert_eq!(sum, 30992);
    let mut sum = 0;
    for s in ["0/3", "1/3", "2/3"] {
        let (code, out, err) = run(&[
            "place", "--count", "--sweep", "--json", "--shard", s, "R2B2",
        ]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["shard"], s);
        sum += v["count"].as_u64().unwrap();
    }
    assert_eq!(sum, 1_331_924);
}

#[test]
fn bad_shards_are_one_line_errors() {
    for bad in ["3/3", "x/2", "1", "0/0"] {
        let (code, _, err) = run(&["place", "--count", "--shard", bad, "R2"]);
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains("bad shard"), "{bad}: {err}");
    }
}
