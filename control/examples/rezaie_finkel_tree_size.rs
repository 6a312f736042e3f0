//! Tree sizes of Rezaie and Finkel's 4x4 tic-tac-toe experiment (depth 9 below a root with one X)
//! under several readings of what the paper left unsaid: the static evaluator, whether a completed
//! line ends the game before depth 9, which root, and what counts as a node. Plain fail-soft
//! negamax alpha-beta in generation order, optionally with EC sorting (a 3-ply look-ahead at the
//! top node, every eldest child and every other type-1 node) and DMWF's promoted type-1
//! children (static value at or above the nearest-rank 90th percentile of their siblings').
//!
//! With the game's own evaluator and a line ending the game, the counts equal those that
//! `runner search --algo mwf|dmwf --procs 1 --backend sim --unsorted [--sort ec
//! --expansion-depth 3 --min-split-depth 2] --json` reports for the same root (`nodes` and
//! `sort_nodes`; docs/rezaie-finkel.md lists them for the corner root).
//!
//! `cargo run --release -p control --example rezaie_finkel_tree_size`

use games::Game;
use games::score::INFINITY;
use games::tictactoe::TicTacToe4;

/// The static evaluator at the search's leaves and in the look-ahead.
#[derive(Clone, Copy, PartialEq)]
enum Eval {
    /// The game's open-lines potential.
    Potential,
    /// Win, draw or loss only: every position without a completed line is 0.
    WinDrawLoss,
}

#[derive(Clone, Copy, PartialEq)]
enum Sorting {
    None,
    /// EC sorting, MWF's type-1 nodes.
    Ec,
    /// EC sorting with DMWF's promoted type-1 children.
    EcDmwf,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    One,
    Two,
    Three,
}

struct Reading {
    eval: Eval,
    /// Whether a completed line ends the game (otherwise only the leaves look for one).
    line_ends_game: bool,
    sorting: Sorting,
}

#[derive(Default, Clone, Copy)]
struct Counts {
    /// Every node entered (the project's count).
    all: u64,
    /// Nodes whose children were searched.
    interior: u64,
    /// Nodes evaluated: depth 0, a finished game or no moves.
    leaves: u64,
    /// Look-ahead nodes of the sorting, apart.
    sort: u64,
}

impl Counts {
    fn add(&mut self, o: Counts) {
        self.all += o.all;
        self.interior += o.interior;
        self.leaves += o.leaves;
        self.sort += o.sort;
    }
}

struct Search {
    r: Reading,
    c: Counts,
}

impl Search {
    fn static_value(&self, pos: &TicTacToe4, ply: u32) -> i32 {
        if let Some(o) = pos.outcome() {
            return o.score(ply);
        }
        match self.r.eval {
            Eval::Potential => pos.evaluate(),
            Eval::WinDrawLoss => 0,
        }
    }

    fn ended(&self, pos: &TicTacToe4) -> bool {
        self.r.line_ends_game && pos.outcome().is_some()
    }

    /// The look-ahead of `control/src/search/sorting.rs`.
    #[allow(clippy::too_many_arguments)]
    fn look_ahead(
        &mut self,
        pos: &TicTacToe4,
        empty: &[<TicTacToe4 as Game>::Move],
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        self.c.sort += 1;
        if self.ended(pos) || depth == 0 {
            return self.static_value(pos, ply);
        }
        let moves = empty.to_vec();
        if moves.is_empty() {
            return self.static_value(pos, ply);
        }
        let mut best = -INFINITY;
        for &mv in &moves {
            let mut child = *pos;
            child.make_move(mv);
            let rest: Vec<_> = moves.iter().copied().filter(|&m| m != mv).collect();
            let v = -self.look_ahead(&child, &rest, depth - 1, -beta, -alpha, ply + 1);
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    fn sort(
        &mut self,
        pos: &TicTacToe4,
        moves: &mut Vec<<TicTacToe4 as Game>::Move>,
        depth: u32,
        ply: u32,
    ) {
        let expansion = depth.min(3);
        let mut best = -INFINITY;
        let mut keyed = Vec::with_capacity(moves.len());
        for &mv in moves.iter() {
            let mut child = *pos;
            child.make_move(mv);
            let rest: Vec<_> = moves.iter().copied().filter(|&m| m != mv).collect();
            let v = -self.look_ahead(&child, &rest, expansion - 1, -INFINITY, -best, ply + 1);
            best = best.max(v);
            keyed.push((v, mv));
        }
        keyed.sort_by_key(|e| std::cmp::Reverse(e.0));
        *moves = keyed.into_iter().map(|e| e.1).collect();
    }

    /// DMWF: which children of a type-1 node are type 1.
    fn promoted(&self, pos: &TicTacToe4, moves: &[<TicTacToe4 as Game>::Move]) -> Vec<bool> {
        let statics: Vec<i32> = moves
            .iter()
            .map(|&mv| {
                let mut child = *pos;
                child.make_move(mv);
                -child.evaluate()
            })
            .collect();
        let mut sorted = statics.clone();
        sorted.sort_unstable();
        let n = sorted.len();
        let threshold = sorted[(90 * n).div_ceil(100).clamp(1, n) - 1];
        statics.iter().map(|&s| s >= threshold).collect()
    }

    #[allow(clippy::too_many_arguments)]
    fn ab(
        &mut self,
        pos: &TicTacToe4,
        empty: &[<TicTacToe4 as Game>::Move],
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: u32,
        kind: Kind,
        eldest: bool,
    ) -> i32 {
        self.c.all += 1;
        if self.ended(pos) || depth == 0 {
            self.c.leaves += 1;
            return self.static_value(pos, ply);
        }
        // Play goes on after a completed line in the second reading: the empty cells, in the
        // generation order.
        let mut moves = empty.to_vec();
        if moves.is_empty() {
            self.c.leaves += 1;
            return self.static_value(pos, ply);
        }
        self.c.interior += 1;
        if self.r.sorting != Sorting::None && (ply == 0 || eldest || kind == Kind::One) {
            self.sort(pos, &mut moves, depth, ply);
        }
        let promoted = if self.r.sorting == Sorting::EcDmwf && kind == Kind::One && depth >= 2 {
            self.promoted(pos, &moves)
        } else {
            Vec::new()
        };
        let mut best = -INFINITY;
        for (i, &mv) in moves.iter().enumerate() {
            let child_kind = match kind {
                Kind::One if i == 0 || promoted.get(i).copied().unwrap_or(false) => Kind::One,
                Kind::One | Kind::Three => Kind::Two,
                Kind::Two => Kind::Three,
            };
            let mut child = *pos;
            child.make_move(mv);
            let rest: Vec<_> = empty.iter().copied().filter(|&m| m != mv).collect();
            let a = alpha.max(best);
            let v = -self.ab(
                &child,
                &rest,
                depth - 1,
                -beta,
                -a,
                ply + 1,
                child_kind,
                i == 0,
            );
            best = best.max(v);
            if best >= beta {
                break;
            }
        }
        best
    }
}

fn count(root: &TicTacToe4, r: Reading) -> Counts {
    let mut s = Search {
        r,
        c: Counts::default(),
    };
    let mut empty = Vec::new();
    root.generate_moves(&mut empty);
    let _ = s.ab(root, &empty, 9, -INFINITY, INFINITY, 0, Kind::One, true);
    s.c
}

fn main() {
    let roots = [
        ("corner", "X---/----/----/----"),
        ("edge", "-X--/----/----/----"),
        ("centre", "----/-X--/----/----"),
    ];
    println!(
        "| evaluator | line ends game | sorting | root | all nodes | interior | leaves | look-ahead |"
    );
    println!("| --- | --- | --- | --- | ---: | ---: | ---: | ---: |");
    for sorting in [Sorting::None, Sorting::Ec, Sorting::EcDmwf] {
        for eval in [Eval::Potential, Eval::WinDrawLoss] {
            for line_ends_game in [true, false] {
                let mut total = Counts::default();
                for (name, text) in roots {
                    let root = TicTacToe4::parse_position(text).expect("a valid root");
                    let c = count(
                        &root,
                        Reading {
                            eval,
                            line_ends_game,
                            sorting,
                        },
                    );
                    total.add(c);
                    row(eval, line_ends_game, sorting, name, c);
                }
                let mean = Counts {
                    all: total.all / 3,
                    interior: total.interior / 3,
                    leaves: total.leaves / 3,
                    sort: total.sort / 3,
                };
                row(eval, line_ends_game, sorting, "mean of 3", mean);
            }
        }
    }
}

fn row(eval: Eval, line_ends_game: bool, sorting: Sorting, root: &str, c: Counts) {
    let e = match eval {
        Eval::Potential => "potential",
        Eval::WinDrawLoss => "win/draw/loss",
    };
    let s = match sorting {
        Sorting::None => "none (MWF)",
        Sorting::Ec => "EC (MWF)",
        Sorting::EcDmwf => "EC (DMWF)",
    };
    println!(
        "| {e} | {} | {s} | {root} | {} | {} | {} | {} |",
        if line_ends_game { "yes" } else { "no" },
        c.all,
        c.interior,
        c.leaves,
        c.sort
    );
}
