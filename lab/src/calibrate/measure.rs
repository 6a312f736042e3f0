//! The measurements behind `runner calibrate`: node costs of one game (full search, quiescence,
//! static evaluation), transposition-table probes alone and with every core probing, and the
//! crossbeam channels of the threads backend. Each returns a [`Stat`] over its repeats.

use std::hint::black_box;
use std::sync::Barrier;
use std::time::{Duration, Instant};

use control::search::{
    Bound, SearchConfig, Searcher, TranspositionTable, TtEntry, TtMode, Unlimited,
};
use crossbeam_channel::{TryRecvError, unbounded};
use games::Game;
use games::score::INFINITY;
use serde::Serialize;

/// The median and range of one quantity over its repeats (nanoseconds, or a count).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Stat {
    /// The median of the samples.
    pub median: f64,
    /// The smallest sample.
    pub min: f64,
    /// The largest sample.
    pub max: f64,
    /// How many samples.
    pub repeats: usize,
}

impl Stat {
    /// The statistic of `samples` (at least one; NaN samples are dropped).
    #[must_use]
    pub fn of(samples: &[f64]) -> Stat {
        let mut s: Vec<f64> = samples.iter().copied().filter(|x| !x.is_nan()).collect();
        s.sort_by(f64::total_cmp);
        let n = s.len();
        let median = match n {
            0 => f64::NAN,
            _ if n % 2 == 1 => s[n / 2],
            _ => (s[n / 2 - 1] + s[n / 2]) / 2.0,
        };
        Stat {
            median,
            min: s.first().copied().unwrap_or(f64::NAN),
            max: s.last().copied().unwrap_or(f64::NAN),
            repeats: n,
        }
    }

    /// The median rounded to whole nanoseconds, at least 1 (a cost-model value).
    #[must_use]
    pub fn nanos(&self) -> u64 {
        if self.median.is_finite() {
            self.median.round().max(1.0) as u64
        } else {
            1
        }
    }
}

/// How long and how often to measure.
#[derive(Clone, Copy, Debug)]
pub struct Effort {
    /// Repeats of each measurement.
    pub repeats: usize,
    /// The shortest timed search or loop: depths and loop counts grow until one takes this.
    pub min_time: Duration,
    /// The deepest search tried while looking for `min_time`.
    pub max_depth: u32,
    /// Probes per thread in one table measurement.
    pub probes: usize,
    /// Messages per channel measurement (round trips for the latency).
    pub messages: usize,
}

impl Effort {
    /// `runner calibrate` (about a minute for four games) or `--quick` (seconds).
    #[must_use]
    pub fn new(quick: bool) -> Effort {
        if quick {
            Effort {
                repeats: 3,
                min_time: Duration::from_millis(5),
                max_depth: 6,
                probes: 50_000,
                messages: 5_000,
            }
        } else {
            Effort {
                repeats: 5,
                min_time: Duration::from_millis(150),
                max_depth: 30,
                probes: 2_000_000,
                messages: 200_000,
            }
        }
    }
}

/// A game's node costs in nanoseconds.
#[derive(Clone, Debug, Serialize)]
pub struct NodeCosts {
    /// A full search node (interior or horizon leaf).
    pub search: Stat,
    /// A quiescence node; `None` when the searches reached no quiescence node.
    pub quiescence: Option<Stat>,
    /// A static-evaluation node (generate, make, evaluate, unmake).
    pub static_eval: Stat,
    /// The search depth used per position.
    pub depths: Vec<u32>,
}

/// A fresh sequential searcher of the research setting with the table off (fresh, so that no
/// killers or history carry over and every repeat searches the same nodes).
fn searcher<G: Game>() -> Searcher<G> {
    let config = SearchConfig {
        tt_mode: TtMode::Off,
        ..SearchConfig::research()
    };
    Searcher::new(config).unwrap_or_else(|e| panic!("a searcher without a table: {e}"))
}

/// One fixed-depth full-window search of `pos`: (search nodes, quiescence nodes, seconds).
fn timed_search<G: Game>(pos: &G, depth: u32) -> (u64, u64, f64) {
    let mut s = searcher::<G>();
    let start = Instant::now();
    black_box(s.search_window_value(pos, depth, -INFINITY, INFINITY, &mut Unlimited));
    let seconds = start.elapsed().as_secs_f64();
    let st = s.stats();
    (st.interior + st.leaves, st.quiescence, seconds)
}

/// The machine's capacity for parallel search right now: `threads` independent copies of the
/// same sequential search (research setting, table off, the depth where one takes
/// `effort.min_time`) run at once, against one alone: threads · t_alone / t_together, per
/// repeat. A parallel algorithm on `threads` threads cannot beat it; on a machine shared with
/// other work it falls below `threads`.
pub fn parallel_capacity<G: Game>(pos: &G, threads: usize, effort: &Effort) -> Stat {
    let depth = depth_for(pos, effort);
    let samples: Vec<f64> = (0..effort.repeats)
        .map(|_| {
            let alone = timed_search(pos, depth).2;
            let start = Instant::now();
            std::thread::scope(|scope| {
                for _ in 0..threads {
                    scope.spawn(|| timed_search(pos, depth));
                }
            });
            threads as f64 * alone / start.elapsed().as_secs_f64()
        })
        .collect();
    Stat::of(&samples)
}

/// A depth-0 search of `pos` (the root, then quiescence only), repeated on one searcher until
/// `min_time` has passed: (search nodes, quiescence nodes, ns per search).
fn quiescence_row<G: Game>(pos: &G, min_time: Duration) -> (f64, f64, f64) {
    let mut s = searcher::<G>();
    black_box(s.search_window_value(pos, 0, -INFINITY, INFINITY, &mut Unlimited));
    let (search, quiescence) = (s.stats().interior + s.stats().leaves, s.stats().quiescence);
    let ns = ns_per_unit(min_time, 1, || {
        black_box(s.search_window_value(pos, 0, -INFINITY, INFINITY, &mut Unlimited));
    });
    (search as f64, quiescence as f64, ns)
}

/// The smallest depth whose search of `pos` takes `effort.min_time`, or the deepest tried
/// (`effort.max_depth`, or where the tree stopped growing: the game is solved).
fn depth_for<G: Game>(pos: &G, effort: &Effort) -> u32 {
    let mut last_nodes = 0;
    for depth in 1..=effort.max_depth {
        let (s, q, t) = timed_search(pos, depth);
        if t >= effort.min_time.as_secs_f64() || s + q == last_nodes {
            return depth;
        }
        last_nodes = s + q;
    }
    effort.max_depth
}

/// Runs `f` (which does `per_call` units of work) until `min_time` has passed: ns per unit.
fn ns_per_unit(min_time: Duration, per_call: u64, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut calls = 0u64;
    while calls == 0 || start.elapsed() < min_time {
        f();
        calls += 1;
    }
    start.elapsed().as_nanos() as f64 / (calls * per_call.max(1)) as f64
}

/// The per-node costs `(a, b)` that best explain `time = a·search + b·quiescence` over `rows`
/// of (search, quiescence, ns), each row weighted by 1/time so that short and long searches
/// count alike (least squares on relative errors). `None` when the rows cannot tell the two
/// apart.
#[must_use]
pub fn fit_two_costs(rows: &[(f64, f64, f64)]) -> Option<(f64, f64)> {
    let (mut ss, mut sq, mut qq, mut st, mut qt) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for &(s, q, t) in rows {
        if t <= 0.0 {
            continue;
        }
        let (x, y) = (s / t, q / t);
        ss += x * x;
        sq += x * y;
        qq += y * y;
        st += x;
        qt += y;
    }
    let det = ss * qq - sq * sq;
    if det.abs() <= 1e-12 * ss * qq {
        return None;
    }
    Some(((st * qq - qt * sq) / det, (qt * ss - st * sq) / det))
}

/// Measures a game's node costs on `positions`: fixed-depth searches (research setting, table
/// off) for the full search node; where quiescence nodes occur, also depth-0 searches (all
/// quiescence below the root) and a least-squares fit of time = a·search + b·quiescence; and
/// generate-make-evaluate-unmake loops over the positions and their children for the static
/// evaluation. `tick` is called after each repeat.
pub fn node_costs<G: Game>(positions: &[G], effort: &Effort, tick: &mut dyn FnMut()) -> NodeCosts {
    let depths: Vec<u32> = positions.iter().map(|p| depth_for(p, effort)).collect();
    let (mut search, mut quiescence, mut fitted) = (Vec::new(), Vec::new(), true);
    for _ in 0..effort.repeats {
        let mut rows = Vec::new();
        let (mut nodes, mut seconds, mut q_total) = (0u64, 0.0, 0u64);
        for (pos, &depth) in positions.iter().zip(&depths) {
            let (s, q, t) = timed_search(pos, depth);
            rows.push((s as f64, q as f64, t * 1e9));
            nodes += s + q;
            q_total += q;
            seconds += t;
        }
        if q_total == 0 {
            search.push(seconds * 1e9 / nodes.max(1) as f64);
        } else {
            for pos in positions {
                rows.push(quiescence_row(pos, effort.min_time / 4));
            }
            match fit_two_costs(&rows) {
                Some((a, b)) if a > 0.0 && b > 0.0 => {
                    search.push(a);
                    quiescence.push(b);
                }
                _ => {
                    // Not separable on these positions: every node at the mean cost.
                    fitted = false;
                    search.push(seconds * 1e9 / nodes.max(1) as f64);
                }
            }
        }
        tick();
    }
    let static_eval = (0..effort.repeats)
        .map(|_| {
            let ns = static_eval_ns(positions, effort.min_time);
            tick();
            ns
        })
        .collect::<Vec<_>>();
    NodeCosts {
        search: Stat::of(&search),
        quiescence: (fitted && !quiescence.is_empty()).then(|| Stat::of(&quiescence)),
        static_eval: Stat::of(&static_eval),
        depths,
    }
}

/// ns per static-evaluation node: for each position and each of its children, the moves are
/// generated and each is made, evaluated and unmade (the generation is shared out over them).
fn static_eval_ns<G: Game>(positions: &[G], min_time: Duration) -> f64 {
    let mut parents: Vec<G> = Vec::new();
    let mut moves = Vec::new();
    for p in positions {
        parents.push(p.clone());
        p.generate_moves(&mut moves);
        for &m in &moves {
            let mut c = p.clone();
            let _ = c.make_move(m);
            parents.push(c);
        }
    }
    let mut evaluated = 0u64;
    for p in &mut parents {
        p.generate_moves(&mut moves);
        evaluated += moves.len() as u64;
    }
    ns_per_unit(min_time, evaluated, || {
        for p in &mut parents {
            p.generate_moves(&mut moves);
            for &m in &moves {
                let undo = p.make_move(m);
                black_box(p.evaluate());
                p.unmake_move(m, undo);
            }
        }
    })
}

/// A xorshift64* stream of table keys.
struct Keys(u64);

impl Keys {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// Table probe costs: one thread alone and every one of `threads` probing at once.
#[derive(Clone, Debug, Serialize)]
pub struct ProbeCosts {
    /// The table size in MiB.
    pub mib: usize,
    /// ns per probe, one thread.
    pub alone: Stat,
    /// ns per probe per thread, `threads` threads at once.
    pub all: Stat,
    /// How many threads probed at once.
    pub threads: usize,
}

impl ProbeCosts {
    /// Probes the table serves at once: threads · t_alone / t_all, within 1..=threads.
    #[must_use]
    pub fn ports(&self) -> u32 {
        let cores = self.threads as f64;
        let ports = cores * self.alone.median / self.all.median.max(f64::MIN_POSITIVE);
        let ports = if ports.is_finite() { ports } else { cores };
        ports.round().clamp(1.0, cores.max(1.0)) as u32
    }
}

/// `n` probes of `table` with random keys: ns per probe.
fn probe_loop(table: &TranspositionTable, n: usize, seed: u64) -> f64 {
    let mut keys = Keys(seed | 1);
    let start = Instant::now();
    for _ in 0..n {
        black_box(table.probe(keys.next()));
    }
    start.elapsed().as_nanos() as f64 / n.max(1) as f64
}

/// Measures probes of a `mib` MiB table half filled with random entries.
///
/// # Errors
/// When the table cannot be built.
pub fn probe_costs(
    mib: usize,
    threads: usize,
    effort: &Effort,
    tick: &mut dyn FnMut(),
) -> Result<ProbeCosts, control::search::TtError> {
    let table = TranspositionTable::new(mib)?;
    let mut keys = Keys(0x9e37_79b9_7f4a_7c15);
    for _ in 0..table.capacity() / 2 {
        let entry = TtEntry {
            value: 0,
            depth: 4,
            bound: Bound::Exact,
            move_index: Some(1),
        };
        table.store(keys.next(), entry);
    }
    let (mut alone, mut all) = (Vec::new(), Vec::new());
    for r in 0..effort.repeats {
        alone.push(probe_loop(&table, effort.probes, r as u64 + 1));
        let barrier = Barrier::new(threads);
        let per_thread: Vec<f64> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|i| {
                    let (table, barrier) = (&table, &barrier);
                    scope.spawn(move || {
                        barrier.wait();
                        probe_loop(table, effort.probes, (r * threads + i) as u64 + 7)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or(f64::NAN))
                .collect()
        });
        all.push(per_thread.iter().sum::<f64>() / per_thread.len().max(1) as f64);
        tick();
    }
    Ok(ProbeCosts {
        mib,
        alone: Stat::of(&alone),
        all: Stat::of(&all),
        threads,
    })
}

/// The threads backend's message costs in ns (LogP: `o_send`, `o_recv`, `L`).
#[derive(Clone, Debug, Serialize)]
pub struct MessageCosts {
    /// A send into an unbounded channel.
    pub send: Stat,
    /// A receive of a waiting message.
    pub recv: Stat,
    /// A round trip between two threads (ping-pong).
    pub round_trip: Stat,
    /// One-way latency: half a round trip less one send and one receive (at least 0).
    pub latency: Stat,
}

/// What travels in the measurement: a sender id and a payload of a few words, about the size
/// of the threads backend's packets of a search problem.
type Msg = (usize, [u64; 4]);

/// Measures the channels: tight send and receive loops for the overheads, a ping-pong between
/// two threads for the round trip (the receiver spins on `try_recv` when `spin`, as the threads
/// backend does with a core for each processor; otherwise it blocks).
pub fn message_costs(effort: &Effort, spin: bool, tick: &mut dyn FnMut()) -> MessageCosts {
    let n = effort.messages;
    let (mut send, mut recv, mut rtt, mut latency) = (vec![], vec![], vec![], vec![]);
    for _ in 0..effort.repeats {
        let (tx, rx) = unbounded::<Msg>();
        let start = Instant::now();
        for i in 0..n {
            tx.send((i, [i as u64; 4])).unwrap_or_default();
        }
        let s = start.elapsed().as_nanos() as f64 / n.max(1) as f64;
        let start = Instant::now();
        while let Ok(m) = rx.try_recv() {
            black_box(m);
        }
        let r = start.elapsed().as_nanos() as f64 / n.max(1) as f64;
        let trip = ping_pong(n, spin);
        send.push(s);
        recv.push(r);
        rtt.push(trip);
        latency.push((trip / 2.0 - s - r).max(0.0));
        tick();
    }
    MessageCosts {
        send: Stat::of(&send),
        recv: Stat::of(&recv),
        round_trip: Stat::of(&rtt),
        latency: Stat::of(&latency),
    }
}

/// Receives one message, spinning first when `spin`.
fn receive(rx: &crossbeam_channel::Receiver<Msg>, spin: bool) -> Option<Msg> {
    if spin {
        for _ in 0..1_000_000 {
            match rx.try_recv() {
                Ok(m) => return Some(m),
                Err(TryRecvError::Empty) => std::hint::spin_loop(),
                Err(TryRecvError::Disconnected) => return None,
            }
        }
    }
    rx.recv().ok()
}

/// `n` round trips between two threads: ns per round trip.
fn ping_pong(n: usize, spin: bool) -> f64 {
    let (to_echo, echo_in) = unbounded::<Msg>();
    let (to_main, main_in) = unbounded::<Msg>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            while let Some(m) = receive(&echo_in, spin) {
                if to_main.send(m).is_err() {
                    break;
                }
            }
        });
        // One trip to start the echo thread, untimed.
        let _ = to_echo.send((0, [0; 4]));
        let _ = receive(&main_in, spin);
        let start = Instant::now();
        for i in 0..n {
            if to_echo.send((i, [i as u64; 4])).is_err() || receive(&main_in, spin).is_none() {
                break;
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / n.max(1) as f64;
        drop(to_echo);
        ns
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_and_range_of_samples() {
        let s = Stat::of(&[5.0, 1.0, 3.0]);
        assert_eq!((s.median, s.min, s.max, s.repeats), (3.0, 1.0, 5.0, 3));
        assert_eq!(Stat::of(&[4.0, 1.0, 2.0, 8.0]).median, 3.0);
        assert_eq!(Stat::of(&[0.2]).nanos(), 1);
        assert_eq!(Stat::of(&[41.6]).nanos(), 42);
    }

    #[test]
    fn the_fit_recovers_two_node_costs() {
        // time = 40 ns per search node + 15 ns per quiescence node, exactly.
        let rows: Vec<(f64, f64, f64)> = [(1000.0, 200.0), (10.0, 900.0), (500.0, 500.0)]
            .iter()
            .map(|&(s, q)| (s, q, 40.0 * s + 15.0 * q))
            .collect();
        let (a, b) = fit_two_costs(&rows).expect("separable");
        assert!(
            (a - 40.0).abs() < 1e-6 && (b - 15.0).abs() < 1e-6,
            "{a} {b}"
        );
        // Proportional rows cannot tell the costs apart.
        assert_eq!(fit_two_costs(&[(1.0, 2.0, 5.0), (2.0, 4.0, 10.0)]), None);
    }

    #[test]
    fn ports_follow_the_slowdown_under_contention() {
        let costs = |alone: f64, all: f64| ProbeCosts {
            mib: 1,
            alone: Stat::of(&[alone]),
            all: Stat::of(&[all]),
            threads: 4,
        };
        assert_eq!(costs(10.0, 10.0).ports(), 4);
        assert_eq!(costs(10.0, 20.0).ports(), 2);
        assert_eq!(costs(10.0, 400.0).ports(), 1);
        assert_eq!(costs(10.0, 5.0).ports(), 4);
    }
}
