//! Static evaluation: a tapered sum of classical terms, in centipawns, from the side to move.
//!
//! Every term has a middlegame and an endgame value ([`S`]); the two totals are blended by the
//! game phase, `phase = min(24, knights + bishops + 2 * rooks + 4 * queens)` (24 with all the
//! pieces on the board, 0 with only kings and pawns): `(mg * phase + eg * (24 - phase)) / 24`.
//!
//! | term | what it rewards |
//! | --- | --- |
//! | material | P 100/120, N 320/310, B 330/320, R 480/530, Q 950/980 (mg/eg) |
//! | piece-square tables | pawns advancing and holding the centre; knights and bishops near the centre; rooks on the seventh rank; a sheltered king in the middlegame and a central one in the endgame (formulas in [`psqt`]) |
//! | bishop pair | 30/50 |
//! | pawn structure | doubled pawns -10/-20 per extra pawn on a file, isolated pawns -10/-15, passed pawns a bonus growing with their rank (up to 90/140 on the seventh) |
//! | king safety | +12 (mg) per own pawn in the three files in front of a king on its first two ranks, -15 (mg) per such file without an own pawn, and a penalty growing with the square of the weighted number of enemy pieces attacking the squares around the king (N, B 2; R 3; Q 5) |
//! | mobility | per piece, the squares it attacks that hold no own piece and no enemy-pawn attack, around a typical number: N 4/4, B 5/5, R 2/4, Q 1/2 per square |
//! | tempo | +10 for the side to move |
//!
//! The numbers are conventional values of the kind found in chess programming textbooks and
//! tuned by hand here, not fitted; the evaluation is meant to play sound chess and to give
//! searches realistic trees, not to compete with tuned engines.

use super::attacks;
use super::bitboard::Bitboard;
use super::board::Board;
use super::color::Color;
use super::piece::Role;
use super::square::Square;
use crate::score::MAX_EVAL;

/// A middlegame/endgame pair of scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S {
    /// Middlegame value.
    pub mg: i32,
    /// Endgame value.
    pub eg: i32,
}

const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

impl std::ops::Add for S {
    type Output = S;
    fn add(self, o: S) -> S {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}

impl std::ops::AddAssign for S {
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl std::ops::Sub for S {
    type Output = S;
    fn sub(self, o: S) -> S {
        s(self.mg - o.mg, self.eg - o.eg)
    }
}

impl std::ops::Mul<i32> for S {
    type Output = S;
    fn mul(self, k: i32) -> S {
        s(self.mg * k, self.eg * k)
    }
}

/// Material values by role (king: 0).
pub const MATERIAL: [S; 6] = [
    s(100, 120),
    s(320, 310),
    s(330, 320),
    s(480, 530),
    s(950, 980),
    s(0, 0),
];

const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Piece-square tables from White's side (Black uses the mirrored square), built from short
/// formulas so the intent is visible:
///
/// - `ring` = Chebyshev distance from the four centre squares (0 in the centre, 3 on the edge);
/// - pawns: `+4` per rank advanced in the middlegame and `+8` in the endgame, plus 15 for the
///   d- and e-pawns on ranks 4 and 5;
/// - knights: `15 - 12 * ring` (mg), `10 - 10 * ring` (eg);
/// - bishops: `8 - 5 * ring` in both phases;
/// - rooks: `+15/+10` on the seventh rank, `+5` (mg) on the d- and e-files;
/// - queens: `4 - 3 * ring` (mg), `10 - 8 * ring` (eg);
/// - king: in the middlegame `+20` on the first rank towards a corner (files a-c, g-h), `-10`
///   per rank advanced; in the endgame `25 - 15 * ring`.
pub mod psqt {
    use super::{S, s};

    const fn ring(sq: usize) -> i32 {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let df = if f < 4 { 3 - f } else { f - 4 };
        let dr = if r < 4 { 3 - r } else { r - 4 };
        if df > dr { df } else { dr }
    }

    const fn entry(role: usize, sq: usize) -> S {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let ring = ring(sq);
        match role {
            0 => {
                let centre = if (f == 3 || f == 4) && (r == 3 || r == 4) {
                    15
                } else {
                    0
                };
                s(4 * (r - 1) + centre, 8 * (r - 1))
            }
            1 => s(15 - 12 * ring, 10 - 10 * ring),
            2 => s(8 - 5 * ring, 8 - 5 * ring),
            3 => {
                let seventh = if r == 6 { 15 } else { 0 };
                let central = if f == 3 || f == 4 { 5 } else { 0 };
                s(seventh + central, if r == 6 { 10 } else { 0 })
            }
            4 => s(4 - 3 * ring, 10 - 8 * ring),
            _ => {
                let corner = if r == 0 && (f <= 2 || f >= 6) { 20 } else { 0 };
                s(corner - 10 * r, 25 - 15 * ring)
            }
        }
    }

    /// `TABLE[role][square]`, White's point of view.
    pub static TABLE: [[S; 64]; 6] = {
        let mut t = [[s(0, 0); 64]; 6];
        let mut role = 0;
        while role < 6 {
            let mut sq = 0;
            while sq < 64 {
                t[role][sq] = entry(role, sq);
                sq += 1;
            }
            role += 1;
        }
        t
    };
}

/// Files adjacent to each file.
static ADJACENT_FILES: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        if f > 0 {
            t[f] |= Bitboard::file(f as u8 - 1).0;
        }
        if f < 7 {
            t[f] |= Bitboard::file(f as u8 + 1).0;
        }
        f += 1;
    }
    t
};

/// Squares in front of a pawn on its file and the adjacent files (`[color][square]`): no enemy
/// pawn there means the pawn is passed.
static PASSED_SPAN: [[u64; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let f = sq % 8;
        let r = sq / 8;
        let files = ADJACENT_FILES[f] | Bitboard::file(f as u8).0;
        let mut rank = 0;
        while rank < 8 {
            if rank > r {
                t[0][sq] |= files & Bitboard::rank(rank as u8).0;
            }
            if rank < r {
                t[1][sq] |= files & Bitboard::rank(rank as u8).0;
            }
            rank += 1;
        }
        sq += 1;
    }
    t
};

const PASSED: [S; 8] = [
    s(0, 0),
    s(5, 10),
    s(10, 15),
    s(15, 30),
    s(30, 55),
    s(55, 90),
    s(90, 140),
    s(0, 0),
];
const DOUBLED: S = s(-10, -20);
const ISOLATED: S = s(-10, -15);
const BISHOP_PAIR: S = s(30, 50);
const SHIELD_PAWN: S = s(12, 0);
const OPEN_FILE_NEAR_KING: S = s(-15, 0);
const TEMPO: i32 = 10;
/// Mobility: (score per square, typical number of squares) by role.
const MOBILITY: [(S, i32); 6] = [
    (s(0, 0), 0),
    (s(4, 4), 4),
    (s(5, 5), 6),
    (s(2, 4), 7),
    (s(1, 2), 13),
    (s(0, 0), 0),
];
const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// The evaluation split by term, from White's point of view (for tests and tuning).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Material.
    pub material: S,
    /// Piece-square tables.
    pub psqt: S,
    /// Bishop pair.
    pub bishop_pair: S,
    /// Pawn structure (doubled, isolated, passed).
    pub pawns: S,
    /// King safety (shield, open files, attackers).
    pub king_safety: S,
    /// Mobility.
    pub mobility: S,
    /// Game phase, 0 (pawn ending) to 24 (all pieces).
    pub phase: i32,
}

impl Terms {
    /// The sum of the terms.
    #[must_use]
    pub fn total(&self) -> S {
        self.material + self.psqt + self.bishop_pair + self.pawns + self.king_safety + self.mobility
    }

    /// The tapered total, White's point of view.
    #[must_use]
    pub fn tapered(&self) -> i32 {
        let t = self.total();
        (t.mg * self.phase + t.eg * (24 - self.phase)) / 24
    }
}

fn relative(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.index(),
        Color::Black => sq.flip().index(),
    }
}

fn side_terms(board: &Board, us: Color, terms: &mut Terms, sign: i32) {
    let them = !us;
    let occ = board.occupied();
    let own = board.color(us);
    let own_pawns = board.pieces(us, Role::Pawn);
    let their_pawns = board.pieces(them, Role::Pawn);
    let their_pawn_attacks =
        their_pawns.fold(Bitboard::EMPTY, |acc, sq| acc | attacks::pawn(them, sq));
    let their_king = board.king(them);
    let their_king_zone = attacks::king(their_king) | their_king.bb();

    let mut material = S::default();
    let mut psqt = S::default();
    let mut mobility = S::default();
    let mut attack_weight = 0;
    let mut attackers = 0;
    for role in Role::ALL {
        for sq in board.pieces(us, role) {
            material += MATERIAL[role.index()];
            psqt += psqt::TABLE[role.index()][relative(us, sq)];
            let reach = match role {
                Role::Knight => attacks::knight(sq),
                Role::Bishop => attacks::bishop(sq, occ),
                Role::Rook => attacks::rook(sq, occ),
                Role::Queen => attacks::queen(sq, occ),
                Role::Pawn | Role::King => continue,
            };
            let (per_square, typical) = MOBILITY[role.index()];
            let squares = (reach & !own & !their_pawn_attacks).count() as i32;
            mobility += per_square * (squares - typical);
            if (reach & their_king_zone).any() {
                attackers += 1;
                attack_weight += KING_ATTACK_WEIGHT[role.index()];
            }
        }
    }
    let bishop_pair = if board.pieces(us, Role::Bishop).count() >= 2 {
        BISHOP_PAIR
    } else {
        S::default()
    };

    // Pawn structure.
    let mut pawns = S::default();
    for file in 0..8u8 {
        let n = (own_pawns & Bitboard::file(file)).count() as i32;
        if n > 1 {
            pawns += DOUBLED * (n - 1);
        }
    }
    for sq in own_pawns {
        if (own_pawns & Bitboard(ADJACENT_FILES[usize::from(sq.file())])).is_empty() {
            pawns += ISOLATED;
        }
        if (their_pawns & Bitboard(PASSED_SPAN[us.index()][sq.index()])).is_empty() {
            let rank = relative(us, sq) / 8;
            pawns += PASSED[rank];
        }
    }

    // Our attack on their king counts for us (a penalty for them).
    let mut king_safety = S::default();
    if attackers >= 2 {
        king_safety += s((attack_weight * attack_weight).min(300), 0);
    } else {
        king_safety += s(attack_weight * 3, 0);
    }
    // Our own king's shelter.
    let king = board.king(us);
    let rel_rank = relative(us, king) / 8;
    if rel_rank <= 1 {
        let files =
            Bitboard::file(king.file()) | Bitboard(ADJACENT_FILES[usize::from(king.file())]);
        let front = Bitboard(PASSED_SPAN[us.index()][king.index()]);
        let near = match us {
            Color::White => {
                front & (Bitboard::rank(king.rank() + 1) | Bitboard::rank(king.rank() + 2))
            }
            Color::Black => {
                front
                    & (Bitboard::rank(king.rank().saturating_sub(1))
                        | Bitboard::rank(king.rank().saturating_sub(2)))
            }
        };
        king_safety += SHIELD_PAWN * (near & own_pawns & files).count().min(3) as i32;
        for file in 0..8u8 {
            let fb = Bitboard::file(file);
            if (fb & files).any() && (fb & own_pawns).is_empty() {
                king_safety += OPEN_FILE_NEAR_KING;
            }
        }
    }

    terms.material += material * sign;
    terms.psqt += psqt * sign;
    terms.mobility += mobility * sign;
    terms.bishop_pair += bishop_pair * sign;
    terms.pawns += pawns * sign;
    terms.king_safety += king_safety * sign;
}

/// The evaluation terms, White's point of view.
#[must_use]
pub fn terms(board: &Board) -> Terms {
    let mut t = Terms::default();
    side_terms(board, Color::White, &mut t, 1);
    side_terms(board, Color::Black, &mut t, -1);
    let phase: i32 = Role::ALL
        .iter()
        .map(|&r| PHASE_WEIGHT[r.index()] * board.role(r).count() as i32)
        .sum();
    t.phase = phase.min(24);
    t
}

/// The static evaluation from the side to move, in centipawns, inside `±MAX_EVAL`.
#[must_use]
pub fn evaluate(board: &Board) -> i32 {
    let white = terms(board).tapered();
    (white * board.side_to_move().sign() + TEMPO).clamp(-MAX_EVAL + 1, MAX_EVAL - 1)
}
