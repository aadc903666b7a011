//! The pass over the node lines: each node read, its position rebuilt from its SFEN,
//! checked on its own ([`super::node`]), and only compact state kept (its id, [`Key`]
//! and budget; the edges, `covered_by` claims and witnesses that involve other nodes).

use super::error::{unreadable, CheckError};
use super::header::Header;
use super::node::{self, Listed, Node};
use crate::certificate::key::{key_of, Index, Key};
use crate::certificate::line::{self, NodeLine};
use crate::certificate::sfen;
use crate::rules::{Color, Move, Position, Rules};

/// What the pass over the node lines keeps: per node its id and [`Key`], the edges
/// with the key their child must have, and the `covered_by` claims.
pub(super) struct Pass {
    pub(super) ids: Vec<u64>,
    pub(super) keys: Vec<Key>,
    /// Per node: its budget (a node of the bounded no-mate graph) or `None`.
    pub(super) budgets: Vec<Option<u32>>,
    pub(super) index: Index,
    /// `(parent index, child id, the move)`: the child's key must be the parent's
    /// after the move.
    pub(super) edges: Vec<(u32, u64, Move)>,
    /// `(node index, covering id)`.
    pub(super) covers: Vec<(u32, u64)>,
    /// Version 3: `(node index, witness id, the key the witness must have)`.
    pub(super) witnesses: Vec<(u32, u64, Key)>,
    /// The root's position and the side it moves (the attacker).
    pub(super) root: Option<Position>,
}

/// The pass over the node lines under header `h` with `attacker` (the root's side to
/// move, read off the root's line by the caller), and the root's position.
///
/// # Errors
/// The first node that is unreadable or breaks a rule of its own; unreadable when the
/// root is no node.
pub(super) fn read_nodes(
    text: &str,
    h: &Header,
    attacker: Color,
) -> Result<(Pass, Position), CheckError> {
    let x = pass(text, h.mate, h.root, attacker, h.version)?;
    let root_pos = match &x.root {
        Some(r) => r.clone(),
        None => return Err(unreadable(1, 1, format!("root {} is not a node", h.root))),
    };
    Ok((x, root_pos))
}

/// One pass over the node lines, checking every node on its own (its moves against
/// the naive generator) and recording what involves other nodes. `attacker` is the
/// side that attacks; the caller learns the root's side from [`Pass::root`]. With
/// `version` ≥ 2 a node may carry a budget: it then follows the no-mate rules, and an
/// attacker node with budget 0 is a leaf; with 3, defender nodes carry the witnesses of
/// the 無駄合 convention ([`crate::certificate::futility`]); with 4, an attacker node
/// with budget 1 or 2 may be a `by_checker` leaf ([`crate::certificate::shallow`]).
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
    let mut listed = Listed::new();
    for (i, l) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .skip(1)
    {
        let line = i + 1;
        let n: NodeLine = line::read(l)
            .map_err(|e| unreadable(line, e.column(), format!("not a node line: {e}")))?;
        let (key, mut p, attacking) = position(&n, line, attacker)?;
        let ix = out.register(&n, key, line, version)?;
        if n.id == root {
            out.root = Some(p.clone());
        }
        let node = Node {
            id: n.id,
            ix,
            key,
            attacking,
            // A node of the bounded no-mate graph follows the no-mate rules.
            mate: mate && n.budget.is_none(),
            budget: n.budget,
            by_checker: n.by_checker,
            moves: n.moves,
            covered_by: n.covered_by,
            futile: n.futile,
            nonfutile: n.nonfutile,
        };
        node::check(node, &mut p, line, version, &mut listed, &mut out)?;
    }
    Ok(out)
}

/// Node line `n`'s key and position (on line `line`), and whether its side to move is
/// `attacker`. The attacker may lack a king, whoever is to move; the defender must
/// have one. Inlined: the position is built where it stays (no copy per node).
#[inline(always)]
fn position(
    n: &NodeLine,
    line: usize,
    attacker: Color,
) -> Result<(Key, Position, bool), CheckError> {
    let setup = sfen::read(&n.sfen).map_err(|e| unreadable(line, 1, format!("bad SFEN: {e}")))?;
    let key = key_of(&setup);
    let attacking = setup.side_to_move == attacker;
    let rules = if attacking {
        Rules::TSUME
    } else {
        Rules::TSUME.swapped()
    };
    let p = Position::from_setup(setup, rules)
        .map_err(|e| unreadable(line, 1, format!("illegal position: {e}")))?;
    Ok((key, p, attacking))
}

impl Pass {
    /// Records node line `n` (on line `line`) with its key; its index.
    fn register(
        &mut self,
        n: &NodeLine,
        key: Key,
        line: usize,
        version: u64,
    ) -> Result<u32, CheckError> {
        let id = n.id;
        let ix = self.ids.len() as u32;
        if !self.index.insert(id, ix) {
            return Err(unreadable(line, 1, format!("node {id} defined twice")));
        }
        if n.budget.is_some() && version < 2 {
            return Err(unreadable(line, 1, "`budget` only in version 2 to 4 files"));
        }
        if (n.futile.is_some() || n.nonfutile.is_some()) && version < 3 {
            return Err(unreadable(
                line,
                1,
                "witnesses only in version 3 and 4 files",
            ));
        }
        if n.by_checker && version < 4 {
            return Err(unreadable(line, 1, "`by_checker` only in version 4 files"));
        }
        self.ids.push(id);
        self.keys.push(key);
        self.budgets.push(n.budget);
        Ok(ix)
    }
}
