//! One engine choosing a move: the sequential search core, or iterative deepening over
//! fixed-depth searches of a parallel algorithm, under a [`Budget`], with a progress report per
//! completed depth (and, for the sequential search, the root move it is on) and a [`Stop`].
//! Shared by `runner uci` and `runner play`; an engine author's time management.
//!
//! The parallel algorithms search one fixed depth and cannot be interrupted. [`Player`] runs
//! them depth after depth, each on a thread of its own, and starts the next depth only when the
//! time the last one took, times the growth between the last two depths (at least 2, at most
//! 8), still fits before the deadline. While a depth runs the player sleeps until its result,
//! the deadline or the stop, whichever comes first. If a depth runs past the deadline anyway
//! (or a stop arrives), the player answers with the last completed depth at once and leaves
//! that search to finish in the background; its result is dropped. So the clock is kept, at
//! the price of a thread that may go on computing for a while.

use std::cell::RefCell;
use std::sync::Arc;
use std::time::Duration;

use crate::parallel::play::{PlayEngine, PlayLimits};
use crate::parallel::{self, ParallelAlgo, ParallelError, ParallelOptions};
use crate::search::{
    Algorithm, Limits, MAX_DEPTH, SearchConfig, SearchContext, SearchError, Searcher, Signal,
    TtMode,
};
use dib::Backend;
use games::Game;

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
    /// The thread of a parallel depth could not start.
    #[error("starting a parallel search thread: {0}")]
    Thread(std::io::Error),
    /// The thread of a parallel depth ended without a result.
    #[error("the parallel search thread of depth {depth} died")]
    ThreadDied {
        /// The depth it was searching.
        depth: u32,
    },
    /// A parallel depth failed.
    #[error("parallel {algo} search at depth {depth}: {cause}")]
    Parallel {
        /// The algorithm's name.
        algo: &'static str,
        /// The depth.
        depth: u32,
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
        /// Run on the simulator instead of real threads (virtual time: only sensible with a
        /// depth budget).
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
    /// Whether an unfinished parallel iteration was left running in the background.
    pub abandoned: bool,
}

/// An engine: a method, a search configuration and, for the sequential core, a searcher whose
/// table and history persist from move to move.
pub struct Player<G: Game> {
    config: SearchConfig,
    core: Core<G>,
}

/// What a [`Player`] searches with.
enum Core<G: Game> {
    /// The sequential core, its table and history kept from move to move.
    Sequential(Box<Searcher<G>>),
    /// A parallel algorithm in the play engine: deepening inside one run, its threads and
    /// tables kept from move to move.
    Play {
        engine: Box<PlayEngine<G>>,
        simulated: bool,
    },
    /// A parallel algorithm, depth after depth.
    Parallel {
        /// The algorithm.
        algo: ParallelAlgo,
        /// Processors.
        procs: usize,
        /// On the simulator.
        simulated: bool,
    },
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
                match PlayEngine::new(algo, &options) {
                    Ok(engine) => Core::Play {
                        engine: Box::new(engine),
                        simulated,
                    },
                    Err(_) => Core::Parallel {
                        algo,
                        procs,
                        simulated,
                    },
                }
            }
        };
        Ok(Player { config, core })
    }

    /// The method.
    pub fn method(&self) -> Method {
        match &self.core {
            Core::Sequential(_) => Method::Sequential(self.config.algorithm),
            Core::Play { engine, simulated } => Method::Parallel {
                algo: engine.algo(),
                procs: engine.options().procs,
                simulated: *simulated,
            },
            Core::Parallel {
                algo,
                procs,
                simulated,
            } => Method::Parallel {
                algo: *algo,
                procs: *procs,
                simulated: *simulated,
            },
        }
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn clear(&mut self) {
        match &mut self.core {
            Core::Sequential(s) => s.clear(),
            Core::Play { engine, .. } => engine.clear(),
            Core::Parallel { .. } => {}
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
        clock: impl SearchContext,
        stop: &Stop,
        report: &mut dyn FnMut(Event<G::Move>),
    ) -> Result<Thought<G::Move>, EngineError> {
        match &mut self.core {
            Core::Sequential(searcher) => {
                let table = Arc::clone(searcher.table());
                let hashfull = (self.config.tt_mode != TtMode::Off).then_some(());
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
                Ok(Thought {
                    best_move: result.best_move,
                    pv: result.pv,
                    value: result.value,
                    depth: result.depth,
                    nodes: result.stats.nodes(),
                    abandoned: false,
                })
            }
            Core::Play { engine, simulated } => {
                play_deepening(engine, *simulated, root, budget, &clock, stop, report)
            }
            Core::Parallel {
                algo,
                procs,
                simulated,
            } => parallel_deepening(
                root,
                *algo,
                *procs,
                *simulated,
                self.config,
                budget,
                &clock,
                stop,
                report,
            ),
        }
    }
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
#[allow(clippy::too_many_arguments)]
fn play_deepening<G: Game>(
    engine: &mut PlayEngine<G>,
    simulated: bool,
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
        abandoned: false,
    };
    if root.outcome().is_some() {
        thought.best_move = None;
        return Ok(thought);
    }
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
                hashfull: None,
                seldepth: it.depth.max(u32::try_from(it.pv.len()).unwrap_or(u32::MAX)),
            }));
        })
        .map_err(|cause| EngineError::Parallel {
            algo: engine.algo().name(),
            depth: 0,
            cause,
        })?;
    thought.nodes = out.nodes;
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

/// How long the next depth is expected to take: the last depth's time times the growth between
/// the last two depths, kept within 2 to 8.
pub fn predict_next(previous: Option<Duration>, last: Duration) -> Duration {
    let growth = match previous {
        Some(p) if !p.is_zero() => (last.as_secs_f64() / p.as_secs_f64()).clamp(2.0, 8.0),
        _ => 4.0,
    };
    last.mul_f64(growth)
}

/// Iterative deepening over fixed-depth parallel searches (see the module docs).
#[allow(clippy::too_many_arguments)]
fn parallel_deepening<G: Game>(
    root: &G,
    algo: ParallelAlgo,
    procs: usize,
    simulated: bool,
    config: SearchConfig,
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
        abandoned: false,
    };
    if root.outcome().is_some() {
        thought.best_move = None;
        return Ok(thought);
    }
    let max_depth = budget.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
    let mut times: (Option<Duration>, Option<Duration>) = (None, None);
    for depth in 1..=max_depth {
        if stop.is_raised() || budget.nodes.is_some_and(|n| thought.nodes >= n) {
            break;
        }
        let now = clock.elapsed();
        if let (Some(limit), Some(last)) = (budget.time, times.1) {
            let past_half = !budget.fixed_time && now >= limit / 2;
            if depth > 1 && (past_half || now + predict_next(times.0, last) >= limit) {
                break;
            }
        }
        let backend = if simulated {
            Backend::Sim(dib::SimConfig::new(dib::CostModel::shared_memory(), 1))
        } else {
            Backend::Threads { seed: 1 }
        };
        let mut options = ParallelOptions::for_algo(algo, depth, procs, backend);
        options.search = config;
        let start = clock.elapsed();
        let (tx, rx) = crossbeam_channel::bounded(1);
        let pos = root.clone();
        std::thread::Builder::new()
            .name(format!("parallel depth {depth}"))
            .spawn(move || {
                let _ = tx.send(parallel::search(algo, &pos, &options));
            })
            .map_err(EngineError::Thread)?;
        // Asleep until the result, the stop or the deadline. The deadline is the clock's (a
        // virtual clock in tests): when the timer fires the clock is read again.
        let result = loop {
            let timer = match budget.time {
                Some(limit) => match limit.checked_sub(clock.elapsed()) {
                    Some(left) if !left.is_zero() => crossbeam_channel::after(left),
                    _ => break None,
                },
                None => crossbeam_channel::never(),
            };
            crossbeam_channel::select! {
                recv(rx) -> r => match r {
                    Ok(r) => break Some(r),
                    Err(_) => return Err(EngineError::ThreadDied { depth }),
                },
                // A result that is ready as the stop arrives is still taken.
                recv(stop.raised()) -> _ => break rx.try_recv().ok(),
                recv(timer) -> _ => {}
            }
        };
        let Some(result) = result else {
            thought.abandoned = true;
            break;
        };
        let result = result.map_err(|cause| EngineError::Parallel {
            algo: algo.name(),
            depth,
            cause,
        })?;
        let took = clock.elapsed().saturating_sub(start);
        times = (times.1, Some(took));
        // Whole permille, as the table reports it.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let hashfull = result.figures.hashfull.map(|h| h as u32);
        thought.nodes += result.nodes;
        thought.depth = depth;
        thought.value = result.value;
        thought.best_move = result.best_move.or(thought.best_move);
        thought.pv = result.pv;
        report(Event::Depth(Report {
            depth,
            value: thought.value,
            pv: thought.pv.clone(),
            nodes: thought.nodes,
            elapsed: clock.elapsed(),
            hashfull,
            seldepth: depth.max(u32::try_from(thought.pv.len()).unwrap_or(u32::MAX)),
        }));
        if games::score::plies_to_end(thought.value).is_some_and(|p| p <= depth) {
            break;
        }
    }
    Ok(thought)
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::tictactoe::TicTacToe3;

    #[test]
    fn the_next_depth_is_predicted_from_the_growth_of_the_last_two() {
        let ms = Duration::from_millis;
        assert_eq!(predict_next(None, ms(10)), ms(40));
        assert_eq!(predict_next(Some(ms(10)), ms(30)), ms(90));
        assert_eq!(predict_next(Some(ms(10)), ms(10)), ms(20));
        assert_eq!(predict_next(Some(ms(1)), ms(100)), ms(800));
    }

    #[test]
    fn a_fixed_time_is_searched_to_its_deadline_and_a_clock_time_starts_no_depth_after_half() {
        use crate::search::NodeClock;
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
        // With a clock, the depth that ended past half the time (7,500 nodes) was the last.
        let (clock, depths) = think(false);
        assert!(clock.nodes < 15_000, "{} {depths:?}", clock.nodes);
        assert!(depths.last().unwrap().1 >= 7_500, "{depths:?}");
    }

    #[test]
    fn the_root_move_is_reported_after_the_first_second_at_most_four_times_a_second() {
        use crate::search::NodeClock;
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
    fn a_parallel_depth_past_the_deadline_is_left_behind_with_a_legal_answer() {
        use games::chess::Chess;
        let root = Chess::start();
        let stop = Stop::new();
        let mut player = Player::<Chess>::new(
            Method::Parallel {
                algo: ParallelAlgo::DelaySplit,
                procs: 2,
                simulated: false,
            },
            SearchConfig::play(),
        )
        .unwrap();
        // A deadline no depth can meet: depth 1 is tried (there is nothing to predict from) and
        // abandoned, or it completes and depth 2 is not started.
        let budget = Budget {
            time: Some(Duration::from_micros(1)),
            ..Budget::default()
        };
        let t = player
            .think(&root, &budget, WallClock::start(), &stop, &mut |_| {})
            .unwrap();
        assert!(t.depth <= 1);
        assert_eq!(t.abandoned, t.depth == 0);
        let mut moves = Vec::new();
        root.generate_moves(&mut moves);
        assert!(moves.contains(&t.best_move.unwrap()));
    }
}
