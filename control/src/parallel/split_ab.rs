//! Alpha-beta over any [`Game`] as a DIB application, with a *split policy* saying which nodes
//! of a running search may hand children to other processors and how children are searched:
//! the shared engine of mandatory work first ([`super::mwf`], [`super::dmwf`]), tree splitting
//! ([`super::treesplit`]), PV splitting ([`super::pvsplit`]) and ER ([`super::er`]).
//! `split_ab.md` beside this file describes the mechanism and gives the measured curves.
//!
//! Every search is fail-soft negamax alpha-beta over an explicit stack of frames (one frame per
//! node with at least `min_split_depth` plies left; shallower subtrees and terminal positions
//! are searched at once by the sequential [`Searcher`], told where in the whole tree they lie so
//! that the sorting regimes apply as in one sequential search). A frame works through a list of
//! *tasks*: normally one per child, in search order (the game's order, the game's hints when
//! ordering is on, or a sorting regime's order); ER adds elder-grandchild tasks and orders its
//! children by them; PV splitting adds re-search tasks. Each frame knows its Knuth-Moore type
//! in the sense of Akl, Barnard and Doran (type 1: the leftmost path; the eldest child of a
//! type-1 node is type 1 and the others type 2; every child of a type-2 node is type 3; every
//! child of a type-3 node is type 2). When a peer asks for work, the shallowest frame the
//! policy allows hands off all its untried tasks. A piece carries the window its task gets from
//! its frame; when that window narrows, the new window goes to the piece as an update
//! (information spreading); when a frame is cut off, its pieces are aborted. Windows only
//! narrow (a minimal-window piece keeps the bound it was started with), so every value returned
//! is a correct fail-soft bound for the latest window and the root, whose window stays
//! infinite, gets the exact value of sequential alpha-beta.
//!
//! Values are kept on the real root's scale (wins and losses count plies from the real root),
//! as in the sequential search; a problem carries its distance from the real root.

use std::cmp::Reverse;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use dib::{Application, Backend, Effects, Piece, Search, Slot, Step};
use games::Game;
use games::score::INFINITY;
use serde::{Deserialize, Serialize};

pub use super::ab_frames::Window;
use super::ab_frames::{self, Bounds, FrameKillers, PooledSearcher, SearcherPool, hinted_moves};
use super::{ParallelError, ParallelOptions, ParallelResult, deepening, result_from_report};
use crate::search::searcher::TreePlace;
use crate::search::sorting::NodeType;
use crate::search::{Algorithm, SearchConfig, SortRegime, TranspositionTable, Unlimited};

/// Which frames may hand children to other processors, and how children are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitPolicy {
    /// Mandatory work first: type-1 and type-3 nodes split at any time; a type-2 node searches
    /// its eldest child first and its other children (here or handed out) only when the eldest
    /// did not cut it off (delayed evaluation). With `ParallelOptions::mwf_wait` (the default)
    /// it also waits until it has a finite beta, that is until the type-1 node above it has a
    /// value to cut it off with.
    Mwf,
    /// MWF where the children of a type-1 node whose static value (from the parent's side) is
    /// at or above this percentile of their siblings' are type 1 too.
    Dmwf {
        /// The percentile (seed 003 section 6: 90).
        percentile: u32,
    },
    /// Tree splitting: every node less than `split_depth` plies below the root splits; deeper
    /// nodes are searched where they are.
    TreeSplit {
        /// Plies below the root the processor tree reaches.
        split_depth: u32,
    },
    /// PV splitting (Marsland and Popowich, seed 004): only type-1 nodes split, after their
    /// eldest child is done; every younger sibling is searched with a minimal window and
    /// re-searched (as a new type-1 node, which may split again) when it fails high.
    PvSplit,
    /// Steinberg and Solomon's ER: e-nodes evaluate their elder grandchildren (in parallel),
    /// then an e-child, then refute the other children (in parallel, with further e-children);
    /// r-nodes refute with their children in order. See [`super::er`].
    Er,
    /// Young Brothers Wait (delay splitting, [`super::delaysplit`]): any frame splits once its
    /// eldest child is done.
    Ybw,
    /// Never splits: sequential alpha-beta on the runtime ([`super::alphabeta`]).
    Never,
}

impl SplitPolicy {
    /// Younger siblings get minimal windows and re-searches (PVS).
    fn minimal_windows(self) -> bool {
        self == SplitPolicy::PvSplit
    }

    /// The sorting regimes apply (ER has its own ordering: seed 003 section 5).
    fn sorts(self) -> bool {
        self != SplitPolicy::Er
    }

    fn is_mwf(self) -> bool {
        matches!(self, SplitPolicy::Mwf | SplitPolicy::Dmwf { .. })
    }

    /// With move ordering on, the frames work as the sequential search does (the engine
    /// setting, formerly `dib_alphabeta`'s): they probe and store the table, order by the table
    /// move, the hints, the frames' killers and the history, give younger children PVS minimal
    /// windows when the search is PVS, and the search deepens iteratively. Only YBW and never
    /// for now; the others keep the frames their measurements were made with (`split_ab.md`).
    fn engine_frames(self) -> bool {
        matches!(self, SplitPolicy::Ybw | SplitPolicy::Never)
    }
}

/// What a problem is asked to do: ER's two node roles, plain for every other policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// A node of MWF, DMWF, tree splitting or PV splitting.
    Plain,
    /// ER's e-node: evaluated (elder grandchildren, then an e-child, then refutations).
    Evaluate,
    /// ER's r-node: refuted (its children in order, each an e-node, until one refutes it).
    Refute,
}

/// A child of a problem that was already searched (ER's elder grandchild): its index in the
/// problem's generation order and its fail-soft value (from its own side) for a window at
/// least as wide as the one the problem will give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Known {
    /// The child's index in generation order.
    pub mv: u32,
    /// Its value.
    pub value: i32,
}

/// A problem: a position, its plies to go, its distance from the real root, its window, its
/// node type (1, 2 or 3), whether it is searched first among its siblings, its ER role and a
/// child already searched.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct AbProblem<G: Game> {
    /// The position.
    pub position: G,
    /// Plies to go.
    pub depth: u32,
    /// Plies from the real root.
    pub ply: u32,
    /// The window.
    pub window: Window,
    /// Knuth-Moore type.
    pub kind: NodeType,
    /// Searched first among its siblings (the sorting regimes' "eldest child").
    pub eldest: bool,
    /// ER's role.
    pub role: Role,
    /// A child already searched, tried first and not searched again.
    pub known: Option<Known>,
}

impl<G: Game> AbProblem<G> {
    /// The root problem of a run: `depth` plies from `position` with an infinite window.
    #[must_use]
    pub fn root(position: G, depth: u32, role: Role) -> Self {
        AbProblem {
            position,
            depth,
            ply: 0,
            window: Window::FULL,
            kind: NodeType::One,
            eldest: true,
            role,
            known: None,
        }
    }
}

/// A solved problem: its fail-soft value and the index of its best move (in generation order),
/// when known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbValue {
    /// The fail-soft value.
    pub value: i32,
    /// The best move's index among the position's moves.
    pub best: Option<u32>,
}

/// What the searches of one run count together (over all processors).
#[derive(Debug, Default)]
pub struct Counters {
    sort_nodes: AtomicU64,
    minimal_windows: AtomicU64,
    researches: AtomicU64,
    splits_type1: AtomicU64,
    splits_other: AtomicU64,
    type2_waits: AtomicU64,
    grandchildren: AtomicU64,
    grand_refuted: AtomicU64,
    e_children: AtomicU64,
}

fn bump(c: &AtomicU64, n: u64) {
    c.fetch_add(n, Ordering::Relaxed);
}

impl Counters {
    /// The figures that matter for `policy`, by name, for [`ParallelResult::extra`].
    #[must_use]
    pub fn extra(&self, policy: SplitPolicy) -> Vec<(&'static str, f64)> {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed) as f64;
        let mut out = vec![
            ("splits_type1", get(&self.splits_type1)),
            ("splits_other", get(&self.splits_other)),
        ];
        match policy {
            SplitPolicy::Mwf | SplitPolicy::Dmwf { .. } => {
                out.push(("type2_waits", get(&self.type2_waits)));
            }
            SplitPolicy::PvSplit => {
                out.push(("minimal_windows", get(&self.minimal_windows)));
                out.push(("researches", get(&self.researches)));
            }
            SplitPolicy::Er => {
                out.push(("elder_grandchildren", get(&self.grandchildren)));
                out.push(("refuted_by_grandchild", get(&self.grand_refuted)));
                out.push(("extra_e_children", get(&self.e_children)));
            }
            SplitPolicy::TreeSplit { .. } | SplitPolicy::Ybw | SplitPolicy::Never => {}
        }
        out
    }

    /// Nodes of the sorting look-ahead (charged as time, not counted as search nodes).
    #[must_use]
    pub fn sort_nodes(&self) -> u64 {
        self.sort_nodes.load(Ordering::Relaxed)
    }
}

/// The application.
pub struct SplitAb<G: Game> {
    policy: SplitPolicy,
    min_split_depth: u32,
    wait: bool,
    config: SearchConfig,
    table: Arc<TranspositionTable>,
    counters: Arc<Counters>,
    /// The frames' killers (engine frames only).
    killers: Arc<FrameKillers<G::Move>>,
    /// The leaf searchers (kept between searches with engine frames).
    searchers: Arc<SearcherPool<G>>,
}

impl<G: Game> std::fmt::Debug for SplitAb<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SplitAb")
            .field("policy", &self.policy)
            .field("min_split_depth", &self.min_split_depth)
            .finish_non_exhaustive()
    }
}

impl<G: Game> SplitAb<G> {
    /// The application for `policy` with the leaf search and granularity of `options`. The
    /// transposition table (when the search configuration uses one) is shared by the leaf
    /// searches of one processor set. ER ignores the sorting regime (it orders by its elder
    /// grandchildren).
    ///
    /// # Errors
    /// When the table cannot be built.
    pub fn new(policy: SplitPolicy, options: &ParallelOptions) -> Result<Self, ParallelError> {
        let table = ab_frames::new_table(&options.search)?;
        let mut config = options.search;
        if !policy.sorts() {
            config.sorting.regime = SortRegime::None;
        }
        Ok(SplitAb {
            policy,
            min_split_depth: options.min_split_depth.max(1),
            wait: options.mwf_wait,
            config,
            table: Arc::clone(&table),
            counters: Arc::new(Counters::default()),
            killers: Arc::new(FrameKillers::new()),
            searchers: Arc::new(SearcherPool::new(config, table, policy.engine_frames())),
        })
    }

    /// The counters of the runs of this application.
    #[must_use]
    pub fn counters(&self) -> &Arc<Counters> {
        &self.counters
    }
}

/// Runs `policy` on `root` to `options.depth` plies: one run of the runtime, or, with engine
/// frames ([`SplitPolicy::engine_frames`]) and the table on, iterative deepening with
/// aspiration windows (one run per depth, see [`super::deepening`]).
///
/// # Errors
/// [`ParallelError`] when the runtime or the table fails.
pub fn run<G: Game>(
    policy: SplitPolicy,
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    let app = Arc::new(SplitAb::<G>::new(policy, options)?);
    let counters = Arc::clone(app.counters());
    let role = if policy == SplitPolicy::Er {
        Role::Evaluate
    } else {
        Role::Plain
    };
    let engine = policy.engine_frames() && options.search.move_ordering;
    let dib_config = if engine {
        deepening::engine_dib_config(options)
    } else {
        options.dib
    };
    let search_at = |depth: u32, window: Window| {
        let mut problem = AbProblem::root(root.clone(), depth, role);
        problem.window = window;
        app.searchers.free_all();
        let report = dib::solve(
            Arc::clone(&app),
            problem,
            options.procs,
            &options.backend,
            dib_config,
        )?;
        let AbValue { value, best } = report.value;
        let mut moves = Vec::with_capacity(G::MAX_MOVES);
        root.generate_moves(&mut moves);
        let pv: Vec<G::Move> = best
            .and_then(|i| moves.get(i as usize).copied())
            .into_iter()
            .collect();
        Ok(result_from_report(report, value, pv, Vec::new()))
    };
    let mut result = if engine {
        let deepening = ab_frames::uses_table(&options.search, options.depth) && options.depth > 1;
        deepening::deepen(options, deepening, search_at)?
    } else {
        search_at(options.depth, Window::FULL)?
    };
    let mut extra = counters.extra(policy);
    let sort_nodes = counters.sort_nodes();
    if sort_nodes > 0 {
        extra.push(("sort_nodes", sort_nodes as f64));
        if let Backend::Sim(c) = &options.backend {
            // Virtual time spent sorting, summed over processors (at the base node cost).
            extra.push((
                "sort_seconds",
                sort_nodes as f64 * c.cost.node_ns as f64 / 1e9,
            ));
        }
    }
    result.extra.extend(extra);
    // Look-ahead nodes were charged (they take time) but are not search nodes.
    result.nodes = result.nodes.saturating_sub(sort_nodes);
    Ok(result)
}

impl<G: Game> Application for SplitAb<G> {
    type Problem = AbProblem<G>;
    type Value = AbValue;
    type Update = Window;
    type Search = AbSearch<G>;

    fn start(&self, problem: &AbProblem<G>) -> AbSearch<G> {
        AbSearch {
            policy: self.policy,
            min_split_depth: self.min_split_depth,
            wait: self.wait,
            config: self.config,
            counters: Arc::clone(&self.counters),
            engine: self.policy.engine_frames() && self.config.move_ordering,
            table: Arc::clone(&self.table),
            killers: Arc::clone(&self.killers),
            searcher: self.searchers.take(),
            problem: Some(problem.clone()),
            stack: Vec::new(),
            outstanding: 0,
            done: None,
        }
    }
}

/// What a task of a frame does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum What {
    /// Search a child.
    Child,
    /// ER: search the eldest child of a child (an elder grandchild).
    Grand,
    /// PVS: search again, with the full window, a child whose minimal-window search failed
    /// high.
    Research,
}

/// One thing a frame does for one of its children.
#[derive(Clone, Copy, Debug)]
struct Task {
    /// The child's position in the frame's search order.
    at: u32,
    what: What,
    /// The role the child problem gets (ER).
    role: Role,
    /// Started here or handed off.
    launched: bool,
    /// A minimal window's upper bound (from the child's side), fixed when started.
    null_hi: Option<i32>,
}

impl Task {
    fn new(at: usize, what: What, role: Role) -> Task {
        Task {
            at: at as u32,
            what,
            role,
            launched: false,
            null_hi: None,
        }
    }
}

/// A node of the explicit stack.
#[derive(Debug)]
struct Frame<G: Game> {
    position: G,
    depth: u32,
    ply: u32,
    kind: NodeType,
    role: Role,
    /// This node's task number in its parent frame.
    task: u32,
    /// The moves in search order, with their indices in generation order.
    moves: Vec<(G::Move, u32)>,
    /// Children (by search position) of a type-1 node that DMWF makes type 1.
    promoted: Vec<bool>,
    tasks: Vec<Task>,
    /// The first task that may not have been started.
    next: usize,
    /// Child values taken.
    completed: usize,
    /// ER e-node: in its second phase (e-child, then refutations).
    main: bool,
    /// ER: child values taken in the second phase.
    main_done: usize,
    /// ER: children (by search position) whose value was taken.
    valued: Vec<bool>,
    /// ER: elder-grandchild values, by search position of the child.
    keys: Vec<Option<i32>>,
    /// ER: the generation index of each child's eldest child.
    grand_moves: Vec<Option<u32>>,
    /// Best value and move (generation index), window, window last sent to the pieces.
    bounds: Bounds,
    /// Task numbers given away and not yet back.
    pending: Vec<u32>,
    /// PVS: search positions waiting for a re-search.
    researches: Vec<u32>,
}

impl<G: Game> Frame<G> {
    /// The window task `t` gets now (from the child's side; two plies down, the frame's side,
    /// for an elder grandchild).
    fn window_for(&self, t: &Task) -> Window {
        match (t.what, t.null_hi) {
            (What::Grand, _) => Window {
                alpha: self.bounds.alpha_eff(),
                beta: self.bounds.beta,
            },
            (What::Child, Some(hi)) => Window {
                alpha: (hi - 1).max(-self.bounds.beta),
                beta: hi,
            },
            _ => self.bounds.child_window(),
        }
    }

    fn child_kind(&self, at: usize) -> NodeType {
        if self.kind == NodeType::One && self.promoted.get(at).copied().unwrap_or(false) {
            NodeType::One
        } else {
            self.kind.child(at)
        }
    }

    /// The first task not yet started, if any.
    fn untried(&self) -> Option<usize> {
        (self.next..self.tasks.len()).find(|&i| !self.tasks[i].launched)
    }

    /// Takes task `task`'s value `v` (from the searched node's side).
    fn take(&mut self, task: usize, v: i32) {
        let t = self.tasks[task];
        let at = t.at as usize;
        if t.what == What::Grand {
            self.keys[at] = Some(v);
            return;
        }
        if t.what == What::Child {
            self.completed += 1;
            if self.main {
                self.main_done += 1;
            }
        }
        self.valued[at] = true;
        let c = -v;
        self.bounds.raise(c, self.moves[at].1);
        if let Some(hi) = t.null_hi {
            // The minimal window failed high (the child failed low): `c` is only a lower
            // bound; find the exact value unless it cuts this node off anyway.
            if v < hi && c < self.bounds.beta {
                self.researches.push(t.at);
            }
        }
    }
}

/// The slot of task `task` of frame `frame`: every piece has its own.
fn slot_of(frame: usize, task: u32) -> Slot {
    ((frame as u64) << 32) | u64::from(task)
}

/// A node opened for searching: solved at once, or a frame to push.
enum Opened<G: Game> {
    Solved { value: i32, best: Option<u32> },
    Frame(Box<Frame<G>>),
}

/// A running search.
pub struct AbSearch<G: Game> {
    policy: SplitPolicy,
    min_split_depth: u32,
    /// MWF: type-2 nodes wait for a finite beta.
    wait: bool,
    config: SearchConfig,
    counters: Arc<Counters>,
    /// The frames work as the sequential search's ([`SplitPolicy::engine_frames`]).
    engine: bool,
    table: Arc<TranspositionTable>,
    killers: Arc<FrameKillers<G::Move>>,
    searcher: PooledSearcher<G>,
    /// The problem, until the first step.
    problem: Option<AbProblem<G>>,
    stack: Vec<Frame<G>>,
    /// Pieces outstanding over all frames.
    outstanding: usize,
    done: Option<AbValue>,
}

impl<G: Game> std::fmt::Debug for AbSearch<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AbSearch")
            .field("policy", &self.policy)
            .field("frames", &self.stack.len())
            .field("outstanding", &self.outstanding)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl<G: Game> AbSearch<G> {
    /// Whether `pos` with `depth` plies to go is searched at once by the sequential searcher.
    fn is_leaf(&self, pos: &G, depth: u32) -> bool {
        depth < self.min_split_depth || pos.outcome().is_some()
    }

    /// The sequential search of problem `p`: its value on the real root's scale, its best move
    /// (at the root only) and the nodes it took (sorting look-ahead included).
    fn leaf(&mut self, p: &AbProblem<G>) -> (i32, Option<u32>, u64) {
        let (alpha, beta) = ab_frames::leaf_window(p.window, p.ply);
        let sorted_before = self.searcher.stats().sort_nodes;
        let place = TreePlace {
            ply: p.ply as usize,
            kind: p.kind,
            eldest: p.eldest,
        };
        let r = self.searcher.search_window_at(
            &p.position,
            p.depth,
            alpha,
            beta,
            place,
            &mut Unlimited,
        );
        let sorted = self.searcher.stats().sort_nodes - sorted_before;
        bump(&self.counters.sort_nodes, sorted);
        let best = if p.ply == 0 {
            r.pv.first()
                .and_then(|&mv| ab_frames::move_index(&p.position, mv))
        } else {
            None
        };
        (
            ab_frames::leaf_value(r.value, p.ply),
            best,
            self.searcher.visited.max(1) + sorted,
        )
    }

    /// The moves of `p` in search order (a sorting regime's; with engine frames the table
    /// move's, then the keys'; or the hints'), the known child first; returns them with the
    /// look-ahead nodes spent.
    fn order(&mut self, p: &AbProblem<G>, tt_move: Option<u32>) -> (Vec<(G::Move, u32)>, u64) {
        let mut sorted = 0;
        let mut moves = if self.policy.sorts()
            && self
                .config
                .sorting
                .applies(p.ply as usize, p.kind, p.eldest)
        {
            let mut generated = Vec::with_capacity(G::MAX_MOVES);
            p.position.generate_moves(&mut generated);
            let (order, nodes) = ab_frames::sorted_by_expansion(
                &mut self.searcher,
                &self.config,
                &p.position,
                &generated,
                p.depth,
                p.ply,
            );
            sorted = nodes;
            bump(&self.counters.sort_nodes, sorted);
            order
                .into_iter()
                .map(|i| (generated[i as usize], i))
                .collect()
        } else if self.engine {
            let mut generated = Vec::with_capacity(G::MAX_MOVES);
            p.position.generate_moves(&mut generated);
            let killers = self.killers.at(p.ply);
            ab_frames::keyed_order(&self.searcher, &p.position, &generated, tt_move, killers)
                .into_iter()
                .map(|i| (generated[i as usize], i))
                .collect()
        } else {
            hinted_moves(&p.position, self.config.move_ordering)
        };
        if let Some(k) = p.known {
            if let Some(at) = moves.iter().position(|m| m.1 == k.mv) {
                let m = moves.remove(at);
                moves.insert(0, m);
            }
        }
        (moves, sorted)
    }

    /// DMWF: which children (by search position) of a type-1 node are type 1 too.
    fn promoted(&self, p: &AbProblem<G>, moves: &[(G::Move, u32)]) -> Vec<bool> {
        let SplitPolicy::Dmwf { percentile } = self.policy else {
            return Vec::new();
        };
        if p.kind != NodeType::One || moves.len() < 2 {
            return Vec::new();
        }
        let statics: Vec<i32> = moves
            .iter()
            .map(|&(mv, _)| {
                let mut child = p.position.clone();
                let _ = child.make_move(mv);
                -child.evaluate()
            })
            .collect();
        let mut sorted = statics.clone();
        sorted.sort_unstable();
        // Nearest-rank percentile.
        let n = sorted.len();
        let rank = (percentile as usize * n).div_ceil(100).clamp(1, n);
        let threshold = sorted[rank - 1];
        statics.iter().map(|&s| s >= threshold).collect()
    }

    /// Opens problem `p` (task `task` of the frame below it): a leaf or a position without
    /// moves is solved, a node refuted by its known child is solved, any other becomes a frame.
    /// Returns the nodes spent too.
    fn open(&mut self, p: AbProblem<G>, task: u32) -> (Opened<G>, u64) {
        let (cut, tt_move) = if self.engine {
            let hash = p.position.hash();
            ab_frames::probe(&self.table, &self.config, hash, p.depth, p.ply, p.window)
        } else {
            (None, None)
        };
        if let Some(value) = cut {
            return (Opened::Solved { value, best: None }, 1);
        }
        if self.is_leaf(&p.position, p.depth) {
            let (value, best, n) = self.leaf(&p);
            return (Opened::Solved { value, best }, n);
        }
        let (moves, sorted) = self.order(&p, tt_move);
        if moves.is_empty() {
            // A position with no moves and no outcome: let the sequential search decide.
            let (value, best, n) = self.leaf(&p);
            return (Opened::Solved { value, best }, n + sorted);
        }
        let n = moves.len();
        let promoted = self.promoted(&p, &moves);
        let mut f = Frame {
            position: p.position,
            depth: p.depth,
            ply: p.ply,
            kind: p.kind,
            role: p.role,
            task,
            moves,
            promoted,
            tasks: Vec::with_capacity(n),
            next: 0,
            completed: 0,
            main: p.role != Role::Evaluate,
            main_done: 0,
            valued: vec![false; n],
            keys: Vec::new(),
            grand_moves: Vec::new(),
            bounds: Bounds::new(p.window),
            pending: Vec::new(),
            researches: Vec::new(),
        };
        let first = usize::from(p.known.is_some());
        if let Some(k) = p.known {
            let mut t = Task::new(0, What::Child, Role::Plain);
            t.launched = true;
            f.tasks.push(t);
            f.next = 1;
            f.take(0, k.value);
            if f.bounds.cut() {
                return (
                    Opened::Solved {
                        value: f.bounds.best,
                        best: f.bounds.best_index,
                    },
                    1 + sorted,
                );
            }
        }
        match p.role {
            Role::Plain => f
                .tasks
                .extend((first..n).map(|at| Task::new(at, What::Child, Role::Plain))),
            Role::Refute => f
                .tasks
                .extend((first..n).map(|at| Task::new(at, What::Child, Role::Evaluate))),
            Role::Evaluate => self.elder_grandchildren(&mut f, first),
        }
        (Opened::Frame(Box::new(f)), 1 + sorted)
    }

    /// ER, first phase of e-node `f`: a task for the eldest child of every child from `first`
    /// on (children that are leaves are searched directly instead).
    fn elder_grandchildren(&self, f: &mut Frame<G>, first: usize) {
        let n = f.moves.len();
        f.keys = vec![None; n];
        f.grand_moves = vec![None; n];
        for at in first..n {
            let mut child = f.position.clone();
            let _ = child.make_move(f.moves[at].0);
            let eldest = if self.is_leaf(&child, f.depth - 1) {
                None
            } else {
                hinted_moves(&child, self.config.move_ordering)
                    .first()
                    .map(|m| m.1)
            };
            match eldest {
                Some(gi) => {
                    f.grand_moves[at] = Some(gi);
                    f.tasks.push(Task::new(at, What::Grand, Role::Evaluate));
                }
                None => f.tasks.push(Task::new(at, What::Child, Role::Plain)),
            }
        }
    }

    /// ER, second phase of e-node `stack[i]`: children whose elder grandchild already refutes
    /// them are done; the others, best elder grandchild first, become the e-child and then
    /// r-nodes that know their eldest child's value.
    fn begin_main(&mut self, i: usize) {
        let f = &mut self.stack[i];
        f.main = true;
        let a = f.bounds.alpha_eff();
        let mut candidates = Vec::new();
        for at in 0..f.moves.len() {
            if f.valued[at] {
                continue;
            }
            match f.keys.get(at).copied().flatten() {
                Some(k) if k <= a => {
                    // -value(child) <= value(elder grandchild) <= alpha: refuted.
                    bump(&self.counters.grand_refuted, 1);
                    f.valued[at] = true;
                    f.bounds.raise(k, f.moves[at].1);
                }
                k => candidates.push((k.unwrap_or(INFINITY), at)),
            }
        }
        candidates.sort_by_key(|&(k, at)| (Reverse(k), at));
        for (n, (_, at)) in candidates.into_iter().enumerate() {
            let role = if n == 0 { Role::Evaluate } else { Role::Refute };
            f.tasks.push(Task::new(at, What::Child, role));
        }
    }

    /// The problem of task `task` of frame `i`.
    fn child_problem(&self, i: usize, task: usize) -> AbProblem<G> {
        let f = &self.stack[i];
        let t = f.tasks[task];
        let at = t.at as usize;
        let mut position = f.position.clone();
        let _ = position.make_move(f.moves[at].0);
        let window = f.window_for(&t);
        let kind = if t.what == What::Research && f.kind == NodeType::One {
            // A new principal-variation candidate.
            NodeType::One
        } else {
            f.child_kind(at)
        };
        if t.what == What::Grand {
            let mut generated = Vec::with_capacity(G::MAX_MOVES);
            position.generate_moves(&mut generated);
            if let Some(&mv) = f.grand_moves[at].and_then(|gi| generated.get(gi as usize)) {
                let _ = position.make_move(mv);
            }
            let grand_kind = kind.child(0);
            return AbProblem {
                position,
                depth: f.depth - 2,
                ply: f.ply + 2,
                window,
                kind: grand_kind,
                eldest: true,
                role: Role::Evaluate,
                known: None,
            };
        }
        let known = match (f.grand_moves.get(at), f.keys.get(at)) {
            (Some(&Some(mv)), Some(&Some(value))) if t.role != Role::Plain => {
                Some(Known { mv, value })
            }
            _ => None,
        };
        AbProblem {
            position,
            depth: f.depth - 1,
            ply: f.ply + 1,
            window,
            kind,
            eldest: at == 0,
            role: t.role,
            known,
        }
    }

    /// Marks task `task` of frame `i` started, fixing its minimal window (PVS: a younger
    /// sibling once the frame has a value to test against).
    fn prepare(&mut self, i: usize, task: usize) {
        let minimal = self.policy.minimal_windows()
            || (self.engine && self.config.algorithm == Algorithm::Pvs);
        let f = &mut self.stack[i];
        let a = f.bounds.alpha_eff();
        let beta = f.bounds.beta;
        let t = &mut f.tasks[task];
        t.launched = true;
        if minimal && t.what == What::Child && t.at > 0 && a > -INFINITY && a + 1 < beta {
            t.null_hi = Some(-a);
            bump(&self.counters.minimal_windows, 1);
        }
    }

    /// Starts task `task` of the top frame here; returns the nodes spent.
    fn launch(&mut self, task: usize, fx: &mut Effects<Window>) -> u64 {
        let top = self.stack.len() - 1;
        self.prepare(top, task);
        let problem = self.child_problem(top, task);
        if self.stack[top].tasks[task].what == What::Grand {
            bump(&self.counters.grandchildren, 1);
        }
        let (opened, nodes) = self.open(problem, task as u32);
        match opened {
            Opened::Frame(frame) => self.stack.push(*frame),
            Opened::Solved { value, .. } => {
                let f = &mut self.stack[top];
                let before = f.bounds.alpha_eff();
                f.take(task, value);
                if f.bounds.cut() {
                    self.pop_top(fx);
                } else if f.bounds.alpha_eff() > before && self.outstanding > 0 {
                    self.settle(fx);
                }
            }
        }
        nodes
    }

    /// Whether frame `f` may hand off its untried tasks now.
    fn may_split(&self, f: &Frame<G>) -> bool {
        if f.untried().is_none() || f.depth - 1 < self.min_split_depth {
            return false;
        }
        match self.policy {
            SplitPolicy::Mwf | SplitPolicy::Dmwf { .. } => match f.kind {
                NodeType::Two => f.completed > 0 && !self.must_wait(f),
                // With the wait, a type-3 frame with no alpha yet would hand off type-2
                // children with an infinite beta, which search their eldest child with an
                // open window and then wait: below a not-yet-bounded node that cascades into
                // an ever-growing table of waiting pieces. It splits once it has an alpha.
                NodeType::Three if self.wait => f.bounds.alpha_eff() > -INFINITY,
                _ => true,
            },
            SplitPolicy::TreeSplit { split_depth } => f.ply < split_depth,
            SplitPolicy::PvSplit => f.kind == NodeType::One && f.completed > 0,
            SplitPolicy::Er => f.role == Role::Evaluate && (!f.main || f.main_done > 0),
            SplitPolicy::Ybw => f.completed > 0,
            SplitPolicy::Never => false,
        }
    }

    /// MWF (with `mwf_wait`): a type-2 node whose eldest child is done waits for a finite beta.
    fn must_wait(&self, f: &Frame<G>) -> bool {
        self.wait
            && self.policy.is_mwf()
            && f.kind == NodeType::Two
            && f.completed > 0
            && f.bounds.beta >= INFINITY
    }

    fn abort_pieces(&mut self, i: usize, fx: &mut Effects<Window>) {
        let f = &mut self.stack[i];
        for &task in &f.pending {
            fx.abort(slot_of(i, task));
        }
        self.outstanding -= f.pending.len();
        f.pending.clear();
    }

    fn finish(&mut self, value: i32, best: Option<u32>) {
        self.done = Some(AbValue { value, best });
    }

    /// Frame `j` is finished (completed or cut off): drops it and every frame above it
    /// (aborting their pieces) and gives its value to its parent, or, for the root frame,
    /// finishes the search. Returns whether the search is finished.
    fn close(&mut self, j: usize, fx: &mut Effects<Window>) -> bool {
        for i in (j..self.stack.len()).rev() {
            self.abort_pieces(i, fx);
        }
        self.stack.truncate(j + 1);
        let Some(f) = self.stack.pop() else {
            return true;
        };
        if self.engine {
            self.record(&f);
        }
        match self.stack.last_mut() {
            Some(parent) => {
                parent.take(f.task as usize, f.bounds.best);
                false
            }
            None => {
                // At the root: done (when its window closed, its giver needs no exact value).
                self.finish(f.bounds.best, f.bounds.best_index);
                true
            }
        }
    }

    /// Engine frames: stores finished frame `f` in the table and, when it was cut off, records
    /// the move that did it in the history and the frames' killers, as the sequential search
    /// does.
    fn record(&mut self, f: &Frame<G>) {
        let hash = f.position.hash();
        ab_frames::store(&self.table, &self.config, hash, f.depth, f.ply, &f.bounds);
        if !f.bounds.cut() {
            return;
        }
        let best = f.bounds.best_index;
        let Some(&(mv, _)) = f.moves.iter().find(|m| Some(m.1) == best) else {
            return;
        };
        self.searcher
            .tables
            .history_cutoff(&f.position, mv, f.depth as i32);
        self.killers.record(f.ply, mv);
    }

    /// Pops the top frame with its value into its parent, cutting off upward as needed.
    fn pop_top(&mut self, fx: &mut Effects<Window>) {
        while !self.close(self.stack.len() - 1, fx) {
            let parent = &self.stack[self.stack.len() - 1];
            if !parent.bounds.cut() {
                if self.outstanding > 0 {
                    self.settle(fx);
                }
                return;
            }
        }
    }

    /// After a change anywhere: narrows the windows down the stack, cuts off where a frame's
    /// best reaches its beta, and sends narrowed windows to pieces.
    fn settle(&mut self, fx: &mut Effects<Window>) {
        loop {
            for i in 1..self.stack.len() {
                let parent = &self.stack[i - 1];
                let w = parent.window_for(&parent.tasks[self.stack[i].task as usize]);
                let f = &mut self.stack[i];
                f.bounds.narrow(w);
            }
            match self.stack.iter().position(|f| f.bounds.closed()) {
                Some(j) if self.close(j, fx) => return,
                Some(_) => {}
                None => break,
            }
        }
        for (i, f) in self.stack.iter_mut().enumerate() {
            if f.pending.is_empty() || !f.bounds.resend() {
                continue;
            }
            for &task in &f.pending {
                fx.update(slot_of(i, task), f.window_for(&f.tasks[task as usize]));
            }
        }
    }

    /// The first step: the problem is solved at once or becomes the root frame.
    fn begin(&mut self, problem: AbProblem<G>) -> u64 {
        if problem.window.alpha >= problem.window.beta {
            self.finish(-INFINITY, None);
            return 0;
        }
        let (opened, nodes) = self.open(problem, 0);
        match opened {
            Opened::Solved { value, best } => self.finish(value, best),
            Opened::Frame(f) => self.stack.push(*f),
        }
        nodes
    }
}

impl<G: Game> Search<SplitAb<G>> for AbSearch<G> {
    fn step(&mut self, budget: u64, fx: &mut Effects<Window>) -> Step<AbValue> {
        let mut nodes = 0;
        if let Some(problem) = self.problem.take() {
            nodes += self.begin(problem);
        }
        while self.done.is_none() && nodes < budget {
            let top = self.stack.len() - 1;
            let f = &mut self.stack[top];
            if !f.researches.is_empty() {
                let at = f.researches.remove(0) as usize;
                f.tasks.push(Task::new(at, What::Research, Role::Plain));
                let task = f.tasks.len() - 1;
                bump(&self.counters.researches, 1);
                nodes += self.launch(task, fx);
                continue;
            }
            if let Some(task) = f.untried() {
                if self.must_wait(&self.stack[top]) {
                    bump(&self.counters.type2_waits, 1);
                    fx.charge(nodes);
                    return Step::Blocked;
                }
                self.stack[top].next = task + 1;
                nodes += self.launch(task, fx);
                continue;
            }
            if !f.pending.is_empty() {
                fx.charge(nodes);
                return Step::Blocked;
            }
            if !f.main {
                self.begin_main(top);
                continue;
            }
            self.pop_top(fx);
        }
        fx.charge(nodes);
        match self.done {
            Some(v) => Step::Done(v),
            None => Step::Continue,
        }
    }

    fn split(&mut self, _fx: &mut Effects<Window>) -> Vec<Piece<AbProblem<G>>> {
        if self.done.is_some() || self.problem.is_some() {
            return Vec::new();
        }
        let Some(i) = (0..self.stack.len()).find(|&i| self.may_split(&self.stack[i])) else {
            return Vec::new();
        };
        let kind = self.stack[i].kind;
        bump(
            if kind == NodeType::One {
                &self.counters.splits_type1
            } else {
                &self.counters.splits_other
            },
            1,
        );
        let tasks: Vec<usize> = (self.stack[i].next..self.stack[i].tasks.len())
            .filter(|&t| !self.stack[i].tasks[t].launched)
            .collect();
        let mut pieces = Vec::with_capacity(tasks.len());
        for (n, &task) in tasks.iter().enumerate() {
            let f = &mut self.stack[i];
            if n == 0 && f.main && f.role == Role::Evaluate && f.tasks[task].role == Role::Refute {
                // Multiple e-children: the best of the children still to refute is evaluated.
                f.tasks[task].role = Role::Evaluate;
                bump(&self.counters.e_children, 1);
            }
            if f.tasks[task].what == What::Grand {
                bump(&self.counters.grandchildren, 1);
            }
            self.prepare(i, task);
            pieces.push(Piece {
                slot: slot_of(i, task as u32),
                problem: self.child_problem(i, task),
            });
            self.stack[i].pending.push(task as u32);
        }
        let f = &mut self.stack[i];
        f.next = f.tasks.len();
        f.bounds.mark_sent();
        self.outstanding += pieces.len();
        pieces
    }

    fn absorb(&mut self, slot: Slot, value: AbValue, fx: &mut Effects<Window>) {
        let frame = (slot >> 32) as usize;
        let task = (slot & 0xffff_ffff) as u32;
        let Some(f) = self.stack.get_mut(frame) else {
            return;
        };
        let Some(at) = f.pending.iter().position(|&p| p == task) else {
            return;
        };
        f.pending.swap_remove(at);
        self.outstanding -= 1;
        f.take(task as usize, value.value);
        self.settle(fx);
    }

    fn update(&mut self, w: Window, fx: &mut Effects<Window>) {
        if self.done.is_some() {
            return;
        }
        if let Some(p) = &mut self.problem {
            p.window.narrow(w);
            return;
        }
        let Some(root) = self.stack.first_mut() else {
            return;
        };
        root.bounds.narrow(w);
        self.settle(fx);
    }
}
