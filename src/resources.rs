//! What the machine can give: checks a user's memory request (`--memory`, `USI_Hash`,
//! sweep limits) against the memory available to this process before anything is
//! allocated, so that a large request is a one-line error instead of an abort.

use std::fmt;

/// A memory request the machine cannot satisfy.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct MemoryError {
    /// What asked (e.g. `--memory`, `USI_Hash`).
    pub what: String,
    /// Bytes requested.
    pub requested: u64,
    /// Bytes available (`MemAvailable`, capped by the cgroup limit), if known.
    pub available: Option<u64>,
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MIB: u64 = 1 << 20;
        match self.available {
            Some(a) => write!(
                f,
                "{}: {} MiB requested, but this machine has only {} MiB available",
                self.what,
                self.requested.div_ceil(MIB),
                a / MIB
            ),
            None => write!(
                f,
                "{}: {} MiB could not be allocated",
                self.what,
                self.requested.div_ceil(MIB)
            ),
        }
    }
}

fn read_u64(path: &str) -> Option<u64> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// The soft limit named `name` in `/proc/self/limits` (e.g. `Max address space`), in bytes;
/// `None` if unlimited or unknown.
fn rlimit(limits: &str, name: &str) -> Option<u64> {
    let rest = limits.lines().find_map(|l| l.strip_prefix(name))?;
    rest.split_whitespace().next()?.parse().ok()
}

/// A `/proc/self/status` field in bytes (`VmSize:  1234 kB`).
fn status_bytes(status: &str, field: &str) -> Option<u64> {
    let rest = status.lines().find_map(|l| l.strip_prefix(field))?;
    let kib: u64 = rest.trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib * 1024)
}

/// What the process limits (`ulimit -v`: RLIMIT_AS against `VmSize`; `ulimit -d`:
/// RLIMIT_DATA against `VmData`) still allow; `None` if neither is set.
fn rlimit_headroom(limits: &str, status: &str) -> Option<u64> {
    let room = |limit: &str, used: &str| {
        let l = rlimit(limits, limit)?;
        Some(l.saturating_sub(status_bytes(status, used).unwrap_or(0)))
    };
    match (
        room("Max address space", "VmSize:"),
        room("Max data size", "VmData:"),
    ) {
        (Some(a), Some(d)) => Some(a.min(d)),
        (a, d) => a.or(d),
    }
}

/// Bytes this process can still allocate without swapping: `MemAvailable` from
/// `/proc/meminfo`, capped by the cgroup (v2 or v1) limit minus its current usage
/// and by the process's own limits (`ulimit -v`, `ulimit -d`).
/// `None` where these files do not exist (non-Linux systems).
pub fn available_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let mut avail = meminfo.lines().find_map(|l| {
        let rest = l.strip_prefix("MemAvailable:")?;
        let kib: u64 = rest.trim().trim_end_matches("kB").trim().parse().ok()?;
        Some(kib * 1024)
    })?;
    let cgroups = [
        ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
        (
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
            "/sys/fs/cgroup/memory/memory.usage_in_bytes",
        ),
    ];
    for (limit, usage) in cgroups {
        if let (Some(l), Some(u)) = (read_u64(limit), read_u64(usage)) {
            avail = avail.min(l.saturating_sub(u));
        }
    }
    if let (Ok(limits), Ok(status)) = (
        std::fs::read_to_string("/proc/self/limits"),
        std::fs::read_to_string("/proc/self/status"),
    ) {
        if let Some(room) = rlimit_headroom(&limits, &status) {
            avail = avail.min(room);
        }
    }
    Some(avail)
}

/// The default memory limit of work that grows with its input (`place --sweep`):
/// half of [`available_memory`] at the time of the call, or 4 GiB where that is unknown.
pub fn default_memory_limit() -> u64 {
    available_memory().map_or(4 << 30, |a| a / 2)
}

/// `Ok` if `bytes` fit in [`available_memory`] (or it is unknown), else a
/// [`MemoryError`] naming `what`.
///
/// # Errors
/// [`MemoryError`] when the request exceeds what is available.
pub fn check_memory_request(bytes: u64, what: &str) -> Result<(), MemoryError> {
    match available_memory() {
        Some(a) if bytes > a => Err(MemoryError {
            what: what.to_string(),
            requested: bytes,
            available: Some(a),
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_requests_pass_and_absurd_ones_fail() {
        assert!(check_memory_request(1 << 20, "test").is_ok());
        let e = check_memory_request(u64::MAX / 2, "--memory").unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("--memory: "), "{msg}");
        assert!(!msg.contains('\n'));
    }

    #[test]
    fn process_limits_cap_the_headroom() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max data size             unlimited            unlimited            bytes\n\
                      Max address space         4096000000           4096000000           bytes\n";
        let status = "Name:\tx\nVmSize:\t  100000 kB\nVmData:\t  5000 kB\n";
        assert_eq!(
            rlimit_headroom(limits, status),
            Some(4_096_000_000 - 100_000 * 1024)
        );
        let unlimited = limits.replace("4096000000           4096000000", "unlimited unlimited");
        assert_eq!(rlimit_headroom(&unlimited, status), None);
    }
}
