//! Snapshots of boards people read: the first placement listed (deterministic
//! single-thread search order), as SFEN + diagram.

use shogi_lab::placement::{check_placement, Directions, PieceSet, Placement, Problem};
use std::ops::ControlFlow;

fn first_listed(text: &str, dirs: Directions) -> String {
    let p = Problem::new(PieceSet::parse(text).expect("valid"), dirs);
    let mut found: Option<Placement> = None;
    p.for_each(|b| {
        found = Some(b.clone());
        ControlFlow::Break(())
    });
    let b = found.expect("a placement exists");
    check_placement(&p, &b).expect("checked");
    format!("{text}\n{}\n{}", b.sfen(), b.diagram())
}

#[test]
fn snapshot_boards() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots");
    settings.bind(|| {
        insta::assert_snapshot!(
            "placement_forty_first",
            first_listed("P18L4N4S4G4K2R2B2", Directions::One)
        );
        insta::assert_snapshot!(
            "placement_r2b2_first",
            first_listed("R2B2", Directions::One)
        );
        insta::assert_snapshot!(
            "placement_two_dir_knights",
            first_listed("N8P8", Directions::Two)
        );
    });
}
