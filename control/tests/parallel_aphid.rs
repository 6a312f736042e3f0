//! APHID returns exactly the value of sequential alpha-beta at the same depth for every game,
//! with automatic and fixed horizons, on the simulator (with and without faults) and on real
//! threads; its slaves really receive the leaves, and its mechanisms (bad bounds, load
//! balancing, exemptions, speculative search) all run on a middle-game Othello position.

mod common;

use common::{agreement_config as config, sequential_alphabeta as sequential, sim_backend as sim};

use common::{Lcg, depth_within_budget, random_position};
use control::parallel::aphid::{AphidOptions, Hierarchy, TtSharing};
use control::parallel::{ParallelAlgo, ParallelOptions, search};
use dib::Backend;
use games::{Game, GameId, GameInfo, GameVisitor};

fn options(depth: u32, procs: usize, backend: Backend, aphid: AphidOptions) -> ParallelOptions {
    let mut o = ParallelOptions::new(depth, procs, backend);
    o.search = config();
    o.min_split_depth = 1;
    o.aphid = aphid;
    o
}

fn fixed(master_depth: u32) -> AphidOptions {
    AphidOptions {
        master_depth: Some(master_depth),
        ..AphidOptions::default()
    }
}

/// For `count` random positions (seeded by `seed`) that are not over and have a depth within
/// the budget: `check(index, position, depth, sequential value)`.
fn each_position<G: Game>(seed: u64, count: usize, mut check: impl FnMut(usize, &G, u32, i32)) {
    let mut rng = Lcg(seed);
    for i in 0..count {
        let pos: G = random_position(&mut rng, 2 + i * 3);
        if pos.outcome().is_some() {
            continue;
        }
        let Some((depth, _)) = depth_within_budget(&pos, 6, 30_000) else {
            continue;
        };
        check(i, &pos, depth, sequential(&pos, depth));
    }
}

struct Agreement;

impl GameVisitor for Agreement {
    type Output = (u64, u64);

    fn visit<G: Game>(self, info: &'static GameInfo) -> (u64, u64) {
        let name = info.name;
        let (mut runs, mut moved) = (0, 0);
        each_position(77, 3, |i, pos: &G, depth, want| {
            let mut settings = vec![AphidOptions::default()];
            for h in 1..depth.min(3) {
                settings.push(fixed(h));
            }
            for aphid in settings {
                for procs in [2, 3, 5, 9, 16] {
                    let o = options(
                        depth,
                        procs,
                        sim(i as u64 * 7 + procs as u64, ""),
                        aphid.clone(),
                    );
                    let r = search(ParallelAlgo::Aphid, pos, &o)
                        .unwrap_or_else(|e| panic!("{name} x{procs}: {e}"));
                    assert_eq!(
                        r.value, want,
                        "{name} aphid {aphid:?} depth {depth} sim x{procs}, {pos}"
                    );
                    runs += 1;
                    moved += u64::from(r.total.dib.problems_received > 0);
                }
                for procs in [2, 4] {
                    let o = options(depth, procs, Backend::Threads { seed: 3 }, aphid.clone());
                    let r = search(ParallelAlgo::Aphid, pos, &o)
                        .unwrap_or_else(|e| panic!("{name} threads x{procs}: {e}"));
                    assert_eq!(
                        r.value, want,
                        "{name} aphid {aphid:?} depth {depth} threads x{procs}, {pos}"
                    );
                }
            }
        });
        (runs, moved)
    }
}

#[test]
fn aphid_agrees_with_sequential_alphabeta_on_every_game() {
    let (runs, moved) = summed_over_games(|| Agreement);
    eprintln!("{runs} simulated runs, {moved} gave leaves to slaves");
    assert!(
        moved * 2 > runs,
        "slaves got work in only {moved} of {runs} runs"
    );
}

struct Faulty;

impl GameVisitor for Faulty {
    type Output = ();

    fn visit<G: Game>(self, info: &'static GameInfo) {
        let name = info.name;
        let mut rng = Lcg(5);
        let pos: G = random_position(&mut rng, 4);
        if pos.outcome().is_some() {
            return;
        }
        let Some((depth, _)) = depth_within_budget(&pos, 6, 20_000) else {
            return;
        };
        let want = sequential(&pos, depth);
        for faults in [
            "drop=1/5",
            "crash=2@500",
            "crash=1@300+2ms,dup=1/10,delay=1/10,corrupt=1/20",
        ] {
            for seed in 0..3 {
                let o = options(depth, 5, sim(seed, faults), fixed(1));
                let r = search(ParallelAlgo::Aphid, &pos, &o)
                    .unwrap_or_else(|e| panic!("{name} {faults}: {e}"));
                assert_eq!(r.value, want, "{name} faults {faults} seed {seed}, {pos}");
            }
        }
    }
}

#[test]
fn faults_leave_the_value_unchanged() {
    for &g in GameId::ALL {
        g.visit(Faulty);
    }
}

#[test]
fn the_mechanisms_run_on_an_othello_middle_game() {
    let text = std::fs::read_to_string("../testsets/search/othello_midgame.txt")
        .expect("the Othello test set");
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .expect("a position");
    let pos: games::othello::Othello<8> =
        Game::parse_position(line.trim()).expect("a valid position");
    let depth = 6;
    let want = sequential(&pos, depth);
    for tt in [TtSharing::Local, TtSharing::Shared] {
        let aphid = AphidOptions {
            master_depth: Some(2),
            exemption_factor: 3,
            tt,
            ..AphidOptions::default()
        };
        let o = options(depth, 9, sim(1, ""), aphid);
        let r = search(ParallelAlgo::Aphid, &pos, &o).expect("a result");
        assert_eq!(r.value, want, "{tt}");
        let get = |k: &str| r.extra.iter().find(|(n, _)| *n == k).map_or(0.0, |e| e.1);
        assert!(get("aphid_leaves") > 8.0, "{:?}", r.extra);
        assert!(get("aphid_passes") > 1.0, "{:?}", r.extra);
        assert!(get("aphid_slave_required_nodes") > 0.0, "{:?}", r.extra);
        assert!(r.total.dib.problems_received > 0);
    }
}

/// Tail splitting exempts uncertain leaves during the last iterations, and the value stays
/// the sequential one (the untouched leaves that slaves search in the last iteration too).
#[test]
fn tail_splitting_keeps_the_value() {
    let pos = othello_midgame();
    let depth = 9;
    let want = sequential(&pos, depth);
    let mut splits = 0.0;
    for (procs, seed) in [(16, 1), (16, 2), (33, 3)] {
        let aphid = AphidOptions {
            master_depth: Some(2),
            split_tail: 1,
            tt: TtSharing::Shared,
            ..AphidOptions::default()
        };
        let o = options(depth, procs, sim(seed, ""), aphid);
        let r = search(ParallelAlgo::Aphid, &pos, &o).expect("a result");
        assert_eq!(r.value, want, "x{procs}");
        splits += extra(&r.extra, "aphid_splits");
    }
    assert!(splits > 0.0, "no leaf was split");
}

/// Required searches cut into slices (`required_slice_nodes`, a tiny budget so that most
/// are cut) keep the sequential value, with and without message faults, and the priority
/// order (`priority_from_depth`) too.
#[test]
fn required_slices_keep_the_value() {
    let pos = othello_midgame();
    let depth = 9;
    let want = sequential(&pos, depth);
    let mut sliced = 0.0;
    for (procs, seed, faults, priority_from_depth) in [
        (16, 1, "", 0),
        (33, 2, "", 3),
        (16, 3, "drop=1/20,dup=1/20", 2),
    ] {
        let aphid = AphidOptions {
            master_depth: Some(3),
            required_slice_nodes: 64,
            priority_from_depth,
            tt: TtSharing::Shared,
            ..AphidOptions::default()
        };
        let o = options(depth, procs, sim(seed, faults), aphid);
        let r = search(ParallelAlgo::Aphid, &pos, &o).expect("a result");
        assert_eq!(r.value, want, "x{procs} {faults}");
        sliced += extra(&r.extra, "aphid_waste_sliced");
    }
    assert!(sliced > 0.0, "no required search was cut short");
}

/// New leaves held back from their slaves until a second (or third) pass touches them
/// (`new_leaf_passes`) keep the sequential value, with and without message faults and a crash,
/// and some rows are never handed out; the churn counters (`aphid_churn_*`) are reported.
/// One simulated run on the Othello middle game (`d'` 3, shared table) with the options
/// `aphid` and `(depth, procs, seed, faults)`, checked against the sequential value `want`;
/// the result's `extra` figures.
fn midgame_run(
    pos: &games::othello::Othello<8>,
    want: i32,
    (depth, procs, seed, faults): (u32, usize, u64, &str),
    aphid: AphidOptions,
) -> Vec<(&'static str, f64)> {
    let aphid = AphidOptions {
        master_depth: Some(3),
        tt: TtSharing::Shared,
        ..aphid
    };
    let o = options(depth, procs, sim(seed, faults), aphid.clone());
    let r = search(ParallelAlgo::Aphid, pos, &o).expect("a result");
    assert_eq!(r.value, want, "x{procs} {faults} {aphid:?}");
    r.extra
}

#[test]
fn deferred_new_leaves_keep_the_value() {
    let pos = othello_midgame();
    let depth = 9;
    let want = sequential(&pos, depth);
    let (mut deferred, mut released, mut passes) = (0.0, 0.0, 0.0);
    for (procs, seed, faults, new_leaf_passes) in [
        (16, 1, "", 2),
        (33, 2, "", 3),
        (16, 3, "drop=1/20,dup=1/20", 2),
        (9, 4, "crash=3@2000,drop=1/20,dup=1/20", 2),
    ] {
        let aphid = AphidOptions {
            new_leaf_passes,
            ..AphidOptions::default()
        };
        let figures = midgame_run(&pos, want, (depth, procs, seed, faults), aphid);
        deferred += extra(&figures, "aphid_churn_deferred_rows");
        released += extra(&figures, "aphid_churn_deferred_released");
        passes += extra(&figures, "aphid_churn_required_passes");
    }
    assert!(deferred > 0.0, "no new leaf was held back");
    assert!(released < deferred, "every held-back leaf was handed out");
    assert!(
        passes > 0.0,
        "no pass counted after a required-depth result"
    );
}

/// The guess options of session 7 (`tt_seeded_guesses`, `tt_reseed_guesses`,
/// `parity_guesses`, `leaf_probe_depth`) change only guesses, never what makes a leaf
/// certain: the sequential value, with and without message faults; the table does seed some leaves, and the master
/// does probe new leaves.
#[test]
fn guess_options_keep_the_value() {
    let pos = othello_midgame();
    let depth = 9;
    let want = sequential(&pos, depth);
    let (mut seeds, mut probes) = (0.0, 0.0);
    for (procs, seed, faults, parity, probe, reseed) in [
        (16, 1, "", false, 0, false),
        (33, 2, "", true, 2, true),
        (16, 3, "drop=1/20,dup=1/20", true, 1, true),
    ] {
        let aphid = AphidOptions {
            tt_seeded_guesses: true,
            tt_reseed_guesses: reseed,
            parity_guesses: parity,
            leaf_probe_depth: probe,
            ..AphidOptions::default()
        };
        let figures = midgame_run(&pos, want, (depth, procs, seed, faults), aphid);
        seeds += extra(&figures, "aphid_guess_seeds");
        let p = extra(&figures, "aphid_guess_probes");
        assert_eq!(p > 0.0, probe > 0, "x{procs} probe {probe}");
        probes += p;
    }
    assert!(seeds > 0.0, "no leaf was seeded from the table");
    assert!(probes > 0.0);
}

#[test]
fn incremental_passes_keep_the_value_and_descend_less() {
    let pos = othello_midgame();
    let depth = 9;
    let want = sequential(&pos, depth);
    let (mut cuts, mut per_pass) = (0.0, [0.0; 2]);
    for (procs, seed, faults) in [(16, 1, ""), (33, 2, ""), (16, 3, "drop=1/20,dup=1/20")] {
        // Both mechanisms of session 5 off, then both on (the defaults).
        for (k, incremental_passes, anchored_guesses) in [(0, false, false), (1, true, true)] {
            let aphid = AphidOptions {
                incremental_passes,
                anchored_guesses,
                ..AphidOptions::default()
            };
            let figures = midgame_run(&pos, want, (depth, procs, seed, faults), aphid);
            let proven = extra(&figures, "aphid_proven_cuts");
            assert_eq!(proven > 0.0, incremental_passes, "x{procs} {faults}");
            cuts += proven;
            per_pass[k] += extra(&figures, "aphid_pass_nodes") / extra(&figures, "aphid_passes");
        }
    }
    assert!(cuts > 0.0);
    assert!(
        per_pass[1] < per_pass[0],
        "nodes per pass: full {} incremental {}",
        per_pass[0],
        per_pass[1]
    );
}

/// Two levels below the master: 0 -> {1, 4}; 1 -> {2, 3}; 4 -> {5, 6}.
fn two_levels() -> AphidOptions {
    AphidOptions {
        hierarchy: Some(Hierarchy::from_parents(vec![0, 1, 1, 0, 4, 4]).expect("valid")),
        ..AphidOptions::default()
    }
}

struct HierarchyAgreement;

impl GameVisitor for HierarchyAgreement {
    type Output = (u64, u64);

    fn visit<G: Game>(self, info: &'static GameInfo) -> (u64, u64) {
        let name = info.name;
        let (mut runs, mut sessions) = (0, 0);
        each_position(91, 2, |i, pos: &G, depth, want| {
            let fixed = AphidOptions {
                master_depth: Some(1),
                ..two_levels()
            };
            for aphid in [two_levels(), fixed] {
                for backend in [sim(i as u64 + 11, ""), Backend::Threads { seed: 5 }] {
                    let o = options(depth, 7, backend.clone(), aphid.clone());
                    let r = search(ParallelAlgo::Aphid, pos, &o)
                        .unwrap_or_else(|e| panic!("{name} hierarchy {backend:?}: {e}"));
                    assert_eq!(
                        r.value, want,
                        "{name} hierarchy {aphid:?} {backend:?}, {pos}"
                    );
                    runs += 1;
                    sessions += u64::from(extra(&r.extra, "aphid_mid_leaves_given") > 0.0);
                }
            }
        });
        (runs, sessions)
    }
}

/// Runs a fresh `visitor()` on every registered game and sums the pairs they return.
fn summed_over_games<V: GameVisitor<Output = (u64, u64)>>(visitor: impl Fn() -> V) -> (u64, u64) {
    GameId::ALL.iter().fold((0, 0), |(runs, other), &g| {
        let (r, o) = g.visit(visitor());
        (runs + r, other + o)
    })
}

fn extra(extra: &[(&'static str, f64)], key: &str) -> f64 {
    extra.iter().find(|(n, _)| *n == key).map_or(0.0, |e| e.1)
}

#[test]
fn a_two_level_hierarchy_agrees_with_sequential_alphabeta() {
    let (runs, sessions) = summed_over_games(|| HierarchyAgreement);
    eprintln!("{runs} hierarchy runs, {sessions} with mid-level processes giving work away");
    assert!(
        sessions * 3 > runs,
        "mid-level processes gave work to their slaves in only {sessions} of {runs} runs"
    );
}

fn othello_midgame() -> games::othello::Othello<8> {
    let text = std::fs::read_to_string("../testsets/search/othello_midgame.txt")
        .expect("the Othello test set");
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .expect("a position");
    Game::parse_position(line.trim()).expect("a valid position")
}

#[test]
fn a_hierarchy_from_the_thesis_format_runs_an_othello_middle_game() {
    // Figure 5.16's shape (15 processes, three levels), from the thesis's own format.
    let text = std::fs::read_to_string("../testsets/aphid/figure-5.16.config")
        .expect("the thesis's figure 5.16");
    let aphid = AphidOptions::from_file_text("figure-5.16.config", &text).expect("valid");
    let pos = othello_midgame();
    let depth = 5;
    let want = sequential(&pos, depth);
    let o = options(depth, 15, sim(2, ""), aphid);
    let r = search(ParallelAlgo::Aphid, &pos, &o).expect("a result");
    assert_eq!(r.value, want);
    assert!(extra(&r.extra, "aphid_mid_sessions") > 0.0, "{:?}", r.extra);
    let wrong = options(depth, 9, sim(2, ""), o.aphid.clone());
    let e = search(ParallelAlgo::Aphid, &pos, &wrong).unwrap_err();
    assert!(e.to_string().contains("use 15 processors"), "{e}");
}

#[test]
fn shadow_tables_travel_around_the_ring_and_leave_the_value_unchanged() {
    let pos = othello_midgame();
    let depth = 6;
    let want = sequential(&pos, depth);
    let aphid = AphidOptions {
        master_depth: Some(2),
        tt: TtSharing::Distributed,
        shadow_min_depth: 2,
        ..AphidOptions::default()
    };
    for backend in [sim(4, ""), Backend::Threads { seed: 1 }] {
        let o = options(depth, 5, backend.clone(), aphid.clone());
        let r = search(ParallelAlgo::Aphid, &pos, &o).expect("a result");
        assert_eq!(r.value, want, "{backend:?}");
        let get = |k: &str| extra(&r.extra, k);
        assert!(get("aphid_shadow_tables_sent") > 0.0, "{:?}", r.extra);
        assert!(get("aphid_shadow_entries_inserted") > 0.0, "{:?}", r.extra);
        // Every table received is forwarded: with 4 slaves each goes through 3 peers.
        assert!(
            get("aphid_shadow_tables_received") <= 3.0 * get("aphid_shadow_tables_sent"),
            "{:?}",
            r.extra
        );
        if matches!(backend, Backend::Sim(_)) {
            assert!(get("aphid_shadow_tables_returned") > 0.0, "{:?}", r.extra);
        }
    }
    // Under faults too.
    let o = options(depth, 5, sim(7, "drop=1/10,dup=1/10"), aphid);
    let r = search(ParallelAlgo::Aphid, &pos, &o).expect("a result");
    assert_eq!(r.value, want);
}

/// Session 8's slice and catch-up options (`required_slice_growth`, `speculative_slice_cap`,
/// `catch_up_from`, `cut_keeps_window`, `exact_spare`) keep the sequential value, with and without message
/// faults, and the last iterations' timeline (`aphid_tail_*`) is reported.
#[test]
fn slice_and_catch_up_options_keep_the_value() {
    let pos = othello_midgame();
    let depth = 9;
    let want = sequential(&pos, depth);
    let mut exact = 0.0;
    for (procs, seed, faults, growth, cap, skip, keep) in [
        (16, 1, "", 4, 4096, 2, true),
        (9, 2, "drop=1/20,dup=1/20", 8, 0, 3, false),
        (16, 3, "", 2, 2048, 0, true),
    ] {
        let aphid = AphidOptions {
            required_slice_nodes: 64,
            required_slice_growth: growth,
            speculative_slice_cap: cap,
            catch_up_from: skip,
            cut_keeps_window: keep,
            exact_spare: keep,
            ..AphidOptions::default()
        };
        let extra = midgame_run(&pos, want, (depth, procs, seed, faults), aphid);
        assert!(
            extra
                .iter()
                .any(|(k, v)| *k == "aphid_tail_end_ns" && *v > 0.0),
            "the timeline is reported"
        );
        exact += extra
            .iter()
            .find(|(k, _)| *k == "aphid_tail_exact")
            .map_or(0.0, |e| e.1);
    }
    assert!(exact > 0.0, "no bound was made exact in spare time");
}

/// Session 10's window options (`alternative_window`: narrow windows off the principal
/// variation; `run_ahead_shift`: run-ahead windows centred on the value expected at the next
/// depth) change only the windows of the slaves' own searches: the sequential value, with and
/// without message faults.
#[test]
fn session_10_window_options_keep_the_value() {
    let pos = othello_midgame();
    let depth = 9;
    let want = sequential(&pos, depth);
    for (procs, seed, faults, width, shift) in [
        (16, 1, "", 1, false),
        (9, 2, "drop=1/20,dup=1/20", 3, true),
        (5, 3, "", 0, true),
    ] {
        let aphid = AphidOptions {
            alternative_window: width,
            run_ahead_shift: shift,
            ..AphidOptions::default()
        };
        let _ = midgame_run(&pos, want, (depth, procs, seed, faults), aphid);
    }
}

/// Session 11's options (`pv_window`: a wide window for the master's principal-variation
/// leaf; `value_ordering`: the master's passes order children by their last values) change
/// only which leaves are searched and with what window: the sequential value, with and
/// without message faults and with a crash.
#[test]
fn session_11_options_keep_the_value() {
    let pos = othello_midgame();
    let depth = 9;
    let want = sequential(&pos, depth);
    for (procs, seed, faults, pv_window, value_ordering) in [
        (16, 1, "", 100_000, false),
        (9, 2, "drop=1/20,dup=1/20", 40, true),
        (7, 4, "crash=3@2000", 0, true),
        (5, 3, "", 1, false),
    ] {
        let aphid = AphidOptions {
            pv_window,
            value_ordering,
            ..AphidOptions::default()
        };
        let _ = midgame_run(&pos, want, (depth, procs, seed, faults), aphid);
    }
}

/// The bad-bound options of session 8 (`bad_bound_margin`: wider requests, not re-sent while
/// one out covers the pass's window; `bad_bound_hold`: the value held while an answer is
/// pending; `early_bad_bounds`: requests before the required depth came back) change only
/// which windows are asked for and what the passes guess, never what makes a leaf certain:
/// the sequential value, with and without message faults and a crash; requests are sent and
/// answered, and the counters say so.
#[test]
fn bad_bound_options_keep_the_value() {
    let pos = othello_midgame();
    let depth = 9;
    let want = sequential(&pos, depth);
    let (mut requests, mut answers, mut early) = (0.0, 0.0, 0.0);
    for (procs, seed, faults, margin, hold, early_bad_bounds) in [
        (16, 1, "", 10, false, false),
        (33, 2, "", 1_000_000, true, false),
        (16, 3, "drop=1/20,dup=1/20", 20, true, true),
        (9, 4, "crash=3@2000,drop=1/20,dup=1/20", 0, true, true),
        (16, 5, "", 0, false, true),
    ] {
        let aphid = AphidOptions {
            bad_bound_margin: margin,
            bad_bound_hold: hold,
            early_bad_bounds,
            ..AphidOptions::default()
        };
        let figures = midgame_run(&pos, want, (depth, procs, seed, faults), aphid);
        requests += extra(&figures, "aphid_churn_bad_requests");
        answers += extra(&figures, "aphid_churn_bad_answers");
        let e = extra(&figures, "aphid_churn_bad_early");
        assert!(
            early_bad_bounds || e == 0.0,
            "x{procs}: early requests while off"
        );
        early += e;
    }
    assert!(requests > 0.0, "no bad bound was asked for");
    assert!(answers > 0.0, "no bad bound was answered");
    assert!(early > 0.0, "no bad bound was asked for early");
}

/// `master_hosts_slave` (session 9): `n` processors, the master and `n` slaves, the last in the
/// background of processor 0. Every game, random positions, sim (with and without message
/// faults) and threads: the sequential value, `n` processors in the result, `n + 1`
/// processes in the accounts.
struct HostedAgreement;

impl GameVisitor for HostedAgreement {
    type Output = (u64, u64);

    fn visit<G: Game>(self, info: &'static GameInfo) -> (u64, u64) {
        let name = info.name;
        let (mut runs, mut hosted_worked) = (0, 0);
        each_position(91, 2, |i, pos: &G, depth, want| {
            let aphid = AphidOptions {
                master_hosts_slave: true,
                ..AphidOptions::default()
            };
            for (procs, faults) in [
                (1, ""),
                (2, ""),
                (3, "drop=1/20,dup=1/20,delay=1/20"),
                (5, ""),
                (9, "drop=1/20,dup=1/20"),
            ] {
                let o = options(
                    depth,
                    procs,
                    sim(i as u64 * 5 + procs as u64, faults),
                    aphid.clone(),
                );
                let r = search(ParallelAlgo::Aphid, pos, &o)
                    .unwrap_or_else(|e| panic!("{name} hosted x{procs} {faults}: {e}"));
                assert_eq!(r.value, want, "{name} hosted x{procs} {faults}, {pos}");
                assert_eq!(r.procs, procs, "processors, not processes");
                assert_eq!(r.accounts.len(), procs + 1);
                runs += 1;
                hosted_worked += u64::from(r.accounts[procs].backend.nodes > 0);
            }
            let o = options(depth, 2, Backend::Threads { seed: 5 }, aphid);
            let r = search(ParallelAlgo::Aphid, pos, &o)
                .unwrap_or_else(|e| panic!("{name} hosted threads x2: {e}"));
            assert_eq!(r.value, want, "{name} hosted threads x2, {pos}");
            assert_eq!((r.procs, r.accounts.len()), (2, 3));
        });
        (runs, hosted_worked)
    }
}

#[test]
fn a_slave_on_the_masters_processor_keeps_the_value_on_every_game() {
    let (runs, worked) = summed_over_games(|| HostedAgreement);
    assert!(runs > 0);
    assert!(
        worked > 0,
        "the hosted slave searched in none of {runs} runs"
    );
}

/// The same at depth 9 on an Othello middle-game position, with message faults and a crash,
/// with the hosted slave given leaves in every lap, every other lap or never (moved work
/// only): the value, and the hosted slave's work, preemption and the master's share of
/// processor 0.
#[test]
fn a_slave_on_the_masters_processor_works_in_its_idle_time() {
    let pos = othello_midgame();
    let depth = 9;
    let want = sequential(&pos, depth);
    for (procs, seed, faults, hosted_slave_laps) in [
        (16, 1, "", 1),
        (16, 2, "", 0),
        (9, 4, "crash=3@2000,drop=1/20,dup=1/20", 0),
        (5, 3, "drop=1/20,dup=1/20,delay=1/20", 2),
    ] {
        let aphid = AphidOptions {
            master_depth: Some(3),
            tt: TtSharing::Shared,
            master_hosts_slave: true,
            hosted_slave_laps,
            ..AphidOptions::default()
        };
        let o = options(depth, procs, sim(seed, faults), aphid);
        let r = search(ParallelAlgo::Aphid, &pos, &o).expect("a result");
        assert_eq!(r.value, want, "hosted x{procs} {faults}");
        assert_eq!(r.procs, procs);
        let (master, hosted) = (r.accounts[0].backend, r.accounts[procs].backend);
        assert!(hosted.nodes > 0, "x{procs}: the hosted slave did no work");
        assert!(
            hosted.preempted_ns > 0,
            "x{procs}: the master never preempted it"
        );
        assert!(
            r.sim.is_some_and(|s| s.preemptions > 0),
            "x{procs}: no preemption"
        );
        assert_eq!(
            extra(&r.extra, "aphid_hosted_slave_nodes"),
            hosted.nodes as f64
        );
        assert_eq!(extra(&r.extra, "master_processors"), 0.0);
        let share = extra(&r.extra, "aphid_master_cpu_share");
        assert!(share > 0.0 && share < 1.0, "x{procs}: share {share}");
        // Processor 0 is never busier than the time that passed on it.
        let whole =
            |c: dib::BackendCounters| c.busy_ns + c.idle_ns + c.messaging_ns + c.preempted_ns;
        let cpu_busy = master.busy_ns + master.messaging_ns + hosted.busy_ns + hosted.messaging_ns;
        assert!(cpu_busy <= whole(master).max(whole(hosted)), "x{procs}");
    }
}
