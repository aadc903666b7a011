//! USI commands from the GUI, as syntax: words and checked numbers, no engine
//! state (USI protocol 2.0, shogidokoro.starfree.jp/usi.html; `go mate` replies
//! are chosen by the engine). Positions are kept as text and resolved later.

use std::fmt;

/// One line from the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `usi`: identify and list the options.
    Usi,
    /// `isready`: answered `readyok` at any time.
    IsReady,
    /// `usinewgame`.
    UsiNewGame,
    /// `setoption name <id> [value <x>]`.
    SetOption {
        /// The option's name.
        name: String,
        /// Its value (words joined by one space), if given.
        value: Option<String>,
    },
    /// `position …`: the whole line, resolved by `tsume::load_problem`.
    Position(String),
    /// `go …`, or why its words do not parse (the engine still replies).
    Go(Result<Go, GoError>),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `gameover win|lose|draw`.
    GameOver,
    /// `quit`.
    Quit,
}

/// What a `go` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Go {
    /// `go mate <ms>|infinite`: a mate search answered with `checkmate …`.
    Mate(MateLimit),
    /// A normal `go` (a move in a game) answered with `bestmove …`.
    Play(Clock),
}

/// The time of a `go mate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MateLimit {
    /// Milliseconds.
    Millis(u64),
    /// Until found, disproven or stopped (`go mate infinite`, or `go mate` alone).
    Infinite,
}

/// The clock words of a normal `go` (milliseconds).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    /// Sente's remaining time.
    pub btime: Option<u64>,
    /// Gote's remaining time.
    pub wtime: Option<u64>,
    /// Sente's increment (フィッシャー).
    pub binc: Option<u64>,
    /// Gote's increment.
    pub winc: Option<u64>,
    /// 秒読み.
    pub byoyomi: Option<u64>,
    /// Fixed time for this move (`movetime`, as in UCI).
    pub movetime: Option<u64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `nodes <n>` (YaneuraOu, UCI): a node limit for this search (the smaller of it and
    /// `NodesLimit`).
    pub nodes: Option<u64>,
    /// `depth <n>` (YaneuraOu, UCI): read and ignored (a mate search has no depth limit).
    pub depth: Option<u64>,
    /// The moves after `searchmoves` (UCI): read and ignored (every check is searched).
    pub searchmoves: usize,
}

/// The words a normal `go` knows (`searchmoves` reads moves up to the next of them).
const GO_WORDS: [&str; 11] = [
    "infinite",
    "ponder",
    "btime",
    "wtime",
    "binc",
    "winc",
    "byoyomi",
    "movetime",
    "nodes",
    "depth",
    "searchmoves",
];

/// A line that is not a command this engine understands.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {reason}")]
pub struct CommandError {
    /// 1-based character column of the offending word.
    pub column: usize,
    /// What is wrong.
    pub reason: String,
}

/// A `go` whose words do not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("go: column {column}: {reason}")]
pub struct GoError {
    /// Whether it was a `go mate` (the reply is then `checkmate …`, else `bestmove …`).
    pub mate: bool,
    /// 1-based character column of the offending word.
    pub column: usize,
    /// What is wrong.
    pub reason: String,
}

/// The words of `line` with their 1-based character columns.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    let mut col = 0;
    let mut start_col = 0;
    for (i, c) in line.char_indices() {
        col += 1;
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((start_col, &line[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
            start_col = col;
        }
    }
    if let Some(s) = start {
        out.push((start_col, &line[s..]));
    }
    out
}

/// Reads one line; `Ok(None)` for a blank line.
///
/// # Errors
/// [`CommandError`] for an unknown command or a malformed `setoption`.
pub fn parse_command(line: &str) -> Result<Option<Command>, CommandError> {
    let ws = words(line);
    let Some(&(col, first)) = ws.first() else {
        return Ok(None);
    };
    let rest = &ws[1..];
    let simple = |c: Command| -> Result<Option<Command>, CommandError> {
        match rest.first() {
            None => Ok(Some(c)),
            Some(&(col, w)) => Err(CommandError {
                column: col,
                reason: format!("unexpected \"{w}\" after \"{first}\""),
            }),
        }
    };
    match first {
        "usi" => simple(Command::Usi),
        "isready" => simple(Command::IsReady),
        "usinewgame" => simple(Command::UsiNewGame),
        "stop" => simple(Command::Stop),
        "ponderhit" => simple(Command::PonderHit),
        "quit" => simple(Command::Quit),
        "gameover" => Ok(Some(Command::GameOver)),
        "position" => Ok(Some(Command::Position(line.trim().to_string()))),
        "setoption" => parse_setoption(col, rest).map(Some),
        "go" => Ok(Some(Command::Go(parse_go(rest)))),
        _ => Err(CommandError {
            column: col,
            reason: format!("unknown command \"{}\"", shorten(first)),
        }),
    }
}

/// At most 40 characters of `w`, for error lines.
fn shorten(w: &str) -> String {
    let mut s: String = w.chars().take(40).collect();
    if s.len() < w.len() {
        s.push('…');
    }
    s
}

fn parse_setoption(col: usize, ws: &[(usize, &str)]) -> Result<Command, CommandError> {
    let bad = |column: usize| CommandError {
        column,
        reason: "expected `setoption name <id> [value <x>]`".to_string(),
    };
    match ws.first() {
        Some(&(_, "name")) => {}
        Some(&(c, _)) => return Err(bad(c)),
        None => return Err(bad(col)),
    }
    let v = ws.iter().position(|&(_, w)| w == "value");
    let name_words = &ws[1..v.unwrap_or(ws.len())];
    if name_words.is_empty() {
        return Err(bad(ws[0].0));
    }
    let join = |s: &[(usize, &str)]| s.iter().map(|&(_, w)| w).collect::<Vec<_>>().join(" ");
    Ok(Command::SetOption {
        name: join(name_words),
        value: v.map(|i| join(&ws[i + 1..])),
    })
}

fn number(mate: bool, (col, w): (usize, &str), what: &str) -> Result<u64, GoError> {
    w.parse::<u64>().map_err(|_| GoError {
        mate,
        column: col,
        reason: format!(
            "{what}: \"{}\" is not a whole number{}",
            shorten(w),
            unit(what)
        ),
    })
}

/// What the number after a `go` word counts, for error lines.
fn unit(what: &str) -> &'static str {
    match what {
        "nodes" | "depth" => "",
        _ => " of milliseconds",
    }
}

fn parse_go(ws: &[(usize, &str)]) -> Result<Go, GoError> {
    if ws.first().map(|w| w.1) == Some("mate") {
        let limit = match ws.get(1) {
            None | Some(&(_, "infinite")) => MateLimit::Infinite,
            Some(&w) => MateLimit::Millis(number(true, w, "mate")?),
        };
        if let Some(&(col, w)) = ws.get(2) {
            return Err(GoError {
                mate: true,
                column: col,
                reason: format!("unexpected \"{}\" after the mate time", shorten(w)),
            });
        }
        return Ok(Go::Mate(limit));
    }
    let mut clock = Clock::default();
    let mut i = 0;
    while i < ws.len() {
        let (col, w) = ws[i];
        let slot = match w {
            "infinite" => {
                clock.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                clock.ponder = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                i += 1;
                while i < ws.len() && !GO_WORDS.contains(&ws[i].1) {
                    clock.searchmoves += 1;
                    i += 1;
                }
                continue;
            }
            "nodes" => &mut clock.nodes,
            "depth" => &mut clock.depth,
            "btime" => &mut clock.btime,
            "wtime" => &mut clock.wtime,
            "binc" => &mut clock.binc,
            "winc" => &mut clock.winc,
            "byoyomi" => &mut clock.byoyomi,
            "movetime" => &mut clock.movetime,
            _ => {
                return Err(GoError {
                    mate: false,
                    column: col,
                    reason: format!("unknown word \"{}\"", shorten(w)),
                })
            }
        };
        let Some(&value) = ws.get(i + 1) else {
            return Err(GoError {
                mate: false,
                column: col,
                reason: format!("{w} needs a whole number{}", unit(w)),
            });
        };
        *slot = Some(number(false, value, w)?);
        i += 2;
    }
    Ok(Go::Play(clock))
}

impl fmt::Display for MateLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MateLimit::Millis(ms) => write!(f, "{ms} ms"),
            MateLimit::Infinite => f.write_str("infinite"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> Result<Go, GoError> {
        match parse_command(line) {
            Ok(Some(Command::Go(g))) => g,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn reads_the_gui_commands() {
        assert_eq!(parse_command("  "), Ok(None));
        assert_eq!(parse_command("usi"), Ok(Some(Command::Usi)));
        assert_eq!(parse_command("isready\r"), Ok(Some(Command::IsReady)));
        assert_eq!(
            parse_command("setoption name USI_Hash value 16"),
            Ok(Some(Command::SetOption {
                name: "USI_Hash".into(),
                value: Some("16".into())
            }))
        );
        assert_eq!(
            parse_command("setoption name USI_Ponder"),
            Ok(Some(Command::SetOption {
                name: "USI_Ponder".into(),
                value: None
            }))
        );
        assert_eq!(go("go mate 1000"), Ok(Go::Mate(MateLimit::Millis(1000))));
        assert_eq!(go("go mate infinite"), Ok(Go::Mate(MateLimit::Infinite)));
        assert_eq!(go("go mate"), Ok(Go::Mate(MateLimit::Infinite)));
        assert_eq!(
            go("go btime 1000 wtime 2000 byoyomi 3000"),
            Ok(Go::Play(Clock {
                btime: Some(1000),
                wtime: Some(2000),
                byoyomi: Some(3000),
                ..Clock::default()
            }))
        );
        assert_eq!(
            go("go ponder btime 0 wtime 0 binc 10 winc 20"),
            Ok(Go::Play(Clock {
                btime: Some(0),
                wtime: Some(0),
                binc: Some(10),
                winc: Some(20),
                ponder: true,
                ..Clock::default()
            }))
        );
        // Words of YaneuraOu and UCI GUIs (cshogi's `go(nodes=…)`): a node limit, a
        // depth and root moves, the last two read and ignored.
        assert_eq!(
            go("go btime 0 wtime 0 byoyomi 1000 nodes 100000"),
            Ok(Go::Play(Clock {
                btime: Some(0),
                wtime: Some(0),
                byoyomi: Some(1000),
                nodes: Some(100_000),
                ..Clock::default()
            }))
        );
        assert_eq!(
            go("go depth 5 searchmoves 7g7f 2g2f movetime 300"),
            Ok(Go::Play(Clock {
                depth: Some(5),
                searchmoves: 2,
                movetime: Some(300),
                ..Clock::default()
            }))
        );
    }

    #[test]
    fn bad_lines_are_located_errors() {
        let e = parse_command("hello world").unwrap_err();
        assert_eq!(e.to_string(), "column 1: unknown command \"hello\"");
        let e = go("go mate 12x").unwrap_err();
        assert!(e.mate);
        assert_eq!(
            e.to_string(),
            "go: column 9: mate: \"12x\" is not a whole number of milliseconds"
        );
        let e = go("go btime -5").unwrap_err();
        assert!(!e.mate && e.column == 10, "{e}");
        let e = go("go byoyomi").unwrap_err();
        assert_eq!(
            e.to_string(),
            "go: column 4: byoyomi needs a whole number of milliseconds"
        );
        assert!(go("go depth x").is_err());
        assert!(go("go nodes").is_err());
        assert!(go("go frobnicate 3").is_err());
        assert!(go("go mate 10 20").is_err());
        assert!(parse_command("setoption USI_Hash 3").is_err());
        assert!(parse_command("setoption name value 3").is_err());
        assert!(parse_command("isready now").is_err());
    }
}
