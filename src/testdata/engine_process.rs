//! The processes of another program run by `shogi-lab diff`: `sh -c CMD` and whatever it
//! starts, which must not outlive shogi-lab.
//!
//! `sh -c` forks: dash 0.5.12 runs even a simple command (`sh -c 'python3 engine.py'`) in a
//! child of its own, and every shell does for a command line with `;`, `|` or `&`. Killing
//! the shell, or a parent-death signal set on it (`PR_SET_PDEATHSIG`, which a fork does
//! not inherit), leaves the engine running. So, on Unix, each program gets a process
//! group of its own, led by a *guard*: `sh -c 'read x; kill -KILL 0'`, started first,
//! whose standard input is a pipe only this process writes to. The program's shell joins
//! the guard's group, and what it starts joins it too (unless it leaves it: `setsid`,
//! `setpgid`). When this process ends — returns, panics, or dies of any signal, SIGKILL
//! included — the kernel closes the pipe, the guard's `read` ends, and the guard kills its
//! whole group, itself with it. No signal handler is needed, and no unsafe code.
//!
//! Whoever holds an [`EngineProcess`] ends it with [`EngineProcess::kill`] (the group at
//! once) or by dropping it (the group is killed, everything reaped). The group's id is the
//! guard's process id, which cannot be reused while the guard is not reaped: the group is
//! always killed before the guard is waited for.
//!
//! What is not covered: a program that leaves the group (a daemon), a guard killed by
//! someone else, and shogi-lab stopped (SIGSTOP) rather than ended. Outside Unix the
//! program is started without a guard.

use std::io;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};

/// A program started by `sh -c`, with its guard (Unix).
#[derive(Debug)]
pub struct EngineProcess {
    /// The shell running the command line.
    child: Child,
    /// The group's guard and the pipe whose end kills the group (Unix).
    #[cfg(unix)]
    guard: Option<(Child, ChildStdin)>,
}

impl EngineProcess {
    /// Starts `sh -c command` with piped standard input and output (its standard error is
    /// shogi-lab's), in a guarded process group of its own on Unix.
    ///
    /// # Errors
    /// If `sh` cannot be started (for the guard or for the program).
    pub fn spawn(command: &str) -> io::Result<EngineProcess> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // The guard first, so that there is no moment when the program runs unguarded.
            let mut guard = Command::new("sh")
                .arg("-c")
                .arg("read x; kill -KILL 0")
                .process_group(0)
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()?;
            let pipe = guard.stdin.take().expect("piped");
            let group = i32::try_from(guard.id()).unwrap_or(0);
            cmd.process_group(group);
            match cmd.spawn() {
                Ok(child) => Ok(EngineProcess {
                    child,
                    guard: Some((guard, pipe)),
                }),
                Err(e) => {
                    drop(pipe); // the guard kills its group, itself alone
                    let _ = guard.wait();
                    Err(e)
                }
            }
        }
        #[cfg(not(unix))]
        {
            Ok(EngineProcess {
                child: cmd.spawn()?,
            })
        }
    }

    /// The program's standard input (once).
    pub fn take_stdin(&mut self) -> Option<ChildStdin> {
        self.child.stdin.take()
    }

    /// The program's standard output (once).
    pub fn take_stdout(&mut self) -> Option<ChildStdout> {
        self.child.stdout.take()
    }

    /// The shell's exit status if it has ended (what it started may still run).
    ///
    /// # Errors
    /// As [`Child::try_wait`].
    pub fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        self.child.try_wait()
    }

    /// Waits for the shell to end; what it started and left running is killed when this
    /// value is dropped.
    ///
    /// # Errors
    /// As [`Child::wait`].
    pub fn wait(&mut self) -> io::Result<ExitStatus> {
        self.child.wait()
    }

    /// Kills the program with everything in its process group (SIGKILL), at once.
    pub fn kill(&mut self) {
        #[cfg(unix)]
        if let Some(group) = self
            .guard
            .as_ref()
            .and_then(|(g, _)| i32::try_from(g.id()).ok())
            .and_then(rustix::process::Pid::from_raw)
        {
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        }
        let _ = self.child.kill();
    }
}

impl Drop for EngineProcess {
    /// Kills whatever of the program still runs (its whole group) and reaps the shell and
    /// the guard.
    fn drop(&mut self) {
        self.kill();
        let _ = self.child.wait();
        #[cfg(unix)]
        if let Some((mut guard, pipe)) = self.guard.take() {
            drop(pipe);
            let _ = guard.wait();
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn runs(pid: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| s.rsplit_once(") ").map(|(_, r)| !r.starts_with('Z')))
            .unwrap_or(false)
    }

    /// What the shell started in the background (`sleep … &`: a process the shell does
    /// not wait for) is killed with the program when it is dropped, and the guard is gone.
    #[test]
    fn dropping_kills_what_the_shell_started() {
        use std::io::BufRead;
        let mut p = EngineProcess::spawn("sleep 1000 & echo $!").unwrap();
        let mut out = io::BufReader::new(p.take_stdout().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        let sleeper: u32 = line.trim().parse().unwrap();
        let guard = p.guard.as_ref().unwrap().0.id();
        assert!(runs(sleeper) && runs(guard));
        p.wait().unwrap();
        assert!(runs(sleeper), "the background sleep outlives the shell");
        drop(p);
        // Killed by SIGKILL (synchronous for the signal, not for the exit): until it
        // is gone; reaped by init, or left a zombie, it no longer runs.
        let mut tries = 0;
        while runs(sleeper) && tries < 1000 {
            tries += 1;
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let survived = runs(sleeper);
        if survived {
            let _ = std::process::Command::new("kill")
                .args(["-KILL", &sleeper.to_string()])
                .status();
        }
        assert!(!survived, "the background sleep {sleeper} survived");
    }
}
