//! The pieces of the alpha-beta split engine ([`super::split_ab`]) that are not about
//! splitting: the window a
//! problem carries, the bounds of a frame of the explicit stack, the node type on the wire, the
//! conversions around the sequential leaf search, the frames' move order (the game's hints, a
//! sorting regime's look-ahead, the table move, the killers and the history), the
//! frames' table probe and store, and the pool of leaf searchers. `split_ab/README.md` describes
//! how the engine uses these.

use std::cmp::Reverse;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::ThreadId;

use games::Game;
use games::score::INFINITY;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::ParallelError;
use crate::search::limits::MAX_PLY;
use crate::search::ordering::select_next;
use crate::search::refutation::First;
use crate::search::sorting::NodeType;
use crate::search::tt::{Bound, TtEntry, value_from_tt, value_to_tt};
use crate::search::{SearchConfig, Searcher, TranspositionTable, TtMode, Unlimited};

/// A window `(alpha, beta)` from the side to move, on the root's scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    /// Lower bound.
    pub alpha: i32,
    /// Upper bound.
    pub beta: i32,
}

impl Window {
    /// The infinite window.
    pub const FULL: Window = Window {
        alpha: -INFINITY,
        beta: INFINITY,
    };

    /// Narrows this window by `w` (windows only narrow).
    pub fn narrow(&mut self, w: Window) {
        self.alpha = self.alpha.max(w.alpha);
        self.beta = self.beta.min(w.beta);
    }
}

/// A node type travels as its number (1, 2 or 3), as in Knuth and Moore.
impl Serialize for NodeType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(match self {
            NodeType::One => 1,
            NodeType::Two => 2,
            NodeType::Three => 3,
        })
    }
}

impl<'de> Deserialize<'de> for NodeType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match u8::deserialize(d)? {
            1 => Ok(NodeType::One),
            2 => Ok(NodeType::Two),
            3 => Ok(NodeType::Three),
            n => Err(serde::de::Error::custom(format!(
                "node type {n}: expected 1, 2 or 3"
            ))),
        }
    }
}

/// The fail-soft bounds of a frame: its best value so far and the move that gave it, its
/// window, and the window its pieces were last sent.
#[derive(Clone, Copy, Debug)]
pub(super) struct Bounds {
    /// The best child value so far (from the frame's side).
    pub(super) best: i32,
    /// The best move's index in generation order.
    pub(super) best_index: Option<u32>,
    pub(super) alpha: i32,
    pub(super) beta: i32,
    /// The window last given to this frame's pieces (from this frame's side).
    pub(super) sent: (i32, i32),
}

impl Bounds {
    /// A frame searched with window `w`, nothing searched yet.
    pub(super) fn new(w: Window) -> Bounds {
        Bounds {
            best: -INFINITY,
            best_index: None,
            alpha: w.alpha,
            beta: w.beta,
            sent: (w.alpha, w.beta),
        }
    }

    /// The effective lower bound: alpha raised by the best value so far.
    pub(super) fn alpha_eff(&self) -> i32 {
        self.alpha.max(self.best)
    }

    /// The window a child gets now (from the child's side).
    pub(super) fn child_window(&self) -> Window {
        Window {
            alpha: -self.beta,
            beta: -self.alpha_eff(),
        }
    }

    /// Narrows the window by `w` (from this frame's side).
    pub(super) fn narrow(&mut self, w: Window) {
        self.alpha = self.alpha.max(w.alpha);
        self.beta = self.beta.min(w.beta);
    }

    /// Whether nothing is left to search: the effective window is empty.
    pub(super) fn closed(&self) -> bool {
        self.alpha_eff() >= self.beta
    }

    /// Whether the best value reached beta (a cutoff).
    pub(super) fn cut(&self) -> bool {
        self.best >= self.beta
    }

    /// Takes `value` (from this frame's side) of the move with generation index `index`.
    pub(super) fn raise(&mut self, value: i32, index: u32) {
        if value > self.best {
            self.best = value;
            self.best_index = Some(index);
        }
    }

    /// Records the current window as sent to the pieces.
    pub(super) fn mark_sent(&mut self) {
        self.sent = (self.alpha_eff(), self.beta);
    }

    /// Whether the window changed since it was last sent; if so, records it as sent.
    pub(super) fn resend(&mut self) -> bool {
        let now = (self.alpha_eff(), self.beta);
        let changed = now != self.sent;
        self.sent = now;
        changed
    }
}

/// The transposition table of a run: sized by the configuration, empty (and never used by a
/// search) when the table is off.
pub(super) fn new_table(config: &SearchConfig) -> Result<Arc<TranspositionTable>, ParallelError> {
    let table = TranspositionTable::for_config(config).map_err(crate::search::SearchError::from)?;
    Ok(Arc::new(table))
}

/// The leaf search's window for window `w` of a node at `ply` (the searcher counts decisive
/// scores from its own root).
pub(super) fn leaf_window(w: Window, ply: u32) -> (i32, i32) {
    let p = ply as usize;
    (
        value_to_tt(w.alpha, p).clamp(-INFINITY, INFINITY),
        value_to_tt(w.beta, p).clamp(-INFINITY, INFINITY),
    )
}

/// A leaf search's value at `ply` on the run root's scale.
pub(super) fn leaf_value(v: i32, ply: u32) -> i32 {
    value_from_tt(v, ply as usize)
}

/// The index of `mv` among the moves of `pos` in generation order.
pub(super) fn move_index<G: Game>(pos: &G, mv: G::Move) -> Option<u32> {
    let mut moves = Vec::with_capacity(G::MAX_MOVES);
    pos.generate_moves(&mut moves);
    moves
        .iter()
        .position(|&m| m == mv)
        .and_then(|i| u32::try_from(i).ok())
}

/// The moves of `pos` with their generation indices, in the game's order, stably sorted by the
/// game's hint (larger first) when `ordering` is on.
pub(super) fn hinted_moves<G: Game>(pos: &G, ordering: bool) -> Vec<(G::Move, u32)> {
    let mut generated = Vec::with_capacity(G::MAX_MOVES);
    pos.generate_moves(&mut generated);
    let mut moves: Vec<(G::Move, u32)> = generated
        .into_iter()
        .enumerate()
        .map(|(i, m)| (m, i as u32))
        .collect();
    if ordering {
        moves.sort_by_key(|&(m, _)| Reverse(pos.move_hint(m)));
    }
    moves
}

/// A sorting regime's order of `moves` (the moves of `pos`, at `ply` with `depth` plies left):
/// generation indices, best first by the look-ahead of `config.sorting`, with the look-ahead's
/// nodes (Rezaie and Finkel section 5).
pub(super) fn sorted_by_expansion<G: Game>(
    searcher: &mut Searcher<G>,
    config: &SearchConfig,
    pos: &G,
    moves: &[G::Move],
    depth: u32,
    ply: u32,
) -> (Vec<u32>, u64) {
    let expansion = config.sorting.expansion_depth.min(depth);
    let before = searcher.stats().sort_nodes;
    let mut keyed = Vec::with_capacity(moves.len());
    let mut p = pos.clone();
    searcher.sort_by_expansion(
        &mut p,
        moves,
        &mut keyed,
        expansion,
        ply as usize,
        &mut Unlimited,
    );
    let nodes = searcher.stats().sort_nodes - before;
    (
        keyed.into_iter().map(|(_, i)| u32::from(i)).collect(),
        nodes,
    )
}

/// The order of `moves` (the moves of `pos`, a frame at `ply` from the run's root): what
/// `first` names, then by the sequential search's key (the game's hint, the killers of `ply`
/// and the history of `searcher`, whose leaf searches keep their killers by ply from the
/// run's root too), picked as the sequential search picks them (repeated selection of the
/// largest key, ties to the earliest). Generation indices, each with its key (the play setting
/// reduces moves by their key, as the sequential search does).
pub(super) fn keyed_order<G: Game>(
    searcher: &Searcher<G>,
    pos: &G,
    moves: &[G::Move],
    first: First<'_>,
    ply: u32,
) -> Vec<(u32, i64)> {
    let mut order: Vec<(i64, u16)> = moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            let i = i as u16;
            let key = first.key(i).unwrap_or_else(|| {
                searcher
                    .tables
                    .key(pos, mv, (ply as usize).min(MAX_PLY), searcher.key_rules())
            });
            (key, i)
        })
        .collect();
    for i in 0..order.len() {
        select_next(&mut order, i);
    }
    order
        .into_iter()
        .map(|(key, i)| (u32::from(i), key))
        .collect()
}

/// The leaf searchers of a run, kept between the searches of one run and between the runs of
/// iterative deepening (their killers and history persist, as in one sequential search), each
/// with the thread that used it last (`None`: free, since the threads of the last runtime run
/// are gone): a thread takes its own back, so that on real threads a searcher's history,
/// killers and buffers stay in one core's cache instead of moving between cores.
pub(super) struct SearcherPool<G: Game> {
    config: SearchConfig,
    table: Arc<TranspositionTable>,
    /// Whether searchers are reused at all (else every search gets a new one).
    reuse: bool,
    free: Mutex<Vec<(Option<ThreadId>, Searcher<G>)>>,
}

impl<G: Game> SearcherPool<G> {
    /// A pool of searchers with `config` sharing `table`; without `reuse` every search gets a
    /// new searcher.
    pub(super) fn new(config: SearchConfig, table: Arc<TranspositionTable>, reuse: bool) -> Self {
        SearcherPool {
            config,
            table,
            reuse,
            free: Mutex::new(Vec::new()),
        }
    }

    /// A searcher for a search on this thread: the one this thread used last, else a free one
    /// (used by a thread of an earlier runtime run: it keeps its history), else a new one.
    pub(super) fn take(self: &Arc<Self>) -> PooledSearcher<G> {
        let me = Some(std::thread::current().id());
        let taken = if self.reuse {
            let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
            free.iter()
                .rposition(|(t, _)| *t == me)
                .or_else(|| free.iter().rposition(|(t, _)| t.is_none()))
                .map(|i| free.swap_remove(i).1)
        } else {
            None
        };
        let searcher =
            taken.unwrap_or_else(|| Searcher::with_table(self.config, Arc::clone(&self.table)));
        PooledSearcher {
            searcher: Some(searcher),
            pool: Arc::clone(self),
        }
    }

    /// Forgets the killers and history of every free searcher (a new game).
    pub(super) fn clear(&self) {
        for (_, s) in self
            .free
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter_mut()
        {
            s.clear_ordering();
        }
    }

    /// Marks every searcher free (before a runtime run: its threads are new).
    pub(super) fn free_all(&self) {
        for (t, _) in self
            .free
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter_mut()
        {
            *t = None;
        }
    }
}

/// A searcher taken from a [`SearcherPool`], given back when dropped.
pub(super) struct PooledSearcher<G: Game> {
    /// Always present until the drop gives it back.
    searcher: Option<Searcher<G>>,
    pool: Arc<SearcherPool<G>>,
}

impl<G: Game> std::ops::Deref for PooledSearcher<G> {
    type Target = Searcher<G>;

    fn deref(&self) -> &Searcher<G> {
        self.searcher
            .as_ref()
            .unwrap_or_else(|| unreachable!("a pooled searcher is present until dropped"))
    }
}

impl<G: Game> std::ops::DerefMut for PooledSearcher<G> {
    fn deref_mut(&mut self) -> &mut Searcher<G> {
        self.searcher
            .as_mut()
            .unwrap_or_else(|| unreachable!("a pooled searcher is present until dropped"))
    }
}

impl<G: Game> Drop for PooledSearcher<G> {
    fn drop(&mut self) {
        if let (true, Some(s)) = (self.pool.reuse, self.searcher.take()) {
            let me = Some(std::thread::current().id());
            self.pool
                .free
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push((me, s));
        }
    }
}

/// The principal variation from `root`: the move with generation index `first`, then the
/// table's moves, at most `depth` moves (a cycle or a missing entry ends it).
pub(super) fn table_pv<G: Game>(
    table: &TranspositionTable,
    root: &G,
    first: Option<u32>,
    depth: u32,
) -> Vec<G::Move> {
    let mut pv = Vec::new();
    let mut pos = root.clone();
    let mut moves = Vec::with_capacity(G::MAX_MOVES);
    let mut next = first;
    while pv.len() < depth as usize && pos.outcome().is_none() {
        let Some(index) = next else {
            break;
        };
        pos.generate_moves(&mut moves);
        let Some(&mv) = moves.get(index as usize) else {
            break;
        };
        pv.push(mv);
        let _ = pos.make_move(mv);
        next = table
            .probe(pos.hash())
            .and_then(|e| e.move_index.map(u32::from));
    }
    pv
}

/// Whether a frame with `depth` plies left probes and stores the table.
pub(crate) fn uses_table(config: &SearchConfig, depth: u32) -> bool {
    config.move_ordering && config.tt_mode != TtMode::Off && depth >= config.tt_min_depth
}

/// Probes `table` for a node at `ply` with `depth` plies left searched with window `w`: the
/// stored value when it decides the window (never at the run's root, which needs its best
/// move), and the stored move's generation index.
pub(super) fn probe(
    table: &TranspositionTable,
    config: &SearchConfig,
    hash: u64,
    depth: u32,
    ply: u32,
    w: Window,
) -> (Option<i32>, Option<u32>) {
    if !uses_table(config, depth) {
        return (None, None);
    }
    let Some(e) = table.probe(hash) else {
        return (None, None);
    };
    let mv = e.move_index.map(u32::from);
    let deep_enough = match config.tt_mode {
        TtMode::ExactDepth => u32::from(e.depth) == depth.min(255),
        _ => u32::from(e.depth) >= depth.min(255),
    };
    if deep_enough && ply > 0 {
        let v = value_from_tt(e.value, ply as usize);
        let cuts = match e.bound {
            Bound::Exact => true,
            Bound::Lower => v >= w.beta,
            Bound::Upper => v <= w.alpha,
        };
        if cuts {
            return (Some(v), mv);
        }
    }
    (None, mv)
}

/// Stores the value of a completed frame (position `hash`, `depth` plies left, at `ply`, with
/// bounds `b`) on the root scale with the bound it is. A frame whose window closed from above
/// stores nothing.
pub(super) fn store(
    table: &TranspositionTable,
    config: &SearchConfig,
    hash: u64,
    depth: u32,
    ply: u32,
    b: &Bounds,
) {
    if !uses_table(config, depth) || b.alpha >= b.beta || b.best.abs() >= INFINITY {
        return;
    }
    let bound = if b.best >= b.beta {
        Bound::Lower
    } else if b.best <= b.alpha {
        Bound::Upper
    } else {
        Bound::Exact
    };
    table.store(
        hash,
        TtEntry {
            value: value_to_tt(b.best, ply as usize),
            depth: depth.min(255) as u8,
            bound,
            // As the sequential search: a node that failed low has no best move (its values
            // are only upper bounds), so the table keeps the move it had.
            move_index: if bound == Bound::Upper {
                None
            } else {
                b.best_index.and_then(|i| u16::try_from(i).ok())
            },
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_types_travel_as_their_numbers() {
        for (t, code) in [
            (NodeType::One, "1"),
            (NodeType::Two, "2"),
            (NodeType::Three, "3"),
        ] {
            let text = serde_json::to_string(&t).expect("serializes");
            assert_eq!(text, code);
            let back: NodeType = serde_json::from_str(&text).expect("deserializes");
            assert_eq!(back, t);
        }
        assert!(serde_json::from_str::<NodeType>("4").is_err());
    }

    #[test]
    fn bounds_narrow_and_resend_only_changes() {
        let mut b = Bounds::new(Window::FULL);
        assert!(!b.resend());
        b.raise(5, 2);
        assert_eq!(b.best_index, Some(2));
        assert_eq!(
            b.child_window(),
            Window {
                alpha: -INFINITY,
                beta: -5
            }
        );
        assert!(b.resend());
        assert!(!b.resend());
        b.narrow(Window { alpha: 0, beta: 5 });
        assert!(b.closed());
        assert!(b.cut());
    }
}
