//! Differential tests of the chess move generator against two independent ones (shakmaty and
//! cozy-chess, dev-dependencies): perft of hand-built corner-case positions (castling, en
//! passant, promotions, pins, checks), and the legal moves and SAN of every position along
//! random games.

use games::Game;
use games::chess::{Chess, perft, san};
use shakmaty::{CastlingMode, Position};

#[path = "support/reference_chess.rs"]
mod reference_chess;

use reference_chess::{cozy_perft, shakmaty_pos};

/// Corner cases built for this test (depth chosen to stay around a million leaves or less).
const CORNER_CASES: &[(&str, u32)] = &[
    // Castling: both sides, all rights, rooks facing each other.
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 4),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", 4),
    // Castling with sliders eyeing the squares the king crosses.
    ("r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 4),
    ("r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 3),
    // Castling that gives check (rook lands on the king's file).
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", 5),
    ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", 5),
    // Only one right each; a knight on b1 blocks queen side, b8 attacked.
    ("rn2k2r/8/8/8/8/8/8/RN2K2R w Kq - 0 1", 4),
    // En passant: illegal because it exposes the king along the rank.
    ("8/8/8/KPp4r/8/8/8/7k w - c6 0 1", 5),
    ("8/2p5/8/KP5r/8/8/8/7k b - - 0 1", 5),
    ("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 5),
    // En passant capturing the checking pawn, and two pawns able to take.
    ("7k/8/8/3pP3/4K3/8/8/8 w - d6 0 1", 5),
    ("4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1", 5),
    // En passant by a pinned pawn along the diagonal (legal only along the pin).
    ("8/8/1k6/8/2pP4/8/6B1/3K4 b - d3 0 1", 5),
    ("8/b7/8/2pP4/8/4K3/8/7k w - c6 0 1", 5),
    // Promotions for both sides, with captures onto the last rank.
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 4),
    ("4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1", 5),
    ("2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 5),
    ("8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6),
    ("8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 6),
    // Checks and double checks.
    ("8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", 4),
    ("4r2k/8/8/8/8/5n2/8/R3K3 w - - 0 1", 4),
    // A crowded middlegame with every special move nearby (a well-known test position).
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        4,
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        3,
    ),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        3,
    ),
];

#[test]
fn corner_case_perft_matches_shakmaty_and_cozy_chess() {
    for &(fen, depth) in CORNER_CASES {
        let ours = Chess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let shak = shakmaty_pos(fen).unwrap();
        let cozy = cozy_chess::Board::from_fen(fen, false).unwrap();
        for d in 1..=depth {
            let expected = shakmaty::perft(&shak, d);
            assert_eq!(perft::perft(ours.board(), d), expected, "{fen} depth {d}");
            assert_eq!(
                perft::perft_full(ours.board(), d),
                expected,
                "{fen} depth {d}"
            );
            assert_eq!(
                cozy_perft(&cozy, d, false),
                expected,
                "cozy-chess on {fen} depth {d}"
            );
        }
    }
}

/// A small deterministic generator.
fn next(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *state >> 33
}

#[test]
fn legal_moves_and_san_match_shakmaty_along_random_games() {
    let mut state = 0xC0FF_EE00_1234_5678u64;
    let mut positions = 0;
    for _game in 0..150 {
        let mut ours = Chess::new();
        let mut shak = shakmaty::Chess::default();
        for _ply in 0..160 {
            let mut mine: Vec<(String, String)> = Vec::new();
            let mut moves = Vec::new();
            ours.board().legal_moves(&mut moves);
            for &mv in &moves {
                mine.push((mv.to_string(), san::to_san(ours.board(), mv)));
            }
            let mut theirs: Vec<(String, String)> = shak
                .legal_moves()
                .iter()
                .map(|m| {
                    (
                        m.to_uci(CastlingMode::Standard).to_string(),
                        shakmaty::san::SanPlus::from_move(shak.clone(), *m).to_string(),
                    )
                })
                .collect();
            mine.sort();
            theirs.sort();
            assert_eq!(mine, theirs, "{ours}");
            // Board part of the FEN agrees too.
            let fen = ours.to_string();
            let board_part = fen.split(' ').next().unwrap();
            assert!(
                shakmaty::fen::Fen::from_position(&shak, shakmaty::EnPassantMode::Legal)
                    .to_string()
                    .starts_with(board_part)
            );
            positions += 1;
            if moves.is_empty() || ours.outcome().is_some() {
                break;
            }
            let mv = moves[(next(&mut state) % moves.len() as u64) as usize];
            let uci = mv.to_string();
            ours.make_move(mv);
            let m = uci
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&shak)
                .unwrap();
            shak.play_unchecked(m);
            assert_eq!(ours.hash(), ours.compute_hash());
        }
    }
    assert!(positions > 5_000, "{positions}");
}
