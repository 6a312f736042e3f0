//! Legal move generation.
//!
//! Moves are produced fully legal (no make-and-test), piece by piece, as sets of destination
//! squares. With the checkers and pins computed once per node ([`Board::checks_and_pins`]):
//!
//! - in double check only the king moves;
//! - in single check the other pieces may only capture the checker or block its ray
//!   (`between(king, checker)`);
//! - a pinned piece stays on the line through its king and its pinner (`line(king, piece)`);
//! - king destinations are tested for attacks with the king removed from the blockers (so it
//!   cannot step back along a checking ray);
//! - en passant, whose two vanishing pawns can expose the king along a rank, is checked by
//!   recomputing slider attacks on the king after the capture.
//!
//! Bulk counting ([`Board::count_moves`]) adds up the sizes of these sets without ever building
//! a move.

use super::attacks;
use super::bitboard::Bitboard;
use super::board::{Board, rights};
use super::color::Color;
use super::moves::Move;
use super::piece::Role;
use super::square::Square;

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    /// Every legal move.
    All,
    /// Captures (en passant included) and promotions; every evasion when in check.
    Tactical,
}

impl Board {
    /// Calls `sink(role, from, destinations)` for each piece with at least one legal move,
    /// stopping early (and returning `true`) when `sink` returns `true`. Pawn destinations on
    /// the last rank stand for four promotions each.
    #[inline(always)]
    pub(crate) fn for_each_piece_moves<F>(&self, kind: Kind, mut sink: F) -> bool
    where
        F: FnMut(Role, Square, Bitboard) -> bool,
    {
        let us = self.side;
        let them = !us;
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occ = ours | theirs;
        let ksq = self.king(us);
        let (checkers, pinned) = self.checks_and_pins();
        let in_check = checkers.any();
        let captures_only = kind == Kind::Tactical && !in_check;

        // King moves.
        let mut king_targets = attacks::king(ksq) & !ours;
        if captures_only {
            king_targets &= theirs;
        }
        let occ_without_king = occ ^ ksq.bb();
        let mut king_moves = Bitboard::EMPTY;
        for to in king_targets {
            if !self.attacked(to, them, occ_without_king) {
                king_moves |= to.bb();
            }
        }
        if kind == Kind::All && !in_check {
            king_moves |= self.castling_moves(us, occ);
        }
        if king_moves.any() && sink(Role::King, ksq, king_moves) {
            return true;
        }
        if checkers.more_than_one() {
            return false;
        }

        let check_mask = match checkers.first() {
            Some(checker) => attacks::between(ksq, checker) | checker.bb(),
            None => Bitboard::FULL,
        };
        let mut target = !ours & check_mask;
        if captures_only {
            target &= theirs;
        }

        for from in self.pieces(us, Role::Knight) & !pinned {
            let to = attacks::knight(from) & target;
            if to.any() && sink(Role::Knight, from, to) {
                return true;
            }
        }
        for from in self.pieces(us, Role::Bishop) {
            let mut to = attacks::bishop(from, occ) & target;
            if pinned.contains(from) {
                to &= attacks::line(ksq, from);
            }
            if to.any() && sink(Role::Bishop, from, to) {
                return true;
            }
        }
        for from in self.pieces(us, Role::Rook) {
            let mut to = attacks::rook(from, occ) & target;
            if pinned.contains(from) {
                to &= attacks::line(ksq, from);
            }
            if to.any() && sink(Role::Rook, from, to) {
                return true;
            }
        }
        for from in self.pieces(us, Role::Queen) {
            let mut to = attacks::queen(from, occ) & target;
            if pinned.contains(from) {
                to &= attacks::line(ksq, from);
            }
            if to.any() && sink(Role::Queen, from, to) {
                return true;
            }
        }

        // Pawns.
        let (double_rank, last_rank) = match us {
            Color::White => (Bitboard::rank(3), Bitboard::rank(7)),
            Color::Black => (Bitboard::rank(4), Bitboard::rank(0)),
        };
        let empty = !occ;
        let mut pawn_target = check_mask;
        if captures_only {
            pawn_target &= theirs | last_rank;
        }
        for from in self.pieces(us, Role::Pawn) {
            let single = match us {
                Color::White => from.bb().north(),
                Color::Black => from.bb().south(),
            } & empty;
            let double = match us {
                Color::White => single.north(),
                Color::Black => single.south(),
            } & empty
                & double_rank;
            let attacks = attacks::pawn(us, from);
            let mut to = ((attacks & theirs) | single | double) & pawn_target;
            if pinned.contains(from) {
                to &= attacks::line(ksq, from);
            }
            if let Some(ep) = self.ep {
                if attacks.contains(ep) && self.ep_is_legal(from, ep, ksq) {
                    to |= ep.bb();
                }
            }
            if to.any() && sink(Role::Pawn, from, to) {
                return true;
            }
        }
        false
    }

    /// Castling destinations of the king (not in check is checked by the caller).
    #[inline]
    fn castling_moves(&self, us: Color, occ: Bitboard) -> Bitboard {
        let (king_side, queen_side, rank) = match us {
            Color::White => (rights::WHITE_KING, rights::WHITE_QUEEN, 0),
            Color::Black => (rights::BLACK_KING, rights::BLACK_QUEEN, 7),
        };
        let mut to = Bitboard::EMPTY;
        if self.castling & (king_side | queen_side) == 0 {
            return to;
        }
        let sq = |file| Square::from_coords(file, rank);
        let them = !us;
        if self.castling & king_side != 0
            && (occ & (sq(5).bb() | sq(6).bb())).is_empty()
            && !self.attacked(sq(5), them, occ)
            && !self.attacked(sq(6), them, occ)
        {
            to |= sq(6).bb();
        }
        if self.castling & queen_side != 0
            && (occ & (sq(1).bb() | sq(2).bb() | sq(3).bb())).is_empty()
            && !self.attacked(sq(3), them, occ)
            && !self.attacked(sq(2), them, occ)
        {
            to |= sq(2).bb();
        }
        to
    }

    /// Whether the en-passant capture `from` x `ep` leaves the king safe: recompute every
    /// attack on the king with both pawns gone and the capturer on `ep`.
    fn ep_is_legal(&self, from: Square, ep: Square, ksq: Square) -> bool {
        let captured = Square::from_coords(ep.file(), from.rank());
        let occ = (self.occupied() ^ from.bb() ^ captured.bb()) | ep.bb();
        let them = self.by_color[(!self.side).index()] & !captured.bb();
        let queens = self.role(Role::Queen);
        let attackers = (attacks::rook(ksq, occ) & (self.role(Role::Rook) | queens))
            | (attacks::bishop(ksq, occ) & (self.role(Role::Bishop) | queens))
            | (attacks::knight(ksq) & self.role(Role::Knight))
            | (attacks::pawn(self.side, ksq) & self.role(Role::Pawn));
        (attackers & them).is_empty()
    }

    /// Calls `push` with every legal move of `kind` (promotions in the order Q, R, B, N).
    #[inline]
    pub(crate) fn generate(&self, kind: Kind, mut push: impl FnMut(Move)) {
        let last_rank = Bitboard::rank(match self.side {
            Color::White => 7,
            Color::Black => 0,
        });
        self.for_each_piece_moves(kind, |role, from, to| {
            if role == Role::Pawn && (to & last_rank).any() {
                for sq in to {
                    for promo in Role::PROMOTIONS {
                        push(Move::promotion_to(from, sq, promo));
                    }
                }
            } else {
                for sq in to {
                    push(Move::new(role, from, sq));
                }
            }
            false
        });
    }

    /// Every legal move, appended to `moves` (which is not cleared).
    pub fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.generate(Kind::All, |mv| moves.push(mv));
    }

    /// Captures (en passant included) and promotions (all four pieces, capturing or not); when
    /// in check, every legal evasion instead. Appended to `moves`.
    pub fn tactical_moves(&self, moves: &mut Vec<Move>) {
        self.generate(Kind::Tactical, |mv| moves.push(mv));
    }

    /// The number of legal moves, counted without building them (bulk counting).
    #[inline]
    #[must_use]
    pub fn count_moves(&self) -> u64 {
        let last_rank = Bitboard::rank(match self.side {
            Color::White => 7,
            Color::Black => 0,
        });
        let mut n = 0u64;
        self.for_each_piece_moves(Kind::All, |role, _, to| {
            n += u64::from(to.count());
            if role == Role::Pawn {
                n += 3 * u64::from((to & last_rank).count());
            }
            false
        });
        n
    }

    /// Whether the side to move has any legal move (stops at the first).
    #[must_use]
    pub fn has_legal_moves(&self) -> bool {
        self.for_each_piece_moves(Kind::All, |_, _, _| true)
    }

    /// Whether `mv` is a legal move here.
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut found = false;
        self.generate(Kind::All, |m| found |= m == mv);
        found
    }
}
