//! What a running search shares with the thread that drives it: the stop request,
//! progress counters, the bounds on the shortest mate proven so far, and (for a driver
//! that asks, [`Control::with_line_hook`]) the line of each mate proven.

use std::fmt;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8};
use std::sync::Arc;

/// Bounds on the shortest mate's length: a mate within `mate_within` plies is proven,
/// and no mate within `no_mate_within`. The length is proven when they are 2 apart (or a
/// mate within 1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MateBounds {
    /// A mate within this many plies is proven.
    pub mate_within: Option<u16>,
    /// No mate within this many plies is proven.
    pub no_mate_within: Option<u16>,
}

impl MateBounds {
    /// Neither bound is known.
    pub fn is_empty(&self) -> bool {
        self.mate_within.is_none() && self.no_mate_within.is_none()
    }
}

/// `mate within <L> plies, no mate within <N> plies`, either part alone when only it is
/// known (nothing when neither is).
impl fmt::Display for MateBounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(l) = self.mate_within {
            write!(f, "mate within {}", plies(l.into()))?;
        }
        if let Some(n) = self.no_mate_within {
            let sep = if self.mate_within.is_some() { ", " } else { "" };
            write!(f, "{sep}no mate within {}", plies(n.into()))?;
        }
        Ok(())
    }
}

/// `n` plies as words: `1 ply`, `0 plies`, `3 plies`.
pub fn plies(n: u64) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// A mate line the running search read off its table when it proved a mate within
/// `mate_within` plies (its first proof, then each shorter proof of the minimality
/// search), handed to a [`Control::with_line_hook`]'s hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProvenLine {
    /// The proven bound: a mate within this many plies.
    pub mate_within: u16,
    /// The line, USI moves separated by spaces: legal, every attacker move a check,
    /// ending in mate (replayed by the checker), at most `mate_within` plies. It can be
    /// shorter: it shows the defence the table holds, not one shown longest.
    pub usi: String,
    /// Its length in plies.
    pub plies: u16,
    /// Nodes searched when it was read.
    pub nodes: u64,
}

impl ProvenLine {
    /// Whether this line shows a mate within `mate_within` plies (the bound a driver read
    /// from [`SearchControl::bounds`]; `None`: no mate proven yet), for a driver that shows
    /// the bound and the last line handed on together (Python's `progress`). The search
    /// hands a line on before it publishes its bound, so a driver that reads the bound and
    /// then the line can find the line of a shorter proof than the bound it read: a mate
    /// within that bound all the same (a line of a longer bound is not).
    pub fn shows_mate_within(&self, mate_within: Option<u16>) -> bool {
        mate_within.is_some_and(|b| self.mate_within <= b)
    }
}

/// What a [`Control::with_line_hook`] calls with each [`ProvenLine`].
struct LineHook(Box<dyn Fn(ProvenLine) + Send + Sync>);

impl fmt::Debug for LineHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("LineHook")
    }
}

/// What a running solve is doing ([`SearchControl::phase`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Phase {
    /// Looking for a first proof (or a complete disproof).
    Proof,
    /// A mate is proven; the minimality search looks for a shorter one.
    Shortest,
    /// A mate is proven; its line is being read off the table (the line walk).
    Line,
    /// The line is read; other mating first moves are looked for (余詰).
    Yozume,
}

impl Phase {
    /// Every phase, in the order a solve goes through them.
    pub const ALL: [Phase; 4] = [Phase::Proof, Phase::Shortest, Phase::Line, Phase::Yozume];
}

/// Shared between a running search and the thread that drives it.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    nodes: AtomicU64,
    hashfull: AtomicU32,
    /// The least length within which a mate is proven so far (`NONE`: none yet).
    mate_within: AtomicU32,
    /// The greatest length within which no mate is proven so far, plies + 1 (0: none yet).
    no_mate_within: AtomicU32,
    /// The search is over and its answer's certificate is being built.
    certifying: AtomicBool,
    /// The [`Phase`] the solve is in (its index in [`Phase::ALL`]).
    phase: AtomicU8,
    /// Test hook: the solve waits before it reads its line ([`SearchControl::hold_before_line`]).
    hold_line: AtomicBool,
    /// A stop request here stops this search too ([`Control::child`]).
    parent: Option<Arc<SearchControl>>,
    /// Called with the line of each mate proven ([`Control::with_line_hook`]).
    on_line: Option<LineHook>,
}

/// [`SearchControl::mate_within`]'s "none yet" (above every ply count).
const NONE: u32 = u32::MAX;

impl Default for SearchControl {
    fn default() -> Self {
        SearchControl {
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            hashfull: AtomicU32::new(0),
            mate_within: AtomicU32::new(NONE),
            no_mate_within: AtomicU32::new(0),
            certifying: AtomicBool::new(false),
            phase: AtomicU8::new(0),
            hold_line: AtomicBool::new(false),
            parent: None,
            on_line: None,
        }
    }
}

impl SearchControl {
    /// Asks the search to end as soon as possible, in every [`Phase`]: it reports what it
    /// has. The search and the minimality search end within 1 024 nodes; once a mate is
    /// proven, its line is still read off the table, but the walks may search only 4 096
    /// nodes more in all (to prove again what the table lost of the proof, or to show a
    /// reply exact), and the 余詰 search ends with the first moves tried so far. So the
    /// answer is the line of the shortest mate found ([`super::Outcome::Mate`], not shown
    /// shortest if the stop came first), or, rarely, [`super::Outcome::Unknown`] even after
    /// a proof (the bounds then say what was proven: [`SearchControl::bounds`]).
    pub fn stop(&self) {
        self.stop.store(true, Relaxed);
    }
    /// Whether [`SearchControl::stop`] was called since the last [`SearchControl::reset`],
    /// here or on the control this one is a [`Control::child`] of.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Relaxed) || self.parent.as_ref().is_some_and(|p| p.is_stopped())
    }
    /// Clears the stop request, the progress counters and the bounds before a new search.
    pub fn reset(&self) {
        self.stop.store(false, Relaxed);
        self.nodes.store(0, Relaxed);
        self.hashfull.store(0, Relaxed);
        self.clear_bounds();
    }
    /// Nodes searched so far (updated every 1024 nodes).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }
    /// Table fill in permille of the memory limit (updated every 1024 nodes).
    pub fn hashfull(&self) -> u32 {
        self.hashfull.load(Relaxed)
    }
    /// The bounds on the shortest mate the running search has proven so far: its first
    /// proof and the minimality search's shorter proofs and refutations. They can say
    /// more than the answer: a mate proven whose line then fails the checker, or a bound
    /// of `--any-mate`'s first proof, which the answer leaves out.
    pub fn bounds(&self) -> MateBounds {
        let m = self.mate_within.load(Relaxed);
        let n = self.no_mate_within.load(Relaxed);
        MateBounds {
            mate_within: (m != NONE).then_some(m as u16),
            no_mate_within: (n != 0).then(|| (n - 1) as u16),
        }
    }
    /// Clears the bounds, the phase and the certifying mark (a new search starts).
    pub(crate) fn clear_bounds(&self) {
        self.mate_within.store(NONE, Relaxed);
        self.no_mate_within.store(0, Relaxed);
        self.certifying.store(false, Relaxed);
        self.phase.store(0, Relaxed);
    }
    /// What the solve is doing now ([`Phase::Proof`] before it starts).
    pub fn phase(&self) -> Phase {
        Phase::ALL[usize::from(self.phase.load(Relaxed))]
    }
    pub(crate) fn set_phase(&self, phase: Phase) {
        let i = Phase::ALL.iter().position(|&p| p == phase).unwrap_or(0);
        self.phase.store(i as u8, Relaxed);
    }
    /// Test hook, for protocol tests that must stop a solve while it reads its line
    /// without racing a walk that may take a millisecond or a minute: once a mate is
    /// proven and [`Phase::Line`] reported, the solve stands in for a walk that needs much
    /// search, 1 024 node expansions of nothing a millisecond, until it is aborted as such
    /// a walk would be; then it reads the line. Set before the solve starts; nothing else
    /// uses it.
    #[doc(hidden)]
    pub fn hold_before_line(&self) {
        self.hold_line.store(true, Relaxed);
    }
    pub(crate) fn holds_before_line(&self) -> bool {
        self.hold_line.load(Relaxed)
    }
    /// Whether the search is over and its answer's certificate is being built (set by
    /// the front end that certifies; cleared when the next search starts).
    pub fn is_certifying(&self) -> bool {
        self.certifying.load(Relaxed)
    }
    /// Marks the search over and its certificate being built ([`SearchControl::is_certifying`]).
    pub fn set_certifying(&self) {
        self.certifying.store(true, Relaxed);
    }
    /// Whether the search should read a line off its table at each mate proven
    /// ([`Control::with_line_hook`]).
    pub(crate) fn wants_lines(&self) -> bool {
        self.on_line.is_some()
    }
    /// Hands `line` to the hook ([`Control::with_line_hook`]), on the search thread.
    pub(crate) fn report_line(&self, line: ProvenLine) {
        if let Some(hook) = &self.on_line {
            (hook.0)(line);
        }
    }
    pub(crate) fn report_mate_within(&self, plies: u16) {
        self.mate_within.fetch_min(u32::from(plies), Relaxed);
    }
    pub(crate) fn report_no_mate_within(&self, plies: u16) {
        self.no_mate_within.fetch_max(u32::from(plies) + 1, Relaxed);
    }
    pub(crate) fn report(&self, nodes: u64, hashfull: u32) {
        self.nodes.store(nodes, Relaxed);
        self.hashfull.store(hashfull, Relaxed);
    }
}

/// A shared [`SearchControl`]; equal when it is the same control.
#[derive(Debug, Clone, Default)]
pub struct Control(pub Arc<SearchControl>);

impl PartialEq for Control {
    fn eq(&self, other: &Control) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
impl Eq for Control {}

impl Control {
    /// A control of its own (counters, bounds) for a search done on behalf of this one's
    /// (a certificate's fallback solves), stopped when this one is.
    pub fn child(&self) -> Control {
        Control(Arc::new(SearchControl {
            parent: Some(Arc::clone(&self.0)),
            ..SearchControl::default()
        }))
    }

    /// A control whose search, each time it proves a mate within some number of plies
    /// (its first proof, then each shorter proof of the minimality search), reads a line
    /// off its table and calls `hook` with it. The read is the table's alone: it searches
    /// no node (the search's node counts are the same with or without a hook), plays at
    /// most the line's moves (counted in [`super::Stats::plays`]) and looks up at most
    /// 64 children a ply of the bound; a proof whose line cannot be read so (an entry
    /// replaced, a line that would end in 無駄合) calls nothing. `hook` runs on the search
    /// thread between two steps of the search: it must be quick (send the line on a
    /// channel, store it).
    pub fn with_line_hook(hook: impl Fn(ProvenLine) + Send + Sync + 'static) -> Control {
        Control(Arc::new(SearchControl {
            on_line: Some(LineHook(Box::new(hook))),
            ..SearchControl::default()
        }))
    }
}

/// Runs `work` on a thread with the solver's deep stack ([`super::dfpn::SOLVER_STACK`]:
/// ミクロコスモス recurses over 1 500 plies), handing it a fresh [`Control`] to put in its
/// [`super::SolverOptions`], while the calling thread watches: it wakes every `period`
/// (and at once when `work` ends) and calls `watch` with the search's control. `watch`
/// returning `false` stops the search ([`SearchControl::stop`]) and is not called again;
/// `work` still runs to its end. A panic in `work` resumes here.
///
/// # Errors
/// When the thread cannot be started.
pub fn watched<T: Send>(
    period: std::time::Duration,
    work: impl FnOnce(&Control) -> T + Send,
    watch: impl FnMut(&SearchControl) -> bool,
) -> std::io::Result<T> {
    watched_with(Control::default(), period, work, watch)
}

/// [`watched`] with the [`Control`] handed to `work` given (one made by
/// [`Control::with_line_hook`]).
///
/// # Errors
/// When the thread cannot be started.
pub fn watched_with<T: Send>(
    control: Control,
    period: std::time::Duration,
    work: impl FnOnce(&Control) -> T + Send,
    mut watch: impl FnMut(&SearchControl) -> bool,
) -> std::io::Result<T> {
    use std::sync::atomic::Ordering::{Acquire, Release};
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        let caller = std::thread::current();
        let (control_ref, done_ref) = (&control, &done);
        let worker = std::thread::Builder::new()
            .stack_size(super::dfpn::SOLVER_STACK)
            .spawn_scoped(s, move || {
                // Wakes the caller when done, whichever way this ends.
                struct Wake<'a>(&'a AtomicBool, std::thread::Thread);
                impl Drop for Wake<'_> {
                    fn drop(&mut self) {
                        self.0.store(true, Release);
                        self.1.unpark();
                    }
                }
                let _wake = Wake(done_ref, caller);
                work(control_ref)
            })?;
        let mut watching = true;
        loop {
            std::thread::park_timeout(period);
            if done.load(Acquire) {
                break;
            }
            if watching && !watch(&control.0) {
                control.0.stop();
                watching = false;
            }
        }
        Ok(worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line a driver shows beside the bound it read: the search hands a line on
    /// before it publishes its bound, so a driver reading the bound (35) and then the last
    /// line can find the line of the next, shorter proof (33): a mate within 35 too. Python's
    /// `progress` matched the bound exactly and gave `usi` None then, a line having been
    /// read. A line of a longer bound than the one read is not shown, nor any line before
    /// a bound is published.
    #[test]
    fn a_line_is_shown_within_every_bound_at_least_its_own() {
        let line = ProvenLine {
            mate_within: 33,
            usi: "G*1b".into(),
            plies: 1,
            nodes: 1,
        };
        assert!(line.shows_mate_within(Some(33)));
        assert!(line.shows_mate_within(Some(35)));
        assert!(!line.shows_mate_within(Some(31)));
        assert!(!line.shows_mate_within(None));
    }

    /// The watcher sees the work's control, stops it by returning `false` and is not
    /// called again; the work's output comes back.
    #[test]
    fn a_watcher_stops_the_work_once() {
        use std::time::Duration;
        let mut said_stop = false;
        let out = watched(
            Duration::from_millis(1),
            |c: &Control| {
                let mut rounds = 0;
                while !c.0.is_stopped() {
                    rounds += 1;
                    c.0.report(rounds, 0);
                    std::thread::sleep(Duration::from_millis(1));
                }
                // Runs on after the stop: the watcher must stay silent.
                std::thread::sleep(Duration::from_millis(20));
                rounds
            },
            |c| {
                assert!(!said_stop, "watch called after it stopped the work");
                said_stop = c.nodes() >= 3;
                !said_stop
            },
        )
        .unwrap();
        assert!(said_stop);
        assert!(out >= 3);
    }

    #[test]
    fn bounds_keep_the_best_and_read_as_text() {
        let c = SearchControl::default();
        assert!(c.bounds().is_empty());
        assert_eq!(c.bounds().to_string(), "");
        c.report_mate_within(35);
        c.report_mate_within(39);
        c.report_mate_within(31);
        c.report_no_mate_within(0);
        assert_eq!(c.bounds().no_mate_within, Some(0));
        c.report_no_mate_within(27);
        c.report_no_mate_within(9);
        let b = c.bounds();
        assert_eq!((b.mate_within, b.no_mate_within), (Some(31), Some(27)));
        assert_eq!(
            b.to_string(),
            "mate within 31 plies, no mate within 27 plies"
        );
        let only_no_mate = MateBounds {
            mate_within: None,
            no_mate_within: Some(7),
        };
        assert_eq!(only_no_mate.to_string(), "no mate within 7 plies");
        c.reset();
        assert!(c.bounds().is_empty());
        // One ply is singular.
        let one = MateBounds {
            mate_within: Some(1),
            no_mate_within: Some(1),
        };
        assert_eq!(one.to_string(), "mate within 1 ply, no mate within 1 ply");
        assert_eq!(plies(0), "0 plies");
    }

    /// A child is stopped with its parent, not the other way round, and keeps its own
    /// counters and bounds.
    #[test]
    fn a_child_control_stops_with_its_parent() {
        let parent = Control::default();
        let child = parent.child();
        child.0.report(42, 7);
        child.0.report_mate_within(9);
        assert_eq!(
            (parent.0.nodes(), parent.0.bounds()),
            (0, MateBounds::default())
        );
        child.0.stop();
        assert!(child.0.is_stopped() && !parent.0.is_stopped());
        let child = parent.child();
        assert!(!child.0.is_stopped());
        parent.0.stop();
        assert!(child.0.is_stopped() && parent.child().0.is_stopped());
    }
}
