//! The play setting and the sorting regimes: the play setting runs on every game, is
//! deterministic and agrees with the research setting on proven results; sorting is counted
//! apart from the search and never changes a value.

use crate::common;

use common::{Lcg, assert_pv_legal, minimax_within, random_position};
use control::search::{Limits, SearchConfig, Searcher, Setting, SortRegime, Unlimited};
use games::score::is_decisive;
use games::{Game, GameId, GameInfo, GameVisitor};

struct PlayRuns;

impl GameVisitor for PlayRuns {
    type Output = ();

    fn visit<G: Game>(self, info: &'static GameInfo) {
        let mut rng = Lcg(0x91A7 ^ info.name.len() as u64);
        for i in 0..30 {
            let plies = rng.below(30);
            let pos: G = random_position(&mut rng, plies);
            let here = format!("{}, position {i} ({pos})", info.name);
            let limits = Limits {
                depth: Some(6),
                nodes: Some(40_000),
                time: None,
            };
            let run = || {
                let mut s = Searcher::<G>::new(SearchConfig::play()).unwrap();
                s.search(&pos, &limits, &mut Unlimited)
            };
            let (a, b) = (run(), run());
            assert_eq!(a.value, b.value, "play is deterministic: {here}");
            assert_eq!(a.pv, b.pv, "play is deterministic: {here}");
            assert_eq!(a.stats.nodes(), b.stats.nodes(), "{here}");
            assert_pv_legal(&pos, &a.pv, &here);
            if pos.outcome().is_none() {
                assert!(a.best_move.is_some(), "{here}");
            }
            // A win or loss proven by plain minimax at depth 3 is found by play as well.
            let Some(exact) = minimax_within(&pos, 3, 200_000) else {
                continue;
            };
            if is_decisive(exact) && a.depth >= 3 {
                assert_eq!(a.value.signum(), exact.signum(), "{here}");
                assert!(is_decisive(a.value), "{here}: {} vs {exact}", a.value);
            }
        }
    }
}

#[test]
fn the_play_setting_is_deterministic_and_finds_proven_results() {
    for &game in GameId::ALL {
        game.visit(PlayRuns);
    }
}

#[test]
fn the_named_settings_have_their_defaults() {
    assert_eq!(SearchConfig::research().setting, Setting::Research);
    assert_eq!(
        SearchConfig::for_setting(Setting::Play),
        SearchConfig::play()
    );
    assert_eq!("exact".parse(), Ok(control::TtMode::ExactDepth));
    let err = "fast".parse::<Setting>().unwrap_err().to_string();
    assert!(err.contains("research") && err.contains("play"), "{err}");
    let err = "xx".parse::<SortRegime>().unwrap_err().to_string();
    assert!(err.contains("pvr"), "{err}");
}

#[test]
fn sorting_is_counted_apart_and_only_when_a_regime_is_on() {
    let pos = games::tictactoe::TicTacToe4::start();
    let mut counts = Vec::new();
    for &regime in SortRegime::ALL {
        let mut c = SearchConfig::research();
        c.sorting.regime = regime;
        c.move_ordering = false;
        let mut s = Searcher::new(c).unwrap();
        let r = s.search_window(
            &pos,
            5,
            -games::score::INFINITY,
            games::score::INFINITY,
            &mut Unlimited,
        );
        assert!(r.completed);
        counts.push((regime, s.stats().sort_nodes, s.stats().nodes(), r.value));
    }
    assert_eq!(counts[0].1, 0);
    assert!(counts[1..].iter().all(|c| c.1 > 0), "{counts:?}");
    // TN sorts one node: the 16 children each searched two plies deeper (16 * (1 + 15 + 15 * 14)
    // nodes at most, fewer with cutoffs).
    assert!(counts[1].1 <= 16 * (1 + 15 + 15 * 14), "{counts:?}");
    assert!(counts.iter().all(|c| c.3 == counts[0].3), "{counts:?}");
}

/// The move-ordering counters (`cut_nodes`, `cut_children`, `best_first`, `best_known`) are
/// consistent, and they see the ordering: with it, Othello's best move comes first more often
/// and fewer children are searched before a cutoff than without it.
#[test]
fn ordering_counters_see_the_move_ordering() {
    let pos = games::othello::Othello8::start();
    let quality = |ordering: bool| {
        let mut c = SearchConfig::research();
        c.move_ordering = ordering;
        let mut s = Searcher::new(c).unwrap();
        for d in 1..=7 {
            let _ = s.search_window(
                &pos,
                d,
                -games::score::INFINITY,
                games::score::INFINITY,
                &mut Unlimited,
            );
        }
        let st = s.stats();
        assert!(
            st.cut_nodes > 0 && st.cut_children >= st.cut_nodes,
            "{st:?}"
        );
        assert!(
            st.best_first <= st.best_known && st.best_known >= st.cut_nodes,
            "{st:?}"
        );
        (
            st.cut_children as f64 / st.cut_nodes as f64,
            st.best_first as f64 / st.best_known as f64,
        )
    };
    let (with, without) = (quality(true), quality(false));
    assert!(
        with.0 < without.0 && with.1 > without.1,
        "{with:?} {without:?}"
    );
}
