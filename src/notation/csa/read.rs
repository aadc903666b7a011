//! Reading CSA text: lines are split into `,`-separated statements, each
//! statement goes to its concept (a header, the initial position, a move, a
//! time or an end command), and each game is assembled at its `/` or at the
//! end of the text.

use super::cerr;
use super::codes::HEADER_MAP;
use super::moves::{end_command, play_move, time};
use super::position::{board_row, ensure_position, pi_setup, placement, row_rank, side};
use crate::notation::record::{Ending, Line, Record, RecordError, RecordErrorKind, RecordMove};
use crate::rules::{Color, Position, Setup};

/// One game as read so far.
pub(super) struct Game {
    pub(super) headers: Vec<(String, String)>,
    /// The initial position being built by `PI`, `P1`…`P9` and `P+`/`P-`.
    pub(super) setup: Option<Setup>,
    /// The line of each rank's `P1`…`P9` row, rank 1 first.
    pub(super) row_lines: [Option<usize>; 9],
    /// The side given the pieces placed nowhere (`P+00AL`/`P-00AL`).
    pub(super) rest_to: Option<Color>,
    /// The side to move, from a `+`/`-` line.
    pub(super) side: Option<Color>,
    /// The position after the moves read: set at the first move, side or end.
    pub(super) pos: Option<Position>,
    pub(super) start: Option<Position>,
    /// `'*` comments before the first move.
    pub(super) start_comments: Vec<String>,
    pub(super) moves: Vec<RecordMove>,
    pub(super) end: Option<Ending>,
    /// `'` comments other than `'*` (Record::csa_comments).
    pub(super) csa_comments: Vec<(usize, String)>,
    /// Times with a fraction of a second, truncated (Record::truncated_times).
    pub(super) truncated_times: usize,
}

impl Game {
    fn new() -> Game {
        Game {
            headers: Vec::new(),
            setup: None,
            row_lines: [None; 9],
            rest_to: None,
            side: None,
            pos: None,
            start: None,
            start_comments: Vec::new(),
            moves: Vec::new(),
            end: None,
            csa_comments: Vec::new(),
            truncated_times: 0,
        }
    }
}

/// Reads every game of a CSA file from decoded text.
///
/// # Errors
/// [`RecordError`] with the 1-based line: an unknown line or piece code, a
/// bad position, a move before the position is complete, a malformed or
/// illegal move (with its number), a bad time.
pub fn read_csa(text: &str) -> Result<Vec<Record>, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut games = Vec::new();
    let mut g = Game::new();
    let mut last_line = 0;
    for (idx, raw) in text.lines().enumerate() {
        let ln = idx + 1;
        last_line = ln;
        let line = raw.trim_end();
        if line.is_empty() {
            continue;
        }
        if line == "/" {
            games.push(finish(g, ln)?);
            g = Game::new();
            continue;
        }
        // Statements are separated by `,`; a `'` statement (floodgate's
        // `%KACHI,'* -5000 win`) is a comment to the end of the line.
        let (code, comment) = match line.strip_prefix('\'') {
            Some(c) => ("", Some(c)),
            None => match line.find(",'") {
                Some(i) => (&line[..i], Some(&line[i + 2..])),
                None => (line, None),
            },
        };
        let mut at = 0;
        for stmt in code.split(',') {
            // The 1-based character column of the statement's first non-blank.
            let lead = stmt.len() - stmt.trim_start().len();
            let col = line[..at + lead].chars().count() + 1;
            statement(&mut g, ln, col, stmt)?;
            at += stmt.len() + 1;
        }
        match comment.map(|c| (c, c.strip_prefix('*'))) {
            Some((_, Some(c))) => match g.moves.last_mut() {
                Some(m) => m.comments.push(c.to_string()),
                None => g.start_comments.push(c.to_string()),
            },
            Some((c, None)) if !c.starts_with("CSA encoding=") => {
                g.csa_comments.push((g.moves.len(), c.to_string()));
            }
            _ => {}
        }
    }
    if g.pos.is_some() || g.setup.is_some() || !g.headers.is_empty() {
        games.push(finish(g, last_line)?);
    }
    if games.is_empty() {
        return Err(RecordError {
            line: last_line.max(1),
            kind: RecordErrorKind::Empty,
        });
    }
    Ok(games)
}

/// Reads one statement of line `ln`, sending it to its concept. The order of
/// the tests matters: `V…` is a version whatever follows, `PI` is not a row,
/// `P+`/`P-` after the first move is no placement, `+`/`-` alone is the side.
/// `col` is the 1-based character column where `s` starts in its line.
fn statement(g: &mut Game, ln: usize, col: usize, s: &str) -> Result<(), RecordError> {
    let s = s.trim();
    if s.is_empty() || s.starts_with('V') {
        return Ok(());
    }
    if (s.starts_with('P') || s.starts_with('+') || s.starts_with('-')) && !s.is_ascii() {
        return Err(cerr(ln, format!("non-ASCII text in {s:?}")));
    }
    if s.starts_with("N+") || s.starts_with("N-") || s.starts_with('$') {
        return header(g, ln, s);
    }
    if let Some(rest) = s.strip_prefix("PI") {
        if g.pos.is_some() {
            return Err(cerr(
                ln,
                "PI after the position was complete (its side to move or first move was read)",
            ));
        }
        g.setup = Some(pi_setup(ln, rest)?);
        return Ok(());
    }
    if let Some(rank) = row_rank(s) {
        return board_row(g, ln, col, rank, &s[2..]);
    }
    if (s.starts_with("P+") || s.starts_with("P-")) && g.pos.is_none() {
        return placement(g, ln, s);
    }
    if s == "+" || s == "-" {
        return side(g, ln, s);
    }
    if let Some(t) = s.strip_prefix('T') {
        return time(g, ln, s, t);
    }
    if let Some(cmd) = s.strip_prefix('%') {
        return end_command(g, ln, s, cmd);
    }
    if s.starts_with('+') || s.starts_with('-') {
        return play_move(g, ln, s);
    }
    Err(cerr(ln, format!("unrecognised line {s:?}")))
}

/// A `N+`/`N-` player name (kept as 先手/後手) or a `$KEY:value` field (under
/// its Japanese name when it has one).
fn header(g: &mut Game, ln: usize, s: &str) -> Result<(), RecordError> {
    if let Some(n) = s.strip_prefix("N+") {
        g.headers.push(("先手".into(), n.into()));
        return Ok(());
    }
    if let Some(n) = s.strip_prefix("N-") {
        g.headers.push(("後手".into(), n.into()));
        return Ok(());
    }
    let (k, v) = s
        .split_once(':')
        .ok_or_else(|| cerr(ln, format!("bad field {s:?}")))?;
    let key = HEADER_MAP
        .iter()
        .find(|(c, _)| *c == k)
        .map_or(k.to_string(), |(_, j)| j.to_string());
    g.headers.push((key, v.to_string()));
    Ok(())
}

/// The game read, ending at line `ln`.
fn finish(mut g: Game, ln: usize) -> Result<Record, RecordError> {
    ensure_position(&mut g, ln)?;
    Ok(Record {
        headers: g.headers,
        start: g.start.expect("ensured"),
        first_move_number: 1,
        header_comments: Vec::new(),
        start_comments: g.start_comments,
        main: Line {
            moves: g.moves,
            end: g.end,
            summary: None,
        },
        trailer: Vec::new(),
        csa_comments: g.csa_comments,
        truncated_times: g.truncated_times,
    })
}
