use super::Failure;
use crate::atomic_write::write_atomically;
use crate::experiments::{figures, registry, Config, Table};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};

/// Arguments of `shogi-lab experiments`.
#[derive(Debug, clap::Args)]
pub struct ExperimentsArgs {
    /// Experiments to run (default: all). `--list` shows the names.
    pub names: Vec<String>,
    /// Run the long versions.
    #[arg(long)]
    pub full: bool,
    /// List the registered experiments and exit (takes no names and no other option).
    #[arg(long, conflicts_with_all = ["names", "full", "figures_only", "json"])]
    pub list: bool,
    /// Where to write the tables (created if missing). The default is inside `target/`,
    /// which git ignores; the paper's tables are regenerated with `--out paper/results`.
    #[arg(long, default_value = DEFAULT_OUT)]
    pub out: PathBuf,
    /// Where the peer scripts' data files (`*.jsonl`) are, for `peers` (default
    /// `paper/results`; a directory named here must exist).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Run nothing: draw the figures from the tables an earlier run wrote to `--out`
    /// (`<name>.md`, or `<name>-full.md` with `--full`) and from `--data`.
    #[arg(long)]
    pub figures_only: bool,
    /// Print one JSON object per experiment (`name`, `description`, `tables`, `time_ms`)
    /// instead of its Markdown (the Markdown file is still written). Not with
    /// --figures-only, which runs no experiment.
    #[arg(long, conflicts_with = "figures_only")]
    pub json: bool,
}

/// The default `--data`: the peer scripts' data files in the repository.
pub const DEFAULT_DATA: &str = "paper/results";

/// The default `--out`: untracked, so that a run never dirties a checkout.
pub const DEFAULT_OUT: &str = "target/experiments";

/// Creates `dir` and checks that a file can be written there, before any experiment runs.
fn check_out_dir(dir: &Path) -> Result<(), Failure> {
    let bad = |e: std::io::Error| Failure::input(format!("--out {}: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(bad)?;
    let probe = dir.join(format!(".shogi-lab-write-test-{}", std::process::id()));
    std::fs::write(&probe, b"probe").map_err(bad)?;
    std::fs::remove_file(&probe).map_err(bad)
}

/// Where `experiments` prints: the tables (stdout) and its `wrote PATH` notes (stderr).
///
/// The product of a run is the files in `--out`; what it prints is a courtesy. So a
/// reader that goes away (`experiments | head`: a broken pipe) ends the printing, not
/// the run — every experiment asked for still runs and writes its files —, and the notes
/// on stderr are best effort (`eprintln!` would panic on a closed pipe, exit 101).
/// Any other stdout failure (a full disk) is output that could not be written (exit 3).
pub(crate) struct Printer<'a> {
    out: &'a mut dyn std::io::Write,
    err: &'a mut dyn std::io::Write,
    /// The reader of `out` has gone: print no more.
    out_gone: bool,
}

impl<'a> Printer<'a> {
    pub(crate) fn new(
        out: &'a mut dyn std::io::Write,
        err: &'a mut dyn std::io::Write,
    ) -> Printer<'a> {
        Printer {
            out,
            err,
            out_gone: false,
        }
    }

    /// One line (or block) on stdout.
    fn say(&mut self, text: impl std::fmt::Display) -> Result<(), Failure> {
        if self.out_gone {
            return Ok(());
        }
        match writeln!(self.out, "{text}").and_then(|()| self.out.flush()) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.out_gone = true;
                Ok(())
            }
            Err(e) => Err(Failure::internal(format!("cannot write output: {e}"))),
        }
    }

    /// A note on stderr (`wrote PATH`), best effort.
    fn note(&mut self, text: impl std::fmt::Display) {
        let _ = writeln!(self.err, "{text}");
    }
}

/// Runs `experiments`.
///
/// # Errors
/// Exit 2 for an unknown name or an `--out` that cannot be written (checked first);
/// exit 3 if an experiment fails its own check or a table cannot be written.
pub fn run(a: ExperimentsArgs) -> Result<(), Failure> {
    let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
    run_printing(a, &mut Printer::new(&mut out, &mut err))
}

/// [`run`], printing through `p`.
pub(crate) fn run_printing(a: ExperimentsArgs, p: &mut Printer<'_>) -> Result<(), Failure> {
    let all = registry();
    if a.list {
        for e in &all {
            p.say(format!("{:<16} {}", e.name, e.description))?;
        }
        return Ok(());
    }
    for n in &a.names {
        if !all.iter().any(|e| e.name == n) {
            let names: Vec<_> = all.iter().map(|e| e.name).collect();
            return Err(Failure::input(format!(
                "unknown experiment {n:?} (known: {})",
                names.join(", ")
            )));
        }
    }
    // The default may be missing (a run outside the repository: `peers` then lists the
    // files it lacks); a directory the user names must be there.
    if let Some(d) = a.data.as_deref().filter(|d| !d.is_dir()) {
        return Err(Failure::input(format!(
            "--data {}: no such directory",
            d.display()
        )));
    }
    check_out_dir(&a.out)?;
    let config = Config {
        full: a.full,
        data: a.data.as_deref().unwrap_or(Path::new(DEFAULT_DATA)),
    };
    for e in all
        .iter()
        .filter(|e| a.names.is_empty() || a.names.iter().any(|n| n == e.name))
    {
        // Long runs keep their own file, so a quick run never overwrites them.
        let stem = if a.full {
            format!("{}-full", e.name)
        } else {
            e.name.to_string()
        };
        if a.figures_only {
            let path = a.out.join(format!("{stem}.md"));
            let (tables, note) = match std::fs::read_to_string(&path) {
                Ok(md) => (Table::parse_markdown(&md), String::new()),
                Err(_) => (
                    Vec::new(),
                    format!(" (no {}: run the experiment first)", path.display()),
                ),
            };
            let figs = figures::for_experiment(e.name, config, &tables)
                .map_err(|m| Failure::input(format!("figures of {}: {m}{note}", e.name)))?;
            for (file, caption) in write_figures(p, &a.out, &stem, &figs)? {
                p.say(format!("{file}: {caption}"))?;
            }
            continue;
        }
        let bar = ProgressBar::new(1);
        bar.set_style(
            ProgressStyle::with_template("{prefix:>12} [{bar:30}] {pos}/{len} {elapsed}")
                .expect("template")
                .progress_chars("=> "),
        );
        bar.set_prefix(e.name);
        let progress = |done: u64, total: u64| {
            bar.set_length(total);
            bar.set_position(done);
        };
        let started = std::time::Instant::now();
        let tables = (e.run)(config, &progress).map_err(|m| {
            let m = format!("experiment {}: {m}", e.name);
            // `peers` only reads the data files: its failures are bad input.
            if e.name == crate::experiments::peers::EXPERIMENT.name {
                Failure::input(m)
            } else {
                Failure::internal(m)
            }
        })?;
        bar.finish_and_clear();
        let mut md = format!("# {}\n\n{}\n\n", e.name, e.description);
        for t in &tables {
            md.push_str(&t.to_markdown());
            md.push('\n');
        }
        let figs = figures::for_experiment(e.name, config, &tables)
            .map_err(|m| Failure::internal(format!("figures of {}: {m}", e.name)))?;
        let written = write_figures(p, &a.out, &stem, &figs)?;
        if !written.is_empty() {
            md.push_str("## Figures\n\n");
            for (file, caption) in &written {
                md.push_str(&format!("- `{file}`: {caption}\n"));
            }
            md.push('\n');
        }
        let path = a.out.join(format!("{stem}.md"));
        write_atomically(&path, &md)
            .map_err(|err| Failure::internal(format!("cannot write {}: {err}", path.display())))?;
        if a.json {
            p.say(crate::output::to_line(
                &crate::output::experiments::ExperimentOut {
                    name: e.name,
                    description: e.description,
                    tables: tables
                        .iter()
                        .map(|t| crate::output::experiments::TableOut {
                            title: t.title.clone(),
                            columns: t.columns.clone(),
                            rows: t.rows.clone(),
                            notes: t.notes.clone(),
                        })
                        .collect(),
                    file: path.display().to_string(),
                    time_ms: crate::output::millis(started.elapsed()),
                },
            ))?;
        } else {
            p.say(&md)?;
        }
        p.note(format!("wrote {}", path.display()));
    }
    Ok(())
}

/// Writes each figure as `<out>/<stem>-<name>.svg` (through a temporary file and a rename);
/// returns (file name, caption) per figure.
fn write_figures(
    p: &mut Printer<'_>,
    out: &Path,
    stem: &str,
    figs: &[figures::Figure],
) -> Result<Vec<(String, String)>, Failure> {
    let mut written = Vec::new();
    for f in figs {
        let file = format!("{stem}-{}.svg", f.name);
        let path = out.join(&file);
        write_atomically(&path, &f.svg)
            .map_err(|err| Failure::internal(format!("cannot write {}: {err}", path.display())))?;
        p.note(format!("wrote {}", path.display()));
        written.push((file, f.caption.clone()));
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_replaced_whole_and_the_out_dir_is_checked_first() {
        let dir = std::env::temp_dir().join(format!("shogi-lab-exp-test-{}", std::process::id()));
        check_out_dir(&dir).unwrap();
        let path = dir.join("t.md");
        write_atomically(&path, "old").unwrap();
        write_atomically(&path, "new table").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new table");
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        // A write that fails (the target is a directory) leaves what was there.
        let sub = dir.join("sub.md");
        std::fs::create_dir(&sub).unwrap();
        assert!(write_atomically(&sub, "x").is_err());
        assert!(sub.is_dir());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
        // An --out below a file cannot be created: refused before any work.
        let e = check_out_dir(&path.join("below")).unwrap_err();
        assert_eq!(e.code, 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
