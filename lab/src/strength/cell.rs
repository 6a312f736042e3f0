//! The cells of a strength run: one match of an algorithm on N processors against one, or one
//! time-to-depth measurement; how each is computed, stored (`cells/<id>.json`, written when it
//! finishes) and shared out among `--shard` slices and `--jobs` threads.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context as _, Result, anyhow};
use control::engine::{Budget, Method, Stop, WallClock};
use control::parallel::ParallelAlgo;
use control::search::{Algorithm, SearchConfig, SearchContext as _};
use dib::SimConfig;
use games::{Game, GameId, GameInfo, GameVisitor};
use serde::{Deserialize, Serialize};

use super::Settings;
use crate::compare::plan::fnv;
use crate::compare::shard::Shard;
use crate::compare::store::write_whole;
use crate::per_game::TimeToDepth;
use crate::play::spec::Spec;
use crate::play::{MatchOutcome, Plan, play_match};
use crate::testset::{TestSet, read_positions};

/// What a cell measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A match against one processor.
    Match,
    /// Time to depth.
    Ttd,
}

/// One unit of work.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// What it measures.
    pub kind: Kind,
    /// The game.
    pub game: String,
    /// The algorithm (`pvs`: the sequential engine, the baseline on threads).
    pub algo: String,
    /// Processors.
    pub procs: usize,
}

impl Cell {
    /// A cell of `kind` for `algo` on `procs` processors at `game`.
    #[must_use]
    pub fn new(kind: Kind, game: &str, algo: &str, procs: usize) -> Cell {
        Cell {
            kind,
            game: game.to_string(),
            algo: algo.to_string(),
            procs,
        }
    }

    /// The sequential engine's time to depth at `game` (the baseline on threads).
    #[must_use]
    pub fn ttd_baseline(game: &str) -> Cell {
        Cell::new(Kind::Ttd, game, Algorithm::Pvs.name(), 1)
    }

    /// Its file name without the extension: `match-chess-abdada-2`.
    #[must_use]
    pub fn id(&self) -> String {
        let kind = match self.kind {
            Kind::Match => "match",
            Kind::Ttd => "ttd",
        };
        format!("{kind}-{}-{}-{}", self.game, self.algo, self.procs)
    }
}

/// A finished cell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellResult {
    /// The cell.
    pub cell: Cell,
    /// A match's outcome.
    pub outcome: Option<MatchOutcome>,
    /// Time to depth: the depth, and each position's seconds (virtual on the simulator; on
    /// threads the median of the repeats).
    pub ttd: Option<Ttd>,
    /// Wall-clock seconds the cell took to compute.
    pub host_seconds: f64,
}

/// A time-to-depth measurement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ttd {
    /// The test set.
    pub testset: String,
    /// The depth completed at each position.
    pub depth: u32,
    /// Seconds to complete it, per position.
    pub seconds: Vec<f64>,
    /// Nodes, per position.
    pub nodes: Vec<u64>,
}

impl Ttd {
    /// The total time.
    #[must_use]
    pub fn total(&self) -> f64 {
        self.seconds.iter().sum()
    }
}

/// The time-to-depth measurement of `game` (`None`: not measured for that game).
#[must_use]
pub fn ttd_of(game: &str) -> Option<TimeToDepth> {
    crate::per_game::of(game.parse().ok()?).time_to_depth
}

/// How many times each position is timed on threads (the median is kept).
const TTD_REPEATS: usize = 3;

/// The file of `cell` in `out`.
fn path_of(out: &Path, cell: &Cell) -> PathBuf {
    out.join("cells").join(format!("{}.json", cell.id()))
}

/// The finished cells of `out` among `cells`.
///
/// # Errors
/// When a cell file cannot be read.
pub fn finished(out: &Path, cells: &[Cell]) -> Result<Vec<CellResult>> {
    let mut done = Vec::new();
    for cell in cells {
        let path = path_of(out, cell);
        if path.is_file() {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("reading {}", path.display()))?;
            done.push(
                serde_json::from_str(&text)
                    .with_context(|| format!("reading {}", path.display()))?,
            );
        }
    }
    Ok(done)
}

/// Computes the cells of `settings` (of `shard`'s slice) that `out` does not hold yet, on
/// `jobs` threads at once on the simulator, one at a time on real threads.
///
/// # Errors
/// The first failing cell's error.
pub fn run_missing(
    out: &Path,
    settings: &Settings,
    shard: Option<Shard>,
    jobs: usize,
) -> Result<()> {
    let all = settings.cells();
    let missing: Vec<Cell> = all
        .into_iter()
        .filter(|c| shard.is_none_or(|s| fnv(c.id().as_bytes()) as usize % s.count == s.index - 1))
        .filter(|c| !path_of(out, c).is_file())
        .collect();
    let total = missing.len();
    let jobs = if settings.simulated() { jobs } else { 1 };
    let queue = Mutex::new(missing.into_iter().enumerate().collect::<VecDeque<_>>());
    let failed: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(total.max(1)) {
            scope.spawn(|| {
                loop {
                    if failed.lock().map(|f| f.is_some()).unwrap_or(true) {
                        return;
                    }
                    let next = queue.lock().ok().and_then(|mut q| q.pop_front());
                    let Some((i, cell)) = next else {
                        return;
                    };
                    match compute(&cell, settings).and_then(|r| save(out, &r).map(|()| r)) {
                        Ok(r) => println!(
                            "cell {}/{total}: {} ({:.0} s)",
                            i + 1,
                            cell.id(),
                            r.host_seconds
                        ),
                        Err(e) => {
                            if let Ok(mut f) = failed.lock() {
                                f.get_or_insert(e.context(format!("cell {}", cell.id())));
                            }
                            return;
                        }
                    }
                }
            });
        }
    });
    match failed.into_inner() {
        Ok(Some(e)) => Err(e),
        Ok(None) => Ok(()),
        Err(_) => Err(anyhow!("a strength worker panicked")),
    }
}

/// Writes a finished cell.
fn save(out: &Path, r: &CellResult) -> Result<()> {
    write_whole(&path_of(out, &r.cell), &serde_json::to_string_pretty(r)?)
}

/// Computes one cell.
///
/// # Errors
/// When an engine cannot be built or a search fails.
pub fn compute(cell: &Cell, settings: &Settings) -> Result<CellResult> {
    let game: GameId = cell.game.parse().map_err(|e| anyhow!("{e}"))?;
    let started = WallClock::start();
    let mut r = game.visit(CellVisitor { cell, settings })?;
    r.host_seconds = started.elapsed().as_secs_f64();
    Ok(r)
}

struct CellVisitor<'a> {
    cell: &'a Cell,
    settings: &'a Settings,
}

impl GameVisitor for CellVisitor<'_> {
    type Output = Result<CellResult>;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Result<CellResult> {
        let (cell, s) = (self.cell, self.settings);
        let mut r = CellResult {
            cell: cell.clone(),
            outcome: None,
            ttd: None,
            host_seconds: 0.0,
        };
        match cell.kind {
            Kind::Match => {
                let openings = openings::<G>(info)?;
                let a = spec(&cell.algo, cell.procs, s)?;
                let b = opponent(&cell.algo, s)?;
                let plan = Plan::new(s.match_games, Some(s.time_ms), None, s.max_plies);
                r.outcome = Some(play_match(&a, &b, &openings, &plan)?);
            }
            Kind::Ttd => {
                let Some(t) = ttd_of(&cell.game) else {
                    return Ok(r);
                };
                let (set, depth) = (t.testset, t.depth(s.simulated()));
                let found = TestSet::find("--games", set)?;
                let positions: Vec<G> = read_positions::<G>("--games", &found, info)?
                    .into_iter()
                    .take(t.positions)
                    .map(|(_, p)| p)
                    .collect();
                let engine = spec(&cell.algo, cell.procs, s)?;
                let repeats = if s.simulated() { 1 } else { TTD_REPEATS };
                let mut seconds = Vec::new();
                let mut nodes = Vec::new();
                for pos in &positions {
                    let mut times = Vec::new();
                    let mut n = 0;
                    for _ in 0..repeats {
                        let (t, k) = time_to_depth(&engine, pos, depth)?;
                        times.push(t);
                        n = k;
                    }
                    times.sort_by(f64::total_cmp);
                    seconds.push(times[times.len() / 2]);
                    nodes.push(n);
                }
                r.ttd = Some(Ttd {
                    testset: set.to_string(),
                    depth,
                    seconds,
                    nodes,
                });
            }
        }
        Ok(r)
    }
}

/// The time (virtual on the simulator) and nodes `engine` takes to complete `depth` at `pos`,
/// from a fresh engine.
fn time_to_depth<G: Game>(engine: &Spec, pos: &G, depth: u32) -> Result<(f64, u64)> {
    let mut player = engine.player::<G>()?;
    let budget = Budget {
        depth: Some(depth),
        ..Budget::default()
    };
    let clock = WallClock::start();
    let t = player.think(pos, &budget, clock, &Stop::new(), &mut |_| {})?;
    let seconds = t
        .virtual_time
        .map_or_else(|| clock.elapsed().as_secs_f64(), |v| v.as_secs_f64());
    Ok((seconds, t.nodes))
}

/// The opening positions of `info`'s matches: the built-in set `openings_<game>`, else the
/// start position.
fn openings<G: Game>(info: &GameInfo) -> Result<Vec<G>> {
    let name = format!("openings_{}", info.name);
    Ok(match TestSet::find("--games", &name) {
        Ok(set) => read_positions::<G>("--games", &set, info)?
            .into_iter()
            .map(|(_, p)| p)
            .collect(),
        Err(_) => vec![G::start()],
    })
}

/// The engine of `algo` on `procs` processors of the run's backend (`pvs`: the sequential
/// engine), in the play setting.
fn spec(algo: &str, procs: usize, s: &Settings) -> Result<Spec> {
    let config = SearchConfig::play();
    if algo == Algorithm::Pvs.name() {
        return Ok(Spec {
            name: "pvs".into(),
            method: Method::Sequential(Algorithm::Pvs),
            config,
            sim: None,
        });
    }
    let parsed: ParallelAlgo = algo.parse().map_err(|e| anyhow!("{e}"))?;
    let sim = match &s.sim_preset {
        Some(p) if s.simulated() => Some(SimConfig::new(crate::dib_flags::cost_model(p)?, 1)),
        _ => None,
    };
    Ok(Spec {
        name: format!("{algo}/{procs}"),
        method: Method::Parallel {
            algo: parsed,
            procs,
            simulated: sim.is_some(),
        },
        config,
        sim,
    })
}

/// One processor's engine against which `algo` plays: the sequential engine on threads, the
/// same algorithm on one simulated processor on the simulator.
fn opponent(algo: &str, s: &Settings) -> Result<Spec> {
    if s.simulated() {
        spec(algo, 1, s)
    } else {
        spec(Algorithm::Pvs.name(), 1, s)
    }
}
