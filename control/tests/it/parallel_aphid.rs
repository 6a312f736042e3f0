//! APHID returns exactly the value of sequential alpha-beta at the same depth for every game,
//! with automatic and fixed horizons, on the simulator (with and without faults) and on real
//! threads; its slaves really receive the leaves, and its mechanisms (bad bounds, load
//! balancing, exemptions, speculative search) all run on a middle-game Othello position.

use crate::common;

use common::{agreement_config as config, sequential_alphabeta as sequential, sim_backend as sim};

use common::{Lcg, depth_within_budget, random_position};
use control::parallel::aphid::{
    AphidFigures, AphidOptions, Hierarchy, MasterSearch, PickOrder, TtSharing,
};
use control::parallel::{ParallelAlgo, ParallelOptions, ParallelResult, search};
use dib::Backend;
use games::{Game, GameId, GameInfo, GameVisitor};

fn options(depth: u32, procs: usize, backend: Backend, aphid: AphidOptions) -> ParallelOptions {
    let mut o = ParallelOptions::new(depth, procs, backend);
    o.search = config();
    // The small trees of these tests go parallel from one ply above the leaves.
    o.aphid = AphidOptions {
        min_granularity: 1,
        ..aphid
    };
    o
}

fn fixed(master_depth: u32) -> AphidOptions {
    AphidOptions {
        master_depth: Some(master_depth),
        ..AphidOptions::default()
    }
}

/// The thesis's pick order (5.2.3) and master's NegaScout pass (figure 5.10).
fn thesis_rules() -> AphidOptions {
    AphidOptions {
        pick: PickOrder::Priority,
        master_search: MasterSearch::Negascout,
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
            let mut settings = vec![AphidOptions::default(), thesis_rules()];
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
        let f = figures(&r);
        assert!(f.leaves > 8, "{f:?}");
        assert!(f.master.passes > 1, "{f:?}");
        assert!(f.slave_required_nodes > 0, "{f:?}");
        // Every slave got work, the last one before the search ended.
        let startup = f.master.startup_ns.expect("every slave received a piece");
        assert!(startup > 0 && (startup as f64) < r.seconds * 1e9, "{f:?}");
        assert_eq!(f.master_processors, 1, "{f:?}");
        assert!(f.geometry.is_some_and(|g| g.master_depth == 2), "{f:?}");
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
    let mut splits = 0;
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
        splits += figures(&r).master.splits;
    }
    assert!(splits > 0, "no leaf was split");
}

/// Required searches cut into slices (`required_slice_nodes`, a tiny budget so that most
/// are cut) keep the sequential value, with and without message faults, and the slices
/// change the schedule (the same run unsliced searches another number of nodes).
#[test]
fn required_slices_keep_the_value() {
    let pos = othello_midgame();
    let depth = 9;
    let want = sequential(&pos, depth);
    let mut changed = 0;
    for (procs, seed, faults) in [(16, 1, ""), (33, 2, ""), (16, 3, "drop=1/20,dup=1/20")] {
        let mut nodes = Vec::new();
        for required_slice_nodes in [64, 0] {
            let aphid = AphidOptions {
                master_depth: Some(3),
                required_slice_nodes,
                tt: TtSharing::Shared,
                ..AphidOptions::default()
            };
            let o = options(depth, procs, sim(seed, faults), aphid);
            let r = search(ParallelAlgo::Aphid, &pos, &o).expect("a result");
            assert_eq!(r.value, want, "x{procs} {faults}");
            nodes.push(r.nodes);
        }
        changed += usize::from(nodes[0] != nodes[1]);
    }
    assert!(changed > 0, "slices of 64 nodes never changed the schedule");
}

/// One simulated run on the Othello middle game (`d'` 3, shared table) with the options
/// `aphid` and `(depth, procs, seed, faults)`, checked against the sequential value `want`;
/// the result's `extra` figures.
fn midgame_run(
    pos: &games::othello::Othello<8>,
    want: i32,
    (depth, procs, seed, faults): (u32, usize, u64, &str),
    aphid: AphidOptions,
) -> AphidFigures {
    let aphid = AphidOptions {
        master_depth: Some(3),
        tt: TtSharing::Shared,
        ..aphid
    };
    let o = options(depth, procs, sim(seed, faults), aphid.clone());
    let r = search(ParallelAlgo::Aphid, pos, &o).expect("a result");
    assert_eq!(r.value, want, "x{procs} {faults} {aphid:?}");
    r.aphid.expect("APHID's figures")
}

/// The table seeds of the guesses (`tt_seeded_guesses`, `tt_reseed_guesses`) change only
/// guesses, never what makes a leaf certain: the sequential value, with and without message
/// faults; the table does seed some leaves when on, and none when off.
#[test]
fn guess_options_keep_the_value() {
    let pos = othello_midgame();
    let depth = 9;
    let want = sequential(&pos, depth);
    let mut seeds = 0;
    for (procs, seed, faults, seeded, reseed) in [
        (16, 1, "", true, false),
        (33, 2, "", true, true),
        (16, 3, "drop=1/20,dup=1/20", false, false),
    ] {
        let aphid = AphidOptions {
            tt_seeded_guesses: seeded,
            tt_reseed_guesses: reseed,
            ..AphidOptions::default()
        };
        let figures = midgame_run(&pos, want, (depth, procs, seed, faults), aphid);
        let s = figures.guesses.seeds;
        assert_eq!(s > 0, seeded, "x{procs} seeded {seeded}");
        seeds += s;
    }
    assert!(seeds > 0, "no leaf was seeded from the table");
}

#[test]
fn incremental_passes_keep_the_value_and_descend_less() {
    let pos = othello_midgame();
    let depth = 9;
    let want = sequential(&pos, depth);
    let (mut cuts, mut per_pass) = (0, [0.0; 2]);
    for (procs, seed, faults) in [(16, 1, ""), (33, 2, ""), (16, 3, "drop=1/20,dup=1/20")] {
        // Incremental passes and anchored guesses off, then both on (the defaults).
        for (k, incremental_passes, anchored_guesses) in [(0, false, false), (1, true, true)] {
            let aphid = AphidOptions {
                incremental_passes,
                anchored_guesses,
                ..AphidOptions::default()
            };
            let figures = midgame_run(&pos, want, (depth, procs, seed, faults), aphid);
            let proven = figures.master.proven_cuts;
            assert_eq!(proven > 0, incremental_passes, "x{procs} {faults}");
            cuts += proven;
            per_pass[k] += figures.master.pass_nodes as f64 / figures.master.passes as f64;
        }
    }
    assert!(cuts > 0);
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
        let (mut runs, mut jobs) = (0, 0);
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
                    jobs += u64::from(figures(&r).mids.is_some_and(|m| m.leaves_given > 0));
                }
            }
        });
        (runs, jobs)
    }
}

/// Runs a fresh `visitor()` on every registered game and sums the pairs they return.
fn summed_over_games<V: GameVisitor<Output = (u64, u64)>>(visitor: impl Fn() -> V) -> (u64, u64) {
    GameId::ALL.iter().fold((0, 0), |(runs, other), &g| {
        let (r, o) = g.visit(visitor());
        (runs + r, other + o)
    })
}

/// APHID's figures of a run.
fn figures<M>(r: &ParallelResult<M>) -> &AphidFigures {
    r.aphid.as_ref().expect("APHID's figures")
}

#[test]
fn a_two_level_hierarchy_agrees_with_sequential_alphabeta() {
    let (runs, jobs) = summed_over_games(|| HierarchyAgreement);
    eprintln!("{runs} hierarchy runs, {jobs} with mid-level processes giving work away");
    assert!(
        jobs * 3 > runs,
        "mid-level processes gave work to their slaves in only {jobs} of {runs} runs"
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
    let f = figures(&r);
    assert!(f.mids.is_some_and(|m| m.jobs > 0), "{f:?}");
    assert!(
        f.master_processors > 1,
        "mid-level processes are masters too: {f:?}"
    );
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
        let ring = figures(&r).shadow.expect("the ring's counters");
        assert!(ring.tables_sent > 0, "{ring:?}");
        assert!(ring.entries_inserted > 0, "{ring:?}");
        // Every table received is forwarded: with 4 slaves each goes through 3 peers.
        assert!(ring.tables_received <= 3 * ring.tables_sent, "{ring:?}");
        if matches!(backend, Backend::Sim(_)) {
            assert!(ring.tables_returned > 0, "{ring:?}");
        }
    }
    // Under faults too.
    let o = options(depth, 5, sim(7, "drop=1/10,dup=1/10"), aphid);
    let r = search(ParallelAlgo::Aphid, &pos, &o).expect("a result");
    assert_eq!(r.value, want);
}

/// The bad-bound margin (`bad_bound_margin`: wider requests, not re-sent while one out
/// covers the pass's window) changes only which windows are asked for, never what makes a
/// leaf certain: the sequential value, with and without message faults and a crash, with the
/// thesis's rule (0), the default and an exact-value request; requests are sent.
#[test]
fn bad_bound_options_keep_the_value() {
    let pos = othello_midgame();
    let depth = 9;
    let want = sequential(&pos, depth);
    let mut requests = 0;
    for (procs, seed, faults, margin) in [
        (16, 1, "", 10),
        (33, 2, "", 1_000_000),
        (16, 3, "drop=1/20,dup=1/20", 20),
        (9, 4, "crash=3@2000,drop=1/20,dup=1/20", 0),
        (16, 5, "", 0),
    ] {
        let aphid = AphidOptions {
            bad_bound_margin: margin,
            ..AphidOptions::default()
        };
        let figures = midgame_run(&pos, want, (depth, procs, seed, faults), aphid);
        requests += figures.master.bad_bounds;
    }
    assert!(requests > 0, "no bad bound was asked for");
}

/// Bratko-Kopec 1 (`Qd1+`): black mates in 5 plies, so from depth 5 the hypothetical root
/// value is decisive. The slaves' windows stay centred on it (on each leaf's distance to the
/// end), and APHID on 8 processors searches a few times sequential alpha-beta's nodes (about
/// 1.4), not the exact value of every leaf it touches (31 and 143 times at depths 6 and 7).
#[test]
fn a_forced_mate_keeps_the_slaves_windows_narrow() {
    use games::chess::Chess;
    let pos = Chess::parse_position("1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1")
        .expect("a valid FEN");
    let aphid = AphidOptions {
        tt: TtSharing::Shared,
        ..AphidOptions::default()
    };
    for depth in [6, 7] {
        let seq = search(
            ParallelAlgo::AlphaBeta,
            &pos,
            &options(depth, 1, sim(1, ""), aphid.clone()),
        )
        .expect("a result");
        assert_eq!(seq.value, games::score::win_in(5));
        let r = search(
            ParallelAlgo::Aphid,
            &pos,
            &options(depth, 8, sim(1, ""), aphid.clone()),
        )
        .expect("a result");
        assert_eq!(r.value, seq.value, "depth {depth}");
        assert!(
            r.nodes <= 4 * seq.nodes,
            "depth {depth}: {} nodes against sequential {}",
            r.nodes,
            seq.nodes
        );
    }
}

/// Brockington and Schaeffer's setting (`testsets/aphid/bs96.toml`: `d' = 3`, same-parity guesses,
/// windows around the last pass's value, reports every 250 nodes whatever the number of slaves, no
/// exemptions) on the `sun4-pvm` machine: the sequential value on chess positions on 4 and 16
/// processors, with and without same-parity guesses, and the option changes which results the
/// guesses take.
#[test]
fn brockington_schaeffer_options_keep_the_value_on_chess() {
    let text = include_str!("../../../testsets/aphid/bs96.toml");
    let bs96 = AphidOptions::from_file_text("bs96.toml", text).expect("bs96.toml");
    assert!(bs96.parity_guesses && !bs96.scale_reports);
    let epd = std::fs::read_to_string("../testsets/search/bratko_kopec.epd").expect("BK");
    let mut other_parity = [0u64; 2];
    for line in epd.lines().filter(|l| l.contains("bm ")).skip(2).take(2) {
        let fen: Vec<&str> = line.split_whitespace().take(4).collect();
        let pos: games::chess::Chess =
            Game::parse_position(&format!("{} 0 1", fen.join(" "))).expect("a position");
        let depth = 5;
        let want = sequential(&pos, depth);
        for (k, parity_guesses) in [false, true].into_iter().enumerate() {
            for procs in [4, 16] {
                let aphid = AphidOptions {
                    parity_guesses,
                    ..bs96.clone()
                };
                let cost = dib::CostModel::preset("sun4-pvm").expect("the preset");
                let backend = Backend::Sim(dib::SimConfig::new(cost, procs as u64));
                let o = options(depth, procs, backend, aphid);
                let r = search(ParallelAlgo::Aphid, &pos, &o).expect("a result");
                assert_eq!(r.value, want, "{line} x{procs} parity {parity_guesses}");
                other_parity[k] += r.aphid.expect("figures").guesses.other_parity;
            }
        }
    }
    assert!(
        other_parity[1] < other_parity[0],
        "same-parity guesses take fewer results of the other parity: {other_parity:?}"
    );
}

/// The slaves' library calls (`library_slowdown_percent`, Brockington and Schaeffer's setting) slow
/// a slave's node rate by that share of its nodes per second and add no nodes: on `sun4-pvm` (400
/// us a node) a slave's busy time per node is 400 us without them and 400 / 0.85 us with 15 %, and
/// the value stays the sequential one.
#[test]
fn the_library_calls_slow_the_slaves_node_rate() {
    let text = include_str!("../../../testsets/aphid/bs96.toml");
    let bs96 = AphidOptions::from_file_text("bs96.toml", text).expect("bs96.toml");
    assert_eq!(bs96.library_slowdown_percent, 15);
    let epd = std::fs::read_to_string("../testsets/search/bratko_kopec.epd").expect("BK");
    let line = epd
        .lines()
        .find(|l| !l.starts_with('#') && l.contains("bm "))
        .expect("a position");
    let fen: Vec<&str> = line.split_whitespace().take(4).collect();
    let pos: games::chess::Chess =
        Game::parse_position(&format!("{} 0 1", fen.join(" "))).expect("a position");
    let depth = 5;
    let want = sequential(&pos, depth);
    for (percent, per_node) in [(0u32, 400_000.0), (15, 400_000.0 / 0.85)] {
        let aphid = AphidOptions {
            library_slowdown_percent: percent,
            ..bs96.clone()
        };
        let cost = dib::CostModel::preset("sun4-pvm").expect("the preset");
        let backend = Backend::Sim(dib::SimConfig::new(cost, 4));
        let r = search(
            ParallelAlgo::Aphid,
            &pos,
            &options(depth, 4, backend, aphid),
        )
        .expect("a result");
        assert_eq!(r.value, want, "{percent} %");
        for (i, a) in r.accounts.iter().enumerate().skip(1) {
            let b = &a.backend;
            assert!(b.nodes > 0, "slave {i} searched");
            let rate = b.busy_ns as f64 / b.nodes as f64;
            assert!(
                (rate / per_node - 1.0).abs() < 0.01,
                "{percent} %: slave {i} {rate} ns a node, want {per_node}"
            );
        }
    }
}

/// Each pick order and each master's pass, alone and together, keep the value on the Othello
/// middle game, with and without message faults; a narrow aspiration window (1 unit) makes
/// passes over certain leaves fail outside it and the master widen it and pass again.
#[test]
fn the_thesis_rules_keep_the_value() {
    let pos = othello_midgame();
    let depth = 9;
    let want = sequential(&pos, depth);
    for (procs, seed, faults, pick, master_search) in [
        (16, 1, "", PickOrder::Priority, MasterSearch::Alphabeta),
        (33, 2, "", PickOrder::Deficit, MasterSearch::Negascout),
        (
            16,
            3,
            "drop=1/20,dup=1/20",
            PickOrder::Priority,
            MasterSearch::Negascout,
        ),
        (
            9,
            4,
            "crash=3@2000",
            PickOrder::Priority,
            MasterSearch::Negascout,
        ),
    ] {
        let aphid = AphidOptions {
            pick,
            master_search,
            ..AphidOptions::default()
        };
        let figures = midgame_run(&pos, want, (depth, procs, seed, faults), aphid);
        assert_eq!(
            figures.master.aspiration_fails, 0,
            "x{procs}: within 50 units"
        );
    }
    let mut fails = 0;
    for (procs, seed, faults) in [(16, 1, ""), (9, 2, "drop=1/20,dup=1/20")] {
        let aphid = AphidOptions {
            master_depth: Some(3),
            tt: TtSharing::Shared,
            ..thesis_rules()
        };
        let mut o = options(depth, procs, sim(seed, faults), aphid);
        o.search.aspiration = Some(1);
        let r = search(ParallelAlgo::Aphid, &pos, &o).expect("a result");
        assert_eq!(r.value, want, "x{procs} {faults}, aspiration 1");
        fails += figures(&r).master.aspiration_fails;
    }
    assert!(fails > 0, "no pass fell outside a 1-unit aspiration window");
}
