//! `shogi-lab quantum replay|play|perft`: quantum shogi games.

use super::super::error::{InputError, Origin};
use super::super::{emit, Failure};
use crate::output::quantum::{
    tokens, PlayOut, ProbabilitiesOut, QuantumPerftOut, QuantumResult, ReplayPly,
    SideProbabilities, Worlds,
};
use crate::output::to_line;
use crate::quantum::enumeration::Diagram;
use crate::quantum::game::{EngineKind, GameResult, QMove, QuantumPosition, Variant};
use crate::quantum::ratio::Ratio;
use crate::quantum::record::{self, Record};
use crate::quantum::{shogitter, Kind, PIECES};
use crate::rules::Color;
use std::time::Instant;

/// Engine names for `--engine`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GameEngine {
    /// The 255 kind-subset pass.
    Counting,
    /// The shogitter class-subset peel.
    Peel,
    /// CNF + varisat.
    Sat,
    /// The capacity-vector decision diagram.
    Enumeration,
    /// The decision diagram with the unobserved pieces in closed form.
    EnumerationTail,
}

impl GameEngine {
    fn kind(self) -> EngineKind {
        match self {
            GameEngine::Counting => EngineKind::Counting,
            GameEngine::Peel => EngineKind::Peel,
            GameEngine::Sat => EngineKind::Sat,
            GameEngine::Enumeration => EngineKind::Enumeration,
            GameEngine::EnumerationTail => EngineKind::Tail,
        }
    }
}

/// `--variant`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum VariantName {
    /// shogitter: a captured piece is observed as "not the king".
    Standard,
    /// A captured piece collapses to one kind drawn with its exact probability.
    Observe,
}

impl VariantName {
    fn variant(self) -> Variant {
        match self {
            VariantName::Standard => Variant::Standard,
            VariantName::Observe => Variant::Observe,
        }
    }
}

/// Arguments of `quantum replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// A record: our text format, or shogitter's JSON (detected by a leading `{`).
    pub file: std::path::PathBuf,
    /// Print the exact probability of each kind for each piece (uniform over worlds).
    #[arg(long)]
    pub probabilities: bool,
    /// Capture rule; must match the record's (shogitter records are standard).
    #[arg(long, value_enum)]
    pub variant: Option<VariantName>,
    /// Convergence engine.
    #[arg(long, value_enum, default_value_t = GameEngine::Counting)]
    pub engine: GameEngine,
    /// Replay only the first N plies (at most the record's length).
    #[arg(long)]
    pub plies: Option<usize>,
    /// JSON lines: one per ply (`ply`, `move`, `code`, `worlds`, `probabilities`), then the result.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `quantum play`.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// Uniformly random legal moves (the only player so far; required).
    #[arg(long, required = true)]
    pub random: bool,
    /// RNG seed (ChaCha8).
    #[arg(long)]
    pub seed: u64,
    /// Stop after this many plies if the game has not ended.
    #[arg(long, default_value_t = 200)]
    pub plies: usize,
    /// Capture rule.
    #[arg(long, value_enum, default_value_t = VariantName::Standard)]
    pub variant: VariantName,
    /// Convergence engine.
    #[arg(long, value_enum, default_value_t = GameEngine::Counting)]
    pub engine: GameEngine,
    /// Number of games (seeds SEED, SEED+1, …), records separated by blank lines.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// One JSON object a game: `seed`, `result`, `reason`, `plies`, `record`.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `quantum perft`.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// Depth in plies (0 to 1000); a depth whose count would pass 2^64 − 1 (above 8,
    /// estimated from the exact counts at depths 1 and 2) is refused before counting.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=i64::from(crate::rules::MAX_PERFT_DEPTH)))]
    pub depth: u32,
    /// Convergence engine.
    #[arg(long, value_enum, default_value_t = GameEngine::Counting)]
    pub engine: GameEngine,
    /// One JSON object: `depth`, `nodes`, `time_ms`, `engine`, `shard`.
    #[arg(long)]
    pub json: bool,
    /// Count only the sequences under part I of N (0-based) of the root moves;
    /// the N parts sum to the whole count.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<crate::shard::Shard>,
}

/// A percentage of an exact ratio: `50%`, else `33.33%` with the exact fraction.
pub fn percent(r: Ratio) -> String {
    let (n, d) = (r.numer(), r.denom());
    if (n * 100) % d == 0 {
        format!("{}%", n * 100 / d)
    } else {
        let hundredths = (n * 10_000 + d / 2) / d;
        format!("{}.{:02}% ({n}/{d})", hundredths / 100, hundredths % 100)
    }
}

fn kinds_text(k: crate::quantum::KindSet) -> String {
    k.iter().map(Kind::kanji).collect()
}

/// The per-move report: diagram, remaining kinds and optionally probabilities.
pub(crate) fn report(p: &QuantumPosition, probabilities: bool) {
    emit(p.diagram().trim_end_matches('\n'));
    for c in Color::ALL {
        let w = p.world(c);
        let side = if c == Color::Sente { "☗" } else { "☖" };
        let mut line = format!("{side}world used up: {}", kinds_text(w.used_up));
        if w.used_up.is_empty() {
            line.push('-');
        }
        emit(line);
        let d = probabilities.then(|| Diagram::build(&w.world));
        let n = p.observed(c);
        for slot in 0..n {
            let Some(id) = p.piece_of_slot(c, slot) else {
                continue;
            };
            let place = p.place(id);
            let dom = w.world.0[slot];
            match &d {
                Some(d) => emit(format!(
                    "  {place}: {}",
                    dom.iter()
                        .filter_map(|k| Some(format!(
                            "{} {}",
                            k.kanji(),
                            percent(d.probability(slot, k)?)
                        )))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
                None => emit(format!("  {place}: {}", kinds_text(dom))),
            }
        }
        if n < PIECES {
            let dom = w.world.0[n];
            let body = match &d {
                Some(d) => dom
                    .iter()
                    .filter_map(|k| {
                        Some(format!("{} {}", k.kanji(), percent(d.probability(n, k)?)))
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
                None => kinds_text(dom),
            };
            emit(format!("  {} unmoved, each: {body}", PIECES - n));
        }
    }
}

fn result_line(r: Option<GameResult>) -> String {
    match r {
        None => "result: game not over".into(),
        Some(GameResult::KingCapture { winner }) => format!(
            "result: {} wins (king captured)",
            if winner == Color::Sente {
                "☗Sente"
            } else {
                "☖Gote"
            }
        ),
        Some(GameResult::Repetition) => "result: draw (千日手)".into(),
    }
}

fn capture_line(p: &QuantumPosition, mv: QMove) -> Option<String> {
    let dist = p.capture_distribution(mv)?;
    let king = dist
        .iter()
        .find(|(k, _)| *k == Kind::King)
        .map_or(Ratio::ZERO, |(_, r)| *r);
    Some(format!(
        "  capture: wins with probability {} under the observe rule",
        percent(king)
    ))
}

/// Runs `quantum replay`.
///
/// # Errors
/// Exit 2 for an unreadable, empty or malformed record, or one that does not replay
/// (an illegal move, a field or state that differs from the game).
pub fn replay(a: ReplayArgs) -> Result<(), Failure> {
    let name = a.file.display().to_string();
    let origin = Origin::file(&name);
    let text = crate::cli::read_text(&name)?;
    if text.trim().is_empty() {
        return Err(InputError::new(origin, "empty file (no record)").into());
    }
    let engine = a.engine.kind();
    let limit = a.plies.unwrap_or(usize::MAX);
    // `--plies` past the record's end is refused, as `show --ply` refuses it: a replay
    // that silently stops short of the plies asked for reads as if they had been played.
    let too_far = |n: usize| -> Result<(), Failure> {
        match a.plies {
            Some(k) if k > n => Err(InputError::new(
                origin.clone(),
                format!("--plies {k} but the record has {n} plies"),
            )
            .into()),
            _ => Ok(()),
        }
    };
    if text.trim_start().starts_with('{') {
        if a.variant == Some(VariantName::Observe) {
            return Err(Failure::input(
                "shogitter records use the standard capture rule (rule 108)",
            ));
        }
        let game =
            shogitter::parse(&text).map_err(|e| InputError::in_text(origin.clone(), &text, &e))?;
        too_far(game.entries.len())?;
        // A record that does not replay is bad input (exit 2), like an illegal move in a KIF.
        let (p, ending) = shogitter::replay(&game, engine, limit, |ply, before, e, p| {
            if a.json {
                emit(to_line(&ply_json(
                    p,
                    ply,
                    e.disp.clone(),
                    e.mv,
                    a.probabilities,
                )));
                return;
            }
            emit(format!(
                "ply {ply} {} ({}) — state matches the record",
                e.disp, e.mv
            ));
            if let Some(c) = capture_line(before, e.mv) {
                emit(c);
            }
            report(p, a.probabilities);
        })
        .map_err(|e| InputError::new(origin.clone(), e))?;
        finish_recorded(&p, ending, a.json);
        return Ok(());
    }
    let starts: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == RECORD_MARK)
        .map(|(i, _)| i + 1)
        .collect();
    if starts.len() > 1 {
        let at: Vec<String> = starts.iter().map(|l| l.to_string()).collect();
        return Err(InputError::new(
            origin,
            format!(
                "holds {} games (records at lines {}); replay takes one record a file",
                starts.len(),
                at.join(", ")
            ),
        )
        .into());
    }
    let mut rec =
        Record::parse(&text).map_err(|e| InputError::in_text(origin.clone(), &text, &e))?;
    if let Some(v) = a.variant {
        if v.variant() != rec.variant {
            return Err(InputError::new(
                origin,
                format!("the record is variant {:?}", rec.variant),
            )
            .into());
        }
    }
    too_far(rec.steps.len())?;
    if rec.steps.len() > limit {
        rec.steps.truncate(limit);
        rec.result = None;
    }
    let mut p = QuantumPosition::new(engine, rec.variant);
    let mut before = p.clone();
    record::replay(&rec, &mut p, |ply, q, mv| {
        if a.json {
            emit(to_line(&ply_json(
                q,
                ply,
                before.move_text(mv),
                mv,
                a.probabilities,
            )));
            before = q.clone();
            return;
        }
        emit(format!("ply {ply} {} ({mv})", before.move_text(mv)));
        if let Some(c) = capture_line(&before, mv) {
            emit(c);
        }
        report(q, a.probabilities);
        before = q.clone();
    })
    .map_err(|e| replay_error(&origin, &text, &rec, &e))?;
    finish(&p, a.json);
    Ok(())
}

/// A replay error placed at the line of its ply's move.
fn replay_error(origin: &Origin, text: &str, rec: &Record, e: &record::ReplayError) -> InputError {
    let line = e
        .ply()
        .checked_sub(1)
        .and_then(|i| rec.steps.get(i))
        .map_or(0, |s| s.line);
    let located = record::RecordError {
        line,
        what: e.to_string(),
    };
    InputError::in_text(origin.clone(), text, &located)
}

/// The first line of our text record (`Record::to_text`).
const RECORD_MARK: &str = "# shogi-lab quantum record";

/// Whether `text` is a quantum shogi record: ours (a `# shogi-lab quantum record` line
/// among its leading comments) or shogitter's JSON (a leading `{`).
pub(crate) fn is_quantum_record(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with('{')
        || t.lines()
            .map(str::trim)
            .take_while(|l| l.is_empty() || l.starts_with('#'))
            .any(|l| l == "# shogi-lab quantum record")
}

/// The position after `ply` plies of a quantum record (ours or shogitter's JSON, read
/// from `origin`), every recorded state on the way checked as `quantum replay` checks it.
///
/// # Errors
/// Exit 2 for a malformed record, one that does not replay, or a `ply` beyond its end.
pub(crate) fn position_after(
    origin: &Origin,
    text: &str,
    ply: usize,
) -> Result<QuantumPosition, Failure> {
    let too_far = |n: usize| {
        Failure::from(InputError::new(
            origin.clone(),
            format!("--ply {ply} but the record has {n} plies"),
        ))
    };
    if text.trim_start().starts_with('{') {
        let game =
            shogitter::parse(text).map_err(|e| InputError::in_text(origin.clone(), text, &e))?;
        if ply > game.entries.len() {
            return Err(too_far(game.entries.len()));
        }
        let (p, _) = shogitter::replay(&game, EngineKind::Counting, ply, |_, _, _, _| {})
            .map_err(|e| InputError::new(origin.clone(), e))?;
        return Ok(p);
    }
    let mut rec = Record::parse(text).map_err(|e| InputError::in_text(origin.clone(), text, &e))?;
    if ply > rec.steps.len() {
        return Err(too_far(rec.steps.len()));
    }
    if ply < rec.steps.len() {
        rec.steps.truncate(ply);
        rec.result = None;
    }
    let mut p = QuantumPosition::new(EngineKind::Counting, rec.variant);
    record::replay(&rec, &mut p, |_, _, _| {}).map_err(|e| replay_error(origin, text, &rec, &e))?;
    Ok(p)
}

/// Both sides' converged domains (slot order).
pub(crate) fn worlds_of(p: &QuantumPosition) -> Worlds {
    Worlds {
        sente: tokens(&p.world(Color::Sente).world),
        gote: tokens(&p.world(Color::Gote).world),
    }
}

/// The result line of a shogitter record: a resignation or agreed draw as recorded.
fn finish_recorded(p: &QuantumPosition, ending: Option<shogitter::Ending>, json: bool) {
    let side = |c: Color| if c == Color::Sente { "sente" } else { "gote" };
    let (ending, text) = match ending {
        Some(e @ shogitter::Ending::Resignation { winner }) => (
            e,
            format!("result: {} wins (resignation, as recorded)", side(winner)),
        ),
        Some(e @ shogitter::Ending::Agreement) => {
            (e, "result: draw (引き分け, as recorded)".to_string())
        }
        _ => return finish(p, json),
    };
    if json {
        emit(to_line(&QuantumResult::recorded(ending, p.ply())));
    } else {
        emit(text);
    }
}

/// The result line, as text or JSON.
fn finish(p: &QuantumPosition, json: bool) {
    if json {
        emit(to_line(&result_json(p)));
    } else {
        emit(result_line(p.result()));
    }
}

fn result_json(p: &QuantumPosition) -> QuantumResult {
    let (result, reason) = match p.result() {
        None => ("ongoing", None),
        Some(GameResult::KingCapture {
            winner: Color::Sente,
        }) => ("sente_win", Some("king_capture")),
        Some(GameResult::KingCapture {
            winner: Color::Gote,
        }) => ("gote_win", Some("king_capture")),
        Some(GameResult::Repetition) => ("draw", Some("repetition")),
    };
    QuantumResult {
        result,
        reason,
        plies: p.ply(),
    }
}

fn ply_json(
    p: &QuantumPosition,
    ply: usize,
    move_text: String,
    mv: QMove,
    probabilities: bool,
) -> ReplayPly {
    ReplayPly {
        ply,
        move_text,
        code: mv.to_string(),
        worlds: worlds_of(p),
        probabilities: probabilities.then(|| SideProbabilities {
            sente: ProbabilitiesOut::new(&Diagram::build(&p.world(Color::Sente).world)),
            gote: ProbabilitiesOut::new(&Diagram::build(&p.world(Color::Gote).world)),
        }),
    }
}

/// Runs `quantum play`.
///
/// # Errors
/// Exit 2 for `--plies 0` (a record holds at least one move) and for seeds past
/// 2^64 − 1 (`--seed S --games N` plays seeds S to S + N − 1; they do not wrap).
pub fn play(a: PlayArgs) -> Result<(), Failure> {
    if a.plies == 0 {
        return Err(Failure::input(
            "--plies 0: a record holds at least one move",
        ));
    }
    if a.games > 0 && a.seed.checked_add(a.games - 1).is_none() {
        return Err(Failure::input(format!(
            "--seed {} --games {}: the last seed would pass {} (seeds do not wrap)",
            a.seed,
            a.games,
            u64::MAX
        )));
    }
    for g in 0..a.games {
        let seed = a.seed + g;
        let (p, observed) =
            crate::quantum::game::random_game(seed, a.plies, a.variant.variant(), a.engine.kind());
        if a.json {
            emit(to_line(&PlayOut {
                seed,
                result: result_json(&p),
                record: Record::from_game(&p, &observed).to_text(),
            }));
            continue;
        }
        if g > 0 {
            emit("");
        }
        emit(format!("# random game, seed {seed}"));
        emit(Record::from_game(&p, &observed).to_text().trim_end());
    }
    Ok(())
}

/// Runs `quantum perft`.
///
/// # Errors
/// None.
pub fn perft(a: PerftArgs) -> Result<(), Failure> {
    let mut p = QuantumPosition::new(a.engine.kind(), Variant::Standard);
    // The count from the start grows about 175-fold a ply: depths above 8 would pass 2^64 − 1.
    crate::rules::perft_reach(|d| p.clone().perft(d), a.depth).map_err(Failure::input)?;
    let t = Instant::now();
    let n = match a.shard {
        Some(shard) => p.perft_shard(a.depth, shard),
        None => p.perft(a.depth),
    };
    let s = t.elapsed().as_secs_f64();
    if a.json {
        emit(to_line(&QuantumPerftOut {
            depth: a.depth,
            nodes: n,
            time_ms: crate::output::millis(t.elapsed()),
            engine: a.engine.kind().name(),
            shard: a.shard.map(|s| s.to_string()),
        }));
        return Ok(());
    }
    match a.shard {
        Some(shard) => emit(format!("depth {}: {n} (shard {shard})", a.depth)),
        None => emit(format!("depth {}: {n}", a.depth)),
    }
    eprintln!(
        "{:.3} s, {:.0} nodes/s ({})",
        s,
        n as f64 / s.max(1e-9),
        a.engine.kind().name()
    );
    Ok(())
}
