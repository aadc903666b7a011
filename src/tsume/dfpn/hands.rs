//! Proof pieces (証明駒) and disproof pieces (反証駒): the least attacker hand a proof
//! needs and the largest one a disproof refutes, as in shtsume / KomoringHeights
//! (hand superiority, seed `001_6ac4b9bdc74d4693.txt`).

use crate::rules::{Hand, PieceKind};

/// Componentwise maximum of two hands.
pub(super) fn hand_max(a: Hand, b: Hand) -> Hand {
    PieceKind::HAND.iter().fold(a, |h, &k| {
        if b.count(k) > h.count(k) {
            h.with_count(k, b.count(k))
        } else {
            h
        }
    })
}

/// Proof pieces of an OR node proven by a check whose child needs `child`: give back
/// what the check captured (it came for free), add what it dropped.
pub(super) fn or_proof_hand(child: Hand, delta: (Option<PieceKind>, Option<PieceKind>)) -> Hand {
    let mut h = child;
    if let Some(c) = delta.1 {
        if h.count(c) > 0 {
            h = h.remove(c);
        }
    }
    if let Some(d) = delta.0 {
        h = h.add(d);
    }
    h
}

/// Proof pieces of an AND node whose replies need `need`: if a drop could interpose,
/// every kind the defender lacks must stay out of its reach, so the attacker keeps all
/// of it (証明駒, as in shtsume / KomoringHeights).
pub(super) fn and_proof_hand(
    need: Hand,
    attacker: Hand,
    defender: Hand,
    interposable: bool,
) -> Hand {
    if !interposable {
        return need;
    }
    PieceKind::HAND.iter().fold(need, |h, &k| {
        if defender.count(k) == 0 {
            h.with_count(k, attacker.count(k))
        } else {
            h
        }
    })
}

/// Componentwise minimum of two hands.
pub(super) fn hand_min(a: Hand, b: Hand) -> Hand {
    PieceKind::HAND.iter().fold(a, |h, &k| {
        if b.count(k) < h.count(k) {
            h.with_count(k, b.count(k))
        } else {
            h
        }
    })
}

/// Disproof pieces of an AND node out of ply budget that has a reply other than an
/// interposition: the reply exists whatever the hands, so every piece in hand may be the
/// attacker's.
pub(super) fn any_hand(attacker: Hand, defender: Hand) -> Hand {
    PieceKind::HAND.iter().fold(attacker, |h, &k| {
        h.with_count(k, attacker.count(k) + defender.count(k))
    })
}

/// Disproof pieces (反証駒) of an OR node without checks: the attacker may hold every
/// piece of a kind it already holds (more copies of a held kind give no new check; as in
/// shtsume's `disproof_koma`), nothing of the kinds it lacks.
pub(super) fn leaf_disproof_hand(attacker: Hand, defender: Hand) -> Hand {
    PieceKind::HAND.iter().fold(attacker, |h, &k| {
        if attacker.count(k) > 0 {
            h.with_count(k, attacker.count(k) + defender.count(k))
        } else {
            h
        }
    })
}

/// The disproof pieces a disproven check's child `child` (the attacker hand its disproof
/// allows) gives its OR node: take back what the check dropped, give back what it captured.
/// A count already at the full set's ([`PieceKind::max_count`]: "any number") stays there:
/// along a line of drops the counts would otherwise grow past what a hand can hold
/// (図巧100 stored 39 pawns in a bounded disproof and the table's decoding panicked).
pub(super) fn or_disproof_child(
    child: Hand,
    delta: (Option<PieceKind>, Option<PieceKind>),
) -> Hand {
    let mut h = child;
    if let Some(d) = delta.0 {
        if h.count(d) < d.max_count() {
            h = h.add(d);
        }
    }
    if let Some(c) = delta.1 {
        if h.count(c) > 0 {
            h = h.remove(c);
        }
    }
    h
}

/// Disproof pieces of an OR node whose checks' children allow `min` (componentwise
/// minimum of [`or_disproof_child`]): kinds the attacker lacks stay absent (a piece of
/// such a kind would add drops that were never refuted); never below the actual hand.
pub(super) fn or_disproof_hand(min: Hand, attacker: Hand) -> Hand {
    let h = PieceKind::HAND.iter().fold(min, |h, &k| {
        if attacker.count(k) == 0 {
            h.with_count(k, 0)
        } else {
            h
        }
    });
    hand_max(h, attacker)
}

/// Disproof pieces of an AND node refuted by the reply `drop_kind` (a drop of that kind,
/// or `None`) whose child allows `child`: the defender must still hold the dropped
/// piece, so the attacker gets no more of that kind.
pub(super) fn and_disproof_hand(child: Hand, attacker: Hand, drop_kind: Option<PieceKind>) -> Hand {
    let h = match drop_kind {
        Some(k) => child.with_count(k, child.count(k).min(attacker.count(k))),
        None => child,
    };
    hand_max(h, attacker)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(pairs: &[(PieceKind, u8)]) -> Hand {
        pairs
            .iter()
            .fold(Hand::EMPTY, |h, &(k, n)| h.with_count(k, n))
    }

    #[test]
    fn disproof_pieces_follow_the_rules() {
        use PieceKind::{Bishop, Gold, Pawn};
        // No checks: held kinds may grow to every remaining piece, absent kinds stay absent.
        let leaf = leaf_disproof_hand(h(&[(Gold, 1)]), h(&[(Gold, 2), (Pawn, 17)]));
        assert_eq!(leaf, h(&[(Gold, 3)]));
        // A check that dropped a gold and captured a pawn: undo both.
        let c = or_disproof_child(h(&[(Gold, 2), (Pawn, 3)]), (Some(Gold), Some(Pawn)));
        assert_eq!(c, h(&[(Gold, 3), (Pawn, 2)]));
        // "Any number" of a kind (the full set's count) stays any number when taken back.
        let all = or_disproof_child(h(&[(Pawn, 18), (Gold, 4)]), (Some(Pawn), None));
        assert_eq!(all, h(&[(Pawn, 18), (Gold, 4)]));
        assert_eq!(
            or_disproof_child(h(&[(Gold, 4)]), (Some(Gold), Some(Pawn))),
            h(&[(Gold, 4)])
        );
        // OR node: kinds the attacker lacks are cleared, never below the actual hand.
        let or = or_disproof_hand(h(&[(Bishop, 1), (Gold, 1)]), h(&[(Gold, 2)]));
        assert_eq!(or, h(&[(Gold, 2)]));
        // AND node refuted by a gold drop: no extra golds for the attacker.
        let and = and_disproof_hand(h(&[(Gold, 3), (Pawn, 5)]), h(&[(Gold, 1)]), Some(Gold));
        assert_eq!(and, h(&[(Gold, 1), (Pawn, 5)]));
        assert_eq!(
            and_disproof_hand(h(&[(Gold, 3)]), h(&[(Gold, 1)]), None),
            h(&[(Gold, 3)])
        );
    }
}
