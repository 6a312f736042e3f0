//! What the games examples share: reading their command line (positional arguments and
//! `--name value` options; a bad one ends the example with a one-line usage error, exit status
//! 2) and finding the test-set files of `testsets/search`.

#![allow(dead_code)]

use std::path::PathBuf;
use std::str::FromStr;

/// An example's command line: its positional arguments and options, read against the names it
/// knows.
pub struct Args {
    /// The example's name and usage, printed with every error.
    usage: &'static str,
    positional: Vec<String>,
    /// `(name, value)`; switches have no value.
    options: Vec<(String, Option<String>)>,
}

impl Args {
    /// The process's arguments: `valued` are the options that take a value (`--take 3`),
    /// `switches` those that take none (`--tie`); any other `--` word is an error.
    pub fn parse(usage: &'static str, valued: &[&str], switches: &[&str]) -> Args {
        let mut args = Args {
            usage,
            positional: Vec::new(),
            options: Vec::new(),
        };
        let mut words = std::env::args().skip(1);
        while let Some(word) = words.next() {
            let Some(name) = word.strip_prefix("--") else {
                args.positional.push(word);
                continue;
            };
            if switches.contains(&name) {
                args.options.push((name.to_string(), None));
            } else if valued.contains(&name) {
                let value = words
                    .next()
                    .unwrap_or_else(|| args.fail(format!("--{name} needs a value")));
                args.options.push((name.to_string(), Some(value)));
            } else {
                args.fail(format!("unknown option --{name}"));
            }
        }
        args
    }

    /// Ends the process with `message` and the usage on one line of stderr, exit status 2.
    pub fn fail(&self, message: impl std::fmt::Display) -> ! {
        eprintln!("{message}; usage: {}", self.usage);
        std::process::exit(2);
    }

    /// The positional arguments, at most `max` of them.
    pub fn positional(&self, max: usize) -> &[String] {
        if self.positional.len() > max {
            self.fail(format!("unexpected argument `{}`", self.positional[max]));
        }
        &self.positional
    }

    /// Whether the switch `--name` was given.
    pub fn switch(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name)
    }

    /// The value of the last `--name`, if given.
    pub fn option<T: FromStr>(&self, name: &str) -> Option<T>
    where
        T::Err: std::fmt::Display,
    {
        let (_, value) = self.options.iter().rev().find(|(n, _)| n == name)?;
        let value = value.as_deref().unwrap_or("");
        Some(
            value
                .parse()
                .unwrap_or_else(|e| self.fail(format!("--{name} {value}: {e}"))),
        )
    }

    /// The value of `--name`, or `default`.
    pub fn value<T: FromStr>(&self, name: &str, default: T) -> T
    where
        T::Err: std::fmt::Display,
    {
        self.option(name).unwrap_or(default)
    }

    /// The `K` comma-separated numbers of `--name` (`--presort 14,2,6`), if given.
    pub fn list<T: FromStr, const K: usize>(&self, name: &str) -> Option<[T; K]> {
        let text: String = self.option(name)?;
        let items: Option<Vec<T>> = text.split(',').map(|x| x.trim().parse().ok()).collect();
        match items.map(<[T; K]>::try_from) {
            Some(Ok(items)) => Some(items),
            _ => self.fail(format!("--{name} {text}: need {K} comma-separated numbers")),
        }
    }
}

/// A test-set file named on the command line: `name` itself where that is a file, else the
/// file of that name in the workspace's `testsets/search`.
pub fn testset_path(name: &str) -> PathBuf {
    let given = PathBuf::from(name);
    if given.is_file() {
        return given;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testsets/search")
        .join(name)
}

/// The scored 8x8 Othello positions of the test-set file `name` ([`testset_path`]); a file that
/// cannot be read or parsed ends the example `example` with its path and the reason, exit
/// status 1.
pub fn read_scored(example: &str, name: &str) -> Vec<(games::othello::Othello8, Option<i32>)> {
    let path = testset_path(name);
    std::fs::read_to_string(&path)
        .map_err(|e| e.to_string())
        .and_then(|text| {
            games::othello::endgame::scored_positions::<8>(&text).map_err(|e| e.to_string())
        })
        .unwrap_or_else(|e| {
            eprintln!("{example}: {}: {e}", path.display());
            std::process::exit(1);
        })
}
