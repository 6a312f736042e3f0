//! [`Board`]: the rules state of a chess position (pieces, side to move, castling rights,
//! en-passant square, move counters, hash) and how a move changes it.
//!
//! A `Board` is `Copy` (80 bytes) and [`Board::play`] updates it in place, so the move
//! generator's own perft uses copy-make; the `Game` implementation on
//! [`super::Chess`] keeps the previous `Board` as its undo token (see the module docs of
//! [`super`]). Checkers and pins are not stored: move generation computes them once per node
//! ([`Board::checks_and_pins`]), so playing a move that is never expanded (a perft leaf, a
//! pruned child) does not pay for them.

use super::attacks;
use super::bitboard::Bitboard;
use super::color::Color;
use super::moves::Move;
use super::piece::{Piece, Role};
use super::square::Square;
use super::zobrist;

/// What [`Board::unplay`] needs to take a move back: the captured piece and the fields a move
/// cannot recompute backwards (16 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: Option<Role>,
    castling: u8,
    ep: Option<Square>,
    halfmove: u16,
    fullmove: u16,
    hash: u64,
}

/// Castling rights as bits: White king side, White queen side, Black king side, Black queen side.
pub(crate) mod rights {
    /// White may castle king side (e1g1).
    pub const WHITE_KING: u8 = 1;
    /// White may castle queen side (e1c1).
    pub const WHITE_QUEEN: u8 = 2;
    /// Black may castle king side (e8g8).
    pub const BLACK_KING: u8 = 4;
    /// Black may castle queen side (e8c8).
    pub const BLACK_QUEEN: u8 = 8;
}

/// Rights kept when a move starts or ends on a square (a move touching a king or rook home
/// square removes the rights that need it there).
static KEEP_RIGHTS: [u8; 64] = {
    let mut keep = [0xF; 64];
    keep[0] = !rights::WHITE_QUEEN & 0xF;
    keep[4] = !(rights::WHITE_KING | rights::WHITE_QUEEN) & 0xF;
    keep[7] = !rights::WHITE_KING & 0xF;
    keep[56] = !rights::BLACK_QUEEN & 0xF;
    keep[60] = !(rights::BLACK_KING | rights::BLACK_QUEEN) & 0xF;
    keep[63] = !rights::BLACK_KING & 0xF;
    keep
};

/// The rules state of a position. Construct it by parsing FEN ([`super::Chess`]) or from
/// [`Board::start`]; it is then kept consistent by [`Board::play`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    pub(crate) by_role: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) side: Color,
    /// [`rights`] bits.
    pub(crate) castling: u8,
    /// Stored only when a pawn of the side to move stands ready to capture en passant
    /// (pseudo-legally), so equal positions compare and hash equal.
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) hash: u64,
}

impl Board {
    /// An empty board (no king: not a valid position until pieces are added and
    /// [`Board::finish`] runs).
    pub(crate) const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            side: Color::White,
            castling: 0,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
        }
    }

    /// Puts `piece` on the (empty) square `sq`.
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role.index()] |= sq.bb();
        self.by_color[piece.color.index()] |= sq.bb();
    }

    /// Recomputes the hash after the fields were set directly.
    pub(crate) fn finish(&mut self) {
        self.hash = self.compute_hash();
    }

    /// The initial position.
    #[must_use]
    pub fn start() -> Board {
        let mut b = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, role) in (0u8..).zip(back) {
            for (color, back_rank, pawn_rank) in [(Color::White, 0, 1), (Color::Black, 7, 6)] {
                b.put(Square::from_coords(file, back_rank), Piece { color, role });
                b.put(
                    Square::from_coords(file, pawn_rank),
                    Piece {
                        color,
                        role: Role::Pawn,
                    },
                );
            }
        }
        b.castling = 0xF;
        b.finish();
        b
    }

    /// The side to move.
    #[must_use]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// Every occupied square.
    #[inline]
    #[must_use]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `color`'s pieces.
    #[inline]
    #[must_use]
    pub fn color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of pieces of kind `role` (both colours).
    #[inline]
    #[must_use]
    pub fn role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of `color`'s pieces of kind `role`.
    #[inline]
    #[must_use]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_role[role.index()] & self.by_color[color.index()]
    }

    /// The king square of `color`.
    #[inline]
    #[must_use]
    pub fn king(&self, color: Color) -> Square {
        let kings = self.pieces(color, Role::King);
        Square::new_masked(kings.0.trailing_zeros() & 63)
    }

    /// The kind of piece on `sq`, if any.
    #[inline]
    #[must_use]
    pub fn role_on(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Some(self.role_on_occupied(sq))
    }

    /// The kind of piece on `sq`, which must be occupied; without branches (the index is the
    /// sum of `role index * [role has sq]`, and exactly one role has it).
    #[inline]
    pub(crate) fn role_on_occupied(&self, sq: Square) -> Role {
        let shift = sq.index();
        let mut index = 0;
        for (i, bb) in self.by_role.iter().enumerate().skip(1) {
            index += i * ((bb.0 >> shift) & 1) as usize;
        }
        Role::from_index(index).unwrap_or(Role::Pawn)
    }

    /// The piece on `sq`, if any.
    #[must_use]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        let role = self.role_on(sq)?;
        let color = if self.by_color[0].contains(sq) {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }

    /// The castling-rights bits (see `board::rights`).
    #[must_use]
    pub const fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// The en-passant target square, when a capture there is pseudo-legal.
    #[must_use]
    pub const fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Half-moves since the last capture or pawn move (the 50-move rule counter).
    #[must_use]
    pub const fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The move number (starts at 1, increases after Black moves).
    #[must_use]
    pub const fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The incrementally updated Zobrist hash.
    #[must_use]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// Pieces giving check to the side to move.
    #[must_use]
    pub fn checkers(&self) -> Bitboard {
        self.checks_and_pins().0
    }

    /// Whether the side to move is in check.
    #[must_use]
    pub fn in_check(&self) -> bool {
        let us = self.side;
        self.attacked(self.king(us), !us, self.occupied())
    }

    /// Whether `sq` is attacked by `by`'s pieces, with `occ` as the blockers.
    #[inline]
    #[must_use]
    pub fn attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.by_color[by.index()];
        let leapers = (attacks::knight(sq) & self.by_role[Role::Knight.index()])
            | (attacks::king(sq) & self.by_role[Role::King.index()])
            | (attacks::pawn(!by, sq) & self.by_role[Role::Pawn.index()]);
        if (leapers & them).any() {
            return true;
        }
        let queens = self.by_role[Role::Queen.index()];
        let rooks = (self.by_role[Role::Rook.index()] | queens) & them;
        let bishops = (self.by_role[Role::Bishop.index()] | queens) & them;
        (attacks::rook(sq, occ) & rooks).any() || (attacks::bishop(sq, occ) & bishops).any()
    }

    /// All pieces of either colour attacking `sq` with blockers `occ`.
    #[must_use]
    pub fn attackers(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let queens = self.role(Role::Queen);
        (attacks::knight(sq) & self.role(Role::Knight))
            | (attacks::king(sq) & self.role(Role::King))
            | (attacks::pawn(Color::White, sq) & self.pieces(Color::Black, Role::Pawn))
            | (attacks::pawn(Color::Black, sq) & self.pieces(Color::White, Role::Pawn))
            | (attacks::rook(sq, occ) & (self.role(Role::Rook) | queens))
            | (attacks::bishop(sq, occ) & (self.role(Role::Bishop) | queens))
    }

    /// The pieces giving check to the side to move, and the pieces of the side to move pinned
    /// to their king (by a slider with exactly that one piece in between).
    #[inline]
    #[must_use]
    pub fn checks_and_pins(&self) -> (Bitboard, Bitboard) {
        let us = self.side;
        let ksq = self.king(us);
        let them = self.by_color[(!us).index()];
        let occ = self.occupied();
        let mut checkers = ((attacks::knight(ksq) & self.by_role[Role::Knight.index()])
            | (attacks::pawn(us, ksq) & self.by_role[Role::Pawn.index()]))
            & them;
        let queens = self.by_role[Role::Queen.index()];
        let snipers = ((attacks::rook(ksq, Bitboard::EMPTY)
            & (self.by_role[Role::Rook.index()] | queens))
            | (attacks::bishop(ksq, Bitboard::EMPTY)
                & (self.by_role[Role::Bishop.index()] | queens)))
            & them;
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let blockers = attacks::between(ksq, s) & occ;
            if blockers.is_empty() {
                checkers |= s.bb();
            } else if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        (checkers, pinned & self.by_color[us.index()])
    }

    /// Whether a pawn of the side to move could capture en passant on `ep` (pseudo-legally):
    /// the condition for storing the square.
    pub(crate) fn ep_capturable(&self, ep: Square) -> bool {
        (attacks::pawn(!self.side, ep) & self.pieces(self.side, Role::Pawn)).any()
    }

    /// Plays `mv`, which must be legal here (or [`Move::NULL`] when not in check). Updates
    /// every field, the hash included. Returns the role of the piece captured on the
    /// destination square (`None` for en passant, whose pawn stands elsewhere).
    #[inline]
    pub fn play(&mut self, mv: Move) -> Option<Role> {
        let us = self.side;
        let them = !us;
        let mut hash = self.hash ^ zobrist::BLACK_TO_MOVE;
        if let Some(ep) = self.ep.take() {
            hash ^= zobrist::EP_FILE[usize::from(ep.file())];
        }
        // Black's move completes a move pair (`Color::Black as u16` is 1).
        self.fullmove = self.fullmove.saturating_add(us as u16);
        self.side = them;
        if mv.is_null() {
            // A pass is irreversible for repetition purposes (see the module docs of `chess`).
            self.halfmove = 0;
            self.hash = hash;
            return None;
        }
        let mut halfmove = self.halfmove.saturating_add(1);
        let (from, to) = (mv.from(), mv.to());
        let (from_bb, to_bb) = (from.bb(), to.bb());
        let role = mv.role();
        debug_assert!(
            self.pieces(us, role).contains(from),
            "no {role:?} of the side to move on {from} for {mv}"
        );
        let captures = (self.by_color[them.index()] & to_bb).any();
        let mut captured = None;
        if captures {
            let victim = self.role_on_occupied(to);
            self.by_role[victim.index()] ^= to_bb;
            self.by_color[them.index()] ^= to_bb;
            hash ^= zobrist::piece(them, victim, to);
            halfmove = 0;
            captured = Some(victim);
        }
        self.by_color[us.index()] ^= from_bb | to_bb;
        match mv.promotion() {
            None => {
                self.by_role[role.index()] ^= from_bb | to_bb;
                hash ^= zobrist::piece(us, role, from) ^ zobrist::piece(us, role, to);
            }
            Some(promoted) => {
                self.by_role[Role::Pawn.index()] ^= from_bb;
                self.by_role[promoted.index()] ^= to_bb;
                hash ^= zobrist::piece(us, Role::Pawn, from) ^ zobrist::piece(us, promoted, to);
            }
        }
        match role {
            Role::Pawn => {
                halfmove = 0;
                if from.index().abs_diff(to.index()) == 16 {
                    let ep = Square::new_masked(((from.index() + to.index()) / 2) as u32);
                    // `self.side` is already the opponent: can one of its pawns take?
                    if self.ep_capturable(ep) {
                        self.ep = Some(ep);
                        hash ^= zobrist::EP_FILE[usize::from(ep.file())];
                    }
                } else if !captures && from.file() != to.file() {
                    // A diagonal pawn move to an empty square: en passant.
                    let victim = Square::from_coords(to.file(), from.rank());
                    self.by_role[Role::Pawn.index()] ^= victim.bb();
                    self.by_color[them.index()] ^= victim.bb();
                    hash ^= zobrist::piece(them, Role::Pawn, victim);
                }
            }
            Role::King if from.file().abs_diff(to.file()) == 2 => {
                let rank = from.rank();
                let (rook_from, rook_to) = if to.file() == 6 {
                    (Square::from_coords(7, rank), Square::from_coords(5, rank))
                } else {
                    (Square::from_coords(0, rank), Square::from_coords(3, rank))
                };
                let rook_bb = rook_from.bb() | rook_to.bb();
                self.by_role[Role::Rook.index()] ^= rook_bb;
                self.by_color[us.index()] ^= rook_bb;
                hash ^= zobrist::piece(us, Role::Rook, rook_from)
                    ^ zobrist::piece(us, Role::Rook, rook_to);
            }
            _ => {}
        }
        if self.castling != 0 {
            let rights = self.castling & KEEP_RIGHTS[from.index()] & KEEP_RIGHTS[to.index()];
            hash ^= zobrist::CASTLING[usize::from(self.castling)]
                ^ zobrist::CASTLING[usize::from(rights)];
            self.castling = rights;
        }
        self.halfmove = halfmove;
        self.hash = hash;
        captured
    }

    /// Plays `mv` and returns what [`Board::unplay`] needs to take it back.
    #[inline]
    pub fn play_with_undo(&mut self, mv: Move) -> Undo {
        let mut undo = Undo {
            captured: None,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
        };
        undo.captured = self.play(mv);
        undo
    }

    /// Takes back `mv`, the last move played, with the token [`Board::play_with_undo`]
    /// returned: the inverse bit operations of [`Board::play`], then the saved fields.
    pub fn unplay(&mut self, mv: Move, undo: Undo) {
        let them = self.side;
        let us = !them;
        self.side = us;
        self.fullmove = undo.fullmove;
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
        if mv.is_null() {
            return;
        }
        let (from, to) = (mv.from(), mv.to());
        let (from_bb, to_bb) = (from.bb(), to.bb());
        let role = mv.role();
        self.by_color[us.index()] ^= from_bb | to_bb;
        match mv.promotion() {
            None => self.by_role[role.index()] ^= from_bb | to_bb,
            Some(promoted) => {
                self.by_role[Role::Pawn.index()] ^= from_bb;
                self.by_role[promoted.index()] ^= to_bb;
            }
        }
        if let Some(victim) = undo.captured {
            self.by_role[victim.index()] ^= to_bb;
            self.by_color[them.index()] ^= to_bb;
            return;
        }
        match role {
            Role::Pawn if from.file() != to.file() => {
                let victim = Square::from_coords(to.file(), from.rank()).bb();
                self.by_role[Role::Pawn.index()] ^= victim;
                self.by_color[them.index()] ^= victim;
            }
            Role::King if from.file().abs_diff(to.file()) == 2 => {
                let rank = from.rank();
                let rooks = if to.file() == 6 {
                    Square::from_coords(7, rank).bb() | Square::from_coords(5, rank).bb()
                } else {
                    Square::from_coords(0, rank).bb() | Square::from_coords(3, rank).bb()
                };
                self.by_role[Role::Rook.index()] ^= rooks;
                self.by_color[us.index()] ^= rooks;
            }
            _ => {}
        }
    }

    /// The hash computed from scratch (equal to [`Board::hash`] at all times).
    #[must_use]
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in self.pieces(color, role) {
                    h ^= zobrist::piece(color, role, sq);
                }
            }
        }
        if self.side == Color::Black {
            h ^= zobrist::BLACK_TO_MOVE;
        }
        h ^= zobrist::CASTLING[usize::from(self.castling & 0xF)];
        if let Some(ep) = self.ep {
            h ^= zobrist::EP_FILE[usize::from(ep.file())];
        }
        h
    }

    /// Whether neither side can ever checkmate, whatever the play: no pawns, rooks or queens,
    /// and either at most one minor piece in all or only bishops all on squares of one colour.
    #[must_use]
    pub fn insufficient_material(&self) -> bool {
        let heavy = self.role(Role::Pawn) | self.role(Role::Rook) | self.role(Role::Queen);
        if heavy.any() {
            return false;
        }
        let minors = self.role(Role::Knight) | self.role(Role::Bishop);
        if minors.count() <= 1 {
            return true;
        }
        let bishops = self.role(Role::Bishop);
        self.role(Role::Knight).is_empty()
            && ((bishops & Bitboard::LIGHT).is_empty() || (bishops & !Bitboard::LIGHT).is_empty())
    }
}
