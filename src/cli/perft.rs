use super::{read_position, Failure};
use crate::rules::{perft_checked, position_reach, PerftError, Rules};
use std::time::Instant;

/// Arguments of `shogi-lab perft`.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// The position: a SFEN (quoted), `startpos`, `position … moves …`, or a KIF/KI2/CSA file
    /// (`-`: stdin, a record or one position line); a SFEN may lack one king or both (a tsume
    /// problem).
    pub position: String,
    /// Depth in plies (0 to 1000); a depth whose count would pass 2^64 − 1 (estimated from
    /// the exact counts at the shallow depths: from the start position, above 13) is
    /// refused before counting.
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
    position_reach(&pos, a.depth).map_err(Failure::input)?;
    let t = Instant::now();
    let overflow = |e: PerftError| Failure::no_answer(format!("perft depth {}: {e}", a.depth));
    let (total, divide) = if a.divide {
        let mut total = 0u64;
        let mut d = Vec::new();
        for m in pos.legal_moves() {
            pos.play_unchecked(m);
            let n = perft_checked(&mut pos, a.depth - 1);
            pos.undo();
            let n = n.map_err(overflow)?;
            total = total
                .checked_add(n)
                .ok_or(PerftError::Overflow {
                    max: u128::from(u64::MAX),
                })
                .map_err(overflow)?;
            d.push((m, n));
        }
        (total, Some(d))
    } else {
        (perft_checked(&mut pos, a.depth).map_err(overflow)?, None)
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
