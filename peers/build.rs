//! Builds the optional compiled peers of the `ultimate` groups, each from a copy of its source
//! OUTSIDE this repository (neither has a licence file) with our C ABI driver:
//! - Tom Alard's C engine (github.com/TomAlard/UTTT_player), `UTTT_ALARD_SRC`,
//!   `scripts/ultimate-peers-alard.c`;
//! - DiMasta's C++ engine (github.com/DiMasta/TicTacToe), `UTTT_DIMASTA_SRC`,
//!   `scripts/ultimate-peers-dimasta.cpp`.
//!
//! Without a variable nothing is compiled for it and the groups run without that peer;
//! `scripts/ultimate-peers` sets both.
//!
//! Equal flags: the `cc` crate compiles at the profile's optimisation level (`-O3` for
//! `--release`, as rustc's `opt-level = 3`), and with `-march=native` exactly when rustc gets
//! `-C target-cpu=native`.

use std::env;
use std::path::PathBuf;

fn main() {
    let native = env::var("CARGO_ENCODED_RUSTFLAGS")
        .unwrap_or_default()
        .split('\x1f')
        .any(|flag| flag == "-Ctarget-cpu=native" || flag == "target-cpu=native");
    alard(native);
    dimasta(native);
}

fn alard(native: bool) {
    println!("cargo::rustc-check-cfg=cfg(uttt_alard)");
    println!("cargo::rerun-if-env-changed=UTTT_ALARD_SRC");
    let driver = PathBuf::from("../scripts/ultimate-peers-alard.c");
    println!("cargo::rerun-if-changed={}", driver.display());
    let Some(root) = env::var_os("UTTT_ALARD_SRC") else {
        return;
    };
    let src = PathBuf::from(root).join("src");
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

fn dimasta(native: bool) {
    println!("cargo::rustc-check-cfg=cfg(uttt_dimasta)");
    println!("cargo::rerun-if-env-changed=UTTT_DIMASTA_SRC");
    let driver = PathBuf::from("../scripts/ultimate-peers-dimasta.cpp");
    println!("cargo::rerun-if-changed={}", driver.display());
    let Some(root) = env::var_os("UTTT_DIMASTA_SRC") else {
        return;
    };
    // His whole engine is one file, which the driver includes.
    let src = PathBuf::from(root).join("TicTacToe");
    println!(
        "cargo::rerun-if-changed={}",
        src.join("tic_tac_toe.cpp").display()
    );
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .file(&driver)
        .include(&src)
        .flag("-std=c++17")
        .warnings(false);
    if native {
        build.flag("-march=native");
    }
    build.compile("uttt_dimasta");
    println!("cargo::rustc-cfg=uttt_dimasta");
}
