//! `runner openings`: balanced opening positions for matches, for any game. Every position
//! reached in exactly `--plies` plies from the start (each once, whatever the move order) is
//! searched by the sequential play setting to `--depth`; those whose value lies within
//! `--max-value` of 0 are the candidates, and `--count` of them, chosen by a seeded shuffle,
//! are written in the order they were generated, as a test set for `runner play --openings`,
//! each with the moves that first reached it as the EPD operation `c0` (engines that replay
//! moves from the start, GTP's, need them).

use std::collections::HashSet;
use std::fmt::Write as _;

use anyhow::{Context as _, Result};
use control::search::{Limits, MAX_DEPTH, SearchConfig, Searcher, Unlimited};
use games::{Game, GameId, GameInfo, GameVisitor};

use crate::cli::OpeningsArgs;
use crate::input_error::input;

/// The most positions `--plies` may reach (the enumeration keeps them all).
const MAX_CANDIDATES: usize = 200_000;

/// Runs `runner openings`.
pub fn run(args: &OpeningsArgs) -> Result<()> {
    let game: GameId = args.game.parse().map_err(|e| input("--game", e))?;
    if args.count == 0 {
        return Err(input("--count", "give at least 1"));
    }
    if args.depth == 0 || args.depth > MAX_DEPTH {
        return Err(input(
            "--depth",
            format!("{} is out of range; use 1 to {MAX_DEPTH}", args.depth),
        ));
    }
    if args.max_value < 0 {
        return Err(input("--max-value", "give a value of at least 0"));
    }
    // Before the work: a file that cannot be written would fail only after it.
    std::fs::write(&args.out, "").map_err(|e| {
        input(
            "--out",
            format!(
                "cannot write {}: {e}; give a file in a folder you may write to",
                args.out.display()
            ),
        )
    })?;
    game.visit(Visitor { args })
}

struct Visitor<'a> {
    args: &'a OpeningsArgs,
}

impl GameVisitor for Visitor<'_> {
    type Output = Result<()>;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Result<()> {
        let args = self.args;
        let candidates = positions_at::<G>(args.plies)?;
        let mut searcher =
            Searcher::<G>::new(SearchConfig::play()).context("the table of the searches")?;
        let mut balanced = Vec::new();
        for (i, (pos, _)) in candidates.iter().enumerate() {
            searcher.clear();
            let r = searcher.search(pos, &Limits::depth(args.depth), &mut Unlimited);
            if r.value.abs() <= args.max_value {
                balanced.push((i, r.value));
            }
        }
        if balanced.len() < args.count {
            return Err(input(
                "--count",
                format!(
                    "only {} of the {} positions {} plies in lie within {} of 0; ask for fewer, or raise --max-value",
                    balanced.len(),
                    candidates.len(),
                    args.plies,
                    args.max_value
                ),
            ));
        }
        let mut rng = dib::Rng::new(args.seed);
        // A partial Fisher-Yates shuffle picks `count` of them.
        for k in 0..args.count {
            let j = k + rng.below((balanced.len() - k) as u64) as usize;
            balanced.swap(k, j);
        }
        let mut chosen: Vec<(usize, i32)> = balanced[..args.count].to_vec();
        chosen.sort_unstable();
        let mut text = String::new();
        let _ = writeln!(
            text,
            "# {} openings: {} of the {} positions {} plies from the start (each once) whose value, searched",
            info.name,
            args.count,
            candidates.len(),
            args.plies
        );
        let _ = writeln!(
            text,
            "# to depth {} by this project's sequential play setting, lies within {} of 0 ({} did), chosen",
            args.depth,
            args.max_value,
            balanced.len()
        );
        let _ = writeln!(
            text,
            "# at random (seed {}). Made by `runner openings --game {} --plies {} --count {} --depth {} --max-value {} --seed {}`.",
            args.seed, info.name, args.plies, args.count, args.depth, args.max_value, args.seed
        );
        for (i, value) in chosen {
            let (pos, line) = &candidates[i];
            let _ = writeln!(text, "# value {value}");
            let moves = crate::search::format_line(&G::start(), line);
            let _ = writeln!(text, "{pos} c0 \"{}\";", moves.join(" "));
        }
        std::fs::write(&args.out, text)
            .with_context(|| format!("writing {}", args.out.display()))?;
        println!(
            "{}: {} openings of {} balanced candidates ({} positions {} plies in) written to {}",
            info.name,
            args.count,
            balanced.len(),
            candidates.len(),
            args.plies,
            args.out.display()
        );
        Ok(())
    }
}

/// Every position `plies` plies from the start whose game is not over, each once (by hash),
/// in the order a depth-first walk of the moves in generation order first reaches it, with the
/// moves of that walk.
fn positions_at<G: Game>(plies: u32) -> Result<Vec<(G, Vec<G::Move>)>> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![(G::start(), Vec::new())];
    let mut moves = Vec::with_capacity(G::MAX_MOVES);
    while let Some((pos, line)) = stack.pop() {
        if pos.outcome().is_some() {
            continue;
        }
        if line.len() == plies as usize {
            if seen.insert(pos.hash()) {
                out.push((pos, line));
                if out.len() > MAX_CANDIDATES {
                    return Err(input(
                        "--plies",
                        format!("more than {MAX_CANDIDATES} positions that deep; give fewer plies"),
                    ));
                }
            }
            continue;
        }
        pos.generate_moves(&mut moves);
        // Pushed in reverse, so that the first move is walked first.
        for &mv in moves.iter().rev() {
            let mut child = pos.clone();
            let _ = child.make_move(mv);
            let mut to_child = line.clone();
            to_child.push(mv);
            stack.push((child, to_child));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::tictactoe::TicTacToe3;

    #[test]
    fn positions_at_a_ply_are_each_there_once() {
        // 3x3 tic-tac-toe: 9 positions after one ply, 72 move pairs but 72 distinct positions
        // after two (X and O on different squares), 252 after three (the 504 move orders meet
        // in pairs).
        assert_eq!(positions_at::<TicTacToe3>(1).unwrap().len(), 9);
        assert_eq!(positions_at::<TicTacToe3>(2).unwrap().len(), 72);
        let third = positions_at::<TicTacToe3>(3).unwrap();
        assert_eq!(third.len(), 252);
        // Each comes with the moves that reach it.
        for (pos, line) in &third {
            let mut replayed = TicTacToe3::start();
            for &mv in line {
                replayed.make_move(mv);
            }
            assert_eq!(&replayed, pos);
        }
    }
}
