//! The thesis's own configuration format, `aphid.config` (Brockington 1998, section 5.4.3,
//! figures 5.14 and 5.16), read into the same [`AphidOptions`] as the TOML form.
//!
//! ```text
//! 5 10
//! slinky
//! <TAB>lego#special.slave
//! barbie
//! ```
//!
//! The first line holds two numbers: the minimum size of a piece of work (the thesis counts
//! non-terminal nodes; here it is `min_piece_nodes`) and the minimum number of pieces per
//! slave (`min_pieces_per_slave`). Every further line names the host of one process, with an
//! optional `#executable` (kept as part of the label: every process here runs the same code).
//! The absolute master is not listed. Tabs before a host name give its level: no tab, a slave
//! of the absolute master; one tab, a slave of the nearest line above with no tab; and so on.
//! Processes are numbered in the order of the lines, from 1 (0 is the absolute master), so
//! hosts map to processor numbers on our backends.

use super::config::AphidOptions;
use super::hierarchy::Hierarchy;

/// A malformed `aphid.config`; every variant names the (1-based) line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigTextError {
    /// The file has no first line of two numbers.
    #[error(
        "line {line}: expected the two numbers `MIN_PIECE_NODES MIN_PIECES_PER_SLAVE` (e.g. `5 10`), found '{text}'"
    )]
    BadHeader {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// A host line indented with spaces.
    #[error("line {line}: indent host names with tabs only (one tab per level), found spaces")]
    Spaces {
        /// 1-based line number.
        line: usize,
    },
    /// A host line more than one level below the line before it.
    #[error(
        "line {line}: {tabs} tabs, but the line before has {previous}; a process can only be the slave of a process listed above it at one level less"
    )]
    LevelJump {
        /// 1-based line number.
        line: usize,
        /// Tabs on this line.
        tabs: usize,
        /// Tabs on the host line before.
        previous: usize,
    },
    /// A host line with no host before `#`.
    #[error("line {line}: no host name before '#'")]
    NoHost {
        /// 1-based line number.
        line: usize,
    },
    /// Only the header.
    #[error("no host lines: list at least one slave after the first line")]
    NoSlaves,
}

/// Whether `text` looks like an `aphid.config` (its first non-blank line is two integers).
#[must_use]
pub fn is_thesis_format(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| header(l).is_some())
}

fn header(line: &str) -> Option<(u64, u32)> {
    let mut it = line.split_whitespace();
    let nodes = it.next()?.parse().ok()?;
    let pieces = it.next()?.parse().ok()?;
    it.next().is_none().then_some((nodes, pieces))
}

impl AphidOptions {
    /// Reads the thesis's `aphid.config` format (see the module docs): the two numbers set
    /// `min_piece_nodes` and `min_pieces_per_slave`, the host lines the hierarchy; every
    /// other option keeps its default.
    ///
    /// # Errors
    /// [`ConfigTextError`] naming the line that is wrong.
    pub fn from_thesis_config(text: &str) -> Result<AphidOptions, ConfigTextError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
            .filter(|(_, l)| !l.trim().is_empty());
        let mut o = AphidOptions::default();
        let (line, first) = lines.next().ok_or(ConfigTextError::NoSlaves)?;
        let (nodes, pieces) = header(first).ok_or_else(|| ConfigTextError::BadHeader {
            line,
            text: first.to_string(),
        })?;
        o.min_piece_nodes = nodes;
        o.min_pieces_per_slave = pieces;
        let mut parents = Vec::new();
        let mut hosts = Vec::new();
        // The last process seen at each level (level 0: the absolute master).
        let mut last_at: Vec<usize> = vec![0];
        let mut previous = 0;
        for (line, raw) in lines {
            let body = raw.trim_start_matches('\t');
            let tabs = raw.len() - body.len();
            if body.starts_with(' ') {
                return Err(ConfigTextError::Spaces { line });
            }
            let body = body.trim();
            if body.starts_with('#') {
                return Err(ConfigTextError::NoHost { line });
            }
            if tabs >= last_at.len() {
                return Err(ConfigTextError::LevelJump {
                    line,
                    tabs,
                    previous,
                });
            }
            let proc = parents.len() + 1;
            parents.push(last_at[tabs]);
            hosts.push(body.to_string());
            last_at.truncate(tabs + 1);
            last_at.push(proc);
            previous = tabs;
        }
        if parents.is_empty() {
            return Err(ConfigTextError::NoSlaves);
        }
        // Parents are earlier lines by construction.
        let h = Hierarchy::from_parents(parents).map_err(|_| ConfigTextError::NoSlaves)?;
        o.hierarchy = Some(h.with_hosts(hosts));
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Figure 5.14 of the thesis, rewritten as test data (testsets/aphid/).
    const FIG_5_14: &str = include_str!("../../../../testsets/aphid/figure-5.14.config");
    /// Figure 5.16 of the thesis, tabs restored from its prose (testsets/aphid/README.md).
    const FIG_5_16: &str = include_str!("../../../../testsets/aphid/figure-5.16.config");

    #[test]
    fn figure_5_14_is_a_flat_hierarchy_of_five_slaves() {
        assert!(is_thesis_format(FIG_5_14));
        let o = AphidOptions::from_thesis_config(FIG_5_14).expect("valid");
        assert_eq!((o.min_piece_nodes, o.min_pieces_per_slave), (5, 10));
        let h = o.hierarchy.expect("a hierarchy");
        assert_eq!(h.procs(), 6);
        assert!(h.is_flat());
        assert_eq!(h.host(3), "lego#special.slave");
        assert_eq!(h.host(5), "barbie");
    }

    /// Section 5.4.3: slinky (1) has two slaves, tonka and lego; sawnlk (4) has five, among
    /// them charron (7), which has four processes on the same machine.
    #[test]
    fn figure_5_16_is_a_three_level_hierarchy() {
        let o = AphidOptions::from_thesis_config(FIG_5_16).expect("valid");
        let h = o.hierarchy.expect("a hierarchy");
        assert_eq!(h.procs(), 15);
        assert_eq!(h.children(0), vec![1, 4, 14]);
        assert_eq!(h.children(1), vec![2, 3]);
        assert_eq!(h.host(1), "slinky.bu.edu");
        assert_eq!(h.children(4), vec![5, 6, 7, 12, 13]);
        assert_eq!(h.children(7), vec![8, 9, 10, 11]);
        assert_eq!(h.host(7), "charron.cs.ualberta.ca#special.master");
        assert_eq!(h.level(10), 3);
        assert_eq!(h.peers(9), vec![8, 9, 10, 11]);
    }

    #[test]
    fn malformed_files_name_the_line() {
        let e = AphidOptions::from_thesis_config("5\nslinky").unwrap_err();
        assert!(
            matches!(e, ConfigTextError::BadHeader { line: 1, .. }),
            "{e}"
        );
        let e = AphidOptions::from_thesis_config("5 10\n\t\tslinky").unwrap_err();
        assert!(
            matches!(e, ConfigTextError::LevelJump { line: 2, .. }),
            "{e}"
        );
        let e = AphidOptions::from_thesis_config("5 10\na\n\tb\n\t\t\tc").unwrap_err();
        assert!(
            matches!(e, ConfigTextError::LevelJump { line: 4, .. }),
            "{e}"
        );
        let e = AphidOptions::from_thesis_config("5 10\na\n  b").unwrap_err();
        assert_eq!(e, ConfigTextError::Spaces { line: 3 });
        let e = AphidOptions::from_thesis_config("5 10\n#x").unwrap_err();
        assert_eq!(e, ConfigTextError::NoHost { line: 2 });
        let e = AphidOptions::from_thesis_config("5 10\n\n").unwrap_err();
        assert_eq!(e, ConfigTextError::NoSlaves);
        assert!(e.to_string().contains("at least one slave"));
        assert!(!is_thesis_format("master_depth = 3"));
    }
}
