//! `runner strength`: strength per core, as engine authors measure it. For every game, every
//! parallel algorithm and every processor count N, a match of the algorithm on N processors
//! against one processor at a fixed time per move, with the Elo difference, its 95 % interval
//! and the number of games; beside it the time to depth in the play setting. On real threads
//! the opponent is the sequential engine (`pvs` on one thread, what `Threads 1` plays) and each
//! move is timed by the wall clock; on the simulator it is the same algorithm on one simulated
//! processor and each move is a budget of virtual time on the simulated machine, so the curve
//! reaches processor counts this machine does not have.
//!
//! The work is cut into cells (`cell.rs`): one match, or one time-to-depth measurement, each
//! stored as it finishes in `--out`'s `cells/` folder (a run that stopped resumes), computed by
//! `--shard K/N` slices into one shared folder, and assembled into the page (`page.rs`).

mod cell;
mod page;

use std::path::Path;

use anyhow::{Context as _, Result};
use control::parallel::ParallelAlgo;
use games::GameId;

use crate::cli::{BackendKind, StrengthArgs, StrengthSize};
use crate::compare::shard::Shard;
use crate::input_error::input;

pub use cell::{Cell, CellResult, Kind};

/// Everything a strength run is, resolved from the flags and the size.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// The games.
    pub games: Vec<String>,
    /// The algorithms.
    pub algos: Vec<String>,
    /// The processor counts played against one.
    pub procs: Vec<usize>,
    /// `threads` or `sim`.
    pub backend: String,
    /// The simulated machine (the simulator only).
    pub sim_preset: Option<String>,
    /// Time per move, ms (virtual on the simulator).
    pub time_ms: u64,
    /// Games per match.
    pub match_games: usize,
    /// A game is a draw after this many plies.
    pub max_plies: usize,
    /// Whether time to depth is measured.
    pub ttd: bool,
}

/// The games measured when none are named: every game but tic-tac-toe, whose matches are
/// draws.
pub const DEFAULT_GAMES: [GameId; 3] = [GameId::Chess, GameId::Othello8, GameId::Checkers];

impl Settings {
    /// The settings of `args`.
    ///
    /// # Errors
    /// An input error naming the bad flag.
    pub fn of(args: &StrengthArgs) -> Result<Settings> {
        let quick = args.size == StrengthSize::Quick;
        let backend = args.backend.unwrap_or(if quick {
            BackendKind::Sim
        } else {
            BackendKind::Threads
        });
        if backend == BackendKind::Mpi {
            return Err(input(
                "--backend",
                "strength is measured on threads or the simulator",
            ));
        }
        let games = match &args.games {
            Some(names) => names
                .iter()
                .map(|n| n.parse::<GameId>().map_err(|e| input("--games", e)))
                .collect::<Result<Vec<_>>>()?,
            None => DEFAULT_GAMES.to_vec(),
        };
        let algos: Vec<ParallelAlgo> = args
            .algos
            .clone()
            .unwrap_or_else(|| ParallelAlgo::ALL.to_vec());
        let procs = match (&args.procs, backend, quick) {
            (Some(p), _, _) => p.clone(),
            (None, BackendKind::Sim, true) => vec![2, 4],
            (None, BackendKind::Sim, false) => vec![2, 4, 8, 16, 32, 64],
            (None, _, _) => vec![2],
        };
        if procs.is_empty()
            || procs
                .iter()
                .any(|&p| !(2..=crate::dib_flags::MAX_PROCS).contains(&p))
        {
            return Err(input(
                "--procs",
                format!(
                    "play 2 to {} processors against one",
                    crate::dib_flags::MAX_PROCS
                ),
            ));
        }
        let sim_preset = match backend {
            BackendKind::Sim => Some(
                args.sim_preset
                    .clone()
                    .unwrap_or_else(|| "shared-memory".to_string()),
            ),
            _ => {
                if args.sim_preset.is_some() {
                    return Err(input("--sim-preset", "needs --backend sim"));
                }
                None
            }
        };
        if let Some(p) = &sim_preset {
            crate::dib_flags::cost_model(p)?;
        }
        let time_ms = args.time_ms.unwrap_or(100);
        if time_ms == 0 {
            return Err(input("--time-ms", "give at least 1"));
        }
        let match_games = args.match_games.unwrap_or(if quick { 4 } else { 100 });
        if match_games == 0 {
            return Err(input("--match-games", "give at least 1"));
        }
        Ok(Settings {
            games: games.iter().map(|g| g.name().to_string()).collect(),
            algos: algos.iter().map(|a| a.name().to_string()).collect(),
            procs,
            backend: backend.name().to_string(),
            sim_preset,
            time_ms,
            match_games,
            max_plies: 300,
            ttd: !args.no_ttd,
        })
    }

    /// Whether the engines run on the simulator.
    #[must_use]
    pub fn simulated(&self) -> bool {
        self.backend == "sim"
    }

    /// Every cell of the run, in a fixed order.
    #[must_use]
    pub fn cells(&self) -> Vec<Cell> {
        let mut cells = Vec::new();
        for game in &self.games {
            if self.ttd && !self.simulated() {
                cells.push(Cell::ttd_baseline(game));
            }
            for algo in &self.algos {
                if self.ttd && self.simulated() {
                    // On the simulator each algorithm's baseline is itself on one processor.
                    cells.push(Cell::new(Kind::Ttd, game, algo, 1));
                }
                for &procs in &self.procs {
                    cells.push(Cell::new(Kind::Match, game, algo, procs));
                    if self.ttd {
                        cells.push(Cell::new(Kind::Ttd, game, algo, procs));
                    }
                }
            }
        }
        cells
    }
}

/// Runs `runner strength`.
pub fn run(args: &StrengthArgs) -> Result<()> {
    let settings = Settings::of(args)?;
    let shard = args
        .shard
        .as_deref()
        .map(|s| Shard::parse("--shard", s))
        .transpose()?;
    let out = &args.out;
    std::fs::create_dir_all(out.join("cells")).map_err(|e| {
        input(
            "--out",
            format!(
                "cannot make {}: {e}; give a folder you may write to",
                out.display()
            ),
        )
    })?;
    check_settings(out, &settings)?;
    if !args.assemble {
        let jobs = args.jobs.unwrap_or_else(crate::machine::cores).max(1);
        cell::run_missing(out, &settings, shard, jobs)?;
    }
    if shard.is_some() {
        println!(
            "shard {}: cells saved in {}; once every shard is done, --assemble writes the page",
            shard.map(|s| s.to_string()).unwrap_or_default(),
            out.join("cells").display()
        );
        return Ok(());
    }
    let page = page::write(out, &settings, &std::env::args().collect::<Vec<_>>())?;
    println!("strength page: {}", page.display());
    Ok(())
}

/// Keeps the run's settings in `settings.json` of the folder; refuses a folder whose cells
/// were computed with other settings.
fn check_settings(out: &Path, settings: &Settings) -> Result<()> {
    let path = out.join("settings.json");
    if let Ok(text) = std::fs::read_to_string(&path) {
        let before: Settings =
            serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
        if &before != settings {
            return Err(input(
                "--out",
                format!(
                    "{} holds cells of other settings ({}); give another folder or the same flags",
                    out.display(),
                    path.display()
                ),
            ));
        }
        return Ok(());
    }
    std::fs::write(&path, serde_json::to_string_pretty(settings)?)
        .with_context(|| format!("writing {}", path.display()))
}
