use super::{read_position, Failure};
use crate::rules::{perft, perft_divide, Rules};
use std::time::Instant;

/// Arguments of `shogi-lab perft`.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// The position: a SFEN (quoted), `startpos`, or `position … moves …`.
    pub position: String,
    /// Depth in plies.
    pub depth: u32,
    /// One line per legal move: `<USI move>: <nodes>`.
    #[arg(long)]
    pub divide: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: PerftArgs) -> Result<(), Failure> {
    let mut pos = read_position(&a.position, Rules::STANDARD)?;
    let t = Instant::now();
    let (total, divide) = if a.divide {
        let d = perft_divide(&mut pos, a.depth.max(1));
        (d.iter().map(|x| x.1).sum::<u64>(), Some(d))
    } else {
        (perft(&mut pos, a.depth), None)
    };
    let secs = t.elapsed().as_secs_f64();
    let nps = total as f64 / secs.max(1e-9);
    if a.json {
        let mut obj = serde_json::json!({
            "sfen": crate::notation::sfen::write_sfen(&pos),
            "depth": a.depth, "nodes": total, "time_ms": (secs * 1000.0).round() as u64, "nps": nps.round() as u64,
        });
        if let Some(d) = &divide {
            obj["divide"] = d.iter().map(|(m, n)| (m.to_string(), serde_json::json!(n))).collect::<serde_json::Map<_, _>>().into();
        }
        super::emit(format!("{obj}"));
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
