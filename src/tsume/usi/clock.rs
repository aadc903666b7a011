//! How long a normal `go` may think: a share of the remaining time plus the
//! increment and 秒読み, minus a margin for the reply to reach the GUI.

use super::command::Clock;
use crate::rules::Color;
use std::time::Duration;

/// Time kept back for the reply to reach the GUI (pipes, a loaded machine).
pub const MARGIN: Duration = Duration::from_millis(250);

/// The search time for the side to move: `None` for no limit (`infinite`, or a
/// `go` without clock words: search until the answer or `stop`); otherwise
/// `movetime − MARGIN`, or `min(remaining / 20 + inc + byoyomi, remaining + inc +
/// byoyomi) − MARGIN` (0 when the clock has less than the margin).
pub fn budget(clock: &Clock, side: Color) -> Option<Duration> {
    if clock.infinite {
        return None;
    }
    let ms = |x: u64| Duration::from_millis(x);
    if let Some(m) = clock.movetime {
        return Some(ms(m).saturating_sub(MARGIN));
    }
    let (time, inc) = match side {
        Color::Sente => (clock.btime, clock.binc),
        Color::Gote => (clock.wtime, clock.winc),
    };
    if time.is_none() && inc.is_none() && clock.byoyomi.is_none() {
        return None;
    }
    let (time, inc, byo) = (
        time.unwrap_or(0),
        inc.unwrap_or(0),
        clock.byoyomi.unwrap_or(0),
    );
    // Saturating: a GUI may send any u64 (an increment of u64::MAX wrapped to nothing).
    let extra = inc.saturating_add(byo);
    let spend = (time / 20)
        .saturating_add(extra)
        .min(time.saturating_add(extra));
    Some(ms(spend).saturating_sub(MARGIN))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_inside_the_clock() {
        let c = |b, w, byo| Clock {
            btime: Some(b),
            wtime: Some(w),
            byoyomi: Some(byo),
            ..Clock::default()
        };
        assert_eq!(
            budget(&c(0, 0, 1000), Color::Sente),
            Some(Duration::from_millis(750))
        );
        assert_eq!(
            budget(&c(60_000, 0, 0), Color::Sente),
            Some(Duration::from_millis(2750))
        );
        assert_eq!(budget(&c(60_000, 0, 0), Color::Gote), Some(Duration::ZERO));
        assert_eq!(budget(&c(0, 0, 100), Color::Sente), Some(Duration::ZERO));
        assert_eq!(budget(&Clock::default(), Color::Sente), None);
        let inf = Clock {
            infinite: true,
            ..c(1000, 1000, 0)
        };
        assert_eq!(budget(&inf, Color::Sente), None);
        let mt = Clock {
            movetime: Some(1000),
            ..Clock::default()
        };
        assert_eq!(budget(&mt, Color::Gote), Some(Duration::from_millis(750)));
        // Huge clock words saturate instead of wrapping to a zero budget.
        let huge = Clock {
            btime: Some(1000),
            binc: Some(u64::MAX),
            byoyomi: Some(u64::MAX),
            ..Clock::default()
        };
        assert!(budget(&huge, Color::Sente).unwrap() > Duration::from_secs(1 << 40));
    }
}
