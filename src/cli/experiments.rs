use super::Failure;
use crate::experiments::{registry, Config};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;

/// Arguments of `shogi-lab experiments`.
#[derive(Debug, clap::Args)]
pub struct ExperimentsArgs {
    /// Experiments to run (default: all). `--list` shows the names.
    pub names: Vec<String>,
    /// Run the long versions.
    #[arg(long)]
    pub full: bool,
    /// List the registered experiments and exit.
    #[arg(long)]
    pub list: bool,
    /// Where to write the tables.
    #[arg(long, default_value = "paper/results")]
    pub out: PathBuf,
    /// Print one JSON object per experiment (`name`, `description`, `tables`, `time_ms`)
    /// instead of its Markdown (the Markdown file is still written).
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: ExperimentsArgs) -> Result<(), Failure> {
    let all = registry();
    if a.list {
        for e in &all {
            super::emit(format!("{:<16} {}", e.name, e.description));
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
    std::fs::create_dir_all(&a.out)
        .map_err(|e| Failure::input(format!("cannot create {}: {e}", a.out.display())))?;
    let config = Config { full: a.full };
    for e in all
        .iter()
        .filter(|e| a.names.is_empty() || a.names.iter().any(|n| n == e.name))
    {
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
        let tables = (e.run)(config, &progress)
            .map_err(|m| Failure::internal(format!("experiment {}: {m}", e.name)))?;
        bar.finish_and_clear();
        let mut md = format!("# {}\n\n{}\n\n", e.name, e.description);
        for t in &tables {
            md.push_str(&t.to_markdown());
            md.push('\n');
        }
        // Long runs keep their own file, so a quick run never overwrites them.
        let stem = if a.full {
            format!("{}-full", e.name)
        } else {
            e.name.to_string()
        };
        let path = a.out.join(format!("{stem}.md"));
        std::fs::write(&path, &md)
            .map_err(|err| Failure::input(format!("cannot write {}: {err}", path.display())))?;
        if a.json {
            super::emit(crate::output::to_line(
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
            ));
        } else {
            super::emit(&md);
        }
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}
