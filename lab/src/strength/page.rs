//! The strength page: `README.md` and `results.json` of a strength run's folder, from its
//! finished cells. Per game one table: each algorithm's score and Elo difference against one
//! processor with the 95 % interval and the games, per processor count, its moves over the
//! time per move and illegal moves, and its time to depth against the baseline's.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use serde_json::json;

use super::Settings;
use super::cell::{Cell, CellResult, Kind, finished, ttd_of};
use crate::compare::environment::Environment;
use crate::play::elo;

/// Writes the page of `out` from its finished cells (`args`: the command line, for the page).
/// Returns the page's path.
///
/// # Errors
/// When the cells cannot be read or the page cannot be written.
pub fn write(out: &Path, settings: &Settings, args: &[String]) -> Result<PathBuf> {
    let cells = settings.cells();
    let done = finished(out, &cells)?;
    let find = |c: &Cell| done.iter().find(|r| &r.cell == c);
    let backend = if settings.simulated() {
        crate::cli::BackendKind::Sim
    } else {
        crate::cli::BackendKind::Threads
    };
    let env = Environment::now(backend, settings.sim_preset.as_deref());
    let mut md = String::new();
    let _ = writeln!(md, "# Strength per core\n");
    let opponent = if settings.simulated() {
        "the same algorithm on one simulated processor"
    } else {
        "the sequential engine (`pvs`) on one thread, what `Threads 1` plays"
    };
    let clock = if settings.simulated() {
        "virtual time of the simulated machine"
    } else {
        "the wall clock"
    };
    let _ = writeln!(
        md,
        "Each algorithm on N processors against {opponent}, in the play setting, at {} ms a move ({clock}); {} games a match from the game's openings (`openings_<game>` of `testsets/search`, each with both colours), a draw after {} plies. Elo: A minus B with its 95 % interval (`lab/src/play/elo.rs`). Time to depth: the baseline's time to complete the depth over the positions divided by the algorithm's ({}).\n",
        settings.time_ms,
        settings.match_games,
        settings.max_plies,
        if settings.simulated() {
            "virtual seconds; the baseline is the same algorithm on one simulated processor"
        } else {
            "wall-clock seconds, the median of 3 runs per position, each from a fresh engine; the baseline is `pvs` on one thread"
        }
    );
    let _ = writeln!(md, "| | |\n| --- | --- |");
    let _ = writeln!(md, "| command | `{}` |", shown_command(args));
    for (k, v) in env.fields() {
        let _ = writeln!(md, "| {k} | {v} |");
    }
    let _ = writeln!(md, "| backend | {} |", settings.backend);
    let _ = writeln!(
        md,
        "| cells | {} of {} finished |\n",
        done.len(),
        cells.len()
    );
    let mut rows_json = Vec::new();
    for game in &settings.games {
        let _ = writeln!(md, "## {game}\n");
        let mut header = String::from("| algorithm |");
        let mut rule = String::from("| --- |");
        for n in &settings.procs {
            let _ = write!(header, " {n} vs 1: score, Elo [95 %] (games) |");
            rule.push_str(" --- |");
        }
        header.push_str(" over time / illegal |");
        rule.push_str(" ---: |");
        if settings.ttd {
            for n in &settings.procs {
                let _ = write!(header, " time to depth x{n} |");
                rule.push_str(" ---: |");
            }
        }
        let _ = writeln!(md, "{header}\n{rule}");
        let mut best: Option<(f64, String)> = None;
        for algo in &settings.algos {
            let mut line = format!("| `{algo}` |");
            let (mut over, mut illegal) = (0, 0);
            for &n in &settings.procs {
                let cell = Cell::new(Kind::Match, game, algo, n);
                match find(&cell).and_then(|r| r.outcome.as_ref()) {
                    Some(o) => {
                        over += o.a.over_time;
                        illegal += o.a.illegal;
                        let score = o.tally.score().unwrap_or(0.0) * 100.0;
                        let e = o.tally.elo();
                        let text = e.as_ref().map_or_else(|| "-".to_string(), elo::describe);
                        let _ = write!(line, " {score:.1} %, {text} ({}) |", o.tally.games());
                        if let Some(e) = e {
                            if n == settings.procs[0] && best.as_ref().is_none_or(|b| e.diff > b.0)
                            {
                                best = Some((e.diff, algo.clone()));
                            }
                        }
                        rows_json.push(json!({
                            "game": game, "algo": algo, "procs": n,
                            "wins": o.tally.wins, "draws": o.tally.draws, "losses": o.tally.losses,
                            "score": o.tally.score(), "elo": e,
                            "over_time": o.a.over_time, "illegal": o.a.illegal,
                            "opponent_over_time": o.b.over_time, "opponent_illegal": o.b.illegal,
                            "longest_ms": o.a.longest_ms, "mean_ms": o.a.mean_ms,
                        }));
                    }
                    None => line.push_str(" - |"),
                }
            }
            let _ = write!(line, " {over} / {illegal} |");
            if settings.ttd {
                let base = if settings.simulated() {
                    Cell::new(Kind::Ttd, game, algo, 1)
                } else {
                    Cell::ttd_baseline(game)
                };
                let base = find(&base)
                    .and_then(|r| r.ttd.as_ref())
                    .map(super::cell::Ttd::total);
                for &n in &settings.procs {
                    let cell = Cell::new(Kind::Ttd, game, algo, n);
                    let ratio = match (base, find(&cell).and_then(|r| r.ttd.as_ref())) {
                        (Some(b), Some(t)) if t.total() > 0.0 => {
                            rows_json.push(json!({
                                "game": game, "algo": algo, "procs": n, "ttd": b / t.total(),
                                "ttd_seconds": t.total(), "ttd_baseline_seconds": b,
                                "ttd_depth": t.depth, "ttd_testset": t.testset,
                            }));
                            format!("{:.2}", b / t.total())
                        }
                        _ => "-".to_string(),
                    };
                    let _ = write!(line, " {ratio} |");
                }
            }
            let _ = writeln!(md, "{line}");
        }
        if let Some(t) = ttd_of(game).filter(|_| settings.ttd) {
            let _ = writeln!(
                md,
                "\nTime to depth: the first {} positions of `{}`, depth {}.",
                t.positions,
                t.testset,
                t.depth(settings.simulated())
            );
        }
        if let Some((diff, algo)) = best {
            let _ = writeln!(
                md,
                "\nHighest point estimate at {} processors: `{algo}` ({diff:+.1} Elo); where the \
                 intervals overlap, the games do not separate the algorithms.",
                settings.procs[0]
            );
        }
        md.push('\n');
    }
    let page = out.join("README.md");
    std::fs::write(&page, &md).with_context(|| format!("writing {}", page.display()))?;
    let results = json!({
        "settings": settings,
        "environment": env,
        "command": shown_command(args),
        "rows": rows_json,
        "cells": done.iter().map(|r: &CellResult| json!(r)).collect::<Vec<_>>(),
    });
    std::fs::write(
        out.join("results.json"),
        serde_json::to_string_pretty(&results)?,
    )
    .with_context(|| format!("writing {}", out.join("results.json").display()))?;
    Ok(page)
}

/// The command line as a page shows it: `runner` and its arguments.
fn shown_command(args: &[String]) -> String {
    let mut shown = vec!["runner".to_string()];
    shown.extend(args.iter().skip(1).cloned());
    shown.join(" ")
}
