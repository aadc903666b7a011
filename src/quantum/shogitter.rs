//! Import of shogitter's JSON serialization of a quantum shogi game (rule 108),
//! as in `specs/quantum/room-9168.json`: each `kifu` entry has `move` (a diff),
//! `disp` (the move text) and `data.quantum` (the state after the move, per
//! original side: `xys` where each listed piece is, `d.kinds` its kinds,
//! `d.fulls` the used-up kinds).

use super::game::{QMove, QuantumPosition};
use super::{Kind, KindSet};
use crate::rules::{Color, Square};
use serde_json::Value;

/// The recorded quantum state of one side after a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideState {
    /// Location of each listed piece: `(x, y)` or `mochiD-i`, shogitter's text.
    pub xys: Vec<String>,
    /// Kinds of each listed piece.
    pub kinds: Vec<KindSet>,
    /// Used-up kinds.
    pub fulls: KindSet,
}

/// One recorded move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The move (drops get their hand entry from the recorded states).
    pub mv: QMove,
    /// shogitter's text.
    pub disp: String,
    /// The state after the move, Sente's world then Gote's.
    pub state: [SideState; 2],
}

/// A malformed or inconsistent shogitter record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// Not JSON.
    #[error("not JSON: {0}")]
    Json(String),
    /// A field is missing or has the wrong shape.
    #[error("move {ply}: {what}")]
    Shape {
        /// 1-based ply (0 = the record itself).
        ply: usize,
        /// What is wrong.
        what: String,
    },
}

fn shape(ply: usize, what: impl Into<String>) -> ImportError {
    ImportError::Shape {
        ply,
        what: what.into(),
    }
}

/// shogitter's kind names.
pub fn kind_from_name(s: &str) -> Option<Kind> {
    Some(match s {
        "Ou" => Kind::King,
        "Hi" => Kind::Rook,
        "Ka" => Kind::Bishop,
        "Ki" => Kind::Gold,
        "Gi" => Kind::Silver,
        "Ke" => Kind::Knight,
        "Ky" => Kind::Lance,
        "Fu" => Kind::Pawn,
        _ => return None,
    })
}

fn kinds_of(v: &Value, ply: usize) -> Result<KindSet, ImportError> {
    let arr = v.as_array().ok_or_else(|| shape(ply, "kinds not a list"))?;
    let mut s = KindSet::EMPTY;
    for k in arr {
        let name = k.as_str().unwrap_or("");
        let kind = kind_from_name(name).ok_or_else(|| shape(ply, format!("bad kind {k}")))?;
        s = s.or(KindSet::single(kind));
    }
    Ok(s)
}

fn side_state(v: &Value, ply: usize) -> Result<SideState, ImportError> {
    let xys = v["xys"]
        .as_array()
        .ok_or_else(|| shape(ply, "xys missing"))?
        .iter()
        .map(|x| x.as_str().map(str::to_string))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| shape(ply, "xys entry not a string"))?;
    let kinds = v["d"]["kinds"]
        .as_array()
        .ok_or_else(|| shape(ply, "kinds missing"))?
        .iter()
        .map(|k| kinds_of(k, ply))
        .collect::<Result<Vec<_>, _>>()?;
    if kinds.len() != xys.len() {
        return Err(shape(ply, "xys and kinds differ in length"));
    }
    Ok(SideState {
        xys,
        kinds,
        fulls: kinds_of(&v["d"]["fulls"], ply)?,
    })
}

fn square(x: &Value, y: &Value) -> Option<Square> {
    Square::new(x.as_u64()?.try_into().ok()?, y.as_u64()?.try_into().ok()?)
}

/// Parses a shogitter record (`{"record": {...}}` or the record itself).
///
/// # Errors
/// [`ImportError`] on bad JSON or an unexpected shape.
pub fn parse(text: &str) -> Result<Vec<Entry>, ImportError> {
    let root: Value = serde_json::from_str(text).map_err(|e| ImportError::Json(e.to_string()))?;
    let rec = if root.get("record").is_some() {
        &root["record"]
    } else {
        &root
    };
    let kifu = rec["kifu"]
        .as_array()
        .ok_or_else(|| shape(0, "record.kifu missing"))?;
    let mut out: Vec<Entry> = Vec::with_capacity(kifu.len());
    for (i, k) in kifu.iter().enumerate() {
        let ply = i + 1;
        let q = k["data"]["quantum"]
            .as_array()
            .filter(|a| a.len() == 2)
            .ok_or_else(|| shape(ply, "data.quantum must hold two sides"))?;
        let state = [side_state(&q[0], ply)?, side_state(&q[1], ply)?];
        let m = k["move"]
            .as_array()
            .ok_or_else(|| shape(ply, "move missing"))?;
        let side = match m.first().and_then(Value::as_u64) {
            Some(0) => Color::Sente,
            Some(1) => Color::Gote,
            _ => return Err(shape(ply, "move side")),
        };
        let dest = m.get(1).ok_or_else(|| shape(ply, "move destination"))?;
        let to = square(&dest[0], &dest[1]).ok_or_else(|| shape(ply, "bad destination"))?;
        let src = m.get(2).ok_or_else(|| shape(ply, "move source"))?;
        let mv = if src[0].as_i64() == Some(-1) {
            // A drop: the record does not name the hand entry; the piece listed at `to`
            // after the move was, before it, at `mochi{side}-{i}`.
            let at = format!("({}, {})", to.file(), to.rank());
            let (dir, j) = (0..2)
                .find_map(|d| state[d].xys.iter().position(|x| *x == at).map(|j| (d, j)))
                .ok_or_else(|| shape(ply, format!("dropped piece not listed at {at}")))?;
            let prev = out
                .last()
                .and_then(|e| e.state[dir].xys.get(j))
                .ok_or_else(|| shape(ply, "dropped piece has no earlier state"))?;
            let prefix = format!("mochi{}-", side.index());
            let idx = prev
                .strip_prefix(&prefix)
                .and_then(|n| n.parse::<u8>().ok())
                .ok_or_else(|| shape(ply, format!("dropped piece was at {prev}, not in hand")))?;
            QMove::Drop {
                hand_index: idx,
                to,
            }
        } else {
            let from = square(&src[0], &src[1]).ok_or_else(|| shape(ply, "bad source"))?;
            let before = src[2][1].as_str().unwrap_or("");
            let after = dest[3][1].as_str().unwrap_or("");
            QMove::Board {
                from,
                to,
                promote: before == "ff" && after == "fg",
            }
        };
        out.push(Entry {
            mv,
            disp: k["disp"].as_str().unwrap_or("").to_string(),
            state,
        });
    }
    Ok(out)
}

/// shogitter's location text of piece `id` in `p`: `(x, y)` or `mochiD-i`.
pub fn location(p: &QuantumPosition, id: u8) -> String {
    let i = p.piece(id);
    match i.square {
        Some(sq) => format!("({}, {})", sq.file(), sq.rank()),
        None => {
            let pos = p.hand(i.owner).iter().position(|&x| x == id).unwrap_or(0);
            format!("mochi{}-{pos}", i.owner.index())
        }
    }
}

/// Compares `p`'s quantum state with a recorded one; `Err` describes the first difference.
///
/// # Errors
/// A message naming the side, piece and field that differ.
pub fn check_state(p: &QuantumPosition, rec: &[SideState; 2]) -> Result<(), String> {
    for c in Color::ALL {
        let r = &rec[c.index()];
        let n = p.observed(c);
        if n != r.xys.len() {
            return Err(format!(
                "{c:?}: {n} observed pieces, record lists {}",
                r.xys.len()
            ));
        }
        let w = p.world(c);
        for j in 0..n {
            let id = p
                .piece_of_slot(c, j)
                .ok_or_else(|| format!("{c:?}: slot {j} has no piece"))?;
            let loc = location(p, id);
            if loc != r.xys[j] {
                return Err(format!("{c:?} slot {j}: at {loc}, record {}", r.xys[j]));
            }
            if w.world.0[j] != r.kinds[j] {
                return Err(format!(
                    "{c:?} slot {j} ({loc}): kinds {}, record {}",
                    w.world.0[j], r.kinds[j]
                ));
            }
        }
        if w.used_up != r.fulls {
            return Err(format!("{c:?}: used up {}, record {}", w.used_up, r.fulls));
        }
    }
    Ok(())
}
