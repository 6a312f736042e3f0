//! Alpha-beta over any [`Game`] as a DIB application, with a *split policy* saying which nodes
//! of a running search may hand children to other processors and how children are searched:
//! the shared engine of mandatory work first ([`super::mwf`], [`super::dmwf`]), tree splitting
//! ([`super::treesplit`]), PV splitting ([`super::pvsplit`]) and ER ([`super::er`]).
//! `README.md` beside this file describes the mechanism and gives the measured curves. The
//! stack's frames and tasks are in `frame`, a running search in `search`.
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
//! (information spreading; delay splitting by value sends none, every child keeping the window
//! it started with); when a frame is cut off, its pieces are aborted. Windows only
//! narrow (a minimal-window piece keeps the bound it was started with), so every value returned
//! is a correct fail-soft bound for the latest window and the root, whose window stays
//! infinite, gets the exact value of sequential alpha-beta.
//!
//! Values are kept on the real root's scale (wins and losses count plies from the real root),
//! as in the sequential search; a problem carries its distance from the real root.

mod frame;
mod search;
mod tables;

pub use tables::SplitTables;

pub(crate) use search::AbSearch;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use dib::{Application, Backend};
use games::Game;
use serde::{Deserialize, Serialize};

pub(crate) use super::ab_frames::Window;
use super::ab_frames::{self, SearcherPool};
use super::delaysplit::YbwRule;
use super::play::watch::Watch;
use super::{
    Figures, ParallelError, ParallelOptions, ParallelResult, deepening, result_from_report,
};
use crate::search::sorting::NodeType;
use crate::search::{RefutationTable, SearchConfig, SortRegime, TranspositionTable, TtMode};

/// Which frames may hand children to other processors, and how children are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitPolicy {
    /// Mandatory work first: type-1 nodes split at any time; a type-2 node searches its eldest
    /// child first and its other children (here or handed out) only when the eldest did not
    /// cut it off (delayed evaluation). With `ParallelOptions::mwf_wait` (the default) it also
    /// waits until it has a finite beta, that is until the node above it has a value to cut it
    /// off with. Without deep cutoffs (`ParallelOptions::mwf_cutoffs`, the default) a child's
    /// window is `(-inf, -best)` and every eldest child is type 1; with them, alpha-beta's
    /// windows and three types (type-3 nodes split once they have an alpha).
    Mwf,
    /// MWF where the children of a type-1 node whose static value (from the parent's side) is
    /// above this percentile of their siblings' are type 1 (see [`super::dmwf`]).
    Dmwf {
        /// The percentile (Rezaie and Finkel section 6: 90).
        percentile: u32,
        /// The children strictly above it replace the eldest (Rezaie and Finkel section 6); else
        /// the children at or above it join the eldest.
        replace: bool,
    },
    /// Tree splitting: every node less than `split_depth` plies below the root splits; deeper
    /// nodes are searched where they are.
    TreeSplit {
        /// Plies below the root the processor tree reaches.
        split_depth: u32,
        /// The root's processor is only a master (Rezaie and Finkel section 3.3): with more than
        /// one processor (and no lost messages) it hands the root's children out, one per request,
        /// and searches none.
        master_root: bool,
    },
    /// PV splitting (Marsland and Popowich): only type-1 nodes split, after their
    /// eldest child is done; every younger sibling is searched with a minimal window and
    /// re-searched (as a new type-1 node, which may split again) when it fails high.
    PvSplit,
    /// PV splitting as Rezaie and Finkel section 3.4 defines it (see [`super::pvsplit`]):
    /// alpha-beta's windows; a type-1 node splits once its eldest child is done, and every node
    /// less than `split_depth` plies below a type-1 node (not on the principal variation) splits at
    /// once, as tree splitting's processor tree hung from the type-1 node.
    PvSplitRf {
        /// Plies below a type-1 node its processor tree reaches.
        split_depth: u32,
        /// The processor of the type-1 nodes (the run root's) is only a master at them once
        /// their eldest child is done, as tree splitting's root (`master_root` there).
        master_root: bool,
    },
    /// Steinberg and Solomon's ER: e-nodes evaluate their elder grandchildren (in parallel),
    /// then an e-child, then refute the other children (in parallel, with further e-children);
    /// r-nodes refute with their children in order. See [`super::er`].
    Er,
    /// Young Brothers Wait (delay splitting, [`super::delaysplit`]): a frame splits once the
    /// rule lets it (plain: once its eldest child is done; YBWC*: by node type).
    Ybw(YbwRule),
    /// Never splits: sequential alpha-beta on the runtime ([`super::alphabeta`]).
    Never,
    /// Rezaie and Finkel's parallel alpha-beta on DIB ([`super::abdib`]): every frame hands its
    /// untried children to whoever asks, at any time (no eldest-first wait, no node types); window
    /// improvements spread to the pieces still out and a cutoff aborts them.
    AbDib,
    /// The two-PDP-11 thesis's splitting at a common depth ([`super::cdsplit`]): the nodes at most
    /// `cd` plies below the root are shared; a request gets the next untried child of the deepest
    /// shared frame of the running search. With `variable` (the thesis's strategy A) a frame's
    /// common depth drops to its own ply once one of its children is done (the root keeps
    /// `cd`), so that only the first line below each root move is shared down to `cd`.
    CommonDepth {
        /// The common depth CD (the root's; strategy A lowers it below the root).
        cd: u32,
        /// Strategy A (variable common depth) rather than B (fixed).
        variable: bool,
    },
}

impl SplitPolicy {
    /// Younger siblings get minimal windows and re-searches (PVS).
    fn minimal_windows(self) -> bool {
        self == SplitPolicy::PvSplit
    }

    /// The sorting regimes apply (ER has its own ordering: Rezaie and Finkel section 5).
    fn sorts(self) -> bool {
        self != SplitPolicy::Er
    }

    /// The processor tree's width (`ParallelOptions::split_width`) bounds the pieces of one
    /// frame out at once: tree splitting and PV splitting, whose papers map the search onto a
    /// processor tree.
    fn has_width(self) -> bool {
        matches!(
            self,
            SplitPolicy::TreeSplit { .. } | SplitPolicy::PvSplit | SplitPolicy::PvSplitRf { .. }
        )
    }

    /// Whether the run root's processor is only a master: tree splitting's root (with a
    /// processor tree to hand it out), Rezaie and Finkel's PV splitting at its type-1 nodes.
    fn master_root(self) -> bool {
        match self {
            SplitPolicy::TreeSplit {
                split_depth,
                master_root,
            } => master_root && split_depth > 0,
            SplitPolicy::PvSplitRf { master_root, .. } => master_root,
            _ => false,
        }
    }

    fn is_mwf(self) -> bool {
        matches!(self, SplitPolicy::Mwf | SplitPolicy::Dmwf { .. })
    }

    /// With PVS and engine frames, younger children get minimal windows (every policy but
    /// ER, whose r-nodes refute with their own windows and whose tree is not PVS's).
    fn pvs_windows(self) -> bool {
        self != SplitPolicy::Er
    }

    /// The common depth a run's root starts with (0 for the policies without one).
    pub(crate) fn common_depth(self) -> u32 {
        match self {
            SplitPolicy::CommonDepth { cd, .. } => cd,
            _ => 0,
        }
    }

    /// DIB's refusal (Rezaie and Finkel section 2): subdividing the running search "if it reaches
    /// the depth at which B itself is searching, the request is not granted", so the top frame
    /// never splits. Every policy of Rezaie and Finkel runs on DIB; Marsland and Popowich's PV
    /// splitting and the two-PDP-11 thesis's common depth (whose leading processor shares its
    /// deepest shared node, the one it searches at) ran on other systems and keep their own rules.
    /// It applies to the papers' trees (move ordering off), as the other rules of Rezaie and Finkel
    /// do.
    fn refuses_own_depth(self) -> bool {
        !matches!(self, SplitPolicy::PvSplit | SplitPolicy::CommonDepth { .. })
    }

    /// The two-PDP-11 thesis's splitting: a request is served by the deepest frame that may split,
    /// one child at a time (the other processor "selects the next unevaluated move" at the common
    /// depth on the leading processor's line); every other policy hands off all untried children of
    /// the shallowest such frame.
    fn one_deepest_child(self) -> bool {
        matches!(self, SplitPolicy::CommonDepth { .. })
    }
}

/// The policy of `algo` on the split engine, for `options` (`None`: another engine runs it).
///
/// # Errors
/// [`ParallelError::BadOption`] for an option value the algorithm refuses.
pub(crate) fn policy_of(
    algo: super::ParallelAlgo,
    options: &ParallelOptions,
) -> Result<Option<SplitPolicy>, ParallelError> {
    use super::{ParallelAlgo as A, *};
    Ok(Some(match algo {
        A::AlphaBeta => alphabeta::policy(options)?,
        A::AbDib => abdib::policy(options)?,
        A::DelaySplit => delaysplit::policy(options)?,
        A::Mwf => mwf::policy(options)?,
        A::Dmwf => dmwf::policy(options)?,
        A::TreeSplit => treesplit::policy(options)?,
        A::PvSplit => pvsplit::policy(options)?,
        A::Er => er::policy(options)?,
        A::CdSplit => cdsplit::policy(options)?,
        A::LazySmp | A::Abdada | A::Aphid => return Ok(None),
    }))
}

/// What a problem is asked to do: ER's two node roles, plain for every other policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Role {
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
pub(crate) struct Known {
    /// The child's index in generation order.
    pub mv: u32,
    /// Its value.
    pub value: i32,
}

/// What a problem of the play setting carries beyond a research problem (`None` in the
/// research setting).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PlayNode {
    /// A null move may be tried at it (not right after another one).
    pub null_ok: bool,
    /// The nominal depth of the iteration it belongs to (check extensions reach at most twice
    /// it from the root).
    pub root_depth: u32,
}

impl PlayNode {
    /// The fields of a child reached by a real move.
    pub(crate) fn child(self) -> PlayNode {
        PlayNode {
            null_ok: true,
            ..self
        }
    }
}

/// A problem: a position, its plies to go, its distance from the real root, its window, its
/// node type (1, 2 or 3), whether it is searched first among its siblings, its ER role and a
/// child already searched.
///
/// On the wire (MPI, and the simulator's sized or checksummed messages) a research problem
/// encodes exactly as it did before the play setting existed: the play fields travel inside
/// the role ([`ProblemWire`]), so message sizes, and with them every simulated figure, do not
/// depend on them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "", into = "ProblemWire<G>", from = "ProblemWire<G>")]
pub(crate) struct AbProblem<G: Game> {
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
    /// The refutation table's line to follow from this node (its first move is this node's;
    /// empty off the line or with the table off).
    pub line: Vec<u16>,
    /// The run root's refutation table from the last iteration (the run root only).
    pub refute: Option<RefutationTable>,
    /// The common depth it was reached with ([`SplitPolicy::CommonDepth`]; 0 otherwise): the
    /// node and the nodes below it at most this many plies from the real root are shared.
    pub cd: u32,
    /// The play setting's fields (`None` in the research setting).
    pub play: Option<PlayNode>,
}

/// A problem as it travels: the role and the play fields in one field, [`RoleWire`].
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub(crate) struct ProblemWire<G: Game> {
    position: G,
    depth: u32,
    ply: u32,
    window: Window,
    kind: NodeType,
    eldest: bool,
    role: RoleWire,
    known: Option<Known>,
    line: Vec<u16>,
    refute: Option<RefutationTable>,
    cd: u32,
}

/// A role as it travels: the research setting's three roles encode as [`Role`] itself (the
/// variant's index), a play problem's role and play fields as a fourth variant.
#[derive(Serialize, Deserialize)]
enum RoleWire {
    Plain,
    Evaluate,
    Refute,
    Play(Role, PlayNode),
}

impl<G: Game> From<AbProblem<G>> for ProblemWire<G> {
    fn from(p: AbProblem<G>) -> Self {
        let role = match (p.play, p.role) {
            (Some(play), role) => RoleWire::Play(role, play),
            (None, Role::Plain) => RoleWire::Plain,
            (None, Role::Evaluate) => RoleWire::Evaluate,
            (None, Role::Refute) => RoleWire::Refute,
        };
        ProblemWire {
            position: p.position,
            depth: p.depth,
            ply: p.ply,
            window: p.window,
            kind: p.kind,
            eldest: p.eldest,
            role,
            known: p.known,
            line: p.line,
            refute: p.refute,
            cd: p.cd,
        }
    }
}

impl<G: Game> From<ProblemWire<G>> for AbProblem<G> {
    fn from(w: ProblemWire<G>) -> Self {
        let (role, play) = match w.role {
            RoleWire::Plain => (Role::Plain, None),
            RoleWire::Evaluate => (Role::Evaluate, None),
            RoleWire::Refute => (Role::Refute, None),
            RoleWire::Play(role, play) => (role, Some(play)),
        };
        AbProblem {
            position: w.position,
            depth: w.depth,
            ply: w.ply,
            window: w.window,
            kind: w.kind,
            eldest: w.eldest,
            role,
            known: w.known,
            line: w.line,
            refute: w.refute,
            cd: w.cd,
            play,
        }
    }
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
            line: Vec::new(),
            refute: None,
            cd: 0,
            play: None,
        }
    }
}

/// A solved problem: its fail-soft value and the index of its best move (in generation order),
/// when known; with the refutation table on, the line found from it and, for the run root, the
/// table of its children.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct AbValue {
    /// The fail-soft value.
    pub value: i32,
    /// The best move's index among the position's moves.
    pub best: Option<u32>,
    /// The best line from this node (refutation table on).
    pub line: Vec<u16>,
    /// The run root's children as the next iteration's refutation table.
    pub table: Option<RefutationTable>,
}

impl AbValue {
    /// A value and best move alone (no line, no table).
    pub(super) fn value(value: i32, best: Option<u32>) -> AbValue {
        AbValue {
            value,
            best,
            ..AbValue::default()
        }
    }
}

/// What the searches of one run count together (over all processors).
#[derive(Debug, Default)]
pub(crate) struct Counters {
    sort_nodes: AtomicU64,
    /// Horizon leaves of the leaf searches.
    horizon: AtomicU64,
    minimal_windows: AtomicU64,
    researches: AtomicU64,
    /// Minimal-window tests of a fail high again at an alpha risen since (PVS).
    retests: AtomicU64,
    splits_type1: AtomicU64,
    splits_other: AtomicU64,
    /// Splits of type-2 frames before their reasonable moves were done (delay splitting).
    splits_type2_early: AtomicU64,
    /// Splits of type-3 frames none of whose children was done.
    splits_type3_unstarted: AtomicU64,
    /// Window updates sent to pieces (information spreading).
    window_updates: AtomicU64,
    type2_waits: AtomicU64,
    grandchildren: AtomicU64,
    grand_refuted: AtomicU64,
    e_children: AtomicU64,
    /// ER: e-children started after an extra e-child of the same e-node was done.
    later_e_children: AtomicU64,
    /// The most pieces one frame had out at once.
    widest: AtomicU64,
    /// Children of the run's root searched by the root's own processor (tree splitting).
    root_here: AtomicU64,
}

/// What one search counted since it last added to the run's [`Counters`].
#[derive(Debug, Default)]
pub(crate) struct Counts {
    pub(crate) sort_nodes: u64,
    pub(crate) horizon: u64,
    pub(crate) minimal_windows: u64,
    pub(crate) researches: u64,
    pub(crate) retests: u64,
    pub(crate) splits_type1: u64,
    pub(crate) splits_other: u64,
    pub(crate) splits_type2_early: u64,
    pub(crate) splits_type3_unstarted: u64,
    pub(crate) window_updates: u64,
    pub(crate) type2_waits: u64,
    pub(crate) grandchildren: u64,
    pub(crate) grand_refuted: u64,
    pub(crate) e_children: u64,
    pub(crate) later_e_children: u64,
    pub(crate) root_here: u64,
}

/// Adds `n` to a counter the processors share; nothing for 0, so that a processor does not
/// take the counter's cache line from the others for nothing.
fn bump(c: &AtomicU64, n: u64) {
    if n > 0 {
        c.fetch_add(n, Ordering::Relaxed);
    }
}

impl Counters {
    /// Adds what one search counted.
    pub(crate) fn add(&self, c: &Counts) {
        bump(&self.sort_nodes, c.sort_nodes);
        bump(&self.horizon, c.horizon);
        bump(&self.minimal_windows, c.minimal_windows);
        bump(&self.researches, c.researches);
        bump(&self.retests, c.retests);
        bump(&self.splits_type1, c.splits_type1);
        bump(&self.splits_other, c.splits_other);
        bump(&self.splits_type2_early, c.splits_type2_early);
        bump(&self.splits_type3_unstarted, c.splits_type3_unstarted);
        bump(&self.window_updates, c.window_updates);
        bump(&self.type2_waits, c.type2_waits);
        bump(&self.grandchildren, c.grandchildren);
        bump(&self.grand_refuted, c.grand_refuted);
        bump(&self.e_children, c.e_children);
        bump(&self.later_e_children, c.later_e_children);
        bump(&self.root_here, c.root_here);
    }

    /// The figures that matter for `policy`, for [`ParallelResult::figures`].
    #[must_use]
    pub fn figures(&self, policy: SplitPolicy) -> Figures {
        let get = |c: &AtomicU64| Some(c.load(Ordering::Relaxed));
        let split = Figures {
            splits_type1: get(&self.splits_type1),
            splits_other: get(&self.splits_other),
            ..Figures::default()
        };
        match policy {
            SplitPolicy::Mwf | SplitPolicy::Dmwf { .. } => Figures {
                type2_waits: get(&self.type2_waits),
                ..split
            },
            SplitPolicy::PvSplit => Figures {
                minimal_windows: get(&self.minimal_windows),
                researches: get(&self.researches),
                retests: get(&self.retests),
                widest_split: get(&self.widest),
                ..split
            },
            SplitPolicy::Er => Figures {
                elder_grandchildren: get(&self.grandchildren),
                refuted_by_grandchild: get(&self.grand_refuted),
                extra_e_children: get(&self.e_children),
                later_e_children: get(&self.later_e_children),
                ..split
            },
            SplitPolicy::TreeSplit { .. } => Figures {
                widest_split: get(&self.widest),
                root_children_here: get(&self.root_here),
                ..split
            },
            SplitPolicy::PvSplitRf { .. } => Figures {
                minimal_windows: get(&self.minimal_windows),
                researches: get(&self.researches),
                widest_split: get(&self.widest),
                ..split
            },
            SplitPolicy::Ybw(_) => Figures {
                splits_type2_early: get(&self.splits_type2_early),
                splits_type3_unstarted: get(&self.splits_type3_unstarted),
                window_updates: get(&self.window_updates),
                ..split
            },
            SplitPolicy::Never | SplitPolicy::AbDib | SplitPolicy::CommonDepth { .. } => split,
        }
    }

    /// Nodes of the sorting look-ahead (charged as time, not counted as search nodes).
    #[must_use]
    pub fn sort_nodes(&self) -> u64 {
        self.sort_nodes.load(Ordering::Relaxed)
    }

    /// Horizon leaves searched.
    #[must_use]
    pub fn horizon(&self) -> u64 {
        self.horizon.load(Ordering::Relaxed)
    }
}

/// The application.
pub(crate) struct SplitAb<G: Game> {
    policy: SplitPolicy,
    min_split_depth: u32,
    wait: bool,
    /// ER: always one active e-child once an e-node's children run in parallel
    /// ([`super::er::ErEChildren::Active`]).
    keep_e_child: bool,
    /// Delay splitting by value: a child keeps the window it started with
    /// ([`super::delaysplit::YbwWindows::ByValue`]).
    by_value: bool,
    /// MWF and DMWF without deep cutoffs (the papers' trees, move ordering off).
    shallow: bool,
    /// The most pieces of one frame out at once (`None`: no bound).
    width: Option<usize>,
    /// Tree splitting: the run root's processor is only a master (more than one processor,
    /// no lost work).
    master: bool,
    config: SearchConfig,
    /// The transposition tables: one global table, or one per processor
    /// ([`SplitTables::Local`]).
    tables: Vec<Arc<TranspositionTable>>,
    arrangement: SplitTables,
    procs: usize,
    /// The processor whose memory holds the global table on the simulated machine (its
    /// probes are its own table's), if any.
    home: Option<dib::ProcId>,
    counters: Arc<Counters>,
    /// The leaf searchers (kept between searches with engine frames), one pool per table.
    searchers: Vec<Arc<SearcherPool<G>>>,
    /// The play setting: the running run's clock, stop and halt (`None` in the research
    /// setting).
    watch: Mutex<Option<Arc<Watch<G::Move>>>>,
    /// Nanoseconds a search node costs on the simulated machine (0 off the simulator).
    pub(super) node_ns: u64,
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
    /// searches of one processor set, or, with [`SplitTables::Local`], each processor has its
    /// own ([`SplitTables::mib_each`] of the size). ER ignores the sorting regime (it orders by
    /// its elder grandchildren).
    ///
    /// # Errors
    /// When a table cannot be built.
    pub fn new(policy: SplitPolicy, options: &ParallelOptions) -> Result<Self, ParallelError> {
        let mut config = options.search;
        if !policy.sorts() {
            config.sorting.regime = SortRegime::None;
        }
        let arrangement = options.split_tables;
        let sized = SearchConfig {
            tt_mib: arrangement.mib_each(options.search.tt_mib, options.procs),
            ..options.search
        };
        let tables = (0..arrangement.count(options.procs))
            .map(|_| ab_frames::new_table(&sized))
            .collect::<Result<Vec<_>, _>>()?;
        let searchers = tables
            .iter()
            .map(|t| {
                Arc::new(SearcherPool::new(
                    config,
                    Arc::clone(t),
                    config.move_ordering,
                ))
            })
            .collect();
        Ok(SplitAb {
            policy,
            min_split_depth: options.min_split_depth.max(1),
            wait: options.algo.mwf.wait(),
            keep_e_child: policy == SplitPolicy::Er
                && options.algo.er.e_children() == super::er::ErEChildren::Active,
            by_value: matches!(policy, SplitPolicy::Ybw(_))
                && options.algo.ybw.windows() == super::delaysplit::YbwWindows::ByValue,
            // Engine frames (move ordering on) are the sequential search's, deep cutoffs and all.
            shallow: policy.is_mwf()
                && options.algo.mwf.cutoffs() == super::mwf::MwfCutoffs::Shallow
                && !config.move_ordering,
            width: policy.has_width().then_some(options.algo.tree.width()),
            master: policy.master_root()
                && options.procs > 1
                && !matches!(&options.backend, Backend::Sim(c) if c.faults.loses_work()),
            config,
            tables,
            arrangement,
            procs: options.procs,
            home: match &options.backend {
                Backend::Sim(c) => c.cost.shared_table_home,
                _ => None,
            },
            counters: Arc::new(Counters::default()),
            searchers,
            watch: Mutex::new(None),
            node_ns: match &options.backend {
                Backend::Sim(c) => c.cost.node_ns,
                _ => 0,
            },
        })
    }

    /// The watch of the running run (play setting).
    pub(super) fn watch(&self) -> Option<Arc<Watch<G::Move>>> {
        self.watch
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Sets the watch of the next run (`None`: the research setting).
    pub(crate) fn set_watch(&self, watch: Option<Arc<Watch<G::Move>>>) {
        *self.watch.lock().unwrap_or_else(PoisonError::into_inner) = watch;
    }

    /// The transposition tables.
    pub(crate) fn tables(&self) -> &[Arc<TranspositionTable>] {
        &self.tables
    }

    /// The searcher pools (one per table).
    pub(in crate::parallel) fn pools(&self) -> &[Arc<SearcherPool<G>>] {
        &self.searchers
    }

    /// The index of processor `proc`'s table and searchers.
    fn table_of(&self, proc: dib::ProcId) -> usize {
        proc % self.tables.len()
    }

    /// Whether processor `proc` probes one global table with other processors, away from
    /// its own memory (the table's home processor probes it as its own).
    fn shared(&self, proc: dib::ProcId) -> bool {
        self.arrangement == SplitTables::Global && self.procs > 1 && self.home != Some(proc)
    }

    /// The counters of the runs of this application.
    #[must_use]
    pub fn counters(&self) -> &Arc<Counters> {
        &self.counters
    }
}

/// Runs `policy` on `root` to `options.depth` plies: with move ordering on (engine frames,
/// which work as the sequential search does), iterative deepening with aspiration windows, one
/// run of the runtime per depth (see [`super::deepening`]), as the sequential search deepens
/// with the table on or off; without it (the papers' unsorted tree), one run.
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
    let engine = options.search.move_ordering;
    let dib_config = if engine {
        deepening::engine_dib_config(options)
    } else {
        options.dib
    };
    // The refutation table: the one the last completed depth left, and the latest run's.
    let mut refute: (u32, Option<RefutationTable>, Option<RefutationTable>) = (0, None, None);
    let mut search_at = |depth: u32, window: Window| {
        let mut problem = AbProblem::root(root.clone(), depth, role);
        problem.window = window;
        if options.search.refutation_table {
            if depth != refute.0 {
                refute = (depth, refute.2.take(), None);
            }
            problem.refute = refute.1.clone();
        }
        problem.cd = policy.common_depth();
        for pool in &app.searchers {
            pool.free_all();
        }
        let report = dib::solve(
            Arc::clone(&app),
            problem,
            options.procs,
            &options.backend,
            dib_config,
        )?;
        let AbValue {
            value, best, table, ..
        } = report.value.clone();
        refute.2 = table;
        let mut moves = Vec::with_capacity(G::MAX_MOVES);
        root.generate_moves(&mut moves);
        let pv: Vec<G::Move> = best
            .and_then(|i| moves.get(i as usize).copied())
            .into_iter()
            .collect();
        Ok(result_from_report(report, value, pv, Figures::default()))
    };
    let mut result = if engine {
        deepening::deepen(
            options,
            options.search.deepening && options.depth > 1,
            search_at,
        )?
    } else {
        search_at(options.depth, Window::FULL)?
    };
    let sort_nodes = counters.sort_nodes();
    let sorted = sort_nodes > 0;
    result.figures = Figures {
        // The engine's deepening counted its iterations.
        iterations: result.figures.iterations,
        sort_nodes: sorted.then_some(sort_nodes),
        sort_seconds: match &options.backend {
            // Virtual time spent sorting, summed over processors (at the static-evaluation
            // node cost).
            Backend::Sim(c) if sorted => {
                let each = c.cost.static_eval_ns.unwrap_or(c.cost.node_ns);
                Some(sort_nodes as f64 * each as f64 / 1e9)
            }
            _ => None,
        },
        hashfull: (options.search.tt_mode != TtMode::Off).then(|| mean_hashfull(&app.tables)),
        ..counters.figures(policy)
    };
    // Look-ahead nodes were charged (they take time) but are not search nodes.
    result.nodes = result.nodes.saturating_sub(sort_nodes);
    result.horizon_leaves = Some(counters.horizon());
    Ok(result)
}

/// The mean fill (per mille) of `tables`.
fn mean_hashfull(tables: &[Arc<TranspositionTable>]) -> f64 {
    let sum: f64 = tables.iter().map(|t| f64::from(t.hashfull())).sum();
    sum / tables.len().max(1) as f64
}

impl<G: Game> Application for SplitAb<G> {
    type Problem = AbProblem<G>;
    type Value = AbValue;
    type Update = Window;
    type Search = AbSearch<G>;

    fn start(&self, problem: &AbProblem<G>) -> AbSearch<G> {
        AbSearch::new(self, problem, 0)
    }

    fn start_on(&self, proc: dib::ProcId, problem: &AbProblem<G>) -> AbSearch<G> {
        AbSearch::new(self, problem, proc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dib::{Effects, Search};
    use games::tictactoe::TicTacToe4;

    /// The engine's problems and values cross MPI in postcard, which is not self-describing:
    /// every field is on the wire whatever its value, so an empty line or a missing table
    /// decodes back as it was sent (a field left out when empty would not decode).
    #[test]
    fn problems_and_values_round_trip_through_the_mpi_encoding() {
        let table = crate::search::refutation::RefutationTable::from_children(vec![
            (3, 10, vec![1, 2]),
            (0, -5, vec![]),
        ]);
        let bare = AbProblem::root(TicTacToe4::start(), 6, Role::Plain);
        let mut full = bare.clone();
        full.line = vec![4, 7];
        full.refute = Some(table.clone());
        full.known = Some(Known { mv: 2, value: -3 });
        for p in [bare, full] {
            let bytes = postcard::to_allocvec(&p).expect("encode");
            let back: AbProblem<TicTacToe4> = postcard::from_bytes(&bytes).expect("decode");
            assert_eq!(back, p);
        }
        let bare = AbValue::value(7, None);
        let full = AbValue {
            value: -2,
            best: Some(5),
            line: vec![5, 1],
            table: Some(table),
        };
        for v in [bare, full] {
            let bytes = postcard::to_allocvec(&v).expect("encode");
            let back: AbValue = postcard::from_bytes(&bytes).expect("decode");
            assert_eq!(back, v);
        }
    }

    /// After two steps' worth of nodes (the root frame opened, its eldest child's frame
    /// opened), a work request gets the root's fifteen younger children from `abdib`, none
    /// from delay splitting (the eldest is not done) and none from `Never`.
    #[test]
    fn abdib_gives_younger_children_away_before_the_eldest_is_done() {
        let pieces = |policy| {
            let mut options = ParallelOptions::new(6, 2, Backend::Threads { seed: 1 });
            options.search = SearchConfig::unsorted();
            options.min_split_depth = 2;
            let app = SplitAb::<TicTacToe4>::new(policy, &options).unwrap();
            let mut search = app.start(&AbProblem::root(TicTacToe4::start(), 6, Role::Plain));
            let mut fx = Effects::default();
            assert!(matches!(search.step(2, &mut fx), dib::Step::Continue));
            search.split(&mut fx)
        };
        let given = pieces(SplitPolicy::AbDib);
        assert_eq!(given.len(), 15);
        assert!(
            given
                .iter()
                .all(|p| p.problem.ply == 1 && p.problem.depth == 5)
        );
        assert!(pieces(SplitPolicy::Ybw(YbwRule::Plain)).is_empty());
        assert!(pieces(SplitPolicy::Never).is_empty());
    }

    /// Under a common depth a request gets one child, of the deepest frame within it: with
    /// frames open at plies 0, 1 and 2 and CD = 2, the next child of the ply-2 frame; with CD
    /// = 1, of the ply-1 frame; with CD = 0, of the root. Each further request gets the next
    /// child.
    #[test]
    fn a_common_depth_gives_one_child_of_the_deepest_shared_frame() {
        for cd in 0..=2 {
            let mut options = ParallelOptions::new(6, 2, Backend::Threads { seed: 1 });
            options.search = SearchConfig::unsorted();
            // Frames at plies 0 to 2 whatever the common depth, as `cdsplit` makes for CD 2.
            options.min_split_depth = 4;
            let policy = SplitPolicy::CommonDepth { cd, variable: true };
            let app = SplitAb::<TicTacToe4>::new(policy, &options).unwrap();
            let mut root = AbProblem::root(TicTacToe4::start(), 6, Role::Plain);
            root.cd = cd;
            let mut search = app.start(&root);
            let mut fx = Effects::default();
            assert!(matches!(search.step(3, &mut fx), dib::Step::Continue));
            let first = search.split(&mut fx);
            assert_eq!(first.len(), 1, "cd {cd}");
            let p = &first[0].problem;
            assert_eq!((p.ply, p.cd), (cd + 1, cd), "cd {cd}");
            let second = search.split(&mut fx);
            assert_eq!(second.len(), 1, "cd {cd}");
            assert_eq!(second[0].problem.ply, cd + 1);
            assert_ne!(second[0].slot, first[0].slot);
        }
    }

    /// A constructed node for DMWF: the root has one child per entry of `STATICS`, whose
    /// static value from the root's side is that entry; deeper nodes have two children and
    /// evaluate to 0.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Stub {
        ply: u8,
        child: u8,
        width: u8,
    }

    const STATICS: [i32; 11] = [30, 10, 95, 20, 50, 90, 40, 60, 70, 80, 90];

    impl std::fmt::Display for Stub {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{}/{}/{}", self.ply, self.child, self.width)
        }
    }

    impl Game for Stub {
        type Move = u8;
        type Undo = (u8, u8);
        type Error = std::fmt::Error;
        const MAX_MOVES: usize = STATICS.len();

        fn start() -> Self {
            Stub {
                ply: 0,
                child: 0,
                width: 10,
            }
        }
        fn parse_position(_: &str) -> Result<Self, Self::Error> {
            Err(std::fmt::Error)
        }
        fn side_to_move(&self) -> games::Side {
            if self.ply % 2 == 0 {
                games::Side::First
            } else {
                games::Side::Second
            }
        }
        fn generate_moves(&self, moves: &mut Vec<u8>) {
            moves.clear();
            let n = if self.ply == 0 { self.width } else { 2 };
            moves.extend(0..n);
        }
        fn make_move(&mut self, mv: u8) -> (u8, u8) {
            let undo = (self.ply, self.child);
            if self.ply == 0 {
                self.child = mv;
            }
            self.ply += 1;
            undo
        }
        fn unmake_move(&mut self, _: u8, undo: (u8, u8)) {
            (self.ply, self.child) = undo;
        }
        fn outcome(&self) -> Option<games::Outcome> {
            None
        }
        fn evaluate(&self) -> i32 {
            if self.ply == 1 {
                // From the child's side: the root sees STATICS.
                -STATICS[usize::from(self.child)]
            } else {
                0
            }
        }
        fn hash(&self) -> u64 {
            self.compute_hash()
        }
        fn compute_hash(&self) -> u64 {
            u64::from(self.ply) << 8 | u64::from(self.child)
        }
        fn parse_move(&self, _: &str) -> Result<u8, Self::Error> {
            Err(std::fmt::Error)
        }
        fn format_move(&self, mv: u8) -> String {
            mv.to_string()
        }
    }

    /// DMWF on the constructed root with `width` children: the child it searches first and
    /// the children it hands out as type 1.
    fn dmwf_type_one(width: u8, percentile: u32, replace: bool) -> (u8, Vec<u8>) {
        let mut options = ParallelOptions::new(4, 2, Backend::Threads { seed: 1 });
        options.search = SearchConfig::unsorted();
        options.min_split_depth = 2;
        let policy = SplitPolicy::Dmwf {
            percentile,
            replace,
        };
        let app = SplitAb::<Stub>::new(policy, &options).unwrap();
        let root = Stub {
            width,
            ..Stub::start()
        };
        let mut search = app.start(&AbProblem::root(root, 4, Role::Plain));
        let mut fx = Effects::default();
        assert!(matches!(search.step(2, &mut fx), dib::Step::Continue));
        let first = search.stack[1].position.child;
        let pieces = search.split(&mut fx);
        assert_eq!(pieces.len(), usize::from(width) - 1);
        let ones = pieces
            .iter()
            .filter(|p| p.problem.kind == NodeType::One)
            .map(|p| p.problem.position.child)
            .collect();
        (first, ones)
    }

    /// DMWF at a type-1 node: with `replace` (the paper's), exactly the children whose static
    /// value is strictly above the nearest-rank percentile of their siblings' (the value of
    /// rank ceil(p * n / 100) in ascending order) are type 1, searched first, and the others
    /// are type 2 (the eldest included); when none is above it, the eldest alone, as MWF. The
    /// first child searched and the kinds of the children handed out show it.
    #[test]
    fn dmwf_replaces_the_eldest_by_the_children_strictly_above_the_percentile() {
        let chosen = |width: u8, percentile: u32| {
            let (first, mut ones) = dmwf_type_one(width, percentile, true);
            ones.insert(0, first);
            ones
        };
        // Ten children: rank 9 of 10,20,...,90,95 is 90: the 95 alone, searched first.
        assert_eq!(chosen(10, 90), vec![2]);
        // Eleven (a second 90): rank 10 is a 90: still the 95 alone.
        assert_eq!(chosen(11, 90), vec![2]);
        // The median of ten: rank 5 is 50: the five above it, in their order.
        assert_eq!(chosen(10, 50), vec![2, 5, 7, 8, 9]);
        // The 100th percentile: none above the largest, so the eldest, as MWF.
        assert_eq!(chosen(10, 100), vec![0]);
    }

    /// DMWF at a type-1 node with `beside`: exactly the children whose static value is at or
    /// above the nearest-rank percentile of their siblings' are type 1, beside the eldest
    /// (searched first), as the younger children handed out show.
    #[test]
    fn dmwf_beside_makes_type_one_the_children_at_or_above_the_percentile() {
        let chosen = |width: u8, percentile: u32| {
            let (first, ones) = dmwf_type_one(width, percentile, false);
            assert_eq!(first, 0);
            ones
        };
        // Ten children: rank ceil(9) = 9 of 10,20,...,90,95 is 90: the 95 and the 90.
        assert_eq!(chosen(10, 90), vec![2, 5]);
        // Eleven (a second 90): rank ceil(9.9) = 10 of the eleven is 90: both 90s and the 95.
        assert_eq!(chosen(11, 90), vec![2, 5, 10]);
        // The median of ten: rank 5 is 50.
        assert_eq!(chosen(10, 50), vec![2, 4, 5, 7, 8, 9]);
        // The 100th percentile: the largest alone.
        assert_eq!(chosen(10, 100), vec![2]);
        // MWF promotes none.
        let mut options = ParallelOptions::new(4, 2, Backend::Threads { seed: 1 });
        options.search = SearchConfig::unsorted();
        options.min_split_depth = 2;
        let app = SplitAb::<Stub>::new(SplitPolicy::Mwf, &options).unwrap();
        let mut search = app.start(&AbProblem::root(Stub::start(), 4, Role::Plain));
        let mut fx = Effects::default();
        let _ = search.step(2, &mut fx);
        let pieces = search.split(&mut fx);
        assert!(!pieces.is_empty());
        assert!(pieces.iter().all(|p| p.problem.kind == NodeType::Two));
    }
}
