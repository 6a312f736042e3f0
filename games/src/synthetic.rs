//! Synthetic game trees with a controlled shape, as used by the simulated studies of parallel
//! alpha-beta (Brockington's thesis, table 3.2, lists many measured on "artificial trees").
//!
//! The tree follows the *probabilistic strongly-ordered* model (thesis section 4.1: "for every
//! node in the tree, there is a fixed percentage chance that the best move ... will be the first
//! child examined"): every node has a branching factor (fixed, or drawn from a range), the tree
//! ends at a fixed depth, and with probability `q` the first child is the best one.
//!
//! # How values are assigned
//! Values are built top-down so that the minimax value of every node is known exactly without
//! searching. The root gets a value `v` in `-100..=100` from the seed. A node with negamax value
//! `v` (from its side to move) picks its best child (child 0 with probability `q`, otherwise one
//! of the others uniformly); that child gets value `-v`, and every other child `-v + delta` with
//! `delta` in `1..=100` (so the parent gains `v - delta < v` through it). The negamax value of
//! every node is therefore exactly its assigned value, and leaves (at the tree's depth) end the
//! game with [`Outcome::Value`]. The static evaluation of an inner node is its true value plus
//! uniform noise in `-noise..=noise`. Every random draw is a hash of the tree's seed and the
//! node's path, so a position is just the tree parameters plus the path from the root.
//!
//! # Text format
//! `b=8 d=8 q=0.9 noise=50 seed=1 path=0.3.1`: branching `b` (a number, or a range `2-8` drawn
//! per node), depth `d` (1 to 32), ordering quality `q` (0 to 1, at most three decimals), `noise`
//! (0 to 10000), `seed` (a 64-bit number), and the path of child indices from the root (`path=`
//! or `path=-` for the root). Missing keys take the defaults shown. Moves are child indices
//! (`0` is the first child).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::zobrist::mix64;
use crate::{Game, Outcome, Side};

/// The deepest tree supported.
pub const MAX_DEPTH: usize = 32;
/// The widest branching supported.
pub const MAX_BRANCHING: usize = 64;
/// The largest value difference between a child and the best child.
const MAX_DELTA: u64 = 100;
/// The largest evaluation noise accepted.
const MAX_NOISE: u32 = 10_000;

/// Salts that keep the different random draws of one node independent.
const SALT_BRANCHING: u64 = 0xB4A1_C4F1_0000_0001;
const SALT_BEST: u64 = 0xBE57_0000_0000_0002;
const SALT_WHICH: u64 = 0x3C41_C400_0000_0003;
const SALT_DELTA: u64 = 0xDE17_A000_0000_0004;
const SALT_NOISE: u64 = 0x2015_E000_0000_0005;
const SALT_ROOT: u64 = 0x2007_0000_0000_0006;

/// The shape of a synthetic tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TreeParams {
    /// Fewest children of an inner node.
    pub branching_min: u8,
    /// Most children of an inner node (equal to `branching_min` for a fixed branching factor).
    pub branching_max: u8,
    /// Depth of every leaf.
    pub depth: u8,
    /// Probability, in thousandths, that the first child is the best one.
    pub quality_permille: u16,
    /// Amplitude of the noise added to static evaluations of inner nodes.
    pub noise: u32,
    /// The seed every value derives from.
    pub seed: u64,
}

impl Default for TreeParams {
    fn default() -> Self {
        TreeParams {
            branching_min: 8,
            branching_max: 8,
            depth: 8,
            quality_permille: 900,
            noise: 50,
            seed: 1,
        }
    }
}

impl TreeParams {
    /// Checks the ranges documented in the module docs.
    ///
    /// # Errors
    /// [`SyntheticError::OutOfRange`] naming the first parameter outside its range.
    pub fn validate(&self) -> Result<(), SyntheticError> {
        let out = |key: &'static str, allowed: &'static str| {
            Err(SyntheticError::OutOfRange { key, allowed })
        };
        if self.branching_min == 0 || usize::from(self.branching_max) > MAX_BRANCHING {
            return out("b", "1 to 64");
        }
        if self.branching_min > self.branching_max {
            return out("b", "a range low-high with low <= high");
        }
        if self.depth == 0 || usize::from(self.depth) > MAX_DEPTH {
            return out("d", "1 to 32");
        }
        if self.quality_permille > 1000 {
            return out("q", "0 to 1");
        }
        if self.noise > MAX_NOISE {
            return out("noise", "0 to 10000");
        }
        Ok(())
    }

    fn root_key(&self) -> u64 {
        let shape = u64::from(self.branching_min)
            | u64::from(self.branching_max) << 8
            | u64::from(self.depth) << 16
            | u64::from(self.quality_permille) << 24
            | u64::from(self.noise) << 40;
        mix64(mix64(self.seed ^ SALT_ROOT) ^ shape)
    }

    fn root_value(&self) -> i32 {
        (mix64(self.seed ^ SALT_ROOT ^ 1) % 201) as i32 - 100
    }
}

/// A node of a synthetic tree: the tree's parameters and the path from the root.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Synthetic {
    params: TreeParams,
    path: [u8; MAX_DEPTH],
    len: u8,
    /// Hash of the parameters and the path (the node's identity and Zobrist-style hash).
    key: u64,
    /// The exact negamax value of this node for the side to move.
    value: i32,
}

/// A move: the index of the child to go to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Child(pub u8);

/// What can be wrong with a synthetic-tree position or move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntheticError {
    /// A word that is not `key=value`.
    #[error("'{word}' is not key=value; write e.g. 'b=8 d=8 q=0.9 noise=50 seed=1 path=0.3'")]
    NotKeyValue {
        /// The word.
        word: String,
    },
    /// An unknown key.
    #[error("unknown key '{key}'; the keys are b, d, q, noise, seed and path")]
    UnknownKey {
        /// The key.
        key: String,
    },
    /// A key given twice.
    #[error("key '{key}' is given twice")]
    DuplicateKey {
        /// The key.
        key: String,
    },
    /// A value that is not a number of the right form.
    #[error("bad value '{value}' for '{key}': expected {expected}")]
    BadNumber {
        /// The key.
        key: &'static str,
        /// The value text.
        value: String,
        /// What form was expected.
        expected: &'static str,
    },
    /// A parameter outside its range.
    #[error("'{key}' is out of range: allowed {allowed}")]
    OutOfRange {
        /// The key.
        key: &'static str,
        /// The allowed range.
        allowed: &'static str,
    },
    /// The path goes below the tree's depth.
    #[error("path has {len} steps but the tree is only {depth} deep")]
    PathTooLong {
        /// Steps in the path.
        len: usize,
        /// The tree depth.
        depth: u8,
    },
    /// A path step or move names a child the node does not have.
    #[error("child {index} does not exist at depth {depth}: that node has {children} children (0 to {last})", last = children - 1)]
    NoSuchChild {
        /// The child index given.
        index: usize,
        /// The depth of the node.
        depth: usize,
        /// How many children the node has.
        children: usize,
    },
    /// A move at a leaf.
    #[error("no move is possible: this node is a leaf at depth {depth}")]
    AtLeaf {
        /// The leaf's depth.
        depth: usize,
    },
}

impl Synthetic {
    /// The root of the tree with these parameters.
    ///
    /// # Errors
    /// [`SyntheticError::OutOfRange`] for parameters outside their documented ranges.
    pub fn root(params: TreeParams) -> Result<Self, SyntheticError> {
        params.validate()?;
        Ok(Synthetic {
            params,
            path: [0; MAX_DEPTH],
            len: 0,
            key: params.root_key(),
            value: params.root_value(),
        })
    }

    /// The tree's parameters.
    #[must_use]
    pub fn params(&self) -> &TreeParams {
        &self.params
    }

    /// The exact minimax (negamax) value of this node, known by construction.
    #[must_use]
    pub fn true_value(&self) -> i32 {
        self.value
    }

    /// The path of child indices from the root.
    #[must_use]
    pub fn path(&self) -> &[u8] {
        &self.path[..usize::from(self.len)]
    }

    fn is_leaf(&self) -> bool {
        self.len >= self.params.depth
    }

    /// Number of children of this node (0 at a leaf).
    #[must_use]
    pub fn children(&self) -> usize {
        if self.is_leaf() {
            return 0;
        }
        let (lo, hi) = (
            u64::from(self.params.branching_min),
            u64::from(self.params.branching_max),
        );
        (lo + mix64(self.key ^ SALT_BRANCHING) % (hi - lo + 1)) as usize
    }

    /// The index of the best child.
    fn best_child(&self, children: usize) -> usize {
        let first = mix64(self.key ^ SALT_BEST) % 1000 < u64::from(self.params.quality_permille);
        if first || children == 1 {
            0
        } else {
            1 + (mix64(self.key ^ SALT_WHICH) % (children as u64 - 1)) as usize
        }
    }

    fn child_value(&self, index: usize, children: usize) -> i32 {
        if index == self.best_child(children) {
            -self.value
        } else {
            let salt = SALT_DELTA ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            -self.value + 1 + (mix64(self.key ^ salt) % MAX_DELTA) as i32
        }
    }

    fn child_key(key: u64, index: u8) -> u64 {
        mix64(key ^ (u64::from(index) + 1).wrapping_mul(0xA24B_AED4_963E_E407))
    }

    fn descend(&mut self, index: u8) {
        let children = self.children();
        debug_assert!(usize::from(index) < children);
        self.value = self.child_value(usize::from(index), children);
        self.path[usize::from(self.len)] = index;
        self.len += 1;
        self.key = Self::child_key(self.key, index);
    }

    fn parse_number<T: std::str::FromStr>(
        key: &'static str,
        value: &str,
        expected: &'static str,
    ) -> Result<T, SyntheticError> {
        value.parse().map_err(|_| SyntheticError::BadNumber {
            key,
            value: value.to_string(),
            expected,
        })
    }

    fn parse_quality(value: &str) -> Result<u16, SyntheticError> {
        let bad = || SyntheticError::BadNumber {
            key: "q",
            value: value.to_string(),
            expected: "a probability such as 0.9 (at most three decimals)",
        };
        let (int, frac) = value.split_once('.').unwrap_or((value, ""));
        if int.is_empty() && frac.is_empty()
            || frac.len() > 3
            || !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit())
        {
            return Err(bad());
        }
        let int: u32 = if int.is_empty() {
            0
        } else {
            int.parse().map_err(|_| bad())?
        };
        let frac_value: u32 = format!("{frac:0<3}").parse().map_err(|_| bad())?;
        let permille = int.saturating_mul(1000).saturating_add(frac_value);
        if permille > 1000 {
            return Err(SyntheticError::OutOfRange {
                key: "q",
                allowed: "0 to 1",
            });
        }
        Ok(permille as u16)
    }

    fn parse_branching(value: &str) -> Result<(u8, u8), SyntheticError> {
        const FORM: &str = "a branching factor such as 8, or a range such as 2-8";
        match value.split_once('-') {
            Some((lo, hi)) => Ok((
                Self::parse_number("b", lo, FORM)?,
                Self::parse_number("b", hi, FORM)?,
            )),
            None => {
                let b = Self::parse_number("b", value, FORM)?;
                Ok((b, b))
            }
        }
    }
}

impl Game for Synthetic {
    type Move = Child;
    type Undo = (u64, i32);
    type Error = SyntheticError;
    const MAX_MOVES: usize = MAX_BRANCHING;

    fn start() -> Self {
        Synthetic::root(TreeParams::default()).expect("the default parameters are valid")
    }

    fn parse_position(text: &str) -> Result<Self, SyntheticError> {
        let mut params = TreeParams::default();
        let mut seen: Vec<&str> = Vec::new();
        let mut path_text = None;
        for word in text.split_whitespace() {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| SyntheticError::NotKeyValue {
                    word: word.to_string(),
                })?;
            if seen.contains(&key) {
                return Err(SyntheticError::DuplicateKey {
                    key: key.to_string(),
                });
            }
            match key {
                "b" => {
                    (params.branching_min, params.branching_max) = Self::parse_branching(value)?;
                }
                "d" => params.depth = Self::parse_number("d", value, "a depth from 1 to 32")?,
                "q" => params.quality_permille = Self::parse_quality(value)?,
                "noise" => {
                    params.noise = Self::parse_number("noise", value, "a number from 0 to 10000")?;
                }
                "seed" => params.seed = Self::parse_number("seed", value, "a 64-bit number")?,
                "path" => path_text = Some(value),
                _ => {
                    return Err(SyntheticError::UnknownKey {
                        key: key.to_string(),
                    });
                }
            }
            seen.push(key);
        }
        let mut node = Synthetic::root(params)?;
        if let Some(path) = path_text.filter(|p| !p.is_empty() && *p != "-") {
            let steps: Vec<&str> = path.split('.').collect();
            if steps.len() > usize::from(params.depth) {
                return Err(SyntheticError::PathTooLong {
                    len: steps.len(),
                    depth: params.depth,
                });
            }
            for step in steps {
                let index: usize = Self::parse_number(
                    "path",
                    step,
                    "child indices separated by dots, e.g. 0.3.1",
                )?;
                let children = node.children();
                if index >= children {
                    return Err(SyntheticError::NoSuchChild {
                        index,
                        depth: usize::from(node.len),
                        children,
                    });
                }
                node.descend(index as u8);
            }
        }
        Ok(node)
    }

    fn side_to_move(&self) -> Side {
        if self.len % 2 == 0 {
            Side::First
        } else {
            Side::Second
        }
    }

    fn generate_moves(&self, moves: &mut Vec<Child>) {
        moves.clear();
        moves.extend((0..self.children()).map(|i| Child(i as u8)));
    }

    fn make_move(&mut self, mv: Child) -> (u64, i32) {
        let undo = (self.key, self.value);
        self.descend(mv.0);
        undo
    }

    fn unmake_move(&mut self, _mv: Child, (key, value): (u64, i32)) {
        self.len -= 1;
        self.path[usize::from(self.len)] = 0;
        self.key = key;
        self.value = value;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.is_leaf().then_some(Outcome::Value(self.value))
    }

    fn evaluate(&self) -> i32 {
        let n = u64::from(self.params.noise);
        let noise = (mix64(self.key ^ SALT_NOISE) % (2 * n + 1)) as i32 - n as i32;
        self.value + noise
    }

    fn hash(&self) -> u64 {
        self.key
    }

    fn compute_hash(&self) -> u64 {
        self.path()
            .iter()
            .fold(self.params.root_key(), |key, &i| Self::child_key(key, i))
    }

    fn parse_move(&self, text: &str) -> Result<Child, SyntheticError> {
        let index: usize = Self::parse_number("move", text.trim(), "a child index such as 0")?;
        let children = self.children();
        if children == 0 {
            return Err(SyntheticError::AtLeaf {
                depth: usize::from(self.len),
            });
        }
        if index >= children {
            return Err(SyntheticError::NoSuchChild {
                index,
                depth: usize::from(self.len),
                children,
            });
        }
        Ok(Child(index as u8))
    }

    fn format_move(&self, mv: Child) -> String {
        mv.0.to_string()
    }
}

impl fmt::Display for Synthetic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.params;
        if p.branching_min == p.branching_max {
            write!(f, "b={}", p.branching_min)?;
        } else {
            write!(f, "b={}-{}", p.branching_min, p.branching_max)?;
        }
        let q = p.quality_permille;
        write!(
            f,
            " d={} q={}.{:03} noise={} seed={} path=",
            p.depth,
            q / 1000,
            q % 1000,
            p.noise,
            p.seed
        )?;
        if self.len == 0 {
            f.write_str("-")?;
        }
        for (i, step) in self.path().iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{step}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Synthetic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Synthetic({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(text: &str) -> Synthetic {
        Synthetic::parse_position(text).unwrap()
    }

    /// Plain negamax over the whole tree.
    fn negamax(node: &mut Synthetic) -> i32 {
        if let Some(o) = node.outcome() {
            return o.score(0);
        }
        let mut moves = Vec::new();
        node.generate_moves(&mut moves);
        let mut best = i32::MIN;
        for mv in moves {
            let undo = node.make_move(mv);
            best = best.max(-negamax(node));
            node.unmake_move(mv, undo);
        }
        best
    }

    #[test]
    fn assigned_values_are_the_minimax_values() {
        for seed in 0..20 {
            let mut root = tree(&format!("b=2-5 d=5 q=0.7 seed={seed}"));
            assert_eq!(negamax(&mut root), root.true_value(), "seed {seed}");
        }
    }

    #[test]
    fn ordering_quality_is_the_share_of_best_first_nodes() {
        for (q, permille) in [("1", 1000u32), ("0.7", 700), ("0", 0)] {
            let root = tree(&format!("b=6 d=6 q={q} seed=3"));
            let (mut first_best, mut nodes) = (0u32, 0u32);
            let mut stack = vec![root];
            while let Some(node) = stack.pop() {
                if node.is_leaf() {
                    continue;
                }
                let n = node.children();
                nodes += 1;
                let values: Vec<i32> = (0..n).map(|i| node.child_value(i, n)).collect();
                let best = *values.iter().min().unwrap();
                first_best += u32::from(values[0] == best && values[1..].iter().all(|&v| v > best));
                if node.len < 4 {
                    for i in 0..n {
                        let mut c = node;
                        c.make_move(Child(i as u8));
                        stack.push(c);
                    }
                }
            }
            let share = first_best * 1000 / nodes;
            assert!(share.abs_diff(permille) <= 40, "q={q}: {share} of {nodes}");
        }
    }

    #[test]
    fn perft_of_fixed_branching_is_a_power() {
        let mut root = tree("b=3 d=6");
        assert_eq!(root.perft(6), 729);
        assert_eq!(root.perft(7), 0, "leaves end the game");
        let varying = tree("b=1-4 d=4 seed=9");
        assert_eq!(
            crate::perft::perft_full(&mut varying.clone(), 4),
            varying.clone().perft(4)
        );
    }

    #[test]
    fn evaluation_noise_stays_in_its_band() {
        let mut node = tree("b=4 d=6 noise=30 seed=5");
        for step in [1u8, 3, 0, 2] {
            let e = node.evaluate();
            assert!((e - node.true_value()).abs() <= 30);
            node.make_move(Child(step));
        }
        assert_eq!(
            tree("b=4 d=6 noise=0").evaluate(),
            tree("b=4 d=6 noise=0").true_value()
        );
    }

    #[test]
    fn text_round_trips_and_defaults() {
        let t = tree("seed=7 b=2-9 path=1.0 d=5 q=.25");
        assert_eq!(t.to_string(), "b=2-9 d=5 q=0.250 noise=50 seed=7 path=1.0");
        assert_eq!(tree(&t.to_string()), t);
        assert_eq!(tree(""), Synthetic::start());
        assert_eq!(
            Synthetic::start().to_string(),
            "b=8 d=8 q=0.900 noise=50 seed=1 path=-"
        );
    }

    #[test]
    fn malformed_positions_and_moves_give_specific_errors() {
        use SyntheticError as E;
        type Case = (&'static str, fn(&E) -> bool);
        let cases: [Case; 12] = [
            ("b8", |e| matches!(e, E::NotKeyValue { .. })),
            ("x=3", |e| matches!(e, E::UnknownKey { .. })),
            ("d=3 d=4", |e| matches!(e, E::DuplicateKey { .. })),
            ("b=eight", |e| matches!(e, E::BadNumber { key: "b", .. })),
            ("b=0", |e| matches!(e, E::OutOfRange { key: "b", .. })),
            ("b=65", |e| matches!(e, E::OutOfRange { key: "b", .. })),
            ("b=5-2", |e| matches!(e, E::OutOfRange { key: "b", .. })),
            ("d=33", |e| matches!(e, E::OutOfRange { key: "d", .. })),
            ("q=1.5", |e| matches!(e, E::OutOfRange { key: "q", .. })),
            ("q=0.12345", |e| matches!(e, E::BadNumber { key: "q", .. })),
            ("d=2 path=0.0.0", |e| {
                matches!(e, E::PathTooLong { len: 3, .. })
            }),
            ("b=3 path=0.3", |e| {
                matches!(
                    e,
                    E::NoSuchChild {
                        index: 3,
                        depth: 1,
                        ..
                    }
                )
            }),
        ];
        for (text, check) in cases {
            let err = Synthetic::parse_position(text).unwrap_err();
            assert!(check(&err), "{text}: {err:?}");
        }
        assert!(matches!(
            Synthetic::parse_position("seed=-1").unwrap_err(),
            E::BadNumber { key: "seed", .. }
        ));
        let node = tree("b=3 d=1");
        assert!(matches!(node.parse_move("x"), Err(E::BadNumber { .. })));
        assert!(matches!(node.parse_move("3"), Err(E::NoSuchChild { .. })));
        let leaf = tree("b=3 d=1 path=2");
        assert!(matches!(leaf.parse_move("0"), Err(E::AtLeaf { depth: 1 })));
    }
}
