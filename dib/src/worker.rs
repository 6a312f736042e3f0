//! The DIB processor: the work table, the request protocol, subdivision of the running
//! search, result combination, information spreading, aborts and fault tolerance. It is a
//! [`Processor`], so it runs unchanged on every backend. See `dib/README.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::Serialize;

use crate::accounting::DibCounters;
use crate::application::{Application, Effects, Search, Step};
use crate::backend::sim::{CostModel, Notice};
use crate::context::{Context, Envelope, Nanos, ProcId};
use crate::message::{Message, TaskId};
use crate::processor::{Activity, Processor};
use crate::request::Answer;
use crate::work_table::{Parent, State, Task, WorkTable};

/// Tuning of the DIB protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DibConfig {
    /// Nodes a search runs between two looks at the inbox, where the machine does not decide
    /// it ([`Context::slice_nodes`]: on the simulator, a cost model with a notice).
    pub quantum: u64,
    /// How long a requester waits for an answer before asking someone else.
    pub request_timeout_ns: Nanos,
    /// How long a refused requester waits before asking again.
    pub retry_delay_ns: Nanos,
    /// After this many unanswered or refused requests in a row, an idle processor redoes the
    /// oldest work it gave away whose result has not come back.
    pub redo_patience: u32,
    /// A refused processor that works again (a search it was given, or one a result or update
    /// made runnable) asks again as soon as it is idle, without waiting out `retry_delay_ns`.
    /// Off by default. With a retry delay longer than the search it makes a refusal last until
    /// the processor has worked again: the two-PDP-11 thesis's two machines, where one that finds
    /// no shared move left waits for the end of the search unless work of its own comes back.
    pub ask_again_after_work: bool,
}

impl DibConfig {
    /// Settings for real threads on one machine.
    #[must_use]
    pub fn for_threads() -> DibConfig {
        DibConfig {
            quantum: 1_024,
            request_timeout_ns: 5_000_000,
            retry_delay_ns: 20_000,
            redo_patience: 200,
            ask_again_after_work: false,
        }
    }

    /// Settings matched to a simulated cost model: the timeout covers a few slices of the
    /// slowest processor (its quantum, or its polling period) plus the message round trip; a
    /// refused requester waits about one message round trip.
    #[must_use]
    pub fn for_sim(cost: &CostModel) -> DibConfig {
        let quantum = 256;
        let slowest = cost
            .relative_cost_percent
            .iter()
            .copied()
            .max()
            .unwrap_or(100);
        let node = cost.node_ns.max(cost.horizon_ns.unwrap_or(0));
        let node_ns = node * u64::from(slowest.max(100)) / 100;
        let quantum_ns = match cost.notice {
            None => node_ns * quantum,
            Some(Notice::Poll { every_ns }) => every_ns,
            Some(Notice::Interrupt) => node_ns,
        };
        let round_trip = 2 * (cost.latency_ns + cost.send_ns() + cost.recv_ns());
        DibConfig {
            quantum,
            request_timeout_ns: 4 * quantum_ns + 4 * round_trip,
            retry_delay_ns: round_trip,
            redo_patience: 24,
            ask_again_after_work: false,
        }
    }
}

/// One DIB processor running application `A`.
pub struct DibProcessor<A: Application> {
    app: Arc<A>,
    config: DibConfig,
    /// The root problem, until the first slice puts it in the table (processor 0 only).
    root: Option<A::Problem>,
    table: Option<WorkTable<A>>,
    current: Option<TaskId>,
    /// Live problems received: `(giver, giver's task)` to our task.
    received: BTreeMap<(ProcId, TaskId), TaskId>,
    /// Every `(giver, task)` ever granted or aborted here, so duplicates are ignored.
    seen: BTreeSet<(ProcId, TaskId)>,
    /// The deadline of the outstanding work request.
    outstanding: Option<Nanos>,
    next_request_at: Nanos,
    failed: u32,
    result: Option<A::Value>,
    counters: DibCounters,
}

impl<A: Application> DibProcessor<A> {
    /// A processor; give `root` to processor 0 only.
    #[must_use]
    pub fn new(app: Arc<A>, config: DibConfig, root: Option<A::Problem>) -> Self {
        DibProcessor {
            app,
            config,
            root,
            table: None,
            current: None,
            received: BTreeMap::new(),
            seen: BTreeSet::new(),
            outstanding: None,
            next_request_at: 0,
            failed: 0,
            result: None,
            counters: DibCounters::default(),
        }
    }

    /// The root's value, on the processor that completed it.
    #[must_use]
    pub fn result(&self) -> Option<&A::Value> {
        self.result.as_ref()
    }

    /// What this processor counted.
    #[must_use]
    pub fn counters(&self) -> DibCounters {
        self.counters
    }

    fn table(&mut self) -> &mut WorkTable<A> {
        self.table.get_or_insert_with(|| WorkTable::new(0))
    }

    fn handle(&mut self, ctx: &mut dyn Context<Message<A>>, env: Envelope<Message<A>>) {
        let from = env.from;
        match env.msg {
            Message::Request => {
                self.counters.requests_received += 1;
                match self.answer(ctx) {
                    Answer::Granted(t) => {
                        self.counters.requests_granted += 1;
                        if let Some(task) = self.table().get_mut(t) {
                            task.state = State::Given { to: from };
                            task.given_to = Some(from);
                            let problem = task.problem.clone();
                            ctx.send(from, Message::Grant { task: t, problem });
                        }
                    }
                    Answer::Refused => {
                        self.counters.requests_refused += 1;
                        ctx.send(from, Message::Refuse);
                    }
                }
            }
            Message::Grant { task, problem } => {
                self.outstanding = None;
                self.failed = 0;
                if !self.seen.insert((from, task)) {
                    return;
                }
                self.counters.problems_received += 1;
                let parent = Parent::Remote { giver: from, task };
                let id = self.table().push(Task::new(problem, parent));
                self.received.insert((from, task), id);
                if self.current.is_none() && self.table().runnable().is_none() {
                    // Idle: start it now, so that a request polled in the same batch does not
                    // bounce it straight back to another idle processor.
                    if self.table().pop_unassigned() == Some(id) {
                        self.start(ctx, id);
                    }
                }
            }
            Message::Refuse => {
                self.outstanding = None;
                self.failed += 1;
                self.next_request_at = ctx.now() + self.config.retry_delay_ns;
            }
            Message::Result { task, value } => {
                let accepted = match self.table().get_mut(task) {
                    Some(t) if t.given_to.is_some() => {
                        t.given_to = None;
                        true
                    }
                    _ => false,
                };
                if accepted {
                    self.complete(ctx, task, value);
                } else {
                    self.counters.late_results += 1;
                }
            }
            Message::Update { task, update } => {
                if let Some(&id) = self.received.get(&(from, task)) {
                    self.deliver_update(ctx, id, update);
                }
            }
            Message::Abort { task } => {
                self.seen.insert((from, task));
                if let Some(id) = self.received.remove(&(from, task)) {
                    self.abort_task(ctx, id);
                }
            }
        }
    }

    /// Answers a work request: the last (largest) unassigned problem of the table, else a
    /// piece of a search running here.
    fn answer(&mut self, ctx: &mut dyn Context<Message<A>>) -> Answer {
        if let Some(t) = self.table().pop_unassigned_back() {
            return Answer::Granted(t);
        }
        let mut candidates: Vec<TaskId> = self.current.into_iter().collect();
        candidates.extend(
            self.table()
                .active_ids()
                .into_iter()
                .filter(|&t| Some(t) != self.current),
        );
        for a in candidates {
            let mut fx = Effects::default();
            let pieces = match self.table().get_mut(a).map(|t| &mut t.state) {
                Some(State::Active { search, .. }) => search.split(&mut fx),
                _ => continue,
            };
            self.apply(ctx, a, fx);
            if pieces.is_empty() {
                continue;
            }
            self.counters.splits += 1;
            let tasks = pieces
                .into_iter()
                .map(|p| {
                    Task::new(
                        p.problem,
                        Parent::Local {
                            task: a,
                            slot: p.slot,
                        },
                    )
                })
                .collect();
            let ids = self.table().push_block(tasks);
            if let Some(t) = self.table().get_mut(a) {
                t.pieces.extend(ids);
            }
            if let Some(t) = self.table().pop_unassigned_back() {
                return Answer::Granted(t);
            }
        }
        Answer::Refused
    }

    /// Carries out what a search asked for: node charges, updates and aborts of its pieces.
    fn apply(&mut self, ctx: &mut dyn Context<Message<A>>, task: TaskId, fx: Effects<A::Update>) {
        if !fx.work.is_empty() {
            ctx.charge_work(&fx.work);
        }
        if fx.updates.is_empty() && fx.aborts.is_empty() {
            return;
        }
        for (slot, update) in fx.updates {
            for p in self.pieces_at(task, slot) {
                self.deliver_update(ctx, p, update.clone());
            }
        }
        for slot in fx.aborts {
            let pieces = self.pieces_at(task, slot);
            if let Some(t) = self.table().get_mut(task) {
                t.pieces.retain(|p| !pieces.contains(p));
            }
            for p in pieces {
                self.abort_task(ctx, p);
            }
        }
    }

    fn pieces_at(&mut self, task: TaskId, slot: u64) -> Vec<TaskId> {
        let table = self.table();
        let Some(t) = table.get(task) else {
            return Vec::new();
        };
        t.pieces
            .iter()
            .copied()
            .filter(|&p| {
                matches!(table.get(p).map(|c| c.parent), Some(Parent::Local { slot: s, .. }) if s == slot)
            })
            .collect()
    }

    fn deliver_update(&mut self, ctx: &mut dyn Context<Message<A>>, id: TaskId, update: A::Update) {
        self.counters.updates += 1;
        let mut fx = Effects::default();
        let Some(task) = self.table().get_mut(id) else {
            return;
        };
        match &mut task.state {
            State::Unassigned => task.updates.push(update),
            State::Given { to } => {
                let to = *to;
                task.updates.push(update.clone());
                ctx.send(to, Message::Update { task: id, update });
            }
            State::Active { search, runnable } => {
                task.updates.push(update.clone());
                if let Some(to) = task.given_to {
                    // Being redone here while the first receiver may still be at it.
                    ctx.send(
                        to,
                        Message::Update {
                            task: id,
                            update: update.clone(),
                        },
                    );
                }
                search.update(update, &mut fx);
                *runnable = true;
                self.apply(ctx, id, fx);
            }
        }
    }

    /// Removes task `id` and everything below it, telling every processor that holds a part.
    fn abort_task(&mut self, ctx: &mut dyn Context<Message<A>>, id: TaskId) {
        let Some(task) = self.table().remove(id) else {
            return;
        };
        self.counters.aborts += 1;
        if self.current == Some(id) {
            self.current = None;
        }
        if let Some(to) = task.given_to {
            ctx.send(to, Message::Abort { task: id });
        }
        if let Parent::Remote { giver, task: gt } = task.parent {
            self.received.remove(&(giver, gt));
        }
        for p in task.pieces {
            self.abort_task(ctx, p);
        }
    }

    /// Task `id` has value `value`: pass it to its parent.
    fn complete(&mut self, ctx: &mut dyn Context<Message<A>>, id: TaskId, value: A::Value) {
        let Some(task) = self.table().remove(id) else {
            return;
        };
        if self.current == Some(id) {
            self.current = None;
        }
        if let Some(to) = task.given_to {
            // Redone here before the receiver reported: it need not go on.
            ctx.send(to, Message::Abort { task: id });
        }
        for p in task.pieces {
            self.abort_task(ctx, p);
        }
        match task.parent {
            Parent::Root => {
                self.result = Some(value);
                ctx.finish();
            }
            Parent::Local { task: parent, slot } => {
                let mut fx = Effects::default();
                let Some(pt) = self.table().get_mut(parent) else {
                    return;
                };
                pt.pieces.retain(|&p| p != id);
                if let State::Active { search, runnable } = &mut pt.state {
                    search.absorb(slot, value, &mut fx);
                    *runnable = true;
                }
                self.apply(ctx, parent, fx);
            }
            Parent::Remote { giver, task: gt } => {
                self.received.remove(&(giver, gt));
                ctx.send(giver, Message::Result { task: gt, value });
            }
        }
    }

    /// Starts a search on task `id` (replaying the updates that reached it) and makes it
    /// current.
    fn start(&mut self, ctx: &mut dyn Context<Message<A>>, id: TaskId) {
        let app = Arc::clone(&self.app);
        let mut fx = Effects::default();
        let Some(task) = self.table().get_mut(id) else {
            return;
        };
        let mut search = app.start_on(ctx.id(), &task.problem);
        for u in task.updates.iter().cloned() {
            search.update(u, &mut fx);
        }
        task.state = State::Active {
            search,
            runnable: true,
        };
        self.current = Some(id);
        self.apply(ctx, id, fx);
    }

    /// The task to step next: the current one, a search unblocked by a result or update, or
    /// the first unassigned problem of the table.
    fn next_task(&mut self, ctx: &mut dyn Context<Message<A>>) -> Option<TaskId> {
        if let Some(c) = self.current {
            if matches!(
                self.table().get(c).map(|t| &t.state),
                Some(State::Active { .. })
            ) {
                return Some(c);
            }
            self.current = None;
        }
        if let Some(r) = self.table().runnable() {
            self.current = Some(r);
            return Some(r);
        }
        let t = self.table().pop_unassigned()?;
        self.start(ctx, t);
        self.current.filter(|&c| c == t)
    }

    fn step(&mut self, ctx: &mut dyn Context<Message<A>>, id: TaskId) {
        if self.config.ask_again_after_work {
            self.next_request_at = 0;
        }
        let quantum = ctx.slice_nodes().unwrap_or(self.config.quantum);
        let mut fx = Effects::at(ctx.now());
        let step = match self.table().get_mut(id).map(|t| &mut t.state) {
            Some(State::Active { search, .. }) => search.step(quantum, &mut fx),
            _ => {
                self.current = None;
                return;
            }
        };
        self.apply(ctx, id, fx);
        match step {
            Step::Continue => {}
            Step::Blocked => {
                if let Some(State::Active { runnable, .. }) =
                    self.table().get_mut(id).map(|t| &mut t.state)
                {
                    *runnable = false;
                }
                self.current = None;
            }
            Step::Done(value) => {
                self.current = None;
                self.complete(ctx, id, value);
            }
        }
    }

    /// Whether a search here makes this processor only a master ([`Search::only_master`]).
    fn master_here(&mut self) -> bool {
        let table = self.table();
        table.active_ids().into_iter().any(|t| {
            matches!(table.get(t).map(|t| &t.state), Some(State::Active { search, .. }) if search.only_master())
        })
    }

    /// Nothing to do here: ask a random peer for work, or redo work given away.
    fn seek(&mut self, ctx: &mut dyn Context<Message<A>>) -> Activity {
        let now = ctx.now();
        if let Some(deadline) = self.outstanding {
            if now < deadline {
                return Activity::Idle {
                    wake_at: Some(deadline),
                };
            }
            self.outstanding = None;
            self.failed += 1;
            self.counters.requests_timed_out += 1;
        }
        let alone = ctx.procs() < 2;
        if alone || self.failed >= self.config.redo_patience {
            if let Some(t) = self.table().oldest_given() {
                self.failed = 0;
                self.counters.work_redone += 1;
                self.start(ctx, t);
                return Activity::Busy;
            }
        }
        if alone || self.master_here() {
            // A master waits for requests and for its pieces' values.
            return Activity::Idle { wake_at: None };
        }
        if now < self.next_request_at {
            return Activity::Idle {
                wake_at: Some(self.next_request_at),
            };
        }
        let Some(peer) = ctx.random_peer() else {
            return Activity::Idle { wake_at: None };
        };
        ctx.send(peer, Message::Request);
        self.counters.requests_sent += 1;
        let deadline = ctx.now() + self.config.request_timeout_ns;
        self.outstanding = Some(deadline);
        Activity::Idle {
            wake_at: Some(deadline),
        }
    }
}

impl<A: Application> Processor for DibProcessor<A> {
    type Msg = Message<A>;

    fn run(&mut self, ctx: &mut dyn Context<Message<A>>) -> Activity {
        if self.table.is_none() {
            // A fresh random id base per life of this processor (see WorkTable::new).
            let base = (ctx.rng().next_u64() >> 24) << 24;
            self.table = Some(WorkTable::new(base));
            if let Some(root) = self.root.take() {
                self.table().push(Task::new(root, Parent::Root));
                // The root is started before any message is read: on real threads a peer's
                // first request can arrive before this slice, and answering it from the
                // table would hand the whole search away (the peer searching it, this
                // processor asking for work and at last redoing it). On the simulator the
                // inbox is empty here (every processor's first slice is at time 0, and
                // processor 0's comes first), so its runs are unchanged.
                if let Some(t) = self.next_task(ctx) {
                    self.step(ctx, t);
                    return Activity::Busy;
                }
            }
        }
        while let Some(env) = ctx.poll() {
            self.handle(ctx, env);
            if self.result.is_some() {
                return Activity::Idle { wake_at: None };
            }
        }
        if self.result.is_some() {
            return Activity::Idle { wake_at: None };
        }
        if let Some(t) = self.next_task(ctx) {
            self.step(ctx, t);
            return Activity::Busy;
        }
        self.seek(ctx)
    }
}
