//! The perft test driver: reads every `testsets/perft/*.perft` file and checks each count.
//!
//! Counts up to [`FAST_BUDGET`] leaves run in the normal test run; the rest run with
//! `cargo test --release -p games --test it perft:: -- --ignored`.

use std::path::{Path, PathBuf};

use games::{Game, GameId, GameInfo, GameVisitor};

/// The largest count checked in the default (CI) run.
const FAST_BUDGET: u64 = 20_000_000;

/// One root position with its expected counts.
struct Case {
    file: String,
    game: GameId,
    position: String,
    counts: Vec<(u32, u64)>,
}

fn perft_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testsets/perft")
}

fn load_cases() -> Vec<Case> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(perft_dir())
        .expect("testsets/perft exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no perft files found");
    let mut cases = Vec::new();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("readable perft file");
        let mut game: Option<GameId> = None;
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap().trim();
            if line.is_empty() {
                continue;
            }
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let rest = rest.trim();
            let here = format!("{file}:{}", n + 1);
            match key {
                "game" => game = Some(rest.parse().unwrap_or_else(|e| panic!("{here}: {e}"))),
                "position" => cases.push(Case {
                    file: here.clone(),
                    game: game.unwrap_or_else(|| panic!("{here}: position before game")),
                    position: rest.to_string(),
                    counts: Vec::new(),
                }),
                "perft" => {
                    let mut it = rest.split_whitespace().map(|t| t.parse::<u64>());
                    let (Some(Ok(d)), Some(Ok(c)), None) = (it.next(), it.next(), it.next()) else {
                        panic!("{here}: expected 'perft <depth> <count>'");
                    };
                    let case = cases
                        .last_mut()
                        .unwrap_or_else(|| panic!("{here}: perft before position"));
                    case.counts.push((u32::try_from(d).unwrap(), c));
                }
                _ => panic!("{here}: unknown directive '{key}'"),
            }
        }
    }
    cases
}

struct Check<'a> {
    case: &'a Case,
    slow: bool,
}

impl GameVisitor for Check<'_> {
    type Output = usize;

    fn visit<G: Game>(self, _: &'static GameInfo) -> usize {
        let case = self.case;
        let root = if case.position == "start" {
            G::start()
        } else {
            G::parse_position(&case.position)
                .unwrap_or_else(|e| panic!("{}: bad position: {e}", case.file))
        };
        let mut checked = 0;
        for &(depth, expected) in &case.counts {
            if (expected > FAST_BUDGET) != self.slow {
                continue;
            }
            let got = root.clone().perft(depth);
            assert_eq!(
                got, expected,
                "{}: {} perft({depth}) of {}",
                case.file, case.game, case.position
            );
            if depth >= 1 && expected <= FAST_BUDGET / 10 {
                let divided: u64 = games::perft::divide(&root, depth).iter().map(|r| r.1).sum();
                assert_eq!(divided, expected, "{}: divide({depth})", case.file);
                let full = games::perft::perft_full(&mut root.clone(), depth);
                assert_eq!(full, expected, "{}: perft without bulk counting", case.file);
            }
            checked += 1;
        }
        checked
    }
}

fn run(slow: bool) -> usize {
    load_cases()
        .iter()
        .map(|case| case.game.visit(Check { case, slow }))
        .sum()
}

#[test]
fn perft_counts_match_published_ones() {
    let checked = run(false);
    assert!(checked >= 9, "only {checked} counts checked");
}

#[test]
#[ignore = "deep perft: run with --release -- --ignored"]
fn deep_perft_counts_match_published_ones() {
    run(true);
}
