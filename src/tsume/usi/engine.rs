//! The engine loop: one thread owns the output and the state; the input thread
//! and the search thread send it [`Event`]s, and timers (periodic `info`, the
//! time limit, the stop grace) wake it. `isready` is answered at once even during
//! a search; `stop`, `quit` and the end of input end a search at once, in every phase
//! (the solver polls its stop flag every 1024 nodes, and its line walk at every node
//! with 4 096 nodes of allowance: [`SearchControl::stop`]; if it has not answered within
//! [`STOP_GRACE`], the engine answers without it). Every `go` gets one reply, in
//! order: one that arrives while a search runs waits for it (`Queued`); `gameover` ends
//! that: a search then running is stopped without its reply, and a held reply and the
//! queued `go`s are dropped (the game is over). A `stop` after
//! the mate is proven answers the line read; when the walk read none, the line read off
//! the table at the last proof (shown then as `info … pv`: a checked mate line within its
//! bound; so does an answer given without the search after the grace), or, with no such
//! line either, `checkmate timeout` with `info string mate within L plies proven; stopped
//! before its line was read` (`checkmate` carries only complete lines). [`HOLD_LINE_VAR`]
//! is a test hook.
//!
//! [`SearchControl::stop`]: crate::tsume::SearchControl::stop

use super::clock::budget;
use super::command::{parse_command, Clock, Command, Go, GoError, MateLimit};
use super::info;
use super::input::spawn_reader;
use super::options::EngineOptions;
use super::search::{spawn_search, SearchOutcome};
use crate::rules::Position;
use crate::tsume::{
    load_problem, plies, Control, DefenderHand, MateBounds, Outcome, Phase, ProvenLine,
};
use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// What wakes the engine loop.
#[derive(Debug)]
pub enum Event {
    /// A line from the GUI (line ending removed).
    Line(String),
    /// A line that cannot be read (not UTF-8, too long): reported, never fatal.
    BadLine(String),
    /// End of input: like `quit`.
    Eof,
    /// A search proved a mate and read its line ([`Control::with_line_hook`]): printed
    /// at once as `info depth L score mate L nodes N time T pv …` ([`info::proven_line`]).
    Proven {
        /// Which search.
        generation: u64,
        /// The line and its proven bound.
        line: ProvenLine,
    },
    /// A search thread finished.
    Done {
        /// Which search.
        generation: u64,
        /// Its result, or why it could not run.
        outcome: SearchOutcome,
    },
}

/// Time between periodic `info` lines.
pub const INFO_PERIOD: Duration = Duration::from_millis(1000);
/// How long after a stop request the engine waits for the search before answering without it.
pub const STOP_GRACE: Duration = Duration::from_millis(50);

/// The kind of a running search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `go mate`: replies `checkmate …`.
    Mate,
    /// A normal `go`: replies `bestmove …`.
    Play {
        /// Thinking on the opponent's time (no reply before `ponderhit` or `stop`).
        ponder: bool,
        /// `go infinite` (no reply before `stop`).
        infinite: bool,
        /// The time to use once `ponderhit` arrives.
        budget: Option<Duration>,
    },
}

impl Kind {
    fn holds_reply(self) -> bool {
        matches!(self, Kind::Play { ponder, infinite, .. } if ponder || infinite)
    }
}

struct Running {
    generation: u64,
    kind: Kind,
    control: Control,
    start: Instant,
    deadline: Option<Instant>,
    next_info: Instant,
    stop_at: Option<Instant>,
    /// The reply has been printed (the search thread may still be finishing).
    answered: bool,
    /// The reply of a finished search that waits for `stop` or `ponderhit`.
    held: Option<String>,
    yozume_nodes: u64,
    /// The bounds on the shortest mate last printed ([`info::bounds`]).
    bounds: MateBounds,
    /// The solve's phase when last seen ([`info::phase`]).
    phase: Phase,
    /// The line of the last mate proven, as shown ([`Engine::on_proven`]).
    proven: Option<ProvenLine>,
}

/// What [`Engine::report`] needs to know of a search that ended, beside its outcome.
struct Ended {
    /// `go mate` (`checkmate …`), not a normal `go` (`bestmove …`).
    mate: bool,
    hashfull: u32,
    yozume_nodes: u64,
    /// A `stop` (or the time control) asked it to end.
    stopped: bool,
    /// The bounds on the shortest mate it proved ([`crate::tsume::SearchControl::bounds`]).
    bounds: MateBounds,
    /// The phase it ended in.
    phase: Phase,
    /// Time since the `go`, on the clock of the periodic `info` lines (the solver's own
    /// starts a little later: its time would run backwards after them).
    elapsed: Duration,
    /// The line of the last mate proven, read off the table at the proof and shown then.
    proven: Option<ProvenLine>,
}

#[derive(Clone)]
enum PositionState {
    Unset,
    Bad(String),
    /// Boxed: a position is large beside the other states.
    Ready(Box<Position>),
}

struct Engine<W: Write> {
    out: W,
    options: EngineOptions,
    position: PositionState,
    search: Option<Running>,
    generation: u64,
    /// The `go`s that arrived while a search was running, oldest first.
    queued: VecDeque<Queued>,
    tx: Sender<Event>,
    /// Test hook ([`HOLD_LINE_VAR`]): every search waits before reading its line.
    hold_line: bool,
}

/// The environment variable that, set to anything, makes every search stand in for a
/// long line walk once its mate is proven
/// ([`SearchControl::hold_before_line`](crate::tsume::SearchControl::hold_before_line)):
/// for protocol tests of a `stop` during the walk, which must not race a real walk.
pub const HOLD_LINE_VAR: &str = "SHOGI_LAB_USI_TEST_HOLD_LINE";

/// A `go` that arrived while a search was running (a GUI that sends `stop` and the
/// next `go` without waiting for the reply, or two `go`s in a row): it is answered after
/// that search, about the position it was sent with.
struct Queued {
    go: Result<Go, GoError>,
    position: PositionState,
    /// A `stop` came after it: it is answered without a search.
    stopped: bool,
}

impl Queued {
    fn is_mate(&self) -> bool {
        match &self.go {
            Ok(go) => matches!(go, Go::Mate(_)),
            Err(e) => e.mate,
        }
    }
}

#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// Runs the USI engine on `input`/`output` until `quit` or the end of input.
///
/// # Errors
/// An I/O error writing `output` (e.g. the GUI closed the pipe).
pub fn run_usi<R: Read + Send + 'static, W: Write>(input: R, output: W) -> io::Result<()> {
    let (tx, rx) = mpsc::channel();
    spawn_reader(input, tx.clone());
    let mut engine = Engine {
        out: output,
        options: EngineOptions::default(),
        position: PositionState::Unset,
        search: None,
        generation: 0,
        queued: VecDeque::new(),
        tx,
        hold_line: std::env::var_os(HOLD_LINE_VAR).is_some(),
    };
    let r = engine.event_loop(&rx);
    engine.shutdown(&rx);
    r
}

impl<W: Write> Engine<W> {
    fn event_loop(&mut self, rx: &Receiver<Event>) -> io::Result<()> {
        loop {
            let ev = match self.next_wakeup() {
                Some(t) => match rx.recv_timeout(t.saturating_duration_since(Instant::now())) {
                    Ok(ev) => Some(ev),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => return Ok(()),
                },
                None => match rx.recv() {
                    Ok(ev) => Some(ev),
                    Err(_) => return Ok(()),
                },
            };
            match ev {
                None => {}
                Some(Event::Eof) => return Ok(()),
                Some(Event::Line(l)) => match self.on_line(&l)? {
                    Flow::Quit => return Ok(()),
                    Flow::Continue => {}
                },
                Some(Event::BadLine(m)) => self.error(&m)?,
                Some(Event::Proven { generation, line }) => self.on_proven(generation, line)?,
                Some(Event::Done {
                    generation,
                    outcome,
                }) => self.on_done(generation, outcome)?,
            }
            self.on_timer()?;
        }
    }

    /// Stops a running search and gives it [`STOP_GRACE`] to release its table.
    fn shutdown(&mut self, rx: &Receiver<Event>) {
        let Some(run) = &self.search else { return };
        run.control.0.stop();
        let gen = run.generation;
        let until = Instant::now() + STOP_GRACE;
        loop {
            match rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
                Ok(Event::Done { generation, .. }) if generation == gen => return,
                Ok(_) => {}
                Err(_) => return,
            }
        }
    }

    /// Writes one line to the GUI, as ASCII ([`info::ascii`]).
    fn say(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.out, "{}", info::ascii(line))?;
        self.out.flush()
    }

    fn error(&mut self, msg: &str) -> io::Result<()> {
        self.say(&format!("info string error: {msg}"))
    }

    /// The reply of a search that has no answer: `checkmate timeout` / `bestmove resign`.
    fn no_answer(&mut self, mate: bool) -> io::Result<()> {
        self.say(if mate {
            "checkmate timeout"
        } else {
            "bestmove resign"
        })
    }

    fn on_line(&mut self, line: &str) -> io::Result<Flow> {
        let cmd = match parse_command(line) {
            Ok(Some(c)) => c,
            Ok(None) => return Ok(Flow::Continue),
            Err(e) => {
                self.error(&e.to_string())?;
                return Ok(Flow::Continue);
            }
        };
        match cmd {
            Command::Usi => {
                self.say(&format!(
                    "id name shogi-lab tsume {}",
                    env!("CARGO_PKG_VERSION")
                ))?;
                self.say("id author shogi-lab")?;
                for l in self.options.usi_lines() {
                    self.say(&l)?;
                }
                self.say("usiok")?;
            }
            Command::IsReady => self.say("readyok")?,
            Command::UsiNewGame => {}
            Command::SetOption { name, value } => {
                if let Err(e) = self.options.set(&name, value.as_deref()) {
                    self.error(&e.to_string())?;
                }
            }
            Command::Position(text) => {
                self.position = match read_position(&text) {
                    Ok(p) => PositionState::Ready(Box::new(p)),
                    Err(e) => {
                        self.error(&e)?;
                        PositionState::Bad(e)
                    }
                };
            }
            Command::Go(go) => {
                if let Err(e) = &go {
                    self.error(&e.to_string())?;
                }
                let position = self.position.clone();
                match &self.search {
                    None => self.begin(go, position)?,
                    Some(run) => {
                        if run.stop_at.is_none() {
                            self.say("info string go: a search is running; this go is answered after it (a stop ends both)")?;
                        }
                        self.queued.push_back(Queued {
                            go,
                            position,
                            stopped: false,
                        });
                    }
                }
            }
            Command::Stop => self.stop()?,
            Command::GameOver => self.game_over(),
            Command::PonderHit => self.ponderhit()?,
            Command::Quit => return Ok(Flow::Quit),
        }
        Ok(Flow::Continue)
    }

    /// Answers a `go` whose words do not parse, or starts a search of `position`.
    fn begin(&mut self, go: Result<Go, GoError>, position: PositionState) -> io::Result<()> {
        match go {
            Ok(go) => self.start(go, position),
            Err(e) => self.no_answer(e.mate),
        }
    }

    /// Takes the queued `go`s whose turn has come: the stopped ones are answered once the
    /// running search's reply is out, the next one starts once no search runs.
    fn run_queued(&mut self) -> io::Result<()> {
        loop {
            let replied = self.search.as_ref().map_or(true, |r| r.answered);
            match self.queued.front() {
                Some(q) if q.stopped && replied => {
                    let mate = q.is_mate();
                    self.queued.pop_front();
                    self.say("info string go: stopped before its search started")?;
                    self.no_answer(mate)?;
                }
                Some(_) if self.search.is_none() => {
                    let q = self.queued.pop_front().expect("front");
                    self.begin(q.go, q.position)?;
                }
                _ => return Ok(()),
            }
        }
    }

    fn start(&mut self, go: Go, position: PositionState) -> io::Result<()> {
        let mate = matches!(go, Go::Mate(_));
        let pos = match position {
            PositionState::Ready(p) => *p,
            PositionState::Bad(e) => {
                let msg = format!("go: no valid position ({e})");
                self.error(&msg)?;
                return self.no_answer(mate);
            }
            PositionState::Unset => {
                self.error("go: no position; send `position …` first")?;
                return self.no_answer(mate);
            }
        };
        let mut opts = self.options.solver_options();
        let now = Instant::now();
        let (kind, deadline) = match go {
            Go::Mate(MateLimit::Millis(ms)) => {
                let limit = Duration::from_millis(ms);
                opts.time = Some(solver_time(limit));
                (Kind::Mate, now.checked_add(limit))
            }
            Go::Mate(MateLimit::Infinite) => (Kind::Mate, None),
            Go::Play(clock) => {
                if let Some(n) = clock.nodes {
                    opts.nodes = Some(opts.nodes.map_or(n, |o| o.min(n)));
                }
                if let Some(d) = clock.depth {
                    self.say(&format!(
                        "info string go: depth {d} ignored (a mate search has no depth limit)"
                    ))?;
                }
                if clock.searchmoves > 0 {
                    self.say("info string go: searchmoves ignored (every check is searched)")?;
                }
                let b = budget(&clock, pos.side_to_move());
                let kind = Kind::Play {
                    ponder: clock.ponder,
                    infinite: clock.infinite,
                    budget: b,
                };
                if clock.ponder {
                    (kind, None)
                } else {
                    opts.time = b.map(solver_time);
                    (kind, b.and_then(|b| now.checked_add(b)))
                }
            }
        };
        let what = match (kind, go) {
            (Kind::Mate, Go::Mate(l)) => format!("mate search ({l})"),
            (_, Go::Play(Clock { nodes: Some(n), .. })) => {
                format!("normal go: searching for a mate to play (at most {n} nodes)")
            }
            _ => "normal go: searching for a mate to play".to_string(),
        };
        let summary = self.options.summary();
        self.say(&format!("info string {what}; {summary}"))?;
        self.generation += 1;
        let (tx, generation) = (self.tx.clone(), self.generation);
        let control = Control::with_line_hook(move |line| {
            // The engine loop may be gone (the engine is shutting down): nothing to print.
            let _ = tx.send(Event::Proven { generation, line });
        });
        if self.hold_line {
            control.0.hold_before_line();
        }
        if let Err(e) = spawn_search(pos, opts, control.clone(), self.generation, self.tx.clone()) {
            self.error(&format!("cannot start the search thread: {e}"))?;
            return self.no_answer(mate);
        }
        self.search = Some(Running {
            generation: self.generation,
            kind,
            control,
            start: now,
            deadline,
            next_info: now + INFO_PERIOD,
            stop_at: None,
            answered: false,
            held: None,
            yozume_nodes: self.options.yozume_nodes,
            bounds: MateBounds::default(),
            phase: Phase::Proof,
            proven: None,
        });
        Ok(())
    }

    fn request_stop(run: &mut Running) {
        if run.stop_at.is_none() {
            run.control.0.stop();
            run.stop_at = Some(Instant::now());
        }
    }

    /// Ends the running search and the `go`s queued behind it.
    fn stop(&mut self) -> io::Result<()> {
        for q in &mut self.queued {
            q.stopped = true;
        }
        if let Some(run) = &mut self.search {
            if !run.answered {
                Self::request_stop(run);
                let Some(reply) = run.held.take() else {
                    // The reply comes when the search ends (or after the grace).
                    return Ok(());
                };
                self.search = None;
                self.say(&reply)?;
            }
        }
        self.run_queued()
    }

    /// `gameover`: the game has ended, so nothing is answered any more: a running search
    /// is stopped without its reply (a held one is dropped), and the queued `go`s go.
    fn game_over(&mut self) {
        self.queued.clear();
        if let Some(run) = &mut self.search {
            if run.held.take().is_some() {
                self.search = None;
            } else if !run.answered {
                Self::request_stop(run);
                run.answered = true;
            }
        }
    }

    fn ponderhit(&mut self) -> io::Result<()> {
        let Some(run) = &mut self.search else {
            return Ok(());
        };
        let Kind::Play {
            ponder: true,
            infinite,
            budget,
        } = run.kind
        else {
            return Ok(());
        };
        run.kind = Kind::Play {
            ponder: false,
            infinite,
            budget,
        };
        if run.held.is_some() && !infinite {
            let reply = run.held.take().expect("held");
            self.search = None;
            self.say(&reply)?;
            return self.run_queued();
        }
        run.deadline = budget.and_then(|b| Instant::now().checked_add(b));
        Ok(())
    }

    /// Prints the line of a mate the running search just proved, unless its reply is out,
    /// and keeps it: a stop before the line walk reads a line answers it.
    fn on_proven(&mut self, generation: u64, line: ProvenLine) -> io::Result<()> {
        let Some(run) = &mut self.search else {
            return Ok(());
        };
        if run.generation != generation || run.answered {
            return Ok(());
        }
        let elapsed = run.start.elapsed();
        let text = info::proven_line(&line, elapsed);
        run.proven = Some(line);
        self.say(&text)
    }

    fn on_done(&mut self, generation: u64, outcome: SearchOutcome) -> io::Result<()> {
        let Some(run) = &mut self.search else {
            return Ok(());
        };
        if run.generation != generation {
            return Ok(());
        }
        if run.answered {
            self.search = None;
            return self.run_queued();
        }
        let hold = run.kind.holds_reply() && run.stop_at.is_none();
        let ended = Ended {
            mate: run.kind == Kind::Mate,
            hashfull: run.control.0.hashfull(),
            yozume_nodes: run.yozume_nodes,
            stopped: run.stop_at.is_some(),
            bounds: run.control.0.bounds(),
            phase: run.control.0.phase(),
            elapsed: run.start.elapsed(),
            proven: run.proven.take(),
        };
        let reply = self.report(ended, outcome)?;
        match &mut self.search {
            Some(run) if hold => run.held = Some(reply),
            _ => {
                self.search = None;
                self.say(&reply)?;
                self.run_queued()?;
            }
        }
        Ok(())
    }

    fn next_wakeup(&self) -> Option<Instant> {
        let run = self.search.as_ref()?;
        if run.answered || run.held.is_some() {
            return None;
        }
        let mut t = run.next_info;
        match run.stop_at {
            Some(s) => t = t.min(s + STOP_GRACE),
            None => {
                if let Some(d) = run.deadline {
                    t = t.min(d);
                }
            }
        }
        Some(t)
    }

    fn on_timer(&mut self) -> io::Result<()> {
        let now = Instant::now();
        let Some(run) = &mut self.search else {
            return Ok(());
        };
        if run.answered || run.held.is_some() {
            return Ok(());
        }
        if let Some(s) = run.stop_at {
            if now >= s + STOP_GRACE {
                run.answered = true;
                let mate = run.kind == Kind::Mate;
                let proven = run.proven.take();
                let bounds = run.control.0.bounds();
                self.say("info string the search did not stop in time; answering without it")?;
                match proven {
                    Some(p) => {
                        let reply = self.proven_reply(&p, bounds, mate)?;
                        self.say(&reply)?;
                    }
                    None => self.no_answer(mate)?,
                }
                return self.run_queued();
            }
        } else if run.deadline.is_some_and(|d| now >= d) {
            Self::request_stop(run);
        }
        if now >= run.next_info {
            while run.next_info <= now {
                run.next_info += INFO_PERIOD;
            }
            let line = info::progress(
                now - run.start,
                run.control.0.nodes(),
                run.control.0.hashfull(),
            );
            let bounds = run.control.0.bounds();
            let changed = (bounds != run.bounds)
                .then(|| info::bounds(bounds))
                .flatten();
            run.bounds = bounds;
            let phase = run.control.0.phase();
            let entered = (phase != run.phase)
                .then(|| info::phase(phase, bounds))
                .flatten();
            run.phase = phase;
            self.say(&line)?;
            if let Some(b) = changed {
                self.say(&b)?;
            }
            if let Some(p) = entered {
                self.say(&p)?;
            }
        }
        Ok(())
    }

    /// Prints the `info` lines of `p`, the line read off the table at the last proof of a
    /// search stopped before it read a line of its own (or that did not stop in time), and
    /// returns the reply that carries it: it is a checked mate line within its bound.
    /// `bounds` are the search's when it ended.
    fn proven_reply(
        &mut self,
        p: &ProvenLine,
        bounds: MateBounds,
        mate: bool,
    ) -> io::Result<String> {
        let how = match (bounds.mate_within, bounds.no_mate_within) {
            (Some(l), Some(n)) if l <= n + 2 => format!(
                "the shortest mate is proven to have {}, but stopped before a line of longest \
                 defences was read",
                plies(l.into())
            ),
            (_, Some(n)) => format!(
                "not proven shortest: stopped; no mate within {}",
                plies(n.into())
            ),
            _ => "not proven shortest: stopped".to_string(),
        };
        // The score is the proven bound, not the line's length: the line shows the defence
        // the table held, which need not resist longest (無双65 with a 1 MiB table: a 9-ply
        // line read at the proof of 27, with no mate within 11 proven).
        let within = bounds
            .mate_within
            .map_or(p.mate_within, |l| l.min(p.mate_within));
        self.say(&format!(
            "info string mate within {} proven ({how}); the {}-ply line answered was read off \
             the table when mate within {} was proven, and its defender need not resist longest",
            plies(within.into()),
            p.plies,
            plies(p.mate_within.into())
        ))?;
        self.say(&info::bound_pv_usi(within, &p.usi))?;
        let mut moves = p.usi.split(' ');
        let first = moves.next().unwrap_or_default();
        Ok(if mate {
            format!("checkmate {}", p.usi)
        } else {
            match moves.next() {
                Some(reply) => format!("bestmove {first} ponder {reply}"),
                None => format!("bestmove {first}"),
            }
        })
    }

    /// Prints the `info` lines of a finished search and returns its reply line.
    fn report(&mut self, ended: Ended, outcome: SearchOutcome) -> io::Result<String> {
        let Ended {
            mate,
            hashfull,
            yozume_nodes,
            stopped,
            bounds,
            phase,
            elapsed,
            proven,
        } = ended;
        // What ended a search that is not complete.
        let cut = if stopped { "stopped" } else { "limits reached" };
        let no_answer = if mate {
            "checkmate timeout"
        } else {
            "bestmove resign"
        };
        let r = match outcome {
            Ok(r) => r,
            Err(e) => {
                self.error(&e)?;
                return Ok(no_answer.to_string());
            }
        };
        self.say(&info::progress(elapsed, r.stats.nodes, hashfull))?;
        self.say(&info::plays(r.stats.plays))?;
        match r.outcome {
            Outcome::Mate if !r.line.is_empty() => {
                let how = match (r.shortest, r.no_mate_within) {
                    (Some(true), _) => "proven shortest".to_string(),
                    (Some(false), Some(n)) if r.mate_within.is_some_and(|l| l <= n + 2) => {
                        let why = if stopped {
                            "stopped before a line of longest defences was read"
                        } else {
                            "this line is not one of longest defences"
                        };
                        format!(
                            "the shortest mate is proven to have {}, but {why}",
                            plies(u64::from(n) + 2)
                        )
                    }
                    (Some(false), Some(n)) => {
                        format!(
                            "not proven shortest: {cut}; no mate within {}",
                            plies(n.into())
                        )
                    }
                    (Some(false), None) => format!("not proven shortest: {cut}"),
                    (None, _) => {
                        "first proof found, length not minimised (MateLength Proof)".to_string()
                    }
                };
                self.say(&format!(
                    "info string mate in {} ({how})",
                    plies(r.line.len() as u64)
                ))?;
                if yozume_nodes > 0 {
                    let msg = if r.alternatives.is_empty() {
                        format!(
                            "info string yozume: no other mating first move found ({yozume_nodes} nodes each)"
                        )
                    } else {
                        let alts: Vec<String> =
                            r.alternatives.iter().map(|m| m.to_string()).collect();
                        format!(
                            "info string yozume: other mating first moves {}",
                            alts.join(" ")
                        )
                    };
                    self.say(&msg)?;
                    if stopped && phase == Phase::Yozume {
                        self.say("info string yozume: stopped before every first move was tried")?;
                    }
                }
                self.say(&info::mate_pv(&r.line))?;
                Ok(if mate {
                    format!("checkmate {}", r.line_usi())
                } else {
                    match r.line.get(1) {
                        Some(reply) => format!("bestmove {} ponder {reply}", r.line[0]),
                        None => format!("bestmove {}", r.line[0]),
                    }
                })
            }
            Outcome::NoMate => {
                self.say("info string no mate: completely disproven")?;
                if mate {
                    Ok("checkmate nomate".to_string())
                } else {
                    self.say("info string this engine plays only proven mates: resigning")?;
                    Ok("bestmove resign".to_string())
                }
            }
            Outcome::Mate | Outcome::Unknown => match (bounds.mate_within, proven) {
                // A stop during the line walk, which read no line: the line read off the
                // table at the last proof and shown then (checked, within its bound).
                (Some(_), Some(p)) if stopped => self.proven_reply(&p, bounds, mate),
                // A stop during the line walk: the mate is proven, its line was not read.
                (Some(l), None) if stopped => {
                    self.say(&format!(
                        "info string mate within {} proven; stopped before its line was read",
                        plies(l.into())
                    ))?;
                    Ok(no_answer.to_string())
                }
                _ => {
                    self.say("info string no mate proven within the limits")?;
                    Ok(no_answer.to_string())
                }
            },
        }
    }
}

/// The solver's own clock for a search the engine must answer within `limit`: a tenth
/// less, so that when it ends the minimality search the line walk (bounded by nodes,
/// never by the clock) has that tenth before the engine's stop request at `limit` cuts
/// it to its allowance (the stop used to come with the clock, leaving the walk only the
/// allowance; a walk in a very small table can need more than the tenth still).
fn solver_time(limit: Duration) -> Duration {
    limit - limit / 10
}

/// Resolves a `position` line with [`load_problem`]: the position after the moves is
/// the problem (its side to move attacks; it may lack a king, the other side must have
/// one); hands are as given (a USI position is complete).
fn read_position(text: &str) -> Result<Position, String> {
    load_problem(text, DefenderHand::AsGiven).map_err(|e| format!("position: {e}"))
}
