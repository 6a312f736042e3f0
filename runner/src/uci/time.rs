//! Time management: how long to think, from the `go` parameters and the Move Overhead option.
//!
//! The result is a hard deadline (the search stops there, within one poll of 1024 nodes) and,
//! for a clock, a soft one at half of it (no new iteration starts after it). With a clock of
//! `T` left, increment `I`, `m` moves to go (30 when not given) and overhead `O`:
//!
//! - available `A = T - O - min(T/20, 1 s)` (the last term is a safety margin that grows with
//!   the clock and keeps a reserve when time is short);
//! - target `A/m + 3I/4`, hard deadline `min(2 x target, A/2)` (`A x 4/5` when `m = 1`: the
//!   clock is refilled after this move), and at least 1 ms.
//!
//! `movetime M` gives a fixed time of `M - O` (at least 1 ms), all of it for this move: depths
//! start until the deadline, which stops the running one. `mate N` searches at most `2N - 1`
//! plies (a mate in N moves is `2N - 1` plies deep; the search stops earlier when it proves a
//! shorter one). `infinite`, `ponder`, `depth`, `nodes` and `mate` alone set no deadline. The
//! engine never waits past the deadline: at the deadline it answers with the last completed depth
//! (the first legal move if none completed).

use std::time::Duration;

use super::protocol::GoParams;
use control::engine::Budget;

/// The search budget for a `go` command, the side to move being White when `white`.
pub fn allocate(go: &GoParams, white: bool, overhead: Duration) -> Budget {
    let mate_plies = go.mate.map(|m| m.saturating_mul(2).saturating_sub(1));
    let depth = match (go.depth, mate_plies) {
        (Some(d), Some(m)) => Some(d.min(m)),
        (d, m) => d.or(m),
    }
    .map(|d| d.max(1));
    let mut budget = Budget {
        depth,
        nodes: go.nodes.map(|n| n.max(1)),
        ..Budget::default()
    };
    if go.infinite || go.ponder {
        return budget;
    }
    let min = Duration::from_millis(1);
    if let Some(movetime) = go.movetime {
        budget.time = Some(movetime.saturating_sub(overhead).max(min));
        budget.fixed_time = true;
        return budget;
    }
    let (clock, inc) = if white {
        (go.wtime, go.winc)
    } else {
        (go.btime, go.binc)
    };
    if let Some(clock) = clock {
        let inc = inc.unwrap_or_default();
        let moves_to_go = go.movestogo.unwrap_or(30).max(1);
        let margin = (clock / 20).min(Duration::from_secs(1));
        let available = clock.saturating_sub(overhead).saturating_sub(margin);
        let target = available / moves_to_go + inc * 3 / 4;
        let cap = if moves_to_go == 1 {
            available * 4 / 5
        } else {
            available / 2
        };
        budget.time = Some((target * 2).min(cap).max(min));
    }
    budget
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_clock_gives_twice_the_target_capped_at_half_of_what_is_left() {
        // 60 s, no increment, 30 moves to go, 50 ms overhead: margin 1 s, available 58.95 s,
        // target 1.965 s, hard deadline 3.93 s.
        let go = GoParams {
            wtime: Some(ms(60_000)),
            btime: Some(ms(1)),
            ..GoParams::default()
        };
        assert_eq!(allocate(&go, true, ms(50)).time, Some(ms(3_930)));
        // Black has 1 ms: everything goes to the minimum of 1 ms.
        assert_eq!(allocate(&go, false, ms(50)).time, Some(ms(1)));
    }

    #[test]
    fn increments_and_moves_to_go() {
        // 1 s + 100 ms: margin 50, available 900, target 30 + 75 = 105, hard 210.
        let go = GoParams {
            btime: Some(ms(1_000)),
            binc: Some(ms(100)),
            ..GoParams::default()
        };
        assert_eq!(allocate(&go, false, ms(50)).time, Some(ms(210)));
        // One move to go with 10 s: margin 500, available 9.45 s, target 9.45 s, cap 7.56 s.
        let go = GoParams {
            wtime: Some(ms(10_000)),
            movestogo: Some(1),
            ..GoParams::default()
        };
        assert_eq!(allocate(&go, true, ms(50)).time, Some(ms(7_560)));
        // Short of time, a big increment may not push past half of what is left.
        let go = GoParams {
            wtime: Some(ms(200)),
            winc: Some(ms(2_000)),
            ..GoParams::default()
        };
        assert_eq!(allocate(&go, true, ms(50)).time, Some(ms(70)));
    }

    #[test]
    fn the_deadline_never_exceeds_the_clock() {
        for clock in [0, 1, 5, 40, 99, 500, 3_000, 100_000] {
            for inc in [0, 10, 1_000, 50_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let go = GoParams {
                        wtime: Some(ms(clock)),
                        winc: Some(ms(inc)),
                        movestogo: mtg,
                        ..GoParams::default()
                    };
                    let t = allocate(&go, true, ms(30)).time.unwrap();
                    assert!(t >= ms(1));
                    assert!(
                        t <= ms(clock.saturating_sub(30)).max(ms(1)),
                        "{clock} {inc} {mtg:?}: {t:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn movetime_depth_nodes_and_infinite() {
        let go = GoParams {
            movetime: Some(ms(500)),
            depth: Some(7),
            ..GoParams::default()
        };
        let b = allocate(&go, true, ms(30));
        assert_eq!(b.time, Some(ms(470)));
        assert!(b.fixed_time);
        assert_eq!(b.depth, Some(7));
        let go = GoParams {
            infinite: true,
            wtime: Some(ms(500)),
            nodes: Some(1000),
            ..GoParams::default()
        };
        let b = allocate(&go, true, ms(30));
        assert_eq!(b.time, None);
        assert_eq!(b.nodes, Some(1000));
        let go = GoParams {
            mate: Some(3),
            ..GoParams::default()
        };
        // Mate in 3 is 5 plies deep.
        assert_eq!(allocate(&go, true, ms(30)).depth, Some(5));
        let go = GoParams {
            mate: Some(1),
            depth: Some(4),
            ..GoParams::default()
        };
        assert_eq!(allocate(&go, true, ms(30)).depth, Some(1));
        let go = GoParams {
            wtime: Some(ms(60_000)),
            ..GoParams::default()
        };
        assert!(!allocate(&go, true, ms(30)).fixed_time);
        assert_eq!(
            allocate(&GoParams::default(), true, ms(30)),
            Budget::default()
        );
    }
}
