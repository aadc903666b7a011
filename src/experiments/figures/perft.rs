//! Perft speed against the peers (`perft-peers.jsonl`): million leaves per CPU
//! second per position, one bar per engine.

use super::chart::{self, Bars, PALETTE};
use super::Figure;
use crate::experiments::peers::{engines, read_jsonl, PerftPeerRow};
use std::path::Path;

/// The perft figure, if `dir` holds `perft-peers.jsonl`.
///
/// # Errors
/// A malformed data file, or drawing failed.
pub fn figures(dir: &Path) -> Result<Vec<Figure>, String> {
    let path = dir.join("perft-peers.jsonl");
    let Some(rows) = read_jsonl::<PerftPeerRow>(&path)? else {
        return Ok(Vec::new());
    };
    let positions = engines(rows.iter().map(|r| r.position.as_str()));
    let es = engines(rows.iter().map(|r| r.engine.as_str()));
    let categories: Vec<String> = positions
        .iter()
        .map(|p| {
            let d = rows
                .iter()
                .find(|r| &r.position == p)
                .map_or(0, |r| r.depth);
            format!("{p} d{d}")
        })
        .collect();
    let groups: Vec<Bars> = es
        .iter()
        .enumerate()
        .map(|(i, e)| Bars {
            label: e.clone(),
            values: positions
                .iter()
                .map(|p| {
                    rows.iter()
                        .find(|r| &r.position == p && &r.engine == e)
                        .map(PerftPeerRow::mnps)
                })
                .collect(),
            color: PALETTE[i % PALETTE.len()],
        })
        .collect();
    let h = 120 + 26 * (positions.len() * es.len()) as u32;
    let svg = chart::svg(900, h, |root| {
        let body = chart::titled(
            root,
            "perft: million leaves per CPU second, single thread",
            36,
        )?;
        chart::hbars(
            &body,
            "bulk counting at the last ply; equal leaf counts asserted",
            "M leaves / CPU s (log)",
            &categories,
            &groups,
            170,
            &|v| format!("{v:.0}"),
        )
    })?;
    Ok(vec![Figure {
        name: "perft".into(),
        caption: format!(
            "Perft speed per position (depth after the name), million leaves per CPU second, shogi-lab against haitaka and yasai (linked into one Rust harness) and cshogi (driven from Python, so interpreter overhead above the last ply is included). Data: `{}` (written by `python3 paper/scripts/perft_peers.py`; versions and machine in `perft-peers.md`). Command: `cargo run --release -- experiments peers --data {}`.",
            path.display(),
            dir.display()
        ),
        svg,
    }])
}
