//! `shogi-lab experiments` figures: drawn from the peer data files and from the
//! tables of an earlier run (`--figures-only`), written next to the tables, listed
//! with their captions; bad input is one line and exit 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn shogi_lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
        .args(args)
        .current_dir(ROOT)
        .output()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("shogi-lab-figures-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// An SVG as plotters writes it: the root element with a size, closed, with text.
fn check_svg(path: &Path, must_contain: &[&str]) {
    let s = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(s.starts_with("<svg width=\""), "{}", path.display());
    assert!(s.trim_end().ends_with("</svg>"), "{}", path.display());
    for m in must_contain {
        assert!(s.contains(m), "{}: no {m:?}", path.display());
    }
}

#[test]
fn peers_draws_every_data_file_and_lists_the_figures() {
    let out = scratch("peers");
    let o = shogi_lab(&["experiments", "peers", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = std::fs::read_to_string(out.join("peers.md")).unwrap();
    // The tables come from the data: the 200-problem run's verified mates.
    assert!(md.contains("| shogi-lab | 200 | 196 |"), "{md}");
    assert!(md.contains("| shtsume | 200 | 186 |"), "{md}");
    for (file, text) in [
        ("peers-tsume-cpu.svg", "KomoringHeights CPU s (log)"),
        ("peers-tsume-solved.svg", "shtsume (186)"),
        ("peers-tsume-solution-quick-length.svg", "reference length"),
        ("peers-perft.svg", "haitaka"),
    ] {
        check_svg(&out.join(file), &[text]);
        assert!(md.contains(&format!("- `{file}`: ")), "{file} not listed");
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn figures_only_reads_the_tables_of_an_earlier_run() {
    let out = scratch("only");
    for f in ["quantum.md", "placement-39-full.md"] {
        std::fs::copy(Path::new(ROOT).join("paper/results").join(f), out.join(f)).unwrap();
    }
    let dir = out.to_str().unwrap();
    let o = shogi_lab(&[
        "experiments",
        "--figures-only",
        "--out",
        dir,
        "quantum",
        "quantum-game",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    check_svg(
        &out.join("quantum-converges.svg"),
        &["counting", "enumeration-tail"],
    );
    check_svg(&out.join("quantum-game-room-9168.svg"), &["P(玉)", "P(歩)"]);
    let o = shogi_lab(&[
        "experiments",
        "--figures-only",
        "--full",
        "--out",
        dir,
        "placement-39",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    check_svg(
        &out.join("placement-39-full-methods.svg"),
        &["−飛  P18L4N4S4G4K2R1B2", "8.38G"],
    );
    // The tables were only read.
    assert_eq!(
        std::fs::read(out.join("quantum.md")).unwrap(),
        std::fs::read(Path::new(ROOT).join("paper/results/quantum.md")).unwrap()
    );
    // No table to draw from: exit 2, one line naming the missing file.
    let o = shogi_lab(&[
        "experiments",
        "--figures-only",
        "--out",
        dir,
        "placement-39",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("placement-39.md: run the experiment first"),
        "{err}"
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn malformed_data_file_is_located() {
    let data = scratch("bad");
    std::fs::write(data.join("perft-peers.jsonl"), "{\"position\": 1}\n").unwrap();
    let out = data.join("out");
    let o = shogi_lab(&[
        "experiments",
        "peers",
        "--data",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("perft-peers.jsonl:1:"), "{err}");
    std::fs::remove_dir_all(&data).unwrap();
}
