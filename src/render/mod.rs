//! Pictures of positions: [`svg::board_svg`] (SVG, for pages, papers and GUIs).
//! The text diagram is BOD: `impl Display for Position` in [`crate::notation::bod`].

pub mod svg;
