//! What the master does with its work after a pass: hands new leaves to slaves,
//! balances the load (thesis 5.2.5), exempts large pieces, splits the tail, and recovers the
//! work of silent slaves.

use std::collections::BTreeMap;

use dib::{Context, Nanos};
use games::Game;

use crate::parallel::aphid::balance::{self, Load, Piece};
use crate::parallel::aphid::message::Msg;
use crate::parallel::aphid::table::LeafId;

use super::{Master, Pass};

/// Tail splitting exempts only uncertain leaves needing at least `g` + this many plies (the
/// grandchildren then need at least `g + 2`).
const SPLIT_MIN_PLIES: u32 = 6;

impl<G: Game> Master<G> {
    /// Priorities, new assignments, bad bounds and load balancing after a pass.
    pub(super) fn after_pass(&mut self, pass: Pass, ctx: &mut dyn Context<Msg>) {
        let epoch = self.epoch();
        let mut priority: BTreeMap<LeafId, u32> = BTreeMap::new();
        for &(id, p) in &pass.touched {
            let e = priority.entry(id).or_insert(0);
            *e = (*e).max(p);
        }
        for &id in &pass.new_leaves {
            let Some(row) = self.table.row_mut(id) else {
                continue;
            };
            row.master.priority = priority.get(&id).copied().unwrap_or(0);
            row.master.touched = row.master.priority > 0;
            if let Some(owner) = row.master.owner {
                let msg = Msg::Assign {
                    epoch,
                    leaf: id,
                    path: row.master.path.clone(),
                    priority: row.master.priority,
                    bad: None,
                };
                self.sent_to(owner, ctx.now());
                ctx.send(owner, msg);
            }
        }
        let mut changes: BTreeMap<usize, Vec<(LeafId, u32)>> = BTreeMap::new();
        let kept = &pass.kept;
        let under_kept =
            |path: &[u16]| !kept.is_empty() && (1..path.len()).any(|n| kept.contains(&path[..n]));
        for (i, row) in self.table.rows_mut().iter_mut().enumerate() {
            let id = i as LeafId;
            // A leaf below a node the pass did not descend keeps its priority, unless the pass
            // reached it all the same (NegaScout's re-search descends a node its null-window
            // search cut).
            if under_kept(&row.master.path) && !priority.contains_key(&id) {
                continue;
            }
            let p = priority.get(&id).copied().unwrap_or(0);
            row.master.touched = p > 0;
            if row.master.priority != p {
                row.master.priority = p;
                if let Some(owner) = row.master.owner {
                    changes.entry(owner).or_default().push((id, p));
                }
            }
        }
        for (owner, changes) in changes {
            ctx.send(owner, Msg::Priorities { epoch, changes });
        }
        self.split_tail(&pass);
        for &(id, bad) in &pass.bad {
            let Some(owner) = self.table.row(id).and_then(|r| r.master.owner) else {
                continue;
            };
            self.pending_bad.insert(id, bad);
            self.stats.bad_bounds += 1;
            self.sent_to(owner, ctx.now());
            ctx.send(
                owner,
                Msg::BadBound {
                    epoch,
                    leaf: id,
                    bad,
                },
            );
        }
        self.waiting_by_slave.clear();
        for &id in &pass.waiting {
            if let Some(owner) = self.table.row(id).and_then(|r| r.master.owner) {
                self.waiting_by_slave.entry(owner).or_default().push(id);
            }
        }
        if self.opts.load_balancing && pass.uncertain > 0 {
            self.balance(ctx);
        }
    }

    /// Notes work sent to slave `to` at `now`; the first piece of the last slave to receive
    /// one ends the start-up.
    fn sent_to(&mut self, to: usize, now: Nanos) {
        let Some(info) = self.slaves.get_mut(to - 1) else {
            return;
        };
        info.last_sent = now;
        if !info.started {
            info.started = true;
            if self.slaves.iter().all(|s| s.started) {
                self.stats.startup_ns = Some(now);
            }
        }
    }

    fn assign(&mut self, id: LeafId, to: usize, ctx: &mut dyn Context<Msg>) {
        self.sent_to(to, ctx.now());
        if let Some(row) = self.table.row(id) {
            ctx.send(
                to,
                Msg::Assign {
                    epoch: self.epoch(),
                    leaf: id,
                    path: row.master.path.clone(),
                    priority: row.master.priority,
                    bad: self.pending_bad.get(&id).copied(),
                },
            );
        }
    }

    fn balance(&mut self, ctx: &mut dyn Context<Msg>) {
        let required_of = |ply: u32| self.iteration.saturating_sub(ply);
        let loads: Vec<Load> = (1..=self.slaves.len())
            .filter(|&s| !self.slaves[s - 1].dead)
            .map(|s| Load {
                slave: s,
                uncertain: self
                    .waiting_by_slave
                    .get(&s)
                    .map(|v| {
                        v.iter()
                            .filter_map(|&id| {
                                let row = self.table.row(id)?;
                                Some(Piece {
                                    leaf: id,
                                    nodes: row.nodes_at(required_of(row.ply()).saturating_sub(1)),
                                    moved_last: row.master.moved_last,
                                })
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
            })
            .collect();
        let moves = balance::plan(&loads);
        if moves.is_empty() {
            return;
        }
        for row in self.table.rows_mut() {
            row.master.moved_last = false;
        }
        for m in moves {
            if let Some(row) = self.table.row_mut(m.leaf) {
                row.master.owner = Some(m.to);
                row.master.moved_last = true;
            }
            self.stats.moves += 1;
            ctx.send(m.from, Msg::Revoke { leaf: m.leaf });
            self.assign(m.leaf, m.to, ctx);
            if let Some(v) = self.waiting_by_slave.get_mut(&m.from) {
                v.retain(|&x| x != m.leaf);
            }
            self.waiting_by_slave.entry(m.to).or_default().push(m.leaf);
        }
    }

    /// Tail splitting (`AphidOptions::split_tail`): when few leaves are uncertain, the
    /// iteration waits on them while the other slaves idle or run ahead; the big ones (not yet
    /// searched to their required depth, needing at least `g + 6` plies) are exempted at once,
    /// so that the next pass hands their grandchildren to every slave.
    fn split_tail(&mut self, pass: &Pass) {
        let Some(g) = self.geometry else {
            return;
        };
        let slaves = self.slaves.iter().filter(|s| !s.dead).count();
        let limit = self.opts.split_tail as usize;
        if limit == 0 || pass.uncertain == 0 || pass.uncertain as usize * limit > slaves {
            return;
        }
        for &id in &pass.waiting {
            let Some(row) = self.table.row(id) else {
                continue;
            };
            let required = self.iteration.saturating_sub(row.ply());
            if required < g.granularity + SPLIT_MIN_PLIES || row.slave.get(required).is_some() {
                continue;
            }
            if self.exempt.insert(row.master.path.clone()) {
                self.stats.exemptions += 1;
                self.stats.splits += 1;
                self.dirty = true;
            }
        }
    }

    /// Between iterations: exempt the largest piece of the finished one if it is
    /// `exemption_factor` times the average.
    pub(super) fn exempt_largest(&mut self) {
        let Some(g) = self.geometry else {
            return;
        };
        let next = self.iteration + 1;
        let sizes: Vec<(LeafId, u64)> = self
            .table
            .rows()
            .iter()
            .enumerate()
            .filter(|(_, r)| r.master.touched && r.master.owner.is_some())
            .map(|(i, r)| {
                (
                    i as LeafId,
                    r.nodes_at(self.iteration.saturating_sub(r.ply())),
                )
            })
            .collect();
        let Some(id) = balance::exemption(&sizes, self.opts.exemption_factor) else {
            return;
        };
        let Some(row) = self.table.row(id) else {
            return;
        };
        if next >= row.ply() + 2 + g.granularity && !self.exempt.contains(&row.master.path) {
            self.exempt.insert(row.master.path.clone());
            self.stats.exemptions += 1;
        }
    }

    /// Re-sends to silent slaves and gives away the work of dead ones.
    pub(super) fn recover(&mut self, ctx: &mut dyn Context<Msg>) {
        let now = ctx.now();
        let mut dead = Vec::new();
        let all_waiting = self.waiting_by_slave.clone();
        for (&s, waiting) in &all_waiting {
            if waiting.is_empty() {
                continue;
            }
            let info = self.slaves[s - 1];
            if info.dead {
                continue;
            }
            let silent = now.saturating_sub(info.last_heard);
            if silent >= self.opts.dead_after_ns {
                dead.push(s);
                continue;
            }
            let wait = self.opts.patience_ns << info.backoff.min(8);
            // Said it was done although we gave it work long enough ago: something was lost.
            let idle_with_work = info.done_iteration == Some(self.iteration)
                && now.saturating_sub(info.last_sent) >= self.opts.patience_ns;
            if (silent >= self.opts.patience_ns || idle_with_work)
                && now.saturating_sub(info.last_resend) >= wait
            {
                for &id in waiting {
                    self.assign(id, s, ctx);
                    self.stats.resends += 1;
                }
                let info = &mut self.slaves[s - 1];
                info.last_resend = now;
                info.backoff += 1;
            }
        }
        for s in dead {
            self.slaves[s - 1].dead = true;
            self.stats.deaths += 1;
            let owned: Vec<LeafId> = self
                .table
                .rows()
                .iter()
                .enumerate()
                .filter(|(_, r)| r.master.owner == Some(s))
                .map(|(i, _)| i as LeafId)
                .collect();
            for id in owned {
                let to = self.live_slave();
                if let Some(row) = self.table.row_mut(id) {
                    row.master.owner = to;
                }
                if let Some(to) = to {
                    self.assign(id, to, ctx);
                }
            }
            self.dirty = true;
        }
    }
}
