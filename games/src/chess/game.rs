//! `impl Game for Chess`.

use super::board::Board;
use super::error::ChessError;
use super::eval;
use super::moves::{Move, MoveList};
use super::perft;
use super::piece::Role;
use super::position::Chess;
use super::san;
use crate::{Game, Outcome, Side};

impl Game for Chess {
    type Move = Move;
    /// The board before the move (80 bytes): make copies it out, unmake copies it back. Chosen
    /// by benchmark over the incremental [`Board::unplay`] with its 16-byte token (see the module
    /// docs of `chess`).
    type Undo = Board;
    type Error = ChessError;
    const MAX_MOVES: usize = MoveList::CAPACITY;

    fn start() -> Self {
        Chess::new()
    }

    fn parse_position(text: &str) -> Result<Self, ChessError> {
        Chess::from_fen(text)
    }

    fn side_to_move(&self) -> Side {
        self.board.side_to_move().side()
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.draw_rule().is_none() {
            self.board.legal_moves(moves);
        }
    }

    #[inline]
    fn make_move(&mut self, mv: Move) -> Board {
        self.make_copying(mv)
    }

    #[inline]
    fn unmake_move(&mut self, _mv: Move, undo: Board) {
        self.unmake_copying(undo);
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.board.has_legal_moves() {
            Some(if self.board.in_check() {
                Outcome::Loss
            } else {
                Outcome::Draw
            })
        } else if self.draw_rule().is_some() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(&self.board)
    }

    fn hash(&self) -> u64 {
        self.board.hash
    }

    fn compute_hash(&self) -> u64 {
        self.board.compute_hash()
    }

    fn parse_move(&self, text: &str) -> Result<Move, ChessError> {
        let mv = san::parse_move(&self.board, text)?;
        if let Some(rule) = self.draw_rule() {
            return Err(ChessError::GameOver {
                text: text.trim().to_string(),
                reason: rule.describe(),
            });
        }
        Ok(mv)
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    /// MVV-LVA: captures first, most valuable victim first, then cheapest attacker; then
    /// promotions by the piece gained; quiet moves 0.
    fn move_hint(&self, mv: Move) -> i32 {
        self.board.mvv_lva(mv)
    }

    fn generate_tactical(&self, moves: &mut Vec<Move>) -> bool {
        moves.clear();
        if self.draw_rule().is_some() {
            return true;
        }
        self.board.tactical_moves(moves);
        !self.board.in_check()
    }

    fn in_check(&self) -> bool {
        self.board.in_check()
    }

    fn null_move(&self) -> Option<Move> {
        (!self.board.in_check()).then_some(Move::NULL)
    }

    fn has_non_pawn_material(&self) -> bool {
        let b = &self.board;
        let pawns_and_king = b.role(Role::Pawn) | b.role(Role::King);
        (b.color(b.side_to_move()) & !pawns_and_king).any()
    }

    fn see(&self, mv: Move, threshold: i32) -> Option<bool> {
        Some(self.board.see_ge(mv, threshold))
    }

    fn margin_unit(&self) -> Option<i32> {
        Some(100)
    }

    fn perft(&mut self, depth: u32) -> u64 {
        perft::perft_with_rules(self, depth)
    }
}

impl Board {
    /// The MVV-LVA ordering score of `mv` (see `Game::move_hint`).
    #[must_use]
    pub fn mvv_lva(&self, mv: Move) -> i32 {
        let promo = mv.promotion().map_or(0, |r| r.value() * 10);
        let attacker = mv.role();
        let victim = if self.color(!self.side).contains(mv.to()) {
            self.role_on(mv.to())
        } else if attacker == Role::Pawn && mv.from().file() != mv.to().file() {
            Some(Role::Pawn)
        } else {
            None
        };
        match victim {
            Some(v) => 1_000_000 + v.value() * 100 - attacker.value() / 10 + promo,
            None => promo,
        }
    }
}
