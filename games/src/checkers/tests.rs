//! Rules, notation, evaluation and error tests for checkers.

use super::board::{Board, VALID, bit_of_square, square_of_bit, step};
use super::*;
use crate::score;

const START: &str = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

fn pos(text: &str) -> Checkers {
    Checkers::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves_of(p: &Checkers) -> Vec<String> {
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    let mut v: Vec<String> = moves.iter().map(|m| m.notation()).collect();
    v.sort();
    v
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| (*s).to_string()).collect();
    v.sort();
    v
}

#[test]
fn layout_maps_squares_to_the_standard_neighbours() {
    let mut seen = 0u64;
    for s in 1..=32u8 {
        let bit = bit_of_square(s);
        assert_eq!(square_of_bit(bit), s);
        assert_eq!(seen & 1 << bit, 0);
        seen |= 1 << bit;
    }
    assert_eq!(seen, VALID);
    assert_eq!(VALID.count_ones(), 32);
    let neighbours = |s: u8| -> Vec<u8> {
        let mut v: Vec<u8> = (0..4)
            .map(|d| step(1 << bit_of_square(s), d) & VALID)
            .filter(|&b| b != 0)
            .map(|b| square_of_bit(b.trailing_zeros()))
            .collect();
        v.sort_unstable();
        v
    };
    assert_eq!(neighbours(1), [5, 6]);
    assert_eq!(neighbours(4), [8]);
    assert_eq!(neighbours(5), [1, 9]);
    assert_eq!(neighbours(8), [3, 4, 11, 12]);
    assert_eq!(neighbours(12), [8, 16]);
    assert_eq!(neighbours(13), [9, 17]);
    assert_eq!(neighbours(18), [14, 15, 22, 23]);
    assert_eq!(neighbours(29), [25]);
    assert_eq!(neighbours(32), [27, 28]);
}

#[test]
fn start_position_prints_standard_pdn_fen_and_has_seven_moves() {
    let p = Checkers::start();
    assert_eq!(p.to_string(), START);
    assert_eq!(pos(START), p);
    assert_eq!(pos("B:W21-32:B1-12"), p);
    assert_eq!(pos("B:B1-12:W21-32"), p);
    assert_eq!(
        moves_of(&p),
        sorted(&["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])
    );
    assert_eq!(p.side_to_move(), Side::First);
    assert_eq!(p.outcome(), None);
    assert_eq!(p.evaluate(), 0, "the start position is symmetric");
}

#[test]
fn white_moves_up_the_board() {
    let mut p = Checkers::start();
    let mv = p.parse_move("11-15").unwrap();
    p.make_move(mv);
    assert_eq!(
        moves_of(&p),
        sorted(&[
            "21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"
        ])
    );
}

#[test]
fn captures_are_compulsory_and_continue() {
    // Black man on 9 must take 14 and then 22.
    let p = pos("B:W14,22,30:B9,1");
    assert_eq!(moves_of(&p), ["9x18x25"]);
    let mut tactical = Vec::new();
    assert!(!p.generate_tactical(&mut tactical), "no stand pat");
    assert_eq!(tactical.len(), 1);
    let quiet = Checkers::start();
    assert!(quiet.generate_tactical(&mut tactical));
    assert!(tactical.is_empty());
}

#[test]
fn crowning_ends_the_move() {
    // From 22 over 26 onto 31 crowns; the new king may not go on over 27.
    let mut p = pos("B:W26,27:B22");
    assert_eq!(moves_of(&p), ["22x31"]);
    let mv = p.parse_move("22x31").unwrap();
    p.make_move(mv);
    assert_eq!(p.to_string(), "W:W27:BK31");
    assert_eq!(p.hash(), p.compute_hash());
    // And a simple crowning step.
    let mut q = pos("W:W5:B20");
    let mv = q.parse_move("5-1").unwrap();
    assert_eq!(q.move_hint(mv), 500);
    q.make_move(mv);
    assert_eq!(q.to_string(), "B:WK1:B20");
}

#[test]
fn men_never_move_backwards_but_kings_do() {
    assert_eq!(moves_of(&pos("B:W6:B9")), sorted(&["9-13", "9-14"]));
    assert_eq!(moves_of(&pos("B:W6:BK9")), ["9x2"]);
    assert_eq!(
        moves_of(&pos("B:W32:BK18")),
        sorted(&["18-14", "18-15", "18-22", "18-23"])
    );
}

#[test]
fn a_king_circling_four_pieces_has_two_moves_that_take_the_same_pieces() {
    let p = pos("B:W9,10,17,18,32:BK6");
    assert_eq!(moves_of(&p), sorted(&["6x13x22x15x6", "6x15x22x13x6"]));
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    assert_eq!(moves[0].captured, moves[1].captured);
    assert_eq!(moves[0].captures(), 4);
    assert_eq!(p.clone().perft(1), 2);
    assert_eq!(
        crate::perft::generic_perft(&mut p.clone(), 2),
        p.clone().perft(2)
    );
    assert!(matches!(
        p.parse_move("6x6"),
        Err(CheckersError::AmbiguousCapture { .. })
    ));
    let mut q = p;
    let mv = q.parse_move("6x15x22x13x6").unwrap();
    q.make_move(mv);
    assert_eq!(q.to_string(), "W:W32:BK6");
    assert_eq!(q.hash(), q.compute_hash());
}

#[test]
fn a_side_without_moves_or_pieces_loses() {
    let blocked = pos("W:W32:B23,27,28");
    assert!(moves_of(&blocked).is_empty());
    assert_eq!(blocked.outcome(), Some(Outcome::Loss));
    let mut p = pos("B:W14:B10");
    let mv = p.parse_move("10x17").unwrap();
    p.make_move(mv);
    assert_eq!(p.to_string(), "W:W:B17");
    assert_eq!(p.outcome(), Some(Outcome::Loss));
    assert_eq!(pos("W:W:B17"), p);
}

#[test]
fn eighty_quiet_plies_draw_and_man_moves_or_captures_reset_the_counter() {
    let mut p = pos("B:WK32:BK1,12:H78");
    assert_eq!(p.quiet_plies(), 78);
    let king_step = p.parse_move("1-5").unwrap();
    let undo = p.make_move(king_step);
    assert_eq!(p.quiet_plies(), 79);
    assert_eq!(p.to_string(), "W:WK32:BK5,12:H79");
    let mv = p.parse_move("32-27").unwrap();
    p.make_move(mv);
    assert_eq!(p.quiet_plies(), 80);
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert!(moves_of(&p).is_empty());
    assert!(matches!(
        p.parse_move("5-1"),
        Err(CheckersError::GameOver { .. })
    ));
    // The counter is not part of the hash.
    assert_eq!(p.hash(), pos("B:WK27:BK5,12").hash());

    let mut q = pos("B:WK32:BK1,12:H78");
    let _ = undo;
    let man_step = q.parse_move("12-16").unwrap();
    q.make_move(man_step);
    assert_eq!(q.quiet_plies(), 0);
    assert_eq!(q.to_string(), "W:WK32:BK1,16");

    // Perft near the limit follows the rule: the black king steps (4 of the 6 moves at
    // ply 1, counter 79 -> 80 after White's reply) end the game, man moves do not.
    let mut r = pos("B:WK32:BK1,12:H78");
    let generic = crate::perft::generic_perft(&mut r.clone(), 3);
    assert_eq!(r.perft(3), generic);
    let mut unlimited = pos("B:WK32:BK1,12");
    assert!(unlimited.perft(3) > generic);
}

#[test]
fn evaluation_is_symmetric_bounded_and_prefers_material() {
    // Play a fixed sequence of first moves and compare each position with its mirror image.
    let mut p = Checkers::start();
    let mut moves = Vec::new();
    for ply in 0..60 {
        p.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mirror = Checkers::new(p.board.flipped(), p.side.opponent(), p.quiet_plies);
        assert_eq!(
            p.evaluate(),
            mirror.evaluate(),
            "ply {ply}: {p} vs {mirror}"
        );
        assert!(p.evaluate().abs() < score::MAX_EVAL);
        let mv = moves[(ply * 7 + 3) % moves.len()];
        p.make_move(mv);
    }
    assert!(pos("B:W21-31:B1-12").evaluate() > 50);
    assert!(pos("W:W21-31:B1-12").evaluate() < -50);
    assert!(pos("B:W25-32:B1-11,K17").evaluate() > pos("B:W25-32:B1-11,17").evaluate());
    let full = Checkers::new(
        Board {
            black: VALID,
            white: 0,
            kings: VALID,
        },
        Side::First,
        0,
    );
    assert!(full.evaluate().abs() < score::MAX_EVAL);
}

#[test]
fn move_hints_put_bigger_captures_first() {
    let p = pos("B:W6,7,14,15,K16,30:BK1,K2,K3,20");
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    let mut by_hint: Vec<(i32, String)> = moves
        .iter()
        .map(|&m| (p.move_hint(m), m.notation()))
        .collect();
    by_hint.sort();
    let best = by_hint.last().unwrap();
    let most = moves.iter().map(|m| m.captures()).max().unwrap();
    assert_eq!(pos_captures(&p, &best.1), most, "{by_hint:?}");
    assert!(p.move_hint(moves[0]) >= 1000);
}

fn pos_captures(p: &Checkers, text: &str) -> u32 {
    p.parse_move(text).unwrap().captures()
}

#[test]
fn moves_round_trip_and_short_captures_are_accepted() {
    let p = pos("B:W14,22,30:B9,1");
    let mv = p.parse_move("9x25").unwrap();
    assert_eq!(mv.notation(), "9x18x25");
    assert_eq!(p.parse_move(" 9X18X25 ").unwrap(), mv);
    // Older records write captures with '-'.
    assert_eq!(p.parse_move("9-25").unwrap(), mv);
    assert_eq!(mv.squares().collect::<Vec<_>>(), [9, 18, 25]);
    assert_eq!((mv.from_square(), mv.to_square()), (9, 25));
    assert!(mv.is_capture());
}

/// Whether an error is the expected one.
type Check = fn(&CheckersError) -> bool;

#[test]
fn malformed_positions_name_what_is_wrong() {
    use CheckersError as E;
    let cases: Vec<(&str, Check)> = vec![
        ("", |e| matches!(e, E::EmptyPosition)),
        (
            "X:W21:B1",
            |e| matches!(e, E::BadSideToMove { found } if found == "X"),
        ),
        ("B:W21:B1:Q5", |e| matches!(e, E::UnknownField { .. })),
        ("B:W21", |e| {
            matches!(e, E::MissingColour { letter: 'B', .. })
        }),
        ("B:W21:B1:W22", |e| {
            matches!(e, E::ColourTwice { colour: "White" })
        }),
        ("B:W21,X3:B1", |e| matches!(e, E::BadPieceEntry { .. })),
        ("B:W21;22:B1", |e| matches!(e, E::BadSeparator { .. })),
        ("B:W21,,22:B1", |e| matches!(e, E::BadSeparator { .. })),
        ("B:W21,33:B1", |e| {
            matches!(
                e,
                E::SquareOutOfRange {
                    square: 33,
                    colour: "White"
                }
            )
        }),
        ("B:W21:B0", |e| {
            matches!(e, E::SquareOutOfRange { square: 0, .. })
        }),
        ("B:W21:B12-1", |e| matches!(e, E::BackwardRange { .. })),
        ("B:W21,21:B1", |e| {
            matches!(e, E::SquareTwice { square: 21, .. })
        }),
        ("B:W21,K21:B1", |e| {
            matches!(e, E::SquareTwice { square: 21, .. })
        }),
        ("B:W21:B1,21", |e| {
            matches!(e, E::BothColours { square: 21 })
        }),
        ("B:W21:B1,30", |e| {
            matches!(
                e,
                E::ManOnCrowningRow {
                    square: 30,
                    colour: "Black"
                }
            )
        }),
        ("W:W2:B10", |e| {
            matches!(e, E::ManOnCrowningRow { square: 2, .. })
        }),
        ("B:W20-32:B1", |e| {
            matches!(e, E::TooManyPieces { count: 13, .. })
        }),
        ("B:W:B1", |e| {
            matches!(e, E::NoPiecesForMover { colour: "White" })
        }),
        ("B:W21:B1:H81", |e| matches!(e, E::BadCounter { .. })),
        ("B:W21:B1:Hx", |e| matches!(e, E::BadCounter { .. })),
    ];
    for (text, check) in cases {
        match Checkers::parse_position(text) {
            Ok(p) => panic!("'{text}' parsed as {p}"),
            Err(e) => {
                assert!(check(&e), "'{text}': unexpected error {e:?}");
                assert!(!e.to_string().is_empty());
            }
        }
    }
    // Lowercase, kings, ranges of kings, the counter and a trailing full stop are fine.
    assert_eq!(
        pos("w:wK30-32,21:b1 , 2:H5.").to_string(),
        "W:W21,K30,K31,K32:B1,2:H5"
    );
}

#[test]
fn malformed_and_illegal_moves_name_what_is_wrong() {
    use CheckersError as E;
    let start = Checkers::start();
    let capture = pos("B:W14,22,30:B9,1");
    let king_cycle = pos("B:W9,10,17,18,32:BK6");
    let drawn = pos("B:WK32:BK1:H80");
    let cases: Vec<(&Checkers, &str, Check)> = vec![
        (&start, "", |e| matches!(e, E::EmptyMove)),
        (&start, "1115", |e| {
            matches!(e, E::MoveWithoutSeparator { .. })
        }),
        (&start, "11-15x18", |e| {
            matches!(e, E::MixedMoveSeparators { .. })
        }),
        (
            &start,
            "11-a",
            |e| matches!(e, E::BadMoveSquare { token, .. } if token == "a"),
        ),
        (&start, "11-", |e| matches!(e, E::BadMoveSquare { .. })),
        (
            &start,
            "11-33",
            |e| matches!(e, E::MoveSquareOutOfRange { token, .. } if token == "33"),
        ),
        (&start, "11-15-19", |e| {
            matches!(e, E::StepWithManySquares { .. })
        }),
        (&start, "15-19", |e| {
            matches!(
                e,
                E::NotYourPiece {
                    square: 15,
                    colour: "Black",
                    ..
                }
            )
        }),
        (&start, "21-17", |e| {
            matches!(e, E::NotYourPiece { square: 21, .. })
        }),
        (&start, "11-18", |e| matches!(e, E::IllegalMove { .. })),
        (&start, "1-5", |e| matches!(e, E::IllegalMove { .. })),
        (&start, "11x18", |e| matches!(e, E::NoCapture { .. })),
        (
            &capture,
            "1-5",
            |e| matches!(e, E::CaptureCompulsory { example, .. } if example == "9x18x25"),
        ),
        (
            &capture,
            "9x18",
            |e| matches!(e, E::IncompleteCapture { example, .. } if example == "9x18x25"),
        ),
        (&capture, "9x18x27", |e| matches!(e, E::IllegalMove { .. })),
        (&king_cycle, "6x6", |e| {
            matches!(e, E::AmbiguousCapture { .. })
        }),
        (&king_cycle, "6x15x22", |e| {
            matches!(e, E::IncompleteCapture { .. })
        }),
        (&drawn, "1-5", |e| matches!(e, E::GameOver { .. })),
    ];
    for (p, text, check) in cases {
        match p.parse_move(text) {
            Ok(m) => panic!("'{text}' parsed as {} in {p}", m.notation()),
            Err(e) => {
                assert!(check(&e), "'{text}' in {p}: unexpected error {e:?}");
                assert!(!e.to_string().is_empty());
            }
        }
    }
}

/// Recomputes the bound behind [`MAX_MOVES`]: per component of the jump graph, the largest
/// total number of edge-distinct jump trails (no square jumped twice) that any set of pieces
/// standing on that component can start, the other pieces blocking landings.
#[test]
fn max_moves_bounds_every_capture_trail() {
    fn trails(at: u64, start: u64, blocked: u64, jumped: u64) -> usize {
        let mut n = 0;
        for dir in 0..4 {
            let mid = step(at, dir) & VALID;
            let land = step(mid, dir) & VALID;
            if mid == 0 || land == 0 || mid & jumped != 0 || (land & blocked != 0 && land != start)
            {
                continue;
            }
            n += 1 + trails(land, start, blocked, jumped | mid);
        }
        n
    }
    // Components: squares connected by jumps.
    let mut left = VALID;
    let mut components = Vec::new();
    while left != 0 {
        let mut comp = left & left.wrapping_neg();
        loop {
            let mut grown = comp;
            for dir in 0..4 {
                grown |= step(step(comp, dir) & VALID, dir) & VALID;
            }
            if grown == comp {
                break;
            }
            comp = grown;
        }
        left &= !comp;
        components.push(comp);
    }
    assert_eq!(components.len(), 4);
    let mut bound = 0;
    for comp in components {
        let squares: Vec<u64> = (0..64)
            .map(|b| 1u64 << b)
            .filter(|b| comp & b != 0)
            .collect();
        let mut best = 0;
        for subset in 1u32..(1 << squares.len()) {
            let pieces: Vec<u64> = (0..squares.len())
                .filter(|i| subset & 1 << i != 0)
                .map(|i| squares[i])
                .collect();
            let blocked = pieces.iter().fold(0, |a, b| a | b);
            let total: usize = pieces.iter().map(|&p| trails(p, p, blocked, 0)).sum();
            best = best.max(total);
        }
        bound += best;
    }
    assert_eq!(bound, MAX_MOVES);
}

/// A plain square-by-square move generator on an 8x8 grid, written independently of the
/// bitboards, returning the notations of the legal moves.
fn reference_moves(p: &Checkers) -> Vec<String> {
    // grid[r][c]: None, or Some((black, king)); row 0 holds squares 1-4.
    let mut grid = [[None; 8]; 8];
    let [bm, bk, wm, wk] = p.pieces();
    let coords = |s: u8| {
        let i = usize::from(s - 1);
        let r = i / 4;
        (r, 2 * (i % 4) + usize::from(r % 2 == 0))
    };
    for (list, black, king) in [
        (bm, true, false),
        (bk, true, true),
        (wm, false, false),
        (wk, false, true),
    ] {
        for s in list {
            let (r, c) = coords(s);
            grid[r][c] = Some((black, king));
        }
    }
    let square = |r: usize, c: usize| (r * 4 + c / 2 + 1) as u8;
    let black = p.side_to_move() == Side::First;
    let forward: isize = if black { 1 } else { -1 };
    let crown_row = if black { 7 } else { 0 };
    let at = |r: isize, c: isize| -> Option<(usize, usize)> {
        ((0..8).contains(&r) && (0..8).contains(&c)).then_some((r as usize, c as usize))
    };

    #[allow(clippy::too_many_arguments)]
    fn jumps(
        grid: &[[Option<(bool, bool)>; 8]; 8],
        black: bool,
        king: bool,
        forward: isize,
        crown_row: usize,
        origin: (usize, usize),
        pos: (usize, usize),
        taken: &mut Vec<(usize, usize)>,
        path: &mut Vec<(usize, usize)>,
        out: &mut Vec<Vec<(usize, usize)>>,
    ) {
        let mut any = false;
        for (dr, dc) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            if !king && dr != forward {
                continue;
            }
            let (r, c) = (pos.0 as isize, pos.1 as isize);
            let (mr, mc, lr, lc) = (r + dr, c + dc, r + 2 * dr, c + 2 * dc);
            if !(0..8).contains(&lr) || !(0..8).contains(&lc) {
                continue;
            }
            let mid = (mr as usize, mc as usize);
            let land = (lr as usize, lc as usize);
            let enemy = matches!(grid[mid.0][mid.1], Some((b, _)) if b != black);
            let free = grid[land.0][land.1].is_none() || land == origin;
            if !enemy || !free || taken.contains(&mid) {
                continue;
            }
            any = true;
            taken.push(mid);
            path.push(land);
            if !king && land.0 == crown_row {
                out.push(path.clone());
            } else {
                jumps(
                    grid, black, king, forward, crown_row, origin, land, taken, path, out,
                );
            }
            path.pop();
            taken.pop();
        }
        if !any && path.len() > 1 {
            out.push(path.clone());
        }
    }

    let mut captures = Vec::new();
    let mut steps = Vec::new();
    for r in 0..8 {
        for c in 0..8 {
            let Some((b, king)) = grid[r][c] else {
                continue;
            };
            if b != black {
                continue;
            }
            let mut paths = Vec::new();
            jumps(
                &grid,
                black,
                king,
                forward,
                crown_row,
                (r, c),
                (r, c),
                &mut Vec::new(),
                &mut vec![(r, c)],
                &mut paths,
            );
            for path in paths {
                let names: Vec<String> = path
                    .iter()
                    .map(|&(r, c)| square(r, c).to_string())
                    .collect();
                captures.push(names.join("x"));
            }
            for (dr, dc) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                if !king && dr != forward {
                    continue;
                }
                if let Some((tr, tc)) = at(r as isize + dr, c as isize + dc) {
                    if grid[tr][tc].is_none() {
                        steps.push(format!("{}-{}", square(r, c), square(tr, tc)));
                    }
                }
            }
        }
    }
    let mut v = if captures.is_empty() { steps } else { captures };
    v.sort();
    v
}

#[test]
fn moves_agree_with_a_plain_reference_generator() {
    let mut seed = 0x1234_5678_9ABC_DEF0u64;
    let mut next = move |n: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % n
    };
    let mut checked = 0;
    // Random placements, rich in kings and captures.
    for _ in 0..3000 {
        let mut parts: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        for s in 1..=32u8 {
            let kind = next(10);
            let (colour, king) = match kind {
                0 | 1 => (0, false),
                2 | 3 => (0, true),
                4 | 5 => (1, false),
                6 | 7 => (1, true),
                _ => continue,
            };
            let crown = if colour == 0 { s > 28 } else { s < 5 };
            if parts[colour].len() >= 12 {
                continue;
            }
            parts[colour].push(format!("{}{s}", if king || crown { "K" } else { "" }));
        }
        let side = if next(2) == 0 { "B" } else { "W" };
        let text = format!("{side}:W{}:B{}", parts[1].join(","), parts[0].join(","));
        let Ok(p) = Checkers::parse_position(&text) else {
            continue;
        };
        assert_eq!(moves_of(&p), reference_moves(&p), "{p}");
        assert_eq!(p.clone().perft(1), reference_moves(&p).len() as u64, "{p}");
        checked += 1;
    }
    // Positions from random games.
    let mut moves = Vec::new();
    for _ in 0..50 {
        let mut p = Checkers::start();
        for _ in 0..150 {
            assert_eq!(moves_of(&p), reference_moves(&p), "{p}");
            checked += 1;
            p.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            p.make_move(moves[next(moves.len() as u64) as usize]);
        }
    }
    assert!(checked > 5000, "{checked}");
}

/// Plain negamax over the evaluation, for sanity checks of its sign and terms.
fn negamax(p: &mut Checkers, depth: u32) -> i32 {
    if let Some(outcome) = p.outcome() {
        return outcome.score(0);
    }
    if depth == 0 {
        return p.evaluate();
    }
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    let mut best = -score::INFINITY;
    for mv in moves {
        let undo = p.make_move(mv);
        best = best.max(-negamax(p, depth - 1));
        p.unmake_move(mv, undo);
    }
    best
}

fn best_move(p: &Checkers, depth: u32) -> String {
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    let mut work = *p;
    let scored = moves.iter().map(|&mv| {
        let undo = work.make_move(mv);
        let v = -negamax(&mut work, depth - 1);
        work.unmake_move(mv, undo);
        (v, mv.notation())
    });
    scored.max().unwrap().1
}

#[test]
fn a_shallow_search_on_the_evaluation_plays_sensibly() {
    // 14-18 would hang the man to 23x14.
    assert_ne!(best_move(&pos("B:W23,32:B1,14"), 2), "14-18");
    // A man one step from the crowning row goes there.
    let crowning = best_move(&pos("B:W5,6:B25,9"), 1);
    assert!(
        ["25-29", "25-30"].contains(&crowning.as_str()),
        "{crowning}"
    );
    // Two kings against one: the search finds a position where White's last piece is lost
    // rather than shuffling (a win scores above any evaluation).
    let mut p = pos("B:W28:BK19,K27");
    assert!(negamax(&mut p, 3) > score::MAX_EVAL);
}
