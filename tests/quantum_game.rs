//! Quantum shogi games: the shogitter game Room 9168 replayed state by state,
//! and random-game properties (engines agree, undo, generator = play).

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shogi_lab::quantum::game::{EngineKind, QMove, QuantumPosition, Variant};
use shogi_lab::quantum::{shogitter, Kind, KindSet};
use shogi_lab::rules::{Color, Square};

fn room() -> Vec<shogitter::Entry> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/specs/quantum/room-9168.json"
    ))
    .unwrap();
    shogitter::parse(&text).unwrap().entries
}

#[test]
fn room_9168_reproduces_every_recorded_state() {
    let entries = room();
    assert_eq!(entries.len(), 59);
    for engine in EngineKind::ALL {
        let mut p = QuantumPosition::new(engine, Variant::Standard);
        for (i, e) in entries.iter().enumerate() {
            let gen = p.legal_moves();
            assert!(
                gen.contains(&e.mv)
                    || drop_class(&p, e.mv)
                        .is_some_and(|c| gen.iter().any(|g| drop_class(&p, *g) == Some(c))),
                "{}: ply {} {} not generated",
                engine.name(),
                i + 1,
                e.mv
            );
            assert_eq!(p.move_text(e.mv), e.disp, "ply {}", i + 1);
            p.play(e.mv).unwrap();
            if let Err(what) = shogitter::check_state(&p, &e.state) {
                panic!("{}: ply {} {}: {what}", engine.name(), i + 1, e.disp);
            }
        }
        // The last move ☗2二成量子 captures Gote's 2二 piece (玉 or not): it was
        // {歩銀金玉}, so the capture is not the king, and it pins Gote's king to 9一.
        assert_eq!(p.result(), None);
        let king = p.piece_at(Square::new(9, 1).unwrap()).unwrap();
        assert_eq!(p.domain(king), KindSet::single(Kind::King));
        assert_eq!(p.piece(king).side, Color::Gote);
        // Capturing it now would win.
        let mut q = p.clone();
        let mv = q
            .legal_moves()
            .into_iter()
            .find(|m| matches!(m, QMove::Board { to, .. } if q.piece_at(*to) == Some(king)));
        if let Some(mv) = mv {
            q.play(mv).unwrap();
            assert!(q.result().is_some());
        }
    }
}

/// Independent geometry: can `kind` (promoted or not), owned by `owner`, go
/// `from` → `to` on `p`'s board, walking squares (no bitboards, no tables)?
fn walks(
    p: &QuantumPosition,
    owner: Color,
    kind: Kind,
    promoted: bool,
    from: Square,
    to: Square,
) -> bool {
    let gold: &[(i8, i8)] = &[(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
    let king: &[(i8, i8)] = &[
        (0, -1),
        (-1, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (0, 1),
        (-1, 1),
        (1, 1),
    ];
    type Vectors<'a> = &'a [(i8, i8)];
    let (steps, slides): (Vectors, Vectors) = match (kind, promoted) {
        (Kind::King, false) => (king, &[]),
        (Kind::Gold, false) | (Kind::Pawn | Kind::Lance | Kind::Knight | Kind::Silver, true) => {
            (gold, &[])
        }
        (Kind::Silver, false) => (&[(0, -1), (-1, -1), (1, -1), (-1, 1), (1, 1)], &[]),
        (Kind::Knight, false) => (&[(-1, -2), (1, -2)], &[]),
        (Kind::Pawn, false) => (&[(0, -1)], &[]),
        (Kind::Lance, false) => (&[], &[(0, -1)]),
        (Kind::Bishop, false) => (&[], &[(-1, -1), (1, -1), (-1, 1), (1, 1)]),
        (Kind::Rook, false) => (&[], &[(0, -1), (0, 1), (-1, 0), (1, 0)]),
        (Kind::Bishop, true) => (king, &[(-1, -1), (1, -1), (-1, 1), (1, 1)]),
        (Kind::Rook, true) => (king, &[(0, -1), (0, 1), (-1, 0), (1, 0)]),
        (Kind::Gold | Kind::King, true) => return false,
    };
    let s = if owner == Color::Sente { 1 } else { -1 };
    let at = |f: i8, r: i8| {
        Square::new(f as u8, r as u8).filter(|_| (1..=9).contains(&f) && (1..=9).contains(&r))
    };
    let (f0, r0) = (from.file() as i8, from.rank() as i8);
    if steps
        .iter()
        .any(|&(dx, dy)| at(f0 + s * dx, r0 + s * dy) == Some(to))
    {
        return true;
    }
    slides.iter().any(|&(dx, dy)| {
        let (mut f, mut r) = (f0 + s * dx, r0 + s * dy);
        while let Some(sq) = at(f, r) {
            if sq == to {
                return true;
            }
            if p.piece_at(sq).is_some() {
                return false;
            }
            f += s * dx;
            r += s * dy;
        }
        false
    })
}

/// The board moves the rules allow, from first principles: an own piece, a
/// destination without an own piece, promotion only in/into/out of the zone by
/// an unpromoted piece (excluding 金玉), not promoting onto the far/second rank
/// excluding 歩香桂/桂, and some remaining kind walking there.
fn naive_board_ok(p: &QuantumPosition, m: QMove) -> bool {
    // A finished game (king captured, 千日手) has no moves.
    if p.result().is_some() {
        return false;
    }
    let QMove::Board { from, to, promote } = m else {
        return false;
    };
    let c = p.side_to_move();
    let Some(id) = p.piece_at(from) else {
        return false;
    };
    let info = p.piece(id);
    if info.owner != c || p.piece_at(to).is_some_and(|q| p.piece(q).owner == c) {
        return false;
    }
    let rr = |sq: Square| {
        if c == Color::Sente {
            sq.rank()
        } else {
            10 - sq.rank()
        }
    };
    let mut d = p.domain(id);
    if promote {
        if info.promoted || (rr(from) > 3 && rr(to) > 3) {
            return false;
        }
        d = d.minus(KindSet::of(&[Kind::Gold, Kind::King]));
    } else if !info.promoted && rr(to) == 1 {
        d = d.minus(KindSet::of(&[Kind::Pawn, Kind::Lance, Kind::Knight]));
    } else if !info.promoted && rr(to) == 2 {
        d = d.minus(KindSet::single(Kind::Knight));
    }
    d.iter().any(|k| walks(p, c, k, info.promoted, from, to))
}

/// Every from/to/promote and every hand entry × square, through `play`.
fn naive_accepted(p: &QuantumPosition) -> Vec<QMove> {
    let mut out = Vec::new();
    for from in Square::all() {
        for to in Square::all() {
            for promote in [false, true] {
                let m = QMove::Board { from, to, promote };
                let ok = p.clone().play(m).is_ok();
                assert_eq!(
                    ok,
                    naive_board_ok(p, m),
                    "{m}: play and first principles disagree"
                );
                if ok {
                    out.push(m);
                }
            }
        }
    }
    for hi in 0..p.hand(p.side_to_move()).len() {
        for to in Square::all() {
            let m = QMove::Drop {
                hand_index: hi as u8,
                to,
            };
            let ok = p.clone().play(m).is_ok();
            let id = p.hand(p.side_to_move())[hi];
            let rr = if p.side_to_move() == Color::Sente {
                to.rank()
            } else {
                10 - to.rank()
            };
            let excluded = match rr {
                1 => KindSet::of(&[Kind::Pawn, Kind::Lance, Kind::Knight]),
                2 => KindSet::single(Kind::Knight),
                _ => KindSet::EMPTY,
            };
            let naive = p.result().is_none()
                && p.piece_at(to).is_none()
                && !p.domain(id).minus(excluded).is_empty();
            assert_eq!(ok, naive, "{m}: play and first principles disagree");
            if ok {
                out.push(m);
            }
        }
    }
    out
}

fn drop_class(p: &QuantumPosition, m: QMove) -> Option<(usize, KindSet, Square)> {
    match m {
        QMove::Drop { hand_index, to } => {
            let id = p.hand(p.side_to_move())[hand_index as usize];
            Some((id as usize / 20, p.domain(id), to))
        }
        QMove::Board { .. } => None,
    }
}

fn random_walk(seed: u64, plies: usize, mut check: impl FnMut(&mut QuantumPosition)) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = QuantumPosition::default();
    for _ in 0..plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Prefer captures half of the time so that hands, drops and worlds fill up.
        let caps: Vec<QMove> = moves
            .iter()
            .copied()
            .filter(|m| p.captured_by(*m).is_some())
            .collect();
        let m = if !caps.is_empty() && rng.gen_bool(0.5) {
            caps[rng.gen_range(0..caps.len())]
        } else {
            moves[rng.gen_range(0..moves.len())]
        };
        p.play(m).unwrap();
        check(&mut p);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn engines_agree_and_undo_restores(seed in any::<u64>()) {
        random_walk(seed, 60, |p| {
            let mv = p.undo().unwrap();
            let before = p.clone();
            let mut worlds = Vec::new();
            for e in EngineKind::ALL {
                let mut q = before.clone();
                q.set_engine(e);
                q.play(mv).unwrap();
                worlds.push((*q.world(Color::Sente), *q.world(Color::Gote), q.result()));
                q.undo();
                assert_eq!(q, before, "undo with {}", e.name());
            }
            assert!(worlds.windows(2).all(|w| w[0] == w[1]), "engines disagree after {mv}");
            p.play(mv).unwrap();
        });
    }

    #[test]
    fn generator_matches_naive_play(seed in any::<u64>()) {
        let mut n = 0;
        random_walk(seed, 40, |p| {
            n += 1;
            if n % 8 != 0 {
                return;
            }
            let gen = p.legal_moves();
            let naive = naive_accepted(p);
            for m in &gen {
                assert!(naive.contains(m), "generated {m} rejected by play");
            }
            for m in &naive {
                match drop_class(p, *m) {
                    None => assert!(gen.contains(m), "play accepts {m}, not generated"),
                    Some(c) => assert!(
                        gen.iter().any(|g| drop_class(p, *g) == Some(c)),
                        "play accepts drop {m}, no generated drop of its class"
                    ),
                }
            }
            let mut classes: Vec<_> = gen.iter().filter_map(|g| drop_class(p, *g)).collect();
            let len = classes.len();
            classes.sort();
            classes.dedup();
            assert_eq!(classes.len(), len, "duplicate drop classes");
        });
    }
}

#[test]
fn perft_small_depths_are_stable() {
    let mut p = QuantumPosition::default();
    let d1 = p.perft(1);
    let d2 = p.perft(2);
    // Naive twin of depth 1: the naive from/to/promote enumeration through play.
    assert_eq!(d1 as usize, naive_accepted(&p).len());
    assert!(d2 > d1);
}

#[test]
fn random_walks_reach_drops_promotions_and_recaptures() {
    let (mut drops, mut promoted, mut own_back) = (0, 0, 0);
    for seed in 0..4 {
        random_walk(seed, 60, |p| {
            drops += p
                .legal_moves()
                .iter()
                .filter(|m| matches!(m, QMove::Drop { .. }))
                .count();
            for id in 0..40u8 {
                let i = p.piece(id);
                promoted += usize::from(i.promoted);
                own_back += usize::from(i.square.is_none() && i.owner == i.side);
            }
        });
    }
    assert!(
        drops > 0 && promoted > 0 && own_back > 0,
        "{drops} {promoted} {own_back}"
    );
}
