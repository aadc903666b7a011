//! `shogi-lab quantum replay|play|perft`: the Room 9168 replay output
//! (insta snapshot, exact probabilities), play → replay round trips, errors.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

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
fn play_records_replay_in_both_variants() {
    let dir = std::env::temp_dir().join(format!("shogi-lab-qgame-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn perft_depths_1_and_2() {
    let (code, out, _) = run(&["quantum", "perft", "1"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "depth 1: 177");
    let (_, out2, _) = run(&["quantum", "perft", "2", "--engine", "peel"]);
    assert_eq!(out2.trim(), "depth 2: 30992");
}
