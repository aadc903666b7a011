//! `shogi-lab quantum replay|play|perft`: the Room 9168 replay output
//! (insta snapshot, exact probabilities), play → replay round trips, errors.

mod support;

use support::TempDir;

use support::run_shogi_lab as run;

const ROOM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/specs/quantum/room-9168.json");

#[test]
fn room_9168_first_moves_with_probabilities() {
    let (code, out, err) = run(&["quantum", "replay", ROOM, "--probabilities", "--plies", "5"]);
    assert_eq!(code, 0, "{err}");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots");
    settings.bind(|| insta::assert_snapshot!("room_9168_plies_1_5", out));
}

#[test]
fn room_9168_full_replay_and_engines() {
    for e in ["counting", "peel", "sat", "enumeration", "enumeration-tail"] {
        let (code, out, err) = run(&["quantum", "replay", ROOM, "--engine", e]);
        assert_eq!(code, 0, "{e}: {err}");
        assert_eq!(out.matches("state matches the record").count(), 59);
        assert!(out.contains("ply 59 ☗2二成量子 (1a2b)"));
        assert!(out.trim_end().ends_with("result: game not over"));
    }
    let (code, _, err) = run(&["quantum", "replay", ROOM, "--variant", "observe"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn replay_refuses_more_plies_than_the_record_holds() {
    // Before: `--plies 60` on the 59-ply Room 9168 (or 99 on a 6-ply game) replayed what
    // there was and exited 0, where `show --ply` refuses a ply past the end.
    let dir = TempDir::new("qplies");
    let (code, rec, err) = run(&["quantum", "play", "--random", "--seed", "1", "--plies", "6"]);
    assert_eq!(code, 0, "{err}");
    let path = dir.join("six.txt");
    std::fs::write(&path, &rec).unwrap();
    let p = path.to_str().unwrap();
    for (file, n) in [(ROOM, 59), (p, 6)] {
        let (code, out, err) = run(&["quantum", "replay", file, "--plies", &(n + 1).to_string()]);
        assert_eq!(code, 2, "{file}: {out}");
        assert_eq!(
            err.trim_end(),
            format!(
                "shogi-lab: {file}: --plies {} but the record has {n} plies",
                n + 1
            )
        );
        assert!(
            out.is_empty(),
            "{file}: nothing replayed before the refusal"
        );
        let (code, out, err) = run(&[
            "quantum",
            "replay",
            file,
            "--plies",
            &n.to_string(),
            "--json",
        ]);
        assert_eq!(code, 0, "{file}: {err}");
        let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        assert_eq!(last["plies"], n);
    }
}

#[test]
fn play_records_replay_in_both_variants() {
    let dir = TempDir::new("qgame");
    for variant in ["standard", "observe"] {
        for seed in ["1", "7"] {
            let (code, rec, err) = run(&[
                "quantum",
                "play",
                "--random",
                "--seed",
                seed,
                "--plies",
                "80",
                "--variant",
                variant,
            ]);
            assert_eq!(code, 0, "{err}");
            let (_, again, _) = run(&[
                "quantum",
                "play",
                "--random",
                "--seed",
                seed,
                "--plies",
                "80",
                "--variant",
                variant,
            ]);
            assert_eq!(rec, again, "play is not reproducible");
            let path = dir.join(format!("{variant}-{seed}.txt"));
            std::fs::write(&path, &rec).unwrap();
            let p = path.to_str().unwrap();
            let (code, out, err) = run(&["quantum", "replay", p, "--engine", "sat"]);
            assert_eq!(code, 0, "{variant} {seed}: {err}");
            assert!(out.contains("result:"));
            // A tampered world is caught.
            let bad = rec.replacen(" | ", " | K ", 1);
            std::fs::write(&path, bad).unwrap();
            let (code, _, _) = run(&["quantum", "replay", p]);
            assert_ne!(code, 0);
        }
    }
}

#[test]
fn perft_depths_1_and_2() {
    let (code, out, _) = run(&["quantum", "perft", "1"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "depth 1: 177");
    let (_, out2, _) = run(&["quantum", "perft", "2", "--engine", "peel"]);
    assert_eq!(out2.trim(), "depth 2: 30992");
}

/// The diagrams `quantum replay` prints after each ply (text mode), in order: from
/// `後手の持駒：` to `先手の持駒：`, and `後手番` when it follows.
fn replay_diagrams(out: &str) -> Vec<String> {
    let lines: Vec<&str> = out.lines().collect();
    let mut v = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with("後手の持駒：") {
            i += 1;
            continue;
        }
        let mut d = String::new();
        while !lines[i].starts_with("先手の持駒：") {
            d.push_str(lines[i]);
            d.push('\n');
            i += 1;
        }
        d.push_str(lines[i]);
        d.push('\n');
        i += 1;
        if lines.get(i) == Some(&"後手番") {
            d.push_str("後手番\n");
            i += 1;
        }
        v.push(d);
    }
    v
}

#[test]
fn show_draws_quantum_records_with_the_shared_renderer() {
    let dir = TempDir::new("qshow");
    let (code, rec, err) = run(&[
        "quantum", "play", "--random", "--seed", "3", "--plies", "60",
    ]);
    assert_eq!(code, 0, "{err}");
    let path = dir.join("game.txt");
    std::fs::write(&path, &rec).unwrap();
    let p = path.to_str().unwrap();
    let svg = dir.join("q.svg");
    for (file, plies) in [(p, 60usize), (ROOM, 12)] {
        let (code, text, err) = run(&["quantum", "replay", file, "--plies", &plies.to_string()]);
        assert_eq!(code, 0, "{err}");
        let diagrams = replay_diagrams(&text);
        assert_eq!(diagrams.len(), plies);
        let (code, json, err) = run(&[
            "quantum",
            "replay",
            file,
            "--json",
            "--plies",
            &plies.to_string(),
        ]);
        assert_eq!(code, 0, "{err}");
        let lines: Vec<serde_json::Value> = json
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        for ply in [0, 1, 2, plies / 2, plies] {
            let (code, out, err) = run(&[
                "show",
                file,
                "--ply",
                &ply.to_string(),
                "--json",
                "--svg",
                svg.to_str().unwrap(),
            ]);
            assert_eq!(code, 0, "{file} {ply}: {err}");
            let shown: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            assert!(shown["sfen"].is_null());
            let bod = shown["bod"].as_str().unwrap();
            // The board rows: every glyph drawn in the SVG, Gote's turned.
            let rows: Vec<&str> = bod.lines().filter(|l| l.starts_with('|')).collect();
            assert_eq!(rows.len(), 9);
            let cells: Vec<(char, char)> = rows
                .iter()
                .flat_map(|r| {
                    let c: Vec<char> = r.chars().skip(1).take(18).collect();
                    c.chunks(2).map(|x| (x[0], x[1])).collect::<Vec<_>>()
                })
                .collect();
            let pieces = cells.iter().filter(|c| c.1 != '・').count();
            let gote = cells.iter().filter(|c| c.0 == 'v').count();
            let picture = std::fs::read_to_string(&svg).unwrap();
            assert_eq!(picture.matches("class=\"piece ").count(), pieces);
            assert_eq!(picture.matches("class=\"piece gote\"").count(), gote);
            assert!(picture.matches("class=\"kinds\"").count() <= pieces);
            if ply == 0 {
                assert!(shown["last_move"].is_null());
                assert_eq!(pieces, 40);
                assert_eq!(picture.matches("class=\"kinds\"").count(), 40);
                assert!(!picture.contains("last-to"));
                continue;
            }
            // The same picture `quantum replay` prints after that ply, the same worlds and move.
            assert_eq!(bod, diagrams[ply - 1], "{file} ply {ply}");
            assert_eq!(shown["worlds"], lines[ply - 1]["worlds"]);
            assert_eq!(shown["last_move"], lines[ply - 1]["code"]);
            assert_eq!(picture.matches("class=\"last-to\"").count(), 1);
        }
        let (code, _, err) = run(&["show", file, "--ply", &(10_000).to_string()]);
        assert_eq!(code, 2);
        assert!(err.contains("--ply 10000 but the record has"), "{err}");
    }
    let (code, _, err) = run(&["show", "startpos", "--json"]);
    assert_eq!(code, 0, "{err}");
}
