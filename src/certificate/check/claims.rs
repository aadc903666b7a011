//! The header's claims against the nodes: the root is a node of the mate (or no-mate)
//! graph; versions 2 to 4's bounded no-mate graph starts at the root's position with a
//! budget of at least L − 2; the mate graph is `plies` deep, at most the length.

use super::error::{invalid, unreadable, CheckError};
use super::header::Header;
use super::pass::Pass;

/// The root's index: a node without a budget.
///
/// # Errors
/// Unreadable when `root` is no node; [`CheckError::Invalid`] when it has a budget.
pub(super) fn root_index(x: &Pass, root: u64) -> Result<usize, CheckError> {
    let Some(root_ix) = x.index.get(root) else {
        return Err(unreadable(1, 1, format!("root {root} is not a node")));
    };
    let root_ix = root_ix as usize;
    if x.budgets[root_ix].is_some() {
        return Err(invalid(root, "the root has a budget"));
    }
    Ok(root_ix)
}

/// Version 2: the bounded no-mate graph's root (an index, `None` without one) is the
/// problem (the position of the root, index `root_ix`), budget >= L - 2.
///
/// # Errors
/// Unreadable when `nomate_root` is no node; [`CheckError::Invalid`] naming it when it
/// is another position or its budget is short.
pub(super) fn nomate_root(
    x: &Pass,
    length: Option<(u32, Option<u64>)>,
    root_ix: usize,
) -> Result<Option<usize>, CheckError> {
    let Some((l, Some(r))) = length else {
        return Ok(None);
    };
    let Some(ri) = x.index.get(r) else {
        return Err(unreadable(1, 1, format!("nomate_root {r} is not a node")));
    };
    let ri = ri as usize;
    if x.keys[ri] != x.keys[root_ix] {
        return Err(invalid(r, "nomate_root is not the root's position"));
    }
    let budget = match x.budgets[ri] {
        Some(b) if u64::from(b) + 2 >= u64::from(l) => return Ok(Some(ri)),
        Some(b) => format!("budget {b}"),
        None => "no budget".to_string(),
    };
    Err(invalid(
        r,
        format!(
            "nomate_root has {budget}, but length {l} needs a budget of at least {}",
            l - 2
        ),
    ))
}

/// The mate graph's `depth` is the header's `plies` and at most its length, and the
/// length is odd: a mate takes an odd number of plies (the attacker moves first and
/// last), so an even L with mate within L and no mate within L − 2 would be a shortest
/// mate of L − 1, not L.
///
/// # Errors
/// [`CheckError::Invalid`] naming the root.
pub(super) fn depth(depth: u32, h: &Header) -> Result<(), CheckError> {
    let (root, plies) = (h.root, h.plies);
    if Some(depth) != plies {
        let plies = plies.map_or_else(|| "null".to_string(), |p| p.to_string());
        return Err(invalid(
            root,
            format!("plies {plies} but the longest path is {depth}"),
        ));
    }
    if let Some((l, _)) = h.length {
        if l % 2 == 0 {
            return Err(invalid(
                root,
                format!("length {l} is even, but a mate takes an odd number of plies"),
            ));
        }
        if depth > l {
            return Err(invalid(
                root,
                format!("the mate graph is {depth} plies deep, more than the length {l}"),
            ));
        }
    }
    Ok(())
}
