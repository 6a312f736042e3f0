//! What the engine writes: `info` lines after each completed depth, `info currmove` while a
//! long iteration runs, and the `bestmove` answer.

use std::time::Duration;

use games::Game;
use games::score::plies_to_end;

use control::engine::Report;

/// The UCI score of a search value: `cp N` (centipawns; the chess evaluation counts a pawn as
/// about 100), or `mate N` with N in moves, negative when the side to move is mated.
pub fn score(value: i32) -> String {
    match plies_to_end(value) {
        Some(plies) if value > 0 => format!("mate {}", plies.div_ceil(2)),
        Some(plies) => format!("mate -{}", plies.div_ceil(2)),
        None => format!("cp {value}"),
    }
}

/// Nodes per second, from the nanoseconds elapsed (at least one, so that a search of a few
/// microseconds reports its real rate rather than 0).
pub fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let nanos = elapsed.as_nanos().max(1);
    u64::try_from(u128::from(nodes) * 1_000_000_000 / nanos).unwrap_or(u64::MAX)
}

/// Moves of a line from `pos` in the game's notation, space-separated.
pub fn line<G: Game>(pos: &G, moves: &[G::Move]) -> String {
    lab::search::format_line(pos, moves).join(" ")
}

/// The `info` line of one completed depth.
pub fn iteration<G: Game>(root: &G, report: &Report<G::Move>) -> String {
    let mut text = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {}",
        report.depth,
        report.seldepth,
        score(report.value),
        report.nodes,
        nps(report.nodes, report.elapsed),
        report.elapsed.as_millis()
    );
    if let Some(h) = report.hashfull {
        text.push_str(&format!(" hashfull {h}"));
    }
    let pv = line(root, &report.pv);
    if !pv.is_empty() {
        text.push_str(" pv ");
        text.push_str(&pv);
    }
    text
}

/// The `info currmove` line of the root move `mv`, the `number`-th searched in its iteration.
pub fn currmove<G: Game>(root: &G, mv: G::Move, number: usize) -> String {
    format!(
        "info currmove {} currmovenumber {number}",
        root.format_move(mv)
    )
}

/// What `go mate N` found, from the value and the last completed depth of a search to at most
/// `limit` plies: a mate for the side to move in at most N moves, or none within N moves up to
/// that depth.
pub fn mate_verdict(value: i32, n: u32, depth: u32, limit: u32) -> String {
    match plies_to_end(value) {
        Some(plies) if value > 0 && plies.div_ceil(2) <= n => {
            format!("mate in {} found (asked: mate in {n})", plies.div_ceil(2))
        }
        _ => format!(
            "no mate in {n} found (searched to depth {depth} of {limit}); the move is the search's best"
        ),
    }
}

/// The `bestmove` line: the move and, when the principal variation goes on, the expected reply
/// as `ponder`; `bestmove (none)` when the game is over.
pub fn bestmove<G: Game>(root: &G, best: Option<G::Move>, pv: &[G::Move]) -> String {
    let Some(best) = best else {
        return "bestmove (none)".to_string();
    };
    let mut text = format!("bestmove {}", root.format_move(best));
    if pv.first() == Some(&best) && pv.len() > 1 {
        let reply = line(root, &pv[..2]);
        if let Some((_, ponder)) = reply.split_once(' ') {
            text.push_str(" ponder ");
            text.push_str(ponder);
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::chess::Chess;
    use games::score::{loss_in, win_in};

    #[test]
    fn scores_in_centipawns_and_mates_in_moves() {
        assert_eq!(score(35), "cp 35");
        assert_eq!(score(-120), "cp -120");
        assert_eq!(score(win_in(1)), "mate 1");
        assert_eq!(score(win_in(3)), "mate 2");
        assert_eq!(score(loss_in(2)), "mate -1");
        assert_eq!(score(loss_in(4)), "mate -2");
        assert_eq!(score(loss_in(0)), "mate -0");
    }

    #[test]
    fn mate_verdicts() {
        assert_eq!(
            mate_verdict(win_in(3), 2, 3, 3),
            "mate in 2 found (asked: mate in 2)"
        );
        assert!(mate_verdict(win_in(5), 2, 3, 3).starts_with("no mate in 2 found"));
        assert!(mate_verdict(loss_in(2), 2, 3, 3).starts_with("no mate in 2"));
        assert!(mate_verdict(40, 3, 2, 5).contains("depth 2 of 5"));
    }

    #[test]
    fn nodes_per_second() {
        assert_eq!(nps(5_000, Duration::from_millis(500)), 10_000);
        // A search of microseconds reports its rate, never 0.
        assert_eq!(nps(5_000, Duration::from_micros(10)), 500_000_000);
        assert_eq!(nps(3, Duration::ZERO), 3_000_000_000);
    }

    #[test]
    fn bestmove_with_and_without_ponder() {
        let root = Chess::start();
        let e4 = root.parse_move("e2e4").unwrap();
        let mut after = root.clone();
        let _ = after.make_move(e4);
        let e5 = after.parse_move("e7e5").unwrap();
        assert_eq!(
            bestmove(&root, Some(e4), &[e4, e5]),
            "bestmove e2e4 ponder e7e5"
        );
        assert_eq!(bestmove(&root, Some(e4), &[e4]), "bestmove e2e4");
        assert_eq!(bestmove(&root, Some(e4), &[]), "bestmove e2e4");
        assert_eq!(bestmove::<Chess>(&root, None, &[]), "bestmove (none)");
        let report = Report {
            depth: 2,
            value: 20,
            pv: vec![e4, e5],
            nodes: 100,
            elapsed: Duration::from_millis(10),
            hashfull: Some(3),
            seldepth: 5,
        };
        assert_eq!(
            iteration(&root, &report),
            "info depth 2 seldepth 5 score cp 20 nodes 100 nps 10000 time 10 hashfull 3 pv e2e4 e7e5"
        );
        assert_eq!(
            currmove(&root, e4, 7),
            "info currmove e2e4 currmovenumber 7"
        );
    }
}
