//! N-queens solution counting as a DIB application: a bitmask depth-first search with an
//! explicit stack, whose shallowest unexplored rows are handed off on request.

use serde::{Deserialize, Serialize};

use crate::application::{Application, Effects, Piece, Search, Slot, Step};

/// Placements of queens on the first `row` rows, as the squares they attack in row `row`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// Board size.
    pub n: u8,
    /// Rows filled so far.
    pub row: u8,
    /// Columns taken.
    pub cols: u32,
    /// Squares of row `row` attacked along one diagonal.
    pub left: u32,
    /// Squares of row `row` attacked along the other diagonal.
    pub right: u32,
}

impl Board {
    /// The empty `n` x `n` board (1 to 31).
    #[must_use]
    pub fn empty(n: u8) -> Board {
        Board {
            n: n.clamp(1, 31),
            row: 0,
            cols: 0,
            left: 0,
            right: 0,
        }
    }

    fn full(&self) -> u32 {
        (1u32 << self.n) - 1
    }

    fn free(&self) -> u32 {
        self.full() & !(self.cols | self.left | self.right)
    }

    fn place(&self, bit: u32) -> Board {
        Board {
            n: self.n,
            row: self.row + 1,
            cols: self.cols | bit,
            left: ((self.left | bit) << 1) & self.full(),
            right: (self.right | bit) >> 1,
        }
    }
}

/// Counts solutions below `board` sequentially: `(solutions, nodes)` where a node is one
/// queen placed.
#[must_use]
pub fn count_sequential(board: &Board) -> (u64, u64) {
    fn go(b: &Board, nodes: &mut u64) -> u64 {
        if b.row == b.n {
            return 1;
        }
        let mut free = b.free();
        let mut total = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free &= free - 1;
            *nodes += 1;
            total += go(&b.place(bit), nodes);
        }
        total
    }
    let mut nodes = 0;
    let s = go(board, &mut nodes);
    (s, nodes)
}

/// The application: counts solutions; pieces are never smaller than `min_rows` rows.
#[derive(Clone, Copy, Debug)]
pub struct NQueens {
    /// Granularity: a board with fewer rows left than this is never handed off.
    pub min_rows: u8,
}

impl Application for NQueens {
    type Problem = Board;
    type Value = u64;
    type Update = ();
    type Search = QueensSearch;

    fn start(&self, problem: &Board) -> QueensSearch {
        QueensSearch {
            min_rows: self.min_rows,
            stack: vec![(*problem, problem.free())],
            solutions: u64::from(problem.row == problem.n),
            outstanding: 0,
        }
    }
}

/// A running count: a stack of boards with the columns still to try in their next row.
#[derive(Debug)]
pub struct QueensSearch {
    min_rows: u8,
    stack: Vec<(Board, u32)>,
    solutions: u64,
    outstanding: u32,
}

impl Search<NQueens> for QueensSearch {
    fn step(&mut self, budget: u64, fx: &mut Effects<()>) -> Step<u64> {
        let mut nodes = 0;
        while nodes < budget {
            let Some((board, free)) = self.stack.last_mut() else {
                break;
            };
            if *free == 0 {
                self.stack.pop();
                continue;
            }
            let bit = *free & free.wrapping_neg();
            *free &= *free - 1;
            nodes += 1;
            let child = board.place(bit);
            if child.row == child.n {
                self.solutions += 1;
            } else {
                let f = child.free();
                self.stack.push((child, f));
            }
        }
        fx.charge(nodes);
        if !self.stack.is_empty() {
            Step::Continue
        } else if self.outstanding > 0 {
            Step::Blocked
        } else {
            Step::Done(self.solutions)
        }
    }

    fn split(&mut self, fx: &mut Effects<()>) -> Vec<Piece<Board>> {
        let min_rows = self.min_rows;
        let Some((board, free)) = self
            .stack
            .iter_mut()
            .find(|(b, f)| *f != 0 && b.n - b.row > min_rows)
        else {
            return Vec::new();
        };
        let mut pieces = Vec::new();
        while *free != 0 {
            let bit = *free & free.wrapping_neg();
            *free &= *free - 1;
            pieces.push(Piece {
                slot: 0,
                problem: board.place(bit),
            });
        }
        self.outstanding += pieces.len() as u32;
        // Placing each piece's queen is a node searched here.
        fx.charge(pieces.len() as u64);
        pieces
    }

    fn absorb(&mut self, _slot: Slot, value: u64, _fx: &mut Effects<()>) {
        self.solutions += value;
        self.outstanding -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequential_counts_match_the_known_numbers() {
        let known = [1, 0, 0, 2, 10, 4, 40, 92];
        for (i, &k) in known.iter().enumerate() {
            assert_eq!(
                count_sequential(&Board::empty(i as u8 + 1)).0,
                k,
                "n={}",
                i + 1
            );
        }
    }

    #[test]
    fn the_search_in_slices_with_splits_counts_the_same() {
        let app = NQueens { min_rows: 2 };
        let mut s = app.start(&Board::empty(8));
        let mut fx = Effects::default();
        let mut total = 0;
        let mut pieces = Vec::new();
        loop {
            pieces.extend(s.split(&mut fx));
            match s.step(7, &mut fx) {
                Step::Continue => {}
                Step::Blocked => {
                    let p: Piece<Board> = pieces.pop().unwrap();
                    let v = count_sequential(&p.problem).0;
                    s.absorb(p.slot, v, &mut fx);
                }
                Step::Done(v) => {
                    total += v;
                    break;
                }
            }
        }
        assert_eq!(total, 92);
        assert!(fx.nodes() < count_sequential(&Board::empty(8)).1);
    }
}
