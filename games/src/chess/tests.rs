//! Rules, notation and error tests for the chess module.

use super::*;
use crate::{Game, Outcome};

fn pos(fen: &str) -> Chess {
    Chess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play_all(p: &mut Chess, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = p
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text} in {p}: {e}"));
        p.make_move(mv);
    }
}

fn legal(p: &Chess) -> Vec<Move> {
    let mut v = Vec::new();
    p.generate_moves(&mut v);
    v
}

// ---------------------------------------------------------------- hand-counted perft corner cases

#[test]
fn en_passant_that_exposes_the_king_on_the_rank_is_illegal() {
    // b5xc6 e.p. would remove both pawns from rank 5 and expose Ka5 to the rook on h5.
    // Legal: Ka4, Ka6, Kb6 (Kb4 is attacked by c5) and b6 = 4.
    let p = pos("8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
    let moves: Vec<String> = legal(&p).iter().map(ToString::to_string).collect();
    assert_eq!(moves.len(), 4, "{moves:?}");
    assert!(!moves.contains(&"b5c6".to_string()));
    // Without the rook the capture is legal.
    let q = pos("8/8/8/KPp5/8/8/8/7k w - c6 0 1");
    assert!(legal(&q).iter().any(|m| m.to_string() == "b5c6"));
}

#[test]
fn en_passant_capture_of_a_checking_pawn() {
    // d7-d5 gave check to Ke4? No: a pawn on d5 attacks c4/e4. White's Ke4 is in check and may
    // take e.p. with the e5 pawn (exd6), removing the checker.
    let p = pos("7k/8/8/3pP3/4K3/8/8/8 w - d6 0 1");
    assert!(p.in_check());
    let moves: Vec<String> = legal(&p).iter().map(ToString::to_string).collect();
    assert!(moves.contains(&"e5d6".to_string()), "{moves:?}");
    // King moves: d3, e3, f3, f4, f5, d4? (d4 is next to d5 pawn: attacked? d5 pawn attacks c4,
    // e4 only) d4 legal; d5 capture legal (pawn unprotected); e5 own pawn; f4/f5/f3/e3/d3 fine.
    // Kxd5, Kd4, Kd3, Ke3, Kf3, Kf4, Kf5 = 7 king moves, + exd6 = 8.
    assert_eq!(moves.len(), 8, "{moves:?}");
}

#[test]
fn promotions_all_four_pieces_and_capture_promotions() {
    // a7-a8 (4 promotions) and a7xb8 (4 promotions); king moves Kc1: b1? next to a1 king? no:
    // black king on h1 here.
    let p = pos("1n6/P7/8/8/8/8/8/2K4k w - - 0 1");
    let moves: Vec<String> = legal(&p).iter().map(ToString::to_string).collect();
    for promo in [
        "a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8r", "a7b8b", "a7b8n",
    ] {
        assert!(
            moves.contains(&promo.to_string()),
            "{promo} missing: {moves:?}"
        );
    }
    // Kc1: b1, b2, c2, d1, d2 = 5.
    assert_eq!(moves.len(), 13, "{moves:?}");
    assert_eq!(perft::perft(p.board(), 1), 13);
    let mut q = p.clone();
    play_all(&mut q, "a7b8n");
    assert_eq!(q.to_string(), "1N6/8/8/8/8/8/8/2K4k b - - 0 1");
}

#[test]
fn castling_rules() {
    // Both castlings available: 26 moves (10 for Ra1, 9 for Rh1, 5 king steps, 2 castlings).
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(legal(&p).len(), 26);
    // A rook on f8 attacks f1: no king-side castling (passes through check). Queen side ok.
    let p = pos("r4rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    let moves: Vec<String> = legal(&p).iter().map(ToString::to_string).collect();
    assert!(!moves.contains(&"e1g1".to_string()));
    assert!(moves.contains(&"e1c1".to_string()));
    // b1 attacked does not stop queen-side castling (the king never crosses b1).
    let p = pos("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert!(legal(&p).iter().any(|m| m.to_string() == "e1c1"));
    // d1 attacked does.
    let p = pos("3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert!(!legal(&p).iter().any(|m| m.to_string() == "e1c1"));
    // In check: no castling.
    let p = pos("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(p.in_check());
    assert!(
        !legal(&p)
            .iter()
            .any(|m| m.to_string() == "e1g1" || m.to_string() == "e1c1")
    );
    // A piece between king and rook (b1) blocks queen-side castling.
    let p = pos("4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1");
    assert!(!legal(&p).iter().any(|m| m.to_string() == "e1c1"));
    // Moving the rook, the king, or losing the rook removes the rights.
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play_all(&mut p, "h1h8");
    assert_eq!(p.to_string(), "r3k2R/8/8/8/8/8/8/R3K3 b Qq - 0 1");
    play_all(&mut p, "e8d7");
    assert_eq!(p.board().castling_rights(), board::rights::WHITE_QUEEN);
    // Castling moves the rook.
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play_all(&mut p, "O-O O-O-O");
    assert_eq!(p.to_string(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
}

#[test]
fn pins_and_double_check() {
    // The e2 knight is pinned by the e8 rook: it has no moves.
    let p = pos("4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1");
    assert!(
        !legal(&p)
            .iter()
            .any(|m| m.from() == Square::parse("e2").unwrap())
    );
    // A pinned rook may slide along the pin line, capture included.
    let p = pos("4r2k/8/8/8/8/8/4R3/4K3 w - - 0 1");
    let rook: Vec<String> = legal(&p)
        .iter()
        .filter(|m| m.from() == Square::parse("e2").unwrap())
        .map(ToString::to_string)
        .collect();
    assert_eq!(rook.len(), 6, "{rook:?}");
    // Double check (rook e8 and knight f3): only king moves.
    let p = pos("4r2k/8/8/8/8/5n2/8/R3K3 w - - 0 1");
    assert_eq!(p.board().checkers().count(), 2);
    assert!(legal(&p).iter().all(|m| m.from() == Square::E1));
}

// ---------------------------------------------------------------- outcomes

#[test]
fn checkmate_and_stalemate() {
    let mut p = Chess::new();
    play_all(&mut p, "f3 e5 g4 Qh4#");
    assert!(p.in_check());
    assert_eq!(p.outcome(), Some(Outcome::Loss));
    assert!(legal(&p).is_empty());
    let stalemate = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(stalemate.outcome(), Some(Outcome::Draw));
    assert!(!stalemate.in_check());
    assert!(legal(&stalemate).is_empty());
}

#[test]
fn fifty_move_rule() {
    let p = pos("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80");
    assert_eq!(p.outcome(), None);
    let mut q = p.clone();
    play_all(&mut q, "Ra2");
    assert_eq!(q.draw_rule(), Some(DrawRule::FiftyMoves));
    assert_eq!(q.outcome(), Some(Outcome::Draw));
    assert!(legal(&q).is_empty());
    // A pawn move resets the clock instead.
    let mut r = p.clone();
    play_all(&mut r, "e4");
    assert_eq!(r.outcome(), None);
    // Mate on the hundredth half-move is still mate.
    let mate = pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80");
    assert_eq!(mate.outcome(), Some(Outcome::Loss));
}

#[test]
fn threefold_repetition_through_the_hash_history() {
    let mut p = Chess::new();
    play_all(&mut p, "Nf3 Nf6 Ng1 Ng8");
    assert_eq!(p.outcome(), None, "second occurrence is not yet a draw");
    play_all(&mut p, "Nf3 Nf6 Ng1");
    assert_eq!(p.outcome(), None);
    play_all(&mut p, "Ng8");
    assert_eq!(p.draw_rule(), Some(DrawRule::ThreefoldRepetition));
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert!(legal(&p).is_empty());
    // Unmaking restores the history: one move back is no draw.
    let mut q = Chess::new();
    play_all(&mut q, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    let mv = q.parse_move("Ng8").unwrap();
    let undo = q.make_move(mv);
    assert_eq!(q.outcome(), Some(Outcome::Draw));
    q.unmake_move(mv, undo);
    assert_eq!(q.outcome(), None);
    // The history survives serde but not FEN.
    let json = serde_json::to_string(&p).unwrap();
    let back: Chess = serde_json::from_str(&json).unwrap();
    assert_eq!(back.outcome(), Some(Outcome::Draw));
    assert_eq!(pos(&p.to_string()).outcome(), None);
    // Different castling rights make different positions.
    let mut r = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play_all(&mut r, "Kf1 Kf8 Ke1 Ke8 Kf1 Kf8 Ke1 Ke8");
    assert_eq!(
        r.outcome(),
        None,
        "rights lost: the start position never recurs"
    );
    play_all(&mut r, "Kf1 Kf8");
    assert_eq!(r.outcome(), Some(Outcome::Draw));
}

#[test]
fn insufficient_material() {
    // Square colours: (file + rank) even is dark (a1), odd is light (h1).
    for (fen, draw) in [
        ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", true),
        ("8/8/4k3/8/8/3KB3/8/8 w - - 0 1", true),
        ("8/8/4k3/8/8/3KN3/8/8 b - - 0 1", true),
        // Bishops on d6 and e3, both dark: no mate possible.
        ("8/8/3bk3/8/8/3KB3/8/8 w - - 0 1", true),
        ("8/8/4k3/4b3/8/3KB3/8/8 w - - 0 1", true),
        // c6 is light and e3 dark: mate positions exist.
        ("8/8/2b1k3/8/8/3KB3/8/8 w - - 0 1", false),
        ("8/8/4k3/3b4/8/3KB3/8/8 w - - 0 1", false),
        ("8/8/4k3/8/8/3KNN2/8/8 w - - 0 1", false),
        ("8/8/2n1k3/8/8/3KB3/8/8 w - - 0 1", false),
        ("8/8/4k3/8/8/R2K4/8/8 w - - 0 1", false),
        ("8/8/4k3/8/8/3K4/7P/8 w - - 0 1", false),
    ] {
        let p = pos(fen);
        assert_eq!(p.board().insufficient_material(), draw, "{fen}");
        assert_eq!(p.outcome().is_some(), draw, "{fen}");
        assert_eq!(
            p.draw_rule() == Some(DrawRule::InsufficientMaterial),
            draw,
            "{fen}"
        );
    }
}

// ---------------------------------------------------------------- notation

#[test]
fn san_printing_and_parsing() {
    let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let san = |uci: &str| san::to_san(p.board(), san::parse_uci(p.board(), uci).unwrap());
    assert_eq!(san("e1g1"), "O-O");
    assert_eq!(san("e1c1"), "O-O-O");
    assert_eq!(san("d5e6"), "dxe6");
    assert_eq!(san("e5f7"), "Nxf7");
    assert_eq!(san("f3f6"), "Qxf6");
    assert_eq!(san("c3b1"), "Nb1");
    assert_eq!(san("e2a6"), "Bxa6");
    assert_eq!(san("g2h3"), "gxh3");
    // Disambiguation by file, by rank, by square.
    let q = pos("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
    let m = san::parse_uci(q.board(), "a1d1").unwrap();
    assert_eq!(san::to_san(q.board(), m), "Rad1");
    let r = pos("4k3/8/R7/8/8/8/8/R3K3 w - - 0 1");
    let m = san::parse_uci(r.board(), "a1a3").unwrap();
    assert_eq!(san::to_san(r.board(), m), "R1a3");
    let s = pos("4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1");
    let m = san::parse_uci(s.board(), "a3b2").unwrap();
    assert_eq!(san::to_san(s.board(), m), "Qa3b2");
    // Promotion with check, mate mark.
    let t = pos("7k/P7/8/8/8/8/8/K7 w - - 0 1");
    let m = san::parse_uci(t.board(), "a7a8q").unwrap();
    assert_eq!(san::to_san(t.board(), m), "a8=Q+");
    assert_eq!(san::parse_san(t.board(), "a8=Q+").unwrap(), m);
    assert_eq!(san::parse_san(t.board(), "a8Q").unwrap(), m);
    let mate = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let m = mate.parse_move("Ra8").unwrap();
    assert_eq!(san::to_san(mate.board(), m), "Ra8#");
    assert_eq!(mate.format_move(m), "a1a8");
    // Castling written with zeros.
    let c = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(c.parse_move("0-0").unwrap().to_string(), "e1g1");
    assert_eq!(c.parse_move("O-O-O").unwrap().to_string(), "e1c1");
    // En passant in SAN.
    let e = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    let m = e.parse_move("exf6").unwrap();
    assert_eq!(m.to_string(), "e5f6");
    assert_eq!(san::to_san(e.board(), m), "exf6");
}

#[test]
fn san_and_uci_round_trip_along_random_games() {
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    for _ in 0..20 {
        let mut p = Chess::new();
        for _ in 0..120 {
            let moves = legal(&p);
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let text = san::to_san(p.board(), mv);
                assert_eq!(
                    san::parse_san(p.board(), &text).unwrap(),
                    mv,
                    "{text} in {p}"
                );
                assert_eq!(p.parse_move(&text).unwrap(), mv, "{text} in {p}");
                assert_eq!(p.parse_move(&mv.to_string()).unwrap(), mv);
            }
            seed = crate::zobrist::mix64(seed);
            p.make_move(moves[(seed % moves.len() as u64) as usize]);
            assert_eq!(p.hash(), p.compute_hash());
            assert_eq!(pos(&p.to_string()), p);
        }
    }
}

#[test]
fn bratko_kopec_best_moves_resolve_to_one_legal_move() {
    let text = include_str!("../../../testsets/bratko_kopec.epd");
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let record = epd::Epd::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        let best = record.operands("bm").expect("bm operation");
        assert!(!best.is_empty());
        let resolved = record
            .best_moves()
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        for (text, mv) in best.iter().zip(&resolved) {
            // SAN printing gives back the text of the suite.
            assert_eq!(&san::to_san(record.position.board(), *mv), text, "{line}");
        }
        assert!(record.id().unwrap().starts_with("BK."));
        n += 1;
    }
    assert_eq!(n, 24);
}

// ---------------------------------------------------------------- errors

#[test]
fn malformed_fen_gives_specific_errors() {
    use ChessError as E;
    type Check = fn(&E) -> bool;
    let cases: Vec<(&str, Check)> = vec![
        ("", |e| matches!(e, E::FieldCount { found: 0 })),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", |e| {
            matches!(e, E::FieldCount { found: 2 })
        }),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
            |e| matches!(e, E::FieldCount { found: 7 }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| matches!(e, E::RankCount { found: 7 }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            |e| matches!(e, E::BadPieceLetter { ch: 'X', rank: 1 }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/4x3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| matches!(e, E::BadPieceLetter { ch: 'x', rank: 4 }),
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| matches!(e, E::BadPieceLetter { ch: '9', rank: 6 }),
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| {
                matches!(
                    e,
                    E::RankLength {
                        rank: 7,
                        squares: 7
                    }
                )
            },
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/44/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
            |e| {
                matches!(
                    e,
                    E::RankLength {
                        rank: 1,
                        squares: 9
                    }
                )
            },
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1",
            |e| {
                matches!(
                    e,
                    E::KingCount {
                        color: "White",
                        count: 2
                    }
                )
            },
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            |e| {
                matches!(
                    e,
                    E::KingCount {
                        color: "Black",
                        count: 0
                    }
                )
            },
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w - - 0 1",
            |e| matches!(e, E::TooManyPieces { color: "White", .. }),
        ),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", |e| {
            matches!(e, E::PawnOnBackRank { .. })
        }),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            |e| matches!(e, E::BadSideToMove { .. }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
            |e| matches!(e, E::BadCastling { .. }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKq - 0 1",
            |e| matches!(e, E::BadCastling { .. }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            |e| matches!(e, E::ImpossibleCastling { right: 'K', .. }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1",
            |e| matches!(e, E::KingCount { .. }),
        ),
        (
            "rnbq1bnr/ppppkppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| matches!(e, E::ImpossibleCastling { right: 'k', .. }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            |e| matches!(e, E::BadEnPassant { .. }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1",
            |e| matches!(e, E::ImpossibleEnPassant { .. }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
            |e| matches!(e, E::ImpossibleEnPassant { .. }),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            |e| {
                matches!(
                    e,
                    E::BadCounter {
                        field: "halfmove clock",
                        ..
                    }
                )
            },
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            |e| {
                matches!(
                    e,
                    E::BadCounter {
                        field: "fullmove number",
                        ..
                    }
                )
            },
        ),
        ("4k3/8/8/8/8/8/8/r3K3 b - - 0 1", |e| {
            matches!(e, E::OpponentInCheck)
        }),
        ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", |e| {
            matches!(e, E::OpponentInCheck)
        }),
        ("4k3/8/3N4/1B6/8/8/8/4R1K1 b - - 0 1", |e| {
            matches!(e, E::TooManyCheckers { count: 3 })
        }),
    ];
    assert!(cases.len() >= 20);
    for (fen, check) in cases {
        let err = Chess::from_fen(fen).expect_err(fen);
        assert!(check(&err), "{fen}: got {err:?}");
        assert!(!err.to_string().is_empty());
    }
}

#[test]
fn malformed_and_illegal_moves_give_specific_errors() {
    use ChessError as E;
    type Check = fn(&E) -> bool;
    let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let cases: Vec<(&str, Check)> = vec![
        ("", |e| matches!(e, E::BadMoveText { .. })),
        ("e2e", |e| matches!(e, E::BadMoveText { .. })),
        ("z9", |e| matches!(e, E::BadMoveText { .. })),
        ("Xe4", |e| matches!(e, E::BadMoveText { .. })),
        ("e2e4k", |e| matches!(e, E::BadMoveText { .. })),
        ("e3e4", |e| matches!(e, E::IllegalMove { .. })),
        ("a8a7", |e| matches!(e, E::IllegalMove { .. })),
        ("e2e5", |e| matches!(e, E::IllegalMove { .. })),
        ("a2a3q", |e| matches!(e, E::IllegalMove { .. })),
        ("0000", |e| matches!(e, E::IllegalMove { .. })),
        ("Ke3", |e| matches!(e, E::IllegalMove { .. })),
        ("Qxf8", |e| matches!(e, E::IllegalMove { .. })),
        ("Nd5", |e| matches!(e, E::IllegalMove { .. })),
        ("Rb2", |e| matches!(e, E::IllegalMove { .. })),
    ];
    for (text, check) in cases {
        let err = p.parse_move(text).expect_err(text);
        assert!(check(&err), "{text}: got {err:?}");
    }
    // Ambiguous SAN.
    let q = pos("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
    assert!(matches!(q.parse_move("Rd1"), Err(E::AmbiguousMove { .. })));
    assert_eq!(q.parse_move("Rhd1").unwrap().to_string(), "h1d1");
    // A pawn reaching the last rank must say what it becomes.
    let r = pos("7k/P7/8/8/8/8/8/K7 w - - 0 1");
    assert!(matches!(r.parse_move("a7a8"), Err(E::IllegalMove { .. })));
    assert!(matches!(r.parse_move("a8"), Err(E::IllegalMove { .. })));
    // After the game ended by rule, nothing is playable.
    let s = pos("4k3/8/8/8/8/8/4P3/R3K3 w - - 100 80");
    assert!(matches!(s.parse_move("Ra2"), Err(E::GameOver { .. })));
}

// ---------------------------------------------------------------- Game hooks

#[test]
fn tactical_moves_are_captures_and_promotions_or_all_evasions() {
    let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let mut tactical = Vec::new();
    assert!(
        p.generate_tactical(&mut tactical),
        "stand pat when not in check"
    );
    let all = legal(&p);
    let expected: Vec<Move> = all
        .iter()
        .copied()
        .filter(|&m| p.move_hint(m) != 0)
        .collect();
    assert_eq!(tactical.len(), 8, "{tactical:?}");
    let mut a = tactical.clone();
    let mut b = expected;
    a.sort_by_key(|m| m.bits());
    b.sort_by_key(|m| m.bits());
    assert_eq!(a, b);
    // Quiet promotions are tactical too.
    let q = pos("7k/P7/8/8/8/8/8/K7 w - - 0 1");
    q.generate_tactical(&mut tactical);
    assert_eq!(tactical.len(), 4);
    // In check: every evasion and no stand pat.
    let mut c = Chess::new();
    play_all(&mut c, "e4 f5 Qh5+");
    assert!(!c.generate_tactical(&mut tactical));
    assert_eq!(tactical.len(), legal(&c).len());
    assert_eq!(tactical.len(), 1); // g6
}

#[test]
fn mvv_lva_orders_captures() {
    let p = pos("4k3/8/3q1r2/4P3/8/8/8/4K3 w - - 0 1");
    let pxq = p.move_hint(p.parse_move("exd6").unwrap());
    let pxr = p.move_hint(p.parse_move("exf6").unwrap());
    let quiet = p.move_hint(p.parse_move("Ke2").unwrap());
    assert!(pxq > pxr && pxr > quiet);
    assert_eq!(quiet, 0);
}

#[test]
fn null_move_makes_and_unmakes() {
    let mut p = Chess::new();
    play_all(&mut p, "e4");
    let before = p.clone();
    let null = p.null_move().expect("not in check");
    let undo = p.make_move(null);
    assert_eq!(p.side_to_move(), crate::Side::First);
    assert_eq!(p.board().ep_square(), None);
    assert_eq!(p.hash(), p.compute_hash());
    p.unmake_move(null, undo);
    assert_eq!(p, before);
    assert_eq!(p.hash(), before.hash());
    let mut c = Chess::new();
    play_all(&mut c, "e4 f5 Qh5+");
    assert_eq!(c.null_move(), None);
    assert!(!legal(&Chess::new()).contains(&Move::NULL));
}

#[test]
fn en_passant_square_is_kept_only_when_capturable() {
    let mut p = Chess::new();
    play_all(&mut p, "e4");
    assert_eq!(p.board().ep_square(), None, "no black pawn can take on e3");
    assert_eq!(
        p.to_string(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    play_all(&mut p, "d5 e5 f5");
    assert_eq!(p.board().ep_square(), Square::parse("f6"));
    assert!(p.to_string().contains(" f6 "));
    // A FEN naming an uncapturable square reads as '-'.
    let q = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(q, p_after_e4());
}

fn p_after_e4() -> Chess {
    let mut p = Chess::new();
    play_all(&mut p, "e4");
    p
}

#[test]
fn evaluation_is_symmetric_and_sensible() {
    let start = Chess::new();
    let e = start.evaluate();
    // Same position, Black to move: same score for the mover (tempo only).
    let black = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(black.evaluate(), e);
    // Mirrored positions score the same for the side to move.
    let a = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let b = pos("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
    assert_eq!(a.evaluate(), b.evaluate());
    // A queen up is clearly winning, for the side that has it.
    let up = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    assert!(up.evaluate() > 800);
    let down = pos("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    assert!(down.evaluate() < -800);
    // Passed pawns on the seventh are worth more than on the second.
    let far = eval::terms(pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").board());
    let near = eval::terms(pos("4k3/8/8/8/8/8/P7/4K3 w - - 0 1").board());
    assert!(far.pawns.eg > near.pawns.eg);
    assert_eq!(eval::terms(Chess::new().board()).phase, 24);
}

#[test]
fn perft_with_rules_stops_at_draws() {
    // K+N v K+P: after the knight takes the pawn it is insufficient material.
    let p = pos("8/8/8/4k3/3p4/8/2N5/4K3 w - - 0 1");
    let bare = perft::perft(p.board(), 2);
    let mut g = p.clone();
    let ruled = g.perft(2);
    assert!(ruled < bare, "{ruled} vs {bare}");
    assert_eq!(ruled, crate::perft::generic_perft(&mut p.clone(), 2));
    // The published positions are unaffected.
    let k = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    assert_eq!(k.clone().perft(3), perft::perft(k.board(), 3));
}

#[test]
fn incremental_unmake_restores_the_board_along_random_games() {
    let mut seed = 0x5EED_0000_0000_0042u64;
    for _ in 0..30 {
        let mut p = Chess::new();
        for _ in 0..150 {
            let moves = legal(&p);
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let before = p.clone();
                let undo = p.make_incremental(mv);
                assert_eq!(p.hash(), p.compute_hash());
                p.unmake_incremental(mv, undo);
                assert_eq!(p, before, "{mv} in {before}");
                assert_eq!(p.board(), before.board());
            }
            seed = crate::zobrist::mix64(seed);
            p.make_move(moves[(seed % moves.len() as u64) as usize]);
        }
    }
}

mod never_panics {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Arbitrary text (and FEN-like text) gives a position or an error, never a panic.
        #[test]
        fn on_any_fen(text in ".{0,80}", fen in "[1-8pnbrqkPNBRQKx/]{8,40} [wbx] [KQkq-]{1,4} [a-h1-8-]{1,2}( [0-9]{1,3} [0-9]{1,3})?") {
            let _ = Chess::from_fen(&text);
            let _ = Chess::from_fen(&fen);
            let _ = epd::Epd::parse(&text);
        }

        /// Arbitrary move text gives a move or an error, never a panic.
        #[test]
        fn on_any_move(text in ".{0,12}", san in "[NBRQKa-h1-8x=+#O0-]{1,8}") {
            let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
            for t in [&text, &san] {
                if let Ok(mv) = p.parse_move(t) {
                    prop_assert!(legal(&p).contains(&mv));
                }
            }
        }
    }
}
