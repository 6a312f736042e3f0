//! A running search of the split engine: opens frames, launches and hands off tasks, takes
//! values and windows, and closes frames (the mechanism is in the module docs of `split_ab`).

use std::cmp::Reverse;
use std::sync::Arc;

use dib::{Effects, Nanos, Piece, Search, Slot, Step};
use games::Game;
use games::score::{INFINITY, is_decisive, plies_to_end};

use crate::parallel::ab_frames::{self, Bounds, PooledSearcher, hinted_moves};
use crate::parallel::deepening::Aspiration;
use crate::parallel::play::watch::{Watch, WatchCtx};
use crate::search::ordering::QUIET_BELOW;
use crate::search::refutation::First;
use crate::search::searcher::TreePlace;
use crate::search::sorting::NodeType;
use crate::search::{
    Algorithm, KindTally, RefutationTable, SearchConfig, SearchContext, TranspositionTable,
    Unlimited,
};

use super::frame::{Frame, Opened, Task, What, slot_of};
use super::{
    AbProblem, AbValue, Counters, Counts, Known, PlayNode, Role, SplitAb, SplitPolicy, Window,
};

/// A running search.
pub struct AbSearch<G: Game> {
    policy: SplitPolicy,
    min_split_depth: u32,
    /// MWF: type-2 nodes wait for a finite beta.
    wait: bool,
    /// ER: always one active e-child once an e-node's children run in parallel.
    keep_e_child: bool,
    /// Delay splitting by value: a child keeps the window it started with (no narrowing of
    /// the frames above a frame, no updates to its pieces).
    by_value: bool,
    /// MWF and DMWF without deep cutoffs: a child's window is `(-inf, -best)`, node types 1
    /// and 2, frames down to one ply to go.
    shallow: bool,
    /// The most pieces of one frame out at once (the processor tree's width).
    width: Option<usize>,
    /// The run root's processor is only a master (tree splitting; Rezaie and Finkel's PV splitting
    /// at its type-1 nodes): set when the run root becomes this search's root frame.
    master: bool,
    /// May be a master: the application's `master` (decided at the first step).
    may_master: bool,
    config: SearchConfig,
    counters: Arc<Counters>,
    /// The frames work as the sequential search's (move ordering on: engine frames).
    engine: bool,
    table: Arc<TranspositionTable>,
    /// Whether `table` is one global table that several processors probe (its probes are
    /// shared-table probes); else the processor's own.
    shared_table: bool,
    searcher: PooledSearcher<G>,
    /// The problem, until the first step.
    problem: Option<AbProblem<G>>,
    pub(super) stack: Vec<Frame<G>>,
    /// Pieces outstanding over all frames.
    outstanding: usize,
    done: Option<AbValue>,
    /// The searcher's quiescence, look-ahead and probe counts at the last charge.
    tally: KindTally,
    /// Probes of the engine frames' table since the last charge.
    shared_probes: u64,
    /// Frames opened since the last charge (each also one of the nodes charged).
    frames: u64,
    /// What this search counted since the last charge, added to the run's shared
    /// `counters` at each charge and when it ends: one atomic add per counter and charge
    /// instead of one per leaf or frame, whose cache line the processors would otherwise pass
    /// back and forth (8% of the two-thread time on tic-tac-toe).
    counts: Counts,
    /// The play setting: the run's clock, stop and halt (`None` in the research setting).
    watch: Option<Arc<Watch<G::Move>>>,
    /// This search runs on processor 0 (which alone reads the clock and the stop).
    on_root_processor: bool,
    /// The play setting, the run's root on processor 0: iterative deepening inside the run.
    deepening: Option<RootDeepening<G>>,
    /// The play setting: a root iteration that has just ended, for `deepening` to take.
    ended: Option<AbValue>,
    /// The play setting: a leaf search was stopped by the halt (or, on processor 0, by the
    /// clock): the search takes no more values and never finishes.
    halted: bool,
    /// The processor's time when the current step began.
    step_now: Nanos,
    /// Nanoseconds a node costs on the simulated machine (0 on threads): the leaf searches of
    /// processor 0 read the time as the step's start plus their nodes at this cost.
    node_ns: u64,
    /// The frames prune, reduce and extend as the sequential play search does (the play
    /// setting with engine frames; not ER, whose frames keep their own order and windows).
    play_frames: bool,
    /// The ordering keys of the frame being opened (play frames), by search position.
    order_keys: Vec<i64>,
}

/// Iterative deepening inside one run (the play setting): the run root's search on processor
/// 0 searches depth after depth with aspiration windows, each iteration a new root frame, until
/// the clock, the depth limit or a proven result ends it.
struct RootDeepening<G: Game> {
    position: G,
    role: Role,
    depth: u32,
    aspiration: Aspiration,
    /// The last completed iteration's value.
    previous: Option<i32>,
}

impl<G: Game> Drop for AbSearch<G> {
    fn drop(&mut self) {
        self.counters.add(&std::mem::take(&mut self.counts));
    }
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
    /// A search of `problem` for the application `app` (not started until its first step) on
    /// processor `proc`, with that processor's table and searchers.
    pub(super) fn new(app: &SplitAb<G>, problem: &AbProblem<G>, proc: dib::ProcId) -> Self {
        let table = app.table_of(proc);
        let mut search = AbSearch {
            policy: app.policy,
            min_split_depth: app.min_split_depth,
            wait: app.wait,
            keep_e_child: app.keep_e_child,
            by_value: app.by_value,
            shallow: app.shallow,
            width: app.width,
            master: false,
            may_master: app.master,
            config: app.config,
            counters: Arc::clone(&app.counters),
            engine: app.config.move_ordering,
            table: Arc::clone(&app.tables[table]),
            shared_table: app.shared(proc),
            searcher: app.searchers[table].take(),
            problem: Some(problem.clone()),
            stack: Vec::new(),
            outstanding: 0,
            done: None,
            tally: KindTally::default(),
            shared_probes: 0,
            frames: 0,
            counts: Counts::default(),
            watch: app.watch(),
            on_root_processor: proc == 0,
            deepening: None,
            ended: None,
            halted: false,
            step_now: 0,
            node_ns: app.node_ns,
            order_keys: Vec::new(),
            play_frames: app.config.move_ordering
                && app.config.play_enhancements()
                && app.policy != SplitPolicy::Er,
        };
        if search.watch.is_some() && proc == 0 && problem.ply == 0 {
            search.deepening = Some(RootDeepening {
                position: problem.position.clone(),
                role: problem.role,
                depth: problem.depth,
                aspiration: Aspiration::full(),
                previous: None,
            });
        }
        search.tally = search.searcher.stats().tally();
        search
    }

    /// Charges `nodes` (every node the steps since the last charge visited, look-ahead
    /// included) by kind: the searcher's horizon leaves, quiescence and look-ahead nodes and table
    /// probes since the last charge, the frames opened and the engine table's probes (shared-table
    /// probes when several processors probe one global table); the rest are search nodes.
    fn charge(&mut self, nodes: u64, fx: &mut Effects<Window>) {
        let now = self.searcher.stats().tally();
        let new = self.tally.since(now);
        self.tally = now;
        self.counts.horizon += new.horizon;
        self.counters.add(&std::mem::take(&mut self.counts));
        // `nodes` counts the look-ahead too.
        let mut work =
            crate::parallel::work_of(nodes.saturating_sub(new.sort_nodes), new, self.shared_table);
        let frame_probes = std::mem::take(&mut self.shared_probes);
        if self.shared_table {
            work.shared_probes += frame_probes;
        } else {
            work.table_probes += frame_probes;
        }
        let frames = std::mem::take(&mut self.frames).min(work.search);
        work.search -= frames;
        work.frames = frames;
        fx.charge_work(&work);
    }

    /// Whether `pos` with `depth` plies to go is searched at once by the sequential searcher.
    /// Without deep cutoffs the sequential searcher (alpha-beta) takes one ply at most: on one
    /// ply a window's alpha cuts nothing off, so alpha-beta is F1 there.
    fn is_leaf(&self, pos: &G, depth: u32) -> bool {
        let leaf_below = if self.shallow {
            self.min_split_depth.min(2)
        } else {
            self.min_split_depth
        };
        depth < leaf_below || pos.outcome().is_some()
    }

    /// The sequential search of problem `p`: its value on the real root's scale, its best move
    /// (at the root only), with the refutation table on its line (and at the run root its
    /// table, as the sequential root keeps it), and the nodes it took (sorting look-ahead
    /// included).
    fn leaf(&mut self, p: &AbProblem<G>) -> Option<(AbValue, u64)> {
        let (alpha, beta) = ab_frames::leaf_window(p.window, p.ply);
        let sorted_before = self.searcher.stats().sort_nodes;
        let refute = self.config.refutation_table;
        let root = p.ply == 0 && refute;
        let mut halt;
        let mut unlimited = Unlimited;
        let ctx: &mut dyn SearchContext = match &self.watch {
            Some(w) => {
                halt = WatchCtx::new(w, self.on_root_processor, self.step_now, self.node_ns);
                &mut halt
            }
            None => &mut unlimited,
        };
        let r = if root {
            // The run root: searched as the sequential search's root, with its table.
            self.searcher.refute.table = p.refute.clone();
            self.searcher
                .search_window(&p.position, p.depth, alpha, beta, ctx)
        } else {
            let place = TreePlace {
                ply: p.ply as usize,
                kind: p.kind,
                eldest: p.eldest,
                null_ok: p.play.is_some_and(|n| n.null_ok),
                tree_depth: p.play.map(|n| n.root_depth),
            };
            self.searcher
                .search_window_at(&p.position, p.depth, (alpha, beta), place, &p.line, ctx)
        };
        if !r.completed {
            return None;
        }
        let sorted = self.searcher.stats().sort_nodes - sorted_before;
        self.counts.sort_nodes += sorted;
        let best = if p.ply == 0 {
            r.pv.first()
                .and_then(|&mv| ab_frames::move_index(&p.position, mv))
        } else {
            None
        };
        let solved = AbValue {
            value: ab_frames::leaf_value(r.value, p.ply),
            best,
            line: if refute {
                self.searcher.best_line().to_vec()
            } else {
                Vec::new()
            },
            table: root.then(|| {
                RefutationTable::from_children(std::mem::take(&mut self.searcher.refute.children))
            }),
        };
        Some((solved, self.searcher.visited.max(1) + sorted))
    }

    /// YBWC*'s reasonable moves of `pos` (at `ply`, its moves `generated` in search order
    /// `order`): the leading moves that the ordering ranks for a reason beyond the quiet
    /// remainder's history, each named by `first` (the refutation table, the transposition
    /// table's move, the refutation line), a killer of `ply`, or hinted by the game (a positive
    /// `move_hint`: a capture or promotion in chess and checkers, a corner, edge or centre
    /// square in Othello). The count stops at the first move that is none of these.
    fn reasonable(
        &self,
        pos: &G,
        generated: &[G::Move],
        order: &[u32],
        first: First<'_>,
        ply: u32,
    ) -> usize {
        let ply = (ply as usize).min(crate::search::limits::MAX_PLY);
        order
            .iter()
            .take_while(|&&i| {
                let mv = generated[i as usize];
                first.key(i as u16).is_some()
                    || self.searcher.tables.is_killer(mv, ply)
                    || pos.move_hint(mv) > 0
            })
            .count()
    }

    /// The moves of `p` in search order (a sorting regime's; with engine frames the table
    /// move's, then the keys'; or the hints'), the known child first; returns them with the
    /// look-ahead nodes spent and, for delay splitting with engine frames, how many leading
    /// moves are reasonable (else 1: the eldest).
    fn order(
        &mut self,
        p: &AbProblem<G>,
        tt_move: Option<u32>,
    ) -> (Vec<(G::Move, u32)>, u64, usize) {
        let mut sorted = 0;
        let mut reasonable = 1;
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
            self.counts.sort_nodes += sorted;
            order
                .into_iter()
                .map(|i| (generated[i as usize], i))
                .collect()
        } else if self.engine {
            let mut generated = Vec::with_capacity(G::MAX_MOVES);
            p.position.generate_moves(&mut generated);
            let (table, line_move) = if self.config.refutation_table {
                (p.refute.as_ref(), p.line.first().copied())
            } else {
                (None, None)
            };
            let first = First {
                tt_move: tt_move.and_then(|m| u16::try_from(m).ok()),
                table,
                line_move,
            };
            let keyed =
                ab_frames::keyed_order(&self.searcher, &p.position, &generated, first, p.ply);
            let order: Vec<u32> = keyed.iter().map(|&(i, _)| i).collect();
            if matches!(self.policy, SplitPolicy::Ybw(_)) {
                reasonable = self.reasonable(&p.position, &generated, &order, first, p.ply);
            }
            if self.play_frames {
                self.order_keys = keyed.iter().map(|&(_, k)| k).collect();
            }
            order
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
        (moves, sorted, reasonable)
    }

    /// DMWF: which children (by search position) of a type-1 node are type 1 (with
    /// `replace`, those strictly above the percentile; empty when none is, and the node takes
    /// its eldest as MWF does), or type 1 beside the eldest (at or above it). Engine frames
    /// keep the sequential search's order, so there the promoted children join the eldest.
    fn promoted(&self, p: &AbProblem<G>, moves: &[(G::Move, u32)]) -> Vec<bool> {
        let SplitPolicy::Dmwf {
            percentile,
            replace,
        } = self.policy
        else {
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
        if replace && !self.engine {
            if statics.iter().all(|&s| s <= threshold) {
                return Vec::new();
            }
            statics.iter().map(|&s| s > threshold).collect()
        } else {
            statics.iter().map(|&s| s >= threshold).collect()
        }
    }

    /// Opens problem `p` (task `task` of the frame below it): a leaf or a position without
    /// moves is solved, a node refuted by its known child is solved, any other becomes a frame.
    /// Returns the nodes spent too.
    fn open(&mut self, mut p: AbProblem<G>, task: u32) -> (Opened<G>, u64) {
        if self.policy.sorts() {
            p.depth = self
                .config
                .sorting
                .searched_depth(p.ply as usize, p.kind, p.eldest, p.depth);
        }
        let (cut, tt_move) = if self.engine && ab_frames::uses_table(&self.config, p.depth) {
            self.shared_probes += 1;
            let hash = p.position.hash();
            ab_frames::probe(&self.table, &self.config, hash, p.depth, p.ply, p.window)
        } else {
            (None, None)
        };
        if let Some(value) = cut {
            return (Opened::Solved(AbValue::value(value, None)), 1);
        }
        if self.is_leaf(&p.position, p.depth) {
            return match self.leaf(&p) {
                Some((solved, n)) => (Opened::Solved(solved), n),
                None => (Opened::Halted, self.searcher.visited),
            };
        }
        let (moves, sorted, reasonable) = self.order(&p, tt_move);
        if moves.is_empty() {
            // A position with no moves and no outcome: let the sequential search decide.
            return match self.leaf(&p) {
                Some((solved, n)) => (Opened::Solved(solved), n + sorted),
                None => (Opened::Halted, self.searcher.visited + sorted),
            };
        }
        let n = moves.len();
        let mut moves = moves;
        let mut promoted = self.promoted(&p, &moves);
        let replace =
            matches!(self.policy, SplitPolicy::Dmwf { replace: true, .. }) && !self.engine;
        if replace && !promoted.is_empty() {
            // The type-1 children are searched first, in their order: a type-2 eldest would
            // wait for a bound that no type-1 sibling has started to give.
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by_key(|&at| !promoted[at]);
            moves = order.iter().map(|&at| moves[at]).collect();
            promoted = order.iter().map(|&at| promoted[at]).collect();
        }
        self.frames += 1;
        let mut f = Frame {
            position: p.position,
            depth: p.depth,
            ply: p.ply,
            kind: p.kind,
            role: p.role,
            task,
            moves,
            promoted,
            replace,
            shallow: self.shallow,
            tasks: Vec::with_capacity(n),
            reasonable,
            next: 0,
            completed: 0,
            main: p.role != Role::Evaluate,
            main_done: 0,
            e_parallel: false,
            e_done: 0,
            valued: vec![false; n],
            keys: Vec::new(),
            grand_moves: Vec::new(),
            bounds: Bounds::new(p.window),
            pending: Vec::new(),
            researches: Vec::new(),
            line: p.line,
            best_line: Vec::new(),
            table: p.refute,
            children: Vec::new(),
            cd: p.cd,
            variable_cd: matches!(self.policy, SplitPolicy::CommonDepth { variable: true, .. }),
            play: p.play,
            in_check: false,
            tt_move,
            order_keys: std::mem::take(&mut self.order_keys),
            unreduce: Vec::new(),
        };
        let first = usize::from(p.known.is_some());
        if let Some(k) = p.known {
            let mut t = Task::new(0, What::Child, Role::Plain);
            t.launched = true;
            f.tasks.push(t);
            f.next = 1;
            f.take(0, k.value, &[], false);
            if f.bounds.cut() {
                return (
                    Opened::Solved(AbValue::value(f.bounds.best, f.bounds.best_index)),
                    1 + sorted,
                );
            }
        }
        if self.play_frames && f.play.is_some() {
            f.in_check = f.position.in_check();
            if self.null_move_tried(&f) {
                f.tasks.push(Task::new(0, What::Null, Role::Plain));
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

    /// The play setting: whether frame `f` tries a null move first, where the sequential
    /// search would (not at type-1 nodes, not after a null move, not in check, three plies or
    /// more left, a beta that is not decisive, the game offers a null move, and the static
    /// evaluation reaches beta).
    fn null_move_tried(&self, f: &Frame<G>) -> bool {
        self.config.play_features.null_move
            && f.play.is_some_and(|p| p.null_ok)
            && f.kind != NodeType::One
            && f.depth >= 3
            && !f.in_check
            && !is_decisive(f.bounds.beta)
            && f.position.null_move().is_some()
            && (!self.config.play_features.zugzwang_guard || f.position.has_non_pawn_material())
            && f.position.evaluate() >= f.bounds.beta
    }

    /// The play setting: the late move reduction of the child at search position `at` of
    /// frame `f`, as the sequential search reduces (from the fourth move one ply, from the
    /// ninth two; not at type-1 nodes, not in check or giving check, not the table's move, and
    /// only quiet-looking moves; three plies or more left).
    fn reduction_of(&self, f: &Frame<G>, at: usize) -> u32 {
        if !self.config.play_features.late_move_reductions
            || at < 3
            || f.depth < 3
            || f.in_check
            || f.kind == NodeType::One
            || f.tt_move == Some(f.moves[at].1)
            || f.order_keys.get(at).is_none_or(|&k| k >= QUIET_BELOW)
        {
            return 0;
        }
        let mut child = f.position.clone();
        let _ = child.make_move(f.moves[at].0);
        if child.in_check() {
            return 0;
        }
        if at >= 8 { 2 } else { 1 }
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
                    self.counts.grand_refuted += 1;
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
        if t.what == What::Null {
            return self.null_problem(f);
        }
        let at = t.at as usize;
        let mut position = f.position.clone();
        let _ = position.make_move(f.moves[at].0);
        // The play setting: one ply more for a move that gives check (within twice the
        // iteration's depth from the root), `reduction` less for a late quiet move.
        let extension = match f.play {
            Some(play)
                if self.play_frames
                    && self.config.play_features.check_extensions
                    && f.ply < 2 * play.root_depth
                    && position.in_check() =>
            {
                1
            }
            _ => 0,
        };
        let window = f.window_for(&t);
        let kind = if matches!(t.what, What::Research | What::Retest) && f.kind == NodeType::One {
            // A new principal-variation candidate (or one tested again).
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
                line: Vec::new(),
                refute: None,
                cd: f.cd,
                play: f.play.map(PlayNode::child),
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
            depth: (f.depth + extension).saturating_sub(1 + t.reduction),
            ply: f.ply + 1,
            window,
            kind,
            eldest: at == 0,
            role: t.role,
            known,
            line: if self.config.refutation_table {
                f.child_line(at)
            } else {
                Vec::new()
            },
            refute: None,
            cd: match self.policy {
                // A type-1 node roots a processor tree of `split_depth` plies.
                SplitPolicy::PvSplitRf { split_depth, .. } if f.kind == NodeType::One => {
                    f.ply + split_depth
                }
                _ => f.cd,
            },
            play: f.play.map(PlayNode::child),
        }
    }

    /// The play setting's null-move problem of frame `f`: the position with the move passed,
    /// `depth - 1 - R` plies (R = 2 + depth / 6) with the window `(beta - 1, beta)`, a type-3
    /// node that tries no null move itself.
    fn null_problem(&self, f: &Frame<G>) -> AbProblem<G> {
        let mut position = f.position.clone();
        if let Some(null) = position.null_move() {
            let _ = position.make_move(null);
        }
        let r = 2 + f.depth / 6;
        AbProblem {
            position,
            depth: f.depth.saturating_sub(1 + r),
            ply: f.ply + 1,
            window: f.window_for(&Task::new(0, What::Null, Role::Plain)),
            kind: NodeType::Three,
            eldest: false,
            role: Role::Plain,
            known: None,
            line: Vec::new(),
            refute: None,
            cd: f.cd,
            play: f.play.map(|p| PlayNode {
                null_ok: false,
                ..p
            }),
        }
    }

    /// Marks task `task` of frame `i` started, fixing its minimal window (PVS: a younger
    /// sibling once the frame has a value to test against).
    fn prepare(&mut self, i: usize, task: usize) {
        let minimal = self.policy.minimal_windows()
            || (self.engine
                && self.config.algorithm == Algorithm::Pvs
                && self.policy.pvs_windows());
        let reduction = {
            let f = &self.stack[i];
            let t = &f.tasks[task];
            if self.play_frames && f.play.is_some() && t.what == What::Child {
                self.reduction_of(f, t.at as usize)
            } else {
                0
            }
        };
        let f = &mut self.stack[i];
        let a = f.bounds.alpha_eff();
        let beta = f.bounds.beta;
        let t = &mut f.tasks[task];
        t.launched = true;
        t.reduction = reduction;
        t.alpha0 = a;
        if minimal
            && matches!(t.what, What::Child | What::Retest)
            && t.at > 0
            && a > -INFINITY
            && a + 1 < beta
        {
            t.null_hi = Some(-a);
            self.counts.minimal_windows += 1;
        }
    }

    /// Starts task `task` of the top frame here; returns the nodes spent.
    fn launch(&mut self, task: usize, fx: &mut Effects<Window>) -> u64 {
        let top = self.stack.len() - 1;
        if self.keep_e_child && self.stack[top].e_parallel && !self.stack[top].e_child_out() {
            // The child started here is the e-node's only running e-child.
            self.promote(top, task);
        }
        if top == 0 && self.stack[0].ply == 0 {
            self.counts.root_here += 1;
        }
        self.prepare(top, task);
        let problem = self.child_problem(top, task);
        if self.stack[top].tasks[task].what == What::Grand {
            self.counts.grandchildren += 1;
        }
        let (opened, nodes) = self.open(problem, task as u32);
        match opened {
            Opened::Frame(frame) => self.stack.push(*frame),
            Opened::Halted => self.halted = true,
            Opened::Solved(solved) => {
                let lines = self.config.refutation_table;
                let f = &mut self.stack[top];
                let before = f.bounds.alpha_eff();
                f.take(task, solved.value, &solved.line, lines);
                if f.bounds.cut() {
                    self.pop_top(fx);
                } else if f.bounds.alpha_eff() > before && self.outstanding > 0 {
                    self.settle(fx);
                }
            }
        }
        nodes
    }

    /// ER: makes task `task` of e-node `stack[i]`, a child still to refute in its second
    /// phase, an e-child (multiple e-children, Rezaie and Finkel section 3.5).
    fn promote(&mut self, i: usize, task: usize) {
        let f = &mut self.stack[i];
        let t = &mut f.tasks[task];
        if !(f.main && f.role == Role::Evaluate && t.what == What::Child && t.role == Role::Refute)
        {
            return;
        }
        t.role = Role::Evaluate;
        self.counts.e_children += 1;
        if f.e_done > 1 {
            // An extra e-child of this e-node is done already: this one follows it.
            self.counts.later_e_children += 1;
        }
    }

    /// ER with `keep_e_child`: whether the child searched here above frame `i` (the next frame
    /// on the stack) is one of its second phase's e-children.
    fn e_child_here(&self, i: usize) -> bool {
        self.stack.get(i + 1).is_some_and(|c| {
            let t = &self.stack[i].tasks[c.task as usize];
            t.what == What::Child && t.role == Role::Evaluate
        })
    }

    /// Whether frame `f` may hand off its untried tasks now.
    fn may_split(&self, f: &Frame<G>) -> bool {
        // Under a common depth the depth alone decides: a shared node's children are searched
        // privately by whichever processor takes them, however small.
        let too_small = f.depth - 1 < self.min_split_depth
            && !matches!(self.policy, SplitPolicy::CommonDepth { .. });
        if f.untried().is_none() || too_small {
            return false;
        }
        if self.width.is_some_and(|w| f.pending.len() >= w) {
            return false;
        }
        match self.policy {
            SplitPolicy::Mwf | SplitPolicy::Dmwf { .. } => match f.kind {
                NodeType::Two => f.completed > 0 && !self.must_wait(f),
                // (Without deep cutoffs there is no type 3.)
                // With the wait, a type-3 frame with no alpha yet would hand off type-2
                // children with an infinite beta, which search their eldest child with an
                // open window and then wait: below a not-yet-bounded node that cascades into
                // an ever-growing table of waiting pieces. It splits once it has an alpha.
                NodeType::Three if self.wait => f.bounds.alpha_eff() > -INFINITY,
                _ => true,
            },
            SplitPolicy::TreeSplit { split_depth, .. } => f.ply < split_depth,
            SplitPolicy::PvSplit => f.kind == NodeType::One && f.completed > 0,
            // A type-1 node once its eldest child is done; below it, tree splitting's
            // processor tree (`cd`: the ply it reaches, set by the type-1 node).
            SplitPolicy::PvSplitRf { .. } if f.kind == NodeType::One => f.completed > 0,
            SplitPolicy::PvSplitRf { .. } => f.ply < f.cd,
            SplitPolicy::Er => f.role == Role::Evaluate && (!f.main || f.main_done > 0),
            SplitPolicy::Ybw(rule) => rule.may_split(f.kind, f.reasonable, f.completed),
            SplitPolicy::Never => false,
            SplitPolicy::AbDib => true,
            SplitPolicy::CommonDepth { .. } => f.ply <= f.cd,
        }
    }

    /// Whether frame `f` of a master only hands its untried children out: tree splitting's
    /// root, or, in Rezaie and Finkel's PV splitting, a type-1 node whose eldest child is done; not
    /// when its children are too small to hand out.
    fn masters(&self, f: &Frame<G>) -> bool {
        self.master
            && f.depth > self.min_split_depth
            && match self.policy {
                SplitPolicy::TreeSplit { .. } => f.ply == 0,
                SplitPolicy::PvSplitRf { .. } => f.kind == NodeType::One && f.completed > 0,
                _ => false,
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

    fn finish(&mut self, solved: AbValue) {
        if self.deepening.is_some() {
            self.ended = Some(solved);
        } else {
            self.done = Some(solved);
        }
    }

    /// The play setting, the run root: takes the value of the iteration that just ended. A
    /// value outside the aspiration window searches the depth again with a wider one; an
    /// iteration inside it is recorded in the watch, and the next depth starts unless the
    /// clock, the depth limit or a proven result says to stop, which finishes the search.
    /// `spent`: the nodes of this step so far, not yet charged. Returns the nodes spent opening
    /// the next root.
    fn next_iteration(&mut self, solved: AbValue, spent: u64) -> u64 {
        let (Some(d), Some(watch)) = (self.deepening.as_mut(), self.watch.as_ref()) else {
            return 0;
        };
        let now = watch.now(self.step_now);
        let window = match d.aspiration.after(solved.value) {
            Some(wider) => Some(wider),
            None => {
                let pv = ab_frames::table_pv(&self.table, &d.position, solved.best, d.depth);
                watch.record(d.depth, solved.value, pv, now, spent);
                d.previous = Some(solved.value);
                let proven = plies_to_end(solved.value).is_some_and(|p| p <= d.depth);
                if proven || !watch.may_deepen(d.depth, now) {
                    self.done = Some(AbValue::value(solved.value, solved.best));
                    return 0;
                }
                d.depth += 1;
                d.aspiration = Aspiration::around(self.config.aspiration, d.previous);
                None
            }
        };
        let window = window.unwrap_or(d.aspiration.window);
        let mut problem = AbProblem::root(d.position.clone(), d.depth, d.role);
        problem.window = window;
        problem.play = Some(PlayNode {
            null_ok: false,
            root_depth: d.depth,
        });
        problem.cd = self.policy.common_depth();
        self.begin(problem)
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
                parent.take(
                    f.task as usize,
                    f.bounds.best,
                    &f.best_line,
                    self.config.refutation_table,
                );
                false
            }
            None => {
                // At the root: done (when its window closed, its giver needs no exact value).
                let table = (self.config.refutation_table && f.ply == 0)
                    .then(|| RefutationTable::from_children(f.children));
                self.finish(AbValue {
                    value: f.bounds.best,
                    best: f.bounds.best_index,
                    line: f.best_line,
                    table,
                });
                true
            }
        }
    }

    /// Engine frames: stores finished frame `f` in the table and, when it was cut off, records
    /// the move that did it in the killers of its ply and the history of this search's
    /// searcher, as the sequential search does.
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
        let ply = (f.ply as usize).min(crate::search::limits::MAX_PLY);
        self.searcher
            .tables
            .cutoff(&f.position, mv, ply, f.depth as i32);
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
    /// best reaches its beta, and sends narrowed windows to pieces. By value (delay splitting,
    /// Rezaie and Finkel section 3.6) it only cuts off: every child keeps the window it started
    /// with.
    fn settle(&mut self, fx: &mut Effects<Window>) {
        loop {
            let narrowed = if self.by_value { 0 } else { self.stack.len() };
            for i in 1..narrowed {
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
        if self.by_value {
            return;
        }
        for (i, f) in self.stack.iter_mut().enumerate() {
            if f.pending.is_empty() || !f.bounds.resend() {
                continue;
            }
            for &task in &f.pending {
                fx.update(slot_of(i, task), f.window_for(&f.tasks[task as usize]));
            }
            self.counts.window_updates += f.pending.len() as u64;
        }
    }

    /// The first step: the problem is solved at once or becomes the root frame.
    fn begin(&mut self, problem: AbProblem<G>) -> u64 {
        if problem.window.alpha >= problem.window.beta {
            self.finish(AbValue::value(-INFINITY, None));
            return 0;
        }
        let run_root = problem.ply == 0;
        let (opened, nodes) = self.open(problem, 0);
        match opened {
            Opened::Halted => self.halted = true,
            Opened::Solved(solved) => self.finish(solved),
            Opened::Frame(f) => {
                self.master = self.may_master && run_root;
                self.stack.push(*f);
            }
        }
        nodes
    }
}

impl<G: Game> Search<SplitAb<G>> for AbSearch<G> {
    fn only_master(&self) -> bool {
        self.master
    }

    fn step(&mut self, budget: u64, fx: &mut Effects<Window>) -> Step<AbValue> {
        let mut nodes = 0;
        self.step_now = fx.now();
        if let Some(problem) = self.problem.take() {
            nodes += self.begin(problem);
        }
        while self.done.is_none() && nodes < budget && !self.halted {
            if let Some(ended) = self.ended.take() {
                nodes += self.next_iteration(ended, nodes);
                continue;
            }
            let top = self.stack.len() - 1;
            let f = &mut self.stack[top];
            if let Some(at) = f.unreduce.pop() {
                // A reduced child that beat alpha: searched again at full depth with a minimal
                // window at the current alpha, as the sequential search does.
                f.tasks
                    .push(Task::new(at as usize, What::Retest, Role::Plain));
                let task = f.tasks.len() - 1;
                nodes += self.launch(task, fx);
                continue;
            }
            if !f.researches.is_empty() {
                // The child that leads (its fail high gave the frame's best) is re-searched
                // with the full window first, as sequential PVS does at once; a child whose
                // fail high is no longer the best (its piece started below an alpha that has
                // risen since) is tested again with a minimal window at the current alpha.
                let lead = f
                    .researches
                    .iter()
                    .position(|&at| f.bounds.best_index == Some(f.moves[at as usize].1));
                let at = f.researches.remove(lead.unwrap_or(0)) as usize;
                let task = if lead.is_some() {
                    self.counts.researches += 1;
                    let mut t = Task::new(at, What::Research, Role::Plain);
                    if self.engine {
                        // As sequential PVS: up to the bound the child's last minimal window
                        // failed against (else from the value it failed high with).
                        t.null_hi = f
                            .tasks
                            .iter()
                            .rev()
                            .find(|t| t.at as usize == at && t.what != What::Research)
                            .and_then(|t| t.null_hi);
                    }
                    t
                } else {
                    self.counts.retests += 1;
                    Task::new(at, What::Retest, Role::Plain)
                };
                f.tasks.push(task);
                let task = f.tasks.len() - 1;
                nodes += self.launch(task, fx);
                continue;
            }
            if let Some(task) = f.untried() {
                if self.masters(&self.stack[top]) {
                    // Its children go out only as pieces, one per request.
                    self.charge(nodes, fx);
                    return Step::Blocked;
                }
                if self.must_wait(&self.stack[top]) {
                    self.counts.type2_waits += 1;
                    self.charge(nodes, fx);
                    return Step::Blocked;
                }
                self.stack[top].next = task + 1;
                nodes += self.launch(task, fx);
                continue;
            }
            if !f.pending.is_empty() {
                self.charge(nodes, fx);
                return Step::Blocked;
            }
            if !f.main {
                self.begin_main(top);
                continue;
            }
            self.pop_top(fx);
        }
        self.charge(nodes, fx);
        match &self.done {
            Some(v) => Step::Done(v.clone()),
            // Halted: the run ends; this search takes and gives nothing more.
            None if self.halted => Step::Blocked,
            None => Step::Continue,
        }
    }

    fn split(&mut self, _fx: &mut Effects<Window>) -> Vec<Piece<AbProblem<G>>> {
        if self.done.is_some() || self.problem.is_some() || self.halted || self.stack.is_empty() {
            return Vec::new();
        }
        let splits = |&i: &usize| self.may_split(&self.stack[i]);
        // DIB does not subdivide the node its processor is searching at (the top frame), on
        // the papers' trees (engine frames split as the sequential search's tree allows).
        // A master searches at no node, so its root frame splits.
        let frames = if self.policy.refuses_own_depth() && !self.engine && !self.master {
            self.stack.len() - 1
        } else {
            self.stack.len()
        };
        let found = if self.policy.one_deepest_child() {
            (0..frames).rev().find(splits)
        } else {
            (0..frames).find(splits)
        };
        let Some(i) = found else {
            return Vec::new();
        };
        let kind = self.stack[i].kind;
        if kind == NodeType::One {
            self.counts.splits_type1 += 1;
        } else {
            self.counts.splits_other += 1;
        }
        match kind {
            NodeType::Two if self.stack[i].completed < self.stack[i].reasonable => {
                self.counts.splits_type2_early += 1;
            }
            NodeType::Three if self.stack[i].completed == 0 => {
                self.counts.splits_type3_unstarted += 1;
            }
            _ => {}
        }
        // Always one active e-child: an e-node in its second phase hands out one child at a
        // time, so that the children not yet started stay here, and the next to start can be
        // the e-child when the last one is done. A master's pieces go one per request too: a
        // second would wait in this processor's table, where DIB would have the master search
        // it.
        let one_child =
            self.keep_e_child && self.stack[i].main && self.stack[i].role == Role::Evaluate;
        let room = if self.policy.one_deepest_child() || one_child || self.masters(&self.stack[i]) {
            1
        } else {
            self.width
                .map_or(usize::MAX, |w| w - self.stack[i].pending.len())
        };
        let tasks: Vec<usize> = (self.stack[i].next..self.stack[i].tasks.len())
            .filter(|&t| !self.stack[i].tasks[t].launched)
            .take(room)
            .collect();
        let mut pieces = Vec::with_capacity(tasks.len());
        for (n, &task) in tasks.iter().enumerate() {
            if one_child {
                self.stack[i].e_parallel = true;
                if !self.stack[i].e_child_out() && !self.e_child_here(i) {
                    self.promote(i, task);
                }
            } else if n == 0 {
                // Multiple e-children: the best of the children still to refute is evaluated.
                self.promote(i, task);
            }
            let f = &mut self.stack[i];
            if f.tasks[task].what == What::Grand {
                self.counts.grandchildren += 1;
            }
            self.prepare(i, task);
            pieces.push(Piece {
                slot: slot_of(i, task as u32),
                problem: self.child_problem(i, task),
            });
            self.stack[i].pending.push(task as u32);
        }
        let f = &mut self.stack[i];
        self.counters
            .widest
            .fetch_max(f.pending.len() as u64, std::sync::atomic::Ordering::Relaxed);
        if tasks.len() < room {
            f.next = f.tasks.len();
        }
        f.bounds.mark_sent();
        self.outstanding += pieces.len();
        pieces
    }

    fn absorb(&mut self, slot: Slot, value: AbValue, fx: &mut Effects<Window>) {
        if self.halted {
            return;
        }
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
        f.take(
            task as usize,
            value.value,
            &value.line,
            self.config.refutation_table,
        );
        self.settle(fx);
    }

    fn update(&mut self, w: Window, fx: &mut Effects<Window>) {
        if self.done.is_some() || self.halted {
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
