//! Load balancing and exemptions (thesis 5.2.5).
//!
//! After a pass the master knows how many uncertain leaves each slave holds. Work moves from
//! the most overworked slave (most uncertain leaves) to a slave with none: the smallest eligible
//! piece (by nodes reported so far), never the first uncertain leaf of a slave (probably the
//! one it is searching now), never a piece moved by the previous balancing step. Moved work is
//! searched again from scratch by its new owner: a trade of search overhead for balance.
//!
//! A piece of work `v` times larger than the average (the principal variation's leaf, say) is
//! exempted from the horizon: from the next iteration on the master's tree goes 2 plies
//! deeper below it, splitting it into many pieces the balancing can spread.

use super::table::LeafId;

/// An uncertain leaf as the balancing sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The leaf.
    pub leaf: LeafId,
    /// Nodes reported for it so far (its size).
    pub nodes: u64,
    /// Moved by the previous balancing step.
    pub moved_last: bool,
}

/// One slave's uncertain leaves in the order the pass met them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Load {
    /// The slave.
    pub slave: usize,
    /// Its uncertain leaves, first met first.
    pub uncertain: Vec<Piece>,
}

/// A decided move of a leaf between slaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The leaf.
    pub leaf: LeafId,
    /// Its owner until now.
    pub from: usize,
    /// Its new owner.
    pub to: usize,
}

/// The moves for one balancing step: each slave without uncertain leaves (in `loads` order)
/// takes the smallest eligible piece of the slave that is most overworked at that moment.
#[must_use]
pub fn plan(loads: &[Load]) -> Vec<Move> {
    let mut loads: Vec<Load> = loads.to_vec();
    let idle: Vec<usize> = loads
        .iter()
        .filter(|l| l.uncertain.is_empty())
        .map(|l| l.slave)
        .collect();
    let mut moves = Vec::new();
    for to in idle {
        // The most overworked slave now (ties: the first).
        let Some(busiest) = loads
            .iter_mut()
            .filter(|l| l.uncertain.len() >= 2)
            .rev()
            .max_by_key(|l| l.uncertain.len())
        else {
            break;
        };
        // Never the first uncertain leaf, never a piece moved last time; the smallest.
        let Some((i, piece)) = busiest
            .uncertain
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(_, p)| !p.moved_last)
            .min_by_key(|(_, p)| p.nodes)
            .map(|(i, p)| (i, *p))
        else {
            continue;
        };
        busiest.uncertain.remove(i);
        moves.push(Move {
            leaf: piece.leaf,
            from: busiest.slave,
            to,
        });
    }
    moves
}

/// The piece to exempt from the horizon: the largest of `sizes` if it is at least `factor`
/// times the average (with at least two pieces; `factor` 0 never exempts).
#[must_use]
pub fn exemption(sizes: &[(LeafId, u64)], factor: u32) -> Option<LeafId> {
    if factor == 0 || sizes.len() < 2 {
        return None;
    }
    let total: u64 = sizes.iter().map(|(_, n)| n).sum();
    let (leaf, largest) = sizes.iter().copied().max_by_key(|(_, n)| *n)?;
    // largest >= factor * total / len, in integers.
    (u128::from(largest) * sizes.len() as u128 >= u128::from(factor) * u128::from(total)
        && largest > 0)
        .then_some(leaf)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(leaf: LeafId, nodes: u64) -> Piece {
        Piece {
            leaf,
            nodes,
            moved_last: false,
        }
    }

    /// Section 5.3, figures 5.6 and 5.7: slave 3 has finished its work, slave 1 is the most
    /// overworked (leaf 1211, which it is searching, then 2121); 2121 moves to slave 3.
    #[test]
    fn the_thesis_example_moves_2121_to_the_idle_slave() {
        let loads = vec![
            Load {
                slave: 1,
                uncertain: vec![piece(1211, 900), piece(2121, 300)],
            },
            Load {
                slave: 2,
                uncertain: vec![piece(1121, 500)],
            },
            Load {
                slave: 3,
                uncertain: vec![],
            },
        ];
        assert_eq!(
            plan(&loads),
            vec![Move {
                leaf: 2121,
                from: 1,
                to: 3
            }]
        );
    }

    #[test]
    fn the_first_uncertain_leaf_and_last_moved_pieces_stay() {
        let mut moved = piece(3, 1);
        moved.moved_last = true;
        let loads = vec![
            Load {
                slave: 1,
                uncertain: vec![piece(1, 1), moved, piece(4, 50), piece(5, 20)],
            },
            Load {
                slave: 2,
                uncertain: vec![],
            },
            Load {
                slave: 3,
                uncertain: vec![],
            },
        ];
        let m = plan(&loads);
        // The smallest eligible piece first (5), then the next (4); never 1 or 3.
        assert_eq!(m.len(), 2);
        assert_eq!((m[0].leaf, m[0].to), (5, 2));
        assert_eq!((m[1].leaf, m[1].to), (4, 3));
        // A slave with a single uncertain leaf gives nothing.
        let single = vec![
            Load {
                slave: 1,
                uncertain: vec![piece(1, 10)],
            },
            Load {
                slave: 2,
                uncertain: vec![],
            },
        ];
        assert!(plan(&single).is_empty());
    }

    #[test]
    fn only_a_piece_v_times_the_average_is_exempted() {
        let sizes = [(1, 100), (2, 100), (3, 100), (4, 2_000)];
        // Average 575; 2000 is 3.5 times that.
        assert_eq!(exemption(&sizes, 3), Some(4));
        assert_eq!(exemption(&sizes, 4), None);
        assert_eq!(exemption(&sizes, 0), None);
        assert_eq!(exemption(&[(1, 50)], 1), None);
    }
}
