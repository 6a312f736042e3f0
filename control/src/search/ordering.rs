//! Move ordering: the transposition-table move first, then the game's ordering hints, then
//! killer moves (two per ply), then the history heuristic. In the play setting with SEE
//! ordering, hinted moves that lose material by static exchange ([`Game::see`]) come after the
//! killers and before the other moves. In the play setting with `killers-first`, a game whose
//! hint is only a static preference ([`Game::hint_is_static`]) has its moves ordered killers
//! first, then by history, the hint breaking ties; only the killers then count as more than
//! quiet. Ordering changes only which moves are searched first, never a value.

use std::hash::{Hash, Hasher};

use games::Game;

use super::limits::MAX_PLY;

/// A move whose ordering key is below this is quiet-looking: not the table's move, not hinted
/// by the game, not a killer (only its history orders it); the play setting reduces such moves.
pub(crate) const QUIET_BELOW: i64 = 1 << 26;

/// Moves at or above this key and below [`QUIET_BELOW`] are hinted moves that lose material by
/// static exchange (play setting); below it, quiet moves ordered by history alone.
pub(crate) const LOSING_BASE: i64 = 1 << 25;

/// How the play setting changes the keys ([`OrderingTables::key`]); both off in the research
/// setting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct KeyRules {
    /// Hinted moves that lose material by static exchange go after the killers.
    pub(crate) see: bool,
    /// Where the game's hint is static: killers, then history, then the hint.
    pub(crate) killers_first: bool,
}

/// Below every key of a move that is no killer under [`KeyRules::killers_first`] (the keys of
/// such moves are this plus history and hint, all negative).
const STATIC_BASE: i64 = -(1 << 40);

/// History slots per side (a power of two); moves are hashed into them.
const HISTORY_SLOTS: usize = 4096;
/// History scores stay below this (all are halved when one reaches it).
const HISTORY_MAX: i32 = 1 << 24;

/// A small multiplicative hasher for moves (FNV-like), used to index the history table by any
/// game's move type.
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

fn history_slot<M: Hash>(mv: &M) -> usize {
    let mut h = MoveHasher(0xCBF2_9CE4_8422_2325);
    mv.hash(&mut h);
    let x = h.finish();
    ((x ^ (x >> 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize & (HISTORY_SLOTS - 1)
}

/// Killer moves and history scores of one searcher.
pub(crate) struct OrderingTables<G: Game> {
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
}

impl<G: Game> OrderingTables<G> {
    pub(crate) fn new() -> Self {
        OrderingTables {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * HISTORY_SLOTS],
        }
    }

    /// Forgets everything (a new game).
    pub(crate) fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.history.fill(0);
    }

    /// At the start of a search: killers are forgotten, history decays.
    pub(crate) fn age(&mut self) {
        self.killers.fill([None; 2]);
        for h in &mut self.history {
            *h /= 4;
        }
    }

    /// The ordering key of `mv` at `ply` (larger first): hint, then killer, then history. With
    /// `rules.see`, a hinted move that loses material by static exchange gets a key between the
    /// killers' and the quiet moves' ([`LOSING_BASE`] plus its hint). With
    /// `rules.killers_first` and a static hint: killers (at [`QUIET_BELOW`] and above), then
    /// history, then the hint, every other move's key negative.
    pub(crate) fn key(&self, pos: &G, mv: G::Move, ply: usize, rules: KeyRules) -> i64 {
        let hint = i64::from(pos.move_hint(mv));
        if rules.see && hint > 0 && pos.see(mv, 0) == Some(false) {
            return LOSING_BASE + hint.min(LOSING_BASE - 1);
        }
        let killers = &self.killers[ply];
        let killer = if killers[0] == Some(mv) {
            2
        } else {
            i64::from(killers[1] == Some(mv))
        };
        let side = pos.side_to_move().index();
        let history = i64::from(self.history[side * HISTORY_SLOTS + history_slot(&mv)]);
        if rules.killers_first && pos.hint_is_static() {
            if killer > 0 {
                return killer << 26;
            }
            return STATIC_BASE + (history << 16) + hint.clamp(-(1 << 15), (1 << 15) - 1);
        }
        (hint << 32) + (killer << 26) + history
    }

    /// Whether `mv` is one of the two killers of `ply`.
    pub(crate) fn is_killer(&self, mv: G::Move, ply: usize) -> bool {
        self.killers[ply].contains(&Some(mv))
    }

    /// Records that `mv` caused a cutoff at `ply` with `depth` plies left: the newest killer
    /// of `ply`, and history.
    pub(crate) fn cutoff(&mut self, pos: &G, mv: G::Move, ply: usize, depth: i32) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let slot = pos.side_to_move().index() * HISTORY_SLOTS + history_slot(&mv);
        let bonus = depth.clamp(1, 64);
        self.history[slot] += bonus * bonus;
        if self.history[slot] >= HISTORY_MAX {
            for h in &mut self.history {
                *h /= 2;
            }
        }
    }
}

/// Moves `order[i]` to hold the largest key among `order[i..]` (selection; ties keep the
/// earliest), so a node that cuts off early sorts little.
pub(crate) fn select_next(order: &mut [(i64, u16)], i: usize) {
    let mut best = i;
    for j in i + 1..order.len() {
        if order[j].0 > order[best].0 {
            best = j;
        }
    }
    order.swap(i, best);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_picks_the_largest_and_ties_keep_the_earliest() {
        let mut v = vec![(1, 0), (5, 1), (5, 2), (3, 3)];
        select_next(&mut v, 0);
        assert_eq!(v[0], (5, 1));
        select_next(&mut v, 1);
        assert_eq!(v[1], (5, 2));
        select_next(&mut v, 2);
        assert_eq!(v[2], (3, 3));
    }

    #[test]
    fn killers_first_puts_killers_then_history_above_a_static_hint() {
        use games::othello::Othello8;
        // A middle-game position (`othello_midgame.txt`) with moves of different square weights.
        let pos = Othello8::parse_position(
            "XO--O----O-O-O--XXXXX-O-OOOOOO----XOO-----XXOXX------OO--------- X",
        )
        .unwrap();
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let weight = |m: &games::othello::Move| pos.move_hint(*m);
        let best = *moves.iter().max_by_key(|m| weight(m)).unwrap();
        let worst = *moves.iter().min_by_key(|m| weight(m)).unwrap();
        assert!(weight(&best) > weight(&worst));
        let mut tables = OrderingTables::<Othello8>::new();
        tables.cutoff(&pos, worst, 3, 4);
        let first = KeyRules {
            see: false,
            killers_first: true,
        };
        let old = KeyRules::default();
        // The default: the better square first, the killer only within its weight.
        assert!(tables.key(&pos, best, 3, old) > tables.key(&pos, worst, 3, old));
        // Killers first: the killer, then the other moves, all quiet-looking.
        assert!(tables.key(&pos, worst, 3, first) >= QUIET_BELOW);
        assert!(tables.key(&pos, best, 3, first) < tables.key(&pos, worst, 3, first));
        assert!(tables.key(&pos, best, 3, first) < QUIET_BELOW);
        // At another ply the same move is no killer; its history still puts it above the
        // better square, which has none.
        assert!(tables.key(&pos, worst, 4, first) < QUIET_BELOW);
        assert!(tables.key(&pos, worst, 4, first) > tables.key(&pos, best, 4, first));
        // Without history either, the hint decides.
        let fresh = OrderingTables::<Othello8>::new();
        assert!(fresh.key(&pos, best, 3, first) > fresh.key(&pos, worst, 3, first));
        // A game whose hints are tactical keeps the default order.
        let chess = games::chess::Chess::start();
        let mut chess_moves = Vec::new();
        chess.generate_moves(&mut chess_moves);
        let chess_tables = OrderingTables::<games::chess::Chess>::new();
        for &m in &chess_moves {
            assert_eq!(
                chess_tables.key(&chess, m, 0, first),
                chess_tables.key(&chess, m, 0, old)
            );
        }
    }

    #[test]
    fn history_slots_spread_moves() {
        let slots: std::collections::HashSet<_> = (0u16..64).map(|m| history_slot(&m)).collect();
        assert!(slots.len() > 56, "{}", slots.len());
    }
}
