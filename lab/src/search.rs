//! `runner search`: one position searched by the sequential search core, with value, best move,
//! principal variation, node counts and speed.

use std::time::Duration;

use anyhow::Result;
use control::search::{
    Algorithm, Limits, MAX_DEPTH, PlayFeature, PlayFeatures, SearchConfig, Searcher, SortRegime,
    TtMode, tt::MAX_TT_MIB,
};
use games::{Game, GameId, GameInfo, GameVisitor, score};
use serde_json::{Value, json};

use crate::cli::{SearchArgs, TableSortArgs};
use crate::input_error::input;
use control::engine::WallClock;

/// The deepest expansion depth accepted for sorting.
const MAX_EXPANSION: u32 = 16;

/// Runs `runner search`.
pub fn run(args: &SearchArgs) -> Result<()> {
    let game: GameId = args.game.parse().map_err(|e| input("--game", e))?;
    if args.tt.is_some() {
        return Err(input(
            "--tt",
            "runner search has no --tt: APHID's tables are --aphid-tt local|shared|distributed (as in runner compare), the table mode is --tt-mode",
        ));
    }
    if let Some(par) = crate::parallel_search::parse(args)? {
        return crate::parallel_search::run(game, args, &par);
    }
    if args.aphid_config.is_some() || args.aphid_tt.is_some() {
        let flag = if args.aphid_tt.is_some() {
            "--aphid-tt"
        } else {
            "--aphid-config"
        };
        return Err(input(flag, "needs --procs N and --algo aphid"));
    }
    let algo_options = args
        .algo_options
        .given()
        .into_iter()
        .map(|(flag, _)| (flag, true));
    for (flag, given) in std::iter::once((
        "--min-split-depth".to_string(),
        args.min_split_depth.is_some(),
    ))
    .chain(algo_options)
    .chain(
        [
            ("--common-depth", args.common_depth.is_some()),
            ("--cd-strategy", args.cd_strategy.is_some()),
            ("--verbose", args.verbose),
        ]
        .map(|(flag, given)| (flag.to_string(), given)),
    ) {
        if given {
            return Err(input(flag, "needs --procs N (a parallel run)"));
        }
    }
    let (config, limits) = parse_options(args)?;
    game.visit(SearchVisitor {
        args,
        config,
        limits,
    })
}

/// Checks every option and builds the search configuration and limits.
fn parse_options(args: &SearchArgs) -> Result<(SearchConfig, Limits)> {
    let mut config = parse_config(args)?;
    let algo = args.algo_name();
    config.algorithm = algo.parse::<Algorithm>().map_err(|e| match algo
        .parse::<control::parallel::ParallelAlgo>(
    ) {
        Ok(_) => input(
            "--algo",
            format!("{algo} is a parallel algorithm; give --procs N"),
        ),
        Err(_) => input("--algo", e),
    })?;
    if config.algorithm == Algorithm::Minimax {
        config.tt_mode = TtMode::Off;
    }
    let limits = parse_limits(args)?;
    Ok((config, limits))
}

/// The search settings common to the sequential and parallel paths (setting, table,
/// sorting, ordering, aspiration); the algorithm stays the setting's default.
pub fn parse_config(args: &SearchArgs) -> Result<SearchConfig> {
    let mut config = SearchConfig::for_setting(args.setting);
    apply_table_and_sorting(
        &mut config,
        &TableAndSorting {
            tt_mode: args.tt_mode,
            tt_mode_flag: "--tt-mode",
            flags: &args.table_sort,
        },
    )?;
    if args.tt_min_depth > MAX_DEPTH {
        return Err(input(
            "--tt-min-depth",
            format!(
                "{} is out of range; use 0 to {MAX_DEPTH}",
                args.tt_min_depth
            ),
        ));
    }
    config.tt_min_depth = args.tt_min_depth;
    if args.table_sort.tt_sort_bug && config.sorting.regime != SortRegime::TypeTwo {
        return Err(input(
            "--tt-sort-bug",
            "reproduces a bug of TT sorting; give --sort tt with it",
        ));
    }
    config.move_ordering &= !args.no_ordering;
    if args.no_aspiration {
        config.aspiration = None;
    }
    config.quiescence_plies = args.quiescence_plies;
    Ok(config)
}

/// The table and sorting flags shared by `runner search` and `runner compare`.
pub struct TableAndSorting<'a> {
    /// The table mode, if given.
    pub tt_mode: Option<TtMode>,
    /// The flag that gave it (for messages).
    pub tt_mode_flag: &'a str,
    /// The table size and sorting flags.
    pub flags: &'a TableSortArgs,
}

/// Checks the table and sorting flags and sets them in `config`.
pub fn apply_table_and_sorting(config: &mut SearchConfig, t: &TableAndSorting<'_>) -> Result<()> {
    if let Some(mode) = t.tt_mode {
        config.tt_mode = mode;
    }
    let f = t.flags;
    if f.tt_mb == 0 || f.tt_mb > MAX_TT_MIB {
        return Err(input(
            "--tt-mb",
            format!(
                "{} MiB is out of range; use 1 to {MAX_TT_MIB} (or {} off)",
                f.tt_mb, t.tt_mode_flag
            ),
        ));
    }
    config.tt_mib = f.tt_mb;
    config.tt_replace = f.tt_replace;
    config.sorting.regime = f.sort;
    if f.expansion_depth == 0 || f.expansion_depth > MAX_EXPANSION {
        return Err(input(
            "--expansion-depth",
            format!(
                "{} is out of range; use 1 to {MAX_EXPANSION}",
                f.expansion_depth
            ),
        ));
    }
    config.sorting.expansion_depth = f.expansion_depth;
    config.sorting.sorting_depth = f.sort_depth.unwrap_or(u32::MAX);
    // Checked against the regimes by the caller (a comparison's series may name tt).
    config.sorting.type_two_bug = f.tt_sort_bug;
    if let Some(list) = &f.play_features {
        if !config.play_enhancements() {
            return Err(input(
                "--play-features",
                "chooses the play setting's enhancements; add --setting play or drop the flag",
            ));
        }
        config.play_features = parse_play_features(list)?;
    }
    if f.unsorted {
        if t.tt_mode.is_some_and(|m| m != TtMode::Off) {
            return Err(input(
                t.tt_mode_flag,
                "--unsorted searches without a table; drop the flag or give off",
            ));
        }
        if f.refutation_table {
            return Err(input(
                "--refutation-table",
                "orders moves, and --unsorted searches in generation order; drop one of them",
            ));
        }
        *config = config.make_unsorted();
    }
    config.refutation_table = f.refutation_table;
    Ok(())
}

/// The play setting's enhancements named in `list` (`none` for none).
fn parse_play_features(list: &str) -> Result<PlayFeatures> {
    let mut f = PlayFeatures::NONE;
    if list.trim() == "none" {
        return Ok(f);
    }
    for name in list.split(',').map(str::trim) {
        let feature: PlayFeature = name.parse().map_err(|e| {
            input(
                "--play-features",
                format!("{e} (a comma-separated list of them), or none"),
            )
        })?;
        let on = f.switch(feature);
        if *on {
            return Err(input(
                "--play-features",
                format!("'{name}' is named twice; name each enhancement once"),
            ));
        }
        *on = true;
    }
    Ok(f)
}

/// Checks the depth, time and node limits.
fn parse_limits(args: &SearchArgs) -> Result<Limits> {
    if let Some(d) = args.depth {
        if d == 0 || d > MAX_DEPTH {
            return Err(input(
                "--depth",
                format!("{d} is out of range; use 0 to {MAX_DEPTH}"),
            ));
        }
    }
    if args.time_ms == Some(0) {
        return Err(input("--time-ms", "0 ms leaves no time; give at least 1"));
    }
    if args.nodes == Some(0) {
        return Err(input(
            "--nodes",
            "0 nodes leaves nothing to search; give at least 1",
        ));
    }
    Ok(Limits {
        depth: args.depth,
        nodes: args.nodes,
        time: args.time_ms.map(Duration::from_millis),
    })
}

/// A score in words: "win in 5 plies", "loss in 2 plies", or the number with a sign.
pub fn describe_value(value: i32) -> String {
    match score::plies_to_end(value) {
        Some(plies) if value > 0 => format!("win in {plies} plies"),
        Some(plies) => format!("loss in {plies} plies"),
        None => format!("{value:+}"),
    }
}

/// Formats a line of moves played from `pos`.
pub fn format_line<G: Game>(pos: &G, line: &[G::Move]) -> Vec<String> {
    let mut p = pos.clone();
    line.iter()
        .map(|&mv| {
            let text = p.format_move(mv);
            let _ = p.make_move(mv);
            text
        })
        .collect()
}

struct SearchVisitor<'a> {
    args: &'a SearchArgs,
    config: SearchConfig,
    limits: Limits,
}

impl GameVisitor for SearchVisitor<'_> {
    type Output = Result<()>;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Result<()> {
        let args = self.args;
        if let Some(path) = &args.testset {
            return crate::testset::run::<G>(info, args, path, self.config, &self.limits);
        }
        let root: G = args.position.parse(info)?;
        let mut searcher = Searcher::<G>::new(self.config).map_err(|e| input("--tt-mb", e))?;
        let mut clock = WallClock::start();
        let result = searcher.search(&root, &self.limits, &mut clock);
        let seconds = clock_seconds(&clock);
        let stats = &result.stats;
        let nodes = stats.nodes();
        let nps = if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        };
        let pv = format_line(&root, &result.pv);
        let best_move = result.best_move.map(|m| root.format_move(m));
        let c = &self.config;
        if args.json {
            let iterations: Vec<Value> = stats
                .iterations
                .iter()
                .map(|it| {
                    json!({
                        "depth": it.depth,
                        "value": it.value,
                        "nodes": it.nodes,
                        "seconds": it.elapsed.as_secs_f64(),
                        "branching_factor": it.branching_factor,
                    })
                })
                .collect();
            let out = json!({
                "game": info.name,
                "position": root.to_string(),
                "algo": c.algorithm.name(),
                "setting": c.setting.name(),
                "tt_mode": c.tt_mode.name(),
                "tt_mb": c.tt_mib,
                "tt_min_depth": c.tt_min_depth,
                "sort": c.sorting.regime.name(),
                "expansion_depth": c.sorting.expansion_depth,
                "depth": result.depth,
                "value": result.value,
                "value_text": describe_value(result.value),
                "best_move": best_move,
                "pv": pv,
                "nodes": nodes,
                "interior_nodes": stats.interior,
                "leaf_nodes": stats.leaves,
                "horizon_leaves": stats.horizon,
                "quiescence_nodes": stats.quiescence,
                "sort_nodes": stats.sort_nodes,
                "sort_seconds": stats.sort_time.as_secs_f64(),
                "tt_probes": stats.tt_probes,
                "tt_hits": stats.tt_hits,
                "tt_cutoffs": stats.tt_cutoffs,
                "probcut_checks": stats.probcut_checks,
                "probcut_cuts": stats.probcut_cuts,
                "seconds": seconds,
                "nodes_per_second": nps,
                "stopped": result.stopped,
                "iterations": iterations,
            });
            println!("{out}");
            return Ok(());
        }
        println!(
            "search {} ({} setting, {}, table {} {} MiB, sorting {}) from {}",
            info.name, c.setting, c.algorithm, c.tt_mode, c.tt_mib, c.sorting.regime, root
        );
        for it in &stats.iterations {
            let bf = it
                .branching_factor
                .map_or_else(|| "-".to_string(), |b| format!("{b:.2}"));
            println!(
                "  depth {:>3}  value {:>16}  nodes {:>12}  time {:>8.3} s  branching {bf}",
                it.depth,
                describe_value(it.value),
                it.nodes,
                it.elapsed.as_secs_f64()
            );
        }
        println!(
            "depth {}{}: value {} ({})",
            result.depth,
            if result.stopped { " (stopped)" } else { "" },
            result.value,
            describe_value(result.value)
        );
        println!(
            "best move: {}",
            best_move.as_deref().unwrap_or("none (game over)")
        );
        println!("pv: {}", pv.join(" "));
        println!(
            "nodes: {nodes} (interior {}, leaves {}, quiescence {}); sorting {} nodes in {:.3} s",
            stats.interior,
            stats.leaves,
            stats.quiescence,
            stats.sort_nodes,
            stats.sort_time.as_secs_f64()
        );
        println!(
            "table: {} probes, {} hits, {} cutoffs",
            stats.tt_probes, stats.tt_hits, stats.tt_cutoffs
        );
        println!("time: {seconds:.3} s, {:.2} M nodes/s", nps / 1e6);
        Ok(())
    }
}

/// Seconds elapsed on `clock`.
pub fn clock_seconds(clock: &WallClock) -> f64 {
    use control::search::SearchContext;
    clock.elapsed().as_secs_f64()
}
