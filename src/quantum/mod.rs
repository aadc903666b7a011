//! Quantum shogi (量子将棋) convergence.
//!
//! Each side owns 20 pieces whose kinds form the multiset K1 R1 B1 G2 S2 N2 L2 P9.
//! A [`World`] holds, for each of the 20 pieces of one original side, the set of
//! kinds it may still be ([`KindSet`]). [`Observation`]s (moves, promotion,
//! rank restrictions, capture) narrow one piece; *converging* a world gives,
//! for each piece, exactly the kinds it can still be: piece `i` keeps kind `k`
//! iff some assignment of all 20 pieces uses every kind exactly its capacity,
//! respects every domain and gives `i` kind `k` (generalised arc consistency of
//! a global cardinality constraint). The rule and the 使い切り/相見合い algorithm
//! follow seed `000_f094134babe25b9a.txt` (na2hiro, 「量子将棋の収束アルゴリズム」,
//! the shogitter implementation).
//!
//! Five independent implementations of [`Convergence`]:
//! - [`counting::SubsetPass`] — the 255 kind-subset Hall pass (使い切り);
//! - [`counting::Peel`] — the seed's class-subset 相見合い peel;
//! - [`sat::SatEngine`] — CNF through `varisat`, models re-checked
//!   ([`sat::CertifiedSat`]: every unsatisfiable call refuted in DRAT, checked by [`drat`]);
//! - [`enumeration::Diagram`] — a decision diagram over remaining-capacity
//!   vectors with exact counts, marginals, enumeration and sampling
//!   ([`enumeration::TailEngine`]: the same with the unobserved pieces in closed form);
//! - [`matching::MatchingEngine`] — Régin's matching filter (one matching,
//!   strongly connected components of its residual graph);
//!
//! and [`brute`], the tiny-input oracle.
//!
//! ```
//! use shogi_lab::quantum::{counting::SubsetPass, Convergence, World};
//!
//! // 飛香・飛香・飛 (seed 000, 例4): the first two become 香.
//! let w: World = "RL RL R".parse::<World>().unwrap();
//! let c = SubsetPass.converge(&w).unwrap();
//! assert_eq!(c.to_string().split(' ').take(4).collect::<Vec<_>>(), ["L", "L", "R", "KBGSNP"]);
//! assert_eq!(c.used_up().to_string(), "RL");
//! ```

// Loops over the 20 pieces index several parallel arrays; ranges read more plainly.
#![allow(clippy::needless_range_loop)]

pub mod brute;
pub mod certify;
pub mod corpus;
pub mod counting;
pub mod drat;
pub mod enumeration;
pub mod game;
pub mod matching;
pub mod observation;
pub mod ratio;
pub mod record;
pub mod sat;
pub mod shogitter;

pub use observation::{apply, Observation, Outcome};

use std::fmt;
use std::str::FromStr;

/// Number of pieces per side.
pub const PIECES: usize = 20;

/// One of the 8 base kinds, in canonical order `KRBGSNLP`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// 玉 King.
    King,
    /// 飛 Rook.
    Rook,
    /// 角 Bishop.
    Bishop,
    /// 金 Gold.
    Gold,
    /// 銀 Silver.
    Silver,
    /// 桂 Knight.
    Knight,
    /// 香 Lance.
    Lance,
    /// 歩 Pawn.
    Pawn,
}

impl Kind {
    /// All kinds in canonical order.
    pub const ALL: [Kind; 8] = [
        Kind::King,
        Kind::Rook,
        Kind::Bishop,
        Kind::Gold,
        Kind::Silver,
        Kind::Knight,
        Kind::Lance,
        Kind::Pawn,
    ];
    /// Number of kinds.
    pub const NUM: usize = 8;
    /// Copies of each kind per side, indexed by [`Kind::index`].
    pub const CAPACITY: [u8; 8] = [1, 1, 1, 2, 2, 2, 2, 9];

    /// Position in canonical order (0..8).
    pub const fn index(self) -> usize {
        self as usize
    }
    /// The USI letter.
    pub const fn letter(self) -> char {
        [b'K', b'R', b'B', b'G', b'S', b'N', b'L', b'P'][self as usize] as char
    }
    /// The Japanese name.
    pub const fn kanji(self) -> char {
        ['玉', '飛', '角', '金', '銀', '桂', '香', '歩'][self as usize]
    }
    /// Copies per side.
    pub const fn capacity(self) -> u8 {
        Kind::CAPACITY[self as usize]
    }
    /// From a USI letter (upper case) or a kanji.
    pub fn from_char(c: char) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.letter() == c || k.kanji() == c)
    }
}

/// A set of kinds as a `u8` bitset (bit `k.index()`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct KindSet(pub u8);

impl KindSet {
    /// No kind.
    pub const EMPTY: KindSet = KindSet(0);
    /// All 8 kinds (a never-observed piece).
    pub const ALL: KindSet = KindSet(0xff);

    /// The set holding only `k`.
    pub const fn single(k: Kind) -> KindSet {
        KindSet(1 << k as u8)
    }
    /// The set of the listed kinds.
    pub fn of(kinds: &[Kind]) -> KindSet {
        KindSet(kinds.iter().fold(0, |m, &k| m | 1 << k as u8))
    }
    /// Whether `k` is in the set.
    pub const fn contains(self, k: Kind) -> bool {
        self.0 >> k as u8 & 1 != 0
    }
    /// Number of kinds in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Whether every kind of `self` is in `other`.
    pub const fn is_subset(self, other: KindSet) -> bool {
        self.0 & !other.0 == 0
    }
    /// Intersection.
    pub const fn and(self, other: KindSet) -> KindSet {
        KindSet(self.0 & other.0)
    }
    /// Union.
    pub const fn or(self, other: KindSet) -> KindSet {
        KindSet(self.0 | other.0)
    }
    /// Difference.
    pub const fn minus(self, other: KindSet) -> KindSet {
        KindSet(self.0 & !other.0)
    }
    /// Total copies of the kinds in the set (its capacity).
    pub const fn capacity(self) -> u32 {
        CAPACITY_OF[self.0 as usize] as u32
    }
    /// The kinds in canonical order.
    pub fn iter(self) -> impl Iterator<Item = Kind> {
        Kind::ALL.into_iter().filter(move |&k| self.contains(k))
    }
}

/// Capacity of every kind set, computed at compile time.
const CAPACITY_OF: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut s = 0;
    while s < 256 {
        let mut k = 0;
        while k < 8 {
            if s >> k & 1 != 0 {
                t[s] += Kind::CAPACITY[k];
            }
            k += 1;
        }
        s += 1;
    }
    t
};

impl fmt::Debug for KindSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KindSet({self})")
    }
}

/// Canonical letters `KRBGSNLP` order; the empty set is `-`.
impl fmt::Display for KindSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for k in self.iter() {
            write!(f, "{}", k.letter())?;
        }
        Ok(())
    }
}

/// Why a world or kind-set text was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// A character that is not a kind letter, `*` or `-`.
    #[error(
        "token {token} ({text:?}): {ch:?} is not a kind (use KRBGSNLP, 玉飛角金銀桂香歩, * or -)"
    )]
    BadKind {
        /// 0-based token number.
        token: usize,
        /// The token.
        text: String,
        /// The offending character.
        ch: char,
    },
    /// The same kind twice in one token.
    #[error("token {token} ({text:?}): kind {ch} repeated")]
    Repeated {
        /// 0-based token number.
        token: usize,
        /// The token.
        text: String,
        /// The repeated kind.
        ch: char,
    },
    /// `*` or `-` combined with letters.
    #[error("token {token} ({text:?}): `*` and `-` must stand alone")]
    Mixed {
        /// 0-based token number.
        token: usize,
        /// The token.
        text: String,
    },
    /// Not exactly 20 tokens (or more than 20 where fewer are padded).
    #[error("expected {expected} pieces, found {found}")]
    Count {
        /// What was required.
        expected: &'static str,
        /// Number of tokens found.
        found: usize,
    },
}

/// Parses one kind-set token: letters from `KRBGSNLP` (or kanji) in any order, `*` for all, `-` for none.
///
/// # Errors
/// [`ParseError`] naming the token (reported as number `token`).
pub fn parse_kind_set(text: &str, token: usize) -> Result<KindSet, ParseError> {
    match text {
        "*" => return Ok(KindSet::ALL),
        "-" => return Ok(KindSet::EMPTY),
        _ => {}
    }
    let mut s = KindSet::EMPTY;
    for ch in text.chars() {
        if ch == '*' || ch == '-' {
            return Err(ParseError::Mixed {
                token,
                text: text.into(),
            });
        }
        let k = Kind::from_char(ch).ok_or_else(|| ParseError::BadKind {
            token,
            text: text.into(),
            ch,
        })?;
        if s.contains(k) {
            return Err(ParseError::Repeated {
                token,
                text: text.into(),
                ch,
            });
        }
        s = s.or(KindSet::single(k));
    }
    if s.is_empty() {
        return Err(ParseError::Count {
            expected: "a non-empty token",
            found: 0,
        });
    }
    Ok(s)
}

/// The domains of the 20 pieces of one original side (any domains, possibly contradictory).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct World(pub [KindSet; PIECES]);

impl Default for World {
    fn default() -> World {
        World::UNOBSERVED
    }
}

impl World {
    /// The start: no piece observed.
    pub const UNOBSERVED: World = World([KindSet::ALL; PIECES]);

    /// Parses exactly 20 whitespace-separated tokens.
    ///
    /// # Errors
    /// [`ParseError`] on a bad token or a count other than 20.
    pub fn parse_exact(text: &str) -> Result<World, ParseError> {
        let n = text.split_whitespace().count();
        if n != PIECES {
            return Err(ParseError::Count {
                expected: "exactly 20",
                found: n,
            });
        }
        text.parse()
    }

    /// Pieces whose domain is all 8 kinds (never observed).
    pub fn unobserved(&self) -> impl Iterator<Item = usize> + '_ {
        (0..PIECES).filter(|&i| self.0[i] == KindSet::ALL)
    }

    /// The world with every piece outside `keep` (bit `i` = piece `i`) relaxed to all kinds.
    pub fn restrict(&self, keep: u32) -> World {
        let mut w = World::UNOBSERVED;
        for i in 0..PIECES {
            if keep >> i & 1 != 0 {
                w.0[i] = self.0[i];
            }
        }
        w
    }
}

/// 20 space-separated canonical tokens.
impl fmt::Display for World {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// Up to 20 tokens; missing trailing pieces are unobserved (`*`), as in the
/// seed's notation 「飛香・飛香・飛」 where the other pieces never moved.
impl FromStr for World {
    type Err = ParseError;
    fn from_str(text: &str) -> Result<World, ParseError> {
        let toks: Vec<&str> = text.split_whitespace().collect();
        if toks.len() > PIECES {
            return Err(ParseError::Count {
                expected: "at most 20",
                found: toks.len(),
            });
        }
        let mut w = World::UNOBSERVED;
        for (i, t) in toks.iter().enumerate() {
            w.0[i] = parse_kind_set(t, i)?;
        }
        Ok(w)
    }
}

/// No assignment satisfies the domains: `conflict` is a minimal set of pieces
/// (ascending indices) whose domains alone already cannot be assigned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("contradiction: pieces {conflict:?} cannot all be given kinds")]
pub struct Contradiction {
    /// The conflicting pieces, minimal: dropping any one makes the rest assignable.
    pub conflict: Vec<usize>,
}

/// A converged world: each piece's exact remaining kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Converged {
    /// The converged domains.
    pub world: World,
    /// The kinds used up (使い切り): no unobserved piece of the input can be them.
    pub used_up: KindSet,
}

impl Converged {
    /// Builds from the input and its converged world.
    pub fn new(input: &World, world: World) -> Converged {
        let used_up = match input.unobserved().next() {
            Some(i) => KindSet::ALL.minus(world.0[i]),
            None => KindSet::ALL,
        };
        Converged { world, used_up }
    }
    /// The used-up kinds.
    pub fn used_up(&self) -> KindSet {
        self.used_up
    }
}

impl fmt::Display for Converged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.world.fmt(f)
    }
}

/// A convergence engine. Every implementation computes the same function
/// (see the module docs); they differ in method and speed.
pub trait Convergence {
    /// Short name (`counting`, `peel`, `sat`, `enumeration`, `brute`).
    fn name(&self) -> &'static str;

    /// Whether the domains admit at least one assignment.
    fn feasible(&self, w: &World) -> bool;

    /// Converges `w`.
    ///
    /// # Errors
    /// [`Contradiction`] with a minimal conflicting set of pieces.
    fn converge(&self, w: &World) -> Result<Converged, Contradiction>;

    /// [`Convergence::converge`] that gives up once `stop()` says so (`None`), for a
    /// caller on another thread that must stay interruptible (Python's Ctrl-C). Engines
    /// whose work is polynomial and quick do not ask (the default); the SAT engine asks
    /// before each solver call (varisat cannot be interrupted inside one).
    fn converge_until(
        &self,
        w: &World,
        stop: &dyn Fn() -> bool,
    ) -> Option<Result<Converged, Contradiction>> {
        let _ = stop;
        Some(self.converge(w))
    }
}

/// Shrinks a conflicting set of pieces (bit `i` = piece `i`) to a minimal one by
/// deletion in index order, using `feasible` on [`World::restrict`]ed worlds.
/// Feasibility is monotone (relaxing a piece never hurts), so the result is
/// minimal: dropping any one of its pieces makes it assignable.
pub fn minimize_conflict(
    w: &World,
    start: u32,
    mut feasible: impl FnMut(&World) -> bool,
) -> Vec<usize> {
    let mut s = start;
    for i in 0..PIECES {
        if s >> i & 1 != 0 && !feasible(&w.restrict(s & !(1 << i))) {
            s &= !(1 << i);
        }
    }
    (0..PIECES).filter(|&i| s >> i & 1 != 0).collect()
}

/// Every engine, boxed, in a fixed order: counting, peel, sat, enumeration, enumeration-tail, matching
/// ([`sat::CertifiedSat`] is looked up by name: it is slow, a fresh solver per refutation).
pub fn engines() -> Vec<Box<dyn Convergence + Send + Sync>> {
    vec![
        Box::new(counting::SubsetPass),
        Box::new(counting::Peel),
        Box::new(sat::SatEngine),
        Box::new(enumeration::DiagramEngine),
        Box::new(enumeration::TailEngine),
        Box::new(matching::MatchingEngine),
    ]
}

/// Looks an engine up by name (`counting`, `peel`, `sat`, `enumeration`, `brute`).
pub fn engine_by_name(name: &str) -> Option<Box<dyn Convergence + Send + Sync>> {
    if name == "brute" {
        return Some(Box::new(brute::Brute::default()));
    }
    if name == "sat-drat" {
        return Some(Box::new(sat::CertifiedSat));
    }
    engines().into_iter().find(|e| e.name() == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_table_matches_naive_sum() {
        for s in 0..=255u8 {
            let naive: u32 = KindSet(s).iter().map(|k| k.capacity() as u32).sum();
            assert_eq!(KindSet(s).capacity(), naive);
        }
        assert_eq!(KindSet::ALL.capacity(), 20);
    }

    #[test]
    fn parse_and_print_round_trip() {
        let w: World = "LR 飛香 * - P".parse().unwrap();
        assert_eq!(
            w.to_string().split(' ').take(6).collect::<Vec<_>>(),
            ["RL", "RL", "KRBGSNLP", "-", "P", "KRBGSNLP"]
        );
        assert!(matches!(
            "RR".parse::<World>(),
            Err(ParseError::Repeated { .. })
        ));
        assert!(matches!(
            "X".parse::<World>(),
            Err(ParseError::BadKind { ch: 'X', .. })
        ));
        assert!(matches!(
            "R*".parse::<World>(),
            Err(ParseError::Mixed { .. })
        ));
        assert!(matches!(
            World::parse_exact("R R"),
            Err(ParseError::Count { found: 2, .. })
        ));
        assert!(matches!(
            vec!["*"; 21].join(" ").parse::<World>(),
            Err(ParseError::Count { found: 21, .. })
        ));
    }
}
