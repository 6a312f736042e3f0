//! `runner list`: the games and their formats, and the parallel algorithms.

use control::parallel::ParallelAlgo;
use games::GameId;
use serde_json::json;

use crate::cli::ListArgs;

/// Prints every game with its description and formats, and every parallel algorithm with
/// its description and paper.
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
        println!(
            "{}",
            json!({ "games": games, "parallel_algorithms": algorithms })
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
    Ok(())
}
