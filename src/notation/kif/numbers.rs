//! Numbers in KIF text: kanji or full-width counts, and move times read and written.

use crate::notation::record::MoveTime;

/// A kanji or full-width/ASCII number 0–99 (`十七`, `１８`, `3`).
pub(super) fn kanji_number(s: &str) -> Option<u32> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    if let Ok(n) = s.parse::<u32>() {
        return Some(n);
    }
    let digit = |c: char| -> Option<u32> {
        "〇一二三四五六七八九"
            .chars()
            .position(|d| d == c)
            .or_else(|| "０１２３４５６７８９".chars().position(|d| d == c))
            .map(|i| i as u32)
    };
    let cs: Vec<char> = s.chars().collect();
    match cs.as_slice() {
        ['十'] => Some(10),
        ['十', d] => Some(10 + digit(*d)?),
        [d, '十'] => Some(10 * digit(*d)?),
        [a, '十', b] => Some(10 * digit(*a)? + digit(*b)?),
        _ => cs
            .iter()
            .try_fold(0u32, |acc, &c| Some(acc * 10 + digit(c)?)),
    }
}

/// `hh:mm:ss` or `m:ss` → seconds.
fn clock(s: &str) -> Option<u32> {
    let parts: Vec<&str> = s.trim().split(':').collect();
    if parts.is_empty() || parts.len() > 3 || parts.iter().any(|p| p.trim().is_empty()) {
        return None;
    }
    parts.iter().try_fold(0u32, |acc, p| {
        Some(acc.checked_mul(60)? + p.trim().parse::<u32>().ok()?)
    })
}

/// `( 0:01/00:00:01)` inner text → time.
pub(super) fn parse_time(s: &str) -> Option<MoveTime> {
    let (a, b) = match s.split_once('/') {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    };
    let this = clock(a)?;
    let total = match b {
        Some(b) => Some(clock(b)?),
        None => None,
    };
    Some(MoveTime { this, total })
}

/// A time as Kifu for Windows writes it: `( 1:30/01:02:03)`.
pub(super) fn write_time(t: &MoveTime) -> String {
    let total = t.total.map_or(String::new(), |s| {
        format!("/{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    });
    format!("({:>2}:{:02}{total})", t.this / 60, t.this % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kanji_numbers() {
        assert_eq!(kanji_number("十七"), Some(17));
        assert_eq!(kanji_number("十"), Some(10));
        assert_eq!(kanji_number("二"), Some(2));
        assert_eq!(kanji_number("１８"), Some(18));
        for n in 1..=18u8 {
            assert_eq!(kanji_number(&crate::render::count_kanji(n)), Some(n as u32));
        }
    }

    #[test]
    fn times() {
        assert_eq!(
            parse_time(" 0:01/00:00:01"),
            Some(MoveTime {
                this: 1,
                total: Some(1)
            })
        );
        assert_eq!(
            parse_time("1:30/01:02:03"),
            Some(MoveTime {
                this: 90,
                total: Some(3723)
            })
        );
        assert_eq!(
            write_time(&MoveTime {
                this: 90,
                total: Some(3723)
            }),
            "( 1:30/01:02:03)"
        );
        assert_eq!(parse_time("x"), None);
    }
}
