//! `shogi-lab diff moves` finds real bugs: it is run against small, deliberately
//! wrong move generators, and the position it reports must show the bug.
//!
//! This file has its own `main` (`harness = false`): run as
//! `diff fixture <name>` it *is* the fixture — a line engine (one SFEN in, legal
//! moves out) built on our generator with one rule left out:
//! - `no-uchifuzume`: also allows pawn drops that mate (打ち歩詰め);
//! - `no-forced-promotion`: also allows a lance or knight to move to the last
//!   rank(s) without promoting (行き所のない駒);
//! - `duplicate-drops`: lists every drop twice (right set, wrong list: perft counts drops
//!   twice);
//! - `kingless-none`: lists no move where the side to move has no king (a generator that
//!   assumes a king; only tsume walks, `--kingless`, reach such positions);
//! - `promotion-as-plain`: lists an optional promotion as the plain move (twice, then: as
//!   many moves, a wrong list);
//! - `exit-after-5`: answers five lines correctly, then exits with status 3;
//! - `escape-sequence`: adds a terminal escape sequence (clear screen) to every answer;
//! - `correct`: our generator unchanged;
//! - `usi-canned`: a USI engine shaped like shtsume (it reads `position` and `go` only
//!   after `usinewgame`, and again after a `stop`; it knows its options by their exact
//!   spelling) that answers the n-th `go mate` with the n-th line of the file named by
//!   `SHOGI_LAB_TEST_ANSWERS` (its output lines, separated by ` | `), if its option
//!   `Level` is `Exact`; with `Fast`, its default, it answers `checkmate timeout`;
//! - `usi-no-usiok`: a USI engine that answers `usi` without `usiok`.
//!
//! The fixtures read positions without one king or both (`Rules::KINGS_OPTIONAL`, as
//! `shogi-lab moves` does), for the tsume walks.

use shogi_lab::notation::sfen::{parse_position, resolve_usi_move};
use shogi_lab::rules::{Move, Piece, PieceKind, Position, Rules, Square};
use std::io::{BufRead, Write};
use std::process::Command;

mod support;

fn uchifuzume_drops(pos: &Position) -> Vec<Move> {
    let us = pos.side_to_move();
    if !pos.hand(us).has(PieceKind::Pawn) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for to in Square::all() {
        let m = Move::Drop {
            kind: PieceKind::Pawn,
            to,
        };
        if pos.piece_at(to).is_some() || to.relative_rank(us) == 1 || pos.is_legal(m) {
            continue;
        }
        if pos
            .pieces(us, PieceKind::Pawn)
            .into_iter()
            .any(|s| s.file() == to.file())
        {
            continue;
        }
        let mut s = pos.to_setup();
        s.board[to.index()] = Some(Piece::new(us, PieceKind::Pawn));
        s.hands[us] = s.hands[us].remove(PieceKind::Pawn);
        s.side_to_move = !us;
        if let Ok(after) = Position::from_setup(s, Rules::KINGS_OPTIONAL) {
            if after.is_mate() {
                out.push(m);
            }
        }
    }
    out
}

fn unpromoted_last_rank(pos: &Position) -> Vec<Move> {
    let us = pos.side_to_move();
    let mut out = Vec::new();
    for m in pos.legal_moves() {
        if let Move::Normal {
            from,
            to,
            promote: true,
        } = m
        {
            let kind = pos.piece_at(from).expect("mover").kind;
            let dead = match kind {
                PieceKind::Lance => to.relative_rank(us) == 1,
                PieceKind::Knight => to.relative_rank(us) <= 2,
                _ => false,
            };
            let plain = Move::Normal {
                from,
                to,
                promote: false,
            };
            if dead && !pos.is_legal(plain) {
                out.push(plain);
            }
        }
    }
    out
}

fn fixture_moves(name: &str, pos: &Position) -> Vec<Move> {
    let mut v: Vec<Move> = pos.legal_moves().to_vec();
    match name {
        "no-uchifuzume" => v.extend(uchifuzume_drops(pos)),
        "no-forced-promotion" => v.extend(unpromoted_last_rank(pos)),
        "duplicate-drops" => {
            let drops: Vec<Move> = v.iter().copied().filter(|m| m.is_drop()).collect();
            v.extend(drops);
        }
        "kingless-none" => {
            if pos.pieces(pos.side_to_move(), PieceKind::King).is_empty() {
                v.clear();
            }
        }
        "promotion-as-plain" => {
            for m in &mut v {
                if let Move::Normal {
                    from,
                    to,
                    promote: true,
                } = *m
                {
                    let plain = Move::Normal {
                        from,
                        to,
                        promote: false,
                    };
                    if pos.is_legal(plain) {
                        *m = plain;
                    }
                }
            }
        }
        "exit-after-5" => {}
        "correct" => {}
        other => panic!("unknown fixture {other}"),
    }
    v
}

/// perft with a fixture's move lists. A move only the wrong generator makes leads to a
/// position our rules core cannot hold; it is counted at depth 1 and not searched below
/// (enough to make the counts differ, which is all the fixture is for).
fn fixture_perft(name: &str, pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = fixture_moves(name, pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut n = 0;
    for m in moves {
        if pos.is_legal(m) {
            pos.play_unchecked(m);
            n += fixture_perft(name, pos, depth - 1);
            pos.undo();
        }
    }
    n
}

/// A USI `go mate` engine built on our solver that drops the last two moves of every mate
/// line of 3+ plies.
fn usi_short_line() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut pos = None;
    for line in stdin.lock().lines() {
        let line = line.unwrap();
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.first().copied() {
            Some("usi") => writeln!(out, "id name short-line\nusiok").unwrap(),
            Some("isready") => writeln!(out, "readyok").unwrap(),
            Some("position") => {
                let p = shogi_lab::notation::sfen::parse_usi_position(&line, Rules::TSUME).unwrap();
                pos = Some(p.position);
            }
            Some("go") => {
                let p: &Position = pos.as_ref().unwrap();
                let r = shogi_lab::tsume::solve(p, &shogi_lab::tsume::SolverOptions::default());
                let mut l: Vec<String> = r.line.iter().map(|m| m.to_string()).collect();
                if l.len() >= 3 {
                    l.truncate(l.len() - 2);
                }
                match r.outcome {
                    shogi_lab::tsume::Outcome::Mate => writeln!(out, "checkmate {}", l.join(" ")),
                    _ => writeln!(out, "checkmate nomate"),
                }
                .unwrap();
            }
            Some("quit") => break,
            _ => {}
        }
        out.flush().unwrap();
    }
}

/// A USI engine that handshakes and then, at the first `go`: `usi-exit-on-go` exits with
/// status 3; `usi-hang-on-go` writes its process id to the file named by
/// `SHOGI_LAB_TEST_PID_FILE` and never answers (it sleeps until it is killed).
fn usi_failing(name: &str) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.unwrap();
        match line.split_whitespace().next() {
            Some("usi") => writeln!(out, "id name {name}\nusiok").unwrap(),
            Some("isready") => writeln!(out, "readyok").unwrap(),
            Some("go") if name == "usi-exit-on-go" => std::process::exit(3),
            Some("go") => {
                let file = std::env::var("SHOGI_LAB_TEST_PID_FILE").unwrap();
                std::fs::write(file, std::process::id().to_string()).unwrap();
                loop {
                    std::thread::sleep(std::time::Duration::from_secs(3600));
                }
            }
            _ => {}
        }
        out.flush().unwrap();
    }
}

/// The `usi-canned` fixture (file doc).
fn usi_canned() {
    let answers = std::fs::read(std::env::var("SHOGI_LAB_TEST_ANSWERS").unwrap()).unwrap();
    let mut answers = answers.split(|&b| b == b'\n');
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let (mut level, mut in_game) = ("Fast".to_string(), false);
    for line in stdin.lock().lines() {
        let line = line.unwrap();
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["usi"] => writeln!(
                out,
                "id name canned\n\
                 option name USI_Hash type spin default 16 min 1 max 1024\n\
                 option name Level type combo default Fast var Fast var Exact\n\
                 usiok"
            )
            .unwrap(),
            ["setoption", "name", "Level", "value", v] => level = v.to_string(),
            ["isready"] => writeln!(out, "readyok").unwrap(),
            ["usinewgame"] => in_game = true,
            ["stop"] => in_game = false,
            ["go", "mate", ..] if in_game => {
                let answer = answers.next().unwrap_or(b"checkmate timeout");
                if level == "Exact" {
                    for l in answer.split(|&b| b == b'|') {
                        out.write_all(l.trim_ascii()).unwrap();
                        out.write_all(b"\n").unwrap();
                    }
                } else {
                    writeln!(out, "checkmate timeout").unwrap();
                }
            }
            ["quit"] => break,
            _ => {}
        }
        out.flush().unwrap();
    }
}

/// The `usi-no-usiok` fixture: `id` lines, then nothing until its input ends.
fn usi_no_usiok() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        if line.unwrap().trim() == "usi" {
            writeln!(out, "id name no-usiok\nid author nobody").unwrap();
            out.flush().unwrap();
        }
    }
}

fn fixture(name: &str) {
    if name == "usi-short-line" {
        return usi_short_line();
    }
    if name == "usi-canned" {
        return usi_canned();
    }
    if name == "usi-no-usiok" {
        return usi_no_usiok();
    }
    if name.starts_with("usi-") {
        return usi_failing(name);
    }
    if name == "line-hang" {
        // A line engine that never answers: it writes its process id to the file named by
        // `SHOGI_LAB_TEST_PID_FILE` and sleeps until it is killed.
        let file = std::env::var("SHOGI_LAB_TEST_PID_FILE").unwrap();
        std::fs::write(file, std::process::id().to_string()).unwrap();
        loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }
    if name == "perft-words" {
        // Counts in words: `perft = N` and a terminal escape, padded to 300 more bytes.
        let stdin = std::io::stdin();
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        for line in stdin.lock().lines() {
            let line = line.unwrap();
            let (d, sfen) = line.split_once(' ').unwrap();
            let mut pos = parse_position(sfen, Rules::KINGS_OPTIONAL).unwrap();
            let n = shogi_lab::rules::perft(&mut pos, d.parse().unwrap());
            writeln!(out, "perft = {n}\u{1b}[2J{}", "x".repeat(300)).unwrap();
        }
        return;
    }
    if let Some(inner) = name.strip_prefix("perft-") {
        let stdin = std::io::stdin();
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        for line in stdin.lock().lines() {
            let line = line.unwrap();
            let (d, sfen) = line.split_once(' ').unwrap();
            let mut pos = parse_position(sfen, Rules::KINGS_OPTIONAL).unwrap();
            writeln!(
                out,
                "{}",
                fixture_perft(inner, &mut pos, d.parse().unwrap())
            )
            .unwrap();
        }
        return;
    }
    if name == "escape-sequence" {
        let stdin = std::io::stdin();
        let mut out = std::io::stdout().lock();
        for line in stdin.lock().lines() {
            let pos = parse_position(&line.unwrap(), Rules::KINGS_OPTIONAL).unwrap();
            let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            writeln!(out, "{} \u{1b}[2J", moves.join(" ")).unwrap();
        }
        return;
    }
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (i, line) in stdin.lock().lines().enumerate() {
        if name == "exit-after-5" && i == 5 {
            out.flush().unwrap();
            std::process::exit(3);
        }
        let pos = parse_position(&line.unwrap(), Rules::KINGS_OPTIONAL).unwrap();
        let moves: Vec<String> = fixture_moves(name, &pos)
            .iter()
            .map(|m| m.to_string())
            .collect();
        writeln!(out, "{}", moves.join(" ")).unwrap();
    }
}

/// The `--engine` command that runs this test binary as fixture `name`.
fn fixture_engine(name: &str) -> String {
    let me = std::env::current_exe().unwrap();
    format!("'{}' fixture {name}", me.display())
}

/// `shogi-lab diff moves ARGS --engine <fixture>`, its output.
fn diff_moves_with(args: &[&str], fixture: &str) -> std::process::Output {
    diff_with("moves", args, fixture)
}

/// `shogi-lab diff WHAT ARGS --engine <fixture>`, its output.
fn diff_with(what: &str, args: &[&str], fixture: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
        .args(["diff", what])
        .args(args)
        .arg("--engine")
        .arg(fixture_engine(fixture))
        .output()
        .unwrap()
}

fn diff(name: &str, positions: u32, seed: u64) -> (i32, serde_json::Value) {
    let (seed, positions) = (seed.to_string(), positions.to_string());
    let out = diff_moves_with(
        &["--json", "--seed", &seed, "--positions", &positions],
        name,
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{name}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), v)
}

/// The reported path replays from its start to the reported position, and no shorter
/// prefix of it reaches a position where the fixture is wrong.
fn check_path(name: &str, m: &serde_json::Value) -> Position {
    let mut pos = parse_position(m["start"].as_str().unwrap(), Rules::KINGS_OPTIONAL).unwrap();
    let moves: Vec<&str> = m["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert!(moves.len() <= m["unshrunk_plies"].as_u64().unwrap() as usize);
    for u in moves {
        assert_eq!(
            fixture_moves(name, &pos).len(),
            pos.legal_moves().len(),
            "{name}: a prefix of the shrunk path already shows the bug"
        );
        let mv = resolve_usi_move(&pos, u).unwrap();
        pos.play(mv).unwrap();
    }
    assert_eq!(
        shogi_lab::notation::sfen::write_sfen(&pos),
        m["sfen"].as_str().unwrap()
    );
    check_one_minimal(name, m);
    pos
}

/// The shrink contract (specs/schema/diff.md): for a path of at most 160 plies, no
/// legal path obtained by deleting an even-length block of consecutive moves or two
/// moves of opposite sides reaches a position where the fixture is wrong. The
/// candidates are enumerated here independently of the shrinker.
fn check_one_minimal(name: &str, m: &serde_json::Value) {
    let start = parse_position(m["start"].as_str().unwrap(), Rules::KINGS_OPTIONAL).unwrap();
    let mut p = start.clone();
    let path: Vec<Move> = m["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            let mv = resolve_usi_move(&p, u.as_str().unwrap()).unwrap();
            p.play(mv).unwrap();
            mv
        })
        .collect();
    let n = path.len();
    assert!(n <= 160, "{name}: {n} plies");
    let wrong_at_end = |keep: &dyn Fn(usize) -> bool| -> bool {
        let mut q = start.clone();
        for (k, &mv) in path.iter().enumerate() {
            if keep(k) && q.play(mv).is_err() {
                return false; // not a legal path: not a candidate
            }
        }
        let mut ours: Vec<String> = q.legal_moves().iter().map(|m| m.to_string()).collect();
        let mut theirs: Vec<String> = fixture_moves(name, &q)
            .iter()
            .map(|m| m.to_string())
            .collect();
        ours.sort();
        theirs.sort();
        ours != theirs
    };
    let mut tried = 0;
    for i in 0..n {
        for len in (2..=n - i).step_by(2) {
            tried += 1;
            assert!(
                !wrong_at_end(&|k| k < i || k >= i + len),
                "{name}: deleting moves {i}..{} still shows the bug",
                i + len
            );
        }
        for j in (i + 1..n).step_by(2) {
            tried += 1;
            assert!(
                !wrong_at_end(&|k| k != i && k != j),
                "{name}: deleting moves {i} and {j} still shows the bug"
            );
        }
    }
    assert!(tried > 0 || n <= 1, "{name}");
}

fn no_uchifuzume_is_caught() {
    let (code, v) = diff("no-uchifuzume", 20_000, 1);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["result"], "mismatch");
    let m = &v["first"];
    let pos = check_path("no-uchifuzume", m);
    assert_eq!(m["missing"].as_array().unwrap().len(), 0);
    let extra = m["extra"].as_array().unwrap();
    assert!(!extra.is_empty());
    for e in extra {
        let u = e.as_str().unwrap();
        assert!(u.starts_with("P*"), "{u}");
        // The drop would mate: that is what 打ち歩詰め forbids.
        let mv = shogi_lab::notation::sfen::parse_usi_move(u).unwrap().0;
        assert!(
            uchifuzume_drops(&pos).contains(&mv),
            "{u} is not a pawn-drop mate"
        );
    }
    eprintln!(
        "no-uchifuzume: caught at {} after {} plies (shrunk from {})",
        m["sfen"],
        m["moves"].as_array().unwrap().len(),
        m["unshrunk_plies"]
    );
}

fn no_forced_promotion_is_caught() {
    let (code, v) = diff("no-forced-promotion", 5_000, 1);
    assert_eq!(code, 1, "{v}");
    let m = &v["first"];
    let pos = check_path("no-forced-promotion", m);
    let extra = m["extra"].as_array().unwrap();
    assert!(!extra.is_empty());
    assert_eq!(m["missing"].as_array().unwrap().len(), 0);
    for e in extra {
        let mv = shogi_lab::notation::sfen::parse_usi_move(e.as_str().unwrap())
            .unwrap()
            .0;
        let Move::Normal {
            from,
            to,
            promote: false,
        } = mv
        else {
            panic!("{mv} is not an unpromoted board move")
        };
        let kind = pos.piece_at(from).unwrap().kind;
        let rank = to.relative_rank(pos.side_to_move());
        assert!(
            (kind == PieceKind::Lance && rank == 1) || (kind == PieceKind::Knight && rank <= 2),
            "{mv}: {kind:?} to relative rank {rank}"
        );
    }
    eprintln!(
        "no-forced-promotion: caught at {} after {} plies (shrunk from {})",
        m["sfen"],
        m["moves"].as_array().unwrap().len(),
        m["unshrunk_plies"]
    );
}

fn perft_finds_the_position_with_the_wrong_move_list() {
    let out = diff_with(
        "perft",
        &["--json", "--depth", "2", "--positions", "40", "--seed", "1"],
        "perft-no-forced-promotion",
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = &v["first"];
    assert_eq!(m["depth"], 1, "{v}");
    let pos = parse_position(m["sfen"].as_str().unwrap(), Rules::KINGS_OPTIONAL).unwrap();
    let extra = unpromoted_last_rank(&pos).len() as u64;
    assert!(
        extra > 0,
        "the reported position shows no unpromoted lance/knight move: {v}"
    );
    assert_eq!(
        m["ours"].as_u64().unwrap() + extra,
        m["theirs"].as_u64().unwrap()
    );
    // The path replays from the start to the reported position.
    let mut p = parse_position(m["start"].as_str().unwrap(), Rules::KINGS_OPTIONAL).unwrap();
    for u in m["moves"].as_array().unwrap() {
        let mv = resolve_usi_move(&p, u.as_str().unwrap()).unwrap();
        p.play(mv).unwrap();
    }
    assert_eq!(
        shogi_lab::notation::sfen::write_sfen(&p),
        m["sfen"].as_str().unwrap()
    );
    // The path is shrunk as `diff moves` shrinks (it was the walk's, then the descent's):
    // no proper prefix reaches a wrong move list, and it is 1-minimal for the deletions
    // (this fixture's lists differ exactly where its counts do).
    assert_eq!(m["localised"], "move-count", "{v}");
    check_path("no-forced-promotion", m);
    assert!(
        m["moves"].as_array().unwrap().len() < m["unshrunk_plies"].as_u64().unwrap() as usize,
        "not shrunk: {v}"
    );
}

/// A move list with as many moves as ours but a wrong one (an optional promotion listed as
/// the plain move, twice): the counts differ from depth 2, never at depth 1. The descent
/// ends at a position where the numbers of moves and every subcount of our moves agree
/// (`children-agree`), and the fixture's list there is wrong.
fn perft_names_a_wrong_list_of_the_right_length() {
    let out = diff_with(
        "perft",
        &["--json", "--depth", "2", "--positions", "40"],
        "perft-promotion-as-plain",
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = &v["first"];
    assert_eq!(m["localised"], "children-agree", "{v}");
    let depth = m["depth"].as_u64().unwrap() as u32;
    assert!(depth >= 2, "{v}");
    assert_eq!(
        m["moves"].as_array().unwrap().len() as u64,
        m["unshrunk_plies"].as_u64().unwrap()
    );
    let pos = parse_position(m["sfen"].as_str().unwrap(), Rules::KINGS_OPTIONAL).unwrap();
    let mut wrong = fixture_moves("promotion-as-plain", &pos);
    let mut ours = pos.legal_moves().to_vec();
    assert_eq!(wrong.len(), ours.len());
    wrong.sort_by_key(|m| m.to_string());
    ours.sort_by_key(|m| m.to_string());
    assert_ne!(wrong, ours, "{v}");
    let mut p = pos.clone();
    assert_eq!(
        m["ours"].as_u64().unwrap(),
        shogi_lab::rules::perft(&mut p, depth)
    );
    assert_eq!(
        m["theirs"].as_u64().unwrap(),
        fixture_perft("promotion-as-plain", &mut p, depth)
    );
}

/// `--kingless`: the walks start from tsume positions (Sente, the attacker, without a king),
/// so a generator that fails only there is caught — `kingless-none` agrees on the game
/// walks, and is caught by `diff moves --kingless` (a shrunk path from a tsume start to a
/// position with Sente to move and no Sente king) and `diff perft --kingless`. Pawn-drop
/// mate by a kingless attacker is caught as in games. The correct generator agrees.
fn tsume_walks_reach_kingless_positions() {
    let sente_king = |sfen: &str| -> bool {
        let p = parse_position(sfen, Rules::KINGS_OPTIONAL).unwrap();
        !p.pieces(shogi_lab::rules::Color::Sente, PieceKind::King)
            .is_empty()
    };
    let (code, v) = diff("kingless-none", 500, 1);
    assert_eq!(
        (code, &v["kingless"]),
        (0, &serde_json::Value::Bool(false)),
        "{v}"
    );
    let out = diff_moves_with(
        &["--json", "--kingless", "--positions", "500"],
        "kingless-none",
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["kingless"], true, "{v}");
    let m = &v["first"];
    check_path("kingless-none", m);
    assert!(!sente_king(m["start"].as_str().unwrap()), "{v}");
    assert!(!sente_king(m["sfen"].as_str().unwrap()), "{v}");
    assert!(m["sfen"].as_str().unwrap().contains(" b "), "{v}");
    assert!(m["extra"].as_array().unwrap().is_empty());
    assert!(!m["missing"].as_array().unwrap().is_empty());

    let out = diff_moves_with(
        &["--json", "--kingless", "--positions", "2000"],
        "no-uchifuzume",
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = &v["first"];
    let pos = check_path("no-uchifuzume", m);
    assert!(!sente_king(m["sfen"].as_str().unwrap()), "{v}");
    for e in m["extra"].as_array().unwrap() {
        let mv = shogi_lab::notation::sfen::parse_usi_move(e.as_str().unwrap())
            .unwrap()
            .0;
        assert!(uchifuzume_drops(&pos).contains(&mv), "{mv}: {v}");
    }

    let perft = |fixture: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
            .args(["diff", "perft", "--json", "--kingless", "--depth", "2"])
            .args(["--positions", "40", "--engine"])
            .arg(fixture_engine(fixture))
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (out.status.code().unwrap(), v)
    };
    let (code, v) = perft("perft-kingless-none");
    assert_eq!(code, 1, "{v}");
    let m = &v["first"];
    assert_eq!(
        (&m["localised"], &m["depth"], &m["theirs"]),
        (&"move-count".into(), &1.into(), &0.into()),
        "{v}"
    );
    assert!(!sente_king(m["sfen"].as_str().unwrap()), "{v}");
    check_path("kingless-none", m);
    let (code, v) = perft("perft-correct");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        (&v["kingless"], &v["positions"]),
        (&true.into(), &40.into()),
        "{v}"
    );
    let out = diff_moves_with(&["--json", "--kingless", "--positions", "2000"], "correct");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

/// An answer that is not a number is shown as the engine printed it: escaped on one line
/// in the text report, in `answer` in JSON (`theirs` stays `null`), cut to 200 characters
/// and `…` (it was only `(not a number)` and `null`).
fn perft_shows_an_answer_that_is_not_a_number() {
    let run = |json: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_shogi-lab"));
        cmd.args(["diff", "perft", "--depth", "1", "--positions", "3"])
            .arg("--engine")
            .arg(fixture_engine("perft-words"));
        if json {
            cmd.arg("--json");
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let v: serde_json::Value = serde_json::from_str(&run(true)).unwrap();
    let m = &v["first"];
    assert_eq!(m["theirs"], serde_json::Value::Null, "{v}");
    let ours = m["ours"].as_u64().unwrap();
    let answer = m["answer"].as_str().unwrap();
    let printed = format!("perft = {ours}\u{1b}[2J{}", "x".repeat(300));
    let kept: String = printed.chars().take(200).collect();
    assert_eq!(answer, format!("{kept}…"), "{v}");
    let text = run(false);
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{text:?}"
    );
    let escaped: String = format!("perft = {ours}\\u{{1b}}[2J{}", "x".repeat(300))
        .chars()
        .take(200 + 5) // `\u{1b}`: six characters where the escape was one
        .collect();
    assert!(
        text.contains(&format!(
            "  perft 1: ours {ours}, theirs not a number: \"{escaped}…\"\n"
        )),
        "{text}"
    );
}

fn mate_checks_the_engine_lines() {
    let run = |engine: String| {
        let out = Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
            .args([
                "diff",
                "mate",
                "--json",
                "--time-ms",
                "5000",
                "--nodes",
                "1000000",
            ])
            .args([
                "--problems",
                concat!(env!("CARGO_MANIFEST_DIR"), "/specs/tsume/cases.sfen"),
            ])
            .arg("--engine")
            .arg(engine)
            .output()
            .unwrap();
        let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (out.status.code().unwrap(), lines)
    };
    // Our own USI engine agrees with our solver, and its lines pass the checker.
    let (code, lines) = run(format!("'{}' usi", env!("CARGO_BIN_EXE_shogi-lab")));
    assert_eq!(code, 0, "{lines:?}");
    assert!(lines.iter().any(|l| l["theirs"]["line_ok"] == true));
    // Our side reports its work in both units (a mate's line is played, and every
    // expansion below the root is entered by a play and plays its children to count
    // them), the engine's side in none.
    let mut mates = 0;
    for l in &lines[..lines.len() - 1] {
        let nodes = l["ours"]["nodes"].as_u64().unwrap();
        let plays = l["ours"]["plays"].as_u64().unwrap();
        if l["ours"]["result"] == "mate" {
            mates += 1;
            assert!(
                plays >= nodes && plays >= l["ours"]["plies"].as_u64().unwrap(),
                "{l}"
            );
        }
        assert!(l["theirs"].get("plays").is_none(), "{l}");
    }
    assert!(mates >= 3, "{mates}");
    // Shortened lines are caught by the checker.
    let (code, lines) = run(fixture_engine("usi-short-line"));
    assert_eq!(code, 1);
    let bad: Vec<_> = lines.iter().filter(|l| l["agree"] == false).collect();
    assert!(!bad.is_empty());
    for l in bad {
        assert_eq!(l["theirs"]["line_ok"], false, "{l}");
        assert!(l["ours"]["plies"].as_u64().unwrap() >= 3);
    }
    assert_eq!(lines.last().unwrap()["result"], "mismatch");
}

/// `shogi-lab diff mate ARGS --engine ENGINE` with `SHOGI_LAB_TEST_ANSWERS` set to
/// `answers` (the `usi-canned` fixture's): its exit code, stdout and stderr.
fn diff_mate(args: &[&str], engine: &str, answers: &str) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
        .args(["diff", "mate"])
        .args(args)
        .arg("--engine")
        .arg(engine)
        .env("SHOGI_LAB_TEST_ANSWERS", answers)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Five problems and the answers an engine shaped like shtsume gives them: 将棋無双21 with
/// shtsume v1.2.7e's 23-ply line (we prove 25: its defender's △９三玉 at ply 20 allows a mate
/// in 3 where △８五玉 lasts 5; paper/results/tsume-length-differences.md), a right line
/// after an `info string` in Shift_JIS, shtsume's `nomate` at its time limit, a `timeout`,
/// and KomoringHeights' line that shows a 無駄合 (5 plies, 3 under our convention).
const SHTSUME_LIKE: [(&str, &str, &[u8]); 5] = [
    (
        "musou-021",
        "s2k3r1/1B2p+R3/1n7/2Pg5/p1S+b5/2p6/1+p7/9/9 b S3gs3n4l13p 1",
        b"info string Checkmate with hand! | checkmate S*7b 6a7b 4b5b P*6b 7d7c 7b8a 8b9a+ 8a9a S*8b 9a8b 5b6b 8b8a 7c7b+ 8a9b P*9c 9b9c P*9d 9c9d 6b6d 9d9c 6d9d 9c9d G*8d ",
    ),
    (
        "pawn-drop-not-mate",
        "7k1/5G3/8S/9/9/9/9/9/9 b NP 1",
        b"info string \x8b\x6c\x82\xdd | checkmate P*2b 2a1a N*2c ",
    ),
    (
        "one-ply-gold",
        "8k/9/8P/9/9/9/9/9/9 b G 1",
        b"info currmove G*1b | info string Perpetual check!. | checkmate nomate",
    ),
    (
        "uchifuzume-trap",
        "7lk/9/8G/9/9/9/9/9/K8 b P 1",
        b"checkmate timeout",
    ),
    (
        "futile-by-budget-3",
        "+RSk6/9/9/3S5/9/9/9/9/9 b Sr2b4gs4n4l18p 1",
        b"checkmate 8a9b P*8a 9a8a 7a6b S*5c",
    ),
];

/// The problems and answers files of [`SHTSUME_LIKE`] (or of `answers` in their place).
fn shtsume_like_files(dir: &support::TempDir, answers: Option<&[u8]>) -> (String, String) {
    let problems: String = SHTSUME_LIKE
        .iter()
        .map(|(id, sfen, _)| format!("{id}\t{sfen}\n"))
        .collect();
    let canned: Vec<u8> = match answers {
        Some(a) => a.to_vec(),
        None => SHTSUME_LIKE.iter().fold(Vec::new(), |mut v, (_, _, a)| {
            v.extend_from_slice(a);
            v.push(b'\n');
            v
        }),
    };
    (
        dir.file("problems.sfen", problems.as_bytes()),
        dir.file("answers", &canned),
    )
}

/// `diff mate` against an engine shaped like shtsume: it opens each problem with
/// `usinewgame` (shtsume drops `position` and `go` before it: the run hung, then ended
/// with "did not answer `go mate`"), sets an option by the engine's own spelling, reads an
/// `info string` that is not UTF-8 without ending the session, keeps the engine's last
/// `info string`, and gives each problem a verdict that says whether it is a disagreement:
/// the shorter line and the `nomate` where we mate are; the timeout and the line longer by
/// a 無駄合 are not. The shorter line's defender move that gives up the longer defence is
/// named.
fn mate_classifies_a_shtsume_like_engine() {
    let dir = support::TempDir::new("diff-mate-shtsume-like");
    let (problems, answers) = shtsume_like_files(&dir, None);
    let args = [
        "--json",
        "--time-ms",
        "60000",
        "--option",
        "level=Exact",
        "--problems",
        &problems,
    ];
    let (code, out, err) = diff_mate(&args, &fixture_engine("usi-canned"), &answers);
    assert_eq!(code, 1, "{err}{out}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let verdicts: Vec<(&str, bool)> = lines[..5]
        .iter()
        .map(|l| {
            (
                l["verdict"].as_str().unwrap(),
                l["agree"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("shorter", false),
            ("same", true),
            ("nomate_but_mate", false),
            ("undecided", true),
            ("longer", true),
        ],
        "{out}"
    );
    assert_eq!(
        lines[0]["short_defence"],
        serde_json::json!({"ply": 20, "usi": "9d9c", "mate_after": 3, "longest_at_least": 5})
    );
    assert_eq!(lines[0]["ours"]["plies"], 25);
    assert_eq!(lines[0]["ours"]["shortest"], true);
    assert_eq!(lines[0]["theirs"]["info_string"], "Checkmate with hand!");
    assert_eq!(
        lines[1]["theirs"]["info_string"],
        "\u{fffd}l\u{fffd}\u{fffd}"
    );
    assert_eq!(lines[2]["theirs"]["info_string"], "Perpetual check!.");
    assert_eq!(lines[2]["theirs"]["after_stop"], false);
    assert!(lines[1]["short_defence"].is_null());
    assert_eq!(
        (&lines[4]["ours"]["plies"], &lines[4]["theirs"]["plies"]),
        (&serde_json::json!(3), &serde_json::json!(5))
    );
    let summary = &lines[5];
    assert_eq!(summary["result"], "mismatch");
    assert_eq!(summary["mismatches"], 2);
    assert_eq!(summary["count_futile"], false);
    assert_eq!(
        summary["verdicts"],
        serde_json::json!({"same": 1, "longer": 1, "unranked": 0, "undecided": 1,
            "not_mate": 0, "shorter": 1, "nomate_but_mate": 1, "mate_but_nomate": 0})
    );
    // The text report says which lines are disagreements, and where.
    let (code, text, _) = diff_mate(&args[1..], &fixture_engine("usi-canned"), &answers);
    assert_eq!(code, 1);
    for needle in [
        "shorter\tmusou-021\tours mate 25 ",
        "  DISAGREEMENT: their checked line of 23 plies is shorter than our proven minimum of 25 plies (無駄合 not counted): at ply 20 their defender plays 9d9c, after which we prove mate within 3 plies, where another reply needs at least 5",
        "  DISAGREEMENT: they answer nomate where our line of 1 ply is a checked mate; its last info string: \"Perpetual check!.\"",
        "  no comparison: the engine answered timeout",
        "  difference, not a wrong answer: their checked line of 5 plies is longer than our proven minimum of 3 plies (無駄合 not counted)",
        "mismatch: 5 problems (無駄合 not counted): same 1, longer 1, unranked 0, undecided 1; 2 disagreements: not_mate 0, shorter 1, nomate_but_mate 1, mate_but_nomate 0; ",
    ] {
        assert!(text.contains(needle), "{needle}\n{text}");
    }
    // Without its option the engine answers nothing: every problem undecided.
    let (code, out, err) = diff_mate(
        &["--json", "--time-ms", "60000", "--problems", &problems],
        &fixture_engine("usi-canned"),
        &answers,
    );
    assert_eq!(code, 0, "{err}");
    let summary: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(summary["verdicts"]["undecided"], 5, "{summary}");
}

/// Options are checked against the engine's declarations, and an engine that never says
/// `usiok` or that has no mate search ends the run: one line each, exit 2, no panic.
fn mate_refuses_bad_options_and_engines_it_cannot_compare() {
    let dir = support::TempDir::new("diff-mate-refusals");
    let (problems, answers) = shtsume_like_files(&dir, Some(b"checkmate notimplemented\n"));
    let refused = |args: &[&str], fixture: &str, expected: &str| {
        let mut all = vec!["--problems", &problems, "--time-ms", "1000"];
        all.extend_from_slice(args);
        let (code, out, err) = diff_mate(&all, &fixture_engine(fixture), &answers);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    };
    refused(
        &["--option", "Level=Slow"],
        "usi-canned",
        "option Level: `Slow` is not one of Fast Exact",
    );
    refused(
        &["--option", "USI_Hash=4096"],
        "usi-canned",
        "option USI_Hash: `4096` is not an integer from 1 to 1024",
    );
    refused(
        &["--option", "Threads=1"],
        "usi-canned",
        "the engine has no option `Threads` (it declares: USI_Hash Level)",
    );
    refused(
        &["--option", "Level"],
        "usi-canned",
        "expected NAME=VALUE, got `Level`",
    );
    refused(
        &["--handshake-timeout-s", "1"],
        "usi-no-usiok",
        "did not answer `usi` with `usiok` within 1 s (killed)",
    );
    refused(
        &["--option", "Level=Exact"],
        "usi-canned",
        "problem musou-021: `",
    );
    refused(
        &["--option", "Level=Exact"],
        "usi-canned",
        "answered `go mate 1000` with `checkmate notimplemented`: it has no mate search to compare",
    );
}

/// Our own engine counting 無駄合 (`CountFutile`, KomoringHeights' convention): under our
/// convention its 5-ply line for futile-by-budget-3 is longer than our 3, not wrong; with
/// `--count-futile` it is our minimum too, and every problem agrees exactly.
fn mate_compares_lengths_under_the_engines_convention() {
    let problems = concat!(env!("CARGO_MANIFEST_DIR"), "/specs/tsume/cases.sfen");
    let engine = format!("'{}' usi", env!("CARGO_BIN_EXE_shogi-lab"));
    let run = |extra: &[&str]| {
        let mut args = vec![
            "--json",
            "--problems",
            problems,
            "--option",
            "CountFutile=true",
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = diff_mate(&args, &engine, "");
        assert_eq!(code, 0, "{err}{out}");
        let lines: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let not_same: Vec<(String, String)> = lines[..lines.len() - 1]
            .iter()
            .filter(|l| l["verdict"] != "same")
            .map(|l| (l["id"].to_string(), l["verdict"].to_string()))
            .collect();
        (not_same, lines.last().unwrap().clone())
    };
    let (not_same, summary) = run(&[]);
    assert_eq!(
        not_same,
        [(
            "\"futile-by-budget-3\"".to_string(),
            "\"longer\"".to_string()
        )]
    );
    assert_eq!(summary["count_futile"], false);
    let (not_same, summary) = run(&["--count-futile"]);
    assert!(not_same.is_empty(), "{not_same:?}");
    assert_eq!(summary["count_futile"], true);
    assert_eq!(summary["verdicts"]["same"], 12, "{summary}");
}

/// A move listed twice is a disagreement (perft would count it twice), reported as
/// `duplicated` with the shrunk path to it; the sets agree, so nothing is missing or extra.
fn duplicate_moves_are_caught() {
    let (code, v) = diff("duplicate-drops", 2_000, 1);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["result"], "mismatch");
    let m = &v["first"];
    let pos = check_path("duplicate-drops", m);
    assert_eq!(m["missing"].as_array().unwrap().len(), 0, "{m}");
    assert_eq!(m["extra"].as_array().unwrap().len(), 0, "{m}");
    let mut drops: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.is_drop())
        .map(|m| m.to_string())
        .collect();
    drops.sort();
    assert!(!drops.is_empty());
    let duplicated: Vec<&str> = m["duplicated"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert_eq!(duplicated, drops);
    // A correct engine has nothing duplicated, and the key is there all the same.
    let (code, v) = diff("correct", 50, 1);
    assert_eq!((code, &v["first"]), (0, &serde_json::Value::Null), "{v}");
}

/// An engine that ends before answering every line is one error line naming the input
/// line it left unanswered and that position, so that it can be run on it alone.
fn an_engine_that_exits_early_names_the_unanswered_position() {
    let out = diff_moves_with(&["--positions", "50", "--seed", "1"], "exit-after-5");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let (head, sfen) = err
        .trim_end()
        .split_once("no answer to line 6 of its input: ")
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        head.contains("answered 5 lines to 50 (exit status: 3)"),
        "{err}"
    );
    // The sixth position asked (the walk from the initial position, distinct positions).
    parse_position(sfen, Rules::STANDARD).unwrap_or_else(|e| panic!("{sfen}: {e}"));
}

/// `diff mate` with a USI engine that exits at `go`, or never answers it: one error line
/// naming the problem and what happened (not a broken pipe, not a wait it did not
/// make), exit 2; the hung engine is killed with the shell that started it, not left
/// running.
fn diff_mate_reports_an_engine_that_exits_or_hangs() {
    let problems = concat!(env!("CARGO_MANIFEST_DIR"), "/specs/tsume/cases.sfen");
    let run = |fixture: &str, pid_file: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
            .args(["diff", "mate", "--time-ms", "1", "--problems", problems])
            .arg("--engine")
            .arg(fixture_engine(fixture))
            .env("SHOGI_LAB_TEST_PID_FILE", pid_file)
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        err
    };
    let err = run("usi-exit-on-go", "");
    assert!(
        err.contains("problem one-ply-gold: ")
            && err.contains("exited (exit status: 3) without answering `go mate 1`"),
        "{err}"
    );
    let dir = support::TempDir::new("diff-mate-hang");
    let pid_file = dir.join("pid").display().to_string();
    let err = run("usi-hang-on-go", &pid_file);
    assert!(
        err.contains("problem one-ply-gold: ")
            && err.contains("did not answer `go mate 1` with `checkmate` within 15 s (killed)"),
        "{err}"
    );
    let pid: i32 = std::fs::read_to_string(&pid_file).unwrap().parse().unwrap();
    // Killed (SIGKILL is delivered at once, the exit follows): reaped by init, or a zombie
    // until then, it must not run.
    if !goes(pid) {
        let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
        panic!("the hung engine {pid} was left running");
    }
}

/// Whether fixture process `pid` stops running within a safety limit (a process killed
/// by SIGKILL exits soon after, not at once); not a measured time.
fn goes(pid: i32) -> bool {
    let mut waited = 0;
    while fixture_runs(pid) && waited < 1500 {
        waited += 1;
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    !fixture_runs(pid)
}

/// The text report echoes what the engine printed with its control characters escaped:
/// an engine's stray escape sequence must not reach the terminal (it did, raw).
fn the_text_report_escapes_control_characters() {
    let out = diff_moves_with(&["--positions", "5", "--seed", "1"], "escape-sequence");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{text:?}"
    );
    assert!(
        text.contains("extra (listed, not legal):   \\u{1b}[2J\n"),
        "{text}"
    );
}

/// Whether process `pid` runs (exists and is not a zombie waiting to be reaped) and is
/// one of this file's fixtures (a reused id is not).
fn fixture_runs(pid: i32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok();
    let alive = stat
        .as_deref()
        .and_then(|s| s.rsplit_once(") "))
        .is_some_and(|(_, rest)| !rest.starts_with('Z'));
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    alive && String::from_utf8_lossy(&cmdline).contains("fixture")
}

/// What a test started, killed when it ends (passing or not): shogi-lab's process group
/// and every engine process it recorded, so that a failing test leaves nothing running.
struct Survivors {
    shogi_lab: std::process::Child,
    engines: Vec<i32>,
}

impl Drop for Survivors {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.shogi_lab.id())])
            .stderr(std::process::Stdio::null())
            .status();
        let _ = self.shogi_lab.kill();
        let _ = self.shogi_lab.wait();
        for &pid in &self.engines {
            if fixture_runs(pid) {
                let _ = Command::new("kill")
                    .args(["-KILL", &pid.to_string()])
                    .status();
            }
        }
    }
}

/// README: the engine is killed when shogi-lab dies. For each of `diff moves`, `diff
/// perft` and `diff mate`, an engine that never answers is started through a command line
/// the shell must fork for (`…; true`: the shell is not the engine), and shogi-lab is
/// ended by SIGTERM, by SIGINT to its process group (a Ctrl-C at the terminal) and by
/// SIGKILL; the engine must not survive it. (It did: `sh -c` forks, and the engine was
/// left running, asleep, for every signal but a Ctrl-C without `--timeout-s`.)
fn an_engine_does_not_outlive_shogi_lab() {
    use std::os::unix::process::CommandExt;
    let problems = concat!(env!("CARGO_MANIFEST_DIR"), "/specs/tsume/cases.sfen");
    let runs: [(&str, Vec<&str>, &str); 4] = [
        (
            "diff moves",
            vec!["diff", "moves", "--positions", "20"],
            "line-hang",
        ),
        (
            "diff moves --timeout-s",
            vec!["diff", "moves", "--positions", "20", "--timeout-s", "3600"],
            "line-hang",
        ),
        (
            "diff perft",
            vec!["diff", "perft", "--depth", "2", "--positions", "5"],
            "line-hang",
        ),
        (
            "diff mate",
            vec![
                "diff",
                "mate",
                "--time-ms",
                "3600000",
                "--problems",
                problems,
            ],
            "usi-hang-on-go",
        ),
    ];
    let dir = support::TempDir::new("diff-survivors");
    let mut outlived = Vec::new();
    let mut n = 0;
    // A background job of a non-interactive shell ignores SIGINT, and its children inherit
    // that (CI may run so): no Ctrl-C can reach shogi-lab then, and the case is skipped.
    let signals: &[&str] = if support::sigint_ignored() {
        eprintln!(
            "an_engine_does_not_outlive_shogi_lab: SIGINT is ignored here, its cases skipped"
        );
        &["TERM", "KILL"]
    } else {
        &["TERM", "INT to its group", "KILL"]
    };
    for (what, args, fixture) in &runs {
        for &signal in signals {
            n += 1;
            let pid_file = dir.join(format!("pid-{n}"));
            let shogi_lab = Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
                .args(args)
                .arg("--engine")
                .arg(format!("{}; true", fixture_engine(fixture)))
                .env("SHOGI_LAB_TEST_PID_FILE", &pid_file)
                .process_group(0)
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            let mut s = Survivors {
                shogi_lab,
                engines: Vec::new(),
            };
            // Until the engine is up (a safety limit, not a measured time).
            let mut waited = 0;
            let pid: i32 = loop {
                if let Some(pid) = std::fs::read_to_string(&pid_file)
                    .ok()
                    .and_then(|t| t.parse().ok())
                {
                    break pid;
                }
                assert!(
                    s.shogi_lab.try_wait().unwrap().is_none(),
                    "{what}: shogi-lab ended before its engine started"
                );
                waited += 1;
                assert!(waited < 6000, "{what}: the engine never started");
                std::thread::sleep(std::time::Duration::from_millis(20));
            };
            s.engines.push(pid);
            let target = s.shogi_lab.id().to_string();
            let kill = match signal {
                "TERM" => vec!["-TERM".to_string(), target],
                "KILL" => vec!["-KILL".to_string(), target],
                _ => vec!["-INT".to_string(), "--".to_string(), format!("-{target}")],
            };
            assert!(Command::new("kill").args(&kill).status().unwrap().success());
            // Until shogi-lab has ended (a safety limit, not a measured time: a test must
            // not hang when the signal does not end it).
            let mut waited = 0;
            let status = loop {
                if let Some(status) = s.shogi_lab.try_wait().unwrap() {
                    break status;
                }
                waited += 1;
                assert!(
                    waited < 6000,
                    "{what}: shogi-lab did not end on SIG{signal}"
                );
                std::thread::sleep(std::time::Duration::from_millis(20));
            };
            assert!(status.code().is_none(), "{what}, {signal}: {status}");
            // The engine goes with it (killed asynchronously: give it a while).
            if !goes(pid) {
                outlived.push(format!("{what}, SIG{signal}: the engine {pid}"));
            }
        }
    }
    assert!(outlived.is_empty(), "outlived shogi-lab: {outlived:#?}");
}

fn correct_agrees() {
    let (code, v) = diff("correct", 3_000, 2);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["result"], "agree");
    assert_eq!(v["mismatches"], 0);
    assert_eq!(v["positions"], 3000);
    assert!(v["first"].is_null());
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("fixture") {
        fixture(&args[2]);
        return;
    }
    // `cargo test -- --ignored` (the deep tier): these tests are not ignored ones.
    if args.iter().any(|a| a == "--ignored") {
        return;
    }
    let tests: [(&str, fn()); 16] = [
        (
            "mate_classifies_a_shtsume_like_engine",
            mate_classifies_a_shtsume_like_engine,
        ),
        (
            "mate_refuses_bad_options_and_engines_it_cannot_compare",
            mate_refuses_bad_options_and_engines_it_cannot_compare,
        ),
        (
            "mate_compares_lengths_under_the_engines_convention",
            mate_compares_lengths_under_the_engines_convention,
        ),
        (
            "perft_names_a_wrong_list_of_the_right_length",
            perft_names_a_wrong_list_of_the_right_length,
        ),
        (
            "tsume_walks_reach_kingless_positions",
            tsume_walks_reach_kingless_positions,
        ),
        (
            "perft_shows_an_answer_that_is_not_a_number",
            perft_shows_an_answer_that_is_not_a_number,
        ),
        (
            "an_engine_does_not_outlive_shogi_lab",
            an_engine_does_not_outlive_shogi_lab,
        ),
        (
            "perft_finds_the_position_with_the_wrong_move_list",
            perft_finds_the_position_with_the_wrong_move_list,
        ),
        ("mate_checks_the_engine_lines", mate_checks_the_engine_lines),
        ("correct_agrees", correct_agrees),
        ("duplicate_moves_are_caught", duplicate_moves_are_caught),
        (
            "an_engine_that_exits_early_names_the_unanswered_position",
            an_engine_that_exits_early_names_the_unanswered_position,
        ),
        (
            "the_text_report_escapes_control_characters",
            the_text_report_escapes_control_characters,
        ),
        (
            "diff_mate_reports_an_engine_that_exits_or_hangs",
            diff_mate_reports_an_engine_that_exits_or_hangs,
        ),
        (
            "no_forced_promotion_is_caught",
            no_forced_promotion_is_caught,
        ),
        ("no_uchifuzume_is_caught", no_uchifuzume_is_caught),
    ];
    // A name filter from `cargo test NAME`: the tests whose name contains it (all of them
    // for this file's name); none if it selects nothing here.
    let filter = args
        .iter()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .filter(|f| f.as_str() != "diff");
    for (name, t) in tests {
        if filter.is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        eprintln!("test {name} ...");
        t();
        eprintln!("test {name} ... ok");
    }
}
