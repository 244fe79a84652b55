//! The Rust examples of the repository's README and of `docs/` as doctests, so that they
//! compile and run with every `cargo test`. A crate of its own (never published) so that the
//! library's package reads nothing from outside its own directory.

/// The examples of `README.md`.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct Readme;

/// The examples of `docs/encodings.md`.
#[cfg(doctest)]
#[doc = include_str!("../../docs/encodings.md")]
pub struct Encodings;

/// The examples of `docs/paper.md`.
#[cfg(doctest)]
#[doc = include_str!("../../docs/paper.md")]
pub struct Paper;

/// The examples of `docs/engine.md`.
#[cfg(doctest)]
#[doc = include_str!("../../docs/engine.md")]
pub struct Engine;

/// The examples of `docs/storage.md`.
#[cfg(doctest)]
#[doc = include_str!("../../docs/storage.md")]
pub struct Storage;

/// The examples of `docs/family.md`.
#[cfg(doctest)]
#[doc = include_str!("../../docs/family.md")]
pub struct Family;

/// The examples of `docs/solver.md`.
#[cfg(doctest)]
#[doc = include_str!("../../docs/solver.md")]
pub struct Solver;

/// The examples of `docs/ultimate.md`.
#[cfg(doctest)]
#[doc = include_str!("../../docs/ultimate.md")]
pub struct Ultimate;
