//! The header line: format, version, result, root, plies and (versions 2 to 4) the
//! length claim with the bounded no-mate graph's root.

use super::error::{unreadable, CheckError};

/// The header.
pub(super) struct Header {
    /// 1, 2 or 3 (3: the length claim counts no 無駄合).
    pub(super) version: u64,
    pub(super) mate: bool,
    pub(super) root: u64,
    pub(super) plies: Option<u32>,
    /// Version 2: the length L and the root of the bounded no-mate graph (`None` when
    /// L < 3: nothing to disprove).
    pub(super) length: Option<(u32, Option<u64>)>,
}

fn get_id(v: &serde_json::Value, key: &str, line: usize) -> Result<u64, CheckError> {
    v.get(key)
        .and_then(serde_json::Value::as_u64)
        .ok_or_else(|| unreadable(line, 1, format!("`{key}` must be a node id")))
}

/// Reads the header `text`, on line `line`.
///
/// # Errors
/// [`CheckError::Unreadable`] naming the first member that is wrong.
pub(super) fn parse_header(text: &str, line: usize) -> Result<Header, CheckError> {
    let header: serde_json::Value =
        serde_json::from_str(text).map_err(|e| unreadable(line, e.column(), e.to_string()))?;
    if header.get("format").and_then(|v| v.as_str()) != Some("shogi-lab/tsume-certificate") {
        return Err(unreadable(
            line,
            1,
            "format must be \"shogi-lab/tsume-certificate\"",
        ));
    }
    let version = header.get("version").and_then(|v| v.as_u64());
    let Some(version @ 1..=4) = version else {
        return Err(unreadable(line, 1, "only versions 1 to 4 are known"));
    };
    let mate = match header.get("result").and_then(|v| v.as_str()) {
        Some("mate") => true,
        Some("nomate") => false,
        _ => return Err(unreadable(line, 1, "result must be \"mate\" or \"nomate\"")),
    };
    let root = get_id(&header, "root", line)?;
    let plies = match header.get("plies") {
        Some(serde_json::Value::Null) | None if !mate => None,
        Some(v) if mate && v.as_u64().is_some_and(|x| u32::try_from(x).is_ok()) => {
            v.as_u64().and_then(|x| u32::try_from(x).ok())
        }
        _ => {
            return Err(unreadable(
                line,
                1,
                "plies must be a number (below 2^32) for mate and null for nomate",
            ))
        }
    };
    let length = if version >= 2 {
        let l = header
            .get("length")
            .and_then(|v| v.as_u64())
            .and_then(|l| u32::try_from(l).ok())
            .filter(|_| mate)
            .ok_or_else(|| {
                unreadable(line, 1, "versions 2 to 4 need result mate and a `length`")
            })?;
        let nomate_root = match header.get("nomate_root") {
            Some(serde_json::Value::Null) if l < 3 => None,
            Some(v) if l >= 3 && v.is_u64() => v.as_u64(),
            _ => {
                return Err(unreadable(
                    line,
                    1,
                    "nomate_root must be a node id when length >= 3, else null",
                ))
            }
        };
        Some((l, nomate_root))
    } else {
        None
    };
    Ok(Header {
        version,
        mate,
        root,
        plies,
        length,
    })
}
