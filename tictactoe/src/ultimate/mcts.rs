//! Monte Carlo tree search (UCT) for ultimate tic-tac-toe, with random playouts on the
//! engine's fast path ([`Position::play_random`]).
//!
//! [`Mcts::search`] runs on one thread, needs only `alloc` (its tree is a `Vec`) and `rand`,
//! and stops at a playout budget or when a stop condition the caller brings says so (a clock,
//! a flag): with a playout budget and no stop it is reproducible, the same seed giving the same
//! tree and the same move. [`parallel`] (feature `std`) runs one search per thread from the
//! same root (root parallelisation) and adds their root statistics; each thread has its own
//! seed and its own share of playouts, so a playout budget is reproducible there too for a
//! given number of threads.
//!
//! One playout: from the root, the child with the highest UCB1 score
//! `wins / visits + c * sqrt(ln(parent visits) / visits)` (wins counting 1 a win and 1/2 a draw
//! for the player who moved into the child) down to a node with untried moves; one untried
//! move (in an order shuffled when the node is expanded) becomes a new node; a uniformly random
//! game from there to the end; its result is added along the path. The move played is the most
//! visited child of the root. A move that wins the game at once is played without a search.
//!
//! The tree holds at most [`MAX_NODES`] nodes, so a long search (a clock with no playout
//! budget) has bounded memory; past that it goes on without growing its tree.
//!
//! `ln` and `sqrt` are computed here (`core` has neither without `std`), so that a search gives
//! the same answer with and without `std`.
//!
//! ```
//! use rand::SeedableRng;
//! use rand::rngs::SmallRng;
//! use tictactoe::ultimate::Position;
//! use tictactoe::ultimate::mcts::Mcts;
//!
//! let mut mcts = Mcts::new();
//! let mut rng = SmallRng::seed_from_u64(7);
//! let search = mcts.search(&Position::EMPTY, 2_000, &mut rng, &mut || false).expect("a move");
//! assert_eq!(search.playouts, 2_000);
//! assert!(!search.cut);
//! assert!(Position::EMPTY.legal_moves().contains(search.best));
//! // The same seed and budget give the same move.
//! let again = Mcts::new().search(&Position::EMPTY, 2_000, &mut SmallRng::seed_from_u64(7), &mut || false);
//! assert_eq!(again.map(|s| s.best), Some(search.best));
//! ```

use alloc::vec::Vec;

use rand::{Rng, RngCore};

use super::{Move, Position};
use crate::{Player, Status};

/// The default exploration constant `c` of UCB1 (results scored in `0..=1`): 0.5 beat 1.0
/// (score 0.625 over 60 games at 2,000 playouts) and 1.4, and 0.25 lost to 0.6 (0.375 at
/// 5,000), in `examples/ultimate_ladder.rs` (docs/ultimate.md#players).
pub const EXPLORATION: f64 = 0.5;

/// How often the stop condition is asked: once every this many playouts (and before the
/// second), so that a clock read costs nothing next to the playouts.
pub const STOP_EVERY: u64 = 16;

/// A node of the tree: the move into it, its children (a range of the tree, shuffled when
/// made), how many of them have been tried, and its statistics.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Index of the first child in the tree (0 until expanded).
    first: u32,
    /// Visits: playouts through this node.
    visits: u32,
    /// Results of those playouts for the player who moved into the node, in half points
    /// (2 a win, 1 a draw, 0 a loss).
    score: u32,
    /// The move into the node.
    played: Move,
    /// Legal moves at the node (its children once expanded).
    children: u8,
    /// Children that have been visited: the first `tried` of the range.
    tried: u8,
    /// Whether the children exist.
    expanded: bool,
}

impl Node {
    const fn new(played: Move) -> Node {
        Node {
            first: 0,
            visits: 0,
            score: 0,
            played,
            children: 0,
            tried: 0,
            expanded: false,
        }
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Search {
    /// The move to play: the root's most visited child (the lowest move among equals).
    pub best: Move,
    /// Playouts run.
    pub playouts: u64,
    /// The mean result of the best move's playouts for the side to move, in `0..=1` (1 a win,
    /// 1/2 a draw); 1 when the move wins at once.
    pub value: f64,
    /// Whether the stop condition ended the search before the playout budget.
    pub cut: bool,
}

impl Search {
    /// The answer without a search when `best` wins the game at once.
    const fn winning(best: Move) -> Search {
        Search {
            best,
            playouts: 0,
            value: 1.0,
            cut: false,
        }
    }
}

/// A UCT search with its tree, kept between moves so that its memory is reused (the tree is
/// built anew for each move).
#[derive(Clone, Debug)]
pub struct Mcts {
    exploration: f64,
    tree: Vec<Node>,
    /// `roots[n]` = `sqrt(n)` for the visit counts below [`SQRT_TABLE`], made at the first
    /// search: the same values as [`sqrt`], without its divisions in the selection loop.
    roots: Vec<f64>,
}

/// The most nodes a tree holds (16 bytes each: 128 MiB). A search that reaches it goes on
/// without growing the tree: its playouts then start at the leaves it has.
pub const MAX_NODES: usize = 1 << 23;

/// Visit counts whose square roots [`Mcts`] keeps in a table (32 KiB).
const SQRT_TABLE: usize = 4096;

impl Default for Mcts {
    fn default() -> Mcts {
        Mcts::new()
    }
}

impl Mcts {
    /// A search with the exploration constant [`EXPLORATION`].
    #[must_use]
    pub const fn new() -> Mcts {
        Mcts {
            exploration: EXPLORATION,
            tree: Vec::new(),
            roots: Vec::new(),
        }
    }

    /// A search with exploration constant `c` (UCB1's weight of the exploration term, results
    /// in `0..=1`); a negative or non-finite `c` is taken as 0.
    #[must_use]
    pub fn with_exploration(c: f64) -> Mcts {
        Mcts {
            exploration: if c.is_finite() && c > 0.0 { c } else { 0.0 },
            tree: Vec::new(),
            roots: Vec::new(),
        }
    }

    /// The exploration constant.
    #[must_use]
    pub const fn exploration(&self) -> f64 {
        self.exploration
    }

    /// Searches `position` with up to `playouts` playouts (at least one), stopping early when
    /// `stop` returns true (asked every [`STOP_EVERY`] playouts after the first). `None` once
    /// the game is over.
    pub fn search<R: RngCore + ?Sized>(
        &mut self,
        position: &Position,
        playouts: u64,
        rng: &mut R,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<Search> {
        if let Some(best) = winning_move(position) {
            return Some(Search::winning(best));
        }
        let mut ran = 0;
        let mut cut = false;
        self.start(position)?;
        while ran < playouts.max(1) {
            if ran > 0 && ran % STOP_EVERY == 0 && stop() {
                cut = true;
                break;
            }
            self.playout(position, rng);
            ran += 1;
        }
        let best = self.best()?;
        let node = self.tree[best];
        Some(Search {
            best: node.played,
            playouts: ran,
            value: f64::from(node.score) / (2.0 * f64::from(node.visits.max(1))),
            cut,
        })
    }

    /// The visits and half-point scores of the root's children after the last search, by move
    /// (moves not searched are absent).
    pub fn root_children(&self) -> impl Iterator<Item = (Move, u32, u32)> + '_ {
        let root = self.tree.first().copied();
        let range = root.map_or(0..0, |r| {
            r.first as usize..r.first as usize + r.tried as usize
        });
        self.tree[range]
            .iter()
            .map(|node| (node.played, node.visits, node.score))
    }

    /// A fresh tree with the root expanded; `None` when the game is over.
    fn start(&mut self, position: &Position) -> Option<()> {
        if position.status().is_finished() {
            return None;
        }
        if self.roots.is_empty() {
            self.roots = (0..SQRT_TABLE).map(|n| sqrt(n as f64)).collect();
        }
        self.tree.clear();
        self.tree.push(Node::new(Move::from_parts(0, 0)));
        Some(())
    }

    /// The root's most visited child (lowest move first among equals), as a tree index.
    fn best(&self) -> Option<usize> {
        let root = self.tree.first()?;
        let range = root.first as usize..root.first as usize + root.tried as usize;
        let mut best: Option<usize> = None;
        for i in range {
            let node = self.tree[i];
            let better = best.is_none_or(|b| {
                let current = self.tree[b];
                (node.visits, core::cmp::Reverse(node.played))
                    > (current.visits, core::cmp::Reverse(current.played))
            });
            if better {
                best = Some(i);
            }
        }
        best
    }

    /// One playout from the root: select, expand one move, play at random, back up.
    fn playout<R: RngCore + ?Sized>(&mut self, root: &Position, rng: &mut R) {
        let mut position = *root;
        let mut path: [u32; 82] = [0; 82];
        let mut depth = 0;
        let mut node = 0usize;
        loop {
            if position.status().is_finished() {
                break;
            }
            if !self.tree[node].expanded {
                if self.tree.len() + Move::COUNT > MAX_NODES {
                    break;
                }
                self.expand(node, &position, rng);
            }
            let n = self.tree[node];
            let child = if n.tried < n.children {
                // The next untried child, in the shuffled order of the expansion.
                self.tree[node].tried += 1;
                n.first as usize + n.tried as usize
            } else {
                self.select(node)
            };
            position.play_unchecked(self.tree[child].played);
            depth += 1;
            path[depth] = child as u32;
            node = child;
            if self.tree[child].visits == 0 {
                break;
            }
        }
        let status = position.play_random(rng);
        // The side that moved into the last node: the one to move at the leaf's parent.
        let leaf_mover = match depth % 2 {
            1 => root.to_move(),
            _ => root.to_move().map(Player::opponent),
        };
        for (steps_up, &index) in path[..=depth].iter().rev().enumerate() {
            // The mover into the node `steps_up` above the leaf alternates.
            let mover = if steps_up % 2 == 0 {
                leaf_mover
            } else {
                leaf_mover.map(Player::opponent)
            };
            let score = match (status, mover) {
                (Status::Won(winner), Some(mover)) if winner == mover => 2,
                (Status::Won(_), _) => 0,
                _ => 1,
            };
            let node = &mut self.tree[index as usize];
            node.visits += 1;
            node.score += score;
        }
    }

    /// Creates the children of `node` (at `position`), the legal moves in a random order.
    fn expand<R: RngCore + ?Sized>(&mut self, node: usize, position: &Position, rng: &mut R) {
        let first = self.tree.len();
        self.tree
            .extend(position.legal_moves().iter().map(Node::new));
        let count = self.tree.len() - first;
        // Fisher-Yates over the new children.
        for i in (1..count).rev() {
            let j = rng.random_range(0..=i);
            self.tree.swap(first + i, first + j);
        }
        let n = &mut self.tree[node];
        n.first = first as u32;
        n.children = count as u8;
        n.expanded = true;
    }

    /// The child of a fully tried `node` with the highest UCB1 score (the first among equals).
    fn select(&self, node: usize) -> usize {
        let n = self.tree[node];
        let first = n.first as usize;
        let weight = self.exploration * sqrt(ln(f64::from(n.visits.max(1))));
        let mut best = (f64::NEG_INFINITY, first);
        for i in first..first + n.children as usize {
            let child = self.tree[i];
            let visits = f64::from(child.visits);
            let root = match self.roots.get(child.visits as usize) {
                Some(&root) => root,
                None => sqrt(visits),
            };
            let ucb = f64::from(child.score) / (2.0 * visits) + weight / root;
            if ucb > best.0 {
                best = (ucb, i);
            }
        }
        best.1
    }
}

/// A legal move that wins the game at once, if there is one (the lowest); each move asked
/// with [`Position::status_after`], nothing played.
#[must_use]
pub fn winning_move(position: &Position) -> Option<Move> {
    let mover = position.to_move()?;
    position
        .legal_moves()
        .iter()
        .find(|&played| position.status_after(played) == Status::Won(mover))
}

/// `sqrt(x)` for `x >= 0`, to the last bit or one off: Newton's method from the halved
/// exponent.
fn sqrt(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return if x == f64::INFINITY { x } else { 0.0 };
    }
    let mut y = f64::from_bits((x.to_bits() >> 1) + (1023u64 << 51));
    for _ in 0..5 {
        y = 0.5 * (y + x / y);
    }
    y
}

/// `ln(x)` for `x > 0` (0 for `x <= 0`): `x = m * 2^e` with `m` in `[sqrt(1/2), sqrt(2))`,
/// `ln m = 2 atanh((m - 1) / (m + 1))` by its series.
fn ln(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return 0.0;
    }
    let bits = x.to_bits();
    let mut exponent = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
    if m > core::f64::consts::SQRT_2 {
        m *= 0.5;
        exponent += 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut term = s;
    let mut sum = 0.0;
    let mut k = 1.0;
    while k < 40.0 {
        sum += term / k;
        term *= s2;
        k += 2.0;
    }
    2.0 * sum + exponent as f64 * core::f64::consts::LN_2
}

/// Root parallelisation: one [`Mcts`] per thread, each with its own generator (seed
/// `seed + i` for thread `i`) and `playouts` playouts, from the same root; the root children's
/// visits are added over the threads and the most visited move is played (the lowest move
/// among equals). Every thread asks `stop` every [`STOP_EVERY`] playouts. With a playout budget
/// and no stop the result depends only on the position, `playouts`, `threads` and `seed`.
/// `None` once the game is over.
#[cfg(feature = "std")]
#[must_use]
pub fn parallel(
    position: &Position,
    settings: Settings,
    stop: &(dyn Fn() -> bool + Sync),
) -> Option<Search> {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    if let Some(best) = winning_move(position) {
        return Some(Search::winning(best));
    }
    position.to_move()?;
    let threads = settings.threads.max(1);
    let results: Vec<RootStats> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|i| {
                scope.spawn(move || {
                    let mut mcts = Mcts::with_exploration(settings.exploration);
                    let mut rng = SmallRng::seed_from_u64(settings.seed.wrapping_add(u64::from(i)));
                    let search = mcts.search(position, settings.playouts, &mut rng, &mut || stop());
                    let mut table = [(0u32, 0u32); 81];
                    for (played, visits, score) in mcts.root_children() {
                        table[played.index()] = (visits, score);
                    }
                    let (playouts, cut) = search.map_or((0, false), |s| (s.playouts, s.cut));
                    (table, playouts, cut)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a search thread does not panic"))
            .collect()
    });
    let mut total = [(0u64, 0u64); 81];
    let (mut playouts, mut cut) = (0, false);
    for (table, ran, stopped) in &results {
        for (sum, &(visits, score)) in total.iter_mut().zip(table) {
            sum.0 += u64::from(visits);
            sum.1 += u64::from(score);
        }
        playouts += ran;
        cut |= stopped;
    }
    let legal = position.legal_moves();
    let best = legal
        .iter()
        .max_by_key(|m| (total[m.index()].0, core::cmp::Reverse(*m)))?;
    let (visits, score) = total[best.index()];
    Some(Search {
        best,
        playouts,
        value: score as f64 / (2.0 * visits.max(1) as f64),
        cut,
    })
}

/// What one thread of [`parallel`] reports: each root move's visits and half-point score, the
/// playouts run, whether a stop cut the search.
#[cfg(feature = "std")]
type RootStats = ([(u32, u32); 81], u64, bool);

/// The settings of [`parallel`].
#[cfg(feature = "std")]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Playouts per thread and move (the budget; a stop can end the search sooner).
    pub playouts: u64,
    /// Threads, each with its own tree (0 is taken as 1).
    pub threads: u32,
    /// The seed of thread 0; thread `i` uses `seed + i`.
    pub seed: u64,
    /// UCB1's exploration constant.
    pub exploration: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    #[test]
    fn ln_and_sqrt_match_std() {
        for x in [1e-9, 0.3, 0.5, 1.0, 1.5, 2.0, 3.0, 10.0, 1234.5, 1e6, 4e9] {
            assert!(
                (ln(x) - x.ln()).abs() <= 1e-12 * x.ln().abs().max(1.0),
                "ln {x}"
            );
            assert!((sqrt(x) - x.sqrt()).abs() <= 1e-14 * x.sqrt(), "sqrt {x}");
        }
        assert_eq!(sqrt(0.0), 0.0);
        assert_eq!(ln(1.0), 0.0);
    }

    #[test]
    fn visits_add_up_and_the_budget_is_kept() {
        let mut mcts = Mcts::new();
        let mut rng = SmallRng::seed_from_u64(3);
        let search = mcts
            .search(&Position::EMPTY, 5_000, &mut rng, &mut || false)
            .unwrap();
        assert_eq!(search.playouts, 5_000);
        let visits: u32 = mcts.root_children().map(|(_, v, _)| v).sum();
        assert_eq!(visits, 5_000);
        assert_eq!(mcts.tree[0].visits, 5_000);
        // Every root child was tried before any was tried twice: 81 children.
        assert_eq!(mcts.root_children().count(), 81);
        let best = mcts.root_children().map(|(_, v, _)| v).max().unwrap();
        let chosen = mcts
            .root_children()
            .find(|(m, _, _)| *m == search.best)
            .unwrap();
        assert_eq!(chosen.1, best);
    }

    #[test]
    fn nodes_are_sixteen_bytes() {
        assert_eq!(core::mem::size_of::<Node>(), 16);
    }

    #[test]
    fn a_stop_ends_the_search_and_says_so() {
        let mut calls = 0;
        let mut mcts = Mcts::new();
        let mut rng = SmallRng::seed_from_u64(3);
        let search = mcts
            .search(&Position::EMPTY, 1_000_000, &mut rng, &mut || {
                calls += 1;
                calls == 3
            })
            .unwrap();
        assert!(search.cut);
        assert_eq!(search.playouts, 3 * STOP_EVERY);
    }

    #[test]
    fn parallel_adds_the_threads_and_is_reproducible() {
        let settings = Settings {
            playouts: 1_000,
            threads: 2,
            seed: 9,
            exploration: EXPLORATION,
        };
        let a = parallel(&Position::EMPTY, settings, &|| false).unwrap();
        let b = parallel(&Position::EMPTY, settings, &|| false).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.playouts, 2_000);
        // One thread of the parallel search is the single-threaded search of its seed.
        let one = parallel(
            &Position::EMPTY,
            Settings {
                threads: 1,
                ..settings
            },
            &|| false,
        );
        let single = Mcts::new().search(
            &Position::EMPTY,
            1_000,
            &mut SmallRng::seed_from_u64(9),
            &mut || false,
        );
        assert_eq!(one.map(|s| s.best), single.map(|s| s.best));
    }
}
