//! One engine choosing a move: the sequential search core, or a parallel algorithm in the
//! play engine ([`PlayEngine`]: iterative deepening inside one run of the runtime, its threads
//! and tables kept from move to move), under a [`Budget`], with a progress report per completed
//! depth (and, for the sequential search, the root move it is on) and a [`Stop`]. Shared by
//! `runner uci` and `runner play`; an engine author's time management.
//!
//! Both keep the same clock: with a time per move (`Budget::time`) no iteration starts after half
//! of it and the running one stops at the deadline; with a fixed time (`Budget::fixed_time`)
//! iterations start until the deadline stops one. The answer is the last completed iteration.
//! A parallel search reads the clock and the stop inside its processors, so it ends at the
//! deadline on every processor (`control/src/parallel/play/README.md`).
//!
//! **The endgame solver** (sequential play setting with `endgame-solver`, a game with a solver,
//! [`games::Game::endgame_solver`], a time or node budget and no depth limit): from
//! [`SOLVE_FROM`] moves left on, the search gets a [`SEARCH_SHARE`]-th of the budget, then the
//! solver proves the result (a win-loss-draw window) in what is left, stopped at the deadline,
//! at the budget's nodes or by the stop. A proven win or draw plays the solver's move; a proven
//! loss, or a solve that did not finish, the search's. The solver and its table are kept from
//! move to move.

use std::cell::RefCell;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::parallel::play::{PlayEngine, PlayLimits};
use crate::parallel::{ParallelAlgo, ParallelError, ParallelOptions};
use crate::search::{
    Algorithm, Limits, MAX_DEPTH, SearchConfig, SearchContext, SearchError, Searcher, Signal,
    TtMode,
};
use dib::Backend;
use games::Game;
use games::endgame::{EndgameSolver, Poll};
use games::score::{loss_in, win_in};

mod stop;
mod wall_clock;

pub use stop::Stop;
pub use wall_clock::WallClock;

/// Why a [`Player`] could not think. Each message names its cause itself, so no variant marks
/// one as its `source` (a chain printed in full would name it twice).
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The sequential searcher could not be built (its table, for one).
    #[error("building the search: {0}")]
    Search(SearchError),
    /// A parallel search could not be set up or failed.
    #[error("parallel {algo} search: {cause}")]
    Parallel {
        /// The algorithm's name.
        algo: &'static str,
        /// What went wrong.
        cause: ParallelError,
    },
}

/// How an engine searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The sequential search core with this algorithm.
    Sequential(Algorithm),
    /// A parallel algorithm on `procs` processors.
    Parallel {
        /// The algorithm.
        algo: ParallelAlgo,
        /// Processors (threads).
        procs: usize,
        /// Run on the simulator instead of real threads (time is then the simulated
        /// machine's virtual time).
        simulated: bool,
    },
}

impl Method {
    /// A short name: `pvs`, or `ybw x4` style `delaysplit/4`.
    pub fn describe(&self) -> String {
        match self {
            Method::Sequential(a) => a.name().to_string(),
            Method::Parallel {
                algo,
                procs,
                simulated,
            } => format!(
                "{}/{procs}{}",
                algo.name(),
                if *simulated { "/sim" } else { "" }
            ),
        }
    }
}

/// When to stop thinking. Absent limits do not apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Nodes (the sequential search stops inside an iteration; parallel ones between them).
    pub nodes: Option<u64>,
    /// The hard deadline since the clock started. Unless `fixed_time`, no new iteration starts
    /// after half of it.
    pub time: Option<Duration>,
    /// The whole of `time` is for this move (UCI `go movetime`): iterations go on until the
    /// deadline stops the running one (a parallel depth is still not started when it is
    /// predicted to end past the deadline).
    pub fixed_time: bool,
}

/// One completed iteration, as reported while thinking.
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// Depth completed.
    pub depth: u32,
    /// Value from the side to move.
    pub value: i32,
    /// Principal variation.
    pub pv: Vec<M>,
    /// Nodes so far.
    pub nodes: u64,
    /// Time since the clock started.
    pub elapsed: Duration,
    /// Transposition-table fill in permille, where known.
    pub hashfull: Option<u32>,
    /// The deepest ply reached (quiescence included); for parallel algorithms, whose
    /// processors do not report it, the length of the principal variation (at least the depth).
    pub seldepth: u32,
}

/// What thinking reports while it goes on.
#[derive(Clone, Debug)]
pub enum Event<M> {
    /// A depth is complete.
    Depth(Report<M>),
    /// The sequential search has started on a root move: at most one event per
    /// [`CURRMOVE_INTERVAL`], the first after [`CURRMOVE_AFTER`].
    CurrMove {
        /// The move.
        mv: M,
        /// Its number among the root moves searched in this iteration (from 1).
        number: usize,
    },
}

/// No [`Event::CurrMove`] before this much thinking (short searches stay quiet).
pub const CURRMOVE_AFTER: Duration = Duration::from_secs(1);

/// At most one [`Event::CurrMove`] per this interval.
pub const CURRMOVE_INTERVAL: Duration = Duration::from_millis(250);

/// What thinking produced.
#[derive(Clone, Debug)]
pub struct Thought<M> {
    /// The move to play (`None` only when the game is over).
    pub best_move: Option<M>,
    /// The principal variation of the last completed depth (may be empty).
    pub pv: Vec<M>,
    /// Its value.
    pub value: i32,
    /// The last completed depth (0: none; the move is then the first legal one).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// A simulated engine's thinking time on the simulated machine (virtual; `None` for an
    /// engine on real threads, whose time is the wall clock).
    pub virtual_time: Option<Duration>,
}

/// From this many moves left (Othello: empty squares) on, the sequential play engine calls the
/// game's endgame solver.
pub const SOLVE_FROM: u32 = 18;

/// Where the endgame solver is called, the search before it gets this fraction (one over it) of
/// the time or node budget.
pub const SEARCH_SHARE: u32 = 4;

/// An engine: a method, a search configuration and, for the sequential core, a searcher whose
/// table and history persist from move to move.
pub struct Player<G: Game> {
    config: SearchConfig,
    core: Core<G>,
    /// The game's endgame solver, made when first needed.
    endgame: Option<Box<dyn EndgameSolver<G>>>,
}

/// What a [`Player`] searches with.
enum Core<G: Game> {
    /// The sequential core, its table and history kept from move to move.
    Sequential(Box<Searcher<G>>),
    /// A parallel algorithm in the play engine: deepening inside one run, its threads and
    /// tables kept from move to move.
    Parallel(Box<PlayEngine<G>>),
}

impl<G: Game> Player<G> {
    /// An engine searching with `method` and `config` (its setting and table size).
    ///
    /// # Errors
    /// When the table cannot be allocated.
    pub fn new(method: Method, mut config: SearchConfig) -> Result<Self, EngineError> {
        if method == Method::Sequential(Algorithm::Minimax) {
            config.tt_mode = TtMode::Off;
        }
        let core = match method {
            Method::Sequential(algorithm) => {
                config.algorithm = algorithm;
                Core::Sequential(Box::new(
                    Searcher::new(config).map_err(EngineError::Search)?,
                ))
            }
            Method::Parallel {
                algo,
                procs,
                simulated,
            } => {
                let backend = if simulated {
                    Backend::Sim(dib::SimConfig::new(dib::CostModel::shared_memory(), 1))
                } else {
                    Backend::Threads { seed: 1 }
                };
                let mut options = ParallelOptions::for_algo(algo, 1, procs, backend);
                options.search = config;
                return Player::parallel(algo, &options);
            }
        };
        Ok(Player {
            config,
            core,
            endgame: None,
        })
    }

    /// An engine running `algo` with `options` (its processors, backend, granularity and
    /// search configuration; a simulated machine's cost model among them).
    ///
    /// # Errors
    /// When the algorithm refuses an option or a table cannot be allocated.
    pub fn parallel(algo: ParallelAlgo, options: &ParallelOptions) -> Result<Self, EngineError> {
        let engine = PlayEngine::new(algo, options).map_err(|cause| EngineError::Parallel {
            algo: algo.name(),
            cause,
        })?;
        Ok(Player {
            config: options.search,
            core: Core::Parallel(Box::new(engine)),
            endgame: None,
        })
    }

    /// The method.
    pub fn method(&self) -> Method {
        match &self.core {
            Core::Sequential(_) => Method::Sequential(self.config.algorithm),
            Core::Parallel(engine) => Method::Parallel {
                algo: engine.algo(),
                procs: engine.options().procs,
                simulated: matches!(engine.options().backend, Backend::Sim(_)),
            },
        }
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn clear(&mut self) {
        match &mut self.core {
            Core::Sequential(s) => s.clear(),
            Core::Parallel(engine) => engine.clear(),
        }
        if let Some(solver) = &mut self.endgame {
            solver.clear();
        }
    }

    /// Chooses a move in `root` within `budget`, timed by `clock` (the wall clock started when
    /// the move was asked for, or a virtual clock in tests); raising `stop` ends the search
    /// early with the last completed depth. `report` sees every completed depth and (sequential
    /// search) the root move being searched, now and then.
    ///
    /// # Errors
    /// When a parallel search fails (its runtime or options).
    pub fn think(
        &mut self,
        root: &G,
        budget: &Budget,
        clock: impl SearchContext + Send + 'static,
        stop: &Stop,
        report: &mut dyn FnMut(Event<G::Move>),
    ) -> Result<Thought<G::Move>, EngineError> {
        let config = self.config;
        match &mut self.core {
            Core::Sequential(searcher) => {
                let features = config.play_features;
                let solving = config.play_enhancements()
                    && features.endgame_solver
                    && budget.depth.is_none()
                    && (budget.time.is_some() || budget.nodes.is_some())
                    && root.outcome().is_none();
                if solving && self.endgame.is_none() {
                    self.endgame = G::endgame_solver();
                }
                match self.endgame.as_deref_mut().filter(|_| solving) {
                    Some(solver) if solver.moves_left(root) <= SOLVE_FROM => Ok(endgame(
                        searcher, solver, &config, root, budget, clock, stop, report,
                    )),
                    _ => Ok(sequential(
                        searcher, &config, root, budget, clock, stop, report,
                    )),
                }
            }
            Core::Parallel(engine) => play_deepening(engine, root, budget, &clock, stop, report),
        }
    }
}

/// The sequential search under `budget`.
fn sequential<G: Game>(
    searcher: &mut Searcher<G>,
    config: &SearchConfig,
    root: &G,
    budget: &Budget,
    clock: impl SearchContext,
    stop: &Stop,
    report: &mut dyn FnMut(Event<G::Move>),
) -> Thought<G::Move> {
    let table = Arc::clone(searcher.table());
    let hashfull = (config.tt_mode != TtMode::Off).then_some(());
    // A fixed time is the context's deadline, not the search's: the search's own
    // time limit starts no iteration after half of it.
    let limits = Limits {
        depth: budget.depth,
        nodes: budget.nodes,
        time: budget.time.filter(|_| !budget.fixed_time),
    };
    let report = RefCell::new(report);
    let mut root_moves = Vec::with_capacity(G::MAX_MOVES);
    root.generate_moves(&mut root_moves);
    let mut ctx = Watch {
        clock,
        stop,
        deadline: budget.time.filter(|_| budget.fixed_time),
        root_moves,
        next_currmove: CURRMOVE_AFTER,
        report: &report,
    };
    let result = searcher.search_with_progress(root, &limits, &mut ctx, &mut |p| {
        (report.borrow_mut())(Event::Depth(Report {
            depth: p.depth,
            value: p.value,
            pv: p.pv.to_vec(),
            nodes: p.nodes,
            elapsed: p.elapsed,
            hashfull: hashfull.map(|()| table.hashfull()),
            seldepth: p.seldepth,
        }));
    });
    Thought {
        best_move: result.best_move,
        pv: result.pv,
        value: result.value,
        depth: result.depth,
        nodes: result.stats.nodes(),
        virtual_time: None,
    }
}

/// A clock shared by the search and the endgame solver's poll (which must own what it reads).
struct Shared<C>(Arc<Mutex<C>>);

impl<C> Clone for Shared<C> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<C: SearchContext> SearchContext for Shared<C> {
    fn elapsed(&self) -> Duration {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .elapsed()
    }

    fn poll(&mut self, nodes: u64) -> Signal {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .poll(nodes)
    }
}

/// Near the end of the game: the search with a [`SEARCH_SHARE`]-th of the budget, then the
/// endgame solver's win-loss-draw solve in the rest of it. A proven win or draw plays the
/// solver's move (reported as one more depth, the moves left, with a decisive value or 0); a
/// proven loss keeps the search's move with a losing value; an unfinished solve keeps the
/// search's answer.
#[allow(clippy::too_many_arguments)]
fn endgame<G: Game>(
    searcher: &mut Searcher<G>,
    solver: &mut dyn EndgameSolver<G>,
    config: &SearchConfig,
    root: &G,
    budget: &Budget,
    clock: impl SearchContext + Send + 'static,
    stop: &Stop,
    report: &mut dyn FnMut(Event<G::Move>),
) -> Thought<G::Move> {
    let clock = Shared(Arc::new(Mutex::new(clock)));
    let share = |x: Option<u64>| x.map(|x| (x / u64::from(SEARCH_SHARE)).max(1));
    let search_budget = Budget {
        time: budget.time.map(|t| t / SEARCH_SHARE),
        nodes: share(budget.nodes),
        fixed_time: false,
        ..*budget
    };
    let mut thought = sequential(
        searcher,
        config,
        root,
        &search_budget,
        clock.clone(),
        stop,
        report,
    );
    if stop.is_raised() {
        return thought;
    }
    let searched = thought.nodes;
    let (deadline, node_cap) = (
        budget.time,
        budget.nodes.map(|n| n.saturating_sub(searched)),
    );
    let (mut poll_clock, poll_stop) = (clock.clone(), stop.clone());
    let poll: Poll = Box::new(move |nodes| {
        poll_clock.poll(searched + nodes) == Signal::Stop
            || poll_stop.is_raised()
            || deadline.is_some_and(|d| poll_clock.elapsed() >= d)
            || node_cap.is_some_and(|cap| nodes >= cap)
    });
    let left = solver.moves_left(root);
    let Some(solved) = solver.solve(root, -1, 1, poll) else {
        return thought;
    };
    thought.nodes += solved.nodes;
    thought.value = match solved.value.signum() {
        1 => win_in(left),
        -1 => loss_in(left),
        _ => 0,
    };
    if solved.value >= 0 {
        if let Some(mv) = solved.best_move {
            thought.best_move = Some(mv);
            thought.pv = vec![mv];
        }
    }
    thought.depth = thought.depth.max(left);
    report(Event::Depth(Report {
        depth: thought.depth,
        value: thought.value,
        pv: thought.pv.clone(),
        nodes: thought.nodes,
        elapsed: clock.elapsed(),
        hashfull: None,
        seldepth: thought.depth,
    }));
    thought
}

/// The sequential search's context: the clock, the stop, the deadline of a fixed time, and
/// the root moves reported as [`Event::CurrMove`].
struct Watch<'a, 'b, M, C> {
    clock: C,
    stop: &'a Stop,
    deadline: Option<Duration>,
    root_moves: Vec<M>,
    next_currmove: Duration,
    report: &'a RefCell<&'b mut dyn FnMut(Event<M>)>,
}

impl<M: Copy, C: SearchContext> SearchContext for Watch<'_, '_, M, C> {
    fn elapsed(&self) -> Duration {
        self.clock.elapsed()
    }

    fn poll(&mut self, nodes: u64) -> Signal {
        if self.clock.poll(nodes) == Signal::Stop
            || self.stop.is_raised()
            || self.deadline.is_some_and(|d| self.elapsed() >= d)
        {
            Signal::Stop
        } else {
            Signal::Continue
        }
    }

    fn root_move(&mut self, number: usize, index: usize) {
        let now = self.elapsed();
        if now < self.next_currmove {
            return;
        }
        self.next_currmove = now + CURRMOVE_INTERVAL;
        if let Some(&mv) = self.root_moves.get(index) {
            (self.report.borrow_mut())(Event::CurrMove { mv, number });
        }
    }
}

/// A parallel search in the play engine: the budget becomes the run's limits (on threads
/// measured from the clock already running; on the simulator in virtual time from the run's
/// start), each completed iteration is reported, and the answer is the last one (the first
/// legal move when none completed).
fn play_deepening<G: Game>(
    engine: &mut PlayEngine<G>,
    root: &G,
    budget: &Budget,
    clock: &dyn SearchContext,
    stop: &Stop,
    report: &mut dyn FnMut(Event<G::Move>),
) -> Result<Thought<G::Move>, EngineError> {
    let mut thought = Thought {
        best_move: first_move(root),
        pv: Vec::new(),
        value: 0,
        depth: 0,
        nodes: 0,
        virtual_time: None,
    };
    if root.outcome().is_some() {
        thought.best_move = None;
        return Ok(thought);
    }
    let simulated = matches!(engine.options().backend, Backend::Sim(_));
    // On threads the run's clock starts now: the time already gone comes off the budget.
    let (wall, spent) = if simulated {
        (None, Duration::ZERO)
    } else {
        (Some(WallClock::start()), clock.elapsed())
    };
    let left = |t: Duration| t.saturating_sub(spent);
    let limits = PlayLimits {
        depth: budget.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH),
        soft: budget
            .time
            .filter(|_| !budget.fixed_time)
            .map(|t| left(t / 2)),
        hard: budget.time.map(left),
        nodes: budget.nodes,
    };
    let out = engine
        .search(root, &limits, wall, stop, &mut |it| {
            report(Event::Depth(Report {
                depth: it.depth,
                value: it.value,
                pv: it.pv.clone(),
                nodes: it.nodes,
                elapsed: it.elapsed + spent,
                hashfull: it.hashfull,
                seldepth: it.depth.max(u32::try_from(it.pv.len()).unwrap_or(u32::MAX)),
            }));
        })
        .map_err(|cause| EngineError::Parallel {
            algo: engine.algo().name(),
            cause,
        })?;
    thought.nodes = out.nodes;
    thought.virtual_time = simulated.then_some(out.elapsed);
    if let Some(last) = out.last {
        thought.depth = last.depth;
        thought.value = last.value;
        thought.best_move = last.pv.first().copied().or(thought.best_move);
        thought.pv = last.pv;
    }
    Ok(thought)
}

/// The first legal move (the answer when no depth completed).
fn first_move<G: Game>(root: &G) -> Option<G::Move> {
    let mut moves = Vec::with_capacity(G::MAX_MOVES);
    root.generate_moves(&mut moves);
    moves.first().copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::NodeClock;
    use games::tictactoe::TicTacToe3;

    #[test]
    fn a_fixed_time_is_searched_to_its_deadline_and_a_clock_time_starts_no_depth_after_half() {
        use games::chess::Chess;
        // A virtual clock of 10 µs a node: 150 ms are 15,000 nodes, the same on every machine.
        let root =
            Chess::parse_position("r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1")
                .unwrap();
        let stop = Stop::new();
        let think = |fixed_time: bool| {
            let mut player =
                Player::<Chess>::new(Method::Sequential(Algorithm::Pvs), SearchConfig::play())
                    .unwrap();
            let budget = Budget {
                time: Some(Duration::from_millis(150)),
                fixed_time,
                ..Budget::default()
            };
            let mut depths = Vec::new();
            let t = player
                .think(&root, &budget, NodeClock::new(10_000), &stop, &mut |e| {
                    if let Event::Depth(r) = e {
                        depths.push((r.depth, r.nodes));
                    }
                })
                .unwrap();
            (t, depths)
        };
        let (fixed, depths) = think(true);
        // Searched until the deadline stopped the running depth (polls come every 1,024 nodes).
        assert!(
            (15_000..15_000 + 2 * crate::search::POLL_INTERVAL).contains(&fixed.nodes),
            "{} {depths:?}",
            fixed.nodes
        );
        assert!(fixed.best_move.is_some());
        assert_eq!(fixed.depth, depths.last().unwrap().0);
        // With a clock, no depth starts after half the time (7,500 nodes): either the last
        // completed depth ended past it and the search stopped there, or the depth it started
        // before it was stopped by the deadline.
        let (clock, depths) = think(false);
        let last_end = depths.last().unwrap().1;
        if clock.nodes > last_end {
            assert!(last_end < 7_500, "{} {depths:?}", clock.nodes);
        } else {
            assert!(last_end >= 7_500, "{depths:?}");
        }
        assert!(clock.nodes <= fixed.nodes, "{} {depths:?}", clock.nodes);
    }

    #[test]
    fn the_root_move_is_reported_after_the_first_second_at_most_four_times_a_second() {
        use games::chess::Chess;
        // 100 µs a node: 2 s are 20,000 nodes; reports start after 10,000, one per 2,500 at most.
        let root = Chess::start();
        let stop = Stop::new();
        let mut player =
            Player::<Chess>::new(Method::Sequential(Algorithm::Pvs), SearchConfig::play()).unwrap();
        let budget = Budget {
            time: Some(Duration::from_secs(2)),
            fixed_time: true,
            ..Budget::default()
        };
        let mut events = Vec::new();
        player
            .think(&root, &budget, NodeClock::new(100_000), &stop, &mut |e| {
                if let Event::CurrMove { mv, number } = e {
                    events.push((mv, number));
                }
            })
            .unwrap();
        assert!((1..=4).contains(&events.len()), "{events:?}");
        let mut legal = Vec::new();
        root.generate_moves(&mut legal);
        for (mv, number) in events {
            assert!(legal.contains(&mv));
            assert!((1..=legal.len()).contains(&number));
        }
    }

    /// An 8x8 Othello position of seeded random play with `empties` empty squares.
    fn othello_with(empties: u32) -> games::othello::Othello8 {
        use games::othello::Othello8;
        for seed in 1.. {
            let mut rng = games::Lcg(seed);
            let mut pos = Othello8::start();
            let mut moves = Vec::new();
            while pos.empties().count_ones() > empties && !pos.is_over() {
                pos.generate_moves(&mut moves);
                pos.make_move(moves[rng.below(moves.len())]);
            }
            if !pos.is_over() {
                return pos;
            }
        }
        unreachable!()
    }

    /// The play engine's answer in `pos` within `nodes` nodes, with or without the endgame
    /// solver, and the depths it reported.
    fn othello_thought(
        pos: &games::othello::Othello8,
        nodes: u64,
        solver: bool,
    ) -> (Thought<games::othello::Move>, Vec<u32>) {
        let mut config = SearchConfig::play();
        config.play_features.endgame_solver = solver;
        let mut player = Player::new(Method::Sequential(Algorithm::Pvs), config).unwrap();
        let budget = Budget {
            nodes: Some(nodes),
            ..Budget::default()
        };
        let mut depths = Vec::new();
        let t = player
            .think(
                pos,
                &budget,
                NodeClock::new(1_000),
                &Stop::new(),
                &mut |e| {
                    if let Event::Depth(r) = e {
                        depths.push(r.depth);
                    }
                },
            )
            .unwrap();
        (t, depths)
    }

    #[test]
    fn the_endgame_solver_proves_the_result_from_its_number_of_empties_on() {
        use games::othello::endgame;
        use games::score::{is_decisive, loss_in, win_in};
        for seed_empties in [12, 16] {
            let pos = othello_with(seed_empties);
            let left = pos.empties().count_ones();
            let exact = endgame::solve(&pos).score;
            let (t, depths) = othello_thought(&pos, 4_000_000, true);
            let expected = match exact.signum() {
                1 => win_in(left),
                -1 => loss_in(left),
                _ => 0,
            };
            assert_eq!(t.value, expected, "{pos}: exact {exact}");
            assert_eq!(depths.last(), Some(&t.depth));
            assert!(t.depth >= left);
            // A win or draw is kept by the move played.
            if exact >= 0 {
                let child = pos.played(t.best_move.unwrap());
                assert_eq!((-endgame::solve(&child).score).signum(), exact.signum());
            }
            // Without the solver, a small budget proves nothing.
            let (without, _) = othello_thought(&pos, 20_000, false);
            assert!(!is_decisive(without.value) && without.depth < left, "{pos}");
        }
        // Above its number of empties the solver is not called.
        let pos = othello_with(SOLVE_FROM + 8);
        let (t, _) = othello_thought(&pos, 200_000, true);
        assert!(!is_decisive(t.value) && t.depth < SOLVE_FROM, "{pos}");
    }

    #[test]
    fn an_endgame_solve_that_cannot_finish_in_time_plays_the_search_move() {
        use games::score::is_decisive;
        // 1 µs a node: 20 ms are 20,000 nodes, far too few to solve 18 empties.
        let pos = othello_with(SOLVE_FROM);
        let mut player =
            Player::new(Method::Sequential(Algorithm::Pvs), SearchConfig::play()).unwrap();
        let budget = Budget {
            time: Some(Duration::from_millis(20)),
            ..Budget::default()
        };
        let t = player
            .think(
                &pos,
                &budget,
                NodeClock::new(1_000),
                &Stop::new(),
                &mut |_| {},
            )
            .unwrap();
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        assert!(moves.contains(&t.best_move.unwrap()));
        assert!(!is_decisive(t.value) && t.depth < SOLVE_FROM, "{}", t.depth);
    }

    #[test]
    fn sequential_and_parallel_players_agree_on_tictactoe_at_fixed_depth() {
        let root = TicTacToe3::start();
        let budget = Budget {
            depth: Some(5),
            ..Budget::default()
        };
        let stop = Stop::new();
        let mut values = Vec::new();
        for method in [
            Method::Sequential(Algorithm::AlphaBeta),
            Method::Parallel {
                algo: ParallelAlgo::DelaySplit,
                procs: 2,
                simulated: true,
            },
        ] {
            let mut player = Player::<TicTacToe3>::new(method, SearchConfig::research()).unwrap();
            let mut depths = Vec::new();
            let t = player
                .think(&root, &budget, WallClock::start(), &stop, &mut |e| {
                    if let Event::Depth(r) = e {
                        depths.push(r.depth);
                    }
                })
                .unwrap();
            assert_eq!(depths, vec![1, 2, 3, 4, 5], "{method:?}");
            assert_eq!(t.depth, 5);
            assert!(t.best_move.is_some());
            values.push(t.value);
        }
        assert_eq!(values[0], values[1]);
    }

    #[test]
    fn a_raised_stop_flag_answers_with_a_legal_move_at_once() {
        let root = TicTacToe3::start();
        let stop = Stop::new();
        stop.raise();
        let mut player = Player::<TicTacToe3>::new(
            Method::Parallel {
                algo: ParallelAlgo::Mwf,
                procs: 2,
                simulated: false,
            },
            SearchConfig::research(),
        )
        .unwrap();
        let t = player
            .think(
                &root,
                &Budget::default(),
                WallClock::start(),
                &stop,
                &mut |_| {},
            )
            .unwrap();
        assert_eq!(t.depth, 0);
        let mut moves = Vec::new();
        root.generate_moves(&mut moves);
        assert!(moves.contains(&t.best_move.unwrap()));
    }

    #[test]
    fn every_parallel_algorithm_answers_within_its_deadline_with_a_legal_move() {
        use games::chess::Chess;
        let root = Chess::start();
        let stop = Stop::new();
        let mut moves = Vec::new();
        root.generate_moves(&mut moves);
        for &algo in ParallelAlgo::ALL {
            let mut player = Player::<Chess>::new(
                Method::Parallel {
                    algo,
                    procs: 2,
                    simulated: false,
                },
                SearchConfig::play(),
            )
            .unwrap();
            // A deadline hardly any depth can meet, then one several depths fit in.
            for ms in [0, 30] {
                let budget = Budget {
                    time: Some(Duration::from_millis(ms)),
                    ..Budget::default()
                };
                let clock = WallClock::start();
                let t = player
                    .think(&root, &budget, clock, &stop, &mut |_| {})
                    .unwrap();
                assert!(moves.contains(&t.best_move.unwrap()), "{algo}");
                // The processors stop at the deadline: a leaf search's poll and the thread
                // pool's return are what it may take beyond it (on a loaded 2-core machine,
                // a descheduled thread's time slice too).
                assert!(
                    clock.elapsed() < Duration::from_millis(ms + 60),
                    "{algo}: {:?} for {ms} ms",
                    clock.elapsed()
                );
                if ms > 0 {
                    assert!(t.depth >= 2, "{algo} reached depth {}", t.depth);
                }
            }
        }
    }

    #[test]
    fn a_simulated_engine_thinks_in_virtual_time() {
        use games::chess::Chess;
        let root = Chess::start();
        let stop = Stop::new();
        let mut player = Player::<Chess>::new(
            Method::Parallel {
                algo: ParallelAlgo::DelaySplit,
                procs: 4,
                simulated: true,
            },
            SearchConfig::play(),
        )
        .unwrap();
        // 50 virtual ms on the shared-memory model (10 us a node): about 20,000 nodes on 4
        // processors, whatever the machine running the simulation.
        let budget = Budget {
            time: Some(Duration::from_millis(50)),
            ..Budget::default()
        };
        let think = |player: &mut Player<Chess>| {
            player
                .think(&root, &budget, WallClock::start(), &stop, &mut |_| {})
                .unwrap()
        };
        let t = think(&mut player);
        let spent = t.virtual_time.unwrap();
        assert!(spent <= Duration::from_millis(51), "{spent:?}");
        assert!(t.depth >= 3, "depth {}", t.depth);
        // The same run again from a cleared engine: the simulator is deterministic.
        player.clear();
        let again = think(&mut player);
        assert_eq!((again.nodes, again.best_move), (t.nodes, t.best_move));
    }
}
