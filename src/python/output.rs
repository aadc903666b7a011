//! The typed results of [`crate::output`] as Python objects: one conversion for every
//! binding that returns what a `--json` prints (STYLE 16).

use pyo3::prelude::*;
use serde::Serialize;

/// `value` as Python sees the CLI's JSON line of it: `json.loads` of
/// [`crate::output::to_line`] (a `dict` for a struct, keys in the struct's order), so
/// the binding and `--json` cannot differ in a name, a value or a `null`.
pub(crate) fn to_python<'py, T: Serialize>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    py.import_bound("json")?
        .call_method1("loads", (crate::output::to_line(value),))
}
