//! Import of shogitter's JSON serialization of a quantum shogi game (rule 108),
//! as in `specs/quantum/room-9168.json`: each `kifu` entry has `move` (a diff:
//! the mover, then `[x, y, before, after]` per changed square and
//! `[amount, player, "ff"]` per hand change; shogitter `Kifu.ts`, `KifuMove`),
//! `disp` (the move text) and `data.quantum` (the state after the move, per
//! original side: `xys` where each listed piece is, `d.kinds` its kinds,
//! `d.fulls` the used-up kinds). A finished game ends with a result entry whose
//! `move` is `"_0"`, `"_1"` (that side lost) or `"_9"` (a draw). The record's
//! `ban`, `players[i].mochigoma` and `teban` are the position after the last entry.
//!
//! [`parse`] checks the shape; [`check_move`], [`check_state`], [`check_end`] and
//! [`check_final`] compare every field with the game replayed by our engine.

use super::game::{EngineKind, QMove, QuantumPosition, Variant};
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
    /// The side that moved (`move[0]`).
    pub player: Color,
    /// The move (drops get their hand entry from the recorded states).
    pub mv: QMove,
    /// The recorded diff (`move`), compared with [`move_diff`] by [`check_move`].
    pub diff: Value,
    /// shogitter's text.
    pub disp: String,
    /// The state after the move, Sente's world then Gote's.
    pub state: [SideState; 2],
}

/// The result entry of a finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct End {
    /// The side that lost; `None` for a draw (`_9`).
    pub loser: Option<Color>,
    /// shogitter's text, e.g. `☖勝ち`, `☗投了`, `千日手`.
    pub disp: String,
    /// The state it records, if any (the same as after the last move).
    pub state: Option<[SideState; 2]>,
}

/// The position a record was saved in (after its last entry).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    /// `ban[x - 1][y - 1]`: `None` for an empty square, else `(owner, promoted)`.
    pub board: Vec<Option<(Color, bool)>>,
    /// Pieces in each player's hand (`players[i].mochigoma.ff`), if recorded
    /// (shape-checked only: see [`check_final`]).
    pub hands: Option<[u64; 2]>,
    /// The side to move (`teban`), if recorded.
    pub teban: Option<Color>,
}

/// A parsed shogitter record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The moves.
    pub entries: Vec<Entry>,
    /// The result entry, if the game is finished.
    pub end: Option<End>,
    /// The saved position (`ban`, `players`, `teban`), if the record has a `ban`.
    pub saved: Option<Saved>,
}

/// How a recorded result reads, after [`check_end`] agreed with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// A king was captured (our engine found it too).
    KingCapture {
        /// The winner.
        winner: Color,
    },
    /// 千日手 (our engine found it too).
    Repetition,
    /// A resignation (投了) or another loss our engine cannot see.
    Resignation {
        /// The winner.
        winner: Color,
    },
    /// A draw our engine cannot see (引き分け by agreement).
    Agreement,
}

/// A malformed or inconsistent shogitter record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// Not JSON.
    #[error("not JSON: {what} at line {line} column {column}")]
    Json {
        /// serde_json's reason.
        what: String,
        /// 1-based line.
        line: usize,
        /// 1-based column (serde_json's: 0 before the line's first character).
        column: usize,
    },
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

fn player(v: &Value) -> Option<Color> {
    match v.as_u64()? {
        0 => Some(Color::Sente),
        1 => Some(Color::Gote),
        _ => None,
    }
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

fn state_of(k: &Value, ply: usize) -> Result<[SideState; 2], ImportError> {
    let q = k["data"]["quantum"]
        .as_array()
        .filter(|a| a.len() == 2)
        .ok_or_else(|| shape(ply, "data.quantum must hold two sides"))?;
    Ok([side_state(&q[0], ply)?, side_state(&q[1], ply)?])
}

fn saved(rec: &Value) -> Result<Option<Saved>, ImportError> {
    let Some(ban) = rec.get("ban") else {
        return Ok(None);
    };
    let files = ban
        .as_array()
        .filter(|a| a.len() == 9)
        .ok_or_else(|| shape(0, "ban must be 9 files"))?;
    let mut board = Vec::with_capacity(81);
    for (x, file) in files.iter().enumerate() {
        let file = file
            .as_array()
            .filter(|a| a.len() == 9)
            .ok_or_else(|| shape(0, format!("ban[{x}] must be 9 squares")))?;
        for (y, sq) in file.iter().enumerate() {
            let bad = || {
                shape(
                    0,
                    format!("ban[{x}][{y}]: expected [] or [player, \"ff\"|\"fg\"]"),
                )
            };
            let sq = sq.as_array().ok_or_else(bad)?;
            board.push(match sq.as_slice() {
                [] => None,
                [owner, kind] => {
                    let owner = player(owner).ok_or_else(bad)?;
                    match kind.as_str() {
                        Some("ff") => Some((owner, false)),
                        Some("fg") => Some((owner, true)),
                        _ => return Err(bad()),
                    }
                }
                _ => return Err(bad()),
            });
        }
    }
    let hands = match rec.get("players") {
        None => None,
        Some(ps) => {
            let ps = ps
                .as_array()
                .filter(|a| a.len() == 2)
                .ok_or_else(|| shape(0, "players must hold two players"))?;
            let mut hands = [0u64; 2];
            for (i, p) in ps.iter().enumerate() {
                let m = p["mochigoma"]
                    .as_object()
                    .ok_or_else(|| shape(0, format!("players[{i}].mochigoma missing")))?;
                for (kind, n) in m {
                    let n = n.as_u64().filter(|_| kind == "ff").ok_or_else(|| {
                        shape(
                            0,
                            format!(
                                "players[{i}].mochigoma: {kind:?}: {n}, expected \"ff\": count"
                            ),
                        )
                    })?;
                    hands[i] = n;
                }
            }
            Some(hands)
        }
    };
    let teban = match rec.get("teban") {
        None => None,
        Some(t) => Some(player(t).ok_or_else(|| shape(0, format!("teban {t}, expected 0 or 1")))?),
    };
    Ok(Some(Saved {
        board,
        hands,
        teban,
    }))
}

/// Parses a shogitter record (`{"record": {...}}` or the record itself).
///
/// # Errors
/// [`ImportError`] on bad JSON or an unexpected shape.
pub fn parse(text: &str) -> Result<Game, ImportError> {
    let root: Value = serde_json::from_str(text).map_err(|e| {
        let full = e.to_string();
        let place = format!(" at line {} column {}", e.line(), e.column());
        ImportError::Json {
            what: full.strip_suffix(&place).unwrap_or(&full).to_string(),
            line: e.line(),
            column: e.column(),
        }
    })?;
    let rec = if root.get("record").is_some() {
        &root["record"]
    } else {
        &root
    };
    if !rec.is_object() {
        return Err(shape(
            0,
            "not a shogitter record (expected an object with kifu)",
        ));
    }
    if let Some(rule) = rec.get("ruleid") {
        if rule.as_u64() != Some(108) {
            return Err(shape(
                0,
                format!("ruleid {rule}: only 108 (量子将棋) is supported"),
            ));
        }
    }
    let kifu = rec["kifu"]
        .as_array()
        .ok_or_else(|| shape(0, "record.kifu missing"))?;
    let mut out: Vec<Entry> = Vec::with_capacity(kifu.len());
    let mut end = None;
    for (i, k) in kifu.iter().enumerate() {
        let ply = i + 1;
        if end.is_some() {
            return Err(shape(ply, "entry after the result entry"));
        }
        if let Some(r) = k["move"].as_str() {
            let loser = match r {
                "_0" => Some(Color::Sente),
                "_1" => Some(Color::Gote),
                "_9" => None,
                _ => {
                    return Err(shape(
                        ply,
                        format!("result {r:?}, expected \"_0\", \"_1\" or \"_9\""),
                    ))
                }
            };
            let state = if k["data"].get("quantum").is_some() {
                Some(state_of(k, ply)?)
            } else {
                None
            };
            end = Some(End {
                loser,
                disp: k["disp"]
                    .as_str()
                    .ok_or_else(|| shape(ply, "result entry without disp"))?
                    .to_string(),
                state,
            });
            continue;
        }
        let state = state_of(k, ply)?;
        let m = k["move"]
            .as_array()
            .ok_or_else(|| shape(ply, "move missing"))?;
        let side = m
            .first()
            .and_then(player)
            .ok_or_else(|| shape(ply, "move side"))?;
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
            player: side,
            mv,
            diff: k["move"].clone(),
            disp: k["disp"]
                .as_str()
                .ok_or_else(|| shape(ply, "disp missing"))?
                .to_string(),
            state,
        });
    }
    Ok(Game {
        entries: out,
        end,
        saved: saved(rec)?,
    })
}

fn koma(owner: Color, promoted: bool) -> Value {
    serde_json::json!([owner.index(), if promoted { "fg" } else { "ff" }])
}

/// shogitter's diff (`move`) of `mv` played in `p`: the mover; the destination
/// `[x, y, before, after]`; for a board move the source `[x, y, before, []]` and,
/// for a capture, `[1, mover, "ff"]` (the piece goes to the hand unpromoted); for a
/// drop `[-1, mover, "ff"]`. `None` if `mv` does not fit the board.
pub fn move_diff(p: &QuantumPosition, mv: QMove) -> Option<Value> {
    let me = p.side_to_move();
    let at = |sq: Square| p.piece_at(sq).map(|id| p.piece(id));
    let sq_json = |sq: Square| (sq.file(), sq.rank());
    match mv {
        QMove::Board { from, to, promote } => {
            let mover = at(from).filter(|i| i.owner == me)?;
            let captured = at(to);
            let before_to = captured.map_or(serde_json::json!([]), |c| koma(c.owner, c.promoted));
            let (tx, ty) = sq_json(to);
            let (fx, fy) = sq_json(from);
            let mut d = vec![
                serde_json::json!(me.index()),
                serde_json::json!([tx, ty, before_to, koma(me, mover.promoted || promote)]),
                serde_json::json!([fx, fy, koma(me, mover.promoted), []]),
            ];
            if captured.is_some() {
                d.push(serde_json::json!([1, me.index(), "ff"]));
            }
            Some(Value::Array(d))
        }
        QMove::Drop { to, .. } => {
            if at(to).is_some() {
                return None;
            }
            let (tx, ty) = sq_json(to);
            Some(serde_json::json!([
                me.index(),
                [tx, ty, [], koma(me, false)],
                [-1, me.index(), "ff"]
            ]))
        }
    }
}

/// Checks a recorded move against `p`, the position before it: the mover is the side
/// to move and the recorded diff (squares' owners and kinds, the hand change) is
/// exactly [`move_diff`].
///
/// # Errors
/// A message naming the field that differs.
pub fn check_move(p: &QuantumPosition, e: &Entry) -> Result<(), String> {
    if e.player != p.side_to_move() {
        return Err(format!(
            "move by player {}, but {} is to move",
            e.player.index(),
            p.side_to_move().index()
        ));
    }
    let want = move_diff(p, e.mv).ok_or_else(|| format!("move {} does not fit the board", e.mv))?;
    if want != e.diff {
        return Err(format!("move field {}, the board gives {want}", e.diff));
    }
    Ok(())
}

/// Checks a result entry against the replayed game `p` (after the last move): a king
/// capture must be recorded as the capturer's win (`_<loser>`, `☗勝ち`/`☖勝ち`), a 千日手
/// as `_9` `千日手`; while our game is not over, only a resignation (`_<loser>`,
/// `☗投了`/`☖投了`) or an agreed draw (`_9` `引き分け`) can end it (shogitter `Shogi.gameEnd`).
///
/// # Errors
/// A message saying how the record and the game differ.
pub fn check_end(p: &QuantumPosition, end: &End) -> Result<Ending, String> {
    use super::game::GameResult;
    let mark = |c: Color| if c == Color::Sente { "☗" } else { "☖" };
    if let Some(st) = &end.state {
        check_state(p, st).map_err(|w| format!("result entry: {w}"))?;
    }
    match (p.result(), end.loser) {
        (Some(GameResult::KingCapture { winner }), Some(l))
            if l == !winner && end.disp == format!("{}勝ち", mark(winner)) =>
        {
            Ok(Ending::KingCapture { winner })
        }
        (Some(GameResult::Repetition), None) if end.disp == "千日手" => Ok(Ending::Repetition),
        (Some(r), _) => Err(format!(
            "result entry {} ({}), but the game ended with {r:?}",
            end.loser.map_or("_9".into(), |l| format!("_{}", l.index())),
            end.disp
        )),
        (None, Some(l)) if end.disp == format!("{}投了", mark(l)) => {
            Ok(Ending::Resignation { winner: !l })
        }
        (None, None) if end.disp == "引き分け" => Ok(Ending::Agreement),
        (None, _) => Err(format!(
            "result entry {} ({}), but the game is not over (only 投了 or 引き分け can end it here)",
            end.loser.map_or("_9".into(), |l| format!("_{}", l.index())),
            end.disp
        )),
    }
}

/// Checks the saved position (`ban`, and `teban` unless the game is `finished`:
/// shogitter turns it on a resignation) against `p`, the game after the record's
/// last entry. `players[i].mochigoma` is checked for shape by [`parse`] only.
///
/// # Errors
/// A message naming the first square or field that differs.
pub fn check_final(p: &QuantumPosition, saved: &Saved, finished: bool) -> Result<(), String> {
    for x in 1..=9u8 {
        for y in 1..=9u8 {
            let sq = Square::new(x, y).expect("on the board");
            let ours = p.piece_at(sq).map(|id| {
                let i = p.piece(id);
                (i.owner, i.promoted)
            });
            let rec = saved.board[usize::from(x - 1) * 9 + usize::from(y - 1)];
            if ours != rec {
                let show = |v: Option<(Color, bool)>| {
                    v.map_or("[]".to_string(), |(c, pr)| koma(c, pr).to_string())
                };
                return Err(format!(
                    "ban at ({x}, {y}): {}, the game gives {}",
                    show(rec),
                    show(ours)
                ));
            }
        }
    }
    // `saved.hands` is not compared: in Room 9168 shogitter saved 16 pieces for Gote's
    // hand although its own move diffs (and `data.quantum`) give 15.
    if let Some(t) = saved.teban {
        if t != p.side_to_move() && !finished {
            return Err(format!(
                "teban {}, but {} is to move",
                t.index(),
                p.side_to_move().index()
            ));
        }
    }
    Ok(())
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

/// Why a parsed record does not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply} {disp}: {what}")]
pub struct ReplayError {
    /// 1-based ply (the result entry is one past the last move; 0 = the saved position).
    pub ply: usize,
    /// The entry's `disp`.
    pub disp: String,
    /// What differs.
    pub what: String,
}

/// Replays the first `limit` moves of `game` with `engine`, checking every field:
/// move text, diff ([`check_move`]), legality, state ([`check_state`]); when the whole
/// record is replayed, also the result entry ([`check_end`]) and the saved position
/// ([`check_final`]). `each(ply, before, entry, after)` sees every move.
///
/// # Errors
/// [`ReplayError`] at the first difference.
pub fn replay(
    game: &Game,
    engine: EngineKind,
    limit: usize,
    mut each: impl FnMut(usize, &QuantumPosition, &Entry, &QuantumPosition),
) -> Result<(QuantumPosition, Option<Ending>), ReplayError> {
    let mut p = QuantumPosition::new(engine, Variant::Standard);
    for (i, e) in game.entries.iter().take(limit).enumerate() {
        let ply = i + 1;
        let bad = |what: String| ReplayError {
            ply,
            disp: e.disp.clone(),
            what,
        };
        let ours = p.move_text(e.mv);
        if ours != e.disp {
            return Err(bad(format!("move text: the move is {ours}")));
        }
        check_move(&p, e).map_err(bad)?;
        let before = p.clone();
        p.play(e.mv).map_err(|err| bad(err.to_string()))?;
        check_state(&p, &e.state).map_err(bad)?;
        each(ply, &before, e, &p);
    }
    let mut ending = None;
    if limit >= game.entries.len() {
        if let Some(end) = &game.end {
            ending = Some(check_end(&p, end).map_err(|what| ReplayError {
                ply: game.entries.len() + 1,
                disp: end.disp.clone(),
                what,
            })?);
        }
        if let Some(saved) = &game.saved {
            check_final(&p, saved, game.end.is_some()).map_err(|what| ReplayError {
                ply: 0,
                disp: "(saved position)".into(),
                what,
            })?;
        }
    }
    Ok((p, ending))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantum::game::GameResult;

    const ROOM: &str = include_str!("../../specs/quantum/room-9168.json");

    fn replays(v: &Value) -> Result<(QuantumPosition, Option<Ending>), String> {
        let game = parse(&v.to_string()).map_err(|e| e.to_string())?;
        replay(&game, EngineKind::Counting, usize::MAX, |_, _, _, _| {}).map_err(|e| e.to_string())
    }

    /// Every leaf of `v` under `path`, as JSON pointers; empty arrays count as leaves.
    fn leaves(v: &Value, path: String, out: &mut Vec<String>) {
        match v {
            Value::Array(a) if !a.is_empty() => {
                for (i, x) in a.iter().enumerate() {
                    leaves(x, format!("{path}/{i}"), out);
                }
            }
            Value::Object(o) => {
                for (k, x) in o {
                    leaves(x, format!("{path}/{k}"), out);
                }
            }
            _ => out.push(path),
        }
    }

    fn mutated(leaf: &Value) -> Value {
        match leaf {
            Value::Number(n) => match n.as_i64() {
                Some(i) => serde_json::json!(i + 1),
                None => serde_json::json!(0),
            },
            Value::String(_) => serde_json::json!("zz"),
            Value::Array(_) => serde_json::json!([0, "ff"]),
            _ => serde_json::json!(null),
        }
    }

    #[test]
    fn room_9168_replays_with_every_field_checked() {
        let v: Value = serde_json::from_str(ROOM).unwrap();
        let (p, ending) = replays(&v).unwrap();
        assert_eq!((p.ply(), p.result(), ending), (59, None, None));
    }

    #[test]
    fn every_single_field_change_is_rejected() {
        let v: Value = serde_json::from_str(ROOM).unwrap();
        let mut paths = Vec::new();
        for k in ["ban", "teban", "ruleid"] {
            leaves(&v["record"][k], format!("/record/{k}"), &mut paths);
        }
        // The moves, texts and states of a sample of plies (all of them in the deep tier
        // would be the same code; every ply's `move` is checked below).
        for ply in [0usize, 1, 2, 10, 29, 40, 58] {
            for k in ["move", "disp", "data"] {
                let base = format!("/record/kifu/{ply}/{k}");
                leaves(v.pointer(&base).unwrap(), base, &mut paths);
            }
        }
        for ply in 0..59 {
            let base = format!("/record/kifu/{ply}/move");
            leaves(v.pointer(&base).unwrap(), base, &mut paths);
        }
        paths.sort();
        paths.dedup();
        assert!(paths.len() > 400, "{}", paths.len());
        for path in &paths {
            let mut w = v.clone();
            let leaf = w.pointer_mut(path).unwrap();
            *leaf = mutated(leaf);
            assert!(replays(&w).is_err(), "{path} changed, still accepted");
        }
    }

    fn names(k: KindSet) -> Value {
        let name = |k: Kind| match k {
            Kind::King => "Ou",
            Kind::Rook => "Hi",
            Kind::Bishop => "Ka",
            Kind::Gold => "Ki",
            Kind::Silver => "Gi",
            Kind::Knight => "Ke",
            Kind::Lance => "Ky",
            Kind::Pawn => "Fu",
        };
        Value::Array(k.iter().map(|k| serde_json::json!(name(k))).collect())
    }

    /// `data.quantum` of `p`, as shogitter writes it.
    fn quantum(p: &QuantumPosition) -> Value {
        let side = |c: Color| {
            let w = p.world(c);
            let n = p.observed(c);
            let xys: Vec<String> = (0..n)
                .map(|j| location(p, p.piece_of_slot(c, j).unwrap()))
                .collect();
            let kinds: Vec<Value> = (0..n).map(|j| names(w.world.0[j])).collect();
            serde_json::json!({"xys": xys, "d": {"fulls": names(w.used_up), "kinds": kinds}})
        };
        serde_json::json!([side(Color::Sente), side(Color::Gote)])
    }

    /// Room 9168 followed by `mv` and the result entry `(result, disp)`.
    fn finished(mv: QMove, result: &str, disp: &str) -> (Value, QuantumPosition) {
        let mut v: Value = serde_json::from_str(ROOM).unwrap();
        let game = parse(ROOM).unwrap();
        let (mut p, _) = replay(&game, EngineKind::Counting, usize::MAX, |_, _, _, _| {}).unwrap();
        let entry = serde_json::json!({
            "move": move_diff(&p, mv).unwrap(),
            "disp": p.move_text(mv),
        });
        p.play(mv).unwrap();
        let mut entry = entry;
        entry["data"] = serde_json::json!({"quantum": quantum(&p)});
        let rec = &mut v["record"];
        rec.as_object_mut().unwrap().remove("ban");
        let kifu = rec["kifu"].as_array_mut().unwrap();
        kifu.push(entry);
        kifu.push(serde_json::json!({"move": result, "disp": disp}));
        (v, p)
    }

    #[test]
    fn finished_records_end_with_a_checked_result_entry() {
        let game = parse(ROOM).unwrap();
        let (p, _) = replay(&game, EngineKind::Counting, usize::MAX, |_, _, _, _| {}).unwrap();
        // Gote to move: a capture that finds Sente's king (shogitter's own test captures 9九 from 8八).
        let win = p
            .legal_moves()
            .into_iter()
            .find(|&m| {
                let mut q = p.clone();
                q.play(m).is_ok()
                    && q.result()
                        == Some(GameResult::KingCapture {
                            winner: Color::Gote,
                        })
            })
            .expect("a king capture");
        let (v, _) = finished(win, "_0", "☖勝ち");
        assert_eq!(
            replays(&v).unwrap().1,
            Some(Ending::KingCapture {
                winner: Color::Gote
            })
        );
        for (r, d) in [
            ("_1", "☖勝ち"),
            ("_9", "千日手"),
            ("_9", "引き分け"),
            ("_0", "☗投了"),
        ] {
            let (v, _) = finished(win, r, d);
            assert!(replays(&v).is_err(), "{r} {d} after a king capture");
        }
        // A quiet move, then a resignation or an agreed draw: taken as recorded.
        let quiet = p
            .legal_moves()
            .into_iter()
            .find(|&m| {
                let mut q = p.clone();
                q.play(m).is_ok() && q.result().is_none()
            })
            .unwrap();
        let (v, _) = finished(quiet, "_0", "☗投了");
        assert_eq!(
            replays(&v).unwrap().1,
            Some(Ending::Resignation {
                winner: Color::Gote
            })
        );
        let (v, _) = finished(quiet, "_9", "引き分け");
        assert_eq!(replays(&v).unwrap().1, Some(Ending::Agreement));
        for (r, d) in [
            ("_0", "☖勝ち"),
            ("_9", "千日手"),
            ("_1", "☗投了"),
            ("_3", "x"),
        ] {
            let (v, _) = finished(quiet, r, d);
            assert!(replays(&v).is_err(), "{r} {d} on a game not over");
        }
        // Nothing may follow the result entry.
        let (mut v, _) = finished(quiet, "_0", "☗投了");
        let again = v["record"]["kifu"][58].clone();
        v["record"]["kifu"].as_array_mut().unwrap().push(again);
        assert!(parse(&v.to_string()).is_err());
    }
}
