//! What the play setting's enhancements (`PlayFeatures`) must keep although they may change
//! values: mates found at the right distance, the
//! best move of easy tactical positions, no effect at all in the research setting, and each
//! switch acting (changing the node count) in the play setting.

use control::search::{Limits, PlayFeature, PlayFeatures, SearchConfig, Searcher, Unlimited};
use games::chess::Chess;
use games::score::{loss_in, plies_to_end, win_in};
use games::{Game, checkers::Checkers, othello::Othello8};

/// Combinations of the play features: every combination of null move, reductions, check
/// extensions and ProbCut, with the other enhancements all off and all on; and each enhancement
/// alone and each left out of the defaults.
fn all_features() -> Vec<PlayFeatures> {
    let mut all = Vec::new();
    for rest in [PlayFeatures::NONE, PlayFeatures::default()] {
        for bits in 0..16 {
            all.push(PlayFeatures {
                null_move: bits & 1 != 0,
                late_move_reductions: bits & 2 != 0,
                check_extensions: bits & 4 != 0,
                probcut: bits & 8 != 0,
                ..rest
            });
        }
    }
    for &feature in PlayFeature::ALL {
        let mut alone = PlayFeatures::NONE;
        *alone.switch(feature) = true;
        let mut without = PlayFeatures::default();
        *without.switch(feature) = false;
        all.extend([alone, without]);
    }
    all
}

fn search<G: Game>(
    config: SearchConfig,
    pos: &G,
    depth: u32,
) -> control::search::SearchResult<G::Move> {
    let mut s = Searcher::<G>::new(config).expect("table");
    s.search(pos, &Limits::depth(depth), &mut Unlimited)
}

fn chess(fen: &str) -> Chess {
    Chess::parse_position(fen).expect("a valid FEN")
}

/// Composed mates (the distances follow from the positions and are also what the research
/// setting's full-width search proves): (FEN, value for the side to move, the first moves that
/// keep the shortest mate).
const MATES: &[(&str, i32, &[&str])] = &[
    // Back-rank mate in one: Ra8#.
    ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", win_in(1), &["a1a8"]),
    // Rook ladder, mate in two: 1. Ra7 (cuts the seventh rank) Kg8 2. Rb8#, or symmetrically
    // 1. Rb7 Kg8 2. Ra8#; there is no mate in one (Rb8+ Kh7, Ra8+ Kh7).
    (
        "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1",
        win_in(3),
        &["a2a7", "b1b7"],
    ),
    // The same after 1. Ra7, black to move: Kg8 is forced and Rb8# follows.
    ("7k/R7/8/8/8/8/8/1R4K1 b - - 0 1", loss_in(2), &["h8g8"]),
];

#[test]
fn mates_are_found_at_the_right_distance_in_both_settings() {
    for &(fen, value, first) in MATES {
        let pos = chess(fen);
        for features in all_features() {
            for mut config in [SearchConfig::research(), SearchConfig::play()] {
                config.play_features = features;
                let r = search(config, &pos, 6);
                let here = format!("{fen} {:?} {features:?}", config.setting);
                assert_eq!(r.value, value, "{here}");
                assert_eq!(plies_to_end(r.value), plies_to_end(value), "{here}");
                let best = pos.format_move(r.best_move.expect("a move"));
                assert!(first.contains(&best.as_str()), "{here}: {best}");
            }
        }
    }
}

#[test]
fn the_play_setting_finds_the_best_move_of_easy_tactics() {
    // (FEN, depth, best move): a hanging queen taken by the rook; a knight fork (Nc7+ checks
    // the king on e8 and attacks the queen on a8, which falls next move).
    let cases: &[(&str, u32, &str)] = &[
        ("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", 4, "d2d5"),
        ("q3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", 4, "b5c7"),
    ];
    for &(fen, depth, best) in cases {
        let pos = chess(fen);
        let r = search(SearchConfig::play(), &pos, depth);
        assert_eq!(pos.format_move(r.best_move.expect("a move")), best, "{fen}");
        let research = search(SearchConfig::research(), &pos, depth);
        assert_eq!(
            pos.format_move(research.best_move.expect("a move")),
            best,
            "{fen}"
        );
    }
}

/// The research setting ignores every play feature: identical value, move, PV and nodes.
fn research_ignores_play_features<G: Game>(positions: &[G], depth: u32) {
    for pos in positions {
        let base = search(SearchConfig::research(), pos, depth);
        for features in all_features() {
            let mut c = SearchConfig::research();
            c.play_features = features;
            let r = search(c, pos, depth);
            assert_eq!(
                (r.value, &r.pv),
                (base.value, &base.pv),
                "{pos} {features:?}"
            );
            assert_eq!(r.stats.nodes(), base.stats.nodes(), "{pos} {features:?}");
        }
    }
}

#[test]
fn play_features_never_change_the_research_setting() {
    research_ignores_play_features(
        &[
            chess("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
            chess("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"),
        ],
        4,
    );
    research_ignores_play_features(&[Checkers::start()], 7);
    research_ignores_play_features(&[Othello8::start()], 6);
}

#[test]
fn each_play_feature_switch_changes_the_node_count() {
    // A middle-game chess position with checks available, searched to depth 6: switching any
    // one feature off changes how many nodes the play setting visits.
    let pos = chess("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5");
    let nodes = |features: PlayFeatures| {
        let mut c = SearchConfig::play();
        c.play_features = features;
        search(c, &pos, 6).stats.nodes()
    };
    let all = nodes(PlayFeatures::default());
    let without = |feature: PlayFeature| {
        let mut f = PlayFeatures::default();
        *f.switch(feature) = false;
        nodes(f)
    };
    // Mate-distance pruning and the zugzwang guard act only where the tree holds mates or
    // pawn endings (their own tests in `control/src/search/pruning.rs`); killers first only
    // where the game's hint is static and the trained evaluation where the game has one
    // (Othello, below); the endgame solver acts in the engine.
    let quiet_here = [
        PlayFeature::ProbCut,
        PlayFeature::MateDistance,
        PlayFeature::ZugzwangGuard,
        PlayFeature::KillersFirst,
        PlayFeature::EndgameSolver,
        PlayFeature::TrainedEval,
    ];
    for &feature in PlayFeature::ALL {
        if !quiet_here.contains(&feature) {
            assert_ne!(
                without(feature),
                all,
                "{feature:?} off searched the same tree"
            );
        }
    }
    // Null move and reductions save nodes.
    assert!(without(PlayFeature::NullMove) > all);
    assert!(without(PlayFeature::LateMoveReductions) > all);
}

#[test]
fn killers_first_and_the_trained_evaluation_change_the_othello_play_tree() {
    // A middle-game Othello position (`othello_midgame.txt`): its square-weight hints are
    // static, so killers first reorders (and reduces) the play search's moves; the trained
    // evaluation changes the values.
    let pos = Othello8::parse_position(
        "XO--O----O-O-O--XXXXX-O-OOOOOO----XOO-----XXOXX------OO--------- X",
    )
    .expect("a valid position");
    let nodes = |feature: Option<PlayFeature>| {
        let mut c = SearchConfig::play();
        if let Some(f) = feature {
            *c.play_features.switch(f) = false;
        }
        search(c, &pos, 7).stats.nodes()
    };
    let all = nodes(None);
    assert_ne!(nodes(Some(PlayFeature::KillersFirst)), all);
    assert_ne!(nodes(Some(PlayFeature::TrainedEval)), all);
}
