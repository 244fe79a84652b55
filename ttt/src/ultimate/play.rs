//! `ttt play --game ultimate`: ultimate tic-tac-toe in the terminal, between people and the
//! players of [`tictactoe::ultimate::agents`], in the play loop of every game
//! ([`crate::dialogue::run`]): a move per line, `u` undoes the person's last move (and the
//! computer's answer), `h` shows help, `q` quits, "Play again?" at the end.
//!
//! `mcts` stops at the think time and plays the most visited move so far (the game says when
//! that happened: a replay can then differ); with `--threads N` it searches on N threads at
//! once (N times the playouts).

use std::process::ExitCode;
use std::time::Instant;

use tictactoe::Player;
use tictactoe::Status;
use tictactoe::ultimate::agents::{Agent, Strategy};
use tictactoe::ultimate::{Move, Position, Undo};

use crate::dialogue::{Names, Options, Style, TableGame, Thought};
use crate::output::grouped;

/// Who sits on one side: a person (`None`) or a player.
pub type Seat = Option<Strategy>;

const RULES: &str = "Ultimate tic-tac-toe: nine small boards in a 3 x 3 meta-board. Your move's \
cell sends the opponent to the board of the same number (anywhere open if that board is won or \
full); three in a row wins a small board; three won boards in a row win the game.";

const HINT: &str = "board:cell (0 to 8 each, e.g. 4:2), or the cell alone when the board is fixed";

/// Ultimate tic-tac-toe at the table, and the threads of each `mcts` search.
struct Ultimate {
    threads: u32,
}

/// Plays games until the person stops.
///
/// # Errors
/// A failed read or write.
pub fn run(seats: [Seat; 2], threads: u32, options: &Options) -> anyhow::Result<ExitCode> {
    let seed = options.seed;
    let agents = [0, 1].map(|i| seats[i].map(|s| Agent::new(s, seed.wrapping_add(i as u64))));
    crate::dialogue::run(Ultimate { threads }, agents, options)
}

impl TableGame for Ultimate {
    type Position = Position;
    type Move = Move;
    type Undo = Undo;
    type Agent = Agent;

    fn start(&self) -> Position {
        Position::EMPTY
    }

    fn to_move(position: &Position) -> Option<Player> {
        position.to_move()
    }

    fn status(position: &Position) -> Status {
        position.status()
    }

    fn play(position: &mut Position, played: Move) -> anyhow::Result<Undo> {
        Ok(position.play(played)?)
    }

    fn undo(position: &mut Position, undo: &Undo) {
        position.undo(*undo);
    }

    fn title(&self) -> String {
        crate::output::wrap(RULES, "")
    }

    fn hint(&self) -> String {
        HINT.to_owned()
    }

    fn help(&self) -> String {
        format!(
            "Enter {HINT}, and press Enter.\n  In the drawing, the empty cells you may play show \
their numbers; on the right, the meta-board: X or O a won board, # a drawn one, * where you may \
play.\n  u, undo   take back your last move (and the computer's answer)\n  h, help   show \
this help\n  q, quit   leave the game"
        )
    }

    fn asks(&self, position: &Position) -> String {
        match position.next_board() {
            Some(board) => format!("board {board}, cell"),
            None => "any open board, board:cell".to_owned(),
        }
    }

    fn show(&self, style: &Style, position: &Position, last: Option<&Undo>) -> String {
        let drawn = super::draw(position, style, last.map(|undo| undo.played()));
        format!("\n{drawn}{}\n", super::describe(position))
    }

    fn read(&self, text: &str, position: &Position) -> Result<Move, String> {
        let played = super::parse_move(text, position.next_board()).map_err(|error| {
            let shown: String = error.chars().take(200).collect();
            format!("{shown} (h for help)")
        })?;
        position
            .check(played)
            .map(|()| played)
            .map_err(|error| format!("{error}; choose another"))
    }

    fn think(
        &self,
        agent: &mut Agent,
        position: &Position,
        deadline: Option<Instant>,
    ) -> Option<Thought<Move>> {
        let choice = agent.choose_parallel(position, self.threads, &|| {
            deadline.is_some_and(|deadline| Instant::now() >= deadline)
        })?;
        let note = match (choice.playouts, choice.cut) {
            (0, _) => String::new(),
            (n, false) => format!(" ({} playouts)", grouped(n)),
            (n, true) => format!(" ({} playouts, stopped at the think time)", grouped(n)),
        };
        Some(Thought {
            played: choice.played,
            cut: choice.cut,
            note,
        })
    }

    fn engine(agent: &Agent) -> String {
        agent.strategy().to_string()
    }

    fn move_name(&self, played: Move, _: &Undo) -> String {
        played.to_string()
    }

    fn verdict(
        &mut self,
        _: &Position,
        _: &Position,
        _: Move,
        _: Player,
        _: Names,
    ) -> anyhow::Result<Option<String>> {
        // The game is unsolved: no verdict.
        Ok(None)
    }

    fn ending(&self, status: Status, names: Names) -> String {
        match (status, names.person) {
            (Status::Won(winner), Some(person)) if winner == person => {
                "You win: three boards in a row!".to_owned()
            }
            (Status::Won(_), Some(_)) => {
                "You lose: the computer has three boards in a row.".to_owned()
            }
            (Status::Won(winner), None) => format!("{winner} wins: three boards in a row."),
            (Status::Draw | Status::Ongoing, _) => {
                "Draw: every board is closed and nobody has three in a row.".to_owned()
            }
        }
    }
}
