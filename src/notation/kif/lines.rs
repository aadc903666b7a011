//! The lines of a record being read: the main line and each 変化, kept flat
//! with links to their parents while reading, then assembled into a tree.

use super::err;
use crate::notation::record::{Ending, Line, RecordError, RecordErrorKind, RecordMove};
use crate::rules::{Position, Square};

/// A line being read.
pub(super) struct OpenLine {
    /// The line and move index this line replaces; `None` for the main line.
    parent: Option<(usize, usize)>,
    first_number: u32,
    start: Position,
    /// The destination of the move before `start` (for 同).
    start_prev: Option<Square>,
    pub(super) moves: Vec<RecordMove>,
    pub(super) end: Option<Ending>,
    pub(super) summary: Option<String>,
    /// The position after `moves`.
    pub(super) pos: Position,
    /// The destination of the last move (for 同).
    pub(super) prev: Option<Square>,
}

impl OpenLine {
    fn new(
        parent: Option<(usize, usize)>,
        first_number: u32,
        start: Position,
        start_prev: Option<Square>,
        summary: Option<String>,
    ) -> Self {
        OpenLine {
            parent,
            first_number,
            pos: start.clone(),
            start,
            start_prev,
            prev: start_prev,
            moves: Vec::new(),
            end: None,
            summary,
        }
    }

    /// The number of the next move of this line.
    pub(super) fn next_number(&self) -> u32 {
        self.first_number + self.moves.len() as u32
    }
}

/// Every line read so far, the main line first, each 変化 after its parent.
#[derive(Default)]
pub(super) struct Lines {
    lines: Vec<OpenLine>,
    /// The line being read.
    cur: usize,
    /// `(parent, move index, child)` for each 変化, in file order.
    children: Vec<(usize, usize, usize)>,
}

impl Lines {
    /// No line yet: the header part has not ended.
    pub(super) fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The line being read, if any.
    pub(super) fn current(&mut self) -> Option<&mut OpenLine> {
        self.lines.get_mut(self.cur)
    }

    /// The line being read.
    ///
    /// # Panics
    /// Before the main line has started.
    pub(super) fn current_mut(&mut self) -> &mut OpenLine {
        &mut self.lines[self.cur]
    }

    /// Starts the main line from the initial position.
    pub(super) fn start_main(
        &mut self,
        start: Position,
        first_number: u32,
        summary: Option<String>,
    ) {
        self.lines
            .push(OpenLine::new(None, first_number, start, None, summary));
        self.cur = 0;
    }

    /// Starts a `変化：N手` line replacing move `n` of the nearest line,
    /// walking up from the current one, that contains it (a line whose own
    /// first move is `n` branches from its parent instead).
    ///
    /// # Errors
    /// [`RecordErrorKind::BadVariation`] when no line contains move `n`.
    pub(super) fn branch(&mut self, ln: usize, n: u32) -> Result<(), RecordError> {
        if self.lines.is_empty() {
            return Err(err(ln, RecordErrorKind::BadVariation(n)));
        }
        let mut l = self.cur;
        let (pl, k) = loop {
            let lb = &self.lines[l];
            let contains = n >= lb.first_number && n < lb.next_number();
            if contains && (n > lb.first_number || lb.parent.is_none()) {
                break (l, (n - lb.first_number) as usize);
            }
            match lb.parent {
                Some((p, _)) => l = p,
                None => return Err(err(ln, RecordErrorKind::BadVariation(n))),
            }
        };
        let p = &self.lines[pl];
        let mut start = p.start.clone();
        for m in &p.moves[..k] {
            start.play_unchecked(m.mv);
        }
        let start_prev = if k > 0 {
            Some(p.moves[k - 1].mv.to())
        } else {
            p.start_prev
        };
        self.lines
            .push(OpenLine::new(Some((pl, k)), n, start, start_prev, None));
        self.cur = self.lines.len() - 1;
        self.children.push((pl, k, self.cur));
        Ok(())
    }

    /// The main line's start position, its first move number and the tree of
    /// lines (each 変化 in file order under the move it replaces); `None` before
    /// the main line has started.
    pub(super) fn assemble(self) -> Option<(Position, u32, Line)> {
        let mut built: Vec<Option<Line>> = self.lines.iter().map(|_| None).collect();
        let mut main = None;
        for (i, l) in self.lines.into_iter().enumerate().rev() {
            // Children are created after their parents, so every child of i is built.
            let mut moves = l.moves;
            for &(p, k, c) in &self.children {
                if p == i {
                    if let Some(child) = built[c].take() {
                        moves[k].variations.push(child);
                    }
                }
            }
            let line = Line {
                moves,
                end: l.end,
                summary: l.summary,
            };
            if i == 0 {
                main = Some((l.start, l.first_number, line));
            } else {
                built[i] = Some(line);
            }
        }
        main
    }
}
