//! `ttt serve`: the analysis board in the browser (see [`crate::serve`] and docs/web.md).

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;
use std::time::Duration;

use crate::serve::pool::Limits;

/// Serve the analysis board: every game in the browser, with perfect-play hints.
///
/// Starts a local HTTP server and prints its URL. The page (served from this binary: no
/// network needed) plays tic-tac-toe, 4x4, Connect Four, gomoku and any ROWS,COLS,K game
/// (with an optional ,gravity) between people and the levels of `ttt play`, shows the
/// perfect-play value of every legal move as it is solved, and explains any 3x3 grid with
/// every code (/explain). The JSON API it uses is in docs/web.md. Stops on Ctrl-C (SIGINT) or
/// SIGTERM.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  ttt serve
  ttt serve --port 8080 --open
  ttt serve --bind 0.0.0.0 --port 8080 --jobs 4")]
pub struct Args {
    /// The TCP port; 0 picks a free one (the printed URL names it).
    #[arg(long, value_name = "N", default_value_t = 8080)]
    port: u16,
    /// The address to listen on; 127.0.0.1 serves this machine only.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Open the page in the default browser once the server listens.
    #[arg(long)]
    open: bool,
    /// Searches (hints, engine moves) running at once [default: the number of cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Searches waiting for a free slot before the server answers 503 (busy).
    #[arg(long, value_name = "N", default_value_t = 64)]
    queue: u16,
    /// Seconds the searches of one request may take; hints not found by then are reported
    /// unsolved.
    #[arg(long, value_name = "SECS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    hint_time: u64,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let jobs = args.jobs.map_or(cores, usize::from);
    let limits = Limits {
        jobs,
        queue: usize::from(args.queue),
        budget: Duration::from_secs(args.hint_time),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cores.clamp(1, 4))
        .max_blocking_threads(jobs + 2)
        .enable_all()
        .build()?;
    let open = args.open;
    let address = SocketAddr::new(args.bind, args.port);
    runtime.block_on(crate::serve::serve(address, limits, |bound| {
        let url = format!("http://{bound}/");
        let mut out = std::io::stdout();
        writeln!(out, "ttt serve: listening on {url} (Ctrl-C stops)")?;
        out.flush()?;
        if open {
            open_browser(&url);
        }
        Ok(())
    }))?;
    // Searches stop at their next watch call once the server stops; do not wait for more.
    runtime.shutdown_timeout(Duration::from_secs(2));
    eprintln!("ttt serve: stopped");
    Ok(ExitCode::SUCCESS)
}

/// Asks the desktop to open `url`; says so on standard error when it cannot.
fn open_browser(url: &str) {
    let command = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(error) = std::process::Command::new(command)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("ttt serve: could not open a browser ({command}: {error}); open {url}");
    }
}
