//! An exact endgame solver: negamax alpha-beta to the end of the game.
//!
//! # Score
//! The final disc difference from the side to move, with the empty squares of a game that ends
//! before the board is full going to the winner (the usual convention, e.g. of the World
//! Othello Federation's rules and of Edax): `mine - theirs + empties` if the side to move wins,
//! `mine - theirs - empties` if it loses, `0` for a draw. Scores lie in `-N*N..=N*N`.
//!
//! # Search
//! - **Fail-soft alpha-beta with principal-variation search** (null windows after the first
//!   move, re-searched on a fail-high), on the two bitboards directly (no hash, no move list).
//! - **Root aspiration** ([`Options::aspiration`]): a full-window solve first searches the
//!   window of width 4 around a guess (a shallow search of the root with the presort's
//!   evaluation, rounded to an even score; 0 below [`Options::presort_from`] empties), then,
//!   from the fail-soft bound it returns, windows of width 8, 16, ... on the failing side
//!   until the score falls inside. The table keeps every proved bound, so re-searches are
//!   cheap.
//! - **Presort** ([`Options::presort_from`], 14 or more empties; `endgame/presort.rs`): each
//!   child is also rated by a shallow alpha-beta search (depth `(empties - 14) / 2`, at most
//!   6, its own moves ordered by the opponent's replies from depth 2; [`Options::presort_pv_extra`]
//!   plies more at nodes with an open window, 0 by default) with an evaluation trained on exact
//!   scores (on 8x8 line and corner patterns with per-band weights, `endgame/pattern.rs`, plus
//!   twelve linear features), added to twice the fastest-first weight below. It only orders moves:
//!   the solve stays exact. `endgame/README.md` has the fit, the tuning and the measurements.
//! - **Selective pre-search** ([`Options::presearch_from`], 20 or more empties, full-window
//!   solves): before the exact solve, the same search runs with a table of its own (the
//!   hint table) and two changes: positions with fewer than [`Options::presearch_leaf`] (14)
//!   empties are not searched but evaluated (the presort's evaluation, in discs), and a node
//!   with the presort's estimates (the best child's shallow value) more than
//!   [`Options::presearch_margin`] (2 discs) outside its window is cut off at once. It costs
//!   well under 1% of the exact solve's nodes. Its only products are the hint table's best
//!   moves, which the exact search tries first where its own table has no move (14 or more
//!   empties), and its score, the root aspiration's first guess. Its bounds are never seen by
//!   the exact search, so the score stays exact.
//! - **The table's (or hint's) move first, before the presort**: at presort nodes the stored
//!   best move is searched before the other children are rated; when it cuts, the shallow
//!   searches are saved.
//! - **Stability cutoff** ([`Options::stability`], 8x8, 5 or more empties): if the
//!   opponent owns `s` discs that can never flip, the score is at most `64 - 2s`; when that is
//!   at most alpha the node fails low at once. The stable discs (`endgame/stability.rs`) come
//!   from an exact table of the 3^8 edge configurations, full lines, and growth inwards; the
//!   test is skipped for free when even all the opponent's discs could not reach alpha.
//! - **Fastest-first ordering** with 7 or more empties: moves that leave the opponent the
//!   fewest replies first (weight 16 per reply, corners among them counting double), then
//!   the opponent's potential mobility (4 per empty square next to the mover's discs), then
//!   the static square weight of the move (corners early, X-squares late); the
//!   transposition table's move before all. Children are made once, for ordering, and kept.
//! - **A transposition table of its own** with 9 or more empties (`endgame/table.rs`): buckets
//!   of three entries in one 64-byte cache line, each holding the full position (both
//!   bitboards, so no false hits), a lower and an upper bound, the best move and the empties
//!   count; an entry of the same position is updated, else the one with the fewest empties is
//!   replaced. Its entries are facts about positions, valid for any window, so a [`Solver`]
//!   keeps them between calls.
//! - **Enhanced transposition cutoff** ([`Options::etc`], 10 or more empties): while making
//!   the children for ordering, each is looked up (their buckets loaded first in one tight
//!   loop, so that the cache misses overlap); a child whose stored upper bound already
//!   refutes beta cuts the node off before any search.
//! - **Parity and square-class ordering** with 5 and 6 empties: moves in regions (board
//!   quadrants) with an odd number of empties first (the last move in a region is an
//!   advantage), within each part corners, then ordinary squares, then C- and X-squares.
//! - **The last four empties** have one routine each (`last_four`, `last_three`,
//!   `last_two`, `last_one`) over the empty squares listed in parity order once: no move
//!   generation, each square tried with the flip routine after a neighbour test (a square
//!   with no opponent disc next to it is never legal); the last square needs no search at all
//!   (try the side to move, then the opponent, count): on 8x8 its flips are counted, not
//!   computed, from the four lines through it gathered into bytes and one `8 x 256` table
//!   (`endgame/last_flip.rs`).
//!
//! A solve may be stopped ([`Solver::solve_polled`]): the poll is asked every few thousand
//! nodes at nodes with 7 or more empties, and a stopped solve unwinds without storing
//! anything, so the table keeps only proved bounds.
//!
//! Every call of the recursive routines counts one node (the last-square evaluation and the
//! positions of the presort's shallow searches included), which [`SolveResult::nodes`]
//! reports.
//!
//! Why each default, what was tried and rejected, and the measurements (FFO #40-#59) are in
//! `endgame/README.md`; the example `othello_solve_speed` makes the measurements.
//! [`scored_positions`] reads the test-set files with their scores; [`training`] generates the
//! presort evaluation's training positions and fits its weights.

mod last_flip;
mod pattern;
mod presort;
mod stability;
mod table;
mod testset;
pub mod training;

pub use testset::{TestSetError, scored_positions};

use super::bitboard::{Geometry, flips, moves};
use super::{Move, Othello};
use crate::endgame::{EndgameSolver, Poll, Solved};
use table::Table;

/// The result of [`solve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveResult {
    /// The exact score when it lies strictly inside the window `(alpha, beta)`; otherwise an
    /// upper bound (`score <= alpha`) or a lower bound (`score >= beta`), fail-soft.
    pub score: i32,
    /// The move reaching `score` (a pass when the side to move must pass); `None` when the game
    /// is over. Meaningful when the score is exact or a lower bound.
    pub best_move: Option<Move>,
    /// Positions visited.
    pub nodes: u64,
}

/// From this many empties on, the solver orders moves fastest-first.
const DEEP: u32 = 7;
/// From this many empties on, the solver uses its transposition table.
const TABLE: u32 = 9;
/// From this many empties on, the solver probes the table for every child before searching
/// (enhanced transposition cutoff).
const ETC: u32 = 10;
/// Up to this many empties, the specialised last-empties routine takes over.
const LAST: u32 = 4;
/// From this many empties on, the stability cutoff is tried (8x8 only).
const STABILITY: u32 = 5;
/// Default of [`Options::presort_from`].
const PRESORT_FROM: u32 = 14;
/// Default of [`Options::presort_step`].
const PRESORT_STEP: u32 = 2;
/// Default of [`Options::presort_max`].
const PRESORT_MAX: u32 = 6;
/// Default of [`Options::presort_mobility`].
const PRESORT_MOBILITY: i32 = 2;
/// Default of [`Options::presort_pv_extra`].
const PRESORT_PV_EXTRA: u32 = 0;
/// Default of [`Options::presearch_from`].
const PRESEARCH_FROM: u32 = 20;
/// Default of [`Options::presearch_passes`].
const PRESEARCH_PASSES: u32 = 1;
/// Default of [`Options::presearch_leaf`].
const PRESEARCH_LEAF: u32 = 14;
/// Default of [`Options::presearch_margin`].
const PRESEARCH_MARGIN: i32 = 2 * 16;

/// Which pruning and ordering enhancements a [`Solver`] uses (all on by default; tests and
/// measurements switch them off one at a time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Stability cutoff: fail low at once when the opponent's stable discs cap the score at
    /// or below alpha (8x8 only).
    pub stability: bool,
    /// Enhanced transposition cutoff: before searching the moves of a node, look every child
    /// up in the table and cut off when one is already known to refute beta.
    pub etc: bool,
    /// Root null-window (aspiration) search: a narrow window around a guess first, widened
    /// only when the score falls outside it.
    pub aspiration: bool,
    /// From this many empties on, children are ordered by a shallow search with the static
    /// evaluation as well as by mobility (65 or more switches it off).
    pub presort_from: u32,
    /// The shallow search is one ply deeper for every this many empties above
    /// [`Options::presort_from`].
    pub presort_step: u32,
    /// The shallow search is at most this deep.
    pub presort_max: u32,
    /// At nodes with an open window (principal-variation nodes, the root included), the
    /// shallow search is this many plies deeper (its cap included).
    pub presort_pv_extra: u32,
    /// The presort's ordering weight is this many times the fastest-first weight plus the
    /// shallow search's value (sixteenths of a disc).
    pub presort_mobility: i32,
    /// From this many empties on, moves are ordered fastest-first (below: parity and square
    /// class); at least 5.
    pub fastest_first_from: u32,
    /// From this many empties on, the transposition table is used.
    pub table_from: u32,
    /// From this many empties on, the enhanced transposition cutoff is tried (with
    /// [`Options::etc`]).
    pub etc_from: u32,
    /// From this many empties on (and with aspiration), a full-window solve first runs a
    /// selective pre-search whose only products are best-move hints and the root aspiration's
    /// guess (65 or more switches it off).
    pub presearch_from: u32,
    /// The pre-search prunes a node when the presort's estimate of it lies this far (in
    /// sixteenths of a disc) outside the window.
    pub presearch_margin: i32,
    /// The pre-search evaluates positions with fewer than this many empties with the
    /// presort's evaluation instead of searching them.
    pub presearch_leaf: u32,
    /// The pre-search runs this many times, the margin doubling each time (each pass's
    /// moves order the next).
    pub presearch_passes: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            stability: true,
            etc: true,
            aspiration: true,
            presort_from: PRESORT_FROM,
            presort_step: PRESORT_STEP,
            presort_max: PRESORT_MAX,
            presort_pv_extra: PRESORT_PV_EXTRA,
            presort_mobility: PRESORT_MOBILITY,
            fastest_first_from: DEEP,
            table_from: TABLE,
            etc_from: ETC,
            presearch_from: PRESEARCH_FROM,
            presearch_margin: PRESEARCH_MARGIN,
            presearch_leaf: PRESEARCH_LEAF,
            presearch_passes: PRESEARCH_PASSES,
        }
    }
}

/// A reusable solver (its transposition table is allocated once).
pub struct Solver<const N: usize> {
    table: Table,
    /// The selective pre-search's table: its bounds are used only by the pre-search (which
    /// runs with this table swapped into `table`), its moves order the exact search.
    hints: Table,
    /// `Some(margin)` while the selective pre-search runs (see [`Options::presearch_margin`]).
    selective: Option<i32>,
    /// While the pre-search runs, [`Options::presearch_leaf`]: positions with fewer empties are
    /// evaluated, not searched. 0 otherwise, so the hot paths test one comparison.
    leaf_below: u32,
    nodes: u64,
    options: Options,
    /// Asked every [`POLL_NODES`] nodes during [`Solver::solve_polled`] (none otherwise).
    poll: Option<Poll>,
    /// The node count at which `poll` is asked next (`u64::MAX` without one).
    next_poll: u64,
    /// Set when `poll` stopped the solve: every routine then returns at once, storing nothing.
    aborted: bool,
}

/// A polled solve asks its poll once every this many nodes (well under a millisecond).
const POLL_NODES: u64 = 4096;

/// The final score when the game ends with `p` (to move) against `o`.
#[inline]
fn final_score<const N: usize>(p: u64, o: u64) -> i32 {
    let (mine, theirs) = (p.count_ones() as i32, o.count_ones() as i32);
    let empties = (N * N) as i32 - mine - theirs;
    let diff = mine - theirs;
    match diff.signum() {
        1 => diff + empties,
        -1 => diff - empties,
        _ => 0,
    }
}

/// The squares of each quadrant.
const fn quadrant_masks(n: usize) -> [u64; 4] {
    let mut out = [0u64; 4];
    let mut row = 0;
    while row < n {
        let mut col = 0;
        while col < n {
            out[(row >= n / 2) as usize * 2 + (col >= n / 2) as usize] |= 1 << (row * 8 + col);
            col += 1;
        }
        row += 1;
    }
    out
}

static QUADRANTS_8: [u64; 4] = quadrant_masks(8);
static QUADRANTS_6: [u64; 4] = quadrant_masks(6);

/// Empty squares in quadrants holding an odd number of empties.
#[inline]
fn odd_regions<const N: usize>(empties: u64) -> u64 {
    let q = if N == 8 { &QUADRANTS_8 } else { &QUADRANTS_6 };
    let mut odd = 0;
    for &mask in q {
        if (empties & mask).count_ones() & 1 == 1 {
            odd |= mask;
        }
    }
    odd & empties
}

/// The squares of an `n` x `n` board in four classes by static quality, best first: corners;
/// the other squares; C-squares (edge squares next to a corner); X-squares (diagonally next
/// to a corner). Shallow nodes try moves class by class.
const fn square_classes(n: usize) -> [u64; 4] {
    let mut out = [0u64; 4];
    let mut row = 0;
    while row < n {
        let mut col = 0;
        while col < n {
            let bit = 1u64 << (row * 8 + col);
            let edge_r = row == 0 || row == n - 1;
            let edge_c = col == 0 || col == n - 1;
            let near_r = row == 1 || row == n - 2;
            let near_c = col == 1 || col == n - 2;
            let class = if edge_r && edge_c {
                0
            } else if near_r && near_c {
                3
            } else if (edge_r && near_c) || (edge_c && near_r) {
                2
            } else {
                1
            };
            out[class] |= bit;
            col += 1;
        }
        row += 1;
    }
    out
}

static CLASSES_8: [u64; 4] = square_classes(8);
static CLASSES_6: [u64; 4] = square_classes(6);

/// For each square of an `n` x `n` board, its (up to eight) neighbours: a move there is legal
/// only if one of them holds an opponent disc, a cheap test before computing flips.
const fn neighbour_table(n: usize) -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (row, col) = ((sq / 8) as i32, (sq % 8) as i32);
        if row < n as i32 && col < n as i32 {
            let mut dr = -1;
            while dr <= 1 {
                let mut dc = -1;
                while dc <= 1 {
                    let (r, c) = (row + dr, col + dc);
                    if (dr != 0 || dc != 0) && r >= 0 && c >= 0 && r < n as i32 && c < n as i32 {
                        out[sq] |= 1 << (r * 8 + c);
                    }
                    dc += 1;
                }
                dr += 1;
            }
        }
        sq += 1;
    }
    out
}

static NEIGHBOURS_8: [u64; 64] = neighbour_table(8);
static NEIGHBOURS_6: [u64; 64] = neighbour_table(6);

/// The discs `p` flips by playing `sq` against `o` (0 when illegal), skipping the flip
/// computation when no neighbour of `sq` holds an opponent disc.
#[inline(always)]
fn flips_checked<const N: usize>(p: u64, o: u64, sq: usize) -> u64 {
    let near = if N == 8 {
        NEIGHBOURS_8[sq]
    } else {
        NEIGHBOURS_6[sq]
    };
    if near & o == 0 {
        0
    } else {
        flips::<N>(p, o, sq)
    }
}

impl<const N: usize> Default for Solver<N> {
    fn default() -> Self {
        Self::new(16)
    }
}

impl<const N: usize> Solver<N> {
    /// A solver with a transposition table of `2^(table_bits - 1)` buckets of three entries
    /// (`table_bits` clamped to 4..=26; 64 bytes a bucket, so `32 * 2^table_bits` bytes).
    #[must_use]
    pub fn new(table_bits: u32) -> Self {
        Self::with_options(table_bits, Options::default())
    }

    /// A solver with the given enhancements switched on or off (see [`Options`]).
    #[must_use]
    pub fn with_options(table_bits: u32, options: Options) -> Self {
        let bits = table_bits.clamp(4, 26);
        let options = Options {
            fastest_first_from: options.fastest_first_from.max(LAST + 1),
            ..options
        };
        // The pre-search stores only positions with at least `presearch_leaf` empties: a few
        // hundred thousand at most, so 2^20 entries (32 MiB) are plenty.
        let hint_bits = if options.presearch_from <= (N * N) as u32 {
            bits.min(20)
        } else {
            2
        };
        Solver {
            table: Table::new(bits),
            hints: Table::new(hint_bits),
            selective: None,
            leaf_below: 0,
            nodes: 0,
            options,
            poll: None,
            next_poll: u64::MAX,
            aborted: false,
        }
    }

    /// [`Solver::solve`] that asks `poll` with the node count every few thousand nodes and
    /// stops, answering `None`, as soon as it says so. A stopped solve stores no bound it did
    /// not prove, so the table stays right for later solves.
    pub fn solve_polled(
        &mut self,
        pos: &Othello<N>,
        alpha: i32,
        beta: i32,
        poll: Poll,
    ) -> Option<SolveResult> {
        self.poll = Some(poll);
        self.next_poll = POLL_NODES;
        self.aborted = false;
        let result = self.solve(pos, alpha, beta);
        let aborted = self.aborted;
        self.poll = None;
        self.next_poll = u64::MAX;
        self.aborted = false;
        (!aborted).then_some(result)
    }

    /// Forgets every stored result (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.hints.clear();
    }

    /// Whether the solve must stop: asks the poll when it is due.
    #[inline]
    fn halted(&mut self) -> bool {
        if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + POLL_NODES;
            if let Some(poll) = &mut self.poll {
                self.aborted |= poll(self.nodes);
            }
        }
        self.aborted
    }

    /// Solves `pos` within the window `(alpha, beta)` (clamped to `-N*N..=N*N`; use
    /// `i32::MIN + 1, i32::MAX` or [`solve`] for the exact score). The table is kept
    /// between calls (entries are exact facts about positions, valid for any window).
    pub fn solve(&mut self, pos: &Othello<N>, alpha: i32, beta: i32) -> SolveResult {
        let max = (N * N) as i32;
        let (alpha, beta) = (alpha.clamp(-max, max), beta.clamp(-max, max));
        let (p, o) = pos.bitboards();
        self.nodes = 1;
        let list = moves::<N>(p, o);
        if list == 0 {
            if moves::<N>(o, p) == 0 {
                return SolveResult {
                    score: final_score::<N>(p, o),
                    best_move: None,
                    nodes: self.nodes,
                };
            }
            let score = -self.search(o, p, -beta, -alpha, true);
            return SolveResult {
                score,
                best_move: Some(Move::PASS),
                nodes: self.nodes,
            };
        }
        let (score, sq) = if self.options.aspiration && beta - alpha > 4 {
            let n = (Geometry::<N>::VALID & !(p | o)).count_ones();
            let guess = if n >= self.options.presearch_from {
                Some(self.presearch(p, o, list, alpha, beta))
            } else {
                None
            };
            self.root_aspiration(p, o, list, alpha, beta, guess)
        } else {
            self.root(p, o, list, alpha, beta)
        };
        SolveResult {
            score,
            best_move: Some(Move::square(sq)),
            nodes: self.nodes,
        }
    }

    /// The root with a narrow window around a guess, widened on failure: a window of width 4
    /// around 0 (moved inside `(alpha, beta)`) first, then, on a fail, a window from the returned
    /// bound doubling its width each time. Fail-soft bounds and the table (which keeps every bound
    /// proved) make the repeated searches cheap.
    fn root_aspiration(
        &mut self,
        p: u64,
        o: u64,
        list: u64,
        alpha: i32,
        beta: i32,
        guess: Option<i32>,
    ) -> (i32, usize) {
        let guess = guess.unwrap_or_else(|| self.guess(p, o));
        let mut lo = alpha.max((guess - 2).min(beta - 4));
        let mut hi = beta.min(lo + 4);
        let mut width = 4;
        loop {
            let (v, sq) = self.root(p, o, list, lo, hi);
            if self.aborted {
                return (0, sq);
            }
            if (v > lo && v < hi) || (v <= lo && lo == alpha) || (v >= hi && hi == beta) {
                return (v, sq);
            }
            width *= 2;
            if v <= lo {
                // v is an upper bound: search below it.
                hi = v + 1;
                lo = (v - width).max(alpha);
            } else {
                lo = v - 1;
                hi = (v + width).min(beta);
            }
        }
    }

    /// The selective pre-search: the root solved with [`Self::hints`] as the table and
    /// nodes pruned by the presort's estimates (see [`Options::presearch_margin`]). Returns
    /// its score rounded to an even number, the exact search's first guess; its table's
    /// moves order the exact search, its bounds are never used by it.
    fn presearch(&mut self, p: u64, o: u64, list: u64, alpha: i32, beta: i32) -> i32 {
        std::mem::swap(&mut self.table, &mut self.hints);
        let mut v = 0;
        for pass in 0..self.options.presearch_passes {
            let level = self.table.level().wrapping_add(1).max(1);
            self.table.set_level(level);
            self.selective = Some(self.options.presearch_margin << pass);
            self.leaf_below = self.options.presearch_leaf;
            v = self.root_aspiration(p, o, list, alpha, beta, None).0;
        }
        self.selective = None;
        self.leaf_below = 0;
        std::mem::swap(&mut self.table, &mut self.hints);
        let max = (N * N) as i32;
        (v + (v & 1)).clamp(-max, max)
    }

    /// The pre-search's value of a position below the presort's empties: the presort's
    /// evaluation in discs (the pre-search stops there).
    #[inline]
    fn presearch_leaf(&mut self, p: u64, o: u64) -> i32 {
        self.nodes += 1;
        let v = presort::evaluate::<N>(p, o);
        let max = (N * N) as i32;
        (v.div_euclid(16) + i32::from(v.rem_euclid(16) >= 8)).clamp(-max + 1, max - 1)
    }

    /// The best move the pre-search found for `(p, o)` (64 for none), outside the pre-search.
    #[inline]
    fn hint(&self, p: u64, o: u64) -> usize {
        if self.selective.is_some() || self.options.presearch_from > (N * N) as u32 {
            return 64;
        }
        self.hints.probe(p, o).map_or(64, |e| usize::from(e.best))
    }

    /// A guess at the exact score of `(p, o)`, an even number: from a shallow search with the
    /// ordering evaluation when the position has enough empties for the presort, else 0.
    fn guess(&mut self, p: u64, o: u64) -> i32 {
        let n = (Geometry::<N>::VALID & !(p | o)).count_ones();
        if n < self.options.presort_from {
            return 0;
        }
        let depth = 1 + self.presort_depth(n);
        let v = presort::shallow::<N>(p, o, depth, -i32::MAX, i32::MAX, &mut self.nodes);
        let max = (N * N) as i32;
        // Sixteenths of a disc to the nearest even score.
        (2 * (v.div_euclid(32) + i32::from(v.rem_euclid(32) >= 16))).clamp(-max, max)
    }

    /// The depth of the presort's shallow searches below a node with `n` empties.
    #[inline]
    fn presort_depth(&self, n: u32) -> u32 {
        let o = &self.options;
        ((n - o.presort_from) / o.presort_step.max(1)).min(o.presort_max)
    }

    /// PVS over the root moves, ordered fastest-first (the table's move first).
    fn root(&mut self, p: u64, o: u64, list: u64, alpha: i32, beta: i32) -> (i32, usize) {
        let max = (N * N) as i32;
        let table_move = match self.table.probe(p, o) {
            Some(e) if e.best < 64 => usize::from(e.best),
            _ => self.hint(p, o),
        };
        let mut ordered = [(0i32, 0usize); 64];
        let mut len = 0;
        let mut rest = list;
        while rest != 0 {
            let sq = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let n = (Geometry::<N>::VALID & !(p | o)).count_ones();
            let w = if sq == table_move {
                i32::MIN
            } else if n >= self.options.presort_from {
                let f = flips::<N>(p, o, sq);
                let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
                let pv = beta - alpha > 1;
                self.presort_weight(np, no, moves::<N>(np, no), sq, (n, pv))
                    .0
            } else {
                Self::reply_weight(p, o, sq)
            };
            ordered[len] = (w, sq);
            len += 1;
        }
        ordered[..len].sort_unstable();
        let (mut best, mut best_sq, mut a) = (-max - 1, ordered[0].1, alpha);
        for (i, &(_, sq)) in ordered[..len].iter().enumerate() {
            let f = flips::<N>(p, o, sq);
            let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
            let mut v = if i == 0 {
                -self.search(np, no, -beta, -a, false)
            } else {
                -self.search(np, no, -a - 1, -a, false)
            };
            if i > 0 && v > a && v < beta {
                v = -self.search(np, no, -beta, -v, false);
            }
            if self.aborted {
                return (0, best_sq);
            }
            if v > best {
                best = v;
                best_sq = sq;
                if v > a {
                    a = v;
                }
                if v >= beta {
                    break;
                }
            }
        }
        let n = (Geometry::<N>::VALID & !(p | o)).count_ones();
        self.store(p, o, n, alpha, beta, best, best_sq);
        (best, best_sq)
    }

    /// Stores a fail-soft result of window `(alpha, beta)` as bounds.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn store(&mut self, p: u64, o: u64, n: u32, alpha: i32, beta: i32, best: i32, sq: usize) {
        let max = (N * N) as i32;
        let (lower, upper) = if best >= beta {
            (best, max)
        } else if best <= alpha {
            (-max, best)
        } else {
            (best, best)
        };
        self.table.store(p, o, n, lower, upper, sq as u8);
    }

    /// The ordering weight of playing `sq` (smaller first): the opponent's replies afterwards,
    /// corners among them counting double.
    #[inline]
    fn reply_weight(p: u64, o: u64, sq: usize) -> i32 {
        let f = flips::<N>(p, o, sq);
        let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
        Self::child_weight(np, no, moves::<N>(np, no), sq)
    }

    /// [`Self::reply_weight`] of the child `(np, no)` (opponent to move) reached by `sq`.
    #[inline]
    fn child_weight(np: u64, no: u64, replies: u64, sq: usize) -> i32 {
        let corners = replies & corner_mask::<N>();
        let frontier = super::eval::neighbours::<N>(no) & Geometry::<N>::VALID & !(np | no);
        16 * (replies.count_ones() + corners.count_ones()) as i32 + 4 * frontier.count_ones() as i32
            - super::eval::square_weight::<N>(sq) / 8
    }

    /// The ordering weight of child `(np, no)` (reached by `sq`, `n` empties before it) with
    /// a shallow search: [`Self::child_weight`] plus the child's estimated value for the
    /// opponent; and that estimate.
    #[inline]
    fn presort_weight(
        &mut self,
        np: u64,
        no: u64,
        replies: u64,
        sq: usize,
        (n, pv): (u32, bool),
    ) -> (i32, i32) {
        let depth = self.presort_depth(n) + if pv { self.options.presort_pv_extra } else { 0 };
        let v = presort::shallow::<N>(np, no, depth, -i32::MAX, i32::MAX, &mut self.nodes);
        (
            self.options.presort_mobility * Self::child_weight(np, no, replies, sq) + v,
            v,
        )
    }

    /// The stability cutoff: an upper bound `<= alpha` from the opponent's stable discs, if
    /// there is one.
    #[inline]
    fn stability_cutoff(&self, p: u64, o: u64, alpha: i32) -> Option<i32> {
        if N != 8 || !self.options.stability {
            return None;
        }
        // The opponent's stable discs are among its discs: no cutoff is possible unless
        // `64 - 2 * discs <= alpha`.
        if 64 - 2 * o.count_ones() as i32 > alpha {
            return None;
        }
        let bound = 64 - 2 * stability::stable_count(o, p) as i32;
        (bound <= alpha).then_some(bound)
    }

    fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        let empties = Geometry::<N>::VALID & !(p | o);
        let n = empties.count_ones();
        if n < self.leaf_below {
            return self.presearch_leaf(p, o);
        }
        if n <= LAST {
            return self.last_empties(p, o, empties, alpha, beta);
        }
        self.nodes += 1;
        if n >= STABILITY {
            if let Some(bound) = self.stability_cutoff(p, o, alpha) {
                return bound;
            }
        }
        self.search_moves(p, o, moves::<N>(p, o), (empties, n), alpha, beta, passed)
    }

    /// [`Self::search`] of a child whose legal moves `list` its parent already generated
    /// for ordering (at least [`Options::fastest_first_from`] - 1 empties).
    #[inline]
    fn search_child(&mut self, p: u64, o: u64, list: u64, alpha: i32, beta: i32) -> i32 {
        let empties = Geometry::<N>::VALID & !(p | o);
        let n = empties.count_ones();
        if n < self.leaf_below {
            return self.presearch_leaf(p, o);
        }
        self.nodes += 1;
        if let Some(bound) = self.stability_cutoff(p, o, alpha) {
            return bound;
        }
        self.search_moves(p, o, list, (empties, n), alpha, beta, false)
    }

    /// The rest of [`Self::search`] once the legal moves `list` are known.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        p: u64,
        o: u64,
        list: u64,
        (empties, n): (u64, u32),
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> i32 {
        if list == 0 {
            if passed || moves::<N>(o, p) == 0 {
                return final_score::<N>(p, o);
            }
            return -self.search(o, p, -beta, -alpha, true);
        }
        if n < self.options.fastest_first_from {
            return self.shallow(p, o, list, empties, alpha, beta);
        }
        self.deep(p, o, list, n, alpha, beta)
    }

    /// 5 and 6 empties: moves in odd regions first, each part by square class.
    fn shallow(&mut self, p: u64, o: u64, list: u64, empties: u64, alpha: i32, beta: i32) -> i32 {
        let odd = odd_regions::<N>(empties);
        let classes = if N == 8 { &CLASSES_8 } else { &CLASSES_6 };
        let (mut best, mut a) = (i32::MIN + 1, alpha);
        for part in [list & odd, list & !odd] {
            for &class in classes {
                let mut rest = part & class;
                while rest != 0 {
                    let sq = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let f = flips::<N>(p, o, sq);
                    let v = -self.search(o ^ f, p ^ f ^ (1 << sq), -beta, -a, false);
                    if v > best {
                        best = v;
                        if v > a {
                            a = v;
                            if v >= beta {
                                return v;
                            }
                        }
                    }
                }
            }
        }
        best
    }

    /// 7 or more empties: table, enhanced transposition cutoff, fastest-first, PVS.
    fn deep(&mut self, p: u64, o: u64, mut list: u64, n: u32, alpha: i32, beta: i32) -> i32 {
        if self.halted() {
            return 0;
        }
        let presort = n >= self.options.presort_from;
        let use_table = n >= self.options.table_from;
        let (mut alpha, mut beta) = (alpha, beta);
        let mut table_move = 64usize;
        if use_table {
            if let Some(entry) = self.table.probe(p, o) {
                table_move = usize::from(entry.best);
                // Bounds only from the same level (the pre-search's passes each have theirs).
                if entry.level == self.table.level() {
                    let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
                    if lower >= beta {
                        return lower;
                    }
                    if upper <= alpha {
                        return upper;
                    }
                    if lower == upper {
                        return lower;
                    }
                    alpha = alpha.max(lower);
                    beta = beta.min(upper);
                }
            }
        }
        if table_move >= 64 && presort {
            table_move = self.hint(p, o);
        }
        let etc = self.options.etc && n >= self.options.etc_from;

        // The children, made once and kept.
        let mut ordered = [(0i32, 0u8, 0u64, 0u64, 0u64); 64];
        let mut len = 0;
        while list != 0 {
            let sq = list.trailing_zeros() as usize;
            list &= list - 1;
            let f = flips::<N>(p, o, sq);
            ordered[len] = (0, sq as u8, o ^ f, p ^ f ^ (1 << sq), 0);
            len += 1;
        }
        if etc {
            // Enhanced transposition cutoff: every child looked up. The buckets are loaded
            // in one tight loop first, so that their cache misses overlap.
            let mut touched = 0u64;
            for &(_, _, np, no, _) in &ordered[..len] {
                touched ^= self.table.touch(np, no);
            }
            std::hint::black_box(touched);
            for &(_, sq, np, no, _) in &ordered[..len] {
                if let Some(child) = self
                    .table
                    .probe(np, no)
                    .filter(|e| e.level == self.table.level())
                {
                    // The child's upper bound is a lower bound of ours through `sq`.
                    let v = -i32::from(child.upper);
                    if v >= beta {
                        self.table.store(p, o, n, v, (N * N) as i32, sq);
                        return v;
                    }
                }
            }
        }
        // The table's move first. At presort nodes outside the pre-search it is searched
        // before the others are rated: it cuts most of the time, and then the presort's
        // shallow searches are saved.
        let mut start = 0;
        if table_move < 64 {
            if let Some(k) = ordered[..len]
                .iter()
                .position(|c| usize::from(c.1) == table_move)
            {
                ordered.swap(0, k);
            }
        }
        let (mut best, mut best_sq, mut a) = (i32::MIN + 1, usize::from(ordered[0].1), alpha);
        if presort && self.selective.is_none() && usize::from(ordered[0].1) == table_move {
            let (_, _, np, no, _) = ordered[0];
            let replies = moves::<N>(np, no);
            let v = -self.search_child(np, no, replies, -beta, -a);
            if self.aborted {
                return 0;
            }
            best = v;
            if v > a {
                a = v;
                if v >= beta {
                    if use_table {
                        self.store(p, o, n, alpha, beta, best, best_sq);
                    }
                    return v;
                }
            }
            start = 1;
        }
        // Fastest-first ordering (with the presort's estimates), the table move first.
        let mut estimate = i32::MIN + 1;
        for item in &mut ordered[start..len] {
            let (_, sq, np, no, _) = *item;
            let sq = usize::from(sq);
            let replies = moves::<N>(np, no);
            let weight = if presort {
                let (w, v) = self.presort_weight(np, no, replies, sq, (n, beta - alpha > 1));
                estimate = estimate.max(-v);
                w
            } else {
                Self::child_weight(np, no, replies, sq)
            };
            item.0 = if sq == table_move { i32::MIN } else { weight };
            item.4 = replies;
        }
        if let (Some(margin), true) = (self.selective, presort) {
            // The pre-search: prune when the estimate lies far outside the window.
            if estimate - margin >= 16 * beta {
                return beta;
            }
            if estimate + margin <= 16 * alpha {
                return alpha;
            }
        }
        // Insertion sort: short lists.
        for i in start + 1..len {
            let item = ordered[i];
            let mut j = i;
            while j > start && ordered[j - 1].0 > item.0 {
                ordered[j] = ordered[j - 1];
                j -= 1;
            }
            ordered[j] = item;
        }
        if start == 0 {
            best_sq = usize::from(ordered[0].1);
        }

        for (i, &(_, sq, np, no, replies)) in ordered[..len].iter().enumerate().skip(start) {
            let mut v = if i == 0 {
                -self.search_child(np, no, replies, -beta, -a)
            } else {
                -self.search_child(np, no, replies, -a - 1, -a)
            };
            if i > 0 && v > a && v < beta {
                v = -self.search_child(np, no, replies, -beta, -v);
            }
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = usize::from(sq);
                if v > a {
                    a = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if use_table {
            self.store(p, o, n, alpha, beta, best, best_sq);
        }
        best
    }

    /// The last few empties (at most [`LAST`]), squares ordered by parity once, each count
    /// with its own routine (no move generation: every empty square is tried with the flip
    /// routine after a neighbour test).
    fn last_empties(&mut self, p: u64, o: u64, empties: u64, alpha: i32, beta: i32) -> i32 {
        let mut x = [0usize; LAST as usize];
        let mut len = 0;
        let odd = odd_regions::<N>(empties);
        for part in [empties & odd, empties & !odd] {
            let mut rest = part;
            while rest != 0 {
                x[len] = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                len += 1;
            }
        }
        match len {
            0 => {
                self.nodes += 1;
                final_score::<N>(p, o)
            }
            1 => {
                self.nodes += 1;
                Self::last_one(p, o, x[0])
            }
            2 => self.last_two(p, o, (alpha, beta), [x[0], x[1]], false),
            3 => self.last_three(p, o, (alpha, beta), [x[0], x[1], x[2]], false),
            _ => self.last_four(p, o, (alpha, beta), x, false),
        }
    }

    /// The moves of a last-empties node: each `(square, rest)` in order, the child searched by
    /// `child` (given the child position, its window and `rest`). Returns the fail-soft best
    /// value, or `None` when the side to move has no move.
    #[inline(always)]
    fn try_last<R: Copy, const M: usize>(
        &mut self,
        (p, o): (u64, u64),
        (alpha, beta): (i32, i32),
        tries: [(usize, R); M],
        child: impl Fn(&mut Self, u64, u64, i32, i32, R) -> i32,
    ) -> Option<i32> {
        let (mut best, mut a) = (i32::MIN + 1, alpha);
        let mut moved = false;
        for (s, rest) in tries {
            let f = flips_checked::<N>(p, o, s);
            if f == 0 {
                continue;
            }
            moved = true;
            let v = -child(self, o ^ f, p ^ f ^ (1 << s), -beta, -a, rest);
            if v > best {
                best = v;
                if v > a {
                    a = v;
                    if v >= beta {
                        return Some(v);
                    }
                }
            }
        }
        moved.then_some(best)
    }

    /// Two empties `x[0]`, `x[1]` (in that order): each move leads to a last-square evaluation.
    fn last_two(&mut self, p: u64, o: u64, window: (i32, i32), x: [usize; 2], passed: bool) -> i32 {
        self.nodes += 1;
        let tries = [(x[0], x[1]), (x[1], x[0])];
        let last = |s: &mut Self, np, no, _, _, y| {
            s.nodes += 1;
            Self::last_one(np, no, y)
        };
        match self.try_last((p, o), window, tries, last) {
            Some(v) => v,
            None if passed => final_score::<N>(p, o),
            None => -self.last_two(o, p, (-window.1, -window.0), x, true),
        }
    }

    /// Three empties, in parity order: each move leads to [`Self::last_two`] with the other two
    /// in their order.
    fn last_three(
        &mut self,
        p: u64,
        o: u64,
        window: (i32, i32),
        x: [usize; 3],
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let tries = [
            (x[0], [x[1], x[2]]),
            (x[1], [x[0], x[2]]),
            (x[2], [x[0], x[1]]),
        ];
        let two = |s: &mut Self, np, no, a, b, rest| s.last_two(np, no, (a, b), rest, false);
        match self.try_last((p, o), window, tries, two) {
            Some(v) => v,
            None if passed => final_score::<N>(p, o),
            None => -self.last_three(o, p, (-window.1, -window.0), x, true),
        }
    }

    /// Four empties, in parity order: each move leads to [`Self::last_three`].
    fn last_four(
        &mut self,
        p: u64,
        o: u64,
        window: (i32, i32),
        x: [usize; 4],
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let tries = [
            (x[0], [x[1], x[2], x[3]]),
            (x[1], [x[0], x[2], x[3]]),
            (x[2], [x[0], x[1], x[3]]),
            (x[3], [x[0], x[1], x[2]]),
        ];
        let three = |s: &mut Self, np, no, a, b, rest| s.last_three(np, no, (a, b), rest, false);
        match self.try_last((p, o), window, tries, three) {
            Some(v) => v,
            None if passed => final_score::<N>(p, o),
            None => -self.last_four(o, p, (-window.1, -window.0), x, true),
        }
    }

    /// One empty square left: the side to move plays it if it can, else the opponent does,
    /// else it goes to the winner.
    #[inline]
    fn last_one(p: u64, o: u64, sq: usize) -> i32 {
        let full = (N * N) as i32;
        if N == 8 {
            // The board is full but for `sq`: count the flips without computing them.
            let mine = p.count_ones() as i32;
            let k = last_flip::count_last_flips(p, sq) as i32;
            if k != 0 {
                return 2 * (mine + k + 1) - full;
            }
            let k = last_flip::count_last_flips(o, sq) as i32;
            if k != 0 {
                return 2 * (mine - k) - full;
            }
            return final_score::<N>(p, o);
        }
        let f = flips_checked::<N>(p, o, sq);
        if f != 0 {
            return 2 * (p | f).count_ones() as i32 + 2 - full;
        }
        let g = flips_checked::<N>(o, p, sq);
        if g != 0 {
            return 2 * (p ^ g).count_ones() as i32 - full;
        }
        final_score::<N>(p, o)
    }
}

/// The trained evaluation of `pos` for the side to move, in sixteenths of a disc (the
/// presort's: on 8x8 the pattern evaluation, on 6x6 the linear features), the play
/// setting's evaluation with its `trained-eval` switch.
#[must_use]
pub fn evaluate<const N: usize>(pos: &Othello<N>) -> i32 {
    let (p, o) = pos.bitboards();
    let max = 16 * (N * N) as i32;
    presort::evaluate::<N>(p, o).clamp(-max, max)
}

/// The table size of the play engine's solver ([`Solver::for_play`]): `2^20` entries, 32 MiB.
const PLAY_TABLE_BITS: u32 = 20;

impl<const N: usize> Solver<N> {
    /// The solver of the play setting's engine: a 32 MiB table and no selective pre-search
    /// (it serves full-window solves only; the engine's solves are win-loss-draw windows).
    #[must_use]
    pub fn for_play() -> Self {
        Self::with_options(
            PLAY_TABLE_BITS,
            Options {
                presearch_from: 65,
                ..Options::default()
            },
        )
    }
}

impl<const N: usize> EndgameSolver<Othello<N>> for Solver<N> {
    fn moves_left(&self, pos: &Othello<N>) -> u32 {
        let (p, o) = pos.bitboards();
        (Geometry::<N>::VALID & !(p | o)).count_ones()
    }

    fn solve(
        &mut self,
        pos: &Othello<N>,
        alpha: i32,
        beta: i32,
        poll: Poll,
    ) -> Option<Solved<Move>> {
        self.solve_polled(pos, alpha, beta, poll).map(|r| Solved {
            value: r.score,
            best_move: r.best_move,
            nodes: r.nodes,
        })
    }

    fn clear(&mut self) {
        Solver::clear(self);
    }
}

/// The corners of the `N` x `N` board.
#[inline]
fn corner_mask<const N: usize>() -> u64 {
    1 | 1 << (N - 1) | 1 << ((N - 1) * 8) | 1 << ((N - 1) * 8 + N - 1)
}

/// Solves `pos` exactly (full window) with a fresh solver of `Solver::new(16)` (2 MiB table).
#[must_use]
pub fn solve<const N: usize>(pos: &Othello<N>) -> SolveResult {
    Solver::<N>::default().solve(pos, -((N * N) as i32), (N * N) as i32)
}

/// Solves `pos` within the window `(alpha, beta)` with a fresh solver (see
/// [`Solver::solve`] for what the score means outside the window).
#[must_use]
pub fn solve_window<const N: usize>(pos: &Othello<N>, alpha: i32, beta: i32) -> SolveResult {
    Solver::<N>::default().solve(pos, alpha, beta)
}

/// One xorshift step (Marsaglia's 13, 7, 17): random bitboards for the tests.
#[cfg(test)]
fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

#[cfg(test)]
mod tests;
