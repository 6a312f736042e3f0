//! The play setting's selective-search rules in numbers: the depth and margin of reverse
//! futility pruning and the margin of delta pruning, in units of the game's
//! [`games::Game::margin_unit`] (a pawn in chess). The search code (`alphabeta`, `quiescence`)
//! decides where they apply; the tests below pin those gates.

/// Reverse futility pruning looks at nodes with at most this many plies left.
pub(crate) const REVERSE_FUTILITY_DEPTH: i32 = 6;

/// Reverse futility: a non-PV node whose static evaluation exceeds beta by this margin returns
/// the evaluation (one unit a ply left).
pub(crate) fn reverse_futility_margin(unit: i32, depth: i32) -> i32 {
    unit * depth
}

/// Delta pruning in quiescence: a capture is skipped when its static exchange cannot bring the
/// evaluation within this many units of alpha.
pub(crate) const DELTA_UNITS: i32 = 2;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reverse_futility_margin_grows_with_depth() {
        assert_eq!(reverse_futility_margin(100, 3), 300);
        assert!(reverse_futility_margin(100, 4) > reverse_futility_margin(100, 3));
    }

    mod gates {
        //! Where each pruning acts: searches of one node with only that feature on, watching
        //! its counter in the statistics.

        use games::Game;
        use games::chess::Chess;
        use games::score::{INFINITY, win_in};

        use crate::search::pruning::REVERSE_FUTILITY_DEPTH;
        use crate::search::searcher::NodeInfo;
        use crate::search::sorting::NodeType;
        use crate::search::{Limits, PlayFeature, PlayFeatures, SearchConfig, SearchStats};
        use crate::search::{Searcher, Unlimited};

        /// A queen up for White, to move.
        const AHEAD: &str = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
        /// A queen up for White, in check from a rook.
        const AHEAD_IN_CHECK: &str = "4k3/8/8/8/8/8/4r3/R2QK3 w - - 0 1";

        /// Searches `fen` as a node one ply below the root, of type `kind`, with `only` on.
        fn node(
            fen: &str,
            only: &[PlayFeature],
            depth: i32,
            (alpha, beta): (i32, i32),
            kind: NodeType,
        ) -> (i32, SearchStats) {
            let mut features = PlayFeatures::NONE;
            for &f in only {
                *features.switch(f) = true;
            }
            let mut config = SearchConfig::play();
            config.play_features = features;
            let mut s = Searcher::<Chess>::new(config).expect("a table");
            s.arm(&Limits::default());
            s.extension_limit = 2 * depth;
            let mut pos = Chess::parse_position(fen).expect("a valid FEN");
            let info = NodeInfo {
                kind,
                eldest: false,
                null_ok: true,
                exclusive: false,
            };
            let v = s.alphabeta(&mut pos, depth, alpha, beta, 1, info, &mut Unlimited);
            (v, s.stats.clone())
        }

        #[test]
        fn reverse_futility_cuts_shallow_non_pv_nodes_out_of_check_below_decisive_betas() {
            let rfp = &[PlayFeature::ReverseFutility];
            for depth in [1, REVERSE_FUTILITY_DEPTH] {
                let (v, st) = node(AHEAD, rfp, depth, (-1, 0), NodeType::Two);
                assert_eq!((st.reverse_futility, st.interior), (1, 1));
                assert_eq!(v, Chess::parse_position(AHEAD).unwrap().evaluate());
            }
            // Not at PV nodes, not in check, not against a decisive beta (one ply left, so
            // that no node below could be cut either).
            for (fen, window, kind) in [
                (AHEAD, (-1, 0), NodeType::One),
                (AHEAD_IN_CHECK, (-1, 0), NodeType::Two),
                (AHEAD, (win_in(9) - 1, win_in(9)), NodeType::Two),
            ] {
                let (_, st) = node(fen, rfp, 1, window, kind);
                assert_eq!(st.reverse_futility, 0, "{fen} {window:?} {kind:?}");
                assert!(st.interior > 0);
            }
            // Below the margin: a beta the evaluation exceeds by less than a unit a ply left.
            let eval = Chess::parse_position(AHEAD).unwrap().evaluate();
            let (_, st) = node(AHEAD, rfp, 1, (eval - 100, eval - 99), NodeType::Two);
            assert_eq!(st.reverse_futility, 0);
            // Off: no cut.
            let (_, st) = node(AHEAD, &[], 3, (-1, 0), NodeType::Two);
            assert_eq!(st.reverse_futility, 0);
        }

        #[test]
        fn mate_distance_pruning_decides_windows_beyond_the_fastest_mate() {
            // One ply below the root nothing wins faster than `win_in(2)`.
            let window = (win_in(2), INFINITY);
            let mdp = &[PlayFeature::MateDistance];
            let (v, st) = node(AHEAD, mdp, 3, window, NodeType::Two);
            assert_eq!((v, st.interior), (win_in(2), 0));
            let (_, st) = node(AHEAD, &[], 3, window, NodeType::Two);
            assert!(st.interior > 0);
            // A window that a mate could still reach is searched.
            let (_, st) = node(AHEAD, mdp, 3, (win_in(3), INFINITY), NodeType::Two);
            assert!(st.interior > 0);
        }

        #[test]
        fn the_zugzwang_guard_stops_null_moves_with_only_king_and_pawns() {
            // A won pawn ending, and the same with a knight each.
            let pawns = "8/5k2/8/3P4/2P5/8/5K2/8 w - - 0 1";
            let knights = "8/2n2k2/8/3P4/2P5/8/2N2K2/8 w - - 0 1";
            let nodes = |fen: &str, guard: bool| {
                let mut f = vec![PlayFeature::NullMove];
                if guard {
                    f.push(PlayFeature::ZugzwangGuard);
                }
                node(fen, &f, 6, (-1, 0), NodeType::Two).1.nodes()
            };
            assert_ne!(nodes(pawns, true), nodes(pawns, false));
            assert_eq!(nodes(knights, true), nodes(knights, false));
        }
    }
}
