//! Static exchange evaluation (SEE): what a move wins or loses in material once every capture
//! on its destination square has been played out, each side capturing with its cheapest
//! attacker and free to stop when going on would lose.
//!
//! The exchange is computed by the swap-list method described on the Chess Programming Wiki
//! ("SEE - The Swap Algorithm"): `gain[d]` is the material balance, for the side making the
//! `d`-th capture, if the exchange stopped right after it; the list is then folded back from the
//! end, each side taking the better of stopping and capturing. Attackers are recomputed from
//! the attack tables after every capture with the capturers removed from the occupancy, so
//! sliders behind a capturer (x-rays: a rook behind a rook, a bishop or queen behind a pawn)
//! join in. Pins and checks are ignored (the usual simplification), and a pawn recapturing on
//! the last rank is counted as a pawn. A king may capture last only: capturing into a square
//! still attacked would lose the king, whose value outweighs everything.

use super::bitboard::Bitboard;
use super::board::Board;
use super::moves::Move;
use super::piece::Role;
use super::square::Square;

/// Exchange values by role index (pawn, knight, bishop, rook, queen, king). Knight and bishop
/// are equal, so trading one for the other is even; the king's value makes capturing into an
/// attacked square never worth it.
pub const SEE_VALUE: [i32; 6] = [100, 320, 320, 500, 950, 20_000];

/// The longest exchange: every piece of both sides (32) can capture at most once.
const MAX_EXCHANGE: usize = 33;

impl Board {
    /// The static exchange value of the legal move `mv` for the side to move, in centipawns
    /// ([`SEE_VALUE`]): the material it wins (positive) or loses (negative) when both sides go
    /// on capturing on its destination square while that pays. A quiet move to a safe square is
    /// 0; castling is 0.
    #[must_use]
    pub fn see(&self, mv: Move) -> i32 {
        if mv.is_null() {
            return 0;
        }
        let (from, to) = (mv.from(), mv.to());
        let us = self.side;
        let mut occ = self.occupied() ^ from.bb();
        let mover = mv.role();
        if mover == Role::King && from.file().abs_diff(to.file()) == 2 {
            return 0;
        }
        let mut first = match self.role_on(to) {
            Some(victim) if self.color(!us).contains(to) => SEE_VALUE[victim.index()],
            _ if mover == Role::Pawn && from.file() != to.file() => {
                // En passant: the captured pawn stands beside the destination.
                let victim = Square::from_coords(to.file(), from.rank());
                occ ^= victim.bb();
                SEE_VALUE[Role::Pawn.index()]
            }
            _ => 0,
        };
        // The piece standing on the destination square, which the next capture takes.
        let mut on_square = SEE_VALUE[mover.index()];
        if let Some(promoted) = mv.promotion() {
            first += SEE_VALUE[promoted.index()] - SEE_VALUE[Role::Pawn.index()];
            on_square = SEE_VALUE[promoted.index()];
        }
        let mut gain = [0i32; MAX_EXCHANGE];
        gain[0] = first;
        let mut depth = 0;
        let mut side = !us;
        let mut attackers = self.attackers(to, occ) & occ;
        loop {
            let ours = attackers & self.color(side);
            let Some((role, sq)) = self.least_valuable(ours) else {
                break;
            };
            depth += 1;
            // Speculative: `side` captures what stands on the square.
            gain[depth] = on_square - gain[depth - 1];
            // Neither stopping nor capturing can make this side better off than
            // `max(-gain[depth - 1], gain[depth])`: if both are negative it stops.
            if (-gain[depth - 1]).max(gain[depth]) < 0 || depth + 1 >= MAX_EXCHANGE {
                break;
            }
            on_square = SEE_VALUE[role.index()];
            occ ^= sq.bb();
            attackers = self.attackers(to, occ) & occ;
            side = !side;
        }
        while depth > 0 {
            gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
            depth -= 1;
        }
        gain[0]
    }

    /// Whether the static exchange value of `mv` ([`Board::see`]) is at least `threshold`.
    #[must_use]
    pub fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        self.see(mv) >= threshold
    }

    /// The cheapest piece among `set` and its square.
    fn least_valuable(&self, set: Bitboard) -> Option<(Role, Square)> {
        if set.is_empty() {
            return None;
        }
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ] {
            if let Some(sq) = (set & self.role(role)).first() {
                return Some((role, sq));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::Game;
    use crate::chess::Chess;

    /// The exchange value of `uci` in `fen`.
    fn see(fen: &str, uci: &str) -> i32 {
        let pos = Chess::parse_position(fen).expect("a valid FEN");
        let mv = pos.parse_move(uci).expect("a legal move");
        pos.board().see(mv)
    }

    #[test]
    fn undefended_and_defended_captures() {
        // A pawn takes an undefended knight: +320.
        assert_eq!(see("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 320);
        // The queen takes a pawn defended by a pawn: 100 - 950.
        assert_eq!(see("4k3/2p5/3p4/8/8/8/3Q4/4K3 w - - 0 1", "d2d6"), -850);
        // A rook takes a rook defended by a rook: the exchange is even (500 - 500).
        assert_eq!(see("3rk3/3r4/8/8/8/8/8/3RK3 w - - 0 1", "d1d7"), 0);
        // Knight takes a bishop defended by a pawn: even by the exchange values.
        assert_eq!(see("4k3/8/2p5/3b4/8/4N3/8/4K3 w - - 0 1", "e3d5"), 0);
    }

    #[test]
    fn x_rays_join_the_exchange() {
        // Doubled white rooks against a pawn on e5 defended by a rook on e8: Rxe5 Rxe5 Rxe5
        // nets the pawn.
        assert_eq!(see("1k2r3/8/8/4p3/8/8/4R3/1K2R3 w - - 0 1", "e2e5"), 100);
        // Without the second white rook the rook is lost for a pawn: 100 - 500.
        assert_eq!(see("1k2r3/8/8/4p3/8/8/4R3/1K6 w - - 0 1", "e2e5"), -400);
        // A queen behind a bishop: Bxd5 exd5 Qxd5 wins the knight and a pawn for the bishop.
        assert_eq!(see("4k3/8/4p3/3n4/8/1B6/Q7/4K3 w - - 0 1", "b3d5"), 100);
    }

    #[test]
    fn quiet_moves_promotions_en_passant_and_the_king() {
        // A knight moving to a safe square is 0; to a square a pawn attacks, it is lost.
        assert_eq!(see("4k3/8/2p5/8/8/8/8/1N2K3 w - - 0 1", "b1d2"), 0);
        assert_eq!(see("4k3/8/2p5/8/8/2N5/8/4K3 w - - 0 1", "c3d5"), -320);
        // A pawn promotes on a square the rook attacks: +850 for the queen, then the rook takes
        // it: 950 - 100 - 950 = -100. Unattacked: +850.
        assert_eq!(see("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), -100);
        assert_eq!(see("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), 850);
        // En passant takes the pawn beside the destination: +100.
        assert_eq!(see("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
        // A knight defended only by its king: the king cannot recapture while the bishop also
        // covers the square (+320); without the bishop, Kxd4 wins the rook for the knight.
        assert_eq!(see("8/8/8/4k3/3n4/8/5B2/3RK3 w - - 0 1", "d1d4"), 320);
        assert_eq!(see("8/8/8/4k3/3n4/8/8/3RK3 w - - 0 1", "d1d4"), -180);
        // Castling is 0.
        assert_eq!(see("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), 0);
    }

    #[test]
    fn the_threshold_compares_the_exchange_value() {
        let pos = Chess::parse_position("4k3/2p5/3p4/8/8/8/3Q4/4K3 w - - 0 1").unwrap();
        let mv = pos.parse_move("d2d6").unwrap();
        assert_eq!(pos.see(mv, 0), Some(false));
        assert_eq!(pos.see(mv, -850), Some(true));
        assert_eq!(pos.see(mv, -849), Some(false));
    }
}
