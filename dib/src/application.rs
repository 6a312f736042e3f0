//! The application interface of DIB: what a problem is, how a search runs on it in slices, how
//! it hands off pieces of its implicit stack, how children's values combine, and how
//! information updates arrive.
//!
//! A [`Search`] is the "implicit representation" of the paper: the running search's own stack.
//! The runtime steps it a bounded number of nodes at a time, and between steps answers
//! messages. When a peer asks for work and the table has none, the runtime asks the search to
//! [`Search::split`]: the search returns [`Piece`]s (problems it will no longer search itself),
//! each naming the node of its stack it belongs to (its [`Slot`]). The values of those pieces
//! come back, from wherever they ran, through [`Search::absorb`] with the same slot; the search
//! combines them with its own results (the application's combination hook, with whatever
//! per-node state it needs, such as alpha-beta windows).

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::context::Nanos;
use crate::work::Work;

/// Names a node of a search's implicit stack. Pieces split off the same node share its slot;
/// updates and aborts addressed to a slot reach every piece below that node.
pub type Slot = u64;

/// A problem handed off by a search: a child (subtree) of the node named by `slot`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece<P> {
    /// The node of the giver's stack this piece belongs to.
    pub slot: Slot,
    /// The subproblem.
    pub problem: P,
}

/// What one slice of a search reports.
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use]
pub enum Step<V> {
    /// More to do; step again.
    Continue,
    /// Nothing to do until a piece's value is absorbed or an update arrives (delayed
    /// evaluation: the search refuses to generate more children now).
    Blocked,
    /// Finished with this value (every piece it still waits for is then aborted).
    Done(V),
}

/// Side effects a search asks of the runtime: node charges, updates and aborts of the pieces
/// it gave away.
#[derive(Debug)]
pub struct Effects<U> {
    pub(crate) work: Work,
    pub(crate) updates: Vec<(Slot, U)>,
    pub(crate) aborts: Vec<Slot>,
    /// The processor's time when the runtime handed these effects to the search.
    pub(crate) now: Nanos,
}

impl<U> Default for Effects<U> {
    fn default() -> Self {
        Effects::at(0)
    }
}

impl<U> Effects<U> {
    /// No effects yet, handed to a search at time `now` of its processor.
    #[must_use]
    pub fn at(now: Nanos) -> Self {
        Effects {
            work: Work::default(),
            updates: Vec::new(),
            aborts: Vec::new(),
            now,
        }
    }

    /// The processor's time when the step began ([`Search::step`]; 0 in the other calls): the
    /// wall clock on threads, virtual time on the simulator. Work charged during the step is
    /// not yet in it.
    #[must_use]
    pub fn now(&self) -> Nanos {
        self.now
    }

    /// Records `nodes` full search nodes really searched (the simulator charges their cost).
    pub fn charge(&mut self, nodes: u64) {
        self.work.search += nodes;
    }

    /// Records work of every kind (see [`Work`]); the simulator charges each kind its cost.
    pub fn charge_work(&mut self, work: &Work) {
        self.work.add(work);
    }

    /// Sends `update` to every piece split off node `slot`, wherever it runs, and from there
    /// down to every processor working below it (information spreading).
    pub fn update(&mut self, slot: Slot, update: U) {
        self.updates.push((slot, update));
    }

    /// Aborts every outstanding piece split off node `slot` (their values will not be
    /// absorbed).
    pub fn abort(&mut self, slot: Slot) {
        self.aborts.push(slot);
    }

    /// Nodes charged so far (every kind).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.work.nodes()
    }
}

/// A DIB application: the problem and value types, and how to start a search on a problem.
/// Shared by all processors of a run (hence `Sync`).
pub trait Application: Send + Sync + 'static {
    /// A problem (a node of the problem tree with everything needed to search below it).
    type Problem: Clone + Debug + Send + Sync + Serialize + DeserializeOwned + 'static;
    /// The value of a solved problem.
    type Value: Clone + Debug + Send + Serialize + DeserializeOwned + 'static;
    /// Information spread down the tree (for example a narrower alpha-beta window).
    type Update: Clone + Debug + Send + Serialize + DeserializeOwned + 'static;
    /// The running search on one problem.
    type Search: Search<Self>;

    /// Starts a search on `problem` (nothing is searched until it is stepped).
    fn start(&self, problem: &Self::Problem) -> Self::Search;

    /// Starts a search on `problem` on processor `proc`: what the runtime calls. The default
    /// is [`Application::start`]; an application with per-processor state (such as one
    /// transposition table per processor) picks it here.
    fn start_on(&self, proc: crate::ProcId, problem: &Self::Problem) -> Self::Search {
        let _ = proc;
        self.start(problem)
    }
}

/// A search in progress, stepped by the runtime. See the module docs.
pub trait Search<A: Application + ?Sized>: Send + 'static {
    /// Searches at most about `budget` nodes, charging them to `fx`.
    fn step(&mut self, budget: u64, fx: &mut Effects<A::Update>) -> Step<A::Value>;

    /// Hands off pieces of the implicit stack for other processors, or none (when what is left
    /// is below the granularity threshold, or the search prefers not to generate more children
    /// now). The search no longer searches the pieces itself; their values come back through
    /// [`Search::absorb`].
    fn split(&mut self, fx: &mut Effects<A::Update>) -> Vec<Piece<A::Problem>>;

    /// Combines the value of a piece split off node `slot`.
    fn absorb(&mut self, slot: Slot, value: A::Value, fx: &mut Effects<A::Update>);

    /// Receives an update addressed to this search's root (information spreading). The default
    /// ignores it.
    fn update(&mut self, update: A::Update, fx: &mut Effects<A::Update>) {
        let _ = (update, fx);
    }

    /// Whether this search makes its processor only a master: while the search is here, the
    /// processor hands work out and answers requests, but never asks its peers for work (Rezaie and
    /// Finkel's tree-splitting root, "only a master"). As DIB redoes lost work only after an idle
    /// processor's requests go unanswered, such a processor never redoes the work it gave
    /// away: on a machine that loses messages, a search must not be only a master. The
    /// default is false.
    fn only_master(&self) -> bool {
        false
    }
}
