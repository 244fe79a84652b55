//! Search players.
