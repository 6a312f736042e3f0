//! Progress bars on stderr for the long commands (compare, experiment, solve, calibrate, play).
//!
//! A bar is drawn only when stderr is a terminal and the command's output is not `--json`;
//! otherwise it is hidden (every call on it is a no-op), so scripts and CI logs stay clean.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// Whether a bar would be shown: stderr is a terminal and `json` output was not asked for.
#[must_use]
pub fn visible(json: bool) -> bool {
    !json && std::io::stderr().is_terminal()
}

/// A bar of `len` steps named by `unit` (for example "cells", "games", "iterations") with the
/// elapsed time and an ETA; hidden unless [`visible`]`(json)`.
#[must_use]
pub fn bar(len: u64, unit: &str, json: bool) -> ProgressBar {
    if !visible(json) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let template =
        format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit}, ETA {{eta}} {{msg}}");
    bar.set_style(
        ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

/// A spinner with the elapsed time and a message, for work of unknown length (`runner solve`);
/// hidden unless [`visible`]`(json)`.
#[must_use]
pub fn spinner(json: bool) -> ProgressBar {
    if !visible(json) {
        return ProgressBar::hidden();
    }
    let spinner = ProgressBar::new_spinner();
    spinner.set_style(
        ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    spinner.enable_steady_tick(Duration::from_millis(200));
    spinner
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_output_hides_the_bar() {
        assert!(!visible(true));
        assert!(bar(10, "cells", true).is_hidden());
        assert!(spinner(true).is_hidden());
    }
}
