//! The explicit stack of the split engine: a frame per node, the tasks it works through (one
//! per child; ER's elder grandchildren; PVS re-searches), and how a task's value is taken.

use dib::Slot;
use games::Game;
use games::score::{INFINITY, is_decisive};

use crate::parallel::ab_frames::Bounds;
use crate::search::RefutationTable;
use crate::search::sorting::NodeType;

use super::{AbValue, PlayNode, Role, Window};

/// What a task of a frame does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum What {
    /// Search a child.
    Child,
    /// ER: search the eldest child of a child (an elder grandchild).
    Grand,
    /// PVS: search again, with the full window, a child whose minimal-window search failed
    /// high.
    Research,
    /// PVS: test again, with a minimal window at the frame's current alpha, a child whose
    /// minimal-window search failed high against an alpha that has risen since.
    Retest,
    /// The play setting's null move: the position with the move passed, searched to
    /// `depth - 1 - R` with the window `(beta - 1, beta)`; a value at or above beta cuts the
    /// frame off (null-move pruning).
    Null,
}

/// One thing a frame does for one of its children.
#[derive(Clone, Copy, Debug)]
pub(super) struct Task {
    /// The child's position in the frame's search order.
    pub(super) at: u32,
    pub(super) what: What,
    /// The role the child problem gets (ER).
    pub(super) role: Role,
    /// Started here or handed off.
    pub(super) launched: bool,
    /// A minimal window's upper bound (from the child's side), fixed when started; for a
    /// re-search, the bound its minimal window failed against (it searches up to that bound,
    /// as sequential PVS re-searches with the alpha it tested).
    pub(super) null_hi: Option<i32>,
    /// The play setting: plies the child's search is reduced by (late move reductions).
    pub(super) reduction: u32,
    /// The play setting: the frame's effective alpha when the task started (a reduced child
    /// whose value beats it is searched again unreduced).
    pub(super) alpha0: i32,
}

impl Task {
    pub(super) fn new(at: usize, what: What, role: Role) -> Task {
        Task {
            at: at as u32,
            what,
            role,
            launched: false,
            null_hi: None,
            reduction: 0,
            alpha0: -INFINITY,
        }
    }
}

/// A node of the explicit stack.
#[derive(Debug)]
pub(super) struct Frame<G: Game> {
    pub(super) position: G,
    pub(super) depth: u32,
    pub(super) ply: u32,
    pub(super) kind: NodeType,
    pub(super) role: Role,
    /// This node's task number in its parent frame.
    pub(super) task: u32,
    /// The moves in search order, with their indices in generation order.
    pub(super) moves: Vec<(G::Move, u32)>,
    /// Children (by search position) of a type-1 node that DMWF makes type 1.
    pub(super) promoted: Vec<bool>,
    /// DMWF: the promoted children replace the eldest (the others are type 2).
    pub(super) replace: bool,
    /// MWF and DMWF without deep cutoffs: a child's window is `(-inf, -best)` and every
    /// eldest child is type 1.
    pub(super) shallow: bool,
    pub(super) tasks: Vec<Task>,
    /// YBWC*: how many moves at the head of `moves` are reasonable (searched here, one after
    /// the other, before a type-2 node gives any child away).
    pub(super) reasonable: usize,
    /// The first task that may not have been started.
    pub(super) next: usize,
    /// Child values taken.
    pub(super) completed: usize,
    /// ER e-node: in its second phase (e-child, then refutations).
    pub(super) main: bool,
    /// ER: child values taken in the second phase.
    pub(super) main_done: usize,
    /// ER e-node: has handed out a child in its second phase (its children run in parallel).
    pub(super) e_parallel: bool,
    /// ER e-node: e-children of its second phase done (the first e-child included).
    pub(super) e_done: usize,
    /// ER: children (by search position) whose value was taken.
    pub(super) valued: Vec<bool>,
    /// ER: elder-grandchild values, by search position of the child.
    pub(super) keys: Vec<Option<i32>>,
    /// ER: the generation index of each child's eldest child.
    pub(super) grand_moves: Vec<Option<u32>>,
    /// Best value and move (generation index), window, window last sent to the pieces.
    pub(super) bounds: Bounds,
    /// Task numbers given away and not yet back.
    pub(super) pending: Vec<u32>,
    /// PVS: search positions whose minimal window failed high, waiting for a full-window
    /// re-search (the one that leads) or a minimal-window test at the risen alpha (the others).
    pub(super) researches: Vec<u32>,
    /// The refutation table (on): the line this node follows (its first move is this node's).
    pub(super) line: Vec<u16>,
    /// The refutation table: the best line found from this node.
    pub(super) best_line: Vec<u16>,
    /// The run root with the refutation table on: the last iteration's table, and its
    /// children of this iteration (move, value, line below it) in the order taken.
    pub(super) table: Option<RefutationTable>,
    pub(super) children: Vec<(u16, i32, Vec<u16>)>,
    /// The common depth as this node sees it now ([`super::SplitPolicy::CommonDepth`]): it
    /// shares its children while its ply is at most this, and its children start with it.
    pub(super) cd: u32,
    /// Strategy A: `cd` drops to this node's ply once a child is done (never at the root).
    pub(super) variable_cd: bool,
    /// The play setting's fields of this node (`None` in the research setting).
    pub(super) play: Option<PlayNode>,
    /// The play setting: the side to move is in check.
    pub(super) in_check: bool,
    /// The play setting: the table's move (generation index).
    pub(super) tt_move: Option<u32>,
    /// The play setting: each move's ordering key, by search position (late move reductions
    /// reduce quiet-looking moves only).
    pub(super) order_keys: Vec<i64>,
    /// The play setting: search positions whose reduced search beat the frame's alpha,
    /// waiting for their search at full depth.
    pub(super) unreduce: Vec<u32>,
}

impl<G: Game> Frame<G> {
    /// The window task `t` gets now (from the child's side; two plies down, the frame's side,
    /// for an elder grandchild).
    pub(super) fn window_for(&self, t: &Task) -> Window {
        match (t.what, t.null_hi) {
            (What::Null, _) => Window {
                alpha: -self.bounds.beta,
                beta: -self.bounds.beta + 1,
            },
            (What::Grand, _) => Window {
                alpha: self.bounds.alpha_eff(),
                beta: self.bounds.beta,
            },
            (What::Child | What::Retest, Some(hi)) => Window {
                alpha: (hi - 1).max(-self.bounds.beta),
                beta: hi,
            },
            (What::Research, Some(hi)) => Window {
                alpha: -self.bounds.beta,
                beta: hi.max(-self.bounds.beta),
            },
            _ if self.shallow => Window {
                alpha: -INFINITY,
                beta: -self.bounds.alpha_eff(),
            },
            _ => self.bounds.child_window(),
        }
    }

    /// The type of the child at search position `at`.
    pub(super) fn child_kind(&self, at: usize) -> NodeType {
        if self.kind == NodeType::One && !self.promoted.is_empty() {
            if self.promoted[at] {
                return NodeType::One;
            }
            if self.replace {
                return NodeType::Two;
            }
        }
        if self.shallow {
            // Without deep cutoffs an eldest child is always fully evaluated (Rezaie and Finkel
            // section 3.2, figure 3: "only type-1 and type-2 nodes are critical").
            if at == 0 {
                NodeType::One
            } else {
                NodeType::Two
            }
        } else {
            self.kind.child(at)
        }
    }

    /// ER: whether a child task of this e-node's second phase runs elsewhere as an e-node.
    pub(super) fn e_child_out(&self) -> bool {
        self.pending.iter().any(|&t| {
            let t = &self.tasks[t as usize];
            t.what == What::Child && t.role == Role::Evaluate
        })
    }

    /// The first task not yet started, if any.
    pub(super) fn untried(&self) -> Option<usize> {
        (self.next..self.tasks.len()).find(|&i| !self.tasks[i].launched)
    }

    /// Takes task `task`'s value `v` (from the searched node's side) and, with the refutation
    /// table on (`lines`), the line found below the child.
    pub(super) fn take(&mut self, task: usize, v: i32, line: &[u16], lines: bool) {
        let t = self.tasks[task];
        let at = t.at as usize;
        if t.what == What::Grand {
            self.keys[at] = Some(v);
            return;
        }
        if t.what == What::Null {
            // Passing still reaches beta: so would a real move (a decisive value is not
            // trusted beyond beta, as the sequential search returns it).
            let c = -v;
            if c >= self.bounds.beta {
                let cut = if is_decisive(c) { self.bounds.beta } else { c };
                self.bounds.best = self.bounds.best.max(cut);
            }
            return;
        }
        if t.reduction > 0 && -v > t.alpha0 {
            // A reduced search beat alpha: only the full depth may say by how much.
            self.unreduce.push(t.at);
            return;
        }
        if lines {
            self.keep_line(at, -v, line, t.what == What::Research);
        }
        if t.what == What::Child {
            self.completed += 1;
            if self.variable_cd && self.ply > 0 && self.ply < self.cd {
                // "IF D<CD & VARCD THEN DO; CD=D; IF D=0 THEN CD=CD0; END" (thesis fig. 4.7).
                self.cd = self.ply;
            }
            if self.main {
                self.main_done += 1;
                if self.role == Role::Evaluate && t.role == Role::Evaluate {
                    self.e_done += 1;
                }
            }
        }
        self.valued[at] = true;
        let c = -v;
        self.bounds.raise(c, self.moves[at].1);
        if let (What::Child | What::Retest, Some(hi)) = (t.what, t.null_hi) {
            // The minimal window failed high (the child failed low): `c` is only a lower
            // bound; find the exact value unless it cuts this node off anyway.
            if v < hi && c < self.bounds.beta {
                self.researches.push(t.at);
            }
        }
    }
}

impl<G: Game> Frame<G> {
    /// The refutation table, before the value `c` (from this node's side) of the child at
    /// search position `at` is taken: the root keeps every child's value and line; the node's
    /// line becomes the child's when `c` beats the best so far, as in the sequential search,
    /// or when the child leads and this is its re-search (sequential PVS compares only the
    /// re-search's value).
    fn keep_line(&mut self, at: usize, c: i32, line: &[u16], research: bool) {
        let gi = self.moves[at].1 as u16;
        if self.ply == 0 {
            self.children.push((gi, c, line.to_vec()));
        }
        let leads = research && self.bounds.best_index == Some(u32::from(gi));
        if c > self.bounds.best || leads {
            self.best_line.clear();
            self.best_line.push(gi);
            self.best_line.extend_from_slice(line);
        }
    }

    /// The refutation line of the child at search position `at`: below the run root, the
    /// table's line for it; elsewhere the rest of this node's line when the child is its
    /// move.
    pub(super) fn child_line(&self, at: usize) -> Vec<u16> {
        let gi = self.moves[at].1 as u16;
        if let Some(t) = &self.table {
            return t.line(gi).to_vec();
        }
        match self.line.split_first() {
            Some((&first, rest)) if first == gi => rest.to_vec(),
            _ => Vec::new(),
        }
    }
}

/// The slot of task `task` of frame `frame`: every piece has its own.
pub(super) fn slot_of(frame: usize, task: u32) -> Slot {
    ((frame as u64) << 32) | u64::from(task)
}

/// A node opened for searching: solved at once, or a frame to push.
pub(super) enum Opened<G: Game> {
    Solved(AbValue),
    Frame(Box<Frame<G>>),
    /// A leaf search stopped by the play setting's halt or clock: no value.
    Halted,
}
