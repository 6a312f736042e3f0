//! APHID returns exactly the value of sequential alpha-beta at the same depth for every game,
//! with automatic and fixed horizons, on the simulator (with and without faults) and on real
//! threads; its slaves really receive the leaves, and its mechanisms (bad bounds, load
//! balancing, exemptions, speculative search) all run on a middle-game Othello position.

mod common;

use common::{agreement_config as config, sequential_alphabeta as sequential, sim_backend as sim};

use common::{Lcg, depth_within_budget, random_position};
use control::parallel::aphid::{AphidOptions, TtSharing};
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

struct Agreement;

impl GameVisitor for Agreement {
    type Output = (u64, u64);

    fn visit<G: Game>(self, info: &'static GameInfo) -> (u64, u64) {
        let name = info.name;
        let mut rng = Lcg(77);
        let (mut runs, mut moved) = (0, 0);
        for i in 0..3 {
            let pos: G = random_position(&mut rng, 2 + i * 3);
            if pos.outcome().is_some() {
                continue;
            }
            let Some((depth, _)) = depth_within_budget(&pos, 6, 30_000) else {
                continue;
            };
            let want = sequential(&pos, depth);
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
                    let r = search(ParallelAlgo::Aphid, &pos, &o)
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
                    let r = search(ParallelAlgo::Aphid, &pos, &o)
                        .unwrap_or_else(|e| panic!("{name} threads x{procs}: {e}"));
                    assert_eq!(
                        r.value, want,
                        "{name} aphid {aphid:?} depth {depth} threads x{procs}, {pos}"
                    );
                }
            }
        }
        (runs, moved)
    }
}

#[test]
fn aphid_agrees_with_sequential_alphabeta_on_every_game() {
    let (mut runs, mut moved) = (0, 0);
    for &g in GameId::ALL {
        let (r, m) = g.visit(Agreement);
        runs += r;
        moved += m;
    }
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
