//! Test sets and the one position grammar of the runner.
//!
//! Every position the runner reads, from `--position` of any subcommand or from a line of a test
//! set (`search --testset`, `compare --testset`, `play --openings`), goes through
//! [`parse_position`]: the game's own text format, optionally followed by EPD operations
//! (`bm e4; id "x";`), which are returned for the caller.
//!
//! A test set is a file given by path, one of the built-in sets embedded in the binary (every
//! file of `testsets/search`, by name), or, for `runner compare` on a game without a built-in
//! set of its name, the start position and seeded random positions.
//!
//! `runner search --testset`: every position searched with the same settings, with per-position
//! lines and totals (nodes per second, time to depth), and the EPD `bm` score.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use anyhow::Result;
use control::search::{Limits, SearchConfig, Searcher};
use dib::Rng;
use games::{Game, GameInfo};
use serde_json::json;

use crate::cli::{PositionArg, SearchArgs};
use crate::input_error::input;
use crate::search::{clock_seconds, describe_value};
use control::engine::WallClock;

/// The built-in test sets: `(name, text)` of every file of `testsets/search` (see `build.rs`).
pub const BUILT_IN: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/testsets.rs"));

/// The seed of the random positions a comparison falls back to.
pub const RANDOM_SEED: u64 = 1;

/// How many random positions follow the start position in that fallback.
pub const RANDOM_COUNT: usize = 7;

/// Parses a position in the runner's one grammar: the whole text in the game's format, or else
/// its longest prefix of whitespace-separated fields that parses; the rest (EPD operations,
/// labels) is returned beside the position. The error is the game's error for the whole text.
pub fn parse_position<G: Game>(text: &str) -> Result<(G, &str), G::Error> {
    let text = text.trim();
    let whole = match G::parse_position(text) {
        Ok(pos) => return Ok((pos, "")),
        Err(e) => e,
    };
    let starts: Vec<usize> = text
        .char_indices()
        .filter(|&(i, c)| c.is_whitespace() && !text[..i].ends_with(char::is_whitespace) && i > 0)
        .map(|(i, _)| i)
        .collect();
    for &end in starts.iter().rev() {
        if let Ok(pos) = G::parse_position(&text[..end]) {
            return Ok((pos, text[end..].trim()));
        }
    }
    Err(whole)
}

impl PositionArg {
    /// The position of `--position` for game `info` (the start position when absent).
    pub fn parse<G: Game>(&self, info: &GameInfo) -> Result<G> {
        match &self.text {
            Some(text) => parse_position::<G>(text)
                .map(|(pos, _)| pos)
                .map_err(|e| input(format!("--position for {}", info.name), e)),
            None => Ok(G::start()),
        }
    }
}

/// A test set: where its positions come from.
#[derive(Clone, Debug)]
pub enum TestSet {
    /// A file given by path, with its text.
    File {
        /// The path as given.
        path: PathBuf,
        /// The file's text.
        text: String,
    },
    /// A set embedded in the binary.
    BuiltIn {
        /// Its name (the file name in `testsets/search` without the extension).
        name: &'static str,
        /// Its text.
        text: &'static str,
    },
    /// The start position and `count` positions reached by random moves from it (seeded).
    Random {
        /// The seed.
        seed: u64,
        /// Random positions after the start position.
        count: usize,
    },
}

impl TestSet {
    /// Finds the test set `given` to the flag `flag`: a path to a file, or the name of a
    /// built-in set (with or without its extension).
    pub fn find(flag: &str, given: &str) -> Result<TestSet> {
        let path = Path::new(given);
        if path.is_dir() {
            return Err(input(
                format!("{flag} {given}"),
                "is a folder; give a test-set file (one position per line) or the name of a built-in set",
            ));
        }
        if path.is_file() {
            let text =
                std::fs::read_to_string(path).map_err(|e| input(format!("{flag} {given}"), e))?;
            return Ok(TestSet::File {
                path: path.to_path_buf(),
                text,
            });
        }
        let stem = given
            .strip_suffix(".txt")
            .or_else(|| given.strip_suffix(".epd"))
            .unwrap_or(given);
        match Self::built_in(stem) {
            Some(set) => Ok(set),
            None => Err(input(
                format!("{flag} {given}"),
                format!(
                    "no such file, nor a built-in test set of that name; give a path or one of: {}",
                    BUILT_IN
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }

    /// The built-in set `name`, if there is one.
    #[must_use]
    pub fn built_in(name: &str) -> Option<TestSet> {
        BUILT_IN
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(name, text)| TestSet::BuiltIn { name, text })
    }

    /// The fallback of `runner compare` without `--testset`: the start position and
    /// [`RANDOM_COUNT`] random positions of seed [`RANDOM_SEED`].
    #[must_use]
    pub fn random() -> TestSet {
        TestSet::Random {
            seed: RANDOM_SEED,
            count: RANDOM_COUNT,
        }
    }

    /// How the set is named in output: the path, the built-in name, or the random recipe.
    #[must_use]
    pub fn display(&self) -> String {
        match self {
            TestSet::File { path, .. } => path.display().to_string(),
            TestSet::BuiltIn { name, .. } => (*name).to_string(),
            TestSet::Random { seed, count } => {
                format!("the start position and {count} random positions (seed {seed})")
            }
        }
    }

    /// A short name: the file name, the built-in name, or `random-seed-S`.
    #[must_use]
    pub fn short_name(&self) -> String {
        match self {
            TestSet::File { path, .. } => path
                .file_name()
                .map_or_else(|| self.display(), |f| f.to_string_lossy().to_string()),
            TestSet::BuiltIn { name, .. } => (*name).to_string(),
            TestSet::Random { seed, .. } => format!("random-seed-{seed}"),
        }
    }

    /// What the set's positions are made from: the text, or the random recipe (for content
    /// hashes).
    #[must_use]
    pub fn content(&self) -> Cow<'_, str> {
        match self {
            TestSet::File { text, .. } => Cow::Borrowed(text),
            TestSet::BuiltIn { text, .. } => Cow::Borrowed(text),
            TestSet::Random { seed, count } => Cow::Owned(format!("random {seed} {count}")),
        }
    }
}

/// One position of a test set.
#[derive(Clone, Debug)]
pub struct Entry<G> {
    /// Its line in the file (for random sets: its index, from 1).
    pub line: usize,
    /// The position.
    pub pos: G,
    /// The EPD operations after the position (may be empty).
    pub operations: String,
}

/// A position reached by `plies` random moves from the start (fewer if the game ends).
pub fn random_position<G: Game>(rng: &mut Rng, plies: u64) -> G {
    let mut pos = G::start();
    let mut moves = Vec::with_capacity(G::MAX_MOVES);
    for _ in 0..plies {
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let pick = usize::try_from(rng.below(moves.len() as u64)).unwrap_or(0);
        let _ = pos.make_move(moves[pick]);
    }
    pos
}

/// The start position and up to `count` distinct unfinished positions 2 to 8 random plies from
/// it (fewer when the game has fewer).
fn random_entries<G: Game>(seed: u64, count: usize) -> Vec<Entry<G>> {
    let mut rng = Rng::new(seed);
    let mut found: Vec<G> = vec![G::start()];
    for _ in 0..count * 50 {
        if found.len() > count {
            break;
        }
        let plies = 2 + rng.below(7);
        let pos: G = random_position(&mut rng, plies);
        if pos.outcome().is_none() && !found.contains(&pos) {
            found.push(pos);
        }
    }
    found
        .into_iter()
        .enumerate()
        .map(|(i, pos)| Entry {
            line: i + 1,
            pos,
            operations: String::new(),
        })
        .collect()
}

/// Reads every position of `set` (given with the command-line flag `flag`) for game `info`.
pub(crate) fn read_entries<G: Game>(
    flag: &str,
    set: &TestSet,
    info: &GameInfo,
) -> Result<Vec<Entry<G>>> {
    if let TestSet::Random { seed, count } = set {
        return Ok(random_entries(*seed, *count));
    }
    let text = set.content();
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (pos, operations) = parse_position::<G>(line).map_err(|e| {
            input(
                format!("{flag} {} line {} for {}", set.display(), i + 1, info.name),
                e,
            )
        })?;
        entries.push(Entry {
            line: i + 1,
            pos,
            operations: operations.to_string(),
        });
    }
    if entries.is_empty() {
        return Err(input(
            format!("{flag} {}", set.display()),
            "the set holds no positions (one per line; '#' starts a comment)",
        ));
    }
    Ok(entries)
}

/// Reads the positions of `set` with their line numbers.
pub fn read_positions<G: Game>(
    flag: &str,
    set: &TestSet,
    info: &GameInfo,
) -> Result<Vec<(usize, G)>> {
    Ok(read_entries::<G>(flag, set, info)?
        .into_iter()
        .map(|e| (e.line, e.pos))
        .collect())
}

/// The moves of the EPD `bm` operation in `operations` (empty when there is none). Operations
/// are separated by `;`; `bm` takes one or more moves separated by spaces.
fn best_move_texts(operations: &str) -> Vec<&str> {
    operations
        .split(';')
        .filter_map(|op| {
            let mut words = op.split_whitespace();
            (words.next() == Some("bm")).then(|| words.collect::<Vec<_>>())
        })
        .flatten()
        .collect()
}

/// The `bm` moves of an entry, parsed in its position (for errors: the flag, set and line).
fn best_moves<G: Game>(set: &TestSet, entry: &Entry<G>) -> Result<Vec<G::Move>> {
    best_move_texts(&entry.operations)
        .into_iter()
        .map(|text| {
            entry.pos.parse_move(text).map_err(|e| {
                input(
                    format!("--testset {} line {}: bm {text}", set.display(), entry.line),
                    e,
                )
            })
        })
        .collect()
}

/// Searches every position of the test set and prints per-position results and totals, with
/// the EPD `bm` score when the set has `bm` operations.
pub fn run<G: Game>(
    info: &GameInfo,
    args: &SearchArgs,
    given: &str,
    config: SearchConfig,
    limits: &Limits,
) -> Result<()> {
    let set = TestSet::find("--testset", given)?;
    let entries = read_entries::<G>("--testset", &set, info)?;
    let expected: Vec<Vec<G::Move>> = entries
        .iter()
        .map(|e| best_moves(&set, e))
        .collect::<Result<_>>()?;
    let mut searcher = Searcher::<G>::new(config).map_err(|e| input("--tt-mb", e))?;
    let bar = crate::progress::bar(entries.len() as u64, "positions", args.json);
    let mut rows = Vec::new();
    let (mut total_nodes, mut total_seconds) = (0u64, 0.0f64);
    let (mut scored, mut found_count) = (0usize, 0usize);
    for (entry, bm) in entries.iter().zip(&expected) {
        let (line, root) = (entry.line, &entry.pos);
        bar.set_message(format!("line {line}"));
        searcher.clear();
        let mut clock = WallClock::start();
        let r = searcher.search(root, limits, &mut clock);
        let seconds = clock_seconds(&clock);
        bar.inc(1);
        let nodes = r.stats.nodes();
        total_nodes += nodes;
        total_seconds += seconds;
        let best = r.best_move.map(|m| root.format_move(m));
        let found = (!bm.is_empty()).then(|| r.best_move.is_some_and(|m| bm.contains(&m)));
        if let Some(f) = found {
            scored += 1;
            found_count += usize::from(f);
        }
        let bm_text: Vec<String> = bm.iter().map(|&m| root.format_move(m)).collect();
        if !args.json {
            let verdict = match found {
                Some(true) => format!("  bm {}: found", bm_text.join(" ")),
                Some(false) => format!("  bm {}: not found", bm_text.join(" ")),
                None => String::new(),
            };
            bar.suspend(|| {
                println!(
                    "line {line:>4}: depth {:>3} value {:>16} best {:<8} nodes {:>12} time {:>8.3} s{verdict}",
                    r.depth,
                    describe_value(r.value),
                    best.as_deref().unwrap_or("-"),
                    nodes,
                    seconds
                );
            });
        }
        let mut row = json!({
            "line": line,
            "position": root.to_string(),
            "depth": r.depth,
            "value": r.value,
            "best_move": best,
            "nodes": nodes,
            "seconds": seconds,
            "stopped": r.stopped,
        });
        if let Some(f) = found {
            row["bm"] = json!(bm_text);
            row["found"] = json!(f);
        }
        rows.push(row);
    }
    bar.finish_and_clear();
    let nps = if total_seconds > 0.0 {
        total_nodes as f64 / total_seconds
    } else {
        0.0
    };
    let n = entries.len();
    if args.json {
        let mut out = json!({
            "game": info.name,
            "testset": set.display(),
            "algo": config.algorithm.name(),
            "setting": config.setting.name(),
            "tt_mode": config.tt_mode.name(),
            "sort": config.sorting.regime.name(),
            "depth": limits.depth,
            "positions": rows,
            "nodes": total_nodes,
            "seconds": total_seconds,
            "mean_seconds": total_seconds / n as f64,
            "nodes_per_second": nps,
        });
        if scored > 0 {
            out["best_moves"] = json!({ "found": found_count, "scored": scored });
        }
        println!("{out}");
    } else {
        println!(
            "{n} positions ({} setting, {}, table {}, sorting {}): {total_nodes} nodes in {total_seconds:.3} s, mean {:.3} s per position, {:.2} M nodes/s",
            config.setting,
            config.algorithm,
            config.tt_mode,
            config.sorting.regime,
            total_seconds / n as f64,
            nps / 1e6
        );
        if scored > 0 {
            println!("{found_count} of {scored} best moves found (EPD bm)");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::tictactoe::TicTacToe4;

    #[test]
    fn one_grammar_reads_positions_with_and_without_operations() {
        let (pos, rest) = parse_position::<TicTacToe4>("----/----/----/----").unwrap();
        assert_eq!((pos, rest), (TicTacToe4::start(), ""));
        let (_, rest) =
            parse_position::<TicTacToe4>("X---/----/----/---- bm b2; id \"t\";").unwrap();
        assert_eq!(rest, "bm b2; id \"t\";");
        assert!(parse_position::<TicTacToe4>("X--/----").is_err());
    }

    #[test]
    fn bm_operations_list_every_move() {
        assert_eq!(best_move_texts("bm Qd1+; id \"BK.01\";"), vec!["Qd1+"]);
        assert_eq!(best_move_texts("id \"x\"; bm e4 d4;"), vec!["e4", "d4"]);
        assert!(best_move_texts("id \"x\";").is_empty());
    }

    #[test]
    fn names_find_the_embedded_sets_and_unknown_names_list_them() {
        for name in ["othello6_roots", "othello6_roots.txt", "bratko_kopec"] {
            let set = TestSet::find("--testset", name).unwrap();
            assert!(matches!(set, TestSet::BuiltIn { .. }), "{name}");
            assert!(set.content().contains('\n'));
        }
        let e = TestSet::find("--testset", "no_such_set")
            .unwrap_err()
            .to_string();
        assert!(e.contains("othello6_roots") && !e.contains('\n'), "{e}");
    }

    #[test]
    fn random_sets_are_the_start_and_distinct_unfinished_positions() {
        let info = games::GameId::TicTacToe4.info();
        let a = read_positions::<TicTacToe4>("--testset", &TestSet::random(), info).unwrap();
        let b = read_positions::<TicTacToe4>("--testset", &TestSet::random(), info).unwrap();
        assert_eq!(a.len(), RANDOM_COUNT + 1);
        assert_eq!(a[0].1, TicTacToe4::start());
        assert_eq!(
            a.iter().map(|(_, p)| p.to_string()).collect::<Vec<_>>(),
            b.iter().map(|(_, p)| p.to_string()).collect::<Vec<_>>()
        );
        assert!(a.iter().all(|(_, p)| p.outcome().is_none()));
    }
}
