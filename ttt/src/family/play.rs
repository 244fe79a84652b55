//! `ttt play --game SPEC`: a game of the family in the terminal, between people and the
//! family's players ([`tictactoe::mnk::agents`]).
//!
//! A person types a column number from 1 with gravity (as Connect Four players count), else
//! a cell as drawn (`h8`: column letter, row from 1 at the bottom); `u` takes back the last
//! move of the person (and the computer's answer), `h` shows help, `q` quits.
//!
//! The search levels (`mcts`, `alphabeta`) stop at the think time and play what they have;
//! while the computer thinks, a spinner with the elapsed time runs on standard error when it
//! is a terminal. Each move gets a verdict from the solver (the value before and after it)
//! when the solver answers within the think time; the solver runs on its own thread, so a
//! slow answer never holds up the game.

use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use tictactoe::mnk::agents::{Agent, Strategy};
use tictactoe::mnk::{AnyPosition, AnySolver, PlayError, Rules, Square};
use tictactoe::solver::Value;
use tictactoe::{Player, Status};

use crate::dialogue::{Names, Options, Spinner, Style, TableGame, Thought};

/// Who sits on one side: a person (`None`) or a family player.
pub type Seat = Option<Strategy>;

/// Nodes the family solver may search for one verdict position (Connect Four's solver has no
/// budget; the think time bounds the wait for it).
const VERDICT_NODES: u64 = 500_000;

/// How a person names a move, for prompts and help.
fn move_hint(rules: Rules) -> String {
    if rules.gravity() {
        format!("a column number (1 to {})", rules.cols())
    } else {
        let last = super::square_name(rules, Square::new(0, (rules.cols() - 1) as u8));
        format!("a cell as drawn (a1 to {last})")
    }
}

/// The game in one sentence.
fn title(rules: Rules) -> String {
    let mut text = format!(
        "{rules}: {} rows, {} columns, {} in a row wins",
        rules.rows(),
        rules.cols(),
        rules.k()
    );
    if rules.gravity() {
        text.push_str("; a mark drops to the lowest empty cell of its column");
    }
    text.push('.');
    text
}

/// A game of the family at the table, and the solver that judges its moves.
struct Family {
    rules: Rules,
    /// The longest wait for a verdict.
    think_time: Duration,
    judge: Judge,
}

/// Plays games until the person stops.
///
/// # Errors
/// A failed read or write.
pub fn run(rules: Rules, seats: [Seat; 2], options: &Options) -> anyhow::Result<ExitCode> {
    let seed = options.seed;
    let agents = [0, 1].map(|i| seats[i].map(|s| Agent::new(s, seed.wrapping_add(i as u64))));
    let game = Family {
        rules,
        think_time: options.think_time.unwrap_or_default(),
        judge: Judge::start(),
    };
    crate::dialogue::run(game, agents, options)
}

impl TableGame for Family {
    type Position = AnyPosition;
    /// The action: a column with gravity, else a cell index.
    type Move = usize;
    /// The square the action filled.
    type Undo = Square;
    type Agent = Agent;

    fn start(&self) -> AnyPosition {
        AnyPosition::new(self.rules)
    }

    fn to_move(position: &AnyPosition) -> Option<Player> {
        position.to_move()
    }

    fn status(position: &AnyPosition) -> Status {
        position.status()
    }

    fn play(position: &mut AnyPosition, action: usize) -> anyhow::Result<Square> {
        Ok(position.play(action)?)
    }

    fn undo(position: &mut AnyPosition, square: &Square) {
        // Moves of a game undo in reverse order.
        let _ = position.undo(*square);
    }

    fn title(&self) -> String {
        title(self.rules)
    }

    fn hint(&self) -> String {
        move_hint(self.rules)
    }

    fn help(&self) -> String {
        format!(
            "Enter {} and press Enter.\n  u, undo   take back your last move (and the computer's \
answer)\n  h, help   show this help\n  q, quit   leave the game",
            move_hint(self.rules)
        )
    }

    fn asks(&self, _: &AnyPosition) -> String {
        what(self.rules).to_owned()
    }

    fn show(&self, style: &Style, position: &AnyPosition, last: Option<&Square>) -> String {
        let drawn = super::draw_marked(
            &position.board(),
            "  ",
            &|_| style.paint(".", "2"),
            &|player| style.mark(player),
            last.copied(),
        );
        format!("\n{drawn}")
    }

    fn read(&self, text: &str, position: &AnyPosition) -> Result<usize, String> {
        let Some(action) = parse_move(self.rules, text) else {
            let shown: String = text.chars().take(20).collect();
            return Err(format!(
                "not a {}: {shown:?}; enter {} (h for help)",
                what(self.rules),
                move_hint(self.rules)
            ));
        };
        let mut probe = *position;
        match probe.play(action) {
            Ok(_) => Ok(action),
            Err(PlayError::ColumnFull { .. }) => {
                Err(format!("column {} is full; choose another", action + 1))
            }
            Err(PlayError::Occupied { .. }) => Err(format!(
                "{} is taken; choose an empty cell",
                text.to_lowercase()
            )),
            Err(error) => Err(error.to_string()),
        }
    }

    fn think(
        &self,
        agent: &mut Agent,
        position: &AnyPosition,
        deadline: Option<Instant>,
    ) -> Option<Thought<usize>> {
        let choice = agent.choose_until(position, &mut || {
            deadline.is_some_and(|deadline| Instant::now() >= deadline)
        })?;
        Some(Thought {
            played: choice.action,
            cut: choice.cut,
            note: String::new(),
        })
    }

    fn engine(agent: &Agent) -> String {
        agent.strategy().to_string()
    }

    fn move_name(&self, action: usize, square: &Square) -> String {
        if self.rules.gravity() {
            (action + 1).to_string()
        } else {
            super::square_name(self.rules, *square)
        }
    }

    fn verdict(
        &mut self,
        before: &AnyPosition,
        after: &AnyPosition,
        _: usize,
        mover: Player,
        names: Names,
    ) -> anyhow::Result<Option<String>> {
        let judged = self.judge.verdict(before, after, self.think_time);
        Ok(judged.map(|(was, now)| verdict(names, mover, was, now)))
    }

    fn ending(&self, status: Status, names: Names) -> String {
        names.k_in_a_row(status, &self.rules.k().to_string())
    }
}

/// What a person names on the board: a column with gravity, else a cell.
fn what(rules: Rules) -> &'static str {
    if rules.gravity() { "column" } else { "cell" }
}

/// The verdict on a move by `mover` that turned the value `was` into `now`: whether it keeps
/// or throws away the win or the draw, and what best play makes of the game after it.
fn verdict(names: Names, mover: Player, was: Value, now: Value) -> String {
    let quality = if was == now {
        match was.winner() {
            Some(winner) if winner == mover => "keeps the win",
            Some(_) => "the game was already lost",
            None => "keeps the draw",
        }
    } else if was.winner() == Some(mover) {
        "throws away the win"
    } else {
        "throws away the draw"
    };
    let after = match now.winner() {
        None => "a draw with best play".to_owned(),
        Some(winner) => format!("{} {} with best play", names.of(winner), names.wins(winner)),
    };
    format!("{quality}; {after}")
}

/// The action a person names: a column number from 1 with gravity, else a cell as drawn.
fn parse_move(rules: Rules, text: &str) -> Option<usize> {
    if rules.gravity() {
        let column: usize = text.parse().ok()?;
        (1..=rules.cols() as usize)
            .contains(&column)
            .then(|| column - 1)
    } else {
        super::parse_square(rules, text).map(|s| rules.index(s) as usize)
    }
}

/// The verdicts' solver, on its own thread: it answers the value before and after each move,
/// one request at a time; a request it has not answered within the wait is left to finish
/// while the game goes on, and no new one is sent until it has.
struct Judge {
    requests: Sender<(u64, AnyPosition)>,
    answers: Receiver<(u64, Option<Value>)>,
    /// The last request sent, and whether it is answered.
    sent: u64,
    busy: bool,
    /// The last position valued, and its value: the position before the next move.
    known: Option<(AnyPosition, Value)>,
}

impl Judge {
    fn start() -> Judge {
        let (requests, inbox) = mpsc::channel::<(u64, AnyPosition)>();
        let (outbox, answers) = mpsc::channel();
        std::thread::spawn(move || {
            let mut solver = AnySolver::new();
            while let Ok((id, position)) = inbox.recv() {
                let value = solver.value(&position, VERDICT_NODES);
                if outbox.send((id, value)).is_err() {
                    return;
                }
            }
        });
        Judge {
            requests,
            answers,
            sent: 0,
            busy: false,
            known: None,
        }
    }

    /// The value of `position` if the solver gives it by `deadline`.
    fn value(&mut self, position: &AnyPosition, deadline: Instant) -> Option<Value> {
        if let Some((known, value)) = self.known
            && known == *position
        {
            return Some(value);
        }
        // A late answer to an earlier request frees the solver.
        while self.busy {
            match self.answers.try_recv() {
                Ok((id, _)) if id == self.sent => self.busy = false,
                Ok(_) => {}
                Err(_) => return None,
            }
        }
        self.sent += 1;
        self.requests.send((self.sent, *position)).ok()?;
        self.busy = true;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.answers.recv_timeout(wait) {
                Ok((id, value)) if id == self.sent => {
                    self.busy = false;
                    if let Some(value) = value {
                        self.known = Some((*position, value));
                    }
                    return value;
                }
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    /// The values before and after a move, if the solver gives both within `wait`.
    fn verdict(
        &mut self,
        before: &AnyPosition,
        after: &AnyPosition,
        wait: Duration,
    ) -> Option<(Value, Value)> {
        let deadline = Instant::now() + wait;
        let spinner = Spinner::start("the solver is judging the move".to_owned());
        let was = self.value(before, deadline);
        let now = was.and_then(|_| self.value(after, deadline));
        spinner.finish();
        Some((was?, now?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_columns_from_1_with_gravity_and_cells_without() {
        assert_eq!(parse_move(Rules::CONNECT_FOUR, "1"), Some(0));
        assert_eq!(parse_move(Rules::CONNECT_FOUR, "7"), Some(6));
        assert_eq!(parse_move(Rules::CONNECT_FOUR, "0"), None);
        assert_eq!(parse_move(Rules::CONNECT_FOUR, "8"), None);
        assert_eq!(parse_move(Rules::TIC_TAC_TOE, "a3"), Some(0));
        assert_eq!(parse_move(Rules::TIC_TAC_TOE, "c1"), Some(8));
        assert_eq!(parse_move(Rules::TIC_TAC_TOE, "4"), None);
    }

    #[test]
    fn the_judge_answers_small_games_and_keeps_the_last_value() {
        let mut judge = Judge::start();
        let empty = AnyPosition::new(Rules::FOUR_BY_FOUR);
        let mut after = empty;
        after.play(5).unwrap();
        let wait = Duration::from_secs(60);
        assert_eq!(
            judge.verdict(&empty, &after, wait),
            Some((Value::Draw, Value::Draw))
        );
        assert_eq!(judge.known, Some((after, Value::Draw)));
        // Gomoku is beyond the solver's budget: no verdict.
        let gomoku = AnyPosition::new(Rules::GOMOKU);
        let mut next = gomoku;
        next.play(112).unwrap();
        assert_eq!(judge.verdict(&gomoku, &next, wait), None);
    }
}
