//! The paper's figures, drawn as SVG with `plotters`: each experiment's figures
//! come from its tables (a fresh run, or the Markdown file an earlier run wrote,
//! `experiments --figures-only`) or, for `peers`, from the peer scripts' data
//! files. `paper/scripts/render_figures.sh` renders the SVGs to PNG with headless
//! Chromium for the paper.

pub mod chart;
mod perft;
mod placement;
mod quantum;
mod tsume;

use super::{Config, Table};

/// One figure: an SVG and the caption that says what it shows and how to regenerate it.
#[derive(Debug, Clone)]
pub struct Figure {
    /// File-name part: the figure is written as `<experiment stem>-<name>.svg`.
    pub name: String,
    /// One paragraph: what is drawn, from which data, by which command.
    pub caption: String,
    /// The SVG text.
    pub svg: String,
}

/// The figures of experiment `name` from its `tables` (and `config.data` for `peers`).
/// Experiments without figures give none.
///
/// # Errors
/// A table lacks a column the figure needs, a cell does not parse, a data file is malformed.
pub fn for_experiment(name: &str, config: Config, tables: &[Table]) -> Result<Vec<Figure>, String> {
    let cmd = |n: &str| {
        format!(
            "`cargo run --release -- experiments {n}{}`",
            if config.full { " --full" } else { "" }
        )
    };
    match name {
        "quantum" => Ok(vec![quantum::converges(tables, &cmd(name))?]),
        "quantum-game" => Ok(vec![quantum::room_9168(&cmd(name))?]),
        "placement-39" => Ok(vec![placement::thirty_nine(tables, &cmd(name))?]),
        "peers" => {
            let mut v = tsume::figures(config.data)?;
            v.extend(perft::figures(config.data)?);
            Ok(v)
        }
        _ => Ok(Vec::new()),
    }
}

/// The cells of column `name` of `table`.
///
/// # Errors
/// No such column.
pub fn column<'a>(table: &'a Table, name: &str) -> Result<Vec<&'a str>, String> {
    let i = table
        .columns
        .iter()
        .position(|c| c == name)
        .ok_or_else(|| format!("table {:?} has no column {name:?}", table.title))?;
    Ok(table
        .rows
        .iter()
        .map(|r| r.get(i).map_or("", String::as_str))
        .collect())
}

/// The table whose title starts with `prefix`.
///
/// # Errors
/// None has.
pub fn table<'a>(tables: &'a [Table], prefix: &str) -> Result<&'a Table, String> {
    tables
        .iter()
        .find(|t| t.title.starts_with(prefix))
        .ok_or_else(|| format!("no table titled {prefix:?}…"))
}

/// The leading number of a cell (`"0.20 (681725 nodes)"` → 0.2); `None` for `–` or empty.
///
/// # Errors
/// Any other text.
pub fn leading_number(cell: &str) -> Result<Option<f64>, String> {
    let head = cell.split_whitespace().next().unwrap_or("");
    if head.is_empty() || head == "–" || head == "-" {
        return Ok(None);
    }
    head.parse()
        .map(Some)
        .map_err(|_| format!("cell {cell:?}: not a number"))
}

/// The number just before `word` inside a cell (`"0.14 (45 layouts, 468053 states)"`,
/// `"states"` → 468053).
pub fn number_before(cell: &str, word: &str) -> Option<f64> {
    let words: Vec<&str> = cell
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .find(|w| w[1] == word)
        .and_then(|w| w[0].parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_parse() {
        assert_eq!(leading_number("0.20 (681725 nodes)").unwrap(), Some(0.2));
        assert_eq!(leading_number("–").unwrap(), None);
        assert!(leading_number("abc").is_err());
        assert_eq!(
            number_before("0.14 (45 layouts, 468053 states)", "states"),
            Some(468053.0)
        );
        assert_eq!(
            number_before("0.20 (681725 nodes)", "nodes"),
            Some(681725.0)
        );
        assert_eq!(number_before("–", "nodes"), None);
    }
}
