//! Alpha-beta on the synthetic random tree as a DIB application: exercises information
//! spreading (window updates reach every processor searching below a node), aborts of
//! subtrees cut off, and delayed evaluation (optionally a node is not split until its eldest
//! child is done, as in Young Brothers Wait).
//!
//! Every search is fail-soft negamax alpha-beta over an explicit stack. A piece carries the
//! window of the node it was split from; when that node's window narrows (a child raised
//! alpha, or an update lowered beta from above), the new window goes to its pieces as an
//! update; when a node is cut off, its pieces are aborted. Bounds only narrow, so every value
//! returned is a correct fail-soft bound for the latest window, and the root (whose window
//! stays infinite) gets the exact negamax value.

use serde::{Deserialize, Serialize};

use crate::application::{Application, Effects, Piece, Search, Slot, Step};
use crate::examples::random_tree::{TreeNode, TreeShape};

/// Beyond every leaf value.
pub const INF: i32 = 1_000_000_000;

/// A window `(alpha, beta)` from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    /// Lower bound.
    pub alpha: i32,
    /// Upper bound.
    pub beta: i32,
}

impl Window {
    /// The infinite window.
    pub const FULL: Window = Window {
        alpha: -INF,
        beta: INF,
    };
}

/// An alpha-beta problem: a node and its window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbProblem {
    /// The node.
    pub node: TreeNode,
    /// Its window.
    pub window: Window,
}

/// Plain sequential fail-soft alpha-beta: `(value, nodes)`.
#[must_use]
pub fn alphabeta(node: &TreeNode, shape: &TreeShape, window: Window) -> (i32, u64) {
    fn go(n: &TreeNode, shape: &TreeShape, mut alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
        *nodes += 1;
        if n.height == 0 {
            return n.leaf_value(shape);
        }
        let mut best = -INF;
        for i in 0..n.branching(shape) {
            let v = -go(&n.child(i), shape, -beta, -alpha, nodes);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
    let mut nodes = 0;
    let v = go(node, shape, window.alpha, window.beta, &mut nodes);
    (v, nodes)
}

/// The application.
#[derive(Clone, Copy, Debug)]
pub struct AlphaBetaTree {
    /// The tree's shape.
    pub shape: TreeShape,
    /// Granularity: subtrees lower than this are never handed off.
    pub min_height: u32,
    /// Delayed evaluation: split a node only after its eldest child is done.
    pub eldest_first: bool,
}

impl Application for AlphaBetaTree {
    type Problem = AbProblem;
    type Value = i32;
    type Update = Window;
    type Search = AbSearch;

    fn start(&self, problem: &AbProblem) -> AbSearch {
        AbSearch {
            app: *self,
            stack: vec![Frame::new(problem.node, &self.shape, problem.window)],
            outstanding: 0,
            done: None,
            started: false,
        }
    }
}

#[derive(Debug)]
struct Frame {
    node: TreeNode,
    next: u32,
    children: u32,
    completed: u32,
    best: i32,
    alpha: i32,
    beta: i32,
    outstanding: u32,
    /// The window last given to this frame's pieces (from this frame's side).
    sent: (i32, i32),
}

impl Frame {
    fn new(node: TreeNode, shape: &TreeShape, w: Window) -> Frame {
        Frame {
            node,
            next: 0,
            children: node.branching(shape),
            completed: 0,
            best: -INF,
            alpha: w.alpha,
            beta: w.beta,
            outstanding: 0,
            sent: (w.alpha, w.beta),
        }
    }

    fn alpha_eff(&self) -> i32 {
        self.alpha.max(self.best)
    }

    fn child_window(&self) -> Window {
        Window {
            alpha: -self.beta,
            beta: -self.alpha_eff(),
        }
    }
}

/// A running alpha-beta search.
#[derive(Debug)]
pub struct AbSearch {
    app: AlphaBetaTree,
    stack: Vec<Frame>,
    /// Pieces outstanding over all frames.
    outstanding: u32,
    done: Option<i32>,
    started: bool,
}

impl AbSearch {
    /// Aborts the pieces of frame `i`.
    fn abort_pieces(&mut self, i: usize, fx: &mut Effects<Window>) {
        let f = &mut self.stack[i];
        if f.outstanding > 0 {
            fx.abort(i as Slot);
            self.outstanding -= f.outstanding;
            f.outstanding = 0;
        }
    }

    /// Pops the top frame with value `v` into its parent, cutting off upward as needed.
    fn pop_with(&mut self, mut v: i32, fx: &mut Effects<Window>) {
        loop {
            let top = self.stack.len() - 1;
            self.abort_pieces(top, fx);
            self.stack.pop();
            let Some(parent) = self.stack.last_mut() else {
                self.done = Some(v);
                return;
            };
            parent.completed += 1;
            parent.best = parent.best.max(-v);
            if parent.best >= parent.beta {
                v = parent.best;
                continue;
            }
            break;
        }
        if self.outstanding > 0 {
            self.settle(fx);
        }
    }

    /// After a change anywhere: narrows the windows down the stack, cuts off where a frame's
    /// best reaches its beta, and sends narrowed windows to pieces.
    fn settle(&mut self, fx: &mut Effects<Window>) {
        loop {
            for i in 1..self.stack.len() {
                let w = self.stack[i - 1].child_window();
                let f = &mut self.stack[i];
                f.alpha = f.alpha.max(w.alpha);
                f.beta = f.beta.min(w.beta);
            }
            let Some(j) = self.stack.iter().position(|f| f.alpha_eff() >= f.beta) else {
                break;
            };
            // Frames below j are irrelevant now.
            while self.stack.len() > j + 1 {
                let top = self.stack.len() - 1;
                self.abort_pieces(top, fx);
                self.stack.pop();
            }
            if j == 0 {
                // The root's own window closed (its giver no longer needs an exact value).
                self.abort_pieces(0, fx);
                self.done = Some(self.stack[0].best);
                return;
            }
            let v = self.stack[j].best;
            self.abort_pieces(j, fx);
            self.stack.pop();
            let parent = &mut self.stack[j - 1];
            parent.completed += 1;
            parent.best = parent.best.max(-v);
        }
        for (i, f) in self.stack.iter_mut().enumerate() {
            let now = (f.alpha_eff(), f.beta);
            if f.outstanding > 0 && now != f.sent {
                f.sent = now;
                fx.update(i as Slot, f.child_window());
            }
        }
    }
}

impl Search<AlphaBetaTree> for AbSearch {
    fn step(&mut self, budget: u64, fx: &mut Effects<Window>) -> Step<i32> {
        let shape = self.app.shape;
        let mut nodes = 0;
        if !self.started {
            self.started = true;
            nodes += 1;
            let root = &self.stack[0];
            if root.node.height == 0 {
                self.done = Some(root.node.leaf_value(&shape));
            } else if root.alpha >= root.beta {
                self.done = Some(-INF);
            }
        }
        while self.done.is_none() && nodes < budget {
            let top = self.stack.len() - 1;
            let f = &mut self.stack[top];
            if f.next < f.children {
                let child = f.node.child(f.next);
                f.next += 1;
                nodes += 1;
                if child.height == 0 {
                    let v = child.leaf_value(&shape);
                    f.completed += 1;
                    let before = f.alpha_eff();
                    f.best = f.best.max(-v);
                    if f.best >= f.beta {
                        let b = f.best;
                        self.pop_with(b, fx);
                    } else if f.alpha_eff() > before && self.outstanding > 0 {
                        self.settle(fx);
                    }
                } else {
                    let w = f.child_window();
                    self.stack.push(Frame::new(child, &shape, w));
                }
                continue;
            }
            if f.outstanding > 0 {
                fx.charge(nodes);
                return Step::Blocked;
            }
            let b = f.best;
            self.pop_with(b, fx);
        }
        fx.charge(nodes);
        match self.done {
            Some(v) => Step::Done(v),
            None => Step::Continue,
        }
    }

    fn split(&mut self, _fx: &mut Effects<Window>) -> Vec<Piece<AbProblem>> {
        let min = self.app.min_height;
        let eldest_first = self.app.eldest_first;
        if self.done.is_some() {
            return Vec::new();
        }
        let Some((slot, f)) = self.stack.iter_mut().enumerate().find(|(_, f)| {
            f.next < f.children && f.node.height > min && (!eldest_first || f.completed > 0)
        }) else {
            return Vec::new();
        };
        let w = f.child_window();
        let pieces: Vec<_> = (f.next..f.children)
            .map(|i| Piece {
                slot: slot as Slot,
                problem: AbProblem {
                    node: f.node.child(i),
                    window: w,
                },
            })
            .collect();
        f.next = f.children;
        f.outstanding += pieces.len() as u32;
        f.sent = (f.alpha_eff(), f.beta);
        self.outstanding += pieces.len() as u32;
        pieces
    }

    fn absorb(&mut self, slot: Slot, value: i32, fx: &mut Effects<Window>) {
        let Some(f) = self.stack.get_mut(slot as usize) else {
            return;
        };
        if f.outstanding == 0 {
            return;
        }
        f.outstanding -= 1;
        f.completed += 1;
        self.outstanding -= 1;
        f.best = f.best.max(-value);
        self.settle(fx);
    }

    fn update(&mut self, w: Window, fx: &mut Effects<Window>) {
        if self.done.is_some() {
            return;
        }
        let root = &mut self.stack[0];
        root.alpha = root.alpha.max(w.alpha);
        root.beta = root.beta.min(w.beta);
        if self.started {
            self.settle(fx);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples::random_tree::negamax;

    const SHAPE: TreeShape = TreeShape {
        min_branch: 1,
        max_branch: 5,
        spread: 50,
    };

    #[test]
    fn one_search_alone_equals_sequential_alphabeta() {
        for seed in 0..50 {
            let root = TreeNode::root(seed, 6);
            let (want, nodes) = alphabeta(&root, &SHAPE, Window::FULL);
            assert_eq!(want, negamax(&root, &SHAPE).0);
            let app = AlphaBetaTree {
                shape: SHAPE,
                min_height: 1,
                eldest_first: false,
            };
            let mut s = app.start(&AbProblem {
                node: root,
                window: Window::FULL,
            });
            let mut fx = Effects::default();
            let got = loop {
                match s.step(3, &mut fx) {
                    Step::Continue => {}
                    Step::Blocked => panic!("nothing was split"),
                    Step::Done(v) => break v,
                }
            };
            assert_eq!(got, want, "seed {seed}");
            assert_eq!(fx.nodes(), nodes, "seed {seed}");
        }
    }
}
