//! Our own mutation fuzzer (issue 15): seeded (ChaCha8), bounded, over every input
//! format we read — the record corpus `specs/records` (KIF, KI2, CSA), SFEN and USI
//! positions, quantum worlds, our quantum game records and shogitter's JSON.
//!
//! For every mutant: no panic; if it is accepted, writing it back and reading it again
//! gives the same game (start position, move tree / world / record); through the binary,
//! a rejected input is exit 2 with exactly one line on stderr (never 101, an abort or a
//! multi-line message). The fast tier runs a few seconds; `cargo test --release --test
//! fuzz -- --ignored` runs the deep tier (50 times as many mutants).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shogi_lab::notation::csa::{read_csa, write_csa};
use shogi_lab::notation::kif::{read_kif, write_kif, Flavor};
use shogi_lab::notation::record::{decode, Line, Record};
use shogi_lab::notation::sfen::{
    parse_position, parse_usi_position, write_sfen, write_usi_position,
};
use shogi_lab::quantum::game::EngineKind;
use shogi_lab::quantum::{record as qrecord, shogitter, World};
use shogi_lab::rules::{Position, Rules};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::process::{Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Fragments that parsers treat specially, inserted by the mutator.
const TOKENS: &[&str] = &[
    "+",
    "-",
    "*",
    "'",
    "#",
    "%",
    ",",
    "\t",
    "\r",
    "\n",
    "\0",
    " ",
    "0",
    "9",
    "99",
    "100",
    "1e9",
    "同",
    "　",
    "成",
    "不成",
    "打",
    "右",
    "左",
    "直",
    "上",
    "引",
    "寄",
    "行",
    "手",
    "：",
    "まで",
    "変化：1手",
    "変化：99手",
    "投了",
    "▲",
    "△",
    "☗",
    "☖",
    "７六歩(77)",
    "０",
    "九",
    "十",
    "手合割：平手",
    "持駒：",
    "P1",
    "PI",
    "%TORYO",
    "+7776FU",
    "V2.2",
    "N+",
    "$",
    "/",
    "b",
    "w",
    "K",
    "k",
    "+P",
    "G*5b",
    "moves",
    "startpos",
    "sfen",
    "position",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "null",
    "-1",
    "\u{feff}",
    "\u{1b}",
];

fn mutate(rng: &mut ChaCha8Rng, input: &[u8]) -> Vec<u8> {
    let mut b = input.to_vec();
    for _ in 0..rng.gen_range(1..=3) {
        let n = b.len();
        match rng.gen_range(0..7) {
            // Flip a byte.
            0 if n > 0 => {
                let i = rng.gen_range(0..n);
                b[i] ^= 1 << rng.gen_range(0..8);
            }
            // Delete a range.
            1 if n > 0 => {
                let i = rng.gen_range(0..n);
                let j = (i + rng.gen_range(1..=16)).min(n);
                b.drain(i..j);
            }
            // Duplicate a range.
            2 if n > 0 => {
                let i = rng.gen_range(0..n);
                let j = (i + rng.gen_range(1..=32)).min(n);
                let piece = b[i..j].to_vec();
                let at = rng.gen_range(0..=b.len());
                b.splice(at..at, piece);
            }
            // Truncate.
            3 if n > 0 => b.truncate(rng.gen_range(0..n)),
            // Swap two lines.
            4 => {
                let text = String::from_utf8_lossy(&b).into_owned();
                let mut lines: Vec<&str> = text.split('\n').collect();
                if lines.len() > 1 {
                    let (i, j) = (rng.gen_range(0..lines.len()), rng.gen_range(0..lines.len()));
                    lines.swap(i, j);
                    b = lines.join("\n").into_bytes();
                }
            }
            // Insert a token (at a char boundary when the text is UTF-8).
            _ => {
                let t = TOKENS[rng.gen_range(0..TOKENS.len())].as_bytes();
                let mut at = rng.gen_range(0..=b.len());
                if let Ok(s) = std::str::from_utf8(&b) {
                    while !s.is_char_boundary(at) {
                        at -= 1;
                    }
                }
                b.splice(at..at, t.iter().copied());
            }
        }
    }
    b
}

/// Runs `f`, turning a panic into a test failure that shows the input.
fn no_panic<T>(what: &str, input: &[u8], f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(_) => panic!(
            "{what} panicked on input {:?}",
            String::from_utf8_lossy(input)
        ),
    }
}

/// The game of a record: its start and its move tree (comments, times and headers aside).
fn game(r: &Record) -> (String, String) {
    fn tree(l: &Line, out: &mut String) {
        out.push('(');
        for m in &l.moves {
            out.push_str(&m.mv.to_string());
            out.push(' ');
            for v in &m.variations {
                tree(v, out);
            }
        }
        out.push(')');
    }
    let mut t = String::new();
    tree(&r.main, &mut t);
    (write_sfen(&r.start), t)
}

fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for dir in ["specs/records", "specs/records/bad"] {
        let mut entries: Vec<_> = std::fs::read_dir(Path::new(ROOT).join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            out.push((name, std::fs::read(&p).unwrap()));
        }
    }
    assert!(out.len() >= 20, "the record corpus is missing");
    out
}

/// Reads a mutated record; if accepted, its written forms read back as the same game.
fn record_case(name: &str, bytes: &[u8]) -> bool {
    no_panic(name, bytes, || {
        let Ok(text) = decode(bytes) else {
            return false;
        };
        if name.ends_with(".csa") {
            let Ok(games) = read_csa(&text) else {
                return false;
            };
            for g in &games {
                let csa = write_csa(g);
                let back = read_csa(&csa).unwrap_or_else(|e| {
                    panic!("{name}: accepted, but its CSA is refused: {e}\n{csa}")
                });
                let want = (write_sfen(&g.start), g.main_moves());
                let got = (write_sfen(&back[0].start), back[0].main_moves());
                assert_eq!(got, want, "{name}: CSA round trip\n{csa}");
            }
            return true;
        }
        let Ok(r) = read_kif(&text) else { return false };
        for flavor in [Flavor::Kif, Flavor::Ki2] {
            let out = write_kif(&r, flavor);
            let back = read_kif(&out).unwrap_or_else(|e| {
                panic!("{name}: accepted, but its {flavor:?} is refused: {e}\n--- input\n{text}\n--- written\n{out}")
            });
            assert_eq!(
                game(&back),
                game(&r),
                "{name}: {flavor:?} round trip\n{out}"
            );
        }
        true
    })
}

fn position_case(text: &str) -> bool {
    no_panic("SFEN", text.as_bytes(), || {
        let mut accepted = false;
        for rules in [Rules::STANDARD, Rules::TSUME] {
            if let Ok(p) = parse_position(text, rules) {
                accepted = true;
                let s = write_sfen(&p);
                let back: Position = parse_position(&s, rules)
                    .unwrap_or_else(|e| panic!("{text:?} accepted, its SFEN {s:?} refused: {e}"));
                assert_eq!(write_sfen(&back), s);
            }
            if let Ok(u) = parse_usi_position(text, rules) {
                accepted = true;
                let mut start = u.position.clone();
                for _ in 0..u.moves.len() {
                    start.undo();
                }
                let line = write_usi_position(&start, &u.moves);
                let back = parse_usi_position(&line, rules)
                    .unwrap_or_else(|e| panic!("{text:?} accepted, {line:?} refused: {e}"));
                assert_eq!(back.moves, u.moves);
                assert_eq!(write_sfen(&back.position), write_sfen(&u.position));
            }
        }
        accepted
    })
}

fn world_case(text: &str) -> bool {
    no_panic("world", text.as_bytes(), || {
        let Ok(w) = World::parse_exact(text) else {
            return false;
        };
        let s = w.to_string();
        let back = World::parse_exact(&s)
            .unwrap_or_else(|e| panic!("{text:?} accepted, {s:?} refused: {e}"));
        assert_eq!(back, w);
        true
    })
}

fn quantum_record_case(text: &str) -> bool {
    no_panic("quantum record", text.as_bytes(), || {
        let Ok(r) = qrecord::Record::parse(text) else {
            return false;
        };
        let s = r.to_text();
        let back = qrecord::Record::parse(&s)
            .unwrap_or_else(|e| panic!("{text:?} accepted, its text refused: {e}\n{s}"));
        // `to_text` writes the move text of a step read without one: only those may differ.
        let mut filled = r.clone();
        for (st, b) in filled.steps.iter_mut().zip(&back.steps) {
            if st.text.is_none() {
                st.text.clone_from(&b.text);
            }
        }
        assert_eq!(back, filled);
        let mut p = shogi_lab::quantum::game::QuantumPosition::new(EngineKind::Counting, r.variant);
        let _ = qrecord::replay(&r, &mut p, |_, _, _| {});
        true
    })
}

fn shogitter_case(text: &str) -> bool {
    no_panic("shogitter JSON", text.as_bytes(), || {
        let Ok(g) = shogitter::parse(text) else {
            return false;
        };
        shogitter::replay(&g, EngineKind::Counting, usize::MAX, |_, _, _, _| {}).is_ok()
    })
}

const SFENS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "8k/9/8P/9/9/9/9/9/9 b G 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "position startpos moves 7g7f 3c3d 8h2b+",
    "startpos",
];

const WORLDS: &[&str] = &[
    "RL RL R * * * * * * * * * * * * * * * * *",
    "BR BK RK BRK * * * * * * * * * * * * * * * *",
    "RL RL RL K B G G S S N N P P P P P P P P P",
];

fn quantum_records(rng: &mut ChaCha8Rng) -> Vec<String> {
    (0..3)
        .map(|_| {
            let seed = rng.gen();
            let (p, observed) = shogi_lab::quantum::game::random_game(
                seed,
                12,
                shogi_lab::quantum::game::Variant::Standard,
                EngineKind::Counting,
            );
            qrecord::Record::from_game(&p, &observed).to_text()
        })
        .collect()
}

/// Accepted and rejected mutants of one format: a fuzzer that never reaches both
/// would test nothing.
#[derive(Default, Debug)]
struct Tally {
    accepted: usize,
    rejected: usize,
}

impl Tally {
    fn add(&mut self, accepted: bool) {
        if accepted {
            self.accepted += 1;
        } else {
            self.rejected += 1;
        }
    }
    #[track_caller]
    fn both(&self, what: &str) {
        assert!(self.accepted > 0 && self.rejected > 0, "{what}: {self:?}");
    }
}

/// `rounds` mutants of every seed input, in process.
fn fuzz_in_process(seed: u64, rounds: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut t = Tally::default();
    for (name, bytes) in corpus() {
        for _ in 0..rounds {
            t.add(record_case(&name, &mutate(&mut rng, &bytes)));
        }
    }
    t.both("records");
    let mut t = Tally::default();
    for s in SFENS {
        for _ in 0..rounds * 4 {
            t.add(position_case(&String::from_utf8_lossy(&mutate(
                &mut rng,
                s.as_bytes(),
            ))));
        }
    }
    t.both("positions");
    let mut t = Tally::default();
    for w in WORLDS {
        for _ in 0..rounds * 4 {
            t.add(world_case(&String::from_utf8_lossy(&mutate(
                &mut rng,
                w.as_bytes(),
            ))));
        }
    }
    t.both("worlds");
    let mut t = Tally::default();
    for r in quantum_records(&mut rng) {
        for _ in 0..rounds {
            t.add(quantum_record_case(&String::from_utf8_lossy(&mutate(
                &mut rng,
                r.as_bytes(),
            ))));
        }
    }
    t.both("quantum records");
    // shogitter JSON: the compact text of Room 9168 (byte mutations mostly break the
    // JSON; a tenth of the rounds, each replaying up to 59 plies).
    let room: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(ROOT).join("specs/quantum/room-9168.json")).unwrap(),
    )
    .unwrap();
    let room = room.to_string();
    for _ in 0..rounds.div_ceil(10) {
        shogitter_case(&String::from_utf8_lossy(&mutate(&mut rng, room.as_bytes())));
    }
}

/// `count` mutants through the binary: exit 0, 1 or 2, and exit 2 is one stderr line.
fn fuzz_cli(seed: u64, count: usize) {
    let dir = std::env::temp_dir().join(format!("shogi-lab-fuzz-{}-{seed}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let records = corpus();
    for i in 0..count {
        let (args, input): (Vec<String>, Vec<u8>) = match i % 4 {
            0 | 1 => {
                let (name, bytes) = &records[rng.gen_range(0..records.len())];
                let ext = Path::new(name)
                    .extension()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                let path = dir.join(format!("m{i}.{ext}"));
                std::fs::write(&path, mutate(&mut rng, bytes)).unwrap();
                let to = ["usi", "kif", "csa", "ki2"][rng.gen_range(0..4)];
                (
                    vec![
                        "convert".into(),
                        "--to".into(),
                        to.into(),
                        path.display().to_string(),
                    ],
                    Vec::new(),
                )
            }
            2 => {
                let seed_input = SFENS[rng.gen_range(0..2)];
                let s = mutate(&mut rng, seed_input.as_bytes());
                (
                    vec![
                        "tsume".into(),
                        "-".into(),
                        "--nodes".into(),
                        "2000".into(),
                        "--memory".into(),
                        "16".into(),
                    ],
                    s,
                )
            }
            _ => {
                let seed_input = WORLDS[rng.gen_range(0..WORLDS.len())];
                let w = mutate(&mut rng, seed_input.as_bytes());
                let w = String::from_utf8_lossy(&w).replace('\0', " ");
                (vec!["quantum".into(), "converge".into(), w], Vec::new())
            }
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            let _ = child.stdin.take().unwrap().write_all(&input);
        }
        let o = child.wait_with_output().unwrap();
        let code = o.status.code();
        let stderr = String::from_utf8_lossy(&o.stderr);
        let shown = format!(
            "{args:?} stdin {:?}: exit {code:?}, stderr {stderr:?}",
            String::from_utf8_lossy(&input)
        );
        assert!(matches!(code, Some(0..=2)), "{shown}");
        if code == Some(2) {
            assert_eq!(stderr.lines().count(), 1, "{shown}");
            assert!(stderr.starts_with("shogi-lab: "), "{shown}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fuzz_fast_tier() {
    fuzz_in_process(15, 200);
    fuzz_cli(15, 300);
}

#[test]
#[ignore = "deep tier: 50x the fast tier's mutants (minutes); run by .ci/run"]
fn fuzz_deep_tier() {
    for seed in 100..105 {
        fuzz_in_process(seed, 2000);
        fuzz_cli(seed, 3000);
    }
}
