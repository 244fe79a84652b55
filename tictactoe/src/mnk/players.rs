//! Search players for every game of the family: depth-limited alpha-beta, Monte Carlo tree
//! search, and the [`solver`](super::solver) within a node budget with alpha-beta behind it.
//! (The family's perfect player, which has no budget, is [`Strategy::Perfect`](super::agents::Strategy::Perfect).)
//!
//! | player | chooses | cost per move |
//! |---|---|---|
//! | [`AlphaBeta`] | the best move of a depth-limited negamax with alpha-beta, the solver's pruning (win now, forced block, gravity's poisoned cells) and move ordering (threats made, then central cells), scored at the horizon by open windows; searched 1, 2, ... plies deep up to its depth (iterative deepening) | up to `b^(d/2)` to `b^d` nodes for `b` moves and depth `d` |
//! | [`Mcts`] | the most visited move of UCT (UCB1, `c = √2`) after a budget of random playouts, after taking a win or blocking a loss at once | `playouts` random games |
//! | [`Strong`] | a best move of [`Solver`], at random among them, when it finishes within its node budget; else [`AlphaBeta`]: perfect only where the budget suffices | at most `budget` nodes, then the fallback |
//!
//! Each has `choose(&mut self, position, rng) -> Option<usize>`: the action, `None` when the
//! game is over. Ties are broken by the random number generator, so a seeded generator gives
//! the same games. [`AlphaBeta`] and [`Mcts`] also have `choose_until(position, rng, stop)`,
//! which asks `stop()` as it goes (every 1,024 nodes, every playout) and, once it says yes,
//! answers with what it has: the deepest finished iteration's move, the most visited move so
//! far. That is how a caller bounds the time of a move (`ttt play --think-time`); a search cut
//! short depends on the clock, so only an uncut one is reproducible from the seed.
//!
//! ```
//! use rand::SeedableRng;
//! use tictactoe::mnk::{Position, Rules, players::AlphaBeta};
//! let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
//! let mut game = Position::<1>::new(Rules::CONNECT_FOUR)?;
//! for column in [3, 0, 3, 0, 3] {
//!     game.play(column)?;
//! }
//! // O must block column 3.
//! assert_eq!(AlphaBeta::new(4).choose(&game, &mut rng), Some(3));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::vec::Vec;

use rand::Rng;

use super::bits::{Bits, cell_mask, run_starts};
use super::solver::{DEFAULT_TABLE_BITS, Solver, threats};
use super::{Position, Rules};
use crate::Status;

/// A win's score before the plies are taken off (faster wins score higher).
const WIN: i32 = 1_000_000;

/// The `k`-windows of a board and the central weight of each bit, kept per rules.
#[derive(Clone, Debug)]
struct Windows<const W: usize> {
    rules: Option<Rules>,
    masks: Vec<Bits<W>>,
    weight: Vec<u32>,
    cells: Bits<W>,
}

impl<const W: usize> Windows<W> {
    const fn new() -> Windows<W> {
        Windows {
            rules: None,
            masks: Vec::new(),
            weight: Vec::new(),
            cells: Bits::EMPTY,
        }
    }

    fn set(&mut self, rules: Rules) {
        if self.rules == Some(rules) {
            return;
        }
        self.rules = Some(rules);
        self.cells = cell_mask(rules);
        self.masks.clear();
        self.weight = alloc::vec![0; rules.bits() as usize];
        for d in rules.directions() {
            for start in run_starts(self.cells, d, rules.k()).iter() {
                let mut mask = Bits::EMPTY;
                for i in 0..rules.k() {
                    mask.insert(start + i * d);
                    self.weight[(start + i * d) as usize] += 1;
                }
                self.masks.push(mask);
            }
        }
    }

    /// Open windows for the side to move minus the opponent's, weighted by `4^marks`.
    fn evaluate(&self, me: Bits<W>, opp: Bits<W>) -> i32 {
        let mut score = 0i64;
        for &mask in &self.masks {
            let (a, b) = ((me & mask).count(), (opp & mask).count());
            if b == 0 && a > 0 {
                score += 1 << (2 * a.min(12));
            } else if a == 0 && b > 0 {
                score -= 1 << (2 * b.min(12));
            }
        }
        score.clamp(i64::from(-WIN / 4), i64::from(WIN / 4)) as i32
    }
}

/// The moves worth trying and the forced result, as the solver prunes them: `Err(score)` when
/// the mover wins now or loses whatever it plays, else the moves left.
fn prune<const W: usize>(position: &Position<W>, cells: Bits<W>) -> Result<Bits<W>, i32> {
    let rules = position.rules();
    let plies = position.plies() as i32;
    let board = position.board();
    let mover = position.side_to_move();
    let (me, opp) = (board.pieces(mover), board.pieces(mover.opponent()));
    let empty = cells.and_not(me | opp);
    let playable = position.playable();
    if !(threats(me, empty, rules) & playable).is_empty() {
        return Err(WIN - plies - 1);
    }
    let theirs = threats(opp, empty, rules);
    let forced = theirs & playable;
    let lose = -(WIN - plies - 2);
    let mut moves = playable;
    if !forced.is_empty() {
        if forced.count() > 1 {
            return Err(lose);
        }
        moves = forced;
    }
    if rules.gravity() {
        moves = moves.and_not(theirs.shr(1));
        if moves.is_empty() {
            return Err(lose);
        }
    }
    Ok(moves)
}

/// The action of bitboard bit `bit`.
fn action_of<const W: usize>(position: &Position<W>, bit: u32) -> usize {
    let rules = position.rules();
    if rules.gravity() {
        (bit / rules.stride()) as usize
    } else {
        rules
            .square_of_bit(bit)
            .map_or(0, |square| rules.index(square) as usize)
    }
}

/// The bit of a winning move or of the one block, if the position has either.
fn win_or_block<const W: usize>(position: &Position<W>) -> Option<u32> {
    let rules = position.rules();
    let cells = cell_mask::<W>(rules);
    let board = position.board();
    let mover = position.side_to_move();
    let (me, opp) = (board.pieces(mover), board.pieces(mover.opponent()));
    let empty = cells.and_not(me | opp);
    let playable = position.playable();
    (threats(me, empty, rules) & playable)
        .first()
        .or_else(|| (threats(opp, empty, rules) & playable).first())
}

/// A depth-limited negamax player with alpha-beta: see the [module](self) documentation.
#[derive(Clone, Debug)]
pub struct AlphaBeta<const W: usize> {
    depth: u32,
    nodes: u64,
    windows: Windows<W>,
    /// Set when `stop` said yes during the current iteration: its result is discarded.
    stopped: bool,
}

/// Whether to stop a search now: asked every 1,024 nodes or every playout.
pub type Stop<'a> = &'a mut dyn FnMut() -> bool;

/// What a search cut short by its stop condition still answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The action to play.
    pub action: usize,
    /// Whether `stop` cut the search short (the move then depends on the clock).
    pub cut: bool,
}

impl<const W: usize> AlphaBeta<W> {
    /// A player searching `depth` plies (at least 1).
    #[must_use]
    pub const fn new(depth: u32) -> AlphaBeta<W> {
        AlphaBeta {
            depth: if depth == 0 { 1 } else { depth },
            nodes: 0,
            windows: Windows::new(),
            stopped: false,
        }
    }

    /// The depth in plies.
    #[must_use]
    pub const fn depth(&self) -> u32 {
        self.depth
    }

    /// Nodes searched by this player so far.
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The action to play, `None` when the game is over: the full search, `depth` plies.
    pub fn choose<R: Rng + ?Sized>(
        &mut self,
        position: &Position<W>,
        rng: &mut R,
    ) -> Option<usize> {
        self.choose_until(position, rng, &mut || false)
            .map(|choice| choice.action)
    }

    /// The action to play, searching 1, 2, ... up to `depth` plies deep until `stop` says
    /// yes (asked every 1,024 nodes; the 1-ply search always finishes): the best move of the
    /// deepest finished search. `None` when the game is over. Without a stop it is
    /// [`choose`](AlphaBeta::choose): the same move from the same generator.
    pub fn choose_until<R: Rng + ?Sized>(
        &mut self,
        position: &Position<W>,
        rng: &mut R,
        stop: Stop<'_>,
    ) -> Option<Choice> {
        if position.status() != Status::Ongoing {
            return None;
        }
        self.windows.set(position.rules());
        let moves = match prune(position, self.windows.cells) {
            Ok(moves) => moves,
            // A win now, or every move loses: the win, or any legal move.
            Err(_) => {
                let bit = win_or_block(position).or_else(|| position.playable().first())?;
                let action = action_of(position, bit);
                return Some(Choice { action, cut: false });
            }
        };
        let mut order = self.order(position, moves, rng);
        order.sort_by_key(|b| core::cmp::Reverse(b.0));
        let mut best = order.first().map(|&(_, bit)| bit)?;
        let mut cut = false;
        for depth in 1..=self.depth {
            // The first iteration always finishes: there is always a move to give.
            let mut ask = |nodes: u64| depth > 1 && nodes.trailing_zeros() >= 10 && stop();
            self.stopped = false;
            let found = self.root(position, &order, depth, &mut ask);
            if self.stopped {
                cut = true;
                break;
            }
            best = found;
        }
        Some(Choice {
            action: action_of(position, best),
            cut,
        })
    }

    /// The best of the root moves `order` at `depth` plies (`stopped` set if `stop` said yes).
    fn root(
        &mut self,
        position: &Position<W>,
        order: &[(u64, u32)],
        depth: u32,
        stop: &mut dyn FnMut(u64) -> bool,
    ) -> u32 {
        let (mut alpha, beta) = (-WIN, WIN);
        let mut best = order[0].1;
        let mut p = *position;
        for &(_, bit) in order {
            p.play_bit(bit);
            let v = if p.status() == Status::Draw {
                0
            } else {
                -self.negamax(&mut p, depth - 1, -beta, -alpha, stop)
            };
            p.undo_bit(bit);
            if self.stopped {
                break;
            }
            if v > alpha {
                alpha = v;
                best = bit;
            }
        }
        best
    }

    /// The moves with their order keys: threats made, then central weight, then a random
    /// tie-break.
    fn order<R: Rng + ?Sized>(
        &self,
        position: &Position<W>,
        moves: Bits<W>,
        rng: &mut R,
    ) -> Vec<(u64, u32)> {
        let rules = position.rules();
        let board = position.board();
        let me = board.pieces(position.side_to_move());
        let empty = board.empty_cells();
        moves
            .iter()
            .map(|bit| {
                let mut after = me;
                after.insert(bit);
                let mut rest = empty;
                rest.remove(bit);
                let made = u64::from(threats(after, rest, rules).count());
                let noise = rng.random_range(0..256u64);
                let key = (made << 40)
                    | (u64::from(self.windows.weight[bit as usize].min(0xFFFF)) << 8)
                    | noise;
                (key, bit)
            })
            .collect()
    }

    fn negamax(
        &mut self,
        p: &mut Position<W>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        stop: &mut dyn FnMut(u64) -> bool,
    ) -> i32 {
        self.nodes += 1;
        if self.stopped || stop(self.nodes) {
            self.stopped = true;
            return 0;
        }
        let moves = match prune(p, self.windows.cells) {
            Ok(moves) => moves,
            Err(score) => return score,
        };
        if depth == 0 {
            let board = p.board();
            let mover = p.side_to_move();
            return self
                .windows
                .evaluate(board.pieces(mover), board.pieces(mover.opponent()));
        }
        let rules = p.rules();
        let board = p.board();
        let me = board.pieces(p.side_to_move());
        let empty = board.empty_cells();
        let mut order: Vec<(u64, u32)> = moves
            .iter()
            .map(|bit| {
                let mut after = me;
                after.insert(bit);
                let mut rest = empty;
                rest.remove(bit);
                let made = u64::from(threats(after, rest, rules).count());
                (
                    (made << 32) | u64::from(self.windows.weight[bit as usize]),
                    bit,
                )
            })
            .collect();
        order.sort_unstable_by_key(|b| core::cmp::Reverse(b.0));
        let mut best = -WIN;
        for (_, bit) in order {
            p.play_bit(bit);
            let v = if p.status() == Status::Draw {
                0
            } else {
                -self.negamax(p, depth - 1, -beta, -alpha, stop)
            };
            p.undo_bit(bit);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// A node of the search tree of [`Mcts`].
#[derive(Clone, Copy, Debug)]
struct Node {
    /// The bit played to reach it.
    bit: u32,
    /// Its first child in the tree, and how many (0 until expanded).
    first: u32,
    children: u32,
    visits: f64,
    /// Results for the player who moved into the node: 1 a win, 0.5 a draw.
    reward: f64,
}

/// A Monte Carlo tree search player (UCT): see the [module](self) documentation.
#[derive(Clone, Debug)]
pub struct Mcts {
    playouts: u32,
    exploration: f64,
    tree: Vec<Node>,
}

impl Mcts {
    /// A player running `playouts` random games per move (at least 1), with the exploration
    /// constant `√2`.
    #[must_use]
    pub fn new(playouts: u32) -> Mcts {
        Mcts {
            playouts: playouts.max(1),
            exploration: core::f64::consts::SQRT_2,
            tree: Vec::new(),
        }
    }

    /// The playouts per move.
    #[must_use]
    pub const fn playouts(&self) -> u32 {
        self.playouts
    }

    /// The action to play, `None` when the game is over.
    pub fn choose<const W: usize, R: Rng + ?Sized>(
        &mut self,
        position: &Position<W>,
        rng: &mut R,
    ) -> Option<usize> {
        self.choose_until(position, rng, &mut || false)
            .map(|choice| choice.action)
    }

    /// The action to play after `playouts` playouts, or fewer if `stop` says yes first (asked
    /// before each playout after the first): the most visited move so far. `None` when the
    /// game is over.
    pub fn choose_until<const W: usize, R: Rng + ?Sized>(
        &mut self,
        position: &Position<W>,
        rng: &mut R,
        stop: Stop<'_>,
    ) -> Option<Choice> {
        if position.status() != Status::Ongoing {
            return None;
        }
        if let Some(bit) = win_or_block(position) {
            let action = action_of(position, bit);
            return Some(Choice { action, cut: false });
        }
        self.tree.clear();
        self.tree.push(Node {
            bit: u32::MAX,
            first: 0,
            children: 0,
            visits: 0.0,
            reward: 0.0,
        });
        let mut path: Vec<usize> = Vec::new();
        let mut cut = false;
        for playout in 0..self.playouts {
            if playout > 0 && stop() {
                cut = true;
                break;
            }
            let mut p = *position;
            path.clear();
            let mut node = 0;
            path.push(node);
            // Select down to a leaf.
            while self.tree[node].children > 0 && p.status() == Status::Ongoing {
                node = self.select(node, rng);
                p.play_bit(self.tree[node].bit);
                path.push(node);
            }
            // Expand it and step to one child.
            if p.status() == Status::Ongoing && self.tree[node].visits > 0.0 {
                let first = self.tree.len() as u32;
                let playable = p.playable();
                for bit in playable.iter() {
                    self.tree.push(Node {
                        bit,
                        first: 0,
                        children: 0,
                        visits: 0.0,
                        reward: 0.0,
                    });
                }
                self.tree[node].first = first;
                self.tree[node].children = playable.count();
                node = self.select(node, rng);
                p.play_bit(self.tree[node].bit);
                path.push(node);
            }
            // Back up: a node's reward is for the player who moved into it, the opponent of
            // the side to move there.
            let mut mover_into = p.side_to_move();
            let status = p.play_random(rng);
            for &n in path.iter().rev() {
                mover_into = mover_into.opponent();
                let reward = match status {
                    Status::Won(w) if w == mover_into => 1.0,
                    Status::Won(_) => 0.0,
                    _ => 0.5,
                };
                self.tree[n].visits += 1.0;
                self.tree[n].reward += reward;
            }
        }
        let root = self.tree[0];
        let children = &self.tree[root.first as usize..(root.first + root.children) as usize];
        let best = children
            .iter()
            .max_by(|a, b| a.visits.total_cmp(&b.visits))
            .map(|n| n.bit)
            .or_else(|| position.playable().first())?;
        Some(Choice {
            action: action_of(position, best),
            cut,
        })
    }

    /// The child of `node` with the highest UCB1 (an unvisited one first, at random).
    fn select<R: Rng + ?Sized>(&self, node: usize, rng: &mut R) -> usize {
        let parent = self.tree[node];
        let range = parent.first as usize..(parent.first + parent.children) as usize;
        let unvisited = range
            .clone()
            .filter(|&c| self.tree[c].visits == 0.0)
            .count();
        if unvisited > 0 {
            let pick = rng.random_range(0..unvisited);
            return range
                .clone()
                .filter(|&c| self.tree[c].visits == 0.0)
                .nth(pick)
                .unwrap_or(range.start);
        }
        let log = parent.visits.max(1.0).ln();
        let mut best = (f64::MIN, range.start);
        for c in range {
            let child = self.tree[c];
            let ucb = child.reward / child.visits + self.exploration * (log / child.visits).sqrt();
            if ucb > best.0 {
                best = (ucb, c);
            }
        }
        best.1
    }
}

/// The solver where it answers within a node budget, else alpha-beta: perfect only where the
/// budget suffices (see the [module](self) documentation; [`Strong::counts`] says how often
/// each played).
#[derive(Clone, Debug)]
pub struct Strong<const W: usize> {
    budget: u64,
    table_bits: u32,
    solver: Option<Solver<W>>,
    fallback: AlphaBeta<W>,
    solved: u64,
    fell_back: u64,
}

impl<const W: usize> Strong<W> {
    /// A player giving the solver `budget` nodes per move (its table: `2^table_bits` buckets
    /// of two entries, kept between moves) and falling back on [`AlphaBeta`] of
    /// `fallback_depth` plies.
    #[must_use]
    pub const fn new(budget: u64, table_bits: u32, fallback_depth: u32) -> Strong<W> {
        Strong {
            budget,
            table_bits,
            solver: None,
            fallback: AlphaBeta::new(fallback_depth),
            solved: 0,
            fell_back: 0,
        }
    }

    /// Moves the solver chose, and moves the fallback chose.
    #[must_use]
    pub const fn counts(&self) -> (u64, u64) {
        (self.solved, self.fell_back)
    }

    /// The action to play, `None` when the game is over.
    pub fn choose<R: Rng + ?Sized>(
        &mut self,
        position: &Position<W>,
        rng: &mut R,
    ) -> Option<usize> {
        if position.status() != Status::Ongoing {
            return None;
        }
        let rules = position.rules();
        if self.solver.as_ref().is_none_or(|s| s.rules() != rules) {
            self.solver = Solver::with_table_bits(rules, self.table_bits).ok();
        }
        if let Some(solver) = self.solver.as_mut()
            && let Some(solution) = solver.solve_within(position, self.budget)
            && !solution.best_moves.is_empty()
        {
            self.solved += 1;
            let pick = rng.random_range(0..solution.best_moves.len());
            return Some(solution.best_moves[pick]);
        }
        self.fell_back += 1;
        self.fallback.choose(position, rng)
    }
}

impl<const W: usize> Default for Strong<W> {
    /// A budget of a million nodes, a table of 2^[`DEFAULT_TABLE_BITS`] buckets, alpha-beta
    /// of depth 4 behind it.
    fn default() -> Strong<W> {
        Strong::new(1_000_000, DEFAULT_TABLE_BITS, 4)
    }
}
