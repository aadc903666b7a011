//! Snapshots of human-readable probability tables (exact fractions) for the
//! worlds in `specs/quantum/tables/*.world` (a `# Source:` line, then the world).

use shogi_lab::quantum::enumeration::{marginals, render_table, Diagram};
use shogi_lab::quantum::World;

#[test]
fn probability_tables() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots");
    settings.bind(|| {
        insta::glob!("../specs/quantum/tables", "*.world", |path| {
            let text = std::fs::read_to_string(path).unwrap();
            assert!(
                text.lines().any(|l| l.starts_with("# Source:")),
                "{} has no source",
                path.display()
            );
            let line = text.lines().find(|l| !l.starts_with('#')).unwrap_or("");
            let w: World = line.parse().unwrap();
            let d = Diagram::build(&w);
            assert_eq!(marginals(&w), (d.total(), *d.counts()));
            insta::assert_snapshot!(render_table(&d));
        });
    });
}
