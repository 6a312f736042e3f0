//! ProbCut in the play setting (`games::probcut`, the searcher's `probcut`): off by default,
//! inert in the research setting and in games without a model, and on 8x8 Othello checking
//! nodes at the model's height and cutting some of them, which shrinks the tree.

use control::search::{Limits, PlayFeatures, SearchConfig, SearchStats, Searcher, Unlimited};
use games::Game;
use games::othello::{OTHELLO8_PROBCUT, Othello6, Othello8};

/// The first position of the Othello middle-game test set (28 discs).
const MIDGAME: &str = "XO--O----O-O-O--XXXXX-O-OOOOOO----XOO-----XXOXX------OO--------- X";

fn stats<G: Game>(config: SearchConfig, pos: &G, depth: u32) -> (i32, SearchStats) {
    let mut s = Searcher::<G>::new(config).expect("table");
    let r = s.search(pos, &Limits::depth(depth), &mut Unlimited);
    (r.value, r.stats)
}

fn with_probcut(mut config: SearchConfig) -> SearchConfig {
    config.play_features = PlayFeatures {
        probcut: true,
        ..PlayFeatures::default()
    };
    config
}

#[test]
fn probcut_is_off_by_default_and_inert_outside_the_play_setting() {
    assert!(!PlayFeatures::default().probcut);
    let pos = Othello8::parse_position(MIDGAME).expect("a valid position");
    let (_, play) = stats(SearchConfig::play(), &pos, 10);
    assert_eq!(play.probcut_checks, 0);
    let (v, research) = stats(with_probcut(SearchConfig::research()), &pos, 10);
    let (v0, plain) = stats(SearchConfig::research(), &pos, 10);
    assert_eq!((v, research.nodes()), (v0, plain.nodes()));
    assert_eq!(research.probcut_checks, 0);
    // The 6x6 board has no model: the switch changes nothing there.
    let small = Othello6::start();
    let (a, on) = stats(with_probcut(SearchConfig::play()), &small, 10);
    let (b, off) = stats(SearchConfig::play(), &small, 10);
    assert_eq!((a, on.nodes()), (b, off.nodes()));
    assert_eq!(on.probcut_checks, 0);
}

#[test]
fn probcut_checks_nodes_at_the_models_height_and_cuts_the_tree() {
    let pos = Othello8::parse_position(MIDGAME).expect("a valid position");
    let depth = 12;
    let only = |probcut: bool| {
        let mut c = SearchConfig::play();
        c.play_features = PlayFeatures {
            probcut,
            ..PlayFeatures::NONE
        };
        stats(c, &pos, depth)
    };
    let (_, plain) = only(false);
    let (value, cut) = only(true);
    assert!(cut.probcut_checks > 0, "{cut:?}");
    assert!(
        cut.probcut_cuts > 0 && cut.probcut_cuts <= cut.probcut_checks,
        "{cut:?}"
    );
    assert!(
        cut.nodes() < plain.nodes(),
        "ProbCut searched {} nodes against {} without",
        cut.nodes(),
        plain.nodes()
    );
    // Below the model's height no node is checked: a search too shallow to reach it (the
    // root itself is never cut) is the plain search.
    let (_, shallow) = stats(
        with_probcut(SearchConfig::play()),
        &pos,
        OTHELLO8_PROBCUT.height,
    );
    assert_eq!(shallow.probcut_checks, 0);
    assert!(value.abs() < games::score::INFINITY);
}
