//! No heap allocation on the generate/make/unmake path of any registered game.
//!
//! A counting global allocator wraps the system one; after the move buffers are sized, a full
//! perft-style walk of every game must not allocate at all. Only the walking thread's
//! allocations count (a thread-local switch), so the test harness's own threads cannot make the
//! test fail.
// A global allocator cannot be written without `unsafe`: this test file is the one place that
// needs it, and it only forwards to the system allocator.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

use games::{Game, GameId, GameInfo, GameVisitor};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Whether this thread's allocations count (const-initialised: reading it never allocates).
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTED.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: (1) every call forwards to `System` with the caller's own arguments, so `System`'s
// guarantees are kept; the counter is an atomic and does not touch the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: (2) forwarded unchanged; the caller upholds `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: (3) `ptr` came from `System.alloc` with this `layout` (see `alloc`).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: (4) `ptr` came from `System` with `layout`; forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn walk<G: Game>(pos: &mut G, buffers: &mut [Vec<G::Move>], tactical: &mut Vec<G::Move>) -> u64 {
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    pos.generate_moves(moves);
    pos.generate_tactical(tactical);
    let _ = (pos.evaluate(), pos.outcome(), pos.in_check(), pos.hash());
    let mut n = 0;
    for &mv in moves.iter() {
        let _ = pos.move_hint(mv);
        let undo = pos.make_move(mv);
        n += walk(pos, rest, tactical);
        pos.unmake_move(mv, undo);
    }
    n
}

struct NoAlloc;

impl GameVisitor for NoAlloc {
    type Output = ();

    fn visit<G: Game>(self, info: &'static GameInfo) {
        let depth = 4;
        let mut buffers: Vec<Vec<G::Move>> = (0..depth)
            .map(|_| Vec::with_capacity(G::MAX_MOVES))
            .collect();
        let mut tactical = Vec::with_capacity(G::MAX_MOVES);
        let mut pos = G::start();
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        COUNTED.with(|c| c.set(true));
        let leaves = walk(&mut pos, &mut buffers, &mut tactical);
        COUNTED.with(|c| c.set(false));
        let after = ALLOCATIONS.load(Ordering::Relaxed);
        assert!(leaves > 0);
        assert_eq!(after - before, 0, "{} allocated while searching", info.name);
    }
}

#[test]
fn generate_make_unmake_never_allocate() {
    for &game in GameId::ALL {
        game.visit(NoAlloc);
    }
}
