//! `runner list`: the games and their formats.

use games::GameId;
use serde_json::json;

use crate::cli::ListArgs;

/// Prints every game with its description and formats.
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
        println!("{}", json!({ "games": games }));
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
    Ok(())
}
