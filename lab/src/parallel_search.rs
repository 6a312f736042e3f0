//! `runner search --procs N`: one position searched by a parallel control module on DIB
//! processors, with value, best move, nodes, time (virtual on sim) and the runtime's
//! per-processor accounting. With `--backend mpi` every rank of an `mpirun` launch runs the
//! same search (one DIB processor per rank) and rank 0 prints.

use std::path::Path;

use anyhow::{Context as _, Result};
use std::time::Duration;

use control::engine::{Budget, Event, Player, Stop, WallClock};
use control::parallel::aphid::AphidOptions;
use control::parallel::{self, ParallelAlgo, ParallelOptions};
use control::search::{MAX_DEPTH, Searcher, Setting, Unlimited};
use games::score::INFINITY;
use games::{Game, GameId, GameInfo, GameVisitor};
use serde_json::{Value, json};

use crate::cli::SearchArgs;
use crate::cli::family_names;
use crate::dib_flags::{self, Parallel};
use crate::input_error::input;
use crate::search::{describe_value, format_line, parse_config};

/// A checked parallel search request.
pub struct ParallelSearch {
    algo: ParallelAlgo,
    dib: Parallel,
    options: ParallelOptions,
    /// The play setting: the play engine's limits (`None`: the research setting's fixed-depth
    /// search).
    play: Option<Budget>,
    /// On `--backend mpi`, the MPI session, alive until the result is printed.
    _session: Option<crate::mpi::Session>,
}

impl ParallelSearch {
    /// The algorithm.
    #[must_use]
    pub fn algo(&self) -> ParallelAlgo {
        self.algo
    }

    /// The checked options: depth, processors, backend and every algorithm's option, as
    /// [`control::parallel::search`] takes them.
    #[must_use]
    pub fn options(&self) -> &ParallelOptions {
        &self.options
    }
}

/// Checks the flags of a parallel search; `None` without --procs. On `--backend mpi` (every
/// rank runs this) it then starts MPI and takes the world size as the processor count.
pub fn parse(args: &SearchArgs) -> Result<Option<ParallelSearch>> {
    let Some(mut dib) = dib_flags::parse(&args.dib)? else {
        return Ok(None);
    };
    let algo: ParallelAlgo = args.algo_name().parse().map_err(|e| input("--algo", e))?;
    let search = parse_config(args)?;
    let play = search.setting == Setting::Play;
    if args.testset.is_some() {
        return Err(input(
            "--testset",
            "is not supported with --procs (a parallel run searches one --position)",
        ));
    }
    if !play {
        for (flag, given) in [
            ("--time-ms", args.time_ms.is_some()),
            ("--nodes", args.nodes.is_some()),
        ] {
            if given {
                return Err(input(
                    flag,
                    "a parallel run in the research setting searches to a fixed --depth; give --setting play to search under a clock",
                ));
            }
        }
    }
    if let Some(depth) = args.depth {
        if depth == 0 || depth > MAX_DEPTH {
            return Err(input(
                "--depth",
                format!("{depth} is out of range; use 1 to {MAX_DEPTH}"),
            ));
        }
    }
    let depth = match (args.depth, play) {
        (Some(d), _) => d,
        (None, true) if args.time_ms.is_some() || args.nodes.is_some() => MAX_DEPTH,
        (None, true) => {
            return Err(input(
                "--time-ms",
                "a parallel run in the play setting needs a limit: --time-ms, --nodes or --depth",
            ));
        }
        (None, false) => return Err(input("--depth", "a parallel run (--procs) needs --depth")),
    };
    if play && matches!(dib.backend, dib::Backend::Mpi { .. }) {
        return Err(input(
            "--backend",
            "the play setting runs on threads or the simulator (its clock is shared in memory); give --backend threads or sim, or --setting research over MPI",
        ));
    }
    let mut options = ParallelOptions::for_algo(algo, depth, dib.procs, dib.backend.clone());
    options.search = search;
    if let Some(m) = args.min_split_depth {
        if m == 0 || m > MAX_DEPTH {
            return Err(input(
                "--min-split-depth",
                format!("{m} is out of range; use 1 to {MAX_DEPTH}"),
            ));
        }
        options.min_split_depth = m;
    }
    let given = &args.algo_options;
    if let Some((flag, family)) = given.given().into_iter().find(|(_, f)| !f.contains(&algo)) {
        return Err(input(
            flag,
            format!("applies to --algo {} only", family_names(family)),
        ));
    }
    given.check().map_err(|e| input(e.flag, e.message))?;
    options.algo = given.over(&options.algo);
    if args.common_depth.is_some() || args.cd_strategy.is_some() {
        if algo != ParallelAlgo::CdSplit {
            let flag = if args.common_depth.is_some() {
                "--common-depth"
            } else {
                "--cd-strategy"
            };
            return Err(input(flag, "applies to --algo cdsplit only"));
        }
        if let Some(cd) = args.common_depth {
            options.common_depth = cd;
        }
        if let Some(s) = args.cd_strategy {
            options.cd_strategy = s;
        }
    }
    if args.aphid_config.is_some() || args.aphid_tt.is_some() {
        if algo != ParallelAlgo::Aphid {
            let flag = if args.aphid_tt.is_some() {
                "--aphid-tt"
            } else {
                "--aphid-config"
            };
            return Err(input(flag, "applies to --algo aphid only"));
        }
        if let Some(path) = &args.aphid_config {
            options.aphid = read_aphid_config(path)?;
            if let Some(h) = &options.aphid.hierarchy {
                if h.procs() != dib.procs {
                    return Err(input(
                        "--procs",
                        format!(
                            "{} names {} processes (the master included); use --procs {}",
                            path.display(),
                            h.procs(),
                            h.procs()
                        ),
                    ));
                }
            }
        }
        if let Some(tt) = args.aphid_tt {
            options.aphid.tt = tt;
        }
    }
    // Last, once every flag is known to be good: on MPI, every rank joins the session.
    let session = dib.join_mpi()?;
    options.procs = dib.procs;
    let play = play.then(|| Budget {
        depth: args.depth,
        nodes: args.nodes,
        time: args.time_ms.map(Duration::from_millis),
        fixed_time: false,
    });
    Ok(Some(ParallelSearch {
        algo,
        dib,
        options,
        play,
        _session: session,
    }))
}

/// The APHID configuration files of `testsets/aphid`, built in: (name without its
/// extension, text).
pub const BUILT_IN_APHID_CONFIGS: &[(&str, &str)] =
    include!(concat!(env!("OUT_DIR"), "/aphid_configs.rs"));

/// Reads an APHID configuration (`--aphid-config` of `runner search` and `runner compare`): a
/// file, or else the built-in file of that name (`testsets/aphid`, with or without its
/// extension): its options.
pub(crate) fn read_aphid_config(path: &Path) -> Result<AphidOptions> {
    let flag = "--aphid-config";
    let given = path.to_string_lossy();
    let text = if path.is_file() {
        std::fs::read_to_string(path)
            .map_err(|e| input(flag, format!("cannot read {}: {e}", path.display())))?
    } else {
        let stem = given
            .strip_suffix(".toml")
            .or_else(|| given.strip_suffix(".config"))
            .unwrap_or(&given);
        let (_, text) = BUILT_IN_APHID_CONFIGS
            .iter()
            .find(|(n, _)| *n == stem)
            .ok_or_else(|| {
                let names: Vec<&str> = BUILT_IN_APHID_CONFIGS.iter().map(|(n, _)| *n).collect();
                input(
                    format!("{flag} {given}"),
                    format!(
                        "no such file, nor a built-in configuration of that name; give a path or one of: {}",
                        names.join(", ")
                    ),
                )
            })?;
        (*text).to_string()
    };
    let options = AphidOptions::from_file_text(&given, &text)
        .map_err(|e| input(flag, format!("{}: {e}", path.display())))?;
    Ok(options)
}

/// How a parallel search's tree relates to the sequential search's, printed with every parallel
/// result: `--algo alphabeta --procs 1` is not `--algo alphabeta` without --procs.
pub const TREE_NOTE: &str = "the parallel algorithm's own tree to exactly --depth (its own deepening, windows, ordering and table), not the tree of the sequential `runner search --algo` of the same name; compare nodes with the same algorithm at other --procs";

/// The principal variation of a parallel result, completed where the algorithm knows only its
/// start: the moves after the first come from a sequential search (the research setting's
/// table and ordering) of the remaining depth below them, outside the timed search. Returns
/// the line and whether it was completed so.
fn complete_pv<G: Game>(
    root: &G,
    pv: &[G::Move],
    o: &ParallelOptions,
) -> Result<(Vec<G::Move>, bool)> {
    let depth = o.depth as usize;
    if pv.is_empty() || pv.len() >= depth {
        return Ok((pv.to_vec(), false));
    }
    let mut pos = root.clone();
    for &mv in pv {
        let _ = pos.make_move(mv);
    }
    if pos.outcome().is_some() {
        return Ok((pv.to_vec(), false));
    }
    let mut searcher = Searcher::<G>::new(o.search).context("the table of the PV search")?;
    let rest = searcher.search_window(
        &pos,
        (depth - pv.len()) as u32,
        -INFINITY,
        INFINITY,
        &mut Unlimited,
    );
    let mut line = pv.to_vec();
    line.extend(rest.pv);
    Ok((line, true))
}

/// Runs a checked parallel search on `game`.
pub fn run(game: GameId, args: &SearchArgs, par: &ParallelSearch) -> Result<()> {
    game.visit(Visitor { args, par })
}

struct Visitor<'a> {
    args: &'a SearchArgs,
    par: &'a ParallelSearch,
}

impl GameVisitor for Visitor<'_> {
    type Output = Result<()>;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Result<()> {
        let (args, par) = (self.args, self.par);
        let root: G = args.position.parse(info)?;
        if let Some(budget) = &par.play {
            return run_play(info, args, par, &root, budget);
        }
        let o = &par.options;
        let r = parallel::search(par.algo, &root, o).with_context(|| {
            format!(
                "{} on {} of {} x{}",
                par.algo,
                info.name,
                par.dib.backend.name(),
                par.dib.procs
            )
        })?;
        if !r.is_root() {
            // Another MPI rank: rank 0 prints.
            return Ok(());
        }
        let (line, completed) = complete_pv(&root, &r.pv, o)?;
        let pv = format_line(&root, &line);
        let best_move = r.best_move.map(|m| root.format_move(m));
        let nps = if r.seconds > 0.0 {
            r.nodes as f64 / r.seconds
        } else {
            0.0
        };
        let c = &o.search;
        if args.json {
            let aphid = r.aphid.as_ref().map(|a| json!(a));
            let mut out = json!({
                "game": info.name,
                "position": root.to_string(),
                "algo": par.algo.name(),
                "setting": c.setting.name(),
                "tt_mode": c.tt_mode.name(),
                "tt_mb": c.tt_mib,
                "tt_min_depth": c.tt_min_depth,
                "sort": c.sorting.regime.name(),
                "expansion_depth": c.sorting.expansion_depth,
                "min_split_depth": o.min_split_depth,
                "common_depth": o.common_depth,
                "cd_strategy": o.cd_strategy.letter(),
                "quiescence_plies": c.quiescence_plies,
                "unsorted": c.is_unsorted(),
                "depth": o.depth,
                "value": r.value,
                "value_text": describe_value(r.value),
                "best_move": best_move,
                "pv": pv,
                "pv_completed_sequentially": completed,
                "tree": TREE_NOTE,
                "nodes": r.nodes,
                "horizon_leaves": r.horizon_leaves,
                "seconds": r.seconds,
                "nodes_per_second": nps,
                "stopped": false,
                "extra": r.figures,
                "aphid": aphid,
                "accounting": {
                    "total": r.total,
                    "per_processor": r.accounts,
                    "sim": r.sim,
                },
            });
            // Every option of a single algorithm with its value, by its name with underscores.
            if let Value::Object(options) = json!(o.algo.resolved()) {
                for (key, value) in options {
                    out[key.replace('-', "_")] = value;
                }
            }
            par.dib.add_json(&mut out);
            println!("{out}");
            return Ok(());
        }
        println!(
            "search {} with {} on {} x{} ({} setting, leaf table {} {} MiB, min split depth {}) from {}",
            info.name,
            par.algo,
            par.dib.backend.name(),
            par.dib.procs,
            c.setting,
            c.tt_mode,
            c.tt_mib,
            o.min_split_depth,
            root
        );
        println!(
            "depth {}: value {} ({})",
            o.depth,
            r.value,
            describe_value(r.value)
        );
        println!(
            "best move: {}",
            best_move.as_deref().unwrap_or("none (game over)")
        );
        let after = if completed {
            " (after the first move: a sequential search of the remaining depth)"
        } else {
            ""
        };
        println!("pv: {}{after}", pv.join(" "));
        println!("nodes: {}", r.nodes);
        println!("tree: {TREE_NOTE}");
        let counters = r.figures.len() + r.aphid.as_ref().map_or(0, |a| a.count());
        if args.verbose {
            print!("{}", r.figures);
            if let Some(aphid) = &r.aphid {
                print!("{aphid}");
            }
        } else if counters > 0 {
            println!(
                "{counters} counters of {} not shown (--verbose or --json shows them)",
                par.algo
            );
        }
        let clock = if r.sim.is_some() { "virtual " } else { "" };
        println!(
            "time: {:.3} {clock}s, {:.2} M nodes/s",
            r.seconds,
            nps / 1e6
        );
        par.dib
            .print_accounting(&r.total, &r.accounts, r.sim.as_ref());
        Ok(())
    }
}

/// The play setting: the play engine deepens under the limits (`control::parallel::play`), an
/// iteration printed as it completes, as the sequential `runner search` prints them.
fn run_play<G: Game>(
    info: &GameInfo,
    args: &SearchArgs,
    par: &ParallelSearch,
    root: &G,
    budget: &Budget,
) -> Result<()> {
    let o = &par.options;
    let mut player = Player::<G>::parallel(par.algo, o)
        .map_err(|e| input("--algo", format!("{}: {e}", par.algo)))?;
    let clock = WallClock::start();
    let virtual_clock = matches!(o.backend, dib::Backend::Sim(_));
    let unit = if virtual_clock { "virtual s" } else { "s" };
    if !args.json {
        println!(
            "search {} with {} on {} x{} (play setting, table {} {} MiB, min split depth {}) from {}",
            info.name,
            par.algo,
            par.dib.backend.name(),
            par.dib.procs,
            o.search.tt_mode,
            o.search.tt_mib,
            o.min_split_depth,
            root
        );
    }
    let mut iterations = Vec::new();
    let thought = player
        .think(root, budget, clock, &Stop::new(), &mut |event| {
            if let Event::Depth(r) = event {
                if !args.json {
                    println!(
                        "  depth {:>3}  value {:>16}  nodes {:>12}  time {:>8.3} {unit}",
                        r.depth,
                        describe_value(r.value),
                        r.nodes,
                        r.elapsed.as_secs_f64()
                    );
                }
                iterations.push(json!({
                    "depth": r.depth,
                    "value": r.value,
                    "nodes": r.nodes,
                    "seconds": r.elapsed.as_secs_f64(),
                    "pv": format_line(root, &r.pv),
                }));
            }
        })
        .with_context(|| format!("{} on {} x{}", par.algo, par.dib.backend.name(), o.procs))?;
    let seconds = thought
        .virtual_time
        .map_or_else(|| crate::search::clock_seconds(&clock), |t| t.as_secs_f64());
    let nps = if seconds > 0.0 {
        thought.nodes as f64 / seconds
    } else {
        0.0
    };
    let best_move = thought.best_move.map(|m| root.format_move(m));
    let pv = format_line(root, &thought.pv);
    if args.json {
        let mut out = json!({
            "game": info.name,
            "position": root.to_string(),
            "algo": par.algo.name(),
            "setting": o.search.setting.name(),
            "tt_mode": o.search.tt_mode.name(),
            "tt_mb": o.search.tt_mib,
            "min_split_depth": o.min_split_depth,
            "depth": thought.depth,
            "value": thought.value,
            "value_text": describe_value(thought.value),
            "best_move": best_move,
            "pv": pv,
            "nodes": thought.nodes,
            "seconds": seconds,
            "nodes_per_second": nps,
            "iterations": iterations,
        });
        par.dib.add_json(&mut out);
        println!("{out}");
        return Ok(());
    }
    println!(
        "depth {}: value {} ({})",
        thought.depth,
        thought.value,
        describe_value(thought.value)
    );
    println!(
        "best move: {}",
        best_move.as_deref().unwrap_or("none (game over)")
    );
    println!("pv: {}", pv.join(" "));
    println!("nodes: {}", thought.nodes);
    println!("time: {seconds:.3} {unit}, {:.2} M nodes/s", nps / 1e6);
    Ok(())
}
