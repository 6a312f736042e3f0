//! A synthetic random min/max tree as a DIB application: every node's branching factor and
//! every leaf's value derive from a hash of its identity, so the tree needs no storage and any
//! processor can expand any node. The value is the negamax value of the root (no pruning), so
//! the combination hook is non-trivial: each piece's value is folded into the node of the
//! giver's stack it was split from.

use serde::{Deserialize, Serialize};

use crate::application::{Application, Effects, Piece, Search, Slot, Step};
use crate::rng::{STREAM_APPLICATION, mix64, sub_seed};

/// The shape of a random tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreeShape {
    /// Fewest children of an inner node (at least 1).
    pub min_branch: u32,
    /// Most children of an inner node.
    pub max_branch: u32,
    /// Leaf values lie in `-spread..=spread`.
    pub spread: i32,
}

/// A node: its identity and its remaining height (0 for a leaf).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreeNode {
    /// The node's identity (a hash).
    pub id: u64,
    /// Plies below it.
    pub height: u32,
}

impl TreeNode {
    /// The root of the tree of `seed` with `height` plies.
    #[must_use]
    pub fn root(seed: u64, height: u32) -> TreeNode {
        TreeNode {
            id: sub_seed(seed, STREAM_APPLICATION, 0),
            height,
        }
    }

    /// Number of children.
    #[must_use]
    pub fn branching(&self, shape: &TreeShape) -> u32 {
        if self.height == 0 {
            return 0;
        }
        let lo = shape.min_branch.max(1);
        let hi = shape.max_branch.max(lo);
        lo + (mix64(self.id) % u64::from(hi - lo + 1)) as u32
    }

    /// Child `i`.
    #[must_use]
    pub fn child(&self, i: u32) -> TreeNode {
        TreeNode {
            id: mix64(self.id ^ u64::from(i + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)),
            height: self.height - 1,
        }
    }

    /// A leaf's value from the side to move.
    #[must_use]
    pub fn leaf_value(&self, shape: &TreeShape) -> i32 {
        let s = i64::from(shape.spread.max(0));
        ((mix64(self.id ^ 0x5151) % (2 * s as u64 + 1)) as i64 - s) as i32
    }
}

/// Plain recursive negamax: `(value, nodes)`.
#[must_use]
pub fn negamax(node: &TreeNode, shape: &TreeShape) -> (i32, u64) {
    fn go(n: &TreeNode, shape: &TreeShape, nodes: &mut u64) -> i32 {
        *nodes += 1;
        if n.height == 0 {
            return n.leaf_value(shape);
        }
        (0..n.branching(shape))
            .map(|i| -go(&n.child(i), shape, nodes))
            .max()
            .unwrap_or(0)
    }
    let mut nodes = 0;
    let v = go(node, shape, &mut nodes);
    (v, nodes)
}

/// The application.
#[derive(Clone, Copy, Debug)]
pub struct RandomTree {
    /// The tree's shape.
    pub shape: TreeShape,
    /// Granularity: subtrees lower than this are never handed off.
    pub min_height: u32,
}

impl Application for RandomTree {
    type Problem = TreeNode;
    type Value = i32;
    type Update = ();
    type Search = TreeSearch;

    fn start(&self, problem: &TreeNode) -> TreeSearch {
        TreeSearch {
            app: *self,
            stack: vec![Frame::new(*problem, &self.shape)],
        }
    }
}

#[derive(Debug)]
struct Frame {
    node: TreeNode,
    next: u32,
    children: u32,
    best: i32,
    outstanding: u32,
}

impl Frame {
    fn new(node: TreeNode, shape: &TreeShape) -> Frame {
        Frame {
            node,
            next: 0,
            children: node.branching(shape),
            best: i32::MIN + 1,
            outstanding: 0,
        }
    }
}

/// A running negamax: the stack of nodes being expanded.
#[derive(Debug)]
pub struct TreeSearch {
    app: RandomTree,
    stack: Vec<Frame>,
}

impl Search<RandomTree> for TreeSearch {
    fn step(&mut self, budget: u64, fx: &mut Effects<()>) -> Step<i32> {
        let shape = self.app.shape;
        let mut nodes = 0;
        while nodes < budget {
            let Some(top) = self.stack.last_mut() else {
                break;
            };
            if top.next < top.children {
                let child = top.node.child(top.next);
                top.next += 1;
                self.stack.push(Frame::new(child, &shape));
                continue;
            }
            if top.outstanding > 0 {
                fx.charge(nodes);
                return Step::Blocked;
            }
            nodes += 1;
            let value = if top.node.height == 0 {
                top.node.leaf_value(&shape)
            } else {
                top.best
            };
            self.stack.pop();
            match self.stack.last_mut() {
                Some(parent) => parent.best = parent.best.max(-value),
                None => {
                    fx.charge(nodes);
                    return Step::Done(value);
                }
            }
        }
        fx.charge(nodes);
        Step::Continue
    }

    fn split(&mut self, _fx: &mut Effects<()>) -> Vec<Piece<TreeNode>> {
        let min = self.app.min_height;
        let Some((slot, frame)) = self
            .stack
            .iter_mut()
            .enumerate()
            .find(|(_, f)| f.next < f.children && f.node.height > min)
        else {
            return Vec::new();
        };
        let pieces: Vec<_> = (frame.next..frame.children)
            .map(|i| Piece {
                slot: slot as Slot,
                problem: frame.node.child(i),
            })
            .collect();
        frame.next = frame.children;
        frame.outstanding += pieces.len() as u32;
        pieces
    }

    fn absorb(&mut self, slot: Slot, value: i32, _fx: &mut Effects<()>) {
        if let Some(f) = self.stack.get_mut(slot as usize) {
            f.best = f.best.max(-value);
            f.outstanding -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHAPE: TreeShape = TreeShape {
        min_branch: 1,
        max_branch: 5,
        spread: 100,
    };

    #[test]
    fn stepping_with_splits_gives_the_negamax_value() {
        for seed in 0..20 {
            let root = TreeNode::root(seed, 6);
            let (want, nodes) = negamax(&root, &SHAPE);
            let app = RandomTree {
                shape: SHAPE,
                min_height: 1,
            };
            let mut s = app.start(&root);
            let mut fx = Effects::default();
            let mut pieces = Vec::new();
            let got = loop {
                if seed % 2 == 0 {
                    pieces.extend(s.split(&mut fx));
                }
                match s.step(5, &mut fx) {
                    Step::Continue => {}
                    Step::Blocked => {
                        let p: Piece<TreeNode> = pieces.pop().unwrap();
                        s.absorb(p.slot, negamax(&p.problem, &SHAPE).0, &mut fx);
                    }
                    Step::Done(v) => break v,
                }
            };
            assert_eq!(got, want, "seed {seed}");
            if seed % 2 == 1 {
                assert_eq!(fx.nodes(), nodes);
            }
        }
    }
}
