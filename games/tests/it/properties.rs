//! Properties every registered game must have, checked on random playouts of every game in
//! [`GameId::ALL`] (a new game gets them by being registered):
//!
//! - the incrementally updated Zobrist hash equals the one computed from scratch;
//! - unmake restores the position exactly;
//! - positions round-trip through their text format and through serde;
//! - every legal move round-trips through its notation;
//! - a position without moves is terminal, and evaluations stay inside the evaluation range.

use games::{Game, GameId, GameInfo, GameVisitor, Lcg, score};
use proptest::prelude::*;

struct Playout {
    seed: u64,
    max_plies: usize,
}

impl GameVisitor for Playout {
    type Output = ();

    fn visit<G: Game>(self, info: &'static GameInfo) {
        let name = info.name;
        let mut rng = Lcg(self.seed);
        let mut pos = G::start();
        let mut moves = Vec::with_capacity(G::MAX_MOVES);
        for ply in 0..self.max_plies {
            let here = format!("{name}, seed {}, ply {ply}, position {pos}", self.seed);
            assert_eq!(pos.hash(), pos.compute_hash(), "hash drifted: {here}");
            let text = pos.to_string();
            let parsed = G::parse_position(&text)
                .unwrap_or_else(|e| panic!("printed position does not parse ({e}): {here}"));
            assert_eq!(parsed.to_string(), text, "text round trip: {here}");
            assert_eq!(parsed.hash(), pos.hash(), "parsed hash: {here}");
            let json = serde_json::to_string(&pos).unwrap();
            let back: G = serde_json::from_str(&json).unwrap();
            assert_eq!(back, pos, "serde round trip: {here}");

            pos.generate_moves(&mut moves);
            assert!(moves.len() <= G::MAX_MOVES, "MAX_MOVES too small: {here}");
            if moves.is_empty() {
                assert!(pos.outcome().is_some(), "no moves but not over: {here}");
                break;
            }
            assert!(pos.outcome().is_none(), "moves in a finished game: {here}");
            let eval = pos.evaluate();
            assert!(
                eval.abs() <= score::MAX_EVAL,
                "evaluation {eval} out of range: {here}"
            );
            for &mv in &moves {
                let text = pos.format_move(mv);
                let back = pos
                    .parse_move(&text)
                    .unwrap_or_else(|e| panic!("move {text} does not parse ({e}): {here}"));
                assert_eq!(back, mv, "move round trip of {text}: {here}");
                let before = pos.clone();
                let undo = pos.make_move(mv);
                assert_eq!(pos.hash(), pos.compute_hash(), "hash after {text}: {here}");
                pos.unmake_move(mv, undo);
                assert_eq!(pos, before, "unmake of {text}: {here}");
                assert_eq!(
                    pos.hash(),
                    before.hash(),
                    "hash after unmake of {text}: {here}"
                );
            }
            let mv = moves[rng.below(moves.len())];
            pos.make_move(mv);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_playouts_keep_every_invariant(seed in any::<u64>()) {
        for &game in GameId::ALL {
            game.visit(Playout { seed, max_plies: 200 });
        }
    }
}
