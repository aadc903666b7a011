use super::{read_position, Failure};
use crate::rules::{perft, perft_divide, Rules};
use std::time::Instant;

/// Arguments of `shogi-lab perft`.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// The position: a SFEN (quoted), `startpos`, `position … moves …`, or a KIF/KI2/CSA file;
    /// a SFEN may lack one king or both (a tsume problem).
    pub position: String,
    /// Depth in plies (0 to 1000).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=i64::from(crate::rules::MAX_PERFT_DEPTH)))]
    pub depth: u32,
    /// One line per legal move: `<USI move>: <nodes>`.
    #[arg(long)]
    pub divide: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// With a record file: take the position after this many main-line moves.
    #[arg(long, default_value_t = 0)]
    pub ply: usize,
}

pub fn run(a: PerftArgs) -> Result<(), Failure> {
    if a.divide && a.depth == 0 {
        // There is no move at depth 0 to divide by (perft 0 is 1, the position itself).
        return Err(Failure::input("--divide needs a depth of at least 1"));
    }
    let mut pos = read_position(&a.position, Rules::KINGS_OPTIONAL, a.ply)?;
    let t = Instant::now();
    let (total, divide) = if a.divide {
        let d = perft_divide(&mut pos, a.depth);
        (d.iter().map(|x| x.1).sum::<u64>(), Some(d))
    } else {
        (perft(&mut pos, a.depth), None)
    };
    let secs = t.elapsed().as_secs_f64();
    let nps = total as f64 / secs.max(1e-9);
    if a.json {
        let out = crate::output::rules::PerftOut {
            sfen: crate::notation::sfen::write_sfen(&pos),
            depth: a.depth,
            nodes: total,
            time_ms: (secs * 1e3) as u64,
            nps: nps.round() as u64,
            divide: divide.as_ref().map(|d| {
                d.iter()
                    .map(|(m, n)| (m.to_string(), *n))
                    .collect::<std::collections::BTreeMap<_, _>>()
            }),
        };
        super::emit(crate::output::to_line(&out));
    } else {
        if let Some(d) = &divide {
            for (m, n) in d {
                super::emit(format!("{m}: {n}"));
            }
            super::emit("");
        }
        super::emit(format!("nodes {total}"));
        super::emit(format!("time {:.3} s", secs));
        super::emit(format!("nps {:.0}", nps));
    }
    Ok(())
}
