//! Builds the optional C peer of the `ultimate` groups: Tom Alard's ultimate tic-tac-toe engine
//! (github.com/TomAlard/UTTT_player, no licence file), compiled from a copy of his source
//! OUTSIDE this repository named by `UTTT_ALARD_SRC`, with our C ABI driver
//! `scripts/ultimate-peers-alard.c`. Without the variable nothing is compiled and the groups run
//! without that peer; `scripts/ultimate-peers` sets it.
//!
//! Equal flags: the `cc` crate compiles at the profile's optimisation level (`-O3` for
//! `--release`, as rustc's `opt-level = 3`), and with `-march=native` exactly when rustc gets
//! `-C target-cpu=native`.

use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(uttt_alard)");
    println!("cargo::rerun-if-env-changed=UTTT_ALARD_SRC");
    let driver = PathBuf::from("../scripts/ultimate-peers-alard.c");
    println!("cargo::rerun-if-changed={}", driver.display());
    let Some(root) = env::var_os("UTTT_ALARD_SRC") else {
        return;
    };
    let src = PathBuf::from(root).join("src");
    let native = env::var("CARGO_ENCODED_RUSTFLAGS")
        .unwrap_or_default()
        .split('\x1f')
        .any(|flag| flag == "-Ctarget-cpu=native" || flag == "target-cpu=native");
    let mut build = cc::Build::new();
    build
        .file(&driver)
        .include(&src)
        .flag("-std=c17")
        .warnings(false);
    for file in [
        "board/board.c",
        "board/player_bitboard.c",
        "board/square.c",
        "misc/util.c",
    ] {
        let path = src.join(file);
        println!("cargo::rerun-if-changed={}", path.display());
        build.file(path);
    }
    if native {
        build.flag("-march=native");
    }
    build.compile("uttt_alard");
    println!("cargo::rustc-cfg=uttt_alard");
}
