//! `shogi-lab gen positions|tsume|quantum|records`: seeded, reproducible test
//! vectors as JSON lines (schemas in `specs/schema/`).

use super::Failure;
use crate::output;
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
        /// Stop after this many candidate positions (exit 1 if fewer than --count were found).
        #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
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
            gen::positions(common.count as usize, common.seed, depth, |v| {
                super::emit(output::to_line(&v))
            });
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
            let want = common.count as usize;
            // The solver recurses per ply: give it a deep stack, as tsume::solve does.
            let found = std::thread::Builder::new()
                .stack_size(256 << 20)
                .spawn(move || {
                    let mut found = 0;
                    gen::tsume(want, common.seed, o, |v| {
                        found += 1;
                        super::emit(output::to_line(&v))
                    });
                    found
                })
                .map_err(Failure::internal)?
                .join()
                .map_err(|_| Failure::internal("the generator thread panicked"))?;
            if found < want {
                return Err(Failure::no_answer(format!(
                    "found {found} of {want} mates of {plies} plies in {max_candidates} candidate positions"
                )));
            }
            Ok(())
        }
        GenCommand::Quantum { common } => {
            gen::quantum(common.count as usize, common.seed, |v| {
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
            gen::records(common.count as usize, common.seed, format, |v| {
                super::emit(output::to_line(&v))
            });
            Ok(())
        }
    }
}
