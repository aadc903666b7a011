//! The calling thread's CPU clock, for timings on a shared machine: the time a piece
//! of work spent on the CPU does not grow with what other threads and processes do
//! meanwhile (the `tsume` solve, extraction and check times; the perft speed table).

use std::time::{Duration, Instant};

/// CPU time of the calling thread: `CLOCK_THREAD_CPUTIME_ID` through the `cpu-time`
/// crate (ns resolution; `clock_gettime(2)`), else `/proc/thread-self/schedstat`, whose
/// first field is the time on CPU in ns but advances by scheduler ticks (`proc(5)`);
/// `None` when neither is available.
pub fn thread_cpu() -> Option<Duration> {
    if let Ok(t) = cpu_time::ThreadTime::try_now() {
        return Some(t.as_duration());
    }
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// When a piece of work started on this thread, by the thread's CPU clock
/// ([`thread_cpu`]) and the wall clock. Read it on the thread that started it: another
/// thread's CPU clock says nothing about this one's work.
#[derive(Debug, Clone, Copy)]
pub struct Stopwatch {
    wall: Instant,
    cpu: Option<Duration>,
}

impl Stopwatch {
    /// Starts now.
    pub fn start() -> Stopwatch {
        Stopwatch {
            wall: Instant::now(),
            cpu: thread_cpu(),
        }
    }

    /// The time since [`Stopwatch::start`]: CPU time of this thread when the platform
    /// gives it (at the start and now), else wall clock.
    pub fn elapsed(&self) -> Duration {
        match (self.cpu, thread_cpu()) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => self.wall.elapsed(),
        }
    }

    /// [`Stopwatch::elapsed`] in milliseconds.
    pub fn elapsed_ms(&self) -> f64 {
        self.elapsed().as_secs_f64() * 1e3
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The thread clock advances in steps well under a scheduler tick (4 ms here), so
    /// that "check ≤ solve" can be shown on sub-tick problems.
    #[cfg(target_os = "linux")]
    #[test]
    fn thread_cpu_has_sub_ms_resolution() {
        let a = thread_cpu().expect("thread CPU clock");
        let mut b = a;
        while b == a {
            b = thread_cpu().expect("thread CPU clock");
        }
        assert!(b - a < Duration::from_millis(1), "step {:?}", b - a);
    }

    /// Work on this thread shows on the stopwatch, and it never runs backwards.
    #[test]
    fn a_stopwatch_counts_work_on_its_thread() {
        let w = Stopwatch::start();
        let mut x = 0u64;
        while w.elapsed() < Duration::from_millis(5) {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        let (a, b) = (w.elapsed_ms(), w.elapsed_ms());
        assert!(a >= 5.0 && b >= a, "{a} then {b}");
    }
}
