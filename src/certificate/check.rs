//! The independent certificate checker (`shogi-lab check-certificate`).
//!
//! Reads the JSON lines of `specs/certificate.md` in one pass, node by node: each
//! node's position is rebuilt from its SFEN (`Setup` → `Position`, tsume rules) and
//! checked on its own with the rules core's naive play-and-test generator
//! (`src/certificate/naive.rs`, the definition of [`Position::legal_moves_naive`]); a check is
//! "the defender's king is attacked" by [`Position::attackers_to`] after the move. Only
//! compact state is kept per node (its id and the exact identity of its position) and
//! per edge (the key the child must have), so memory is linear in the certificate
//! with no position per node. Then the cross-node rules (each child is the position
//! after its move, `covered_by` hands) and the graph: a `petgraph` digraph of move and
//! `covered_by` edges; a mate proof must be acyclic ([`petgraph::algo::toposort`]) and
//! its longest path (moves count 1, `covered_by` 0) is its depth, which must equal
//! the header's `plies`. Version 2 files add a length claim: the mate graph's depth is
//! at most `length`, and a second, bounded no-mate graph (nodes with a `budget`)
//! proves no mate within `length` − 2; `covered_by` edges never form a cycle.
//! Version 3 reads the same claim under the 無駄合 convention: defender nodes carry
//! futility (mate) and non-futility (no-mate) witnesses, applied by `futility` from
//! the rules core alone; witness edges join the graph (0 plies, acyclic in the mate
//! graph, budgets ≥ the node's in the no-mate graph).

use super::key::{key_of, Index, Key, MoveSet};
use super::line::{self, NodeLine};
use super::{futility, naive, sfen};
use crate::notation::sfen::{parse_usi_move, UsiMove};
use crate::rules::{Color, Hand, Move, PieceKind, Position, Rules};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

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
    /// Version 2: the certified shortest length L (mate within L, no mate within L − 2).
    pub length: Option<u32>,
    /// Version 3: the length is under the 無駄合 convention (futile interpositions are
    /// neither replies nor plies), not counting every reply.
    pub futile_uncounted: bool,
    /// Nodes.
    pub nodes: usize,
    /// The root position.
    pub root: Position,
}

fn unreadable(line: usize, col: usize, why: impl Into<String>) -> CheckError {
    CheckError::Unreadable {
        line,
        col,
        why: why.into(),
    }
}

fn invalid(node: u64, why: impl Into<String>) -> CheckError {
    CheckError::Invalid {
        node: node as usize,
        why: why.into(),
    }
}

fn get_id(v: &serde_json::Value, key: &str, line: usize) -> Result<u64, CheckError> {
    v.get(key)
        .and_then(serde_json::Value::as_u64)
        .ok_or_else(|| unreadable(line, 1, format!("`{key}` must be a node id")))
}

/// Whether the side to move's king is attacked (no king: not in check).
fn attacked(p: &Position) -> bool {
    let us = p.side_to_move();
    p.king(us)
        .is_some_and(|k| !p.attackers_to(!us, k, p.occupied()).is_empty())
}

/// Whether the move just played gave check: the king of the side now to move attacked.
fn gave_check(p: &Position) -> bool {
    attacked(p)
}

/// `a ≥ b` kind by kind.
fn at_least(a: Hand, b: Hand) -> bool {
    PieceKind::HAND.iter().all(|&k| a.count(k) >= b.count(k))
}

/// The header.
struct Header {
    /// 1, 2 or 3 (3: the length claim counts no 無駄合).
    version: u64,
    mate: bool,
    root: u64,
    plies: Option<u32>,
    /// Version 2: the length L and the root of the bounded no-mate graph (`None` when
    /// L < 3: nothing to disprove).
    length: Option<(u32, Option<u64>)>,
}

fn parse_header(text: &str, line: usize) -> Result<Header, CheckError> {
    let header: serde_json::Value =
        serde_json::from_str(text).map_err(|e| unreadable(line, e.column(), e.to_string()))?;
    if header.get("format").and_then(|v| v.as_str()) != Some("shogi-lab/tsume-certificate") {
        return Err(unreadable(
            line,
            1,
            "format must be \"shogi-lab/tsume-certificate\"",
        ));
    }
    let version = header.get("version").and_then(|v| v.as_u64());
    let Some(version @ 1..=3) = version else {
        return Err(unreadable(line, 1, "only versions 1, 2 and 3 are known"));
    };
    let mate = match header.get("result").and_then(|v| v.as_str()) {
        Some("mate") => true,
        Some("nomate") => false,
        _ => return Err(unreadable(line, 1, "result must be \"mate\" or \"nomate\"")),
    };
    let root = get_id(&header, "root", line)?;
    let plies = match header.get("plies") {
        Some(serde_json::Value::Null) | None if !mate => None,
        Some(v) if mate && v.is_u64() => v.as_u64().map(|x| x as u32),
        _ => {
            return Err(unreadable(
                line,
                1,
                "plies must be a number for mate and null for nomate",
            ))
        }
    };
    let length = if version >= 2 {
        let l = header
            .get("length")
            .and_then(|v| v.as_u64())
            .and_then(|l| u32::try_from(l).ok())
            .filter(|_| mate)
            .ok_or_else(|| {
                unreadable(line, 1, "versions 2 and 3 need result mate and a `length`")
            })?;
        let nomate_root = match header.get("nomate_root") {
            Some(serde_json::Value::Null) if l < 3 => None,
            Some(v) if l >= 3 && v.is_u64() => v.as_u64(),
            _ => {
                return Err(unreadable(
                    line,
                    1,
                    "nomate_root must be a node id when length >= 3, else null",
                ))
            }
        };
        Some((l, nomate_root))
    } else {
        None
    };
    Ok(Header {
        version,
        mate,
        root,
        plies,
        length,
    })
}

/// What the pass over the node lines keeps: per node its id and [`Key`], the edges
/// with the key their child must have, and the `covered_by` claims.
struct Pass {
    ids: Vec<u64>,
    keys: Vec<Key>,
    /// Per node: its budget (a node of the bounded no-mate graph) or `None`.
    budgets: Vec<Option<u32>>,
    index: Index,
    /// `(parent index, child id, the move)`: the child's key must be the parent's
    /// after the move.
    edges: Vec<(u32, u64, Move)>,
    /// `(node index, covering id)`.
    covers: Vec<(u32, u64)>,
    /// Version 3: `(node index, witness id, the key the witness must have)`.
    witnesses: Vec<(u32, u64, Key)>,
    /// The root's position and the side it moves (the attacker).
    root: Option<Position>,
}

/// One pass over the node lines, checking every node on its own (its moves against
/// the naive generator) and recording what involves other nodes. `attacker` is the
/// side that attacks; the caller learns the root's side from [`Pass::root`]. With
/// `version` ≥ 2 a node may carry a budget: it then follows the no-mate rules, and an
/// attacker node with budget 0 is a leaf; with 3, defender nodes carry the witnesses of
/// the 無駄合 convention ([`futility`]).
fn pass(
    text: &str,
    mate: bool,
    root: u64,
    attacker: Color,
    version: u64,
) -> Result<Pass, CheckError> {
    // At most one node per line: the ids the extractor writes (0, 1, 2, …) fit the
    // dense index.
    let lines = text.bytes().filter(|&b| b == b'\n').count() + 1;
    let mut out = Pass {
        ids: Vec::with_capacity(lines),
        keys: Vec::with_capacity(lines),
        budgets: Vec::with_capacity(lines),
        index: Index::new(lines),
        edges: Vec::with_capacity(lines),
        covers: Vec::new(),
        witnesses: Vec::new(),
        root: None,
    };
    let mut listed = MoveSet::new();
    let mut all = MoveSet::new();
    for (i, l) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .skip(1)
    {
        let line = i + 1;
        let n: NodeLine = line::read(l)
            .map_err(|e| unreadable(line, e.column(), format!("not a node line: {e}")))?;
        let id = n.id;
        let setup =
            sfen::read(&n.sfen).map_err(|e| unreadable(line, 1, format!("bad SFEN: {e}")))?;
        let key = key_of(&setup);
        // The attacker may lack a king, whoever is to move; the defender must have one.
        let attacking = setup.side_to_move == attacker;
        let rules = if attacking {
            Rules::TSUME
        } else {
            Rules::TSUME.swapped()
        };
        let mut p = Position::from_setup(setup, rules)
            .map_err(|e| unreadable(line, 1, format!("illegal position: {e}")))?;
        let ix = out.ids.len() as u32;
        if !out.index.insert(id, ix) {
            return Err(unreadable(line, 1, format!("node {id} defined twice")));
        }
        if n.budget.is_some() && version < 2 {
            return Err(unreadable(
                line,
                1,
                "`budget` only in version 2 and 3 files",
            ));
        }
        if (n.futile.is_some() || n.nonfutile.is_some()) && version < 3 {
            return Err(unreadable(line, 1, "witnesses only in version 3 files"));
        }
        out.ids.push(id);
        out.keys.push(key);
        out.budgets.push(n.budget);
        // A node of the bounded no-mate graph follows the no-mate rules.
        let mate = mate && n.budget.is_none();
        if id == root {
            out.root = Some(p.clone());
        }
        let (futile, nonfutile) = (n.futile, n.nonfutile);
        let moves = match (n.moves, n.covered_by) {
            (Some(m), None) => m,
            (None, Some(_)) if futile.is_some() || nonfutile.is_some() => {
                return Err(invalid(id, "a covered node has no witnesses"))
            }
            (None, Some(m)) => {
                out.covers.push((ix, m));
                continue;
            }
            _ => {
                return Err(unreadable(
                    line,
                    1,
                    "a node has exactly one of `moves` and `covered_by`",
                ))
            }
        };
        listed.clear();
        all.clear();
        // Where every legal move must be listed, they are generated once and a listed
        // move's legality is membership; elsewhere it is tested alone.
        let leaf = attacking && n.budget == Some(0);
        // A nomate attacker node must list its legal checks: those alone are generated.
        let generated = match (mate != attacking && !leaf, attacking) {
            (true, true) => Some(naive::legal_checks(&mut p)),
            (true, false) => Some(naive::legal_moves(&mut p)),
            (false, _) => None,
        };
        let generated = generated.map(|ms| {
            for m in ms {
                all.insert(m);
            }
        });
        for (usi, c) in &moves {
            let m = match parse_usi_move(usi) {
                Ok(UsiMove(m)) => m,
                Err(_) => return Err(invalid(id, format!("{usi} is not legal"))),
            };
            if !listed.insert(m) {
                return Err(invalid(id, format!("{usi} listed twice")));
            }
            // Where all legal moves were generated, a defender's move is legal iff it is
            // one of them; an attacker's move not among the checks is tested alone (and
            // then gives no check).
            let member = generated.is_some() && all.contains(m);
            let legal =
                member || ((generated.is_none() || attacking) && naive::is_legal(&mut p, m));
            if !legal {
                return Err(invalid(id, format!("{usi} is not legal")));
            }
            // A generated check gives check; any other attacker move is played to see.
            if attacking && !member {
                p.play_unchecked(m);
                let check = gave_check(&p);
                p.undo();
                if !check {
                    return Err(invalid(id, format!("{usi} does not give check")));
                }
            }
            out.edges.push((ix, *c, m));
        }
        // Version 3: a mate defender node leaves out the replies its futility witnesses
        // show futile; a no-mate defender node's interposition needs its non-futility
        // witnesses (below); no other node carries any.
        match (&futile, &nonfutile) {
            (Some(f), None) if mate && !attacking => {
                let (replies, edges) = futility::futile(&mut p, &key, f).map_err(|w| invalid(id, w))?;
                for r in replies {
                    if !all.contains(r) {
                        return Err(invalid(id, format!("futile {r} is not legal")));
                    }
                    if !listed.insert(r) {
                        return Err(invalid(id, format!("{r} listed twice")));
                    }
                }
                out.witnesses.extend(edges.into_iter().map(|(c, k)| (ix, c, k)));
            }
            (None, Some(_)) if !mate && !attacking => {}
            (None, None) => {}
            _ => {
                return Err(invalid(
                    id,
                    "futility witnesses only at mate defender nodes, non-futility ones at no-mate defender nodes",
                ))
            }
        }
        // Every listed move is legal and listed once, so "every legal move (check) is
        // listed" is a count; the missing ones are named only on failure.
        let missing = |all: &MoveSet| -> Vec<String> {
            all.moves
                .iter()
                .filter(|&&m| !listed.contains(m))
                .take(3)
                .map(|m| m.to_string())
                .collect()
        };
        match (mate, attacking) {
            (false, true) if n.budget == Some(0) && !moves.is_empty() => {
                return Err(invalid(
                    id,
                    "an attacker node with budget 0 is a leaf: it lists no moves",
                ))
            }
            (false, true) if n.budget == Some(0) => {}
            (true, true) if moves.len() != 1 => {
                return Err(invalid(
                    id,
                    format!("a mate attacker node has {} moves, not 1", moves.len()),
                ))
            }
            (true, false) => {
                if listed.len() != all.len() {
                    return Err(invalid(
                        id,
                        format!("defender replies missing: {:?}", missing(&all)),
                    ));
                }
                if moves.is_empty() && !attacked(&p) {
                    return Err(invalid(id, "a leaf that is not in check"));
                }
            }
            (false, true) if listed.len() != all.len() => {
                return Err(invalid(id, format!("checks missing: {:?}", missing(&all))))
            }
            (false, false) if moves.len() != 1 => {
                return Err(invalid(
                    id,
                    format!("a nomate defender node has {} replies, not 1", moves.len()),
                ))
            }
            _ => {}
        }
        if !attacking && !attacked(&p) {
            return Err(invalid(id, "a defender node not in check"));
        }
        if version == 3 && !mate && !attacking {
            let r = out
                .edges
                .last()
                .map(|e| e.2)
                .ok_or_else(|| invalid(id, "no reply"))?;
            let edges = futility::nonfutile(&mut p, &key, r, nonfutile.as_deref().unwrap_or(&[]))
                .map_err(|w| invalid(id, w))?;
            out.witnesses
                .extend(edges.into_iter().map(|(c, k)| (ix, c, k)));
        }
    }
    Ok(out)
}

/// Checks a certificate's text. With `problem`, the root must be that position.
///
/// # Errors
/// [`CheckError::Unreadable`] for text that is not a certificate,
/// [`CheckError::Invalid`] naming the first failing node (in id order).
pub fn check_text(text: &str, problem: Option<&Position>) -> Result<Checked, CheckError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (hl, htext) = lines.next().ok_or_else(|| unreadable(1, 1, "empty file"))?;
    let Header {
        version,
        mate,
        root,
        plies,
        length,
    } = parse_header(htext, hl + 1)?;
    // The attacker is the root's side to move; the pass needs it before it meets the
    // root, so it assumes the first node's side and runs again if the root says otherwise.
    let first = lines
        .next()
        .and_then(|(_, l)| line::read(l).ok())
        .and_then(|n| sfen::read(&n.sfen).ok())
        .map_or(Color::Sente, |s| s.side_to_move);
    let mut x = pass(text, mate, root, first, version)?;
    let root_pos = match &x.root {
        Some(r) => r.clone(),
        None => return Err(unreadable(1, 1, format!("root {root} is not a node"))),
    };
    if root_pos.side_to_move() != first {
        x = pass(text, mate, root, root_pos.side_to_move(), version)?;
    }
    if let Some(p) = problem {
        if *p != root_pos {
            return Err(invalid(root, "the root is not the given problem"));
        }
    }
    let Some(root_ix) = x.index.get(root) else {
        return Err(unreadable(1, 1, format!("root {root} is not a node")));
    };
    let root_ix = root_ix as usize;
    if x.budgets[root_ix].is_some() {
        return Err(invalid(root, "the root has a budget"));
    }
    // Version 2: the bounded no-mate graph's root is the problem, budget >= L - 2.
    let nomate_root = match length {
        Some((l, Some(r))) => {
            let Some(ri) = x.index.get(r) else {
                return Err(unreadable(1, 1, format!("nomate_root {r} is not a node")));
            };
            let ri = ri as usize;
            if x.keys[ri] != x.keys[root_ix] {
                return Err(invalid(r, "nomate_root is not the root's position"));
            }
            match x.budgets[ri] {
                Some(b) if b + 2 >= l => {}
                b => {
                    return Err(invalid(
                        r,
                        format!(
                            "nomate_root budget {b:?}, but length {l} needs at least {}",
                            l - 2
                        ),
                    ))
                }
            }
            Some(NodeIndex::new(ri))
        }
        _ => None,
    };
    let attacker = root_pos.side_to_move();
    let n = x.ids.len();
    // `g`: every edge (reachability); `m`: the mate graph's edges (acyclic, depth);
    // `c`: the covered_by edges (acyclic: a covering is no argument of its own).
    let mut g: DiGraph<(), u8, u32> = DiGraph::with_capacity(n, x.edges.len() + x.covers.len());
    let mut mg: DiGraph<(), u8, u32> = DiGraph::with_capacity(n, x.edges.len() + x.covers.len());
    let mut cg: DiGraph<(), (), u32> = DiGraph::with_capacity(n, x.covers.len());
    for _ in 0..n {
        g.add_node(());
        mg.add_node(());
        cg.add_node(());
    }
    // Cross-node rules, reported for the smallest failing node id.
    let mut first_error: Option<CheckError> = None;
    let mut fail = |e: CheckError| {
        let id = |e: &CheckError| match e {
            CheckError::Invalid { node, .. } => *node,
            CheckError::Unreadable { .. } => 0,
        };
        if first_error.as_ref().map_or(true, |f| id(&e) < id(f)) {
            first_error = Some(e);
        }
    };
    // A bounded node's successor must hold at least `budget` - 1 (saturating) plies.
    let budget_ok = |parent: Option<u32>, child: Option<u32>, step: u32| match (parent, child) {
        (None, None) => Ok(()),
        (Some(b), Some(c)) if c >= b.saturating_sub(step) => Ok(()),
        (Some(b), Some(c)) => Err(format!(
            "budget {c} < {}",
            if step == 1 {
                format!("{b} - 1")
            } else {
                b.to_string()
            }
        )),
        (None, Some(_)) => Err("a node of the bounded no-mate graph".into()),
        (Some(_), None) => Err("a node without a budget".into()),
    };
    for &(ix, c, m) in &x.edges {
        let id = x.ids[ix as usize];
        match x.index.get(c) {
            None => fail(invalid(id, format!("{m} leads to missing node {c}"))),
            Some(ci) if x.keys[ix as usize].after(m) != Some(x.keys[ci as usize]) => {
                fail(invalid(id, format!("{m} does not lead to node {c}")))
            }
            Some(ci) => {
                let (pb, cb) = (x.budgets[ix as usize], x.budgets[ci as usize]);
                if let Err(why) = budget_ok(pb, cb, 1) {
                    fail(invalid(id, format!("{m} leads to node {c}: {why}")));
                    continue;
                }
                let (a, b) = (NodeIndex::new(ix as usize), NodeIndex::new(ci as usize));
                g.add_edge(a, b, 1);
                if pb.is_none() {
                    mg.add_edge(a, b, 1);
                }
            }
        }
    }
    // Witness edges (version 3): the exact test position, a budget at least (no-mate)
    // the node's; in the mate graph an edge of 0 plies (the futility test is mate
    // within the same budget as its node).
    for &(ix, c, k) in &x.witnesses {
        let id = x.ids[ix as usize];
        match x.index.get(c) {
            None => fail(invalid(id, format!("witness {c}: no such node"))),
            Some(ci) if x.keys[ci as usize] != k => fail(invalid(
                id,
                format!("witness {c} is not the futility test's position"),
            )),
            Some(ci) => {
                let (pb, cb) = (x.budgets[ix as usize], x.budgets[ci as usize]);
                if let Err(why) = budget_ok(pb, cb, 0) {
                    fail(invalid(id, format!("witness {c}: {why}")));
                    continue;
                }
                let (a, b) = (NodeIndex::new(ix as usize), NodeIndex::new(ci as usize));
                g.add_edge(a, b, 0);
                if pb.is_none() {
                    mg.add_edge(a, b, 0);
                }
            }
        }
    }
    for &(ix, m) in &x.covers {
        let id = x.ids[ix as usize];
        let Some(mi) = x.index.get(m) else {
            fail(invalid(id, format!("covered_by {m}: no such node")));
            continue;
        };
        if m == id {
            fail(invalid(id, "covered by itself"));
            continue;
        }
        let (p, q) = (&x.keys[ix as usize], &x.keys[mi as usize]);
        if p.board != q.board || p.side != q.side {
            fail(invalid(
                id,
                format!("covered_by {m}: another board or side"),
            ));
            continue;
        }
        let (pb, qb) = (x.budgets[ix as usize], x.budgets[mi as usize]);
        if let Err(why) = budget_ok(pb, qb, 0) {
            fail(invalid(id, format!("covered_by {m}: {why}")));
            continue;
        }
        let d = !attacker;
        let (na, nd, ma, md) = (p.hand(attacker), p.hand(d), q.hand(attacker), q.hand(d));
        let ok = if mate && pb.is_none() {
            at_least(na, ma) && at_least(md, nd)
        } else {
            at_least(ma, na) && at_least(nd, md)
        };
        if !ok {
            fail(invalid(id, format!("covered_by {m}: hands do not cover")));
            continue;
        }
        let (a, b) = (NodeIndex::new(ix as usize), NodeIndex::new(mi as usize));
        g.add_edge(a, b, 0);
        cg.add_edge(a, b, ());
        if pb.is_none() {
            mg.add_edge(a, b, 0);
        }
    }
    if let Some(e) = first_error {
        return Err(e);
    }
    petgraph::algo::toposort(&cg, None)
        .map_err(|c| invalid(x.ids[c.node_id().index()], "a cycle of covered_by"))?;
    let root_ix = NodeIndex::new(root_ix);
    let depth = if mate {
        let order = petgraph::algo::toposort(&mg, None)
            .map_err(|c| invalid(x.ids[c.node_id().index()], "a cycle in a mate proof"))?;
        let mut d = vec![0u32; n];
        for &v in order.iter().rev() {
            d[v.index()] = mg
                .edges(v)
                .map(|e| d[e.target().index()] + u32::from(*e.weight()))
                .max()
                .unwrap_or(0);
        }
        let depth = d[root_ix.index()];
        if Some(depth) != plies {
            return Err(invalid(
                root,
                format!("plies {plies:?} but the longest path is {depth}"),
            ));
        }
        if let Some((l, _)) = length {
            if depth > l {
                return Err(invalid(
                    root,
                    format!("the mate graph is {depth} plies deep, more than the length {l}"),
                ));
            }
        }
        Some(depth)
    } else {
        None
    };
    // Every node reachable from the root or the bounded graph's root (after
    // acyclicity: a circular argument is named as a cycle even when it leaves nodes
    // behind).
    let mut seen = vec![false; n];
    for start in std::iter::once(root_ix).chain(nomate_root) {
        let mut dfs = petgraph::visit::Dfs::new(&g, start);
        while let Some(v) = dfs.next(&g) {
            seen[v.index()] = true;
        }
    }
    if let Some(id) = (0..n).filter(|&i| !seen[i]).map(|i| x.ids[i]).min() {
        return Err(invalid(id, "not reachable from the root"));
    }
    Ok(Checked {
        result: if mate { "mate" } else { "nomate" }.into(),
        plies: depth,
        length: length.map(|(l, _)| l),
        futile_uncounted: version == 3,
        nodes: n,
        root: root_pos,
    })
}
