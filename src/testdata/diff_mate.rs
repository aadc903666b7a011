//! `diff mate`: a USI engine's `go mate` answers ([`super::usi_engine`]) against our
//! solver on the same positions. Every mate line the engine gives is replayed by the
//! independent checker ([`crate::tsume::checker`]); its length is compared with the bounds
//! our solver proved on the shortest mate, under one convention for 無駄合 (futile
//! interpositions): not counted (ours, composed problems') or counted as plies
//! (`count_futile`, KomoringHeights' MinLength), whichever the engine follows.
//!
//! Each problem gets one [`Verdict`]. Four are disagreements — the engine, or our
//! solver, is wrong: a line the checker rejects, a checked line shorter than our proven
//! minimum, `nomate` where we have a checked mate, a checked mate where we claim `nomate`.
//! The others are not: the same answer, a line longer than our minimum (an engine that
//! aims at the composer's line, or is not minimal, or counts 無駄合 under our convention),
//! lengths our bounds cannot rank, and no verdict on one side (a timeout, a node limit).

use super::usi_engine::{MateAnswer, MateReply};
use crate::notation::sfen::{resolve_usi_move, write_sfen};
use crate::rules::{Move, Position};
use crate::tsume::{checker, Outcome, SolveResult};

/// What one problem's comparison shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// Both `nomate`, or both mate with the engine's line as long as our proven minimum.
    Same,
    /// The engine's checked line is longer than our proven minimum: it is not minimal,
    /// follows another line (the composer's), or counts 無駄合 we do not. Not a wrong
    /// answer.
    Longer,
    /// Both mate, the engine's line checked, its length within the bounds our limits
    /// left on the minimum (not proven shortest): not ranked.
    Unranked,
    /// One side has no verdict (the engine's `timeout`, our node limit); the engine's
    /// line, if any, was checked.
    Undecided,
    /// Disagreement: the engine's line is illegal, has an attacker move that is no check,
    /// or does not end in mate.
    NotMate,
    /// Disagreement: the engine's checked line is shorter than our proven minimum — its
    /// defender gives up a longer defence, or our disproof of the shorter mates is wrong.
    Shorter,
    /// Disagreement: the engine answers `nomate` where our line is a checked mate.
    NomateButMate,
    /// Disagreement: the engine's line is a checked mate where we claim `nomate` (our bug).
    MateButNomate,
}

impl Verdict {
    /// Every verdict, the four disagreements last.
    pub const ALL: [Verdict; 8] = [
        Verdict::Same,
        Verdict::Longer,
        Verdict::Unranked,
        Verdict::Undecided,
        Verdict::NotMate,
        Verdict::Shorter,
        Verdict::NomateButMate,
        Verdict::MateButNomate,
    ];

    /// The verdict's name in reports (`not_mate`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Same => "same",
            Verdict::Longer => "longer",
            Verdict::Unranked => "unranked",
            Verdict::Undecided => "undecided",
            Verdict::NotMate => "not_mate",
            Verdict::Shorter => "shorter",
            Verdict::NomateButMate => "nomate_but_mate",
            Verdict::MateButNomate => "mate_but_nomate",
        }
    }

    /// Whether one side is wrong (not a convention, strength or limit difference).
    pub const fn is_disagreement(self) -> bool {
        matches!(
            self,
            Verdict::NotMate | Verdict::Shorter | Verdict::NomateButMate | Verdict::MateButNomate
        )
    }
}

/// What our solver proved on the shortest mate: it has between `min` and `max` plies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LengthBounds {
    /// No mate of fewer plies exists (proven: `no_mate_within` + 2, or the proven-shortest
    /// length; 1 when nothing was ruled out).
    pub min: usize,
    /// A mate of this many plies exists (the proof bound, `mate_within`, else the line's length).
    pub max: usize,
}

impl LengthBounds {
    /// The bounds of a mate answer of our solver, `None` for another outcome.
    pub fn of(ours: &SolveResult<Move>) -> Option<LengthBounds> {
        if ours.outcome != Outcome::Mate {
            return None;
        }
        let max = ours.mate_within.map_or(ours.line.len(), usize::from);
        let mut min = ours.no_mate_within.map_or(1, |n| usize::from(n) + 2);
        if ours.shortest == Some(true) {
            min = min.max(ours.line.len());
        }
        Some(LengthBounds {
            min: min.min(max),
            max,
        })
    }
}

/// One problem compared.
#[derive(Debug, Clone)]
pub struct MateComparison {
    /// The position both solved (the defender's hand as given to the engine).
    pub sfen: String,
    /// Our verdict and line.
    pub ours: SolveResult<Move>,
    /// The engine's answer.
    pub theirs: MateReply,
    /// Whether lengths count 無駄合 as plies (our solver ran so, and an engine line must
    /// end where the defender has no legal reply at all).
    pub count_futile: bool,
    /// For an engine mate: `Ok` if the checker accepts its line, else why not.
    pub line_check: Option<Result<(), String>>,
    /// What the comparison shows.
    pub verdict: Verdict,
    /// For [`Verdict::Shorter`], once [`MateComparison::locate_short_defence`] found it: the
    /// engine's defender move that gives up a longer defence.
    pub short_defence: Option<ShortDefence>,
}

/// Where an engine's line shorter than our proven minimum lets the defender give up a
/// longer defence: the first defender move after which our proven shortest mate drops by
/// more than the two plies just played.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ShortDefence {
    /// The move's ply in the engine's line (1-based).
    pub ply: usize,
    /// The move (USI).
    pub usi: String,
    /// After it, a mate of at most this many plies exists (our solver's bound).
    pub mate_after: usize,
    /// Some other reply there needs at least this many more plies to mate: the position two
    /// plies earlier has no mate shorter than this + 2.
    pub longest_at_least: usize,
}

impl MateComparison {
    /// Compares our result with the engine's answer on `root`, under the 無駄合 convention
    /// `count_futile` (which our solver must have used for `ours`).
    pub fn new(
        root: &Position,
        ours: SolveResult<Move>,
        theirs: MateReply,
        count_futile: bool,
    ) -> MateComparison {
        let line_check = match &theirs.answer {
            MateAnswer::Mate(usi) => Some(check_line(root, usi, count_futile)),
            _ => None,
        };
        let verdict = verdict(&ours, &theirs.answer, line_check.as_ref());
        MateComparison {
            sfen: write_sfen(root),
            ours,
            theirs,
            count_futile,
            line_check,
            verdict,
            short_defence: None,
        }
    }

    /// For a [`Verdict::Shorter`], finds the engine's defender move that gives up a longer
    /// defence ([`ShortDefence`]), solving with `solve` (our solver, under the same
    /// convention and limits) the position before each attacker move of the engine's line,
    /// from `root`, until our bounds there prove the drop: a mate of at most `b` plies
    /// after a defender move where the attacker node before its attacker move had no mate
    /// of fewer than `a > b + 2` plies. Since the line is shorter than the root's minimum
    /// and its last attacker node is a mate in 1, such a move exists when every bound is
    /// exact; a solve stopped by its limits can leave it unfound (`None`).
    pub fn locate_short_defence(
        &mut self,
        root: &Position,
        mut solve: impl FnMut(&Position) -> SolveResult<Move>,
    ) {
        let (Verdict::Shorter, MateAnswer::Mate(usi), Some(mut before)) =
            (self.verdict, &self.theirs.answer, self.bounds())
        else {
            return;
        };
        let mut pos = root.clone();
        let mut moves = Vec::with_capacity(usi.len());
        for u in usi {
            let Ok(m) = resolve_usi_move(&pos, u) else {
                return;
            };
            pos.play_unchecked(m);
            moves.push(pos.clone());
        }
        // `moves[i]`: the position after ply i + 1. Attacker nodes follow even plies.
        for ply in (2..usi.len()).step_by(2) {
            let Ok(fresh) = crate::tsume::load_problem(
                &write_sfen(&moves[ply - 1]),
                crate::tsume::DefenderHand::AsGiven,
            ) else {
                return;
            };
            let Some(after) = LengthBounds::of(&solve(&fresh)) else {
                return;
            };
            if after.max + 2 < before.min {
                self.short_defence = Some(ShortDefence {
                    ply,
                    usi: usi[ply - 1].clone(),
                    mate_after: after.max,
                    longest_at_least: before.min - 2,
                });
                return;
            }
            before = after;
        }
    }

    /// Whether the two agree: no [disagreement](Verdict::is_disagreement).
    pub fn agree(&self) -> bool {
        !self.verdict.is_disagreement()
    }

    /// Our bounds on the shortest mate (`None` unless we found a mate).
    pub fn bounds(&self) -> Option<LengthBounds> {
        LengthBounds::of(&self.ours)
    }
}

fn verdict(
    ours: &SolveResult<Move>,
    theirs: &MateAnswer,
    line_check: Option<&Result<(), String>>,
) -> Verdict {
    match (theirs, ours.outcome) {
        (MateAnswer::Mate(_), _) if matches!(line_check, Some(Err(_))) => Verdict::NotMate,
        (MateAnswer::Mate(_), Outcome::NoMate) => Verdict::MateButNomate,
        (MateAnswer::Mate(line), Outcome::Mate) => {
            let b = LengthBounds::of(ours).expect("a mate");
            let t = line.len();
            if t < b.min {
                Verdict::Shorter
            } else if t > b.max {
                Verdict::Longer
            } else if b.min == b.max {
                Verdict::Same
            } else {
                Verdict::Unranked
            }
        }
        (MateAnswer::NoMate, Outcome::Mate) => Verdict::NomateButMate,
        (MateAnswer::NoMate, Outcome::NoMate) => Verdict::Same,
        _ => Verdict::Undecided,
    }
}

/// Resolves and checks the engine's line from `root`. With `count_futile` a final position
/// where the defender can still interpose (a 無駄合 under the default convention, which
/// the checker accepts as mate) is not mate: every reply counts there.
fn check_line(root: &Position, usi: &[String], count_futile: bool) -> Result<(), String> {
    let mut pos = root.clone();
    let mut line = Vec::new();
    for (i, u) in usi.iter().enumerate() {
        let m = resolve_usi_move(&pos, u).map_err(|e| format!("ply {}: {u}: {e}", i + 1))?;
        pos.play_unchecked(m);
        line.push(m);
    }
    checker::verify_mate_line(root, &line).map_err(|e| e.to_string())?;
    let replies = pos.legal_moves();
    if count_futile && !replies.is_empty() {
        let shown: Vec<String> = replies.iter().take(8).map(|m| m.to_string()).collect();
        return Err(format!(
            "the final position is not mate when 無駄合 count as replies: the defender can still play {}{}",
            shown.join(" "),
            if replies.len() > shown.len() { " …" } else { "" }
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsume::{load_problem, solve, DefenderHand, SolverOptions};
    use std::time::Duration;

    fn reply(answer: MateAnswer) -> MateReply {
        MateReply {
            answer,
            elapsed: Duration::ZERO,
            info_string: None,
            after_stop: false,
        }
    }

    fn mate(usi: &str) -> MateAnswer {
        MateAnswer::Mate(usi.split_whitespace().map(String::from).collect())
    }

    /// `futile-by-budget-3` of specs/tsume/cases.sfen: mate in 3 when the drops on ８一 are
    /// 無駄合, in 5 when they count (KomoringHeights' line shows one).
    const FUTILE: &str = "+RSk6/9/9/3S5/9/9/9/9/9 b Sr2b4gs4n4l18p 1";

    fn compare(sfen: &str, theirs: MateAnswer, count_futile: bool) -> MateComparison {
        let root = load_problem(sfen, DefenderHand::AsGiven).unwrap();
        let opts = SolverOptions {
            count_futile,
            ..SolverOptions::default()
        };
        MateComparison::new(&root, solve(&root, &opts), reply(theirs), count_futile)
    }

    #[test]
    fn lengths_are_compared_under_the_convention_asked_for() {
        let kh = "8a9b P*8a 9a8a 7a6b S*5c";
        // Our convention: 3 plies proven; the line that shows the 無駄合 is longer, not wrong.
        let c = compare(FUTILE, mate(kh), false);
        assert_eq!(c.bounds(), Some(LengthBounds { min: 3, max: 3 }));
        assert_eq!(c.verdict, Verdict::Longer);
        assert!(c.agree());
        let c = compare(FUTILE, mate("8a9b 7a6b S*6c"), false);
        assert_eq!(c.verdict, Verdict::Same);
        // Counted: 5 proven; the same line is the minimum, and the 3-ply one, whose
        // defender skips the drop on ８一 at ply 2, is shorter: a wrong answer there.
        let c = compare(FUTILE, mate(kh), true);
        assert_eq!(c.bounds(), Some(LengthBounds { min: 5, max: 5 }));
        assert_eq!(c.verdict, Verdict::Same);
        let c = compare(FUTILE, mate("8a9b 7a6b S*6c"), true);
        assert_eq!((c.verdict, c.agree()), (Verdict::Shorter, false));
    }

    /// ▲１九飛打 checks △１一玉 from afar; its only replies are pawn drops on the file, each
    /// taken with mate (無駄合): mate in 1 when they are not counted, no mate when they are.
    #[test]
    fn a_line_ending_in_futile_interpositions_is_no_mate_when_they_count() {
        let sfen = "8k/6S2/7G1/9/9/9/9/9/9 b Rp 1";
        let c = compare(sfen, mate("R*1i"), false);
        assert_eq!(
            (c.verdict, c.line_check.clone()),
            (Verdict::Same, Some(Ok(())))
        );
        let c = compare(sfen, mate("R*1i"), true);
        assert_eq!((c.verdict, c.agree()), (Verdict::NotMate, false));
        let e = c.line_check.unwrap().unwrap_err();
        assert!(
            e.starts_with("the final position is not mate when 無駄合 count as replies: the defender can still play P*1"),
            "{e}"
        );
    }

    #[test]
    fn wrong_answers_are_disagreements_and_the_rest_are_not() {
        // 3 plies proven (pawn-drop-not-mate): ▲２二歩 △１一玉 ▲２三桂.
        let three = "7k1/5G3/8S/9/9/9/9/9/9 b NP 1";
        let c = compare(three, mate("P*2b 2a1a N*2c"), false);
        assert_eq!((c.verdict, c.agree()), (Verdict::Same, true));
        // A line the checker rejects: the attacker's last move gives no check.
        let c = compare(three, mate("P*2b 2a1a N*3c"), false);
        assert_eq!((c.verdict, c.agree()), (Verdict::NotMate, false));
        // An illegal move.
        let c = compare(three, mate("P*2b 2a1a 5a5b"), false);
        assert_eq!(c.verdict, Verdict::NotMate);
        assert!(c
            .line_check
            .unwrap()
            .unwrap_err()
            .starts_with("ply 3: 5a5b"));
        let c = compare(three, MateAnswer::NoMate, false);
        assert_eq!((c.verdict, c.agree()), (Verdict::NomateButMate, false));
        let c = compare(three, MateAnswer::Timeout, false);
        assert_eq!((c.verdict, c.agree()), (Verdict::Undecided, true));
        // 打ち歩詰め trap: no mate; a timeout contradicts nothing, a nomate agrees.
        let trap = "7lk/9/8G/9/9/9/9/9/K8 b P 1";
        assert_eq!(
            compare(trap, MateAnswer::NoMate, false).verdict,
            Verdict::Same
        );
        assert_eq!(
            compare(trap, MateAnswer::Timeout, false).verdict,
            Verdict::Undecided
        );
    }

    #[test]
    fn a_line_shorter_than_our_proven_minimum_is_a_disagreement() {
        // The bounds a limit left: no mate within 5 plies, a proof within 9.
        let ours = SolveResult {
            outcome: Outcome::Mate,
            line: Vec::new(),
            shortest: Some(false),
            alternatives: Vec::new(),
            no_mate_within: Some(5),
            mate_within: Some(9),
            stats: Default::default(),
        };
        assert_eq!(
            LengthBounds::of(&ours),
            Some(LengthBounds { min: 7, max: 9 })
        );
        let ok = Some(Ok(()));
        let v = |plies: usize| v_of(&ours, plies, ok.as_ref());
        assert_eq!(v(5), Verdict::Shorter);
        assert_eq!(v(7), Verdict::Unranked);
        assert_eq!(v(9), Verdict::Unranked);
        assert_eq!(v(11), Verdict::Longer);
        assert!(Verdict::Shorter.is_disagreement() && !Verdict::Unranked.is_disagreement());
        let nomate = SolveResult {
            outcome: Outcome::NoMate,
            no_mate_within: None,
            mate_within: None,
            shortest: None,
            ..ours
        };
        assert_eq!(v_of(&nomate, 3, ok.as_ref()), Verdict::MateButNomate);
    }

    /// 将棋無双21 and shtsume v1.2.7e's 23-ply line (paper/results/tsume-length-differences.md):
    /// we prove 25; at ply 20 its defender's △９三玉 (9d9c) allows a mate in 3, where △８五玉
    /// (9d8e) lasts 5.
    #[test]
    fn the_defender_move_that_gives_up_a_longer_defence_is_found() {
        let root = load_problem(
            "s2k3r1/1B2p+R3/1n7/2Pg5/p1S+b5/2p6/1+p7/9/9 b S3gs3n4l13p 1",
            DefenderHand::AsGiven,
        )
        .unwrap();
        let shtsume = "S*7b 6a7b 4b5b P*6b 7d7c 7b8a 8b9a+ 8a9a S*8b 9a8b 5b6b 8b8a 7c7b+ \
                       8a9b P*9c 9b9c P*9d 9c9d 6b6d 9d9c 6d9d 9c9d G*8d";
        let opts = SolverOptions {
            nodes: Some(3_000_000),
            ..SolverOptions::default()
        };
        let mut c = MateComparison::new(&root, solve(&root, &opts), reply(mate(shtsume)), false);
        assert_eq!(c.bounds(), Some(LengthBounds { min: 25, max: 25 }));
        assert_eq!(c.verdict, Verdict::Shorter);
        c.locate_short_defence(&root, |p| solve(p, &opts));
        assert_eq!(
            c.short_defence,
            Some(ShortDefence {
                ply: 20,
                usi: "9d9c".to_string(),
                mate_after: 3,
                longest_at_least: 5,
            })
        );
        // Nothing to locate for another verdict.
        let mut same = compare(FUTILE, mate("8a9b 7a6b S*6c"), false);
        same.locate_short_defence(&root, |_| unreachable!());
        assert_eq!(same.short_defence, None);
    }

    fn v_of(ours: &SolveResult<Move>, plies: usize, ok: Option<&Result<(), String>>) -> Verdict {
        verdict(ours, &MateAnswer::Mate(vec![String::new(); plies]), ok)
    }
}
