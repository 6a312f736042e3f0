//! `runner list`: the games and their formats, the parallel algorithms, the built-in test
//! sets and the simulator's cost-model presets.

use control::parallel::ParallelAlgo;
use dib::CostModel;
use games::GameId;
use serde_json::json;

use crate::cli::ListArgs;
use lab::testset::BUILT_IN;

/// The number of positions of a test set's text (lines that are neither empty nor comments).
fn position_lines(text: &str) -> usize {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .count()
}

/// The built-in cost models, in the order of [`dib::preset_names`].
fn presets() -> Vec<CostModel> {
    dib::preset_names()
        .filter_map(|n| CostModel::preset(n).ok())
        .collect()
}

/// Prints every game with its description and formats, every parallel algorithm with its
/// description and paper, and the built-in test sets.
pub fn run(args: &ListArgs) -> anyhow::Result<()> {
    if args.json {
        let games: Vec<_> = GameId::ALL
            .iter()
            .map(|g| {
                let i = g.info();
                json!({
                    "name": i.name,
                    "description": i.description,
                    "position_format": i.position_format,
                    "move_format": i.move_format,
                    "notes": i.notes,
                })
            })
            .collect();
        let algorithms: Vec<_> = ParallelAlgo::ALL
            .iter()
            .map(|a| {
                let i = a.info();
                json!({
                    "name": i.name,
                    "aliases": i.aliases,
                    "description": i.description,
                    "paper": i.paper,
                })
            })
            .collect();
        let testsets: Vec<_> = BUILT_IN
            .iter()
            .map(|(name, text)| json!({ "name": name, "positions": position_lines(text) }))
            .collect();
        let presets: Vec<_> = presets()
            .iter()
            .map(|c| json!({ "name": c.name, "about": c.about, "model": c }))
            .collect();
        println!(
            "{}",
            json!({
                "games": games,
                "parallel_algorithms": algorithms,
                "testsets": testsets,
                "sim_presets": presets,
            })
        );
        return Ok(());
    }
    println!("Games:");
    for g in GameId::ALL {
        let i = g.info();
        println!("  {:<12} {}", i.name, i.description);
        println!("  {:<12}   position: {}", "", i.position_format);
        println!("  {:<12}   moves:    {}", "", i.move_format);
        if !i.notes.is_empty() {
            println!("  {:<12}   notes:    {}", "", i.notes);
        }
    }
    println!();
    println!("Parallel algorithms (runner search --algo NAME --procs N):");
    for a in ParallelAlgo::ALL {
        let i = a.info();
        let aliases = if i.aliases.is_empty() {
            String::new()
        } else {
            format!(" (also {})", i.aliases.join(", "))
        };
        println!("  {:<12} {}{aliases}", i.name, i.description);
        println!("  {:<12}   paper: {}", "", i.paper);
    }
    println!();
    println!("Built-in test sets (--testset NAME; a path reads a file instead):");
    for (name, text) in BUILT_IN {
        println!("  {name:<22} {} positions", position_lines(text));
    }
    println!();
    println!("Simulator presets (--backend sim --sim-preset NAME, or a .toml file):");
    for c in presets() {
        println!("  {:<14} {}", c.name, c.about);
        println!("  {:<14}   {c}", "");
    }
    Ok(())
}
