//! 利かずの駒並べ, 39 pieces: the work each counting method did per set (search
//! nodes, sweep DP states) and its wall time, from the `placement-39` table.

use super::chart::{self, Bars, PALETTE};
use super::{column, leading_number, number_before, table, Figure};
use crate::experiments::Table;

/// Search nodes vs sweep states, and seconds, per 39-piece set.
///
/// # Errors
/// The table is missing or a cell does not parse.
pub fn thirty_nine(tables: &[Table], cmd: &str) -> Result<Figure, String> {
    let t = table(tables, "One direction, 39 pieces")?;
    let sets: Vec<String> = column(t, "minus")?
        .iter()
        .zip(column(t, "set")?)
        .map(|(m, s)| format!("{m}  {s}"))
        .collect();
    let search = column(t, "search seconds")?;
    let sweep = column(t, "sweep seconds")?;
    let secs = |cells: &[&str]| -> Result<Vec<Option<f64>>, String> {
        cells.iter().map(|c| leading_number(c)).collect()
    };
    let work = |cells: &[&str], word: &str| -> Vec<Option<f64>> {
        cells.iter().map(|c| number_before(c, word)).collect()
    };
    let pair = |a: Vec<Option<f64>>, b: Vec<Option<f64>>, la: &str, lb: &str| {
        vec![
            Bars {
                label: la.into(),
                values: a,
                color: PALETTE[0],
            },
            Bars {
                label: lb.into(),
                values: b,
                color: PALETTE[1],
            },
        ]
    };
    let work_bars = pair(
        work(&search, "nodes"),
        work(&sweep, "states"),
        "search: nodes",
        "sweep: DP states",
    );
    let time_bars = pair(secs(&search)?, secs(&sweep)?, "search", "sweep");
    let h = 120 + 2 * 26 * sets.len() as u32;
    let svg = chart::svg(1400, h, |root| {
        let body = chart::titled(
            root,
            "利かずの駒並べ, 39 pieces (40 minus one): the two counting methods",
            36,
        )?;
        let (left, right) = body.split_horizontally(800);
        chart::hbars(
            &left,
            "work per set",
            "search nodes / sweep DP states (log)",
            &sets,
            &work_bars,
            230,
            &|v| chart::tick(v),
        )?;
        let blank = vec![String::new(); sets.len()];
        chart::hbars(
            &right,
            "wall seconds per set",
            "seconds, 2 threads (log)",
            &blank,
            &time_bars,
            20,
            &|v| chart::tick(v),
        )
    })?;
    Ok(Figure {
        name: "methods".into(),
        caption: format!(
            "Counting the placements of each 39-piece set by the strongest-first search (nodes) and by the transfer-matrix sweep (DP states summed over the long-range layouts), with each method's wall seconds (2 threads, shared machine). A missing bar: that method was not run on the set (quick mode runs the search on −桂 and −角 only; −飛 is out of the search's reach). Where both ran, the counts agree. Data: the table above. Command: {cmd}."
        ),
        svg,
    })
}
