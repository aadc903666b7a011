//! `shogi-lab quantum replay|play|converge`: what a text record, a seed range and a
//! world may not be (each refused with a located one-line error, exit 2).

mod support;

use support::run_shogi_lab as run;

/// Replays `text` written to a file `name` in a temporary directory (removed after).
fn replay(name: &str, text: &str) -> (i32, String, String) {
    let dir = support::TempDir::new("qrec");
    let p = dir.file(name, text.as_bytes());
    run(&["quantum", "replay", &p])
}

fn game(seed: &str, variant: &str) -> String {
    let (code, out, _) = run(&[
        "quantum",
        "play",
        "--random",
        "--seed",
        seed,
        "--plies",
        "20",
        "--variant",
        variant,
    ]);
    assert_eq!(code, 0);
    out
}

#[test]
fn move_text_is_checked() {
    let g = game("1", "standard");
    assert_eq!(replay("good.txt", &g).0, 0);
    let line = g.lines().position(|l| l.starts_with("1 ")).unwrap() + 1;
    let text = g
        .lines()
        .nth(line - 1)
        .unwrap()
        .split_whitespace()
        .nth(2)
        .unwrap();
    for bad in ["GARBAGE_TEXT", "☗1一飛成"] {
        let (code, _, err) = replay("text.txt", &g.replacen(text, bad, 1));
        assert_eq!(code, 2, "{bad}");
        assert!(
            err.contains(&format!(
                "text.txt:{line}: ply 1: move text {bad}: the move is {text}"
            )),
            "{err}"
        );
    }
    // A record without move texts still replays.
    let bare: String = g
        .lines()
        .map(|l| match l.split_once(" | ") {
            Some((head, rest)) if l.starts_with(|c: char| c.is_ascii_digit()) => {
                let h: Vec<&str> = head.split_whitespace().take(2).collect();
                format!("{} | {rest}\n", h.join(" "))
            }
            _ => format!("{l}\n"),
        })
        .collect();
    assert_eq!(replay("bare.txt", &bare).0, 0, "{bare}");
}

#[test]
fn observed_kind_needs_a_capture() {
    for variant in ["observe", "standard"] {
        let text =
            format!("# shogi-lab quantum record\nvariant {variant}\n1 7g5e=K\nresult none\n");
        let (code, _, err) = replay("obs.txt", &text);
        assert_eq!(code, 2, "{variant}");
        assert!(err.contains("obs.txt:3: "), "{err}");
        assert!(err.contains("=K"), "{err}");
    }
    let ok = "# shogi-lab quantum record\nvariant observe\n1 7g5e\nresult none\n";
    assert_eq!(replay("obs-ok.txt", ok).0, 0);
}

#[test]
fn a_record_without_moves_is_refused() {
    for text in [
        "",
        "# only a comment\n",
        "# shogi-lab quantum record\nvariant standard\n",
        "variant standard\nresult none\n",
    ] {
        let (code, _, err) = replay("none.txt", text);
        assert_eq!(code, 2, "{text:?}");
        assert!(err.contains("none.txt: "), "{err}");
    }
    let (code, _, err) = replay("c.txt", "# only a comment\n");
    assert_eq!(code, 2);
    assert!(err.contains("holds no record"), "{err}");
    // `play` writes no record that replay would refuse.
    assert_eq!(
        run(&["quantum", "play", "--random", "--seed", "1", "--plies", "0"]).0,
        2
    );
}

#[test]
fn variant_and_result_lines_have_their_places() {
    let g = game("1", "standard");
    assert_eq!(replay("g.txt", &g).0, 0);
    let n = g.lines().count();
    // `variant` after the last move, a second `variant`, `result` mid-moves, twice.
    let cases = [
        (format!("{g}variant observe\n"), n + 1),
        (
            g.replacen(
                "variant standard\n",
                "variant standard\nvariant standard\n",
                1,
            ),
            4,
        ),
        (g.replacen("\n2 ", "\nresult none\n2 ", 1), 6),
        (format!("{g}result none\n"), n + 1),
    ];
    for (text, line) in cases {
        let (code, _, err) = replay("vr.txt", &text);
        assert_eq!(code, 2, "{text}");
        assert!(err.contains(&format!("vr.txt:{line}: ")), "{err}\n{text}");
    }
}

#[test]
fn a_file_of_several_games_is_refused_clearly() {
    let (code, out, _) = run(&[
        "quantum",
        "play",
        "--random",
        "--seed",
        "7",
        "--games",
        "5",
        "--variant",
        "observe",
    ]);
    assert_eq!(code, 0);
    let (code, _, err) = replay("five.txt", &out);
    assert_eq!(code, 2);
    assert!(err.contains("holds 5 games"), "{err}");
    // Each game alone replays.
    for part in out.split("\n\n") {
        assert_eq!(replay("one.txt", part).0, 0, "{part}");
    }
}

#[test]
fn seeds_do_not_wrap() {
    let max = u64::MAX.to_string();
    let (code, out, err) = run(&[
        "quantum", "play", "--random", "--seed", &max, "--games", "2",
    ]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    let (code, out, _) = run(&[
        "quantum", "play", "--random", "--seed", &max, "--games", "1", "--plies", "2",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains(&format!("seed {max}")));
}

#[test]
fn world_errors_point_at_the_character() {
    let rest = " *".repeat(18);
    for (head, col) in [("RL  RLX", 7), ("RL RLR", 6), ("RL R*L", 5), ("RL X", 4)] {
        let (code, _, err) = run(&["quantum", "converge", &format!("{head}{rest}")]);
        assert_eq!(code, 2);
        assert!(
            err.contains(&format!("<argument>:1:{col}: ")),
            "{head}: {err}"
        );
    }
}
