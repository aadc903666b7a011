//! Quantum figures: converge calls per second per engine (from the `quantum`
//! table) and the exact kind probabilities of every piece along the real game
//! Room 9168 (`specs/quantum/room-9168.json`), replayed here.

use super::chart::{self, Bars, PALETTE};
use super::{column, leading_number, table, Figure};
use crate::experiments::Table;
use crate::quantum::enumeration::Diagram;
use crate::quantum::game::{EngineKind, QuantumPosition, Variant};
use crate::quantum::{shogitter, Kind, PIECES};
use crate::rules::Color;

/// The shogitter record drawn by [`room_9168`] (the file `tests/quantum_game.rs` replays).
const ROOM_9168: &str = include_str!("../../../specs/quantum/room-9168.json");

/// Converge calls per second, one bar per engine row of the `quantum` experiment.
///
/// # Errors
/// The table is missing or a cell does not parse.
pub fn converges(tables: &[Table], cmd: &str) -> Result<Figure, String> {
    let t = table(tables, "Converge calls per second")?;
    let names: Vec<String> = column(t, "engine")?
        .into_iter()
        .map(|c| c.replace('`', ""))
        .collect();
    let values = column(t, "converges/s")?
        .into_iter()
        .map(leading_number)
        .collect::<Result<Vec<_>, _>>()?;
    let h = 140 + 34 * names.len() as u32;
    let svg = chart::svg(1000, h, |root| {
        let body = chart::titled(
            root,
            "quantum shogi: converge calls per second, single thread",
            36,
        )?;
        chart::hbars(
            &body,
            "seeded worlds from random observation histories; every answer checked against counting",
            "converges / s (log)",
            &names,
            &[Bars {
                label: "converges/s".into(),
                values,
                color: PALETTE[0],
            }],
            440,
            &|v| chart::tick(v),
        )
    })?;
    Ok(Figure {
        name: "converges".into(),
        caption: format!(
            "Converge calls per second of each engine on the experiment's seeded worlds (log scale; single thread, wall clock on the shared machine). Data: the table above. Command: {cmd}."
        ),
        svg,
    })
}

/// P(slot is kind) for both worlds after every ply of Room 9168: `[ply][side][slot][kind]`.
///
/// # Errors
/// The record does not replay (every move and state is checked against the record).
pub fn room_9168_probabilities() -> Result<Vec<[[[f64; 8]; PIECES]; 2]>, String> {
    let game = shogitter::parse(ROOM_9168).map_err(|e| format!("room-9168.json: {e}"))?;
    let snapshot = |p: &QuantumPosition| {
        let mut a = [[[0f64; 8]; PIECES]; 2];
        for c in Color::ALL {
            let d = Diagram::build(&p.world(c).world);
            for (slot, row) in a[c.index()].iter_mut().enumerate() {
                for k in Kind::ALL {
                    row[k.index()] = d
                        .probability(slot, k)
                        .map_or(0.0, |r| r.numer() as f64 / r.denom() as f64);
                }
            }
        }
        a
    };
    let mut out = vec![snapshot(&QuantumPosition::new(
        EngineKind::Counting,
        Variant::Standard,
    ))];
    // Every move, state and the end of the record are checked against the record.
    shogitter::replay(&game, EngineKind::Counting, usize::MAX, |_, _, _, p| {
        out.push(snapshot(p));
    })
    .map_err(|e| format!("room-9168.json: {e}"))?;
    Ok(out)
}

/// Heat maps of P(kind) per world slot and ply along Room 9168: a row of panels per kind,
/// a column per world.
///
/// # Errors
/// The record does not replay, or drawing failed.
pub fn room_9168(cmd: &str) -> Result<Figure, String> {
    let probs = room_9168_probabilities()?;
    let plies = probs.len() - 1;
    let svg = chart::svg(1000, 1420, |root| {
        let body = chart::titled(
            root,
            &format!("quantum shogi, Room 9168 ({plies} plies): P(piece is kind) after each ply"),
            36,
        )?;
        let (grid, bar) = body.split_vertically(1420 - 36 - 64);
        let panels = grid.split_evenly((Kind::ALL.len(), 2));
        for (i, area) in panels.iter().enumerate() {
            let (k, side) = (Kind::ALL[i / 2], Color::ALL[i % 2]);
            let cells: Vec<Vec<f64>> = (0..PIECES)
                .map(|slot| {
                    probs
                        .iter()
                        .map(|a| a[side.index()][slot][k.index()])
                        .collect()
                })
                .collect();
            let world = if side == Color::Sente {
                "☗ Sente's pieces"
            } else {
                "☖ Gote's pieces"
            };
            let last = i / 2 == Kind::ALL.len() - 1;
            chart::heatmap(
                area,
                &format!("{world}: P({})", k.kanji()),
                if last { "ply" } else { "" },
                "slot",
                &cells,
            )?;
        }
        chart::colorbar(
            &bar,
            "probability (exact, from the decision diagram; colour on a square-root scale)",
        )
    })?;
    Ok(Figure {
        name: "room-9168".into(),
        caption: format!(
            "Exact probability that each piece is a given kind (uniform over the worlds consistent with everything observed) after every ply of the shogitter game Room 9168 (`specs/quantum/room-9168.json`, replayed and checked against every recorded move and state). Rows: the 20 world slots of each side in order of first observation (a slot not yet observed shows the probability of an unmoved piece); columns: plies 0–{plies}; colour on a square-root scale so that small probabilities stay visible. Command: {cmd}."
        ),
        svg,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_9168_probabilities_are_distributions() {
        let probs = room_9168_probabilities().unwrap();
        assert_eq!(probs.len(), 60);
        for a in &probs {
            for side in a {
                for row in side {
                    let s: f64 = row.iter().sum();
                    assert!((s - 1.0).abs() < 1e-9, "{row:?}");
                }
                // Each kind's column sums to its capacity (specs: K1 R1 B1 G2 S2 N2 L2 P9).
                for (k, cap) in [1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 9.0].iter().enumerate() {
                    let s: f64 = side.iter().map(|r| r[k]).sum();
                    assert!((s - cap).abs() < 1e-9, "kind {k}: {s}");
                }
            }
        }
        // At the start every piece is a pawn with probability 9/20.
        assert!((probs[0][0][0][Kind::Pawn.index()] - 0.45).abs() < 1e-12);
    }
}
