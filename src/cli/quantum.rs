//! `shogi-lab quantum converge|probabilities|observe`.

mod certified;
pub(crate) mod game;

use super::{emit, Failure};
use crate::output::quantum::{ConvergeOut, Observation, ProbabilitiesOut};
use crate::quantum::enumeration::{render_table, Diagram};
use crate::quantum::{engine_by_name, Converged, World, PIECES};
use serde::Serialize;

fn to_json(v: &impl Serialize) -> String {
    crate::output::to_line(v)
}

/// Arguments of `shogi-lab quantum`.
#[derive(Debug, clap::Args)]
pub struct QuantumArgs {
    /// What to compute.
    #[command(subcommand)]
    pub command: QuantumCommand,
}

/// The `quantum` subcommands. WORLD is 20 whitespace-separated tokens (one
/// quoted argument or several), each a set of kind letters from `KRBGSNLP` in
/// any order, or `*` for all kinds.
#[derive(Debug, clap::Subcommand)]
pub enum QuantumCommand {
    /// Converge a world: each piece's remaining kinds and the used-up kinds, or the conflicting pieces.
    Converge {
        /// Engine.
        #[arg(long, value_enum, default_value_t = EngineName::Counting)]
        engine: EngineName,
        /// JSON output.
        #[arg(long)]
        json: bool,
        /// Also print a certificate (a witness assignment per kept kind, a Hall
        /// violator per removed kind or for the contradiction), checked in-process.
        #[arg(long)]
        certify: bool,
        /// The 20 domains.
        #[arg(required = true, num_args = 1..)]
        world: Vec<String>,
    },
    /// Number of worlds and exact per-piece, per-kind counts and probabilities.
    Probabilities {
        /// JSON output.
        #[arg(long)]
        json: bool,
        /// The 20 domains.
        #[arg(required = true, num_args = 1..)]
        world: Vec<String>,
    },
    /// The "observed when captured" variant: collapse PIECE to one kind drawn with its probability.
    Observe {
        /// RNG seed (ChaCha8).
        #[arg(long)]
        seed: u64,
        /// JSON output.
        #[arg(long)]
        json: bool,
        /// The 20 domains followed by PIECE (0-based).
        #[arg(required = true, num_args = 2..)]
        world_and_piece: Vec<String>,
    },
    /// Replay a game record (ours, or shogitter's JSON), checking every recorded state.
    Replay(game::ReplayArgs),
    /// Play random legal games (reproducible) and write their records.
    Play(game::PlayArgs),
    /// Number of legal move sequences of DEPTH plies from the start.
    Perft(game::PerftArgs),
}

/// Engine names for `--engine`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineName {
    /// The 255 kind-subset pass.
    Counting,
    /// The shogitter class-subset peel.
    Peel,
    /// CNF + varisat; every unsatisfiable call certified by a checked DRAT refutation.
    Sat,
    /// The capacity-vector decision diagram.
    Enumeration,
    /// Régin's matching filter.
    Matching,
}

/// The world given as one or several arguments (joined by spaces; errors are placed in
/// that text as `<argument>:1:COL:`).
fn read_world(tokens: &[String]) -> Result<World, Failure> {
    let text = tokens.join(" ");
    Ok(World::parse_exact(&text).map_err(|e| {
        super::error::InputError::in_line(super::error::Origin::Argument, 1, 1, &text, &e)
    })?)
}

fn print_converged(c: &Converged, json: bool) {
    if json {
        emit(to_json(&ConvergeOut::new(&Ok(*c))));
    } else {
        emit("consistent");
        emit(format!("world:   {}", c.world));
        emit(format!("used up: {}", c.used_up));
    }
}

/// A contradictory world: the minimal conflicting pieces (an answer, exit 0).
fn print_contradiction(w: &World, c: &crate::quantum::Contradiction, json: bool) {
    if json {
        emit(to_json(&ConvergeOut::new(&Err(c.clone()))));
    } else {
        let doms: Vec<String> = c
            .conflict
            .iter()
            .map(|&i| format!("{i}:{}", w.0[i]))
            .collect();
        emit(format!("contradiction: pieces {}", doms.join(" ")));
    }
}

/// Runs `shogi-lab quantum …`.
///
/// # Errors
/// Exit 2 for a malformed world or piece. A contradictory world is an answer (exit 0)
/// for every subcommand: `converge` and `observe` print its conflicting pieces,
/// `probabilities` its 0 worlds (README, exit codes).
pub fn run(a: QuantumArgs) -> Result<(), Failure> {
    match a.command {
        QuantumCommand::Converge {
            engine,
            json,
            certify,
            world,
        } => {
            let w = read_world(&world)?;
            let name = match engine {
                EngineName::Counting => "counting",
                EngineName::Peel => "peel",
                EngineName::Sat => "sat-drat",
                EngineName::Enumeration => "enumeration",
                EngineName::Matching => "matching",
            };
            let e = engine_by_name(name)
                .ok_or_else(|| Failure::internal(format!("engine {name} missing")))?;
            let answer = e.converge(&w);
            if certify {
                return certified::print(&w, &answer, json);
            }
            match answer {
                Ok(c) => print_converged(&c, json),
                Err(c) => print_contradiction(&w, &c, json),
            }
        }
        QuantumCommand::Probabilities { json, world } => {
            let w = read_world(&world)?;
            let d = Diagram::build(&w);
            if json {
                emit(to_json(&ProbabilitiesOut::new(&d)));
            } else {
                emit(render_table(&d).trim_end());
            }
        }
        QuantumCommand::Replay(a) => return game::replay(a),
        QuantumCommand::Play(a) => return game::play(a),
        QuantumCommand::Perft(a) => return game::perft(a),
        QuantumCommand::Observe {
            seed,
            json,
            mut world_and_piece,
        } => {
            let piece_text = world_and_piece.pop().unwrap_or_default();
            let w = read_world(&world_and_piece)?;
            let piece: usize =
                piece_text
                    .parse()
                    .ok()
                    .filter(|&p| p < PIECES)
                    .ok_or_else(|| {
                        Failure::input(format!("bad piece {piece_text:?} (expected 0..19)"))
                    })?;
            let o = Observation::new(&w, piece, seed).map_err(Failure::internal)?;
            if json {
                emit(to_json(&o.out(piece)));
                return Ok(());
            }
            match &o {
                // Nothing to observe: the answer is the contradiction, as `converge` gives it.
                Observation::Contradiction(c) => print_contradiction(&w, c, false),
                Observation::Observed {
                    kind,
                    probability,
                    after,
                } => {
                    emit(format!(
                        "piece {piece} is {} ({}) with probability {probability}",
                        kind.letter(),
                        kind.kanji()
                    ));
                    print_converged(after, false);
                }
            }
        }
    }
    Ok(())
}
