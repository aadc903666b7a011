//! Quantum shogi game speed: random-game plies per second and quantum perft
//! nodes per second with each convergence engine (every engine must produce
//! the same games and counts), and the cost of exact probabilities per move.

use super::{Config, Experiment, Progress, Table};
use crate::quantum::enumeration::{marginals, Diagram};
use crate::quantum::game::{random_game, EngineKind, QuantumPosition, Variant};
use crate::rules::Color;
use std::hint::black_box;
use std::time::Instant;

/// Table rows.
type Rows = Vec<Vec<String>>;

fn run(config: Config, progress: Progress<'_>) -> Result<Vec<Table>, String> {
    let games: u64 = if config.full { 100 } else { 10 };
    let plies = 200;
    let depth = if config.full { 4 } else { 3 };
    let steps = 2 * EngineKind::ALL.len() as u64 + 1;
    let mut step = 0;
    let mut tick = || {
        progress(step, steps);
        step += 1;
    };
    let (game_rows, reference) = random_games(games, plies, &mut tick)?;
    let ended = reference
        .as_ref()
        .map_or(0, |r| r.iter().filter(|p| p.result().is_some()).count());
    let perft_rows = perft_rows(depth, &mut tick)?;
    tick();
    let costs = move_costs(reference.unwrap_or_default())?;
    progress(steps, steps);
    let cmd = format!(
        "`cargo run --release -- experiments quantum-game{}`",
        if config.full { " --full" } else { "" }
    );
    Ok(vec![
        Table {
            title: "Random quantum games: plies per second (single thread)".into(),
            columns: ["engine", "games", "plies", "seconds", "plies/s"]
                .map(String::from)
                .to_vec(),
            rows: game_rows,
            notes: vec![
                format!(
                    "Seeds 0..{games}, at most {plies} plies, uniformly random legal moves (`quantum play --random`); \
                     a ply = generating the legal moves + playing one. Every engine plays identical games \
                     (moves and worlds checked); {ended} of {games} games ended by a king capture or 千日手."
                ),
                format!("Command: {cmd}."),
            ],
        },
        Table {
            title: "Quantum perft from the start: leaves per second".into(),
            columns: ["engine", "depth", "leaves", "seconds", "leaves/s"]
                .map(String::from)
                .to_vec(),
            rows: perft_rows,
            notes: vec![
                "Leaves at the last ply are counted from the legal move list (bulk counting); \
                 every interior node plays and converges. Engines run at the same depth give the same count; \
                 the diagram and SAT engines run one ply less to bound the time."
                    .into(),
            ],
        },
        costs.table(),
    ])
}

/// Random games: `games` of at most `plies` plies per engine (`tick` before each
/// engine): a row per engine and the first engine's games, which every other engine
/// must play identically.
fn random_games(
    games: u64,
    plies: usize,
    tick: &mut dyn FnMut(),
) -> Result<(Rows, Option<Vec<QuantumPosition>>), String> {
    let mut game_rows = Vec::new();
    let mut reference: Option<Vec<QuantumPosition>> = None;
    for e in EngineKind::ALL {
        tick();
        let t = Instant::now();
        let ps: Vec<QuantumPosition> = (0..games)
            .map(|s| random_game(s, plies, Variant::Standard, e).0)
            .collect();
        let secs = t.elapsed().as_secs_f64();
        let total: usize = ps.iter().map(QuantumPosition::ply).sum();
        match &reference {
            None => reference = Some(ps.clone()),
            Some(r) => {
                for (a, b) in r.iter().zip(&ps) {
                    let same = a.moves().eq(b.moves())
                        && Color::ALL.iter().all(|&c| a.world(c) == b.world(c));
                    if !same {
                        return Err(format!("{} plays a different game", e.name()));
                    }
                }
            }
        }
        game_rows.push(vec![
            e.name().to_string(),
            games.to_string(),
            total.to_string(),
            format!("{secs:.3}"),
            format!("{:.0}", total as f64 / secs),
        ]);
    }
    Ok((game_rows, reference))
}

/// Perft per engine (`depth`, one less for the slow engines; `tick` before each
/// engine): a row per engine; engines at the same depth must agree.
fn perft_rows(depth: u32, tick: &mut dyn FnMut()) -> Result<Rows, String> {
    let mut perft_rows = Vec::new();
    let mut counts = Vec::new();
    for e in EngineKind::ALL {
        tick();
        // The diagram and SAT engines are 20–200× slower per node: one ply less.
        let d = match e {
            EngineKind::Counting | EngineKind::Peel | EngineKind::Tail => depth,
            EngineKind::Enumeration | EngineKind::Sat => depth - 1,
        };
        let mut p = QuantumPosition::new(e, Variant::Standard);
        let t = Instant::now();
        let n = p.perft(d);
        let secs = t.elapsed().as_secs_f64();
        counts.push((d, n));
        perft_rows.push(vec![
            e.name().to_string(),
            d.to_string(),
            n.to_string(),
            format!("{secs:.3}"),
            format!("{:.0}", n as f64 / secs),
        ]);
    }
    for a in &counts {
        if counts.iter().any(|b| a.0 == b.0 && a.1 != b.1) {
            return Err("engines disagree on perft".into());
        }
    }
    Ok(perft_rows)
}

/// The cost of exact probabilities per position, in µs.
struct MoveCosts {
    positions: usize,
    play_us: f64,
    gen_us: f64,
    diag_us: f64,
    tail_us: f64,
}

/// Times play, move generation and both probability methods on every position
/// of the `reference` games, then checks the probabilities on every 7th.
fn move_costs(reference: Vec<QuantumPosition>) -> Result<MoveCosts, String> {
    let positions: Vec<QuantumPosition> = reference
        .into_iter()
        .flat_map(|p| {
            let mut q = p.clone();
            let mut out = Vec::new();
            while q.ply() > 0 {
                out.push(q.clone());
                q.undo();
            }
            out
        })
        .collect();
    let n = positions.len().max(1) as f64;
    let t = Instant::now();
    for p in &positions {
        let mut q = p.clone();
        if let Some(m) = q.undo() {
            black_box(q.play(m).is_ok());
        }
    }
    let play_us = t.elapsed().as_secs_f64() / n * 1e6;
    let t = Instant::now();
    for p in &positions {
        black_box(p.legal_moves());
    }
    let gen_us = t.elapsed().as_secs_f64() / n * 1e6;
    let t = Instant::now();
    for p in &positions {
        for c in Color::ALL {
            black_box(Diagram::build(&p.world(c).world));
        }
    }
    let diag_us = t.elapsed().as_secs_f64() / n * 1e6;
    let t = Instant::now();
    for p in &positions {
        for c in Color::ALL {
            let w = &p.world(c).world;
            black_box(marginals(w));
        }
    }
    let tail_us = t.elapsed().as_secs_f64() / n * 1e6;
    for p in positions.iter().step_by(7) {
        for c in Color::ALL {
            let w = &p.world(c).world;
            let d = Diagram::build(w);
            if marginals(w) != (d.total(), *d.counts()) || d.domains() != *w {
                return Err("probabilities disagree with the converged world".into());
            }
        }
    }
    Ok(MoveCosts {
        positions: positions.len(),
        play_us,
        gen_us,
        diag_us,
        tail_us,
    })
}

impl MoveCosts {
    fn table(&self) -> Table {
        let MoveCosts {
            positions,
            play_us,
            gen_us,
            diag_us,
            tail_us,
        } = self;
        Table {
            title: "Cost per move along the random games (µs)".into(),
            columns: ["operation", "µs per position"].map(String::from).to_vec(),
            rows: vec![
                vec!["play (counting engine converges)".into(), format!("{play_us:.2}")],
                vec!["generate legal moves".into(), format!("{gen_us:.2}")],
                vec![
                    "exact probabilities, both worlds (`Diagram::build`)".into(),
                    format!("{diag_us:.2}"),
                ],
                vec![
                    "exact probabilities, both worlds (`marginals`, closed-form tail)".into(),
                    format!("{tail_us:.2}"),
                ],
            ],
            notes: vec![format!(
                "{positions} positions (every position of the reference games). Probabilities are exact \
                 (u128 counts), checked against the converged worlds on every 7th position."
            )],
        }
    }
}

/// The experiment.
pub const EXPERIMENT: Experiment = Experiment {
    name: "quantum-game",
    description: "random quantum games plies/s and quantum perft leaves/s per engine, cost of exact probabilities",
    run,
};
