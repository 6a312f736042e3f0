//! Perft (leaf counting) over any [`Game`], with bulk counting at the last ply and `divide`.

use crate::Game;

/// Leaves of the legal-move tree of exactly `depth` plies below `pos`, counting the last ply in
/// bulk (the number of moves, without making them). Games that end before `depth` contribute 0.
pub fn generic_perft<G: Game>(pos: &mut G, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..depth.max(1))
        .map(|_| Vec::with_capacity(G::MAX_MOVES))
        .collect();
    perft_with(pos, depth, &mut buffers)
}

fn perft_with<G: Game>(pos: &mut G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    let Some((moves, rest)) = buffers.split_first_mut().filter(|_| depth > 0) else {
        return 1;
    };
    pos.generate_moves(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let undo = pos.make_move(mv);
        total += perft_with(pos, depth - 1, rest);
        pos.unmake_move(mv, undo);
    }
    total
}

/// Perft of every root move: `(move text, leaves)` in generation order. Uses the game's own
/// (possibly specialised) [`Game::perft`] below the root.
pub fn divide<G: Game>(pos: &G, depth: u32) -> Vec<(String, u64)> {
    let mut moves = Vec::with_capacity(G::MAX_MOVES);
    pos.generate_moves(&mut moves);
    if depth == 0 {
        return Vec::new();
    }
    let mut work = pos.clone();
    moves
        .into_iter()
        .map(|mv| {
            let text = work.format_move(mv);
            let undo = work.make_move(mv);
            let n = work.perft(depth - 1);
            work.unmake_move(mv, undo);
            (text, n)
        })
        .collect()
}

/// Perft without bulk counting: every leaf move is made and unmade (the "full" figure some
/// benchmarks quote).
pub fn perft_full<G: Game>(pos: &mut G, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..depth)
        .map(|_| Vec::with_capacity(G::MAX_MOVES))
        .collect();
    full_with(pos, &mut buffers)
}

fn full_with<G: Game>(pos: &mut G, buffers: &mut [Vec<G::Move>]) -> u64 {
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    pos.generate_moves(moves);
    let mut total = 0;
    for &mv in moves.iter() {
        let undo = pos.make_move(mv);
        total += full_with(pos, rest);
        pos.unmake_move(mv, undo);
    }
    total
}
