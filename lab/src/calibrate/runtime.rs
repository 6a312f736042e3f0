//! The measurements of `runner calibrate` taken through the DIB runtime on the threads backend:
//! the runtime's handling of a message (a synthetic job that hands trivial problems from one
//! processor to the other, so that nearly all its time is spent on messages) and the split
//! engine's cost per frame (MWF on one processor, less what the calibrated node costs account
//! for, over its frames).

use std::sync::Arc;
use std::time::Instant;

use control::parallel::{self, ParallelAlgo, ParallelOptions};
use dib::{Application, Backend, CostModel, Effects, Piece, Search, SimConfig, Slot, Step};
use games::Game;
use serde::{Deserialize, Serialize};

use super::measure::{Effort, Stat};

/// The synthetic job: the root hands out `pieces` problems, one per work request; each is
/// solved at once by whoever gets it and its value goes back to the root. Nothing is searched,
/// so a run's busy time is what the runtime spends on requests, grants, refusals and values.
struct Relay {
    pieces: u32,
}

/// A problem of the job: the root, or one handed-out piece with a payload of a few words, about
/// a search problem's size.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct RelayProblem {
    root: bool,
    payload: [u64; 4],
}

/// The root waits for its pieces' values; a piece is done at its first step.
struct RelaySearch {
    root: bool,
    left: u32,
    pending: u32,
    sum: u32,
}

impl Application for Relay {
    type Problem = RelayProblem;
    type Value = u32;
    type Update = ();
    type Search = RelaySearch;

    fn start(&self, problem: &RelayProblem) -> RelaySearch {
        RelaySearch {
            root: problem.root,
            left: if problem.root { self.pieces } else { 0 },
            pending: 0,
            sum: 0,
        }
    }
}

impl Search<Relay> for RelaySearch {
    fn step(&mut self, _budget: u64, _fx: &mut Effects<()>) -> Step<u32> {
        if !self.root {
            Step::Done(1)
        } else if self.left == 0 && self.pending == 0 {
            Step::Done(self.sum)
        } else {
            Step::Blocked
        }
    }

    fn split(&mut self, _fx: &mut Effects<()>) -> Vec<Piece<RelayProblem>> {
        if self.left == 0 {
            return Vec::new();
        }
        self.left -= 1;
        self.pending += 1;
        let n = u64::from(self.left);
        vec![Piece {
            slot: 0,
            problem: RelayProblem {
                root: false,
                payload: [n; 4],
            },
        }]
    }

    fn absorb(&mut self, _slot: Slot, value: u32, _fx: &mut Effects<()>) {
        self.pending -= 1;
        self.sum += value;
    }
}

/// One run of the synthetic job on two threads: ns of busy time (the threads backend's time
/// outside waits and channel calls) per message end (each message sent and each received), and
/// the messages sent.
fn handling_once(pieces: u32) -> (f64, u64) {
    let report = dib::solve(
        Arc::new(Relay { pieces }),
        RelayProblem {
            root: true,
            payload: [0; 4],
        },
        2,
        &Backend::Threads { seed: 1 },
        None,
    )
    .unwrap_or_else(|e| panic!("the synthetic job runs: {e}"));
    assert_eq!(report.value, pieces, "every piece's value came back");
    let b = &report.total.backend;
    let ends = (b.messages_sent + b.messages_received).max(1);
    (b.busy_ns as f64 / ends as f64, b.messages_sent)
}

/// The runtime's handling of a message at each end, in ns: the synthetic job on two threads
/// (`effort.messages / 10` pieces, three messages or more each), per repeat.
pub fn handling_cost(effort: &Effort, tick: &mut dyn FnMut()) -> Stat {
    let pieces = u32::try_from(effort.messages / 10)
        .unwrap_or(u32::MAX)
        .max(1);
    let samples: Vec<f64> = (0..effort.repeats)
        .map(|_| {
            let (ns, _) = handling_once(pieces);
            tick();
            ns
        })
        .collect();
    Stat::of(&samples)
}

/// The split engine's cost per frame on `pos`, in ns.
#[derive(Clone, Debug, Serialize)]
pub struct FrameCost {
    /// ns per frame.
    pub frame: Stat,
    /// The depth searched.
    pub depth: u32,
    /// Frames of one search.
    pub frames: u64,
}

/// MWF (its own granularity) on one processor of `backend`: seconds and nodes.
fn mwf<G: Game>(pos: &G, depth: u32, backend: Backend) -> (f64, u64) {
    let options = ParallelOptions::for_algo(ParallelAlgo::Mwf, depth, 1, backend);
    let r = parallel::search(ParallelAlgo::Mwf, pos, &options)
        .unwrap_or_else(|e| panic!("MWF on one processor runs: {e}"));
    (r.seconds, r.nodes)
}

/// The cost of a frame of the split engine on `pos`: MWF on one processor of the threads
/// backend, at the smallest depth where it takes `effort.min_time` (from one ply more than its
/// granularity, so that the root's children are frames too; at most `effort.max_depth`),
/// timed per repeat; the simulator, with `model` (the game's calibrated
/// node and probe costs, frames at the node cost), runs the same search once as it is and once
/// with 1,000 ns more per frame, which counts the frames exactly (one processor: the virtual
/// time is the sum of the charges). A frame then costs the node cost plus the measured time
/// less the simulated, over the frames (at least 1 ns).
pub fn frame_cost<G: Game>(
    pos: &G,
    model: &CostModel,
    effort: &Effort,
    tick: &mut dyn FnMut(),
) -> FrameCost {
    let threads = || Backend::Threads { seed: 1 };
    // The first depth with frames below the root.
    let mut depth =
        ParallelOptions::for_algo(ParallelAlgo::Mwf, 1, 1, threads()).min_split_depth + 1;
    while depth < effort.max_depth {
        let start = Instant::now();
        mwf(pos, depth, threads());
        if start.elapsed() >= effort.min_time {
            break;
        }
        depth += 1;
    }
    let plain = CostModel {
        frame_ns: None,
        ..model.clone()
    };
    let dearer = CostModel {
        frame_ns: Some(model.node_ns + 1_000),
        ..model.clone()
    };
    let sim = |cost: CostModel| Backend::Sim(SimConfig::new(cost, 1));
    let (predicted, _) = mwf(pos, depth, sim(plain));
    let (dearer_seconds, _) = mwf(pos, depth, sim(dearer));
    let frames = ((dearer_seconds - predicted) * 1e9 / 1_000.0)
        .round()
        .max(0.0) as u64;
    let samples: Vec<f64> = (0..effort.repeats)
        .map(|_| {
            let (seconds, _) = mwf(pos, depth, threads());
            tick();
            model.node_ns as f64 + (seconds - predicted) * 1e9 / frames.max(1) as f64
        })
        .map(|ns| ns.max(1.0))
        .collect();
    FrameCost {
        frame: Stat::of(&samples),
        depth,
        frames,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_of_the_synthetic_job_is_counted_and_costs_time() {
        let (ns, sent) = handling_once(50);
        // A request, a grant and a value per piece at least.
        assert!(sent >= 150, "{sent} messages");
        assert!(ns > 0.0, "{ns} ns");
    }

    #[test]
    fn the_frames_of_a_search_are_counted_and_priced() {
        let model = CostModel::preset("shared-memory").expect("a preset");
        let mut ticks = 0;
        let f = frame_cost(
            &games::tictactoe::TicTacToe4::start(),
            &model,
            &Effort::new(true),
            &mut || ticks += 1,
        );
        // MWF opens frames at nodes with 4 plies or more left.
        assert!(f.depth >= 4 && f.frames >= 1, "{f:?}");
        assert_eq!((f.frame.repeats, ticks), (3, 3));
        assert!(f.frame.min >= 1.0, "{f:?}");
    }
}
