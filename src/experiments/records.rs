//! Record formats: write random games as KIF, KI2, CSA and USI, read them back,
//! check every move survives, and time both directions.

use super::{Config, Experiment, Progress, Table};
use crate::notation::csa::{read_csa, write_csa};
use crate::notation::kif::{read_kif, write_kif, Flavor};
use crate::notation::record::Record;
use crate::notation::sfen::{parse_usi_position, write_usi_position};
use crate::rules::{Move, Position, Rules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

fn random_games(n: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let mut p = Position::startpos();
            let mut moves = Vec::new();
            for _ in 0..rng.gen_range(20..200) {
                let l = p.legal_moves();
                if l.is_empty() {
                    break;
                }
                let m = l[rng.gen_range(0..l.len())];
                p.play_unchecked(m);
                moves.push(m);
            }
            moves
        })
        .collect()
}

type Writer = fn(&Record) -> String;
type Reader = fn(&str) -> Result<Vec<Move>, String>;

fn run(config: Config, progress: Progress<'_>) -> Result<Vec<Table>, String> {
    let n = if config.full { 2000 } else { 200 };
    let games = random_games(n, 2026);
    let start = Position::startpos();
    let records: Vec<Record> = games
        .iter()
        .map(|g| Record::from_moves(start.clone(), g))
        .collect();
    let formats: [(&str, Writer, Reader); 4] = [
        (
            "KIF",
            |r| write_kif(r, Flavor::Kif),
            |t| {
                read_kif(t)
                    .map(|r| r.main_moves())
                    .map_err(|e| e.to_string())
            },
        ),
        (
            "KI2",
            |r| write_kif(r, Flavor::Ki2),
            |t| {
                read_kif(t)
                    .map(|r| r.main_moves())
                    .map_err(|e| e.to_string())
            },
        ),
        ("CSA", write_csa, |t| {
            read_csa(t)
                .map_err(|e| e.to_string())?
                .first()
                .map(|r| r.main_moves())
                .ok_or_else(|| "no game".to_string())
        }),
        (
            "USI",
            |r| write_usi_position(&r.start, &r.main_moves()),
            |t| {
                parse_usi_position(t, Rules::STANDARD)
                    .map(|u| u.moves)
                    .map_err(|e| e.to_string())
            },
        ),
    ];
    let total_moves: usize = games.iter().map(Vec::len).sum();
    let mut rows = Vec::new();
    for (i, (name, write, read)) in formats.iter().enumerate() {
        progress(i as u64, formats.len() as u64);
        let t = Instant::now();
        let texts: Vec<String> = records.iter().map(write).collect();
        let write_s = t.elapsed().as_secs_f64();
        let bytes: usize = texts.iter().map(String::len).sum();
        let t = Instant::now();
        for (g, text) in texts.iter().enumerate() {
            let back = read(text).map_err(|e| format!("{name} game {g}: {e}"))?;
            if back != games[g] {
                return Err(format!(
                    "{name} game {g}: moves differ after the round trip"
                ));
            }
        }
        let read_s = t.elapsed().as_secs_f64();
        rows.push(vec![
            name.to_string(),
            n.to_string(),
            total_moves.to_string(),
            format!("{:.1}", bytes as f64 / 1024.0),
            format!("{:.0}", total_moves as f64 / write_s.max(1e-9) / 1e3),
            format!("{:.0}", total_moves as f64 / read_s.max(1e-9) / 1e3),
            "✓".into(),
        ]);
    }
    progress(formats.len() as u64, formats.len() as u64);
    Ok(vec![Table {
        title: "Record round trips on random games (write, read back, compare every move)".into(),
        columns: ["format", "games", "moves", "KiB written", "k moves/s written", "k moves/s read", "identical"]
            .map(String::from)
            .to_vec(),
        rows,
        notes: vec![
            format!(
                "Command: `cargo run --release -- experiments records{}` (games from seeded random playouts; reading resolves every move against the position, KI2 with 連盟 disambiguation).",
                if config.full { " --full" } else { "" }
            ),
            "Cross-check with cshogi's KIF/CSA parsers and exporters: `python3 paper/scripts/cshogi_records.py` (run by `.ci/run`).".into(),
        ],
    }])
}

/// The registered experiment.
pub const EXPERIMENT: Experiment = Experiment {
    name: "records",
    description: "KIF/KI2/CSA/USI write and read speed on random games, every move round-tripped",
    run,
};
