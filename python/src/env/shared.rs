//! What the three kernels (3 × 3 in [`super::rules`], the family in [`super::family`], ultimate
//! in [`super::ultimate`]) share, in plain Rust (no Python; the tests below run without an
//! interpreter): the conventions and their settings, the seven output fields of the one buffer
//! and where each lives ([`Layout`]), the rewards and flags of an outcome
//! ([`Convention::score`]), the seat draw and the viewer; and the step driver of the family and
//! ultimate kernels ([`Steps`]: [`start`], [`step`], [`finish`] and their loops over a batch),
//! which scores, auto-resets, keeps the pending and quiet flags and decides what is written
//! whole or in place, over each kernel's own rules, moves and observation writers.
//!
//! Where the kernels differ, and why: the observation (`(3, 3, 2)` planes, `(rows, cols, 2)`
//! planes, ultimate's `(3, 9, 9)` planes or pyspiel's `float32` tensor) and the action count
//! are each kernel's own, given to [`Layout::new`]; the 3 × 3 kernel rewrites a game's
//! observation whole after each move (18 bytes, two table lookups) and writes its rewards every
//! step, while the family and ultimate kernels update observations in place and skip writing
//! "going on, no reward" twice ([`score_unless_quiet`]); ultimate's viewer after an illegal
//! move is the mover in every convention (its lockstep peer, pyspiel, has no illegal moves),
//! the others follow pgx and PettingZoo ([`Convention::viewer`]).

use super::tables::splitmix;

/// Whose rules the kernel follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    Pgx,
    PettingZoo,
    Gym,
}

/// What happens to a game after it ends (Gymnasium's `AutoresetMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Autoreset {
    /// The next step resets it and ignores the action.
    NextStep,
    /// It is reset in the step that ended it; its last observation goes to `final_obs`.
    SameStep,
    /// Only `reset` starts it again; steps on it change nothing.
    Disabled,
}

/// Who plays X.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    Zero,
    One,
    Random,
}

/// What a game waits for from an external opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pending {
    None,
    /// A move in the middle of a step: its outcome is this step's.
    InStep,
    /// The first move of a new game (the agent is O): the step's outcome is already written.
    AfterReset,
}

/// How a move ended, if it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ongoing,
    /// The player with this id won (or the other moved illegally).
    Won(u8),
    Draw,
    /// The player with this id moved illegally.
    Illegal(u8),
}

impl Seat {
    /// The id (0 or 1) that plays X in a game starting now; a random seat draws from `rng`.
    #[inline(always)]
    pub fn draw(self, rng: &mut u64) -> u8 {
        match self {
            Seat::Zero => 0,
            Seat::One => 1,
            Seat::Random => (splitmix(rng) >> 63) as u8,
        }
    }
}

impl Convention {
    /// The id whose view the observation shows, `mover` giving the id to move (asked only
    /// when needed): the agent (gym);
    /// else the player to move, as the peers hand the turn on after an illegal move:
    /// PettingZoo to `player_1` (its wrapper's `_deads_step_first`), pgx to the other player
    /// (its step ran before the penalty), while our board stays as it was.
    #[inline(always)]
    pub fn viewer(self, mover: impl FnOnce() -> u8, outcome: Outcome) -> u8 {
        match (self, outcome) {
            (Convention::Gym, _) => 0,
            (Convention::PettingZoo, Outcome::Illegal(_)) => 0,
            (Convention::Pgx, Outcome::Illegal(_)) => 1 - mover(),
            _ => mover(),
        }
    }

    /// Writes the rewards (by player id) and flags of `outcome` for game `i`: a win is +1 and
    /// -1, a draw 0 and 0; an illegal move is scored as each peer scores it (pgx: mover -1,
    /// other +1; PettingZoo: mover -1, other 0, truncated too; gym: the agent's
    /// `illegal_reward`).
    #[inline(always)]
    pub fn score(self, illegal_reward: f32, outcome: Outcome, i: usize, out: &mut Out<'_>) {
        let (r, ended, truncated) = match outcome {
            Outcome::Ongoing => ([0.0, 0.0], false, false),
            Outcome::Draw => ([0.0, 0.0], true, false),
            Outcome::Won(0) => ([1.0, -1.0], true, false),
            Outcome::Won(_) => ([-1.0, 1.0], true, false),
            Outcome::Illegal(id) => {
                let (mover, other, truncated) = match self {
                    Convention::Pgx => (-1.0, 1.0, false),
                    Convention::PettingZoo => (-1.0, 0.0, true),
                    Convention::Gym => (illegal_reward, 0.0, false),
                };
                let r = if id == 0 {
                    [mover, other]
                } else {
                    [other, mover]
                };
                (r, true, truncated)
            }
        };
        out.rewards[8 * i..8 * i + 4].copy_from_slice(&r[0].to_ne_bytes());
        out.rewards[8 * i + 4..8 * i + 8].copy_from_slice(&r[1].to_ne_bytes());
        out.terminated[i] = u8::from(ended);
        out.truncated[i] = u8::from(truncated);
    }
}

/// [`Convention::score`], skipped when the game's fields already say "going on, no reward"
/// (`quiet`, which this keeps up to date): most steps of a long game write nothing here.
#[inline(always)]
pub fn score_unless_quiet(
    quiet: &mut bool,
    convention: Convention,
    illegal_reward: f32,
    outcome: Outcome,
    i: usize,
    out: &mut Out<'_>,
) {
    let ongoing = outcome == Outcome::Ongoing;
    if ongoing && *quiet {
        return;
    }
    *quiet = ongoing;
    convention.score(illegal_reward, outcome, i, out);
}

/// The bookkeeping of one game that the step driver ([`Steps`]) reads and writes; each
/// kernel's game keeps these as fields of its own.
pub trait Slot {
    /// Ended and not yet reset; what the game waits for from an external opponent; whether
    /// the game's rewards and flags in the buffer are zero (it goes on, no reward).
    fn flags(&mut self) -> (&mut bool, &mut Pending, &mut bool);

    /// Makes player id `first` X in a game on an empty board.
    fn seat(&mut self, first: u8);

    #[inline(always)]
    fn done(&mut self) -> &mut bool {
        self.flags().0
    }

    #[inline(always)]
    fn pending(&mut self) -> &mut Pending {
        self.flags().1
    }

    #[inline(always)]
    fn quiet(&mut self) -> &mut bool {
        self.flags().2
    }
}

/// What the driver reads of a kernel's settings: the convention, the auto-reset mode, the
/// gym convention's reward for an illegal move, and the bytes of one game's observation.
pub type Settings = (Convention, Autoreset, f32, usize);

/// One kernel's rules as the step driver uses them: the driver ([`start`], [`step`],
/// [`finish`] and their loops over a batch) scores, auto-resets and decides what is written
/// whole or in place, the same for every kernel; the kernel says how a game restarts, how a
/// move is played and how its fields are written.
pub trait Steps {
    type Game: Slot;
    /// What a step marked, for [`Steps::advance`] to update the fields in place.
    type Marks;
    /// No mark (the external opponent's move is written whole).
    const NO_MARKS: Self::Marks;

    fn settings(&self) -> Settings;
    /// Starts `game` again: empty board, seat drawn, and the opponent opens if it is X (gym
    /// convention; an external one leaves the game pending).
    fn restart(&mut self, game: &mut Self::Game);
    /// Plays `action` (below the number of actions) for the mover of a game in play, then
    /// in the gym convention the opponent's answer while the game goes on: the outcome and
    /// the marks, or `None` when the game now waits for an external opponent.
    fn play(&mut self, game: &mut Self::Game, action: usize) -> Option<(Outcome, Self::Marks)>;
    /// Plays the external opponent's `action`: the outcome (`Illegal` when it is illegal).
    fn play_external(&mut self, game: &mut Self::Game, action: usize) -> Outcome;
    /// Writes the observation, mask and player of game `i` whole (the slow twin of
    /// [`Steps::advance`]).
    fn observe(&self, game: &Self::Game, outcome: Outcome, i: usize, out: &mut Out<'_>);
    /// Game `i` goes on after `marks`: its observation and mask updated in place.
    fn advance(&self, game: &Self::Game, marks: &Self::Marks, i: usize, out: &mut Out<'_>);
    /// The observation and mask of game `i`, which `marks` just ended with `outcome`.
    fn observe_end(
        &self,
        game: &Self::Game,
        outcome: Outcome,
        marks: &Self::Marks,
        i: usize,
        out: &mut Out<'_>,
    );
}

/// Writes the rewards and flags of `outcome` for game `i`, unless the game's fields already
/// say "going on, no reward" ([`score_unless_quiet`]).
#[inline(always)]
fn score<S: Steps>(s: &S, game: &mut S::Game, outcome: Outcome, i: usize, out: &mut Out<'_>) {
    let (convention, _, reward, _) = s.settings();
    score_unless_quiet(game.quiet(), convention, reward, outcome, i, out);
}

/// Starts game `i` and writes its fields whole (not the observation of a game that waits for
/// an external opponent's first move).
pub fn start<S: Steps>(s: &mut S, game: &mut S::Game, i: usize, out: &mut Out<'_>) {
    s.restart(game);
    score(s, game, Outcome::Ongoing, i, out);
    if *game.pending() == Pending::None {
        s.observe(game, Outcome::Ongoing, i, out);
    }
}

/// Finishes step `i` once the game's moves are made: outcome, then auto-reset.
#[inline(always)]
fn conclude<S: Steps>(
    s: &mut S,
    game: &mut S::Game,
    outcome: Outcome,
    marks: &S::Marks,
    i: usize,
    out: &mut Out<'_>,
) {
    score(s, game, outcome, i, out);
    if outcome == Outcome::Ongoing {
        s.advance(game, marks, i, out);
        return;
    }
    let (_, autoreset, _, ob) = s.settings();
    match autoreset {
        Autoreset::SameStep => {
            s.observe_end(game, outcome, marks, i, out);
            out.final_obs[ob * i..ob * (i + 1)].copy_from_slice(&out.obs[ob * i..ob * (i + 1)]);
            s.restart(game);
            if *game.pending() == Pending::None {
                s.observe(game, Outcome::Ongoing, i, out);
            }
        }
        Autoreset::NextStep | Autoreset::Disabled => {
            *game.done() = true;
            s.observe_end(game, outcome, marks, i, out);
        }
    }
}

/// One step of game `i` with `action` (below the number of actions).
#[inline(always)]
pub fn step<S: Steps>(s: &mut S, game: &mut S::Game, action: usize, i: usize, out: &mut Out<'_>) {
    if *game.done() {
        match s.settings().1 {
            Autoreset::NextStep => start(s, game, i, out),
            // A finished game stays as it is, with no reward (pgx's rule).
            _ => out.rewards[8 * i..8 * i + 8].fill(0),
        }
        return;
    }
    if let Some((outcome, marks)) = s.play(game, action) {
        conclude(s, game, outcome, &marks, i, out);
    }
}

/// The external opponent's move in game `i`; `false` when it is illegal.
pub fn finish<S: Steps>(
    s: &mut S,
    game: &mut S::Game,
    action: usize,
    i: usize,
    out: &mut Out<'_>,
) -> bool {
    let pending = std::mem::replace(game.pending(), Pending::None);
    match s.play_external(game, action) {
        Outcome::Illegal(_) => return false,
        Outcome::Ongoing => {
            if pending == Pending::InStep {
                score(s, game, Outcome::Ongoing, i, out);
            }
            // Whole: the agent's move of this step was not written either.
            s.observe(game, Outcome::Ongoing, i, out);
        }
        // The opponent's first move cannot end a game; one in a step ends it.
        outcome => conclude(s, game, outcome, &S::NO_MARKS, i, out),
    }
    true
}

/// Starts the games where `mask` is true (all when `None`), game `i` made anew by
/// `new(seeds[i])` first when `seeds` is given.
pub fn reset_all<S: Steps>(
    s: &mut S,
    games: &mut [S::Game],
    seeds: Option<&[u64]>,
    mask: Option<&[bool]>,
    new: impl Fn(u64) -> S::Game,
    out: &mut Out<'_>,
) {
    for (i, game) in games.iter_mut().enumerate() {
        if mask.is_some_and(|m| !m[i]) {
            continue;
        }
        if let Some(seeds) = seeds {
            *game = new(seeds[i]);
        }
        start(s, game, i, out);
    }
}

/// One step of every game, game `i` with `actions[i]`.
#[inline(always)]
pub fn step_all<S: Steps>(s: &mut S, games: &mut [S::Game], actions: &[usize], out: &mut Out<'_>) {
    step_all_then(s, games, actions, out, &mut ());
}

/// What [`step_all_then`] does with each game right after its step, while the game is at
/// hand (the ultimate kernel draws the next `sample_actions` there: `super::ultimate`'s
/// `Ahead`). A trait rather than a closure so that it is inlined into the loop (also into
/// a loop compiled with more target features than it).
pub trait After<S: Steps> {
    fn after(&mut self, s: &S, game: &mut S::Game, i: usize);
}

/// Nothing after the step.
impl<S: Steps> After<S> for () {
    #[inline(always)]
    fn after(&mut self, _: &S, _: &mut S::Game, _: usize) {}
}

/// [`step_all`], then `after` on each game once it has stepped.
#[inline(always)]
pub fn step_all_then<S: Steps>(
    s: &mut S,
    games: &mut [S::Game],
    actions: &[usize],
    out: &mut Out<'_>,
    after: &mut impl After<S>,
) {
    for (i, (game, &action)) in games.iter_mut().zip(actions).enumerate() {
        step(s, game, action, i, out);
        after.after(s, game, i);
    }
}

/// The external opponent's `actions[i]` in each pending game `i`: the first game whose move
/// is illegal, if any.
pub fn finish_all<S: Steps>(
    s: &mut S,
    games: &mut [S::Game],
    actions: &[usize],
    out: &mut Out<'_>,
) -> Option<usize> {
    let mut illegal = None;
    for (i, (game, &action)) in games.iter_mut().zip(actions).enumerate() {
        if *game.pending() != Pending::None && !finish(s, game, action, i, out) {
            illegal.get_or_insert(i);
        }
    }
    illegal
}

/// Makes `first[i]` the id that plays X in each game `i` where `mask[i]` (on empty boards,
/// checked by the caller) and rewrites its fields.
pub fn seat_all<S: Steps>(
    s: &S,
    games: &mut [S::Game],
    first: &[i32],
    mask: &[bool],
    out: &mut Out<'_>,
) {
    for (i, game) in games.iter_mut().enumerate() {
        if mask[i] {
            game.seat(first[i] as u8);
            s.observe(game, Outcome::Ongoing, i, out);
        }
    }
}

/// A plan of random games for the tests of the kernels' rules ([`play_random`]).
#[cfg(test)]
pub struct Random {
    /// Steps of every game.
    pub steps: usize,
    /// One action in `wild` (about) is any action below `actions`, legal or not; the others
    /// are sampled legal actions.
    pub wild: u64,
    pub actions: usize,
    /// The seed of the stream that picks them.
    pub seed: u64,
}

/// One step [`play_random`] made: the game after it and before it, the action, the game's
/// index, the step's number and the fields.
#[cfg(test)]
pub struct Played<'a, G> {
    pub game: &'a G,
    pub before: &'a G,
    pub action: usize,
    pub i: usize,
    pub step: usize,
    pub out: Out<'a>,
}

/// Starts `games` and steps them through the driver as `plan` says, `sample` drawing the
/// legal actions; `check` looks at the kernel and what each step made.
#[cfg(test)]
pub fn play_random<S: Steps>(
    s: &mut S,
    games: &mut [S::Game],
    layout: &Layout,
    plan: &Random,
    sample: impl Fn(&S, &mut S::Game) -> i64,
    mut check: impl FnMut(&S, Played<'_, S::Game>),
) where
    S::Game: Clone,
{
    let mut bytes = vec![0u8; layout.offsets().1];
    for (i, game) in games.iter_mut().enumerate() {
        start(s, game, i, &mut layout.split(&mut bytes));
    }
    let mut rng = plan.seed;
    for step in 0..plan.steps {
        for (i, game) in games.iter_mut().enumerate() {
            let random = splitmix(&mut rng);
            let action = if random.is_multiple_of(plan.wild) {
                (random >> 32) as usize % plan.actions
            } else {
                sample(s, game) as usize
            };
            let before = game.clone();
            self::step(s, game, action, i, &mut layout.split(&mut bytes));
            let out = layout.split(&mut bytes);
            let (game, before) = (&*game, &before);
            check(
                s,
                Played {
                    game,
                    before,
                    action,
                    i,
                    step,
                    out,
                },
            );
        }
    }
}

/// Writes `viewer` as the `player` field of game `i`.
#[inline(always)]
pub fn write_player(out: &mut Out<'_>, i: usize, viewer: u8) {
    out.player[4 * i..4 * i + 4].copy_from_slice(&i32::from(viewer).to_ne_bytes());
}

/// The output fields of one step: byte ranges of the kernel's one buffer (see [`Layout`]).
pub struct Out<'a> {
    pub obs: &'a mut [u8],
    pub mask: &'a mut [u8],
    /// `f32` pairs, native byte order.
    pub rewards: &'a mut [u8],
    /// numpy bools: one byte, 0 or 1.
    pub terminated: &'a mut [u8],
    pub truncated: &'a mut [u8],
    /// `i32`, native byte order.
    pub player: &'a mut [u8],
    pub final_obs: &'a mut [u8],
}

impl Out<'_> {
    /// The observation, mask and player of game `i`, whose observation takes `ob` bytes and
    /// mask `a` (for tests that hold a kernel's fields updated in place to the fields written
    /// whole).
    #[cfg(test)]
    pub fn view(&self, i: usize, ob: usize, a: usize) -> (&[u8], &[u8], &[u8]) {
        (
            &self.obs[ob * i..ob * (i + 1)],
            &self.mask[a * i..a * (i + 1)],
            &self.player[4 * i..4 * i + 4],
        )
    }
}

/// Where each field of `n` games lives in a kernel's buffer: one numpy allocation, so that a
/// step borrows one array instead of seven (the borrow checks dominate a step of one game).
/// Offsets are aligned to 8 bytes.
#[derive(Clone, Debug)]
pub struct Layout {
    pub n: usize,
    /// Bytes a game of each field, in [`Layout::NAMES`] order.
    bytes: [usize; 7],
    obs_dtype: &'static str,
    obs_shape: Vec<usize>,
}

impl Layout {
    /// The fields in buffer order.
    pub const NAMES: [&'static str; 7] = [
        "obs",
        "mask",
        "rewards",
        "terminated",
        "truncated",
        "player",
        "final_obs",
    ];

    /// The layout of `n` games whose observations (and final observations) are `obs_dtype`
    /// (`"uint8"` or `"float32"`) arrays of `obs_shape` and whose masks have `actions` bytes.
    pub fn new(n: usize, obs_dtype: &'static str, obs_shape: &[usize], actions: usize) -> Layout {
        let item = if obs_dtype == "float32" { 4 } else { 1 };
        let obs = item * obs_shape.iter().product::<usize>();
        Layout {
            n,
            bytes: [obs, actions, 8, 1, 1, 4, obs],
            obs_dtype,
            obs_shape: obs_shape.to_vec(),
        }
    }

    /// Bytes of one game's observation.
    #[cfg(test)]
    pub fn obs_bytes(&self) -> usize {
        self.bytes[0]
    }

    /// The byte offset of each field, then the total size.
    pub fn offsets(&self) -> ([usize; 7], usize) {
        let mut offsets = [0; 7];
        let mut at = 0usize;
        for (k, bytes) in self.bytes.iter().enumerate() {
            at = at.next_multiple_of(8);
            offsets[k] = at;
            at += bytes * self.n;
        }
        (offsets, at)
    }

    /// Splits the buffer into the fields.
    pub fn split<'a>(&self, buffer: &'a mut [u8]) -> Out<'a> {
        let (offsets, _) = self.offsets();
        let mut rest = buffer;
        let mut taken = 0;
        let mut parts: [&mut [u8]; 7] = Default::default();
        for (k, part) in parts.iter_mut().enumerate() {
            let (_, tail) = rest.split_at_mut(offsets[k] - taken);
            let (field, tail) = tail.split_at_mut(self.bytes[k] * self.n);
            taken = offsets[k] + field.len();
            *part = field;
            rest = tail;
        }
        let [obs, mask, rewards, terminated, truncated, player, final_obs] = parts;
        Out {
            obs,
            mask,
            rewards,
            terminated,
            truncated,
            player,
            final_obs,
        }
    }

    /// `(name, offset, dtype, shape)` of each field, the shape starting with `n`.
    pub fn fields(&self) -> Vec<(&'static str, usize, &'static str, Vec<usize>)> {
        let (offsets, _) = self.offsets();
        let actions = self.bytes[1];
        let dtypes = [
            self.obs_dtype,
            "uint8",
            "float32",
            "bool",
            "bool",
            "int32",
            self.obs_dtype,
        ];
        let shapes: [&[usize]; 7] = [
            &self.obs_shape,
            &[actions],
            &[2],
            &[],
            &[],
            &[],
            &self.obs_shape,
        ];
        (0..7)
            .map(|k| {
                let mut shape = vec![self.n];
                shape.extend_from_slice(shapes[k]);
                (Layout::NAMES[k], offsets[k], dtypes[k], shape)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_fields_are_aligned_disjoint_and_sized_by_their_shape() {
        for (dtype, shape, actions) in [
            ("uint8", &[3, 3, 2][..], 9),
            ("uint8", &[6, 7, 2][..], 7),
            ("float32", &[254][..], 9),
        ] {
            for n in [1, 3, 7, 4096] {
                let layout = Layout::new(n, dtype, shape, actions);
                let (offsets, total) = layout.offsets();
                let mut end = 0;
                for (k, (name, offset, dtype, shape)) in layout.fields().into_iter().enumerate() {
                    assert_eq!((name, offset), (Layout::NAMES[k], offsets[k]));
                    assert!(offset >= end && offset % 8 == 0, "{name}");
                    let item = match dtype {
                        "float32" | "int32" => 4,
                        _ => 1,
                    };
                    end = offset + item * shape.iter().product::<usize>();
                }
                assert_eq!(end, total);
                let mut buffer = vec![0u8; total];
                let out = layout.split(&mut buffer);
                assert_eq!(out.obs.len(), n * layout.obs_bytes());
                assert_eq!((out.mask.len(), out.rewards.len()), (n * actions, 8 * n));
                assert_eq!(out.final_obs.len(), n * layout.obs_bytes());
            }
        }
    }

    #[test]
    fn a_quiet_game_is_not_scored_again() {
        let layout = Layout::new(1, "uint8", &[3, 3, 2], 9);
        let mut buffer = vec![0u8; layout.offsets().1];
        let mut quiet = false;
        let mut score = |outcome, buffer: &mut [u8]| {
            let out = &mut layout.split(buffer);
            score_unless_quiet(&mut quiet, Convention::Gym, -3.0, outcome, 0, out);
            quiet
        };
        assert!(!score(Outcome::Illegal(0), &mut buffer));
        assert!(score(Outcome::Ongoing, &mut buffer));
        assert_eq!(layout.split(&mut buffer).terminated[0], 0);
        // Quiet: the fields are not written, whatever they hold.
        layout.split(&mut buffer).terminated[0] = 7;
        score(Outcome::Ongoing, &mut buffer);
        assert_eq!(layout.split(&mut buffer).terminated[0], 7);
    }

    #[test]
    fn a_random_seat_draws_both_ids() {
        let mut rng = 1;
        let ids: Vec<u8> = (0..64).map(|_| Seat::Random.draw(&mut rng)).collect();
        assert!(ids.contains(&0) && ids.contains(&1));
        assert_eq!(
            (Seat::Zero.draw(&mut rng), Seat::One.draw(&mut rng)),
            (0, 1)
        );
    }
}
