//! [`Searcher`]: one sequential search engine with its transposition table, ordering tables,
//! buffers and statistics, reusable from search to search (and as the leaf search of every
//! parallel processor).

use std::sync::Arc;
use std::time::Duration;

use games::Game;

use super::busy::BusyTable;
use super::context::{POLL_INTERVAL, SearchContext, Signal};
use super::limits::{Limits, MAX_DEPTH, MAX_PLY};
use super::ordering::{KeyRules, OrderingTables};
use super::refutation::RefutationTable;
use super::settings::{Algorithm, SearchConfig, TtMode};
use super::sorting::NodeType;
use super::stats::SearchStats;
use super::tt::{TranspositionTable, TtError};

/// Errors of building a searcher.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The transposition table could not be built.
    #[error(transparent)]
    Table(#[from] TtError),
}

/// The result of one fixed-depth search with a given window ([`Searcher::search_window`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowResult<M> {
    /// The fail-soft value: exact inside the window, a bound outside it.
    pub value: i32,
    /// The principal variation (empty when the position is over or the search was stopped).
    pub pv: Vec<M>,
    /// False when a limit or the context stopped the search (the value is then meaningless).
    pub completed: bool,
}

/// Per-ply buffers: the legal moves, their ordering keys, and (ABDADA) the search positions
/// put off to the second pass.
pub(crate) struct PlyBuffers<M> {
    pub(crate) moves: Vec<M>,
    pub(crate) order: Vec<(i64, u16)>,
    pub(crate) deferred: Vec<u16>,
}

impl<M> Default for PlyBuffers<M> {
    fn default() -> Self {
        PlyBuffers {
            moves: Vec::new(),
            order: Vec::new(),
            deferred: Vec::new(),
        }
    }
}

/// What a node knows about its place in the tree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeInfo {
    /// Knuth-Moore type (for the sorting regimes and for recognising PV nodes).
    pub(crate) kind: NodeType,
    /// Searched first among its siblings.
    pub(crate) eldest: bool,
    /// A null move may be tried here (not right after another one).
    pub(crate) null_ok: bool,
    /// ABDADA: a younger child in the first pass, searched only if no other processor is
    /// searching it (else put off: [`Searcher::deferred`]).
    pub(crate) exclusive: bool,
}

impl NodeInfo {
    pub(crate) const ROOT: NodeInfo = NodeInfo {
        kind: NodeType::One,
        eldest: true,
        null_ok: false,
        exclusive: false,
    };
}

/// Where a search's root lies in a larger tree (the leaf searches of the parallel algorithms):
/// `ply` plies below the tree's root, of Knuth-Moore type `kind`, searched first among its
/// siblings when `eldest`. The sorting regimes then sort exactly the nodes one search of the
/// whole tree would.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TreePlace {
    pub(crate) ply: usize,
    pub(crate) kind: NodeType,
    pub(crate) eldest: bool,
    /// A null move may be tried at the root (play setting: not right after another one).
    pub(crate) null_ok: bool,
    /// The nominal depth of the whole tree's iteration (play setting: check extensions reach
    /// at most twice it from the tree's root); `None`: this search's own depth from its root.
    pub(crate) tree_depth: Option<u32>,
}

/// A sequential search engine for game `G`.
///
/// Build one per thread; the transposition table may be shared ([`Searcher::with_table`]).
/// [`Searcher::search`] runs iterative deepening under [`Limits`]; [`Searcher::search_window`]
/// runs one fixed-depth search with a given window (the building block of the parallel
/// algorithms); [`Searcher::minimax`] is the oracle. The searcher never reads the clock: time
/// and abort requests come from the [`SearchContext`].
pub struct Searcher<G: Game> {
    pub(crate) config: SearchConfig,
    pub(crate) tt: Arc<TranspositionTable>,
    pub(crate) tables: OrderingTables<G>,
    pub(crate) stats: SearchStats,
    pub(crate) plies: Vec<PlyBuffers<G::Move>>,
    pub(crate) sort_moves: Vec<Vec<G::Move>>,
    pv: Vec<Vec<G::Move>>,
    /// Nodes visited since the search began (the poll and node-limit counter).
    pub(crate) visited: u64,
    next_poll: u64,
    node_limit: u64,
    deadline: Option<Duration>,
    pub(crate) stopped: bool,
    /// Check extensions happen only at nodes fewer plies than this below the search's root:
    /// twice the nominal depth of the running iteration (counted from the whole tree's root
    /// for a search placed in a larger tree).
    pub(crate) extension_limit: i32,
    /// The root's place in a larger tree (sorting regimes); `None`: the root is the tree's root.
    pub(crate) place: Option<TreePlace>,
    /// The refutation table's state (`SearchConfig::refutation_table`).
    pub(crate) refute: RefuteState,
    /// ABDADA: the count of processors searching each node, shared by the processors (`None`:
    /// every other search).
    pub(crate) busy: Option<Arc<BusyTable>>,
    /// ABDADA: nodes with fewer plies left than this are not counted in `busy` (nor put off).
    pub(crate) busy_min_depth: u32,
    /// ABDADA: the node just searched was put off because another processor is searching it
    /// (its value is meaningless); the parent reads and clears it.
    pub(crate) deferred: bool,
}

/// What the refutation table needs while searching (see `refutation`).
#[derive(Debug, Default)]
pub(crate) struct RefuteState {
    /// The last completed iteration's table (the sequential root orders by it).
    pub(crate) table: Option<RefutationTable>,
    /// The root's children of the running root search: (move, value, line below it).
    pub(crate) children: Vec<(u16, i32, Vec<u16>)>,
    /// The best line found at each ply (the node's best move, then its child's line).
    pub(crate) lines: Vec<Vec<u16>>,
    /// The line being followed: its move at ply `p` is `follow[p - base]`.
    pub(crate) follow: Vec<u16>,
    pub(crate) base: usize,
    /// Whether the node at each ply is on the followed line.
    pub(crate) on_line: Vec<bool>,
}

impl RefuteState {
    fn new() -> RefuteState {
        RefuteState {
            lines: vec![Vec::new(); MAX_PLY + 2],
            on_line: vec![false; MAX_PLY + 2],
            ..RefuteState::default()
        }
    }

    /// The line's move at the node at `ply`, when that node is on the line.
    #[inline]
    pub(crate) fn line_move(&self, ply: usize) -> Option<u16> {
        if self.on_line[ply] && ply >= self.base {
            self.follow.get(ply - self.base).copied()
        } else {
            None
        }
    }
}

impl<G: Game> std::fmt::Debug for Searcher<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("config", &self.config)
            .field("tt", &self.tt)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl<G: Game> Searcher<G> {
    /// A searcher with its own transposition table of `config.tt_mib` MiB, or `tt_entries`
    /// entries (none when the table is off; [`TranspositionTable::for_config`]).
    ///
    /// # Errors
    /// When the table cannot be built (too large).
    pub fn new(config: SearchConfig) -> Result<Self, SearchError> {
        let tt = Arc::new(TranspositionTable::for_config(&config)?);
        Ok(Self::with_table(config, tt))
    }

    /// A searcher using a (possibly shared) transposition table.
    pub fn with_table(config: SearchConfig, tt: Arc<TranspositionTable>) -> Self {
        let mut plies = Vec::with_capacity(MAX_PLY + 2);
        let mut sort_moves = Vec::with_capacity(MAX_PLY + 2);
        for _ in 0..MAX_PLY + 2 {
            plies.push(PlyBuffers {
                moves: Vec::with_capacity(G::MAX_MOVES),
                order: Vec::with_capacity(G::MAX_MOVES),
                deferred: Vec::new(),
            });
            sort_moves.push(Vec::with_capacity(G::MAX_MOVES));
        }
        Searcher {
            config,
            tt,
            tables: OrderingTables::new(),
            stats: SearchStats::default(),
            plies,
            sort_moves,
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY + 2))
                .collect(),
            visited: 0,
            next_poll: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            extension_limit: 0,
            place: None,
            refute: RefuteState::new(),
            busy: None,
            busy_min_depth: 0,
            deferred: false,
        }
    }

    /// This searcher as one of ABDADA's processors: it counts itself into `busy` at the
    /// nodes with at least `min_depth` plies left and puts off the younger children another
    /// processor is searching (Weill 1996; `alphabeta`).
    #[must_use]
    pub fn with_busy(mut self, busy: Arc<BusyTable>, min_depth: u32) -> Self {
        self.busy = Some(busy);
        self.busy_min_depth = min_depth;
        self
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// The transposition table (to share it with another searcher).
    #[must_use]
    pub fn table(&self) -> &Arc<TranspositionTable> {
        &self.tt
    }

    /// The counters since the last [`Searcher::search`] or [`Searcher::reset_stats`].
    #[must_use]
    pub fn stats(&self) -> &SearchStats {
        &self.stats
    }

    /// Zeroes the counters.
    pub fn reset_stats(&mut self) {
        self.stats = SearchStats::default();
    }

    /// Forgets everything learnt (a new game): table, killers, history.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.tables.clear();
    }

    /// Forgets the killers and history (not the table, which may be shared).
    pub(crate) fn clear_ordering(&mut self) {
        self.tables.clear();
    }

    /// Prepares the per-search state for `limits` (the counters are not touched).
    pub(crate) fn arm(&mut self, limits: &Limits) {
        self.deferred = false;
        self.visited = 0;
        self.next_poll = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time;
        self.stopped = false;
    }

    /// Counts a visited node and polls the context when due. Returns true when the search must
    /// stop (the caller returns at once; its value is discarded).
    #[inline]
    pub(crate) fn enter(&mut self, ctx: &mut dyn SearchContext) -> bool {
        if self.stopped {
            return true;
        }
        if self.visited >= self.node_limit {
            self.stopped = true;
            return true;
        }
        if self.visited >= self.next_poll {
            self.next_poll = self.visited + POLL_INTERVAL;
            if ctx.poll_counts(self.visited, &self.stats) == Signal::Stop
                || self.deadline.is_some_and(|d| ctx.elapsed() >= d)
            {
                self.stopped = true;
                return true;
            }
        }
        self.visited += 1;
        false
    }

    /// Whether iterative deepening should start no new iteration (half the time is used).
    pub(crate) fn past_soft_deadline(&self, ctx: &dyn SearchContext) -> bool {
        self.deadline.is_some_and(|d| ctx.elapsed() >= d / 2) || ctx.past_soft_deadline()
    }

    pub(crate) fn pv_clear(&mut self, ply: usize) {
        self.pv[ply].clear();
    }

    /// The PV at `ply` becomes `mv` followed by the PV of `ply + 1`.
    pub(crate) fn pv_update(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// The PV found by the last root search, extended from the table's moves where a table hit
    /// cut it short, up to `depth` moves.
    pub(crate) fn root_pv(&self, root: &G, depth: u32) -> Vec<G::Move> {
        let mut pv = self.pv[0].clone();
        if self.config.tt_mode == TtMode::Off {
            return pv;
        }
        let mut pos = root.clone();
        for &mv in &pv {
            let _ = pos.make_move(mv);
        }
        let mut moves = Vec::with_capacity(G::MAX_MOVES);
        while pv.len() < depth as usize && pos.outcome().is_none() {
            let Some(index) = self.tt.probe(pos.hash()).and_then(|e| e.move_index) else {
                break;
            };
            pos.generate_moves(&mut moves);
            let Some(&mv) = moves.get(usize::from(index)) else {
                break;
            };
            pv.push(mv);
            let _ = pos.make_move(mv);
        }
        pv
    }

    /// One fixed-depth search of `pos` with the window `(alpha, beta)`, using the configured
    /// algorithm and keeping the table, killers and history of earlier searches. Decisive scores
    /// count plies from `pos`. Counters accumulate (see [`Searcher::reset_stats`]). This is the
    /// leaf search the parallel algorithms run on each processor; only the context can stop it.
    pub fn search_window(
        &mut self,
        pos: &G,
        depth: u32,
        alpha: i32,
        beta: i32,
        ctx: &mut dyn SearchContext,
    ) -> WindowResult<G::Move> {
        self.search_window_limited(pos, depth, alpha, beta, &Limits::default(), ctx)
    }

    /// [`Searcher::search_window`] for the value alone: no principal variation is gathered
    /// (the table walk and allocations that cost a short leaf search several percent). Only
    /// the context can stop it; the value is then meaningless (0).
    pub fn search_window_value(
        &mut self,
        pos: &G,
        depth: u32,
        alpha: i32,
        beta: i32,
        ctx: &mut dyn SearchContext,
    ) -> i32 {
        self.arm(&Limits::default());
        let mut root = pos.clone();
        let value = self.root_search(&mut root, depth.min(MAX_DEPTH), alpha, beta, ctx);
        if self.stopped { 0 } else { value }
    }

    /// [`Searcher::search_window`] that also stops at the node and time limits of `limits`
    /// (its depth is ignored: `depth` is searched).
    pub fn search_window_limited(
        &mut self,
        pos: &G,
        depth: u32,
        alpha: i32,
        beta: i32,
        limits: &Limits,
        ctx: &mut dyn SearchContext,
    ) -> WindowResult<G::Move> {
        self.arm(limits);
        let depth = depth.min(MAX_DEPTH);
        let mut root = pos.clone();
        let value = self.root_search(&mut root, depth, alpha, beta, ctx);
        if self.stopped {
            return WindowResult {
                value: 0,
                pv: Vec::new(),
                completed: false,
            };
        }
        WindowResult {
            value,
            pv: self.root_pv(pos, depth),
            completed: true,
        }
    }

    /// [`Searcher::search_window`] with the window `(alpha, beta)` for a node at `place` in a
    /// larger tree: the sorting regimes
    /// count plies from the tree's root and start from the node's type and eldest flag; with
    /// the refutation table on, the search follows `line` (this node's move first, then the
    /// next node's, as long as the moves searched are the line's) and
    /// [`Searcher::best_line`] gives the line it found.
    pub(crate) fn search_window_at(
        &mut self,
        pos: &G,
        depth: u32,
        (alpha, beta): (i32, i32),
        place: TreePlace,
        line: &[u16],
        ctx: &mut dyn SearchContext,
    ) -> WindowResult<G::Move> {
        self.place = Some(place);
        if self.config.refutation_table {
            self.refute.follow.clear();
            self.refute.follow.extend_from_slice(line);
            self.refute.base = 0;
            self.refute.on_line[0] = !line.is_empty();
        }
        let r = self.search_window(pos, depth, alpha, beta, ctx);
        self.place = None;
        r
    }

    /// The best line the last search found from its root (the refutation table's line:
    /// the root's best move first); empty when the table is off.
    pub(crate) fn best_line(&self) -> &[u16] {
        &self.refute.lines[0]
    }

    /// The static evaluation of `pos`: the game's trained one in the play setting with
    /// `trained-eval`, else [`Game::evaluate`].
    #[inline]
    pub(crate) fn evaluate(&self, pos: &G) -> i32 {
        if self.config.play_enhancements() && self.config.play_features.trained_eval {
            pos.evaluate_trained()
        } else {
            pos.evaluate()
        }
    }

    /// The play setting's changes to the ordering keys (none in the research setting).
    #[inline]
    pub(crate) fn key_rules(&self) -> KeyRules {
        let play = self.config.play_enhancements();
        let f = self.config.play_features;
        KeyRules {
            see: play && f.see_ordering,
            killers_first: play && f.killers_first,
        }
    }

    /// The ply whose killers a node `ply` plies below this search's root uses: plies from the
    /// whole tree's root (a parallel leaf search shares its killers with the frames above it,
    /// as one sequential search would), at most [`MAX_PLY`].
    #[inline]
    pub(crate) fn killer_ply(&self, ply: usize) -> usize {
        self.sort_ply(ply).min(MAX_PLY)
    }

    /// The sorting-regime ply of a node `ply` plies below this search's root.
    #[inline]
    pub(crate) fn sort_ply(&self, ply: usize) -> usize {
        self.place.map_or(ply, |p| p.ply + ply)
    }

    /// One root search with the configured algorithm.
    pub(crate) fn root_search(
        &mut self,
        root: &mut G,
        depth: u32,
        alpha: i32,
        beta: i32,
        ctx: &mut dyn SearchContext,
    ) -> i32 {
        self.extension_limit = match self.place {
            Some(TreePlace {
                ply,
                tree_depth: Some(d),
                ..
            }) => 2 * d as i32 - ply as i32,
            _ => 2 * depth as i32,
        };
        match self.config.algorithm {
            Algorithm::Minimax => self.minimax_node(root, depth as i32, 0, ctx),
            Algorithm::AlphaBeta | Algorithm::Pvs => {
                let node = self.place.map_or(NodeInfo::ROOT, |p| NodeInfo {
                    kind: p.kind,
                    eldest: p.eldest,
                    null_ok: p.null_ok,
                    exclusive: false,
                });
                self.alphabeta(root, depth as i32, alpha, beta, 0, node, ctx)
            }
        }
    }
}
