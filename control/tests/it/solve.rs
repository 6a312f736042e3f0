//! Exact solving with the generic search: tic-tac-toe from the empty board, known wins with their
//! distance, and on positions near the end of every registered game, the solver's value equals
//! plain minimax searched to the end.

use crate::common;

use common::{Lcg, assert_pv_legal, near_the_end};
use control::search::{
    Algorithm, Limits, SearchConfig, Searcher, TtMode, Unlimited, minimax_value, solve,
};
use games::score::{self, win_in};
use games::tictactoe::{TicTacToe3, TicTacToe4};
use games::{Game, GameId, GameInfo, GameVisitor};

#[test]
fn four_by_four_tic_tac_toe_is_a_draw() {
    let s = solve(&TicTacToe4::start(), 16, &mut Unlimited).unwrap();
    assert_eq!(s.value, score::DRAW);
    assert!(s.exact);
    assert!(s.best_move.is_some());
    assert_pv_legal(&TicTacToe4::start(), &s.pv, "4x4 solve");
}

#[test]
fn three_by_three_tic_tac_toe_is_a_draw() {
    let s = solve(&TicTacToe3::start(), 1, &mut Unlimited).unwrap();
    assert_eq!(s.value, score::DRAW);
    assert!(s.exact);
}

#[test]
fn known_wins_are_found_with_their_distance() {
    // X to move completes a row at once.
    let p = TicTacToe3::parse_position("XX-/OO-/---").unwrap();
    let s = solve(&p, 1, &mut Unlimited).unwrap();
    assert_eq!(s.value, win_in(1));
    assert_eq!(
        s.best_move.map(|m| p.format_move(m)),
        Some("c1".to_string())
    );
    // X to move forks (a1 taken by X, centre by X): win in three plies.
    let p = TicTacToe3::parse_position("X--/-XO/--O").unwrap();
    let s = solve(&p, 1, &mut Unlimited).unwrap();
    assert!(s.value >= win_in(5), "{}", s.value);
    assert_eq!(s.value, minimax_value(&p, 9).0);
    // A finished game: O to move has lost.
    let p = TicTacToe3::parse_position("XXX/OO-/---").unwrap();
    let s = solve(&p, 1, &mut Unlimited).unwrap();
    assert_eq!(s.value, score::loss_in(0));
    assert_eq!(s.best_move, None);
}

struct NearTheEnd;

/// The game value of `pos` by plain minimax to the end, if its whole tree has at most `budget`
/// nodes and ends within 20 plies.
fn minimax_to_the_end<G: Game>(pos: &G, budget: u64) -> Option<i32> {
    let config = SearchConfig {
        algorithm: Algorithm::Minimax,
        tt_mode: TtMode::Off,
        ..SearchConfig::research()
    };
    let mut oracle = Searcher::<G>::new(config).unwrap();
    let limits = Limits::nodes(budget);
    let inf = score::INFINITY;
    let r = oracle.search_window_limited(pos, 20, -inf, inf, &limits, &mut Unlimited);
    (r.completed && oracle.stats().horizon == 0).then_some(r.value)
}

impl GameVisitor for NearTheEnd {
    type Output = ();

    fn visit<G: Game>(self, info: &'static GameInfo) {
        let mut rng = Lcg(0x5017E ^ info.name.len() as u64);
        let mut checked = 0;
        for i in 0..200 {
            if checked == 40 {
                break;
            }
            let back = 1 + rng.below(12);
            let Some(pos) = near_the_end::<G>(&mut rng, 1000, back) else {
                continue;
            };
            let Some(value) = minimax_to_the_end(&pos, 20_000) else {
                continue;
            };
            checked += 1;
            let here = format!("{}, position {i} ({pos})", info.name);
            let s = solve(&pos, 1, &mut Unlimited).unwrap();
            assert!(s.exact, "{here}");
            assert_eq!(s.value, value, "{here}");
            assert_pv_legal(&pos, &s.pv, &here);
        }
        assert!(
            checked > 0,
            "{}: no position near the end was found",
            info.name
        );
    }
}

#[test]
fn solver_equals_minimax_to_the_end_near_the_end_of_every_game() {
    for &game in GameId::ALL {
        game.visit(NearTheEnd);
    }
}
