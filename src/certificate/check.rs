//! The independent certificate checker (`shogi-lab check-certificate`).
//!
//! Reads the JSON lines of `specs/certificate.md`, rebuilds every node's
//! position from its SFEN (`Setup` → `Position`, tsume rules), and checks each
//! node with the rules core's naive generator (every pseudo-move played and
//! tested, [`Position::legal_moves_naive`]); a check is "the defender's king is
//! attacked" by [`Position::attackers_to`] on the rebuilt child. The graph is a
//! `petgraph` digraph of move and `covered_by` edges: a mate proof must be
//! acyclic ([`petgraph::algo::toposort`]) and its longest path (moves count 1,
//! `covered_by` 0) is its depth, which must equal the header's `plies`.

use crate::notation::sfen::{parse_setup, parse_usi_move, UsiMove};
use crate::rules::{Hand, Move, PieceKind, Position, Rules};
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::{HashMap, HashSet};

/// Why a certificate was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    /// The text is not a certificate (exit 2).
    #[error("{line}:{col}: {why}")]
    Unreadable {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What is wrong.
        why: String,
    },
    /// A node breaks a rule (exit 1).
    #[error("node {node}: {why}")]
    Invalid {
        /// The first failing node's id.
        node: usize,
        /// Which rule.
        why: String,
    },
}

impl CheckError {
    /// The exit code: 1 invalid, 2 unreadable.
    pub fn exit_code(&self) -> i32 {
        match self {
            CheckError::Unreadable { .. } => 2,
            CheckError::Invalid { .. } => 1,
        }
    }
}

/// What a valid certificate proves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// `mate` or `nomate`.
    pub result: String,
    /// For mate: the longest path (plies).
    pub plies: Option<u32>,
    /// Nodes.
    pub nodes: usize,
    /// The root position.
    pub root: Position,
}

enum Body {
    Moves(Vec<(String, usize)>),
    CoveredBy(usize),
}

struct RawNode {
    line: usize,
    sfen: String,
    body: Body,
}

fn unreadable(line: usize, col: usize, why: impl Into<String>) -> CheckError {
    CheckError::Unreadable {
        line,
        col,
        why: why.into(),
    }
}

fn invalid(node: usize, why: impl Into<String>) -> CheckError {
    CheckError::Invalid {
        node,
        why: why.into(),
    }
}

fn get_id(v: &serde_json::Value, key: &str, line: usize) -> Result<usize, CheckError> {
    v.get(key)
        .and_then(serde_json::Value::as_u64)
        .map(|x| x as usize)
        .ok_or_else(|| unreadable(line, 1, format!("`{key}` must be a node id")))
}

/// Whether the side to move's king is attacked (no king: not in check).
fn attacked(p: &Position) -> bool {
    let us = p.side_to_move();
    p.king(us)
        .is_some_and(|k| !p.attackers_to(!us, k, p.occupied()).is_empty())
}

/// `a ≥ b` kind by kind.
fn at_least(a: Hand, b: Hand) -> bool {
    PieceKind::HAND.iter().all(|&k| a.count(k) >= b.count(k))
}

/// Parses the header and node lines.
fn parse(text: &str) -> Result<(serde_json::Value, HashMap<usize, RawNode>), CheckError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (hl, htext) = lines.next().ok_or_else(|| unreadable(1, 1, "empty file"))?;
    let header: serde_json::Value =
        serde_json::from_str(htext).map_err(|e| unreadable(hl + 1, e.column(), e.to_string()))?;
    if header.get("format").and_then(|v| v.as_str()) != Some("shogi-lab/tsume-certificate") {
        return Err(unreadable(
            hl + 1,
            1,
            "format must be \"shogi-lab/tsume-certificate\"",
        ));
    }
    if header.get("version").and_then(|v| v.as_u64()) != Some(1) {
        return Err(unreadable(hl + 1, 1, "only version 1 is known"));
    }
    let mut nodes = HashMap::new();
    for (i, l) in lines {
        let line = i + 1;
        let v: serde_json::Value =
            serde_json::from_str(l).map_err(|e| unreadable(line, e.column(), e.to_string()))?;
        let id = get_id(&v, "id", line)?;
        let sfen = v
            .get("sfen")
            .and_then(|s| s.as_str())
            .ok_or_else(|| unreadable(line, 1, "`sfen` must be a string"))?
            .to_string();
        let body = match (v.get("moves"), v.get("covered_by")) {
            (Some(m), None) => {
                let arr = m
                    .as_array()
                    .ok_or_else(|| unreadable(line, 1, "`moves` must be an array"))?;
                let mut out = Vec::new();
                for e in arr {
                    match e.as_array().map(Vec::as_slice) {
                        Some([u, c]) if u.is_string() && c.is_u64() => out.push((
                            u.as_str().unwrap_or_default().to_string(),
                            c.as_u64().unwrap_or_default() as usize,
                        )),
                        _ => return Err(unreadable(line, 1, "a move is [\"<usi>\", CHILD_ID]")),
                    }
                }
                Body::Moves(out)
            }
            (None, Some(_)) => Body::CoveredBy(get_id(&v, "covered_by", line)?),
            _ => {
                return Err(unreadable(
                    line,
                    1,
                    "a node has exactly one of `moves` and `covered_by`",
                ))
            }
        };
        if nodes.insert(id, RawNode { line, sfen, body }).is_some() {
            return Err(unreadable(line, 1, format!("node {id} defined twice")));
        }
    }
    Ok((header, nodes))
}

/// Checks a certificate's text. With `problem`, the root must be that position.
///
/// # Errors
/// [`CheckError::Unreadable`] for text that is not a certificate,
/// [`CheckError::Invalid`] naming the first failing node (in id order).
pub fn check_text(text: &str, problem: Option<&Position>) -> Result<Checked, CheckError> {
    let (header, raw) = parse(text)?;
    let mate = match header.get("result").and_then(|v| v.as_str()) {
        Some("mate") => true,
        Some("nomate") => false,
        _ => return Err(unreadable(1, 1, "result must be \"mate\" or \"nomate\"")),
    };
    let root = get_id(&header, "root", 1)?;
    let plies = match header.get("plies") {
        Some(serde_json::Value::Null) | None if !mate => None,
        Some(v) if mate && v.is_u64() => v.as_u64().map(|x| x as u32),
        _ => {
            return Err(unreadable(
                1,
                1,
                "plies must be a number for mate and null for nomate",
            ))
        }
    };
    // Positions, in id order.
    let mut ids: Vec<usize> = raw.keys().copied().collect();
    ids.sort_unstable();
    let mut pos: HashMap<usize, Position> = HashMap::new();
    let attacker = match raw.get(&root).map(|n| parse_setup(&n.sfen)) {
        Some(Ok(s)) => s.side_to_move,
        _ => {
            return Err(unreadable(
                1,
                1,
                format!("root {root} is not a readable node"),
            ))
        }
    };
    for &id in &ids {
        let n = &raw[&id];
        let setup =
            parse_setup(&n.sfen).map_err(|e| unreadable(n.line, 1, format!("bad SFEN: {e}")))?;
        // The attacker may lack a king, whoever is to move; the defender must have one.
        let rules = if setup.side_to_move == attacker {
            Rules::TSUME
        } else {
            Rules::TSUME.swapped()
        };
        let p = Position::from_setup(setup, rules)
            .map_err(|e| unreadable(n.line, 1, format!("illegal position: {e}")))?;
        pos.insert(id, p);
    }
    let root_pos = pos
        .get(&root)
        .ok_or_else(|| unreadable(1, 1, format!("root {root} is not a node")))?
        .clone();
    if let Some(p) = problem {
        if *p != root_pos {
            return Err(invalid(root, "the root is not the given problem"));
        }
    }
    let mut g: DiGraph<usize, u32> = DiGraph::new();
    let gi: HashMap<usize, NodeIndex> = ids.iter().map(|&id| (id, g.add_node(id))).collect();
    for &id in &ids {
        let n = &raw[&id];
        let p = &pos[&id];
        let attacking = p.side_to_move() == attacker;
        match &n.body {
            Body::CoveredBy(m) => {
                let q = pos
                    .get(m)
                    .ok_or_else(|| invalid(id, format!("covered_by {m}: no such node")))?;
                if *m == id {
                    return Err(invalid(id, "covered by itself"));
                }
                let same_board = p.to_setup().board == q.to_setup().board;
                if !same_board || p.side_to_move() != q.side_to_move() {
                    return Err(invalid(
                        id,
                        format!("covered_by {m}: another board or side"),
                    ));
                }
                let d = !attacker;
                let (na, nd, ma, md) = (p.hand(attacker), p.hand(d), q.hand(attacker), q.hand(d));
                let ok = if mate {
                    at_least(na, ma) && at_least(md, nd)
                } else {
                    at_least(ma, na) && at_least(nd, md)
                };
                if !ok {
                    return Err(invalid(id, format!("covered_by {m}: hands do not cover")));
                }
                g.add_edge(gi[&id], gi[m], 0);
            }
            Body::Moves(moves) => {
                let legal = p.legal_moves_naive();
                let gives_check = |m: Move| {
                    let mut a = p.clone();
                    a.play_unchecked(m);
                    attacked(&a)
                };
                let mut listed: HashSet<Move> = HashSet::with_capacity(moves.len());
                for (usi, c) in moves {
                    let m = match parse_usi_move(usi) {
                        Ok(UsiMove(m)) if legal.contains(&m) => m,
                        _ => return Err(invalid(id, format!("{usi} is not legal"))),
                    };
                    if !listed.insert(m) {
                        return Err(invalid(id, format!("{usi} listed twice")));
                    }
                    let child = pos
                        .get(c)
                        .ok_or_else(|| invalid(id, format!("{usi} leads to missing node {c}")))?;
                    let mut after = p.clone();
                    after.play_unchecked(m);
                    if after != *child {
                        return Err(invalid(id, format!("{usi} does not lead to node {c}")));
                    }
                    if attacking && !attacked(child) {
                        return Err(invalid(id, format!("{usi} does not give check")));
                    }
                    g.add_edge(gi[&id], gi[c], 1);
                }
                // Every listed move is legal and listed once, so "every legal move (check)
                // is listed" is a count; the missing ones are named only on failure.
                let missing = |pred: &dyn Fn(Move) -> bool| -> Vec<String> {
                    legal
                        .iter()
                        .filter(|&&m| pred(m) && !listed.contains(&m))
                        .take(3)
                        .map(|m| m.to_string())
                        .collect()
                };
                match (mate, attacking) {
                    (true, true) if moves.len() != 1 => {
                        return Err(invalid(
                            id,
                            format!("a mate attacker node has {} moves, not 1", moves.len()),
                        ))
                    }
                    (true, false) if listed.len() != legal.len() => {
                        return Err(invalid(
                            id,
                            format!("defender replies missing: {:?}", missing(&|_| true)),
                        ));
                    }
                    (true, false) if moves.is_empty() && !attacked(p) => {
                        return Err(invalid(id, "a leaf that is not in check"))
                    }
                    (false, true)
                        if listed.len() != legal.iter().filter(|&&m| gives_check(m)).count() =>
                    {
                        return Err(invalid(
                            id,
                            format!("checks missing: {:?}", missing(&gives_check)),
                        ));
                    }
                    (false, false) if moves.len() != 1 => {
                        return Err(invalid(
                            id,
                            format!("a nomate defender node has {} replies, not 1", moves.len()),
                        ))
                    }
                    _ => {}
                }
                if !attacking && !attacked(p) {
                    return Err(invalid(id, "a defender node not in check"));
                }
            }
        }
    }
    let depth = if mate {
        let order = petgraph::algo::toposort(&g, None)
            .map_err(|c| invalid(g[c.node_id()], "a cycle in a mate proof"))?;
        let mut d = vec![0u32; g.node_count()];
        for &n in order.iter().rev() {
            d[n.index()] = g
                .edges(n)
                .map(|e| {
                    use petgraph::visit::EdgeRef;
                    d[e.target().index()] + e.weight()
                })
                .max()
                .unwrap_or(0);
        }
        let depth = d[gi[&root].index()];
        if Some(depth) != plies {
            return Err(invalid(
                root,
                format!("plies {plies:?} but the longest path is {depth}"),
            ));
        }
        Some(depth)
    } else {
        None
    };
    // Every node reachable from the root (after acyclicity: a circular argument is
    // named as a cycle even when it leaves nodes behind).
    let mut seen = vec![false; g.node_count()];
    let mut dfs = petgraph::visit::Dfs::new(&g, gi[&root]);
    while let Some(n) = dfs.next(&g) {
        seen[n.index()] = true;
    }
    if let Some(&id) = ids.iter().find(|&&id| !seen[gi[&id].index()]) {
        return Err(invalid(id, "not reachable from the root"));
    }
    Ok(Checked {
        result: if mate { "mate" } else { "nomate" }.into(),
        plies: depth,
        nodes: ids.len(),
        root: root_pos,
    })
}
