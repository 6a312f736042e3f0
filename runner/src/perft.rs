//! `runner perft`: leaf counts of the legal-move tree.

use std::time::Instant;

use anyhow::Result;
use games::{Game, GameId, GameInfo, GameVisitor};
use serde_json::json;

use crate::cli::PerftArgs;
use crate::input_error::input;

/// The deepest perft accepted (deeper runs would not finish anyway).
const MAX_DEPTH: u32 = 64;

/// Runs `runner perft`.
pub fn run(args: &PerftArgs) -> Result<()> {
    let game: GameId = args.game.parse().map_err(|e| input("--game", e))?;
    if args.depth > MAX_DEPTH {
        return Err(input(
            "--depth",
            format!("{} is too deep; use 0 to {MAX_DEPTH}", args.depth),
        ));
    }
    game.visit(PerftVisitor { args })
}

struct PerftVisitor<'a> {
    args: &'a PerftArgs,
}

impl GameVisitor for PerftVisitor<'_> {
    type Output = Result<()>;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Result<()> {
        let args = self.args;
        let root = match &args.position {
            Some(text) => G::parse_position(text)
                .map_err(|e| input(format!("--position for {}", info.name), e))?,
            None => G::start(),
        };
        let started = Instant::now();
        let (nodes, divide) = if args.divide {
            let rows = games::perft::divide(&root, args.depth);
            (rows.iter().map(|(_, n)| n).sum(), Some(rows))
        } else {
            (root.clone().perft(args.depth), None)
        };
        let seconds = started.elapsed().as_secs_f64();
        let nps = if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        };
        if args.json {
            let mut out = json!({
                "game": info.name,
                "position": root.to_string(),
                "depth": args.depth,
                "nodes": nodes,
                "seconds": seconds,
                "nodes_per_second": nps,
                "notes": info.notes,
            });
            if let Some(rows) = &divide {
                out["divide"] = rows
                    .iter()
                    .map(|(m, n)| json!({ "move": m, "nodes": n }))
                    .collect();
            }
            println!("{out}");
        } else {
            if let Some(rows) = &divide {
                for (m, n) in rows {
                    println!("{m}: {n}");
                }
            }
            println!(
                "perft {} depth {}: {nodes} leaves in {seconds:.3} s ({:.1} M leaves/s)",
                info.name,
                args.depth,
                nps / 1e6
            );
            if !info.notes.is_empty() {
                println!("convention: {}", info.notes);
            }
        }
        Ok(())
    }
}
