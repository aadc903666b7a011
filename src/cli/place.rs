use super::Failure;
use crate::output::placement::{direction_name, PlaceCount, PlaceFirst, PlaceListed};
use crate::output::{millis, to_line};
use crate::placement::{check_placement, Directions, First, PieceSet, Placement, Problem};
use crate::shard::Shard;
use indicatif::{ProgressBar, ProgressStyle};
use std::ops::ControlFlow;
use std::time::Instant;

/// The answer to a count that does not fit in 64 bits (search and sweep alike).
const OVERFLOW: &str = "the count does not fit in 64 bits";

/// Arguments of `shogi-lab place`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("mode").args(["count", "all", "first"])))]
pub struct PlaceArgs {
    /// The pieces in USI letters with counts, e.g. `P18L4N4S4G4K2R2B2`, `+P8N`.
    pub pieces: String,
    /// Count every placement (mirror images separately, and up to mirror).
    #[arg(long)]
    pub count: bool,
    /// List every placement (streamed).
    #[arg(long)]
    pub all: bool,
    /// Find one placement, or prove by exhaustive search that none exists (default).
    #[arg(long)]
    pub first: bool,
    /// Each piece may be Sente or Gote (双方向); default: all Sente.
    #[arg(long)]
    pub both_directions: bool,
    /// With --first: give up after about this many nodes (exit 1, nothing proved; at
    /// least 1, polled every 4096 nodes of each worker).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub node_limit: Option<u64>,
    /// With --count: count by the transfer-matrix sweep (one direction only)
    /// instead of the search — an independent method, fast for sets with few
    /// long-range pieces.
    #[arg(long, requires = "count")]
    pub sweep: bool,
    /// With --count: count only part I of N (0-based) of the top-level search
    /// branches (with --sweep: of the long-range layouts); the N parts' counts
    /// sum to the whole count.
    #[arg(long, requires = "count", value_name = "I/N")]
    pub shard: Option<Shard>,
    /// With --count: memory limit in MiB (at most what the machine has available). With
    /// --sweep it bounds the layouts and DP states (default: half the memory available
    /// when the count starts), and past it the count stops with exit 1; the search
    /// bounds its tail memo by it (default: that half, at most 2.5 GiB), which then
    /// stops remembering — the count is the same, only slower.
    #[arg(long, requires = "count", value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    pub memory: Option<u64>,
    /// JSON output (one object, `specs/schema/commands.md`; with --all one `{"index","sfen"}` a line).
    #[arg(long)]
    pub json: bool,
}

fn checked(p: &Problem, b: &Placement) -> Result<(), Failure> {
    check_placement(p, b).map_err(|e| {
        Failure::internal(format!(
            "solver output failed the checker: {e}: {}",
            b.sfen()
        ))
    })
}

/// Options that belong to another mode than the one asked for: an error, never ignored.
/// (clap's `requires = "count"` also passes when another member of the mode group is
/// given, so `--first --sweep` would run silently without this check.)
fn check_mode_options(a: &PlaceArgs) -> Result<(), Failure> {
    let count_only = [
        ("--sweep", a.sweep),
        ("--shard", a.shard.is_some()),
        ("--memory", a.memory.is_some()),
    ];
    if !a.count {
        if let Some((name, _)) = count_only.iter().find(|(_, given)| *given) {
            return Err(Failure::input(format!("{name} needs --count")));
        }
    }
    if a.node_limit.is_some() && (a.count || a.all) {
        let mode = if a.count { "--count" } else { "--all" };
        return Err(Failure::input(format!(
            "--node-limit is for --first, not {mode}"
        )));
    }
    Ok(())
}

pub fn run(a: PlaceArgs) -> Result<(), Failure> {
    check_mode_options(&a)?;
    let set = PieceSet::parse(&a.pieces).map_err(|e| {
        super::error::InputError::in_line(super::error::Origin::Argument, 1, 1, &a.pieces, &e)
    })?;
    let dirs = if a.both_directions {
        Directions::Two
    } else {
        Directions::One
    };
    let p = Problem::new(set, dirs);
    let t = Instant::now();
    if let Some(m) = a.memory {
        crate::resources::check_memory_request(m << 20, "--memory").map_err(Failure::input)?;
    }
    if a.count && a.sweep {
        count_by_sweep(&a, &p, t)
    } else if a.count {
        count_by_search(&a, &p, t)
    } else if a.all {
        list_all(&a, &p, t)
    } else {
        find_first(&a, &p, t)
    }
}

/// `one direction` or `two directions`, as the text output names them.
fn dir_name(a: &PlaceArgs) -> &'static str {
    if a.both_directions {
        "two directions"
    } else {
        "one direction"
    }
}

/// `, shard I/N` after the pieces in the text output, or nothing.
fn shard_text(a: &PlaceArgs) -> String {
    a.shard.map_or(String::new(), |s| format!(", shard {s}"))
}

/// `--count --sweep`: the transfer-matrix count, within `--memory`.
fn count_by_sweep(a: &PlaceArgs, p: &Problem, t: Instant) -> Result<(), Failure> {
    let (set, dir_name, shard_text) = (p.set, dir_name(a), shard_text(a));
    let shard = a.shard.unwrap_or(Shard::WHOLE);
    let bar = ProgressBar::new(1);
    bar.set_style(
        ProgressStyle::with_template("[{bar:30}] {pos}/{len} layouts {elapsed} (eta {eta})")
            .expect("template")
            .progress_chars("=> "),
    );
    let limit = a
        .memory
        .map_or_else(crate::resources::default_memory_limit, |m| m << 20);
    let c = crate::placement::sweep::sweep_count_limited(p, shard, limit, &|done, total| {
        bar.set_length(total);
        bar.set_position(done);
    })
    .map_err(|e| match e {
        // Limits of the tool, not of the input: no answer (exit 1).
        crate::placement::SweepError::MemoryLimit { .. }
        | crate::placement::SweepError::Overflow => {
            bar.finish_and_clear();
            Failure::no_answer(e.to_string())
        }
        e => Failure::input(e.to_string()),
    })?;
    bar.finish_and_clear();
    let secs = t.elapsed().as_secs_f64();
    if a.json {
        super::emit(to_line(&PlaceCount::sweep(
            &set,
            a.shard,
            &c,
            millis(t.elapsed()),
        )));
    } else {
        super::emit(format!("pieces {set} ({dir_name}, sweep{shard_text})"));
        super::emit(format!("count {}", c.count));
        super::emit(format!("count up to mirror {}", c.up_to_mirror()));
        super::emit(format!("mirror-symmetric {}", c.symmetric));
        super::emit(format!(
            "long-range layouts {}, DP states {} (peak {})",
            c.layouts, c.states, c.peak_states
        ));
        super::emit(format!("time {secs:.3} s"));
    }
    Ok(())
}

/// `--count`: the search's count, its tail memo within `--memory`.
fn count_by_search(a: &PlaceArgs, p: &Problem, t: Instant) -> Result<(), Failure> {
    let (set, dir_name, shard_text) = (p.set, dir_name(a), shard_text(a));
    let shard = a.shard.unwrap_or(Shard::WHOLE);
    let bar = ProgressBar::new(1);
    bar.set_style(
        ProgressStyle::with_template("[{bar:30}] {pos}/{len} branches {elapsed}")
            .expect("template")
            .progress_chars("=> "),
    );
    let memo_bytes = a
        .memory
        .map_or_else(crate::placement::default_memo_bytes, |m| m << 20);
    let c = p.count_shard_limited(shard, memo_bytes, &|done, total| {
        bar.set_length(total);
        bar.set_position(done);
    });
    bar.finish_and_clear();
    if c.overflowed() {
        // The search counts in 64 bits, saturating: a count that does not fit is no
        // answer (exit 1), never a number wrapped round.
        return Err(Failure::no_answer(OVERFLOW));
    }
    let secs = t.elapsed().as_secs_f64();
    if a.json {
        super::emit(to_line(&PlaceCount::search(
            &set,
            p.dirs,
            a.shard,
            &c,
            millis(t.elapsed()),
        )));
    } else {
        super::emit(format!("pieces {set} ({dir_name}{shard_text})"));
        super::emit(format!("count {}", c.count));
        super::emit(format!("count up to mirror {}", c.up_to_mirror()));
        super::emit(format!("mirror-symmetric {}", c.symmetric));
        super::emit(format!("nodes {}", c.nodes));
        super::emit(format!("time {secs:.3} s"));
    }
    Ok(())
}

/// `--all`: every placement, streamed, each checked.
fn list_all(a: &PlaceArgs, p: &Problem, t: Instant) -> Result<(), Failure> {
    let mut n = 0u64;
    let mut failure = None;
    let nodes = p.for_each(|b| {
        if let Err(e) = checked(p, b) {
            failure = Some(e);
            return ControlFlow::Break(());
        }
        n += 1;
        if a.json {
            super::emit(to_line(&PlaceListed {
                index: n,
                sfen: b.sfen(),
            }));
        } else {
            super::emit(format!("#{n} {}", b.sfen()));
            super::emit(b.diagram());
        }
        ControlFlow::Continue(())
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if !a.json {
        super::emit(format!(
            "{n} placements, {nodes} nodes, {:.3} s",
            t.elapsed().as_secs_f64()
        ));
    }
    Ok(())
}

/// `--first` (the default): one checked placement, or an exhaustive "impossible",
/// or "unknown" at the node limit (exit 1).
fn find_first(a: &PlaceArgs, p: &Problem, t: Instant) -> Result<(), Failure> {
    let (set, dir_name) = (p.set, dir_name(a));
    let (answer, nodes) = p.first(a.node_limit);
    let secs = t.elapsed().as_secs_f64();
    let (result, sfen) = match &answer {
        First::Found(b) => {
            checked(p, b)?;
            ("found", Some(b.sfen()))
        }
        First::Impossible => ("impossible", None),
        First::Unknown => ("unknown", None),
    };
    if a.json {
        super::emit(to_line(&PlaceFirst {
            pieces: set.to_string(),
            directions: direction_name(p.dirs),
            result,
            sfen,
            nodes,
            time_ms: millis(t.elapsed()),
        }));
    } else {
        match &answer {
            First::Found(b) => {
                super::emit(b.sfen());
                super::emit(b.diagram());
            }
            First::Impossible => super::emit(format!(
                "impossible: no placement of {set} ({dir_name}); exhaustive search"
            )),
            First::Unknown => super::emit("unknown: node limit reached, nothing proved"),
        }
        super::emit(format!("nodes {nodes}, time {secs:.3} s"));
    }
    if answer == First::Unknown {
        return Err(Failure::no_answer("node limit reached"));
    }
    Ok(())
}
