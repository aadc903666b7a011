//! `shogi-lab gen positions|tsume|quantum|records`: seeded, reproducible test
//! vectors as JSON lines (schemas in `specs/schema/`).

use super::Failure;
use crate::output;
use crate::shard::Shard;
use crate::testdata::gen::{self, RecordFormat, TsumeOptions};

/// Arguments of `shogi-lab gen`.
#[derive(Debug, clap::Args)]
pub struct GenArgs {
    /// What to generate.
    #[command(subcommand)]
    pub what: GenCommand,
}

/// Common options.
#[derive(Debug, clap::Args)]
pub struct Common {
    /// Number of vectors.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub count: u64,
    /// Seed: the same seed gives the same vectors.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Emit only part I of N (0-based) of the COUNT vectors: the I-th contiguous block,
    /// so the N parts concatenated in order are the unsharded output.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
}

impl Common {
    fn shard(&self) -> Shard {
        self.shard.unwrap_or(Shard::WHOLE)
    }
}

/// The generators.
#[derive(Debug, clap::Subcommand)]
pub enum GenCommand {
    /// Reachable positions from random playouts: legal moves, perft, check, outcome (specs/schema/gen-positions.md).
    Positions {
        #[command(flatten)]
        common: Common,
        /// perft depths 1..=D.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=5))]
        depth: u32,
    },
    /// Positions from random games whose proven-shortest mate is exactly L plies (specs/schema/gen-tsume.md).
    Tsume {
        #[command(flatten)]
        common: Common,
        /// Mate length in plies (odd).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=255))]
        plies: u16,
        /// Solver nodes per candidate position.
        #[arg(long, default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// Give up a vector after this many candidate positions (it is left out; exit 1).
        #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
        max_candidates: u64,
    },
    /// Quantum shogi worlds from random observation histories (specs/schema/gen-quantum.md).
    Quantum {
        #[command(flatten)]
        common: Common,
    },
    /// Random games written as records, for parser tests (specs/schema/gen-records.md).
    Records {
        #[command(flatten)]
        common: Common,
        /// The record format.
        #[arg(long = "to", value_parser = ["kif", "ki2", "csa", "jkf", "usi"])]
        to: String,
    },
}

/// Runs `gen`.
pub fn run(a: GenArgs) -> Result<(), Failure> {
    match a.what {
        GenCommand::Positions { common, depth } => {
            gen::positions(
                common.count as usize,
                common.seed,
                depth,
                common.shard(),
                |v| super::emit(output::to_line(&v)),
            );
            Ok(())
        }
        GenCommand::Tsume {
            common,
            plies,
            nodes,
            max_candidates,
        } => {
            if plies % 2 == 0 {
                return Err(Failure::input(format!(
                    "--plies {plies}: a mate has an odd number of plies"
                )));
            }
            let o = TsumeOptions {
                plies,
                nodes,
                max_candidates,
            };
            let count = common.count as usize;
            let shard = common.shard();
            // The solver recurses per ply: give it a deep stack, as tsume::solve does.
            let missing = std::thread::Builder::new()
                .stack_size(256 << 20)
                .spawn(move || {
                    let mut missing = Vec::new();
                    gen::tsume(count, common.seed, o, shard, |i, v| match v {
                        Some(v) => super::emit(output::to_line(&v)),
                        None => missing.push(i),
                    });
                    missing
                })
                .map_err(Failure::internal)?
                .join()
                .map_err(|_| Failure::internal("the generator thread panicked"))?;
            if let Some(first) = missing.first() {
                return Err(Failure::no_answer(format!(
                    "{} of {} vectors (the first: vector {first}) found no mate of exactly {plies} plies in {max_candidates} candidate positions",
                    missing.len(),
                    shard.items(count).len()
                )));
            }
            Ok(())
        }
        GenCommand::Quantum { common } => {
            gen::quantum(common.count as usize, common.seed, common.shard(), |v| {
                super::emit(output::to_line(&v))
            });
            Ok(())
        }
        GenCommand::Records { common, to } => {
            let format = match to.as_str() {
                "kif" => RecordFormat::Kif,
                "ki2" => RecordFormat::Ki2,
                "csa" => RecordFormat::Csa,
                "jkf" => RecordFormat::Jkf,
                _ => RecordFormat::Usi,
            };
            gen::records(
                common.count as usize,
                common.seed,
                format,
                common.shard(),
                |v| super::emit(output::to_line(&v)),
            );
            Ok(())
        }
    }
}
