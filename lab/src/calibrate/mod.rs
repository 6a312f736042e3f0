//! `runner calibrate`: measures this machine and writes a simulator cost model
//! (`dib::CostModel`, the format of `dib/presets/*.toml`): per game the cost of a full search
//! node, a quiescence node and a static-evaluation node; transposition-table probes alone and
//! with every core probing (the shared table's ports); the send, receive and latency costs
//! of the threads backend's channels; and, through the DIB runtime, its handling of a message
//! and the split engine's cost per frame. `dib/CALIBRATION.md` describes each measurement.

pub mod measure;
pub mod runtime;

use std::collections::BTreeMap;
use std::fmt::Display;
use std::fs::OpenOptions;
use std::path::Path;
use std::str::FromStr;

use anyhow::{Context as _, Result};
use control::search::SearchConfig;
use dib::CostModel;
use dib::backend::sim::GameCosts;
use games::{Game, GameId, GameInfo, GameVisitor};
use indicatif::ProgressBar;
use serde_json::json;

use self::measure::{Effort, MessageCosts, NodeCosts, ProbeCosts, Stat};
use self::runtime::FrameCost;
use crate::cli::CalibrateArgs;
use crate::compare::plan::find_testset;
use crate::input_error::input;
use crate::testset::read_positions;

/// The games measured when `--games` is absent.
pub const DEFAULT_GAMES: &[GameId] = &[
    GameId::TicTacToe4,
    GameId::Othello8,
    GameId::Checkers,
    GameId::Chess,
];

/// Reads the items of a list flag (games, algorithms; clap splits it at the commas): at least
/// one item, none twice.
pub fn parse_list<T>(flag: &str, items: &[String]) -> Result<Vec<T>>
where
    T: FromStr + PartialEq,
    T::Err: Display,
{
    let mut out = Vec::new();
    for item in items.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let value: T = item.parse().map_err(|e| input(flag, e))?;
        if out.contains(&value) {
            return Err(input(flag, format!("{item} is given twice")));
        }
        out.push(value);
    }
    if out.is_empty() {
        return Err(input(flag, "the list is empty; give comma-separated names"));
    }
    Ok(out)
}

/// What one calibration measured.
pub struct Calibration {
    /// Per game, in the order asked for: its node costs and its split engine's frame cost.
    pub games: Vec<(GameId, NodeCosts, FrameCost)>,
    /// Table probes.
    pub probes: ProbeCosts,
    /// Channel messages.
    pub messages: MessageCosts,
    /// The runtime's handling of a message, at each end.
    pub handling: Stat,
    /// The machine: host name and CPU model.
    pub host: String,
    /// The CPU model from /proc/cpuinfo.
    pub cpu: String,
    /// Cores used (`std::thread::available_parallelism`).
    pub cores: usize,
    /// The day of the measurement (UTC, YYYY-MM-DD).
    pub date: String,
    /// Whether `--quick`.
    pub quick: bool,
}

/// Steps of the progress bar of [`measure`] for `games` games.
#[must_use]
pub fn steps(games: usize, quick: bool) -> u64 {
    let r = Effort::new(quick).repeats as u64;
    (games as u64 * 3 + 3) * r
}

/// Measures `games` and the machine, ticking `bar` ([`steps`] steps in all).
///
/// # Errors
/// A game's test set that cannot be read, or a table that cannot be built.
pub fn measure(games: &[GameId], quick: bool, bar: &ProgressBar) -> Result<Calibration> {
    let effort = Effort::new(quick);
    let mut tick = || bar.inc(1);
    let cores = crate::machine::cores();
    bar.set_message("table probes");
    let probes = measure::probe_costs(SearchConfig::research().tt_mib, cores, &effort, &mut tick)
        .context("building the table to probe")?;
    let mut per_game = Vec::new();
    for &game in games {
        bar.set_message(format!("{game} nodes and frames"));
        let costs = game.visit(GameNodes {
            effort: &effort,
            quick,
            probe_ns: probes.alone.nanos(),
            tick: &mut tick,
        })?;
        per_game.push((game, costs.0, costs.1));
    }
    bar.set_message("channel messages");
    let messages = measure::message_costs(&effort, cores >= 2, &mut tick);
    bar.set_message("message handling");
    let handling = runtime::handling_cost(&effort, &mut tick);
    Ok(Calibration {
        games: per_game,
        probes,
        messages,
        handling,
        host: crate::machine::host(),
        cpu: crate::machine::cpu_model(),
        cores,
        date: crate::machine::today(),
        quick,
    })
}

/// The first `n` positions of `game`'s test set ([`crate::per_game::PerGame::testset`]), or its
/// start position when it has none.
///
/// # Errors
/// A test-set file that does not parse.
pub fn positions<G: Game>(game: GameId, info: &GameInfo, n: usize) -> Result<Vec<G>> {
    let Some(name) = crate::per_game::of(game).testset else {
        return Ok(vec![G::start()]);
    };
    let Ok(path) = find_testset(Some(name), info.name) else {
        return Ok(vec![G::start()]);
    };
    Ok(read_positions::<G>("test set", &path, info)?
        .into_iter()
        .map(|(_, p)| p)
        .filter(|p| p.outcome().is_none())
        .take(n)
        .collect())
}

struct GameNodes<'a, 't> {
    effort: &'a Effort,
    quick: bool,
    /// The table probe's cost (for the simulated searches of the frame measurement).
    probe_ns: u64,
    tick: &'a mut (dyn FnMut() + 't),
}

impl GameVisitor for GameNodes<'_, '_> {
    type Output = Result<(NodeCosts, FrameCost)>;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Result<(NodeCosts, FrameCost)> {
        let game = GameId::of::<G>().context("a registered game")?;
        let n = if self.quick { 1 } else { 4 };
        let roots = positions::<G>(game, info, n)?;
        let nodes = measure::node_costs(&roots, self.effort, self.tick);
        let model = CostModel {
            name: "nodes".into(),
            node_ns: nodes.search.nanos(),
            quiescence_ns: nodes.quiescence.map(|q| q.nanos()),
            static_eval_ns: Some(nodes.static_eval.nanos()),
            table_probe_ns: self.probe_ns,
            shared_probe_ns: self.probe_ns,
            ..CostModel::shared_memory()
        };
        let first = roots.first().cloned().unwrap_or_else(G::start);
        let frame = runtime::frame_cost(&first, &model, self.effort, self.tick);
        Ok((nodes, frame))
    }
}

impl Calibration {
    /// The cost model: the first game's node costs as the defaults, every game's in its
    /// `[games.NAME]` section.
    #[must_use]
    pub fn model(&self) -> CostModel {
        let first = self.games.first().map(|(_, c, _)| c);
        let games: BTreeMap<String, GameCosts> = self
            .games
            .iter()
            .map(|(g, c, f)| {
                let costs = GameCosts {
                    node_ns: Some(c.search.nanos()),
                    quiescence_ns: c.quiescence.map(|q| q.nanos()),
                    static_eval_ns: Some(c.static_eval.nanos()),
                    frame_ns: Some(f.frame.nanos()),
                    ..GameCosts::default()
                };
                (g.name().to_string(), costs)
            })
            .collect();
        CostModel {
            name: "calibrated".into(),
            about: format!(
                "measured by `runner calibrate{}` on {} ({}, {} cores), {}",
                if self.quick { " --quick" } else { "" },
                self.host,
                self.cpu,
                self.cores,
                self.date
            ),
            node_ns: first.map_or(1, |c| c.search.nanos()),
            horizon_ns: None,
            quiescence_ns: first.and_then(|c| c.quiescence.map(|q| q.nanos())),
            static_eval_ns: first.map(|c| c.static_eval.nanos()),
            control_ns: None,
            frame_ns: self.games.first().map(|(_, _, f)| f.frame.nanos()),
            table_probe_ns: self.probes.alone.nanos(),
            shared_probe_ns: self.probes.alone.nanos(),
            shared_table_ports: self.probes.ports(),
            shared_table_home: None,
            shared_serve_ns: 0,
            max_table_entries: None,
            local_table_entries: None,
            send_overhead_ns: self.messages.send.nanos(),
            recv_overhead_ns: self.messages.recv.nanos(),
            latency_ns: self.messages.latency.median.round().max(0.0) as u64,
            message_handling_ns: self.handling.nanos(),
            // This machine's channels cost per message, not per word.
            wire_word_ns: 0,
            sender_waits_for_wire: false,
            recv_word_ns: 0,
            message_overhead_words: 0,
            relative_cost_percent: Vec::new(),
            slow_lines: None,
            notice: None,
            games,
        }
    }

    /// Every measured quantity: (name, statistic, unit).
    #[must_use]
    pub fn rows(&self) -> Vec<(String, Stat, &'static str)> {
        let mut rows = Vec::new();
        for (g, c, f) in &self.games {
            rows.push((format!("{g} search node"), c.search, "ns"));
            if let Some(q) = c.quiescence {
                rows.push((format!("{g} quiescence node"), q, "ns"));
            }
            rows.push((format!("{g} static-eval node"), c.static_eval, "ns"));
            rows.push((format!("{g} split-engine frame"), f.frame, "ns"));
        }
        let p = &self.probes;
        rows.push((format!("table probe, alone ({} MiB)", p.mib), p.alone, "ns"));
        rows.push((
            format!("table probe, {} threads at once", p.threads),
            p.all,
            "ns",
        ));
        let m = &self.messages;
        rows.push(("channel send".into(), m.send, "ns"));
        rows.push(("channel receive".into(), m.recv, "ns"));
        rows.push(("channel round trip".into(), m.round_trip, "ns"));
        rows.push(("channel latency (one way)".into(), m.latency, "ns"));
        rows.push((
            "DIB message handling (each end)".into(),
            self.handling,
            "ns",
        ));
        rows
    }

    /// The measurements as JSON.
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let games: serde_json::Map<String, serde_json::Value> = self
            .games
            .iter()
            .map(|(g, c, f)| {
                let mut costs = json!(c);
                costs["frame"] = json!(f);
                (g.name().to_string(), costs)
            })
            .collect();
        json!({
            "host": self.host,
            "cpu": self.cpu,
            "cores": self.cores,
            "date": self.date,
            "quick": self.quick,
            "games": games,
            "table_probes": self.probes,
            "shared_table_ports": self.probes.ports(),
            "messages": self.messages,
            "message_handling": self.handling,
            "cost_model": self.model(),
        })
    }

    /// Prints the measurements as a table.
    pub fn print_table(&self) {
        println!(
            "calibrate on {} ({}, {} cores){}",
            self.host,
            self.cpu,
            self.cores,
            if self.quick { ", quick" } else { "" }
        );
        println!(
            "{:<40} {:>12} {:>12} {:>12} {:>7}",
            "quantity", "median", "min", "max", "repeats"
        );
        for (name, s, unit) in self.rows() {
            println!(
                "{:<40} {:>9.1} {unit} {:>9.1} {unit} {:>9.1} {unit} {:>7}",
                name, s.median, s.min, s.max, s.repeats
            );
        }
        println!("shared table ports: {}", self.probes.ports());
        for (g, c, f) in &self.games {
            let depths: Vec<String> = c.depths.iter().map(u32::to_string).collect();
            println!(
                "{g}: search depths {}; frames: MWF on one thread, depth {}, {} frames",
                depths.join(","),
                f.depth,
                f.frames
            );
        }
    }
}

/// Checks that `path` can be written (its folder exists, it is not a folder, it can be opened
/// for writing) without leaving a file behind.
pub(crate) fn check_out(path: &Path) -> Result<()> {
    let flag = format!("--out {}", path.display());
    if path.is_dir() {
        return Err(input(
            flag,
            "is a folder; give a file name such as calibrated.toml",
        ));
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(dir) = parent {
        if !dir.is_dir() {
            return Err(input(
                flag,
                format!(
                    "the folder {} does not exist; create it first",
                    dir.display()
                ),
            ));
        }
    }
    let existed = path.exists();
    OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| {
            input(
                &flag,
                format!("cannot be written ({e}); choose another path"),
            )
        })?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Runs `runner calibrate`.
pub fn run(args: &CalibrateArgs) -> Result<()> {
    let games: Vec<GameId> = match &args.games {
        Some(given) => parse_list("--games", given)?,
        None => DEFAULT_GAMES.to_vec(),
    };
    check_out(&args.out)?;
    let bar = crate::progress::bar(steps(games.len(), args.quick), "measurements", args.json);
    let cal = measure(&games, args.quick, &bar)?;
    bar.finish_and_clear();
    let model = cal.model();
    let text = format!(
        "# Measured by `runner calibrate` (see dib/CALIBRATION.md); {}.\n{}",
        model.about,
        model.to_toml()
    );
    CostModel::from_toml(&text).context("the calibrated model does not read back")?;
    std::fs::write(&args.out, text).with_context(|| format!("writing {}", args.out.display()))?;
    if args.json {
        let mut out = cal.to_json();
        out["out"] = json!(args.out.display().to_string());
        println!("{out}");
    } else {
        cal.print_table();
        println!("wrote {}", args.out.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::{civil_date, model_name};

    #[test]
    fn dates_and_cpu_models() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_517), (2026, 3, 5));
        assert_eq!(
            model_name("processor\t: 0\nmodel name\t: Some CPU @ 2GHz\n").as_deref(),
            Some("Some CPU @ 2GHz")
        );
        assert_eq!(model_name("flags: x\n"), None);
    }

    #[test]
    fn lists_reject_repeats_and_emptiness() {
        let list = |items: &[&str]| -> Vec<String> { items.iter().map(|s| (*s).into()).collect() };
        let games: Vec<GameId> =
            parse_list("--games", &list(&["othello", " chess"])).expect("valid");
        assert_eq!(games.len(), 2);
        assert!(parse_list::<GameId>("--games", &list(&["chess", "chess"])).is_err());
        assert!(parse_list::<GameId>("--games", &list(&[" ", ""])).is_err());
        assert!(parse_list::<GameId>("--games", &list(&["go"])).is_err());
    }
}
