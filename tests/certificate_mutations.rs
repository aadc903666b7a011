//! Adversarial mutations of real tsume certificates (specs/certificate.md): the checker
//! must never accept a certificate whose claim is false. Certificates of small problems
//! (the hand-made cases, constructed positions with 二歩, dead pieces and futile
//! interpositions, generated 1- and 3-ply mates) in the three forms the solver writes
//! (plain version 1, version 2 counting every reply, version 4 under the 無駄合
//! convention) are mutated systematically (every site of every structural edit) and at
//! random (one to three edits); every mutated certificate the checker accepts must make
//! a true claim, decided by the solver and, for short lengths, the naive twin
//! (`tsume::naive`); every rejection must name a node of the certificate or a line of
//! the text; nothing may panic. The valid certificates themselves must be accepted.

mod support;
use support::{lines_of, render};

use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use shogi_lab::certificate::{check_text, CheckError, Checked};
use shogi_lab::notation::sfen::{parse_setup, write_setup, write_sfen};
use shogi_lab::rules::{Color, Move, PieceKind, Position, Rules, Square};
use shogi_lab::tsume::certificate::{extract, extract_length, write_jsonl};
use shogi_lab::tsume::problems::read_problems;
use shogi_lab::tsume::{load_problem, naive, DefenderHand, Outcome, Solver, SolverOptions};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

const CASES: &str = include_str!("../specs/tsume/cases.sfen");

/// Constructed positions (defender hand as given): 二歩 (the pawn drop that would check is
/// illegal), dead pieces (drops on the last ranks), promotion choices, a mate only
/// through futile interpositions, and a few nomates with many checks.
const CONSTRUCTED: [&str; 8] = [
    "8k/9/9/9/9/9/9/9/8P b P 1",
    "8k/9/9/9/9/9/9/9/9 b N 1",
    "8k/9/9/9/9/9/9/9/9 b L 1",
    "8k/8p/6P2/9/9/9/9/9/B8 b 2rb4g4s4n4l16p 1",
    "7nk/9/8P/9/9/9/9/9/9 b GN 1",
    "6s1k/9/6S2/9/9/9/9/9/9 b G 1",
    "8k/9/7PP/9/9/9/9/9/9 b P 1",
    "7k1/9/9/6N2/9/9/9/9/9 b S 1",
];

/// One certificate of the corpus: its text, the problem, and which form it is.
struct Cert {
    name: String,
    text: String,
    pos: Position,
}

fn solver(count_futile: bool) -> Solver<Position> {
    Solver::try_new(SolverOptions {
        nodes: Some(2_000_000),
        memory_mib: 32,
        count_futile,
        ..SolverOptions::default()
    })
    .unwrap()
}

fn text_of(cert: &shogi_lab::tsume::certificate::Certificate) -> String {
    let mut out = Vec::new();
    write_jsonl(cert, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// The plain certificate and, for a proven-shortest mate, the length certificates of both
/// modes (version 2 counting every reply, version 4 not counting 無駄合).
fn certificates_of(name: &str, pos: &Position) -> Vec<Cert> {
    let mut out = Vec::new();
    for count_futile in [false, true] {
        let mut s = solver(count_futile);
        let r = s.solve(pos);
        if r.outcome == Outcome::Unknown {
            continue;
        }
        if !count_futile {
            let cert = extract(&s, pos, &r).unwrap_or_else(|e| panic!("{name}: {e}"));
            out.push(Cert {
                name: format!("{name}/plain"),
                text: text_of(&cert),
                pos: pos.clone(),
            });
        }
        if r.outcome == Outcome::Mate && r.shortest == Some(true) {
            let cert = extract_length(&s, pos, &r).unwrap_or_else(|e| panic!("{name}: {e}"));
            out.push(Cert {
                name: format!("{name}/length-{}", if count_futile { 2 } else { 4 }),
                text: text_of(&cert),
                pos: pos.clone(),
            });
        }
    }
    out
}

fn corpus() -> Vec<Cert> {
    let mut problems: Vec<(String, Position)> = read_problems(CASES)
        .iter()
        .map(|c| {
            let mode = match c.extra[1].as_str() {
                "given" => DefenderHand::AsGiven,
                _ => DefenderHand::Remaining,
            };
            (c.id.clone(), load_problem(&c.sfen, mode).unwrap())
        })
        .collect();
    for (i, sfen) in CONSTRUCTED.iter().enumerate() {
        problems.push((
            format!("constructed-{i}"),
            load_problem(sfen, DefenderHand::AsGiven).unwrap(),
        ));
    }
    for plies in [1, 3] {
        for (i, sfen) in support::gen_tsume_sfens(3, plies, 11).iter().enumerate() {
            problems.push((
                format!("gen-{plies}-{i}"),
                load_problem(sfen, DefenderHand::AsGiven).unwrap(),
            ));
        }
    }
    problems
        .iter()
        .flat_map(|(name, pos)| certificates_of(name, pos))
        .collect()
}

/// The truth of what the checker says a certificate proves, by the solver (and the naive
/// twin where the length is short), remembered by claim.
#[derive(Default)]
struct Oracle {
    known: HashMap<(String, bool), (Outcome, Option<u32>)>,
}

impl Oracle {
    /// The outcome and, for a mate, the proven-shortest length of `pos` counting every
    /// reply (`count_futile`) or not.
    fn truth(&mut self, pos: &Position, count_futile: bool) -> (Outcome, Option<u32>) {
        let key = (write_sfen(pos), count_futile);
        if let Some(&t) = self.known.get(&key) {
            return t;
        }
        let mut s = solver(count_futile);
        let r = s.solve(pos);
        assert_ne!(r.outcome, Outcome::Unknown, "oracle undecided: {}", key.0);
        let len = (r.outcome == Outcome::Mate).then(|| {
            assert_eq!(r.shortest, Some(true), "oracle not shortest: {}", key.0);
            r.line.len() as u32
        });
        self.known.insert(key, (r.outcome, len));
        (r.outcome, len)
    }

    /// Whether the claim of `c` is true; why not otherwise.
    fn claim_holds(&mut self, c: &Checked) -> Result<(), String> {
        let pos = &c.root;
        let sfen = write_sfen(pos);
        match (c.result.as_str(), c.length) {
            ("nomate", _) => match self.truth(pos, true) {
                (Outcome::NoMate, _) => Ok(()),
                t => Err(format!("{sfen}: claims no mate, truth {t:?}")),
            },
            ("mate", None) => {
                let p = c.plies.expect("a mate has plies");
                match self.truth(pos, true) {
                    (Outcome::Mate, Some(s)) if s <= p => Ok(()),
                    t => Err(format!("{sfen}: claims mate within {p}, truth {t:?}")),
                }
            }
            ("mate", Some(l)) => {
                let p = c.plies.expect("a mate has plies");
                let counted = !c.futile_uncounted;
                if p > l {
                    return Err(format!("{sfen}: plies {p} > length {l}"));
                }
                let t = self.truth(pos, counted);
                if t != (Outcome::Mate, Some(l)) {
                    return Err(format!(
                        "{sfen}: claims shortest {l} (counted: {counted}), truth {t:?}"
                    ));
                }
                if l <= 5 {
                    let twin = if counted {
                        naive::mate_length_counted(pos, l)
                    } else {
                        naive::mate_length(pos, l)
                    };
                    if twin != Some(l) {
                        return Err(format!("{sfen}: claims shortest {l}, naive twin {twin:?}"));
                    }
                }
                Ok(())
            }
            (r, _) => Err(format!("unknown result {r}")),
        }
    }
}

/// What one mutated text did to the checker.
#[derive(Default, Debug)]
struct Tally {
    accepted: usize,
    invalid: usize,
    unreadable: usize,
    /// Accepted mutations by kind (the description without its numbers and SFENs).
    accepted_kinds: std::collections::BTreeMap<String, usize>,
    false_claims: Vec<String>,
}

impl Tally {
    /// Checks `text` (a mutation `what` of a certificate): no panic; a rejection names a
    /// node of the text or a line in it; an acceptance makes a true claim.
    fn run(&mut self, oracle: &mut Oracle, text: &str, what: &str) {
        let got = catch_unwind(AssertUnwindSafe(|| check_text(text, None)))
            .unwrap_or_else(|_| panic!("the checker panicked on {what}:\n{text}"));
        match got {
            Ok(c) => {
                self.accepted += 1;
                let kind: String = what
                    .split(": ")
                    .skip(1)
                    .collect::<Vec<_>>()
                    .join(": ")
                    .split(' ')
                    .filter(|w| !w.contains('/') && !w.chars().any(|c| c.is_ascii_digit()))
                    .collect::<Vec<_>>()
                    .join(" ");
                *self.accepted_kinds.entry(kind).or_default() += 1;
                if let Err(why) = oracle.claim_holds(&c) {
                    self.false_claims
                        .push(format!("{what}: {why}\n{}", first_lines(text)));
                }
            }
            Err(CheckError::Invalid { node, why }) => {
                self.invalid += 1;
                let named = text.lines().skip(1).any(|l| {
                    serde_json::from_str::<Value>(l)
                        .ok()
                        .and_then(|v| v["id"].as_u64())
                        == Some(node as u64)
                });
                assert!(named, "{what}: node {node} ({why}) is no node of the text");
                assert!(!why.is_empty());
            }
            Err(CheckError::Unreadable { line, why, .. }) => {
                self.unreadable += 1;
                assert!(
                    line >= 1 && line <= text.lines().count().max(1),
                    "{what}: line {line} ({why}) out of the text"
                );
            }
            Err(e) => panic!("{what}: {e}"),
        }
    }
}

fn first_lines(text: &str) -> String {
    text.lines().take(12).collect::<Vec<_>>().join("\n")
}

fn node_pos(v: &Value) -> Option<Position> {
    let setup = parse_setup(v["sfen"].as_str()?).ok()?;
    // Either side may be the defender here: try both requirements.
    Position::from_setup(setup.clone(), Rules::TSUME)
        .or_else(|_| Position::from_setup(setup, Rules::TSUME.swapped()))
        .ok()
}

/// A move for node `v` to list: a legal one, a drop of any kind anywhere (二歩, dead
/// pieces, 打ち歩詰め, occupied squares), or a board move with the promotion flipped.
fn some_move(rng: &mut impl Rng, v: &Value) -> Option<Move> {
    let p = node_pos(v)?;
    let legal: Vec<Move> = p.legal_moves().into_iter().collect();
    match rng.gen_range(0..3) {
        0 if !legal.is_empty() => Some(legal[rng.gen_range(0..legal.len())]),
        1 => {
            let kind = PieceKind::HAND[rng.gen_range(0..PieceKind::HAND.len())];
            let to = Square::all().nth(rng.gen_range(0..81))?;
            Some(Move::Drop { kind, to })
        }
        _ => {
            let m = *legal.get(rng.gen_range(0..legal.len().max(1)))?;
            match m {
                Move::Normal { from, to, promote } => Some(Move::Normal {
                    from,
                    to,
                    promote: !promote,
                }),
                Move::Drop { kind, .. } => {
                    let to = Square::all().nth(rng.gen_range(0..81))?;
                    Some(Move::Drop { kind, to })
                }
            }
        }
    }
}

/// The SFEN after `m` in node `v`'s position, if `m` can be played there.
fn sfen_after(v: &Value, m: Move) -> Option<String> {
    let mut p = node_pos(v)?;
    if !p.legal_moves().into_iter().any(|x| x == m) {
        return None;
    }
    p.play_unchecked(m);
    Some(write_sfen(&p))
}

/// A hand edit of a SFEN: swap the hands, move one piece between them, add or remove one.
fn hand_edit(rng: &mut impl Rng, sfen: &str) -> Option<String> {
    let mut s = parse_setup(sfen).ok()?;
    let kind = PieceKind::HAND[rng.gen_range(0..PieceKind::HAND.len())];
    let (a, b) = if rng.gen() {
        (Color::Sente, Color::Gote)
    } else {
        (Color::Gote, Color::Sente)
    };
    match rng.gen_range(0..4) {
        0 => {
            let (x, y) = (s.hands[Color::Sente], s.hands[Color::Gote]);
            s.hands[Color::Sente] = y;
            s.hands[Color::Gote] = x;
        }
        1 if s.hands[a].has(kind) => {
            s.hands[a] = s.hands[a].remove(kind);
            s.hands[b] = s.hands[b].add(kind);
        }
        2 if s.hands[a].has(kind) => s.hands[a] = s.hands[a].remove(kind),
        _ => s.hands[a] = s.hands[a].add(kind),
    }
    Some(write_setup(&s))
}

/// A board edit of a SFEN: side to move flipped, or one piece moved to an empty square.
fn board_edit(rng: &mut impl Rng, sfen: &str) -> Option<String> {
    let mut s = parse_setup(sfen).ok()?;
    if rng.gen_range(0..4) == 0 {
        s.side_to_move = !s.side_to_move;
        return Some(write_setup(&s));
    }
    let occupied: Vec<usize> = (0..81).filter(|&i| s.board[i].is_some()).collect();
    let empty: Vec<usize> = (0..81).filter(|&i| s.board[i].is_none()).collect();
    let from = occupied[rng.gen_range(0..occupied.len())];
    let to = empty[rng.gen_range(0..empty.len())];
    s.board[to] = s.board[from].take();
    Some(write_setup(&s))
}

fn ids(ls: &[Value]) -> Vec<u64> {
    ls[1..].iter().filter_map(|v| v["id"].as_u64()).collect()
}

/// Numbers a field may be set to: off by one, huge, negative, fractional, a string.
fn odd_number(rng: &mut impl Rng, old: Option<u64>) -> Value {
    let o = old.unwrap_or(0);
    match rng.gen_range(0..9) {
        0 => json!(o + 1),
        1 => json!(o.saturating_sub(1)),
        2 => json!(o + 2),
        3 => json!(u64::from(u32::MAX)),
        4 => json!(u64::from(u32::MAX) + 1 + o),
        5 => json!(u64::MAX),
        6 => json!(-1),
        7 => json!(o as f64 + 0.5),
        _ => json!(o.to_string()),
    }
}

/// One random structural edit of the lines; a description, or `None` if it did not apply.
fn mutate(rng: &mut impl Rng, ls: &mut Vec<Value>) -> Option<String> {
    let n = ls.len();
    if n < 2 {
        return None;
    }
    let i = rng.gen_range(1..n);
    let all = ids(ls);
    let some_id = |rng: &mut dyn rand::RngCore| all[rng.gen_range(0..all.len())];
    let id = ls[i]["id"].clone();
    match rng.gen_range(0..22) {
        // Drop one listed move.
        0 | 1 => {
            let m = ls[i].get_mut("moves").and_then(Value::as_array_mut)?;
            if m.is_empty() {
                return None;
            }
            let k = rng.gen_range(0..m.len());
            let gone = m.remove(k);
            Some(format!("node {id}: drop move {gone}"))
        }
        // Drop one futility or non-futility witness.
        2 => {
            let key = if rng.gen() { "futile" } else { "nonfutile" };
            let w = ls[i].get_mut(key).and_then(Value::as_array_mut)?;
            if w.is_empty() {
                return None;
            }
            let k = rng.gen_range(0..w.len());
            w.remove(k);
            Some(format!("node {id}: drop a {key} witness"))
        }
        // A futile reply moved into `moves` onto an existing node, or dropped entirely.
        3 => {
            let w = ls[i].get_mut("futile").and_then(Value::as_array_mut)?;
            if w.is_empty() {
                return None;
            }
            let k = rng.gen_range(0..w.len());
            let f = w.remove(k);
            let target = some_id(rng);
            ls[i]
                .get_mut("moves")
                .and_then(Value::as_array_mut)?
                .push(json!([f[0], target]));
            Some(format!("node {id}: futile {} listed to {target}", f[0]))
        }
        // Retarget a move or a witness to another node.
        4 | 5 => {
            let key = ["moves", "futile", "nonfutile"][rng.gen_range(0..3)];
            let target = some_id(rng);
            let w = ls[i].get_mut(key).and_then(Value::as_array_mut)?;
            if w.is_empty() {
                return None;
            }
            let k = rng.gen_range(0..w.len());
            let last = w[k].as_array()?.len() - 1;
            w[k][last] = json!(target);
            Some(format!("node {id}: {key}[{k}] to node {target}"))
        }
        // Change a listed move (keeping its child).
        6 => {
            let m = some_move(rng, &ls[i])?;
            let w = ls[i].get_mut("moves").and_then(Value::as_array_mut)?;
            if w.is_empty() {
                return None;
            }
            let k = rng.gen_range(0..w.len());
            w[k][0] = json!(m.to_string());
            Some(format!("node {id}: moves[{k}] made {m}"))
        }
        // Add a move, into an existing node or a new leaf at the right position.
        7 | 8 => {
            let m = some_move(rng, &ls[i])?;
            let target = if rng.gen() {
                let sfen = sfen_after(&ls[i], m)?;
                let new = all.iter().max().copied().unwrap_or(0) + 1;
                let mut leaf = json!({"id": new, "sfen": sfen, "moves": []});
                if let Some(b) = ls[i]["budget"].as_u64() {
                    leaf["budget"] = json!(b.saturating_sub(1));
                }
                ls.push(leaf);
                new
            } else {
                some_id(rng)
            };
            ls[i]
                .get_mut("moves")
                .and_then(Value::as_array_mut)?
                .push(json!([m.to_string(), target]));
            Some(format!("node {id}: add {m} to node {target}"))
        }
        // Edit a node's hands or board.
        9 | 10 => {
            let sfen = ls[i]["sfen"].as_str()?.to_string();
            let new = if rng.gen() {
                hand_edit(rng, &sfen)?
            } else {
                board_edit(rng, &sfen)?
            };
            ls[i]["sfen"] = json!(new);
            Some(format!("node {id}: sfen {sfen} -> {new}"))
        }
        // Swap two nodes' positions.
        11 => {
            let j = rng.gen_range(1..n);
            let (a, b) = (ls[i]["sfen"].clone(), ls[j]["sfen"].clone());
            ls[i]["sfen"] = b;
            ls[j]["sfen"] = a;
            Some(format!("swap sfen of lines {i} and {j}"))
        }
        // Budgets.
        12 => {
            let old = ls[i]["budget"].as_u64();
            let v = match rng.gen_range(0..4) {
                0 => Value::Null,
                1 => json!(0),
                _ => odd_number(rng, old),
            };
            if v.is_null() {
                ls[i].as_object_mut()?.remove("budget");
            } else {
                ls[i]["budget"] = v.clone();
            }
            Some(format!("node {id}: budget {old:?} -> {v}"))
        }
        // covered_by: retarget, or replace the moves by a cover.
        13 | 14 => {
            let target = some_id(rng);
            let o = ls[i].as_object_mut()?;
            o.remove("moves");
            o.remove("futile");
            o.remove("nonfutile");
            o.remove("by_checker");
            o.insert("covered_by".into(), json!(target));
            Some(format!("node {id}: covered_by {target}"))
        }
        // A cover replaced by no moves.
        15 => {
            let o = ls[i].as_object_mut()?;
            o.remove("covered_by")?;
            o.insert("moves".into(), json!([]));
            Some(format!("node {id}: cover made a leaf"))
        }
        // by_checker toggled.
        16 => {
            let o = ls[i].as_object_mut()?;
            if o.remove("by_checker").is_some() {
                o.insert("moves".into(), json!([]));
                Some(format!("node {id}: by_checker made a leaf"))
            } else {
                o.remove("moves");
                o.remove("covered_by");
                o.insert("by_checker".into(), json!(true));
                Some(format!("node {id}: made by_checker"))
            }
        }
        // Ids: duplicated, changed.
        17 => {
            let target = some_id(rng);
            ls[i]["id"] = json!(target);
            Some(format!("node {id}: id made {target}"))
        }
        // A line duplicated or deleted.
        18 => {
            if rng.gen() {
                let l = ls[i].clone();
                ls.insert(rng.gen_range(1..=n), l);
                Some(format!("line {i} duplicated"))
            } else {
                ls.remove(i);
                Some(format!("line {i} deleted"))
            }
        }
        // Header members.
        _ => {
            let key = [
                "plies",
                "length",
                "nomate_root",
                "root",
                "version",
                "result",
            ][rng.gen_range(0..6)];
            let old = ls[0][key].clone();
            let v = match key {
                "result" => {
                    if old == "mate" {
                        json!("nomate")
                    } else {
                        json!("mate")
                    }
                }
                "version" => json!(rng.gen_range(1..=4)),
                "root" | "nomate_root" if rng.gen() => json!(some_id(rng)),
                "nomate_root" if rng.gen() => Value::Null,
                _ => odd_number(rng, old.as_u64()),
            };
            ls[0][key] = v.clone();
            Some(format!("header {key}: {old} -> {v}"))
        }
    }
}

/// Systematic edits at every site: each move dropped, each witness dropped, each
/// header number off by one or two, each budget raised and lowered, each line deleted
/// and duplicated, each hand swapped.
fn systematic(ls: &[Value]) -> Vec<(String, Vec<Value>)> {
    let mut out = Vec::new();
    for i in 1..ls.len() {
        for key in ["moves", "futile", "nonfutile"] {
            for k in 0..ls[i][key].as_array().map_or(0, Vec::len) {
                let mut m = ls.to_vec();
                m[i][key].as_array_mut().unwrap().remove(k);
                out.push((format!("line {i}: {key}[{k}] dropped"), m));
            }
        }
        if let Some(b) = ls[i]["budget"].as_u64() {
            for nb in [b + 1, b.saturating_sub(1)] {
                let mut m = ls.to_vec();
                m[i]["budget"] = json!(nb);
                out.push((format!("line {i}: budget {b} -> {nb}"), m));
            }
        }
        let mut m = ls.to_vec();
        m.remove(i);
        out.push((format!("line {i} deleted"), m));
        let mut m = ls.to_vec();
        m.insert(i, ls[i].clone());
        out.push((format!("line {i} duplicated"), m));
        let mut s = parse_setup(ls[i]["sfen"].as_str().unwrap()).unwrap();
        let (x, y) = (s.hands[Color::Sente], s.hands[Color::Gote]);
        if x != y {
            s.hands[Color::Sente] = y;
            s.hands[Color::Gote] = x;
            let mut m = ls.to_vec();
            m[i]["sfen"] = json!(write_setup(&s));
            out.push((format!("line {i}: hands swapped"), m));
        }
    }
    for key in ["plies", "length"] {
        if let Some(v) = ls[0][key].as_u64() {
            for nv in [v + 1, v + 2, v.saturating_sub(1), v.saturating_sub(2)] {
                let mut m = ls.to_vec();
                m[0][key] = json!(nv);
                out.push((format!("header {key} {v} -> {nv}"), m));
            }
        }
    }
    let mut m = ls.to_vec();
    m[0]["result"] = json!(if ls[0]["result"] == "mate" {
        "nomate"
    } else {
        "mate"
    });
    if m[0]["result"] == "nomate" {
        m[0]["plies"] = Value::Null;
    } else {
        m[0]["plies"] = json!(1);
    }
    out.push(("result flipped".into(), m));
    out
}

/// Hand superiority in both directions: a new root at the root's board with one hand
/// changed (a piece added to or taken from either hand, or moved between them) and
/// `covered_by` the old root (and, with a length, a new bounded root covered by the old
/// one). Right way round the claim holds for the new root; the wrong way round the
/// checker must refuse it (the oracle decides which).
fn superiority(ls: &[Value]) -> Vec<(String, Vec<Value>)> {
    let mut out = Vec::new();
    let root = ls[0]["root"].as_u64().unwrap();
    let root_line = ls.iter().position(|v| v["id"] == json!(root)).unwrap();
    let setup = parse_setup(ls[root_line]["sfen"].as_str().unwrap()).unwrap();
    let fresh = ids(ls).into_iter().max().unwrap() + 1;
    for kind in PieceKind::HAND {
        for (a, b) in [(Color::Sente, Color::Gote), (Color::Gote, Color::Sente)] {
            let mut edits = Vec::new();
            let mut s = setup.clone();
            s.hands[a] = s.hands[a].add(kind);
            edits.push((format!("{a:?} +{kind:?}"), s));
            if setup.hands[a].has(kind) {
                let mut s = setup.clone();
                s.hands[a] = s.hands[a].remove(kind);
                edits.push((format!("{a:?} -{kind:?}"), s.clone()));
                s.hands[b] = s.hands[b].add(kind);
                edits.push((format!("{kind:?} {a:?} to {b:?}"), s));
            }
            for (what, s) in edits {
                let sfen = write_setup(&s);
                let mut m = ls.to_vec();
                m[0]["root"] = json!(fresh);
                m.push(json!({"id": fresh, "sfen": sfen, "covered_by": root}));
                if let Some(nr) = ls[0]["nomate_root"].as_u64() {
                    let nl = ls.iter().position(|v| v["id"] == json!(nr)).unwrap();
                    m[0]["nomate_root"] = json!(fresh + 1);
                    m.push(json!({"id": fresh + 1, "sfen": sfen, "covered_by": nr,
                        "budget": ls[nl]["budget"]}));
                }
                out.push((format!("covered root, {what}"), m));
            }
        }
    }
    out
}

/// Checks every certificate of the corpus as written, then `rounds` rounds of random
/// mutations of each (and, with `systematic`, the systematic ones of every certificate
/// of at most `max_lines` lines: the larger ones repeat the same sites many times over);
/// panics on a false claim accepted.
fn mutation_sweep(rounds: usize, max_lines: usize, seed: u64) {
    let corpus = corpus();
    assert!(corpus.len() >= 40, "{}", corpus.len());
    let mut oracle = Oracle::default();
    let mut tally = Tally::default();
    // The certificates as written: accepted, for their problem, with true claims.
    for c in &corpus {
        let checked = check_text(&c.text, Some(&c.pos))
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", c.name, c.text));
        oracle
            .claim_holds(&checked)
            .unwrap_or_else(|e| panic!("{}: {e}", c.name));
    }
    let mut systematic_count = 0;
    for c in corpus
        .iter()
        .filter(|c| c.text.lines().count() <= max_lines)
    {
        let ls = lines_of(&c.text);
        for (what, m) in systematic(&ls) {
            tally.run(&mut oracle, &render(&m), &format!("{}: {what}", c.name));
            systematic_count += 1;
        }
        for (what, m) in superiority(&ls) {
            tally.run(&mut oracle, &render(&m), &format!("{}: {what}", c.name));
            systematic_count += 1;
        }
        // Another problem: refused whenever its position differs from the root.
        for other in corpus.iter().filter(|o| o.pos != c.pos) {
            match check_text(&c.text, Some(&other.pos)) {
                Err(CheckError::Invalid { why, .. }) => {
                    assert!(why.contains("not the given problem"), "{why}")
                }
                got => panic!("{} checked as {}: {got:?}", c.name, other.name),
            }
            systematic_count += 1;
        }
        // Truncations at line ends and inside lines.
        for cut in (0..c.text.len()).step_by(37) {
            let t = &c.text[..cut];
            tally.run(&mut oracle, t, &format!("{}: truncated at {cut}", c.name));
            systematic_count += 1;
        }
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut random_count = 0;
    for round in 0..rounds {
        for c in &corpus {
            let mut ls = lines_of(&c.text);
            let mut what = Vec::new();
            for _ in 0..rng.gen_range(1..=3) {
                if let Some(w) = mutate(&mut rng, &mut ls) {
                    what.push(w);
                }
            }
            if what.is_empty() {
                continue;
            }
            let name = format!("{} round {round}: {}", c.name, what.join("; "));
            tally.run(&mut oracle, &render(&ls), &name);
            random_count += 1;
        }
    }
    eprintln!(
        "{} certificates, {systematic_count} systematic and {random_count} random mutations: {tally:?}",
        corpus.len()
    );
    assert!(
        tally.false_claims.is_empty(),
        "{} false claims accepted:\n{}",
        tally.false_claims.len(),
        tally.false_claims.join("\n\n")
    );
    assert!(tally.invalid > 1000 && tally.unreadable > 100, "{tally:?}");
}

#[test]
fn mutated_certificates_never_make_a_false_claim() {
    mutation_sweep(20, 40, 34);
}

#[test]
#[ignore = "every certificate's systematic mutations and 400 random rounds: minutes of CPU; deep tier, run by .ci/run with --ignored"]
fn many_mutated_certificates_never_make_a_false_claim() {
    mutation_sweep(400, usize::MAX, 35);
}

/// The default-mode length certificate of a hand-made case, as lines.
fn case_length_lines(id: &str) -> (Vec<Value>, Position) {
    let c = read_problems(CASES)
        .into_iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("{id}"));
    let mode = match c.extra[1].as_str() {
        "given" => DefenderHand::AsGiven,
        _ => DefenderHand::Remaining,
    };
    let pos = load_problem(&c.sfen, mode).unwrap();
    let cert = certificates_of(id, &pos)
        .into_iter()
        .find(|c| c.name.ends_with("length-4"))
        .expect("a length certificate");
    (lines_of(&cert.text), pos)
}

/// An even length L with mate within L and no mate within L − 2 would be a shortest mate
/// of L − 1: the checker once printed "shortest 2" for a mate in 1 and "shortest 4" for a
/// mate in 3 (every budget raised by one) and accepted both.
#[test]
fn an_even_length_is_rejected() {
    let (mut ls, pos) = case_length_lines("one-ply-gold");
    ls[0]["length"] = json!(2);
    match check_text(&render(&ls), Some(&pos)) {
        Err(CheckError::Invalid { node: 0, why }) => assert!(why.contains("even"), "{why}"),
        other => panic!("{other:?}"),
    }
    let (mut ls, pos) = case_length_lines("pawn-drop-not-mate");
    assert_eq!(ls[0]["length"], json!(3));
    ls[0]["length"] = json!(4);
    for v in &mut ls[1..] {
        if let Some(b) = v["budget"].as_u64() {
            v["budget"] = json!(b + 1);
        }
    }
    match check_text(&render(&ls), Some(&pos)) {
        Err(CheckError::Invalid { node: 0, why }) => assert!(why.contains("even"), "{why}"),
        other => panic!("{other:?}"),
    }
    // Raised budgets alone keep a true claim.
    ls[0]["length"] = json!(3);
    let c = check_text(&render(&ls), Some(&pos)).unwrap();
    assert_eq!((c.length, c.plies), (Some(3), Some(3)));
}

/// `plies` beyond 32 bits was read modulo 2^32 (4294967299 as 3) and accepted.
#[test]
fn plies_beyond_32_bits_are_unreadable() {
    let (mut ls, _) = case_length_lines("pawn-drop-not-mate");
    ls[0]["plies"] = json!((1u64 << 32) + 3);
    let e = check_text(&render(&ls), None).unwrap_err();
    assert_eq!(e.exit_code(), 2, "{e}");
    assert!(e.to_string().contains("plies"), "{e}");
}

/// A `nomate_root` budget near 2^32 overflowed `budget + 2` (a panic in a debug build, a
/// wrong "needs a budget" message in a release one); the failing node is the one named.
#[test]
fn a_huge_nomate_root_budget_does_not_overflow() {
    let (mut ls, _) = case_length_lines("futile-only-with-budget");
    let r = ls[0]["nomate_root"].as_u64().unwrap();
    let line = ls.iter().position(|v| v["id"] == json!(r)).unwrap();
    ls[line]["budget"] = json!(u32::MAX);
    let got = catch_unwind(AssertUnwindSafe(|| check_text(&render(&ls), None)));
    match got.expect("no panic") {
        Err(CheckError::Invalid { why, .. }) => {
            assert!(!why.contains("needs a budget"), "{why}")
        }
        other => panic!("{other:?}"),
    }
}

/// A check and the replies to it, each with the attacker node it leads to.
type Check = (Move, Vec<(Move, usize)>);

/// A "proof" that loops: the rook checks forever (連続王手の千日手), every reply of the lone
/// king answered, no position ever mated. Every node keeps its own rules (one legal
/// check; every legal reply listed; children exactly the positions after the moves);
/// only the cycle is wrong, and the checker must name it.
#[test]
fn a_perpetual_check_is_no_mate_proof() {
    let root = load_problem("8k/9/9/9/9/9/9/9/R8 b - 1", DefenderHand::AsGiven).unwrap();
    // A position's identity: its SFEN without the move number.
    let id_of = |p: &Position| {
        let s = write_sfen(p);
        s[..s.rfind(' ').unwrap()].to_string()
    };
    // Attacker positions reachable by checks and replies.
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut nodes: Vec<Position> = Vec::new();
    let mut todo = vec![root.clone()];
    index.insert(id_of(&root), 0);
    nodes.push(root.clone());
    // Per attacker node: its checks, each with the replies' attacker node indices.
    let mut succ: Vec<Vec<Check>> = vec![Vec::new()];
    while let Some(p) = todo.pop() {
        let me = index[&id_of(&p)];
        for c in p.legal_moves() {
            let mut d = p.clone();
            d.play_unchecked(c);
            if !d.in_check() {
                continue;
            }
            let mut replies = Vec::new();
            for r in d.legal_moves() {
                let mut a = d.clone();
                a.play_unchecked(r);
                let n = *index.entry(id_of(&a)).or_insert_with(|| {
                    nodes.push(a.clone());
                    succ.push(Vec::new());
                    todo.push(a.clone());
                    nodes.len() - 1
                });
                replies.push((r, n));
            }
            succ[me].push((c, replies));
        }
    }
    // The greatest fixpoint: keep the positions with a check whose replies (at least
    // one: no mate) all stay inside.
    let mut alive = vec![true; nodes.len()];
    loop {
        let mut changed = false;
        for i in 0..nodes.len() {
            if alive[i]
                && !succ[i]
                    .iter()
                    .any(|(_, rs)| !rs.is_empty() && rs.iter().all(|&(_, n)| alive[n]))
            {
                alive[i] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    assert!(alive[0], "the rook checks forever from the start");
    // The certificate of the chosen checks from the root: attacker node 2i, its defender
    // node 2i + 1.
    let mut ls = vec![
        json!({"format": "shogi-lab/tsume-certificate", "version": 1,
        "result": "mate", "root": 0, "plies": 1}),
    ];
    let mut seen = vec![false; nodes.len()];
    let mut stack = vec![0usize];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        let (c, rs) = succ[i]
            .iter()
            .find(|(_, rs)| !rs.is_empty() && rs.iter().all(|&(_, n)| alive[n]))
            .unwrap();
        let mut d = nodes[i].clone();
        d.play_unchecked(*c);
        ls.push(json!({"id": 2 * i, "sfen": write_sfen(&nodes[i]),
            "moves": [[c.to_string(), 2 * i + 1]]}));
        let replies: Vec<Value> = rs
            .iter()
            .map(|&(r, n)| json!([r.to_string(), 2 * n]))
            .collect();
        ls.push(json!({"id": 2 * i + 1, "sfen": write_sfen(&d), "moves": replies}));
        for &(_, n) in rs {
            if !std::mem::replace(&mut seen[n], true) {
                stack.push(n);
            }
        }
    }
    assert!(ls.len() > 10, "{}", ls.len());
    match check_text(&render(&ls), Some(&root)) {
        Err(CheckError::Invalid { why, .. }) => assert!(why.contains("cycle"), "{why}"),
        other => panic!("a looping proof: {other:?}"),
    }
    // Two nodes of one position covering each other are a cycle too.
    let lone = "8k/9/9/9/9/9/9/9/R8 b - 1";
    let looped = [
        json!({"format": "shogi-lab/tsume-certificate", "version": 1, "result": "mate",
            "root": 0, "plies": 0}),
        json!({"id": 0, "sfen": lone, "covered_by": 1}),
        json!({"id": 1, "sfen": lone, "covered_by": 0}),
    ];
    match check_text(&render(&looped), None) {
        Err(CheckError::Invalid { why, .. }) => assert!(why.contains("cycle"), "{why}"),
        other => panic!("a looping cover: {other:?}"),
    }
}
