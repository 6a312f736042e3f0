//! `runner search --testset FILE`: every position of a file searched with the same settings, with
//! per-position lines and totals (nodes per second, time to depth): the search benchmark.

use std::path::Path;

use anyhow::Result;
use control::search::{Limits, SearchConfig, Searcher};
use games::{Game, GameInfo};
use serde_json::json;

use crate::cli::SearchArgs;
use crate::input_error::input;
use crate::search::{clock_seconds, describe_value};
use crate::wall_clock::WallClock;

/// Parses one line of a test set: the whole line as a position, or else its longest prefix of
/// whitespace-separated fields that parses (so EPD operations and labels are skipped).
fn parse_line<G: Game>(line: &str) -> Result<G, G::Error> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let mut first_error = None;
    for n in (1..=fields.len()).rev() {
        match G::parse_position(&fields[..n].join(" ")) {
            Ok(pos) => return Ok(pos),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => G::parse_position(line),
    }
}

/// Reads the positions of a test set file given with the command-line flag `flag`, with their
/// line numbers.
pub(crate) fn read_positions<G: Game>(
    flag: &str,
    path: &Path,
    info: &GameInfo,
) -> Result<Vec<(usize, G)>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| input(format!("{flag} {}", path.display()), e))?;
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = parse_line::<G>(line).map_err(|e| {
            input(
                format!("{flag} {} line {} for {}", path.display(), i + 1, info.name),
                e,
            )
        })?;
        positions.push((i + 1, pos));
    }
    if positions.is_empty() {
        return Err(input(
            format!("{flag} {}", path.display()),
            "the file holds no positions (one per line; '#' starts a comment)",
        ));
    }
    Ok(positions)
}

/// Searches every position of the test set and prints per-position results and totals.
pub fn run<G: Game>(
    info: &GameInfo,
    args: &SearchArgs,
    path: &Path,
    config: SearchConfig,
    limits: &Limits,
) -> Result<()> {
    let positions = read_positions::<G>("--testset", path, info)?;
    let mut searcher = Searcher::<G>::new(config).map_err(|e| input("--tt-mb", e))?;
    let mut rows = Vec::new();
    let (mut total_nodes, mut total_seconds) = (0u64, 0.0f64);
    for (line, root) in &positions {
        searcher.clear();
        let mut clock = WallClock::start();
        let r = searcher.search(root, limits, &mut clock);
        let seconds = clock_seconds(&clock);
        let nodes = r.stats.nodes();
        total_nodes += nodes;
        total_seconds += seconds;
        let best = r.best_move.map(|m| root.format_move(m));
        if !args.json {
            println!(
                "line {line:>4}: depth {:>3} value {:>16} best {:<8} nodes {:>12} time {:>8.3} s",
                r.depth,
                describe_value(r.value),
                best.as_deref().unwrap_or("-"),
                nodes,
                seconds
            );
        }
        rows.push(json!({
            "line": line,
            "position": root.to_string(),
            "depth": r.depth,
            "value": r.value,
            "best_move": best,
            "nodes": nodes,
            "seconds": seconds,
            "stopped": r.stopped,
        }));
    }
    let nps = if total_seconds > 0.0 {
        total_nodes as f64 / total_seconds
    } else {
        0.0
    };
    let n = positions.len();
    if args.json {
        let out = json!({
            "game": info.name,
            "testset": path.display().to_string(),
            "algo": config.algorithm.name(),
            "setting": config.setting.name(),
            "tt_mode": config.tt_mode.name(),
            "sort": config.sorting.regime.name(),
            "depth": limits.depth,
            "positions": rows,
            "nodes": total_nodes,
            "seconds": total_seconds,
            "mean_seconds": total_seconds / n as f64,
            "nodes_per_second": nps,
        });
        println!("{out}");
    } else {
        println!(
            "{n} positions ({} setting, {}, table {}, sorting {}): {total_nodes} nodes in {total_seconds:.3} s, mean {:.3} s per position, {:.2} M nodes/s",
            config.setting,
            config.algorithm,
            config.tt_mode,
            config.sorting.regime,
            total_seconds / n as f64,
            nps / 1e6
        );
    }
    Ok(())
}
