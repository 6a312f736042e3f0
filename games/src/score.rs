//! The score scale shared by every game and search.
//!
//! Static evaluations lie in `-MAX_EVAL..=MAX_EVAL`. Won and lost games score outside that range,
//! `WIN - ply` and `-(WIN - ply)`, so that a faster win (and a slower loss) is preferred and a
//! mate/win distance can be read off a score.

/// The largest magnitude a static evaluation may have.
pub const MAX_EVAL: i32 = 100_000;

/// The score of a win at the root (ply 0).
pub const WIN: i32 = 1_000_000;

/// The score of a draw.
pub const DRAW: i32 = 0;

/// Any score at least this large (in magnitude) is a forced win (or loss).
pub const WIN_THRESHOLD: i32 = WIN - 10_000;

/// Larger than every score a search can return; use as an "infinite" window bound.
pub const INFINITY: i32 = WIN + 1;

/// The score of a win reached `ply` half-moves below the root.
#[must_use]
pub const fn win_in(ply: u32) -> i32 {
    WIN - ply as i32
}

/// The score of a loss reached `ply` half-moves below the root.
#[must_use]
pub const fn loss_in(ply: u32) -> i32 {
    -win_in(ply)
}

/// Whether `score` is a forced win or loss rather than a heuristic evaluation.
#[must_use]
pub const fn is_decisive(score: i32) -> bool {
    score >= WIN_THRESHOLD || score <= -WIN_THRESHOLD
}

/// The number of plies to the end of the game encoded in a decisive score, `None` otherwise.
#[must_use]
pub const fn plies_to_end(score: i32) -> Option<u32> {
    if score >= WIN_THRESHOLD {
        Some((WIN - score) as u32)
    } else if score <= -WIN_THRESHOLD {
        Some((WIN + score) as u32)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faster_wins_score_higher() {
        assert!(win_in(1) > win_in(3));
        assert!(loss_in(1) < loss_in(3));
        assert!(win_in(500) > MAX_EVAL);
        assert_eq!(plies_to_end(win_in(7)), Some(7));
        assert_eq!(plies_to_end(loss_in(4)), Some(4));
        assert_eq!(plies_to_end(MAX_EVAL), None);
        assert!(is_decisive(loss_in(30)) && !is_decisive(-MAX_EVAL));
    }
}
