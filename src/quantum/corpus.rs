//! The engine-independent corpus `specs/quantum/*.toml` (format in
//! `specs/quantum/README.md`) and its runner, used by every engine.

use super::{
    apply, parse_kind_set, Contradiction, Convergence, Observation, Outcome, ParseError, World,
    PIECES,
};
use serde::Deserialize;

/// The corpus files, embedded.
pub const FILES: &[(&str, &str)] = &[
    ("seed.toml", include_str!("../../specs/quantum/seed.toml")),
    (
        "structure.toml",
        include_str!("../../specs/quantum/structure.toml"),
    ),
    (
        "observations.toml",
        include_str!("../../specs/quantum/observations.toml"),
    ),
];

/// One file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    /// The cases.
    pub case: Vec<Case>,
}

/// One case.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Identifier.
    pub name: String,
    /// Where it comes from.
    pub source: String,
    /// Start world: up to 20 tokens, missing pieces unobserved (default: all unobserved).
    #[serde(default)]
    pub world: String,
    /// Observations `"PIECE OBSERVATION"` applied in order, each followed by convergence.
    #[serde(default)]
    pub steps: Vec<String>,
    /// `consistent` (default), `contradiction` or `king-captured` (the last step).
    #[serde(default)]
    pub outcome: Option<String>,
    /// Expected converged domains of the first pieces.
    #[serde(default)]
    pub converged: Option<String>,
    /// Expected domain of the pieces after those listed in `converged`.
    #[serde(default)]
    pub rest: Option<String>,
    /// Expected used-up kinds (canonical letters, `-` for none).
    #[serde(default)]
    pub used_up: Option<String>,
    /// Expected conflict (given only where the minimal conflict is unique).
    #[serde(default)]
    pub conflict: Option<Vec<usize>>,
}

/// Reads one corpus file.
///
/// # Errors
/// The TOML error text.
pub fn read(text: &str) -> Result<Vec<Case>, String> {
    toml::from_str::<File>(text)
        .map(|f| f.case)
        .map_err(|e| e.to_string())
}

/// All embedded cases with their file names.
///
/// # Panics
/// If an embedded file is malformed (a test guards this).
pub fn cases() -> Vec<(&'static str, Case)> {
    FILES
        .iter()
        .flat_map(|(n, t)| {
            read(t)
                .unwrap_or_else(|e| panic!("specs/quantum/{n}: {e}"))
                .into_iter()
                .map(move |c| (*n, c))
        })
        .collect()
}

fn expected_world(converged: &str, rest: Option<&str>) -> Result<World, String> {
    let toks: Vec<&str> = converged.split_whitespace().collect();
    let mut w = World::UNOBSERVED;
    for i in 0..PIECES {
        let t = match toks.get(i) {
            Some(t) => t,
            None => rest.ok_or("`converged` has fewer than 20 pieces and no `rest`")?,
        };
        w.0[i] = parse_kind_set(t, i).map_err(|e: ParseError| e.to_string())?;
    }
    Ok(w)
}

/// What running a case produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseResult {
    /// Consistent (or king captured) with this converged world and used-up set.
    World {
        /// `king-captured` or `consistent`.
        outcome: &'static str,
        /// Converged domains.
        world: World,
        /// Used-up kinds.
        used_up: String,
    },
    /// A contradiction.
    Contradiction(Contradiction),
}

/// Runs a case with `engine` (no expectations checked).
///
/// # Errors
/// A malformed case.
pub fn run(engine: &dyn Convergence, case: &Case) -> Result<CaseResult, String> {
    let mut w: World = case.world.parse().map_err(|e: ParseError| e.to_string())?;
    if case.steps.is_empty() {
        return Ok(match engine.converge(&w) {
            Ok(c) => CaseResult::World {
                outcome: "consistent",
                world: c.world,
                used_up: c.used_up.to_string(),
            },
            Err(e) => CaseResult::Contradiction(e),
        });
    }
    let mut last = None;
    for (n, s) in case.steps.iter().enumerate() {
        let (p, o) = s
            .trim()
            .split_once(' ')
            .ok_or(format!("step {n}: expected `PIECE OBSERVATION`"))?;
        let p: usize = p
            .parse()
            .ok()
            .filter(|&p| p < PIECES)
            .ok_or(format!("step {n}: bad piece {p:?}"))?;
        let o: Observation = o.parse().map_err(|e| format!("step {n}: {e}"))?;
        match apply(engine, &w, p, o) {
            Err(e) if n + 1 == case.steps.len() => return Ok(CaseResult::Contradiction(e)),
            Err(e) => return Err(format!("step {n} ({s}) is impossible: {e}")),
            Ok(out) => {
                w = out.converged().world;
                last = Some(out);
            }
        }
    }
    let out = last.ok_or("no steps")?;
    let c = *out.converged();
    Ok(CaseResult::World {
        outcome: if matches!(out, Outcome::KingCaptured(_)) {
            "king-captured"
        } else {
            "consistent"
        },
        world: c.world,
        used_up: c.used_up.to_string(),
    })
}

/// Runs a case and checks its expectations.
///
/// # Errors
/// What differs.
pub fn check(engine: &dyn Convergence, case: &Case) -> Result<CaseResult, String> {
    let got = run(engine, case)?;
    let want_outcome = case.outcome.as_deref().unwrap_or("consistent");
    match &got {
        CaseResult::Contradiction(c) => {
            if want_outcome != "contradiction" {
                return Err(format!("expected {want_outcome}, got {c}"));
            }
            if let Some(want) = &case.conflict {
                if want != &c.conflict {
                    return Err(format!("conflict {:?}, expected {want:?}", c.conflict));
                }
            }
        }
        CaseResult::World {
            outcome,
            world,
            used_up,
        } => {
            if *outcome != want_outcome {
                return Err(format!(
                    "expected {want_outcome}, got {outcome} with {world}"
                ));
            }
            if let Some(conv) = &case.converged {
                let want = expected_world(conv, case.rest.as_deref())?;
                if &want != world {
                    return Err(format!("converged to\n  {world}\nexpected\n  {want}"));
                }
            }
            if let Some(u) = &case.used_up {
                if u != used_up {
                    return Err(format!("used up {used_up}, expected {u}"));
                }
            }
        }
    }
    Ok(got)
}
