//! The `.ttt` file format.
