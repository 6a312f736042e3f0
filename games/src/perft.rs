//! Perft (leaf counting) over any [`Game`], with bulk counting at the last ply and `divide`.

use std::any::Any;
use std::cell::RefCell;

use crate::Game;

thread_local! {
    /// Move buffers kept between [`generic_perft`] calls on this thread, one set per move type
    /// (as `Vec<Vec<Move>>` behind `Any`). Parallel perft counts small subtrees with hundreds of
    /// thousands of short calls (4x4 tic-tac-toe at depth 8: 524,160 calls of depth 3), where
    /// allocating and freeing the buffers on every call cost 2 % of the run.
    static BUFFERS: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// This thread's kept buffers for `G`, taken out of the pool (empty if there are none: the first
/// call, or a nested one).
fn take_buffers<G: Game>() -> Vec<Vec<G::Move>> {
    BUFFERS
        .try_with(|pool| {
            pool.borrow_mut()
                .iter_mut()
                .find_map(|b| b.downcast_mut::<Vec<Vec<G::Move>>>())
                .map(std::mem::take)
        })
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// Puts `buffers` back for the next call on this thread (keeping the larger set).
fn keep_buffers<G: Game>(buffers: Vec<Vec<G::Move>>) {
    let _ = BUFFERS.try_with(|pool| {
        let mut pool = pool.borrow_mut();
        match pool
            .iter_mut()
            .find_map(|b| b.downcast_mut::<Vec<Vec<G::Move>>>())
        {
            Some(slot) if slot.len() >= buffers.len() => {}
            Some(slot) => *slot = buffers,
            None => pool.push(Box::new(buffers)),
        }
    });
}

/// Leaves of the legal-move tree of exactly `depth` plies below `pos`, counting the last ply in
/// bulk (the number of moves, without making them). Games that end before `depth` contribute 0.
/// The move buffers are kept per thread between calls, so repeated calls do not allocate.
pub fn generic_perft<G: Game>(pos: &mut G, depth: u32) -> u64 {
    let levels = depth.max(1) as usize;
    let mut buffers = take_buffers::<G>();
    while buffers.len() < levels {
        buffers.push(Vec::with_capacity(G::MAX_MOVES));
    }
    let leaves = perft_with(pos, depth, &mut buffers[..levels]);
    keep_buffers::<G>(buffers);
    leaves
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
