//! `runner experiment pdp11-t5`: the two-PDP-11 thesis's table 5.1 (each position's fastest
//! setting, time over the ideal combination of the two machines) and table 5.2 (dsub at CD = 0),
//! and its findings about the common depth, from runs of common-depth splitting (`cdsplit`) on the
//! simulated PDP-11/45 and PDP-11/20 (`pdp11` preset).
//!
//! Per position and depth (`testsets/search/pdp11_two_machines.txt`): T1 and T2, one machine alone
//! (processor 0 at the preset's relative costs of the 11/45 and of the 11/20), T0 with
//! 1/T0 = 1/T1 + 1/T2 (thesis eq. 1), and the pair on every common depth CD (endgames 0-4,
//! middle games 0-3, as the thesis's printouts) with strategies A (variable) and B (fixed). The
//! thesis's measures (l. 2382-2395): time over T0, (T - T0)/T0; dsub, (Tsub - T0)/T0 with Tsub
//! the search work of both machines at the combined machine's speed (eq. 3-7: here the busy
//! time of each machine converted to the 11/45's speed, times T0/T1); dcomm, the rest. The
//! simulator also gives what the thesis could not separate: the link's time (sending and
//! receiving), the 16-bit words moved, and each machine's idle time after its last piece of
//! work (the end-of-search idle, the thesis's "busy loop time").
//!
//! The search is the thesis's: full width to MAXD, quiescence over captures and queening to
//! MAXD + 2 (`SearchConfig::quiescence_plies`), static evaluation there, no table, no
//! ordering beyond the move generator's. Every run's value is checked against T1's.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context as _, Result, bail};
use control::parallel::cdsplit::CdStrategy;
use control::parallel::{ParallelAlgo, ParallelOptions, ParallelResult, search};
use control::search::{Algorithm, SearchConfig, TtMode};
use dib::{Backend, CostModel, SimConfig};
use games::GameId;
use games::chess::{Chess, Move};

use super::Provenance;
use super::catalog::Experiment;
use super::claims::Claim;
use super::published::{self, Quantity};
use super::verdict::{Comparison, Record, verdicts};
use crate::compare::store::Cost;
use crate::compare::svg::{self, Chart, Line, Scale};
use crate::testset::{TestSet, read_entries};

/// The experiment's setup, its file's `[common-depth]` table.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Setup {
    /// The built-in test set of the thesis's positions, each with its `id`, its depths
    /// (`maxd`) and its printed line (`pv`).
    pub testset: String,
    /// The machine: a built-in simulator preset.
    pub sim_preset: String,
    /// The simulator's seed.
    pub seed: u64,
    /// Quiescence plies below MAXD ("MMAXD is MAXD+2", thesis l. 2350: 2).
    pub quiescence_plies: u32,
}

/// A position and depth of table 5.1.
struct Row {
    id: String,
    endgame: bool,
    maxd: u32,
    /// The depth of the published row it is held against (under `--quick` a deeper one).
    published_maxd: u32,
    pos: Chess,
    /// What stays uncertain in the OCR reading.
    reading: String,
}

impl Row {
    fn label(&self) -> String {
        format!("{} MAXD {}", self.id, self.maxd)
    }

    /// The published row's series.
    fn published_label(&self) -> String {
        format!("{} MAXD {}", self.id, self.published_maxd)
    }

    /// The common depths the thesis ran: 0-4 for endgames, 0-3 for middle games (its
    /// printouts' MAXCD), never past MAXD - 1.
    fn depths(&self, quick: bool) -> Vec<u32> {
        let top = if quick {
            2
        } else if self.endgame {
            4
        } else {
            3
        };
        (0..=top.min(self.maxd - 1)).collect()
    }
}

/// What one run measured.
#[derive(Clone, Copy, Debug)]
struct Run {
    /// Elapsed virtual seconds.
    t: f64,
    /// Search work of both machines in seconds of the 11/45.
    work: f64,
    /// Time both machines spent sending and receiving, seconds.
    link: f64,
    /// 16-bit words sent, overhead included.
    words: u64,
    /// The larger of the two machines' idle time after its last work, seconds.
    end_idle: f64,
    /// Problems that moved between the machines.
    pieces: u64,
    value: i32,
}

/// A row's runs.
struct Measured {
    t1: f64,
    t2: f64,
    t0: f64,
    nodes: u64,
    value: i32,
    /// (CD, strategy, run).
    runs: Vec<(u32, CdStrategy, Run)>,
}

impl Measured {
    fn total(&self, r: &Run) -> f64 {
        100.0 * (r.t - self.t0) / self.t0
    }

    /// Tsub = work x T0 / T1 (thesis eq. 3-7), so dsub = work / T1 - 1.
    fn dsub(&self, r: &Run) -> f64 {
        100.0 * (r.work / self.t1 - 1.0)
    }

    fn dcomm(&self, r: &Run) -> f64 {
        self.total(r) - self.dsub(r)
    }

    /// The fastest setting (the first of equals: smaller CD, A before B).
    fn best(&self) -> (u32, CdStrategy, Run) {
        let mut best = self.runs[0];
        for &r in &self.runs[1..] {
            if r.2.t < best.2.t {
                best = r;
            }
        }
        best
    }

    fn at(&self, cd: u32, s: CdStrategy) -> Option<&Run> {
        self.runs
            .iter()
            .find(|(c, x, _)| *c == cd && *x == s)
            .map(|(_, _, r)| r)
    }
}

/// The search of the thesis's program: plain alpha-beta at one fixed depth with a full window
/// (no iterative deepening, on one machine or two),
/// no table, quiescence to MAXD + 2; the moves ordered by the game's hints (captures first),
/// killers and history, as the thesis's chapter 1 orders them "based upon a knowledge of chess,
/// the killer heuristic" (l. 420-435).
fn search_config(setup: &Setup) -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::AlphaBeta,
        tt_mode: TtMode::Off,
        aspiration: None,
        deepening: false,
        quiescence_plies: Some(setup.quiescence_plies),
        ..SearchConfig::research()
    }
}

/// The options of one run: `procs` machines of `cost`, common depth `cd`, strategy `s`.
/// Frames at every node with a ply left (`min_split_depth` 1): the private search below the
/// common depth is the split engine's too, so a machine answers a request between nodes, as the
/// thesis's program answers at interrupt level. A refused machine asks again only once it has
/// worked again (a piece of its own came back): the thesis's follower looks for an unevaluated
/// shared move whenever it is free, ascending to the root, and one that finds none there waits
/// in its busy loop until the search ends (fig. 4.7, `EXIT: ... AWAIT(NOIN(0)=0)`).
fn options(
    setup: &Setup,
    row: &Row,
    procs: usize,
    cost: &CostModel,
    cd: u32,
    s: CdStrategy,
) -> ParallelOptions {
    let backend = Backend::Sim(SimConfig::new(cost.clone(), setup.seed));
    let mut o = ParallelOptions::new(row.maxd, procs, backend);
    o.search = search_config(setup);
    o.min_split_depth = 1;
    o.common_depth = cd;
    o.cd_strategy = s;
    let mut dib = o.backend.default_config();
    dib.retry_delay_ns = NEVER_AGAIN_NS;
    dib.ask_again_after_work = true;
    o.dib = Some(dib);
    o
}

/// A wait longer than any search here (about a day of virtual time).
const NEVER_AGAIN_NS: u64 = 86_400_000_000_000;

fn run_one(row: &Row, o: &ParallelOptions, percent: &[u32]) -> Result<Run> {
    let r: ParallelResult<Move> = search(ParallelAlgo::CdSplit, &row.pos, o)
        .with_context(|| format!("{} with {} processors", row.label(), o.procs))?;
    let ns = 1e-9;
    let work: f64 = r
        .accounts
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let pct = f64::from(
                percent
                    .get(i % percent.len().max(1))
                    .copied()
                    .unwrap_or(100),
            );
            a.backend.busy_ns as f64 * 100.0 / pct
        })
        .sum::<f64>()
        * ns;
    let end_idle = r
        .accounts
        .iter()
        .map(|a| r.seconds - a.backend.last_busy_ns as f64 * ns)
        .fold(0.0, f64::max);
    Ok(Run {
        t: r.seconds,
        work,
        link: r.total.backend.messaging_ns as f64 * ns,
        words: r.total.backend.words_sent,
        end_idle,
        pieces: r.total.dib.problems_received,
        value: r.value,
    })
}

/// Runs one row: T1, T2, then every setting.
fn measure(setup: &Setup, row: &Row, cost: &CostModel, quick: bool) -> Result<Measured> {
    let percent = if cost.relative_cost_percent.is_empty() {
        vec![100, 100]
    } else {
        cost.relative_cost_percent.clone()
    };
    let alone = |pct: u32| CostModel {
        relative_cost_percent: vec![pct],
        ..cost.clone()
    };
    let fast = alone(percent[0]);
    let one = options(setup, row, 1, &fast, 0, CdStrategy::Fixed);
    let r1 = search(ParallelAlgo::CdSplit, &row.pos, &one)
        .with_context(|| format!("{} on one machine", row.label()))?;
    let slow = alone(percent[1 % percent.len()]);
    let r2 = search(
        ParallelAlgo::CdSplit,
        &row.pos,
        &options(setup, row, 1, &slow, 0, CdStrategy::Fixed),
    )
    .with_context(|| format!("{} on the other machine", row.label()))?;
    let (t1, t2) = (r1.seconds, r2.seconds);
    let mut m = Measured {
        t1,
        t2,
        t0: t1 * t2 / (t1 + t2),
        nodes: r1.nodes,
        value: r1.value,
        runs: Vec::new(),
    };
    for cd in row.depths(quick) {
        for s in CdStrategy::ALL {
            // At CD = 0 nothing lowers the common depth: A and B are one search.
            let run = match (cd, m.at(0, CdStrategy::Variable)) {
                (0, Some(&a)) => a,
                _ => run_one(row, &options(setup, row, 2, cost, cd, s), &percent)?,
            };
            if run.value != m.value {
                bail!(
                    "{} CD {cd} strategy {s}: value {} where one machine found {} (a bug)",
                    row.label(),
                    run.value,
                    m.value
                );
            }
            m.runs.push((cd, s, run));
        }
    }
    Ok(m)
}

/// The rows: every position of the test set at every depth of its `maxd` (under `--quick`,
/// two endgames and one middle game at small depths).
fn rows(setup: &Setup, quick: bool) -> Result<Vec<Row>> {
    let name = setup.testset.as_str();
    let set = TestSet::built_in(name).with_context(|| format!("the built-in test set {name}"))?;
    let entries = read_entries::<Chess>("--testset", &set, GameId::Chess.info())?;
    let mut out = Vec::new();
    for e in entries {
        let ops = Operations::parse(&e.operations);
        let id = ops
            .get("id")
            .with_context(|| format!("{name} line {}: no id", e.line))?;
        let endgame = id.starts_with("end ");
        let depths: Vec<u32> = ops
            .get("maxd")
            .unwrap_or_default()
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .with_context(|| format!("{name} line {}: maxd", e.line))?;
        for maxd in depths {
            out.push(Row {
                id: id.to_string(),
                endgame,
                maxd,
                published_maxd: maxd,
                pos: e.pos.clone(),
                reading: ops.get("reading").unwrap_or_default().to_string(),
            });
        }
    }
    if quick {
        // Seconds in a debug build: two pawn endings and a middle game, shallow.
        let mut quick_rows = Vec::new();
        for (id, maxd) in [("end 4", 5), ("end 3", 5), ("31", 2)] {
            if let Some(r) = out.iter().find(|r| r.id == id) {
                quick_rows.push(Row {
                    id: r.id.clone(),
                    endgame: r.endgame,
                    maxd,
                    published_maxd: r.maxd,
                    pos: r.pos.clone(),
                    reading: r.reading.clone(),
                });
            }
        }
        return Ok(quick_rows);
    }
    Ok(out)
}

/// The EPD operations of a test-set line: `name value;`, the value unquoted.
struct Operations<'a>(Vec<(&'a str, &'a str)>);

impl<'a> Operations<'a> {
    fn parse(text: &'a str) -> Self {
        Operations(
            text.split(';')
                .filter_map(|op| {
                    let op = op.trim();
                    let (name, value) = op.split_once(char::is_whitespace)?;
                    Some((name, value.trim().trim_matches('"')))
                })
                .collect(),
        )
    }

    fn get(&self, name: &str) -> Option<&'a str> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

/// Mean of `xs` (0 for none).
fn mean(xs: impl IntoIterator<Item = f64>) -> f64 {
    let (s, n) = xs.into_iter().fold((0.0, 0), |(s, n), x| (s + x, n + 1));
    if n == 0 { 0.0 } else { s / f64::from(n) }
}

/// The factor per unit of x of a geometric fit to positive (x, y) points: exp of the
/// least-squares slope of ln y on x; `None` with fewer than two positive points.
fn growth_factor(points: &[(f64, f64)]) -> Option<f64> {
    let pts: Vec<(f64, f64)> = points
        .iter()
        .filter(|(_, y)| *y > 0.0)
        .map(|&(x, y)| (x, y.ln()))
        .collect();
    if pts.len() < 2 {
        return None;
    }
    let mx = mean(pts.iter().map(|p| p.0));
    let my = mean(pts.iter().map(|p| p.1));
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    (sxx > 0.0).then(|| (sxy / sxx).exp())
}

fn phase(endgame: bool) -> &'static str {
    if endgame { "endgame" } else { "middle game" }
}

/// Runs the experiment into `out`, filling `record`; returns what its runs cost.
pub fn run(
    exp: &Experiment,
    setup: &Setup,
    out: &Path,
    quick: bool,
    record: &mut Record,
) -> Result<Provenance> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let cost = CostModel::preset(&setup.sim_preset)
        .with_context(|| format!("the {} preset", setup.sim_preset))?;
    let start = Instant::now();
    let rows = rows(setup, quick)?;
    let mut measured = Vec::new();
    for row in &rows {
        let t = Instant::now();
        let m = measure(setup, row, &cost, quick)?;
        let (cd, s, best) = m.best();
        println!(
            "{:<12} T1 {:>8.2} s  T0 {:>8.2} s  {:>8} nodes  best CD {cd} {s}: {:>6.1} % over T0 ({:.1} s here)",
            row.label(),
            m.t1,
            m.t0,
            m.nodes,
            m.total(&best),
            t.elapsed().as_secs_f64()
        );
        measured.push(m);
    }
    let points = published::all().context("reading the built-in published numbers")?;
    record.preset = Some(setup.sim_preset.clone());
    record.seeds = vec![setup.seed];
    record.comparisons = comparisons(&rows, &measured, points);
    record.verdicts = verdicts(&record.comparisons);
    record.not_compared = not_compared(&rows, points);
    record.claims = findings(&rows, &measured, &record.comparisons, points);
    record.details = details(exp, &rows, &measured);
    record.svgs = plots(out, &rows, &measured)?;
    let runs: usize = measured.iter().map(|m| 2 + m.runs.len()).sum();
    // Every run is computed here: nothing is read from disk.
    let cost = Cost {
        seconds: start.elapsed().as_secs_f64(),
        cells: runs,
        untimed: 0,
    };
    Ok(Provenance {
        cost,
        other_builds: Vec::new(),
        computed: cost,
    })
}

/// Table 5.1 (each row's fastest setting: time over T0, dsub, dcomm), table 5.2 (dsub at CD
/// 0) and the chapter 5 growth factors, published beside ours.
fn comparisons(
    rows: &[Row],
    measured: &[Measured],
    points: &[published::Point],
) -> Vec<Comparison> {
    let mut out = Vec::new();
    for (row, m) in rows.iter().zip(measured) {
        let (cd, s, best) = m.best();
        let label = row.label();
        let at_zero = m.at(0, CdStrategy::Variable);
        for p in points.iter().filter(|p| p.series == row.published_label()) {
            let (ours, series) = match (p.item.as_str(), p.quantity) {
                ("table 5.1", Quantity::TotalIncreasePct) => {
                    (Some(m.total(&best)), format!("{label}, ours {s} CD {cd}"))
                }
                ("table 5.1", Quantity::DsubPct) => {
                    (Some(m.dsub(&best)), format!("{label}, ours {s} CD {cd}"))
                }
                ("table 5.1", Quantity::DcommPct) => {
                    (Some(m.dcomm(&best)), format!("{label}, ours {s} CD {cd}"))
                }
                ("table 5.2", Quantity::DsubPct) => {
                    (at_zero.map(|r| m.dsub(r)), format!("{label}, CD 0"))
                }
                _ => (None, String::new()),
            };
            let Some(ours) = ours else { continue };
            let setting = p.context("configuration").unwrap_or_default();
            let setting = setting.split(" (").next().unwrap_or(setting);
            out.push(Comparison {
                item: p.item.clone(),
                series,
                published_series: format!("{} [{setting}]", p.series),
                quantity: p.quantity,
                procs: 2,
                published: p.value,
                ours,
            });
        }
    }
    // Appendix A: every setting the printouts give legibly.
    for (row, m) in rows.iter().zip(measured) {
        for (cd, s, r) in &m.runs {
            let name = format!("{}, {s} CD {cd}", row.published_label());
            for p in points
                .iter()
                .filter(|p| p.item == "appendix A" && p.series == name)
            {
                let ours = match p.quantity {
                    Quantity::TotalIncreasePct => m.total(r),
                    Quantity::DsubPct => m.dsub(r),
                    Quantity::DcommPct => m.dcomm(r),
                    _ => continue,
                };
                out.push(Comparison {
                    item: p.item.clone(),
                    series: format!("{}, {s} CD {cd}", row.label()),
                    published_series: name.clone(),
                    quantity: p.quantity,
                    procs: 2,
                    published: p.value,
                    ours,
                });
            }
        }
    }
    for (endgame, strategy, factor) in growth(rows, measured, |m, r| 100.0 * r.link / m.t0) {
        let series = format!("{}, {}", phase(endgame), strategy.letter());
        let Some(p) = points
            .iter()
            .find(|p| p.item == "chapter 5 communication growth" && p.series == series)
        else {
            continue;
        };
        if let Some(f) = factor {
            out.push(Comparison {
                item: p.item.clone(),
                series: format!("{series} (ours: the link's time by CD)"),
                published_series: series,
                quantity: Quantity::CommGrowth,
                procs: 2,
                published: p.value,
                ours: f,
            });
        }
    }
    out
}

/// Published rows with no number of ours (a depth or position not run).
fn not_compared(rows: &[Row], points: &[published::Point]) -> Vec<String> {
    let mut out = Vec::new();
    for p in points
        .iter()
        .filter(|p| p.item == "table 5.1" && p.quantity == Quantity::TotalIncreasePct)
    {
        if !rows.iter().any(|r| r.published_label() == p.series) {
            out.push(format!("table 5.1: {} not run", p.series));
        }
    }
    out
}

/// Per phase and strategy, the growth factor per unit CD of the mean (over the rows of the
/// phase) of `quantity` at each CD.
fn growth(
    rows: &[Row],
    measured: &[Measured],
    quantity: impl Fn(&Measured, &Run) -> f64,
) -> Vec<(bool, CdStrategy, Option<f64>)> {
    let mut out = Vec::new();
    for endgame in [false, true] {
        for s in CdStrategy::ALL {
            let by_cd = means_by_cd(rows, measured, endgame, s, &quantity);
            out.push((endgame, s, growth_factor(&by_cd)));
        }
    }
    out
}

/// (CD, mean of `quantity` over the rows of the phase run at that CD).
fn means_by_cd(
    rows: &[Row],
    measured: &[Measured],
    endgame: bool,
    s: CdStrategy,
    quantity: &impl Fn(&Measured, &Run) -> f64,
) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for cd in 0..=4 {
        let xs: Vec<f64> = rows
            .iter()
            .zip(measured)
            .filter(|(r, _)| r.endgame == endgame)
            .filter_map(|(_, m)| m.at(cd, s).map(|r| quantity(m, r)))
            .collect();
        if !xs.is_empty() {
            out.push((f64::from(cd), mean(xs)));
        }
    }
    out
}

/// The thesis's claims, checked.
fn findings(
    rows: &[Row],
    measured: &[Measured],
    comparisons: &[Comparison],
    points: &[published::Point],
) -> Vec<Claim> {
    let mut out = Vec::new();
    let bests: Vec<(u32, CdStrategy, Run)> = measured.iter().map(Measured::best).collect();
    // Table 5.1's level.
    let t51: Vec<&Comparison> = comparisons
        .iter()
        .filter(|c| c.item == "table 5.1" && c.quantity == Quantity::TotalIncreasePct)
        .collect();
    let ours_mean = mean(t51.iter().map(|c| c.ours));
    let published_mean = mean(t51.iter().map(|c| c.published));
    let mad = mean(t51.iter().map(|c| (c.ours - c.published).abs()));
    let table_51: Vec<f64> = points
        .iter()
        .filter(|p| p.item == "table 5.1" && p.quantity == Quantity::TotalIncreasePct)
        .map(|p| p.value)
        .collect();
    let all_published = table_51.len();
    // Table 5.1's mean time over T0 over all its rows, from the published data.
    let published_all_mean = mean(table_51.iter().copied());
    let published_all = format!("{published_all_mean:.2}");
    out.push(Claim {
        claim: format!(
            "\"Most positions studied may be searched with a time overhead of 10% or less\" (l. 2439-2440); table 5.1's mean over its {all_published} rows is {published_all} %."
        ),
        holds: t51.len() >= 16 && (ours_mean - published_all_mean).abs() <= 5.0 && mad <= 10.0,
        ours: format!(
            "{} of the {all_published} rows compared; mean time over T0 {:.2} % against the compared rows' published {:.2} % (checks: within 5 points of {published_all}, mean absolute difference {:.2} points, at most 10); {} of {} rows at 10 % or less.",
            t51.len(),
            ours_mean,
            published_mean,
            mad,
            t51.iter().filter(|c| c.ours <= 10.0).count(),
            t51.len()
        ),
    });
    let speed: Vec<f64> = measured
        .iter()
        .zip(&bests)
        .map(|(m, b)| 1.5 * m.t0 / b.2.t)
        .collect();
    out.push(Claim {
        claim: "The two machines \"combine to produce a distributed processor which has an effective average speed of 1.35 MHz, which is 0.15 MHz less than the maximum combined power of 1.5 MHz\" (abstract l. 9-15).".into(),
        holds: (mean(speed.iter().copied()) - 1.35).abs() <= 0.075,
        ours: format!(
            "1.5 MHz x T0 / T at each row's fastest setting, mean {:.3} MHz (range {:.3}-{:.3}).",
            mean(speed.iter().copied()),
            speed.iter().copied().fold(f64::INFINITY, f64::min),
            speed.iter().copied().fold(0.0, f64::max)
        ),
    });
    // The best CD.
    let beyond: Vec<String> = rows
        .iter()
        .zip(measured)
        .zip(&bests)
        .filter(|(_, b)| b.0 > 2)
        .map(|((r, m), b)| {
            let shallow = m
                .runs
                .iter()
                .filter(|(cd, _, _)| *cd <= 2)
                .map(|(_, _, x)| m.total(x))
                .fold(f64::INFINITY, f64::min);
            format!(
                "{} (CD {} {}: {:.1} %, the best at CD <= 2 {:.1} %)",
                r.label(),
                b.0,
                b.1,
                m.total(&b.2),
                shallow
            )
        })
        .collect();
    // The communication the thesis measured at CD 3-4 in the endgames (its dcomm, appendix A)
    // against ours at the same settings.
    let deep_dcomm: Vec<&Comparison> = comparisons
        .iter()
        .filter(|c| {
            c.item == "appendix A"
                && c.quantity == Quantity::DcommPct
                && c.series.starts_with("end ")
                && (c.series.ends_with("CD 3") || c.series.ends_with("CD 4"))
        })
        .collect();
    let deep_link = mean(
        rows.iter()
            .zip(measured)
            .filter(|(r, _)| r.endgame)
            .flat_map(|(_, m)| {
                m.runs
                    .iter()
                    .filter(|(cd, _, _)| *cd >= 3)
                    .map(move |(_, _, x)| 100.0 * x.link / m.t0)
            }),
    );
    out.push(Claim {
        claim: "\"In no position is there a minimum search time with CD=3 or 4\" (l. 2502); table 5.1's best CD is 0, 1 or 2 in every row.".into(),
        holds: beyond.is_empty(),
        ours: if beyond.is_empty() {
            format!(
                "every row's fastest setting has CD 0-2 (CD 0: {}, 1: {}, 2: {} rows).",
                bests.iter().filter(|b| b.0 == 0).count(),
                bests.iter().filter(|b| b.0 == 1).count(),
                bests.iter().filter(|b| b.0 == 2).count()
            )
        } else {
            format!(
                "fastest at CD 3 or 4: {}. The cause: communication at CD 3-4 is cheap here. The thesis's endgame settings at CD 3-4 show a dcomm of {:.1} % of T0 in the mean ({} legible printout rows), ours at the same settings {:.1} %, of which the link's own time (sending, receiving) is {:.2} % (all endgame settings at CD 3-4); dsub, which \"alters unpredictably\" as CD increases (l. 2533-2534), then decides, and it is sometimes lowest at CD 3-4. The thesis's communication includes the program's handling of every message and the lockout from the critical area, which the preset has no facts for.",
                beyond.join(", "),
                mean(deep_dcomm.iter().map(|c| c.published)),
                deep_dcomm.len(),
                mean(deep_dcomm.iter().map(|c| c.ours)),
                deep_link
            )
        },
    });
    // Communication grows geometrically with CD.
    let by_dcomm = growth(rows, measured, |m, r| m.dcomm(r));
    let by_link = growth(rows, measured, |m, r| 100.0 * r.link / m.t0);
    let text = |g: &[(bool, CdStrategy, Option<f64>)]| {
        g.iter()
            .map(|(e, s, f)| {
                format!(
                    "{} {}: {}",
                    phase(*e),
                    s,
                    f.map_or_else(|| "n/a".to_string(), |f| format!("{f:.2}"))
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let factor = |g: &[(bool, CdStrategy, Option<f64>)], e: bool, s: CdStrategy| {
        g.iter()
            .find(|(x, y, _)| *x == e && *y == s)
            .and_then(|(_, _, f)| *f)
            .unwrap_or(0.0)
    };
    let grows = by_link.iter().all(|(_, _, f)| f.is_some_and(|f| f > 1.0))
        && [true, false].iter().all(|&e| {
            factor(&by_link, e, CdStrategy::Fixed) > factor(&by_link, e, CdStrategy::Variable)
        });
    out.push(Claim {
        claim: "Communication overhead \"increases exponentially with CD and makes values of CD>2 inefficient\" (l. 2499-2500); per unit CD it grows by 2 (middle game) and 1.5 (endgame) with strategy A, 5 and 3 with B (l. 2518-2520): faster with B, and faster in the middle game.".into(),
        holds: grows,
        ours: format!(
            "communication as the thesis defines it, \"time spent forming, sending, receiving and processing the messages\" (l. 2228), is the link's time here (sending and receiving, over T0, the simulator's measure); its growth factor per unit CD (least-squares fit of the logarithm of its mean over the phase's positions): {}. The thesis's measured dcomm (T - Tsub) also holds the idle time at the end of a search, which is largest at CD 0; ours by the same fit: {}.",
            text(&by_link),
            text(&by_dcomm)
        ),
    });
    // A against B.
    let pairs: Vec<(f64, f64, f64, f64, f64, f64)> = measured
        .iter()
        .flat_map(|m| {
            m.runs
                .iter()
                // At CD 0 and 1 the strategies are one search (the root keeps its CD).
                .filter(|(cd, s, _)| *cd > 1 && *s == CdStrategy::Variable)
                .filter_map(move |(cd, _, a)| {
                    m.at(*cd, CdStrategy::Fixed).map(|b| {
                        (
                            m.total(a),
                            m.total(b),
                            m.dsub(a),
                            m.dsub(b),
                            m.dcomm(a),
                            m.dcomm(b),
                        )
                    })
                })
        })
        .collect();
    let a_wins = pairs.iter().filter(|p| p.0 < p.1).count();
    let (ta, tb) = (
        mean(pairs.iter().map(|p| p.0)),
        mean(pairs.iter().map(|p| p.1)),
    );
    let (sa, sb) = (
        mean(pairs.iter().map(|p| p.2)),
        mean(pairs.iter().map(|p| p.3)),
    );
    let (ca, cb) = (
        mean(pairs.iter().map(|p| p.4)),
        mean(pairs.iter().map(|p| p.5)),
    );
    out.push(Claim {
        claim: "\"The strategy of a variable common depth generally produces lower values of dsub and dcomm than strategy B\" (l. 2550-2551).".into(),
        holds: ta < tb && (sa < sb || ca < cb),
        ours: format!(
            "over the {} (row, CD >= 2) settings, where the strategies differ, A is faster in {a_wins}; means A against B: time over T0 {ta:.1} against {tb:.1} %, dsub {sa:.1} against {sb:.1} %, dcomm {ca:.1} against {cb:.1} %.",
            pairs.len()
        ),
    });
    // End-of-search idle.
    let idle_at = |zero: bool| -> Vec<f64> {
        measured
            .iter()
            .flat_map(|m| {
                m.runs
                    .iter()
                    .filter(move |(cd, _, _)| (*cd == 0) == zero)
                    .map(|(_, _, r)| 100.0 * r.end_idle / r.t)
            })
            .collect()
    };
    let (zero, more) = (idle_at(true), idle_at(false));
    let max = |xs: &[f64]| xs.iter().copied().fold(0.0, f64::max);
    out.push(Claim {
        claim: "End-of-search idle \"is only significant for CD=0. It may cause a processor to idle for as much as 40% of the search time ... For higher values of CD this factor is less than 1% of the search time\" (l. 2458-2463).".into(),
        holds: mean(more.iter().copied()) < 1.0
            && mean(zero.iter().copied()) > 10.0 * mean(more.iter().copied()),
        ours: format!(
            "the larger machine's idle time after its last work, share of the search time: CD 0 mean {:.1} %, largest {:.1} %; CD >= 1 mean {:.2} %, largest {:.2} % ({} of {} settings at 1 % or more).",
            mean(zero.iter().copied()),
            max(&zero),
            mean(more.iter().copied()),
            max(&more),
            more.iter().filter(|x| **x >= 1.0).count(),
            more.len()
        ),
    });
    out
}

/// The measurements by row and setting, as markdown.
fn details(exp: &Experiment, rows: &[Row], measured: &[Measured]) -> String {
    let e = Effects::of(rows, measured);
    let mut s = format!(
        "## Setup\n\n{}\n\nEach departure's effect is measured in this run (at each row's fastest setting unless said).\n\n\
         | the thesis | ours | effect (measured) |\n| --- | --- | --- |\n\
         | a PDP-11/45 and a PDP-11/20 (1.8 times slower by appendix A's single-machine times) on a DR11A parallel link | the `pdp11` preset: node 600 µs on the 11/45 (eq. 5 over the appendix's printouts), relative cost 180 % on the 11/20, 34 µs a word on the link with the sender waiting, 25 cycles a received word, 3 overhead words a message; a message's content is its DIB encoding (a work piece carries its position, where the thesis's RELIN carried the line from the shared root) | the link's time {:.2} % of T0 in the mean (largest {:.2} %), {:.0} words a moved piece |\n\
         | full-width alpha-beta to MAXD, captures and queening to MMAXD = MAXD + 2, static there, no table; moves ordered \"based upon a knowledge of chess, the killer heuristic\" (l. 420-435) | plain alpha-beta at one depth with a full window, no table, `quiescence_plies = 2`, the game's hints (captures first), killers and history; our evaluation (material, piece squares, pawns, mobility) | our tree on one machine over the thesis's board updates: {} |\n\
         | nodes at depth <= CD shared (MINMXF), the rest private (MINMX2); the follower takes the next unevaluated move at CD on the leader's line | `cdsplit`: one child of the deepest shared frame per request; a frame at every node (`min_split_depth` 1) so a busy machine answers between nodes | a frame is priced as the node it is (600 µs, the preset sets no `frame_ns`); frames only within CD make a request wait for the leader's whole private subtree (the design note's tried-and-rejected table) |\n\
         | strategy A: after RESTOR, IF D<CD & VARCD THEN CD=D; IF D=0 THEN CD=CD0 | a frame's common depth drops to its ply when a child of it is done (local or another machine's), never at the root | the same rule, read per frame |\n\
         | a free machine looks for the next unevaluated shared move, ascending to the root; with none left it waits (busy loop) until the end | a refused machine asks again only once it has worked again (a piece of its own came back): `ask_again_after_work` with a retry delay longer than the search | end-of-search idle at CD >= 1 over all settings: mean {:.2} %, largest {:.2} % of the search time (the thesis: \"less than 1%\", l. 2463) |\n\
         | acknowledgements (3-word messages) where no reply carries them | not modelled | at most one 3-word message for each message sent, whose own overhead is 3 words: at most the link's time again, {:.2} % of T0 in the mean |\n\
         | T1, T2 single-machine times; T0 = 1/(1/T1 + 1/T2) | processor 0 alone at 100 % and at 180 % | none |\n\n",
        exp.what,
        e.link_mean,
        e.link_max,
        e.words_per_piece,
        e.trees(),
        e.idle_mean,
        e.idle_max,
        e.link_mean,
    );
    s.push_str("## Positions\n\nT1 nodes: ours on one machine; the thesis's board updates on one machine (appendix A, where legible).\n\n| position | MAXD | reading of the OCR | T1 nodes | thesis's updates | T1 (s) | T2 (s) | T0 (s) | best (ours) | time over T0 | dsub | dcomm |\n| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |\n");
    for (row, m) in rows.iter().zip(measured) {
        let (cd, st, b) = m.best();
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {:.2} | {:.2} | {:.2} | {st} CD {cd} | {:.1} | {:.1} | {:.1} |",
            row.id,
            row.maxd,
            row.reading,
            m.nodes,
            thesis_updates(row).map_or_else(|| "-".to_string(), |u| u.to_string()),
            m.t1,
            m.t2,
            m.t0,
            m.total(&b),
            m.dsub(&b),
            m.dcomm(&b)
        );
    }
    s.push_str("\n## Every setting\n\nTime over T0 / dsub / dcomm (percent of T0), words on the link, pieces moved, end-of-search idle (percent of T).\n\n| position | MAXD | setting | over T0 | dsub | dcomm | link (% T0) | words | pieces | end idle |\n| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (row, m) in rows.iter().zip(measured) {
        for (cd, st, r) in &m.runs {
            let _ = writeln!(
                s,
                "| {} | {} | {st} CD {cd} | {:.1} | {:.1} | {:.1} | {:.1} | {} | {} | {:.1} |",
                row.id,
                row.maxd,
                m.total(r),
                m.dsub(r),
                m.dcomm(r),
                100.0 * r.link / m.t0,
                r.words,
                r.pieces,
                100.0 * r.end_idle / r.t
            );
        }
    }
    s.push_str("\n## Means by common depth\n\nOver the rows of each phase: time over T0, dsub, dcomm, link time (percent of T0).\n\n| phase | strategy | CD | over T0 | dsub | dcomm | link |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
    for endgame in [true, false] {
        for st in CdStrategy::ALL {
            let q =
                |f: &dyn Fn(&Measured, &Run) -> f64| means_by_cd(rows, measured, endgame, st, &f);
            let (t, d, c, l) = (
                q(&|m, r| m.total(r)),
                q(&|m, r| m.dsub(r)),
                q(&|m, r| m.dcomm(r)),
                q(&|m, r| 100.0 * r.link / m.t0),
            );
            for i in 0..t.len() {
                let _ = writeln!(
                    s,
                    "| {} | {st} | {} | {:.1} | {:.1} | {:.1} | {:.2} |",
                    phase(endgame),
                    t[i].0,
                    t[i].1,
                    d[i].1,
                    c[i].1,
                    l[i].1
                );
            }
        }
    }
    s
}

/// The measured effects of the setup's departures, for the page's setup table.
struct Effects {
    /// The link's time over T0 at each row's fastest setting, percent: mean and largest.
    link_mean: f64,
    link_max: f64,
    /// Words on the link per moved piece at the fastest settings (all words over all pieces).
    words_per_piece: f64,
    /// Our single-machine nodes over the thesis's board updates, rows with a legible count.
    tree_min: f64,
    tree_max: f64,
    tree_geomean: f64,
    tree_rows: usize,
    /// End-of-search idle over the search time at CD >= 1, percent: mean and largest.
    idle_mean: f64,
    idle_max: f64,
}

impl Effects {
    fn of(rows: &[Row], measured: &[Measured]) -> Self {
        let n = measured.len().max(1) as f64;
        let bests: Vec<(f64, Run)> = measured.iter().map(|m| (m.t0, m.best().2)).collect();
        let links: Vec<f64> = bests.iter().map(|(t0, r)| 100.0 * r.link / t0).collect();
        let (words, pieces) = bests
            .iter()
            .fold((0, 0), |(w, p), (_, r)| (w + r.words, p + r.pieces));
        let ratios: Vec<f64> = rows
            .iter()
            .zip(measured)
            .filter_map(|(row, m)| thesis_updates(row).map(|u| m.nodes as f64 / u as f64))
            .collect();
        let idle: Vec<f64> = measured
            .iter()
            .flat_map(|m| m.runs.iter().filter(|(cd, _, _)| *cd >= 1))
            .map(|(_, _, r)| 100.0 * r.end_idle / r.t)
            .collect();
        let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
        Effects {
            link_mean: links.iter().sum::<f64>() / n,
            link_max: max(&links),
            words_per_piece: words as f64 / pieces.max(1) as f64,
            tree_min: ratios.iter().copied().fold(f64::INFINITY, f64::min),
            tree_max: max(&ratios),
            tree_geomean: mean(&ratios.iter().map(|r| r.ln()).collect::<Vec<_>>()).exp(),
            tree_rows: ratios.len(),
            idle_mean: mean(&idle),
            idle_max: max(&idle),
        }
    }

    /// The tree sizes' cell: their range and geometric mean.
    fn trees(&self) -> String {
        if self.tree_rows == 0 {
            return "no row run at a depth of a legible printout".to_string();
        }
        format!(
            "{:.2} to {:.2} times, geometric mean {:.2} ({} rows with a legible count; each beside the other below)",
            self.tree_min, self.tree_max, self.tree_geomean, self.tree_rows
        )
    }
}

/// The board updates of the thesis's single-machine search of `row` (appendix A), where its
/// printout reads.
fn thesis_updates(row: &Row) -> Option<u64> {
    let (_, text) = published::FILES
        .iter()
        .find(|(name, _)| *name == "two_pdp11_tables")?;
    let program = if row.endgame {
        format!(
            "chess endgame position {}",
            row.id.trim_start_matches("end ")
        )
    } else {
        format!("chess middle game position {}", row.id)
    };
    let maxd = format!("MAXD={} ", row.maxd);
    text.lines().find_map(|l| {
        let c: Vec<&str> = l.split('\t').collect();
        (c.len() > 6 && c[2] == program && c[3].starts_with(&maxd) && c[5] == "board_updates")
            .then(|| c[6].parse().ok())
            .flatten()
    })
}

/// One plot: communication (the link's time, sending and receiving, over T0) by common depth,
/// the mean over the positions of each phase, per strategy; log scale, where a geometric
/// growth is a straight line.
fn plots(out: &Path, rows: &[Row], measured: &[Measured]) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    for endgame in [true, false] {
        for st in CdStrategy::ALL {
            let pts = means_by_cd(rows, measured, endgame, st, &|m: &Measured, r: &Run| {
                100.0 * r.link / m.t0
            });
            lines.push(Line {
                name: format!("{}, strategy {st}", phase(endgame)),
                points: pts.iter().map(|&(x, y)| svg::Point::bare(x, y)).collect(),
            });
        }
    }
    let mut chart = Chart::new(
        "Communication by common depth (the link's time, mean over each phase's positions)",
        "common depth CD",
        "link time (% of T0)",
    );
    chart.y_scale = Scale::Log10;
    let file = "chapter-5-communication-growth.svg";
    let path = out.join(file);
    std::fs::write(&path, svg::chart(&chart, &lines))
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(vec![file.to_string()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::Game;

    /// Every position of the test set parses, has an id, its depths and a printed best line
    /// that is legal from it (the evidence for the OCR reading).
    #[test]
    fn the_positions_read_and_their_printed_lines_are_legal() {
        let setup = super::super::catalog::all()
            .expect("the catalog reads")
            .iter()
            .find_map(|e| match &e.kind {
                super::super::catalog::Kind::CommonDepth(setup) => Some(setup.clone()),
                _ => None,
            })
            .expect("pdp11-t5 is in the catalog");
        let rows = rows(&setup, false).expect("rows");
        assert_eq!(rows.len(), 20, "table 5.1 has 20 rows");
        let set = TestSet::built_in(&setup.testset).expect("built in");
        let entries =
            read_entries::<Chess>("--testset", &set, GameId::Chess.info()).expect("reads");
        assert_eq!(entries.len(), 10);
        for e in &entries {
            let ops = Operations::parse(&e.operations);
            let pv = ops.get("pv").expect("a printed line");
            let mut pos = e.pos.clone();
            for text in pv.split_whitespace() {
                let mv = pos
                    .parse_move(text)
                    .unwrap_or_else(|err| panic!("{:?} {text}: {err}", ops.get("id")));
                let _ = pos.make_move(mv);
            }
        }
    }

    #[test]
    fn a_geometric_growth_is_found() {
        let f = growth_factor(&[(0.0, 1.0), (1.0, 2.0), (2.0, 4.0), (3.0, 8.0)]).expect("fit");
        assert!((f - 2.0).abs() < 1e-9, "{f}");
        assert_eq!(growth_factor(&[(0.0, 1.0), (1.0, -2.0)]), None);
    }
}
