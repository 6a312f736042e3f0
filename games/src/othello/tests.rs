//! Tests of the rules, text formats, evaluation and the bitboard generator against a simple
//! square-by-square reference.

use super::*;
use crate::Lcg;
use crate::perft::divide;

/// The reference rules: a board as `n*n` cells (0 empty, 1 mover, 2 opponent), written square
/// by square with no bit tricks.
#[derive(Clone, Debug, PartialEq)]
struct Reference {
    n: usize,
    cells: Vec<u8>,
}

impl Reference {
    fn from<const N: usize>(pos: &Othello<N>) -> Self {
        let (p, o) = pos.bitboards();
        let mut cells = vec![0; N * N];
        for r in 0..N {
            for c in 0..N {
                let bit = 1u64 << (r * 8 + c);
                cells[r * N + c] = if p & bit != 0 {
                    1
                } else if o & bit != 0 {
                    2
                } else {
                    0
                };
            }
        }
        Reference { n: N, cells }
    }

    /// Cells (row-major `r * n + c`) that the mover's disc on `(r, c)` would turn.
    fn flipped(&self, r: usize, c: usize) -> Vec<usize> {
        let n = self.n as i32;
        let mut out = Vec::new();
        if self.cells[r * self.n + c] != 0 {
            return out;
        }
        for dr in -1..=1 {
            for dc in -1..=1 {
                if (dr, dc) == (0, 0) {
                    continue;
                }
                let mut line = Vec::new();
                let (mut rr, mut cc) = (r as i32 + dr, c as i32 + dc);
                while rr >= 0 && cc >= 0 && rr < n && cc < n {
                    let i = (rr * n + cc) as usize;
                    match self.cells[i] {
                        2 => line.push(i),
                        1 => {
                            out.extend(&line);
                            break;
                        }
                        _ => break,
                    }
                    rr += dr;
                    cc += dc;
                }
            }
        }
        out
    }

    /// Legal square moves as `(r, c)`, in bit order (row-major).
    fn moves(&self) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for r in 0..self.n {
            for c in 0..self.n {
                if !self.flipped(r, c).is_empty() {
                    v.push((r, c));
                }
            }
        }
        v
    }

    fn swapped(&self) -> Self {
        let cells = self
            .cells
            .iter()
            .map(|&x| match x {
                1 => 2,
                2 => 1,
                _ => 0,
            })
            .collect();
        Reference { n: self.n, cells }
    }

    /// The position after the move (`None` = pass), from the new mover's view.
    fn play(&self, mv: Option<(usize, usize)>) -> Self {
        let mut next = self.clone();
        if let Some((r, c)) = mv {
            for i in self.flipped(r, c) {
                next.cells[i] = 1;
            }
            next.cells[r * self.n + c] = 1;
        }
        next.swapped()
    }

    /// Legal moves with passes as `None`; empty when the game is over.
    fn legal(&self) -> Vec<Option<(usize, usize)>> {
        let m = self.moves();
        if !m.is_empty() {
            m.into_iter().map(Some).collect()
        } else if !self.swapped().moves().is_empty() {
            vec![None]
        } else {
            Vec::new()
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal()
            .into_iter()
            .map(|mv| self.play(mv).perft(depth - 1))
            .sum()
    }
}

fn to_reference_move<const N: usize>(mv: Move) -> Option<(usize, usize)> {
    mv.to_square().map(|s| (s / 8, s % 8))
}

fn cross_check_playouts<const N: usize>(seeds: u64) {
    let mut list = Vec::new();
    for seed in 0..seeds {
        let mut rng = Lcg(seed);
        let mut pos = Othello::<N>::start();
        let mut reference = Reference::from(&pos);
        loop {
            pos.generate_moves(&mut list);
            let expected = reference.legal();
            let got: Vec<_> = list.iter().map(|&m| to_reference_move::<N>(m)).collect();
            assert_eq!(got, expected, "seed {seed}: moves of {pos}");
            assert_eq!(pos.outcome().is_some(), list.is_empty(), "{pos}");
            if list.is_empty() {
                break;
            }
            let mv = list[rng.below(list.len())];
            pos.make_move(mv);
            reference = reference.play(to_reference_move::<N>(mv));
            assert_eq!(
                Reference::from(&pos),
                reference,
                "seed {seed}: after {mv:?}"
            );
            assert_eq!(pos.hash(), pos.compute_hash());
        }
    }
}

#[test]
fn generator_matches_reference_on_random_games() {
    cross_check_playouts::<8>(150);
    cross_check_playouts::<6>(300);
}

#[test]
fn perft_matches_reference_and_generic_perft() {
    for depth in 0..=6 {
        let reference = Reference::from(&Othello6::start()).perft(depth);
        assert_eq!(
            Othello6::start().perft(depth),
            reference,
            "6x6 depth {depth}"
        );
        let generic = crate::perft::generic_perft(&mut Othello6::start(), depth);
        assert_eq!(generic, reference, "6x6 generic depth {depth}");
    }
    for depth in 0..=5 {
        let reference = Reference::from(&Othello8::start()).perft(depth);
        assert_eq!(
            Othello8::start().perft(depth),
            reference,
            "8x8 depth {depth}"
        );
    }
    // Deeper 6x6 against the generic driver (make/unmake through the trait, hash included),
    // and from mid-game positions reached by random play (passes and game ends occur there).
    assert_eq!(
        Othello6::start().perft(9),
        crate::perft::perft_full(&mut Othello6::start(), 9)
    );
    let mut list = Vec::new();
    for seed in 0..40 {
        let mut rng = Lcg(seed);
        let mut pos = Othello6::start();
        for _ in 0..(18 + seed % 14) {
            pos.generate_moves(&mut list);
            if list.is_empty() {
                break;
            }
            pos.make_move(list[rng.below(list.len())]);
        }
        for depth in 1..=4 {
            let reference = Reference::from(&pos).perft(depth);
            assert_eq!(pos.perft(depth), reference, "{pos} depth {depth}");
        }
    }
}

#[test]
fn passes_and_game_end() {
    // White (O) to move has no move, black has: white must pass.
    let text = format!("-O{}---- O", "X".repeat(58));
    let mut pos = Othello8::parse_position(&text).unwrap_or_else(|e| panic!("{e}"));
    let mut list = Vec::new();
    pos.generate_moves(&mut list);
    assert_eq!(list, vec![Move::PASS]);
    assert_eq!(pos.outcome(), None);
    assert!(matches!(
        pos.parse_move("h8"),
        Err(OthelloError::MustPass { .. })
    ));
    let before = pos;
    let undo = pos.make_move(Move::PASS);
    assert_eq!(pos.side_to_move(), Side::First);
    assert_eq!(pos.hash(), pos.compute_hash());
    pos.unmake_move(Move::PASS, undo);
    assert_eq!(pos, before);
    // Full board: over, black wins 63-1, so white to move has lost.
    let over = Othello8::parse_position(&format!("{}O{} O", "X".repeat(27), "X".repeat(36)))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(over.outcome(), Some(Outcome::Loss));
    over.generate_moves(&mut list);
    assert!(list.is_empty());
    // A drawn 6x6 board.
    let draw = Othello6::parse_position(&format!("{}{} X", "X".repeat(18), "O".repeat(18)))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(draw.outcome(), Some(Outcome::Draw));
    // Neither side can move although squares are empty: black wins from black's view.
    let stuck = Othello6::parse_position("X-------------XX----XX-------------- X")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stuck.outcome(), Some(Outcome::Win));
}

#[test]
fn text_round_trips_and_start() {
    let start = Othello8::start();
    assert_eq!(
        start.to_string(),
        "---------------------------OX------XO--------------------------- X"
    );
    assert_eq!(Othello8::parse_position(&start.to_string()), Ok(start));
    assert_eq!(
        Othello6::start().to_string(),
        "--------------OX----XO-------------- X"
    );
    let moves: Vec<String> = divide(&start, 1).into_iter().map(|(m, _)| m).collect();
    assert_eq!(moves, ["d3", "c4", "f5", "e6"]);
    let six: Vec<String> = divide(&Othello6::start(), 1)
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    assert_eq!(six, ["c2", "b3", "e4", "d5"]);
    let mut p = start;
    p.make_move(p.parse_move("d3").unwrap_or_else(|e| panic!("{e}")));
    assert_eq!(
        p.to_string(),
        "-------------------X-------XX------XO--------------------------- O"
    );
    let json = serde_json::to_string(&p).unwrap_or_default();
    assert_eq!(serde_json::from_str::<Othello8>(&json).ok(), Some(p));
}

#[test]
fn malformed_positions_give_specific_errors() {
    use OthelloError as E;
    type Case = (String, fn(&E) -> bool);
    let start = "---------------------------OX------XO---------------------------";
    let six = "--------------OX----XO--------------";
    let cases: Vec<Case> = vec![
        (String::new(), |e| {
            matches!(e, E::EmptyPosition { cells: 64 })
        }),
        ("   ".into(), |e| matches!(e, E::EmptyPosition { .. })),
        (start.into(), |e| matches!(e, E::MissingSide { .. })),
        (format!("{start} X extra"), |e| {
            matches!(e, E::TooManyFields { fields: 3, .. })
        }),
        (format!("{} X", &start[1..]), |e| {
            matches!(
                e,
                E::WrongLength {
                    found: 63,
                    expected: 64,
                    ..
                }
            )
        }),
        (format!("{start}- X"), |e| {
            matches!(e, E::WrongLength { found: 65, .. })
        }),
        (format!("{six} X"), |e| {
            matches!(e, E::WrongLength { found: 36, .. })
        }),
        (
            format!("Q{} X", &start[1..]),
            |e| matches!(e, E::BadCell { ch: 'Q', index: 0, square } if square == "a1"),
        ),
        (
            format!("{}x{} X", &start[..9], &start[10..]),
            |e| matches!(e, E::BadCell { ch: 'x', index: 9, square } if square == "b2"),
        ),
        (
            format!("{}.{} X", &start[..63], ""),
            |e| matches!(e, E::BadCell { ch: '.', index: 63, square } if square == "h8"),
        ),
        (
            format!("{start} B"),
            |e| matches!(e, E::BadSide { text } if text == "B"),
        ),
        (format!("{start} x"), |e| matches!(e, E::BadSide { .. })),
        (format!("{start} XO"), |e| matches!(e, E::BadSide { .. })),
        (
            format!("{}-{} X", &start[..27], &start[28..]),
            |e| matches!(e, E::EmptyCentre { square } if square == "d4"),
        ),
        (
            format!("{}-{} O", &start[..36], &start[37..]),
            |e| matches!(e, E::EmptyCentre { square } if square == "e5"),
        ),
    ];
    assert!(cases.len() >= 10);
    for (text, check) in cases {
        let err = Othello8::parse_position(&text).expect_err(&text);
        assert!(check(&err), "{text:?}: {err:?}");
        assert!(!err.to_string().is_empty());
    }
    // 6x6: wrong length and a bad centre.
    assert!(matches!(
        Othello6::parse_position(&format!("{start} X")),
        Err(E::WrongLength {
            found: 64,
            expected: 36,
            size: 6
        })
    ));
    assert!(matches!(
        Othello6::parse_position(&format!("{}-{} X", &six[..14], &six[15..])),
        Err(E::EmptyCentre { square }) if square == "c3"
    ));
}

#[test]
fn malformed_moves_give_specific_errors() {
    use OthelloError as E;
    type Case = (&'static str, fn(&E) -> bool);
    let p = Othello8::start();
    let cases: [Case; 13] = [
        ("", |e| matches!(e, E::BadMove { .. })),
        ("3d", |e| matches!(e, E::BadMove { .. })),
        ("d", |e| matches!(e, E::BadMove { .. })),
        ("d3x", |e| matches!(e, E::BadMove { .. })),
        ("d+3", |e| matches!(e, E::BadMove { .. })),
        ("passe", |e| matches!(e, E::BadMove { .. })),
        ("i1", |e| matches!(e, E::OffBoard { size: 8, .. })),
        ("a9", |e| matches!(e, E::OffBoard { .. })),
        ("a0", |e| matches!(e, E::OffBoard { .. })),
        ("d4", |e| matches!(e, E::Occupied { .. })),
        (
            "a1",
            |e| matches!(e, E::NoFlips { legal, .. } if legal == "d3 c4 f5 e6"),
        ),
        ("d6", |e| matches!(e, E::NoFlips { .. })),
        ("pass", |e| matches!(e, E::PassWithMoves { .. })),
    ];
    for (text, check) in cases {
        let err = p.parse_move(text).expect_err(text);
        assert!(check(&err), "{text:?}: {err:?}");
    }
    assert!(matches!(
        Othello6::start().parse_move("f7"),
        Err(E::OffBoard {
            size: 6,
            last_file: 'f',
            ..
        })
    ));
    assert!(matches!(
        Othello6::start().parse_move("g1"),
        Err(E::OffBoard { .. })
    ));
    let over = Othello8::parse_position(&format!("{} X", "X".repeat(64)))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(over.parse_move("pass"), Err(E::GameOver { .. })));
    assert!(matches!(over.parse_move("a1"), Err(E::GameOver { .. })));
    assert_eq!(p.parse_move(" D3 "), Ok(Move::square(19)));
}

#[test]
fn evaluation_prefers_corners_and_mobility() {
    let start = Othello8::start();
    assert_eq!(start.evaluate(), 0);
    assert_eq!(Othello6::start().evaluate(), 0);
    // Black holds a1 and white is to move: bad for white.
    let corner = Othello8::parse_position(
        "XOO------------------------OX------XO--------------------------- O",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(corner.evaluate() < 0, "{}", corner.evaluate());
    // Hints: corners first, X-squares last.
    let hint = |s: usize| start.move_hint(Move::square(s));
    assert!(hint(0) > hint(2) && hint(2) > hint(9) && hint(63) > hint(54));
    assert_eq!(start.move_hint(Move::PASS), 0);
}
