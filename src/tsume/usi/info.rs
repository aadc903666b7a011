//! The `info` lines the engine prints: periodic progress (about once a second)
//! and the score and principal variation of a proven mate.

use crate::rules::Move;
use crate::tsume::{plies, MateBounds, Phase, ProvenLine};
use std::borrow::Cow;
use std::time::Duration;

/// The Japanese terms the engine's own messages use, in the romanisation shogi
/// literature in English uses (rule names, piece names of `PieceKind::move_name`).
/// Longest first: a term is replaced before the terms inside it.
const ROMAJI: [(&str, &str); 19] = [
    ("行き所のない駒", "ikidokoro no nai koma"),
    ("無駄合", "mudaai"),
    ("二歩", "nifu"),
    ("余詰", "yozume"),
    ("成香", "narikyo"),
    ("成桂", "narikei"),
    ("成銀", "narigin"),
    ("歩", "fu"),
    ("香", "kyo"),
    ("桂", "kei"),
    ("銀", "gin"),
    ("金", "kin"),
    ("角", "kaku"),
    ("飛", "hi"),
    ("玉", "gyoku"),
    ("と", "to"),
    ("馬", "uma"),
    ("龍", "ryu"),
    ("…", "..."),
];

/// A line as the GUI gets it: printable ASCII only. USI fixes no encoding, and clients
/// decode engine output in the system's code page (cshogi uses the locale's, cp932 on
/// Japanese Windows, where UTF-8 text can fail to decode): the engine's Japanese terms
/// are romanised (`ROMAJI`), any other character outside printable ASCII (echoed
/// input included: an escape sequence, a NUL) is written as `\u{…}`.
pub fn ascii(line: &str) -> Cow<'_, str> {
    if line.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Cow::Borrowed(line);
    }
    let mut s = line.to_string();
    for (ja, ro) in ROMAJI {
        if s.contains(ja) {
            s = s.replace(ja, ro);
        }
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if (' '..='~').contains(&c) {
            out.push(c);
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
    }
    Cow::Owned(out)
}

/// `info time <ms> nodes <n> nps <n/s> hashfull <‰>`.
pub fn progress(elapsed: Duration, nodes: u64, hashfull: u32) -> String {
    let ms = elapsed.as_millis() as u64;
    let nps = nodes.saturating_mul(1000) / ms.max(1);
    format!("info time {ms} nodes {nodes} nps {nps} hashfull {hashfull}")
}

/// `info string proven so far: mate within <L> plies, no mate within <N> plies` (either
/// part alone when only it is known; `None` when neither is): the bounds on the shortest
/// mate the running search has proven, printed when they change.
pub fn bounds(b: MateBounds) -> Option<String> {
    (!b.is_empty()).then(|| format!("info string proven so far: {b}"))
}

/// `info string reading the line (mate within <L> plies proven)` once the solve reads its
/// line off the table, `info string looking for other mating first moves (余詰)` once it
/// checks for 余詰; `None` for the other phases (the bounds say how far they are).
pub fn phase(phase: Phase, b: MateBounds) -> Option<String> {
    match phase {
        Phase::Line => Some(match b.mate_within {
            Some(l) => format!(
                "info string reading the line (mate within {} proven)",
                plies(l.into())
            ),
            None => "info string reading the line".to_string(),
        }),
        Phase::Yozume => {
            Some("info string looking for other mating first moves (余詰)".to_string())
        }
        _ => None,
    }
}

/// `info string plays <n>`: the positions the search entered by a move (`Stats::plays`), the
/// unit in which YaneuraOu-based engines (KomoringHeights) count `nodes`; ours count
/// expansions. Printed once, with the answer.
pub fn plays(plays: u64) -> String {
    format!("info string plays {plays}")
}

/// `info depth <L> score mate <L> nodes <n> time <ms> pv <moves>`, printed as soon as the
/// search proves a mate within L plies (its first proof, then each shorter proof of the
/// minimality search), with the line read off its table then
/// ([`crate::tsume::Control::with_line_hook`]). `score mate` is the proven bound L, as
/// KomoringHeights prints it: the line has at most L plies and can have fewer (it shows
/// the defence the table holds, not one shown longest: "mate in" its length would
/// claim what is not proven); `depth` is L too. `nodes` are those searched when the
/// line was read, `time` the time since the `go`.
pub fn proven_line(line: &ProvenLine, elapsed: Duration) -> String {
    format!(
        "info depth {l} score mate {l} nodes {n} time {ms} pv {pv}",
        l = line.mate_within,
        n = line.nodes,
        ms = elapsed.as_millis(),
        pv = line.usi
    )
}

/// `info depth <L> score mate <L> pv <moves>`: a line given as USI moves separated by
/// spaces, with the proven bound L it lies within (its own length can be less; see
/// [`proven_line`]).
pub fn bound_pv_usi(within: u16, usi: &str) -> String {
    format!("info depth {within} score mate {within} pv {usi}")
}

/// `info depth <plies> score mate <plies> pv <moves>` for a proven mate line.
pub fn mate_pv(line: &[Move]) -> String {
    let moves: Vec<String> = line.iter().map(|m| m.to_string()).collect();
    format!(
        "info depth {n} score mate {n} pv {}",
        moves.join(" "),
        n = line.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line is printable ASCII: the engine's terms romanised, anything else escaped.
    #[test]
    fn lines_are_ascii() {
        assert_eq!(ascii("info time 1 nodes 2"), "info time 1 nodes 2");
        assert_eq!(
            ascii("info string error: position: illegal position: 行き所のない駒: Sente's 歩 (P) on 9a can never move"),
            "info string error: position: illegal position: ikidokoro no nai koma: Sente's fu (P) on 9a can never move"
        );
        assert_eq!(
            ascii("info string looking for other mating first moves (余詰)"),
            "info string looking for other mating first moves (yozume)"
        );
        assert_eq!(
            ascii("info string error: column 1: unknown command \"\x1b[2J\u{0}\u{263a}\""),
            "info string error: column 1: unknown command \"\\u{1b}[2J\\u{0}\\u{263a}\""
        );
        assert_eq!(
            ascii("go: send `position …` first"),
            "go: send `position ...` first"
        );
    }

    #[test]
    fn lines_read_as_usi() {
        assert_eq!(
            progress(Duration::from_millis(2000), 1_000_000, 17),
            "info time 2000 nodes 1000000 nps 500000 hashfull 17"
        );
        assert_eq!(
            progress(Duration::ZERO, 5, 0),
            "info time 0 nodes 5 nps 5000 hashfull 0"
        );
        assert_eq!(plays(12), "info string plays 12");
        let within = |l| MateBounds {
            mate_within: Some(l),
            no_mate_within: None,
        };
        assert_eq!(
            phase(Phase::Line, within(9)).unwrap(),
            "info string reading the line (mate within 9 plies proven)"
        );
        assert_eq!(phase(Phase::Shortest, within(9)), None);
        assert_eq!(phase(Phase::Proof, MateBounds::default()), None);
        let b = |mate_within, no_mate_within| {
            bounds(MateBounds {
                mate_within,
                no_mate_within,
            })
        };
        assert_eq!(b(None, None), None);
        assert_eq!(
            b(Some(35), None).unwrap(),
            "info string proven so far: mate within 35 plies"
        );
        assert_eq!(
            b(Some(31), Some(27)).unwrap(),
            "info string proven so far: mate within 31 plies, no mate within 27 plies"
        );
        assert_eq!(
            b(None, Some(7)).unwrap(),
            "info string proven so far: no mate within 7 plies"
        );
        let p = crate::tsume::load_problem(
            "8k/9/8P/9/9/9/9/9/9 b G 1",
            crate::tsume::DefenderHand::Remaining,
        )
        .unwrap();
        let m = p
            .legal_moves()
            .into_iter()
            .find(|m| m.to_string() == "G*1b")
            .unwrap();
        assert_eq!(mate_pv(&[m]), "info depth 1 score mate 1 pv G*1b");
        let proven = ProvenLine {
            mate_within: 7,
            usi: "G*1b".to_string(),
            plies: 1,
            nodes: 42,
        };
        assert_eq!(
            proven_line(&proven, Duration::from_millis(1500)),
            "info depth 7 score mate 7 nodes 42 time 1500 pv G*1b"
        );
    }
}
