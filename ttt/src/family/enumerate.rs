//! `ttt enumerate --game SPEC [--max-plies N]`: distinct positions by number of marks and by
//! status. Without `--max-plies`, every grid of a board of at most 16 cells is classified
//! ([`count::grids`]); with it, positions are counted ply by ply from the empty board
//! ([`count::layers_within`], under the memory limit of `perft`), which also gives the move
//! sequences (perft). Both show their progress on a terminal.

use std::process::ExitCode;

use serde::Serialize;
use tictactoe::mnk::Rules;
use tictactoe::mnk::count::{self, Layer, MAX_GRID_CELLS};

use super::memory::Limit;
use crate::exit;
use crate::output::{errln, outln};
use crate::progress::Progress;

/// The JSON object of `enumerate --game`, keys in this order.
#[derive(Serialize)]
struct Counts {
    game: String,
    /// `grids` (every grid classified) or `plies` (ply by ply from the empty board).
    method: &'static str,
    max_plies: Option<u32>,
    grids: Option<u64>,
    count_valid: Option<u64>,
    reachable: u64,
    ongoing: u64,
    x_won: u64,
    o_won: u64,
    draw: u64,
    per_marks: Vec<u64>,
    perft: Option<Vec<u64>>,
    by_marks: Vec<MarksJson>,
    /// Why a count by plies stopped early (the plies before are complete); absent when it
    /// finished.
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<String>,
}

/// One element of `by_marks`.
#[derive(Serialize)]
struct MarksJson {
    marks: u32,
    positions: u64,
    ongoing: u64,
    x_won: u64,
    o_won: u64,
    draw: u64,
}

impl Counts {
    fn new(rules: Rules, max_plies: Option<u32>, layers: &[Layer]) -> Counts {
        let sum = |f: fn(&Layer) -> u64| layers.iter().map(f).sum::<u64>();
        Counts {
            game: rules.to_string(),
            method: if max_plies.is_some() {
                "plies"
            } else {
                "grids"
            },
            max_plies,
            grids: None,
            count_valid: None,
            reachable: sum(|l| l.positions),
            ongoing: sum(|l| l.ongoing),
            x_won: sum(|l| l.x_won),
            o_won: sum(|l| l.o_won),
            draw: sum(|l| l.draws),
            per_marks: layers.iter().map(|l| l.positions).collect(),
            perft: max_plies.map(|_| layers.iter().map(|l| l.sequences).collect()),
            by_marks: layers
                .iter()
                .map(|l| MarksJson {
                    marks: l.plies,
                    positions: l.positions,
                    ongoing: l.ongoing,
                    x_won: l.x_won,
                    o_won: l.o_won,
                    draw: l.draws,
                })
                .collect(),
            stopped: None,
        }
    }
}

/// Counts and prints; a count by plies stopped by the memory limit prints the plies it
/// finished (with `"stopped"` in JSON) and exits with status 2.
///
/// # Errors
/// A usage error where the count cannot start: a board of more than 16 cells without
/// `--max-plies`, or plies the growth model says would pass the memory limit.
pub fn run(
    rules: Rules,
    max_plies: Option<u32>,
    max_memory: Option<u64>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let mut stopped = None;
    let counts = match max_plies {
        Some(plies) => {
            let limit = Limit::of(max_memory);
            let counted = super::perft::count(rules, plies.min(rules.cells()), limit, json)?;
            stopped = counted
                .stopped
                .map(|error| super::perft::stopped(error, limit, &counted.layers));
            Counts {
                stopped: stopped.clone(),
                ..Counts::new(rules, max_plies, &counted.layers)
            }
        }
        None if rules.cells() > MAX_GRID_CELLS => {
            return exit::usage(format!(
                "{rules} has {} cells: every grid is classified only for boards of at most \
{MAX_GRID_CELLS} cells (3^{MAX_GRID_CELLS} grids); give --max-plies N to count positions ply by ply",
                rules.cells()
            ));
        }
        None => {
            let progress = Progress::new(Some(1), "sets of X's cells walked").unless(json);
            let grids = count::grids_each(rules, &mut |done, of| progress.set_of(done, of))
                .or_else(super::perft::refuse)?;
            progress.finish();
            Counts {
                grids: Some(grids.grids),
                count_valid: Some(grids.legal_counts),
                ..Counts::new(rules, None, &grids.by_marks)
            }
        }
    };
    if json {
        outln!("{}", serde_json::to_string(&counts)?);
        return Ok(finish(stopped));
    }
    outln!("game                   {rules}");
    match counts.max_plies {
        Some(plies) => outln!("method                 positions ply by ply, up to {plies} plies"),
        None => outln!("method                 every grid classified"),
    }
    if let (Some(grids), Some(valid)) = (counts.grids, counts.count_valid) {
        outln!("grids                  {grids:>12}");
        outln!("possible piece counts  {valid:>12}");
    }
    outln!("reachable positions    {:>12}", counts.reachable);
    outln!("  ongoing              {:>12}", counts.ongoing);
    outln!("  X won                {:>12}", counts.x_won);
    outln!("  O won                {:>12}", counts.o_won);
    outln!("  draw                 {:>12}", counts.draw);
    let perft = counts.perft.as_deref();
    outln!(
        "{:>5} {:>12} {:>10} {:>10} {:>10} {:>12}{}",
        "marks",
        "positions",
        "X won",
        "O won",
        "draw",
        "ongoing",
        if perft.is_some() { "    sequences" } else { "" }
    );
    for (i, layer) in counts.by_marks.iter().enumerate() {
        let sequences = perft
            .and_then(|p| p.get(i))
            .map_or(String::new(), |s| format!(" {s:>12}"));
        outln!(
            "{:>5} {:>12} {:>10} {:>10} {:>10} {:>12}{sequences}",
            layer.marks,
            layer.positions,
            layer.x_won,
            layer.o_won,
            layer.draw,
            layer.ongoing
        );
    }
    Ok(finish(stopped))
}

/// Success, or the reason a count stopped on standard error and status 2.
fn finish(stopped: Option<String>) -> ExitCode {
    match stopped {
        None => ExitCode::SUCCESS,
        Some(why) => {
            errln!("ttt: error: {why}");
            ExitCode::from(exit::USAGE)
        }
    }
}
