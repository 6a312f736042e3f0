//! Training the presort's evaluations from exactly solved positions: positions are generated
//! and labelled with the solver's exact scores, then the weights are fitted.
//!
//! - The pattern evaluation of 8x8 (`pattern.rs`): [`pattern_positions`] plays games from the
//!   start and solves some of their positions; [`train_patterns`] fits, per band of empties,
//!   the linear features by least squares, then the pattern weights by stochastic gradient
//!   descent on the residuals (every training position in its eight symmetric orientations)
//!   and returns the blob of `presort_weights.bin`.
//! - The linear evaluation (`presort.rs`, the one 6x6 uses): [`presort_positions`] writes
//!   solved positions in the test-set format of `testsets/search/othello_presort_fit.txt`;
//!   [`fit_presort`] gives the least-squares weights of the features.
//!
//! The examples `othello_pattern_positions`, `othello_pattern_train`,
//! `othello_presort_positions` and `othello_presort_fit` of the `games` crate run each step;
//! `endgame/README.md` ("Training the evaluation") has the commands that made the weights in
//! use.

use std::ops::RangeInclusive;

use super::super::Othello8;
use super::super::bitboard::{flips, moves};
use super::Solver;
use super::pattern::{self, BANDS, LINEAR, TABLE};
use super::presort;
use crate::{Game, Lcg};

/// The position after one game from the start: each move uniformly random with probability
/// `1 / random_in`, otherwise the one the presort evaluation rates best; the positions with
/// empties in `targets` on the way are returned (side to move first).
fn play(rng: &mut Lcg, random_in: u64, targets: u32) -> Vec<(u64, u64)> {
    let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
    let mut out = Vec::new();
    loop {
        let empties = 64 - (p | o).count_ones();
        if empties < 32 && targets & (1 << empties) != 0 {
            out.push((p, o));
        }
        let mut list = moves::<8>(p, o);
        if list == 0 {
            if moves::<8>(o, p) == 0 {
                return out;
            }
            (p, o) = (o, p);
            continue;
        }
        let mut squares = Vec::new();
        while list != 0 {
            squares.push(list.trailing_zeros() as usize);
            list &= list - 1;
        }
        let child = |sq: usize| {
            let f = flips::<8>(p, o, sq);
            (o ^ f, p ^ f ^ (1 << sq))
        };
        let sq = if rng.below(random_in as usize) == 0 {
            squares[rng.below(squares.len())]
        } else {
            *squares
                .iter()
                .min_by_key(|&&s| {
                    let (np, no) = child(s);
                    presort::evaluate::<8>(np, no)
                })
                .expect("a move")
        };
        (p, o) = child(sq);
    }
}

/// What [`pattern_positions`] generates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternPositions {
    /// Threads, each playing and solving games of its own.
    pub threads: u64,
    /// Wall-clock seconds to generate for: the number of positions depends on it.
    pub seconds: u64,
    /// The seed of every thread's generator (each thread mixes in its index).
    pub seed: u64,
    /// The empties of the positions solved, within `0..=31`.
    pub empties: RangeInclusive<u32>,
}

impl Default for PatternPositions {
    /// 2 threads for 60 seconds, seed 5, 12 to 20 empties.
    fn default() -> Self {
        PatternPositions {
            threads: 2,
            seconds: 60,
            seed: 5,
            empties: 12..=20,
        }
    }
}

/// Training positions of the pattern evaluation, one a line: the two bitboards (side to move,
/// opponent) in hex and the exact score for the side to move, e.g.
/// `0000001c0c040000 0000080010000000 -12`. Each thread of `config` plays games from the
/// start (each move uniformly random with a per-game probability of 1/2 to 1/8, otherwise the
/// one the presort evaluation rates best) and solves about a third of their positions with
/// `config.empties` empties, until `config.seconds` have passed; the threads' lines follow
/// one another in thread order.
///
/// # Panics
/// If `config.empties` reaches beyond 31.
pub fn pattern_positions(config: &PatternPositions) -> String {
    let (lo, hi) = (*config.empties.start(), *config.empties.end());
    assert!(hi < 32, "empties {lo}..={hi}: at most 31");
    let (seconds, seed) = (config.seconds, config.seed);
    let started = std::time::Instant::now();
    let handles: Vec<_> = (0..config.threads)
        .map(|t| {
            std::thread::spawn(move || {
                let mut rng = Lcg(seed.wrapping_mul(0x9E37_79B9) ^ ((t + 1) * 0x1234_5679));
                let mut solver = Solver::<8>::new(20);
                let mut text = String::new();
                while started.elapsed().as_secs() < seconds {
                    let mut targets = 0u32;
                    for e in lo..=hi {
                        if rng.below(3) == 0 {
                            targets |= 1 << e;
                        }
                    }
                    let random_in = 2 + rng.below(7) as u64;
                    for (p, o) in play(&mut rng, random_in, targets) {
                        if started.elapsed().as_secs() >= seconds {
                            break;
                        }
                        if moves::<8>(p, o) == 0 && moves::<8>(o, p) == 0 {
                            continue;
                        }
                        let pos = Othello8::from_colours(p, o, crate::Side::First);
                        let r = solver.solve(&pos, -64, 64);
                        text.push_str(&format!("{p:016x} {o:016x} {}\n", r.score));
                    }
                }
                text
            })
        })
        .collect();
    let mut all = String::new();
    for h in handles {
        all.push_str(&h.join().expect("a generator thread does not panic"));
    }
    all
}

/// A training position of the pattern evaluation: the bitboards of the side to move and of
/// the opponent, and the exact final score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredBoards {
    /// The side to move's discs.
    pub player: u64,
    /// The opponent's discs.
    pub opponent: u64,
    /// The exact final disc difference for the side to move.
    pub score: i32,
}

/// A line of a training file that is not two hex bitboards and a score.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: `{text}` is not two hex bitboards and a score")]
pub struct BadTrainingLine {
    /// The line's number, from 1.
    pub line: usize,
    /// The line.
    pub text: String,
}

/// The positions of a training file of [`pattern_positions`]; lines without exactly three
/// fields (blank lines among them) are skipped.
pub fn parse_pattern_positions(text: &str) -> Result<Vec<ScoredBoards>, BadTrainingLine> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let [p, o, s] = w[..] else {
            continue;
        };
        let scored = (|| {
            Some(ScoredBoards {
                player: u64::from_str_radix(p, 16).ok()?,
                opponent: u64::from_str_radix(o, 16).ok()?,
                score: s.parse().ok()?,
            })
        })();
        out.push(scored.ok_or_else(|| BadTrainingLine {
            line: i + 1,
            text: line.to_string(),
        })?);
    }
    Ok(out)
}

/// `x` under symmetry `k` of `pattern::symmetric`.
fn symmetric_board(k: usize, x: u64) -> u64 {
    let mut out = 0;
    let mut rest = x;
    while rest != 0 {
        let s = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out |= 1 << pattern::symmetric(k, s);
    }
    out
}

/// The least-squares solution `w` of `rows * w = targets` (each row `F` features), through
/// the normal equations and Gaussian elimination with partial pivoting.
fn least_squares<const F: usize>(rows: &[([f64; F], f64)]) -> [f64; F] {
    let mut m = vec![vec![0f64; F + 1]; F];
    for (x, y) in rows {
        for i in 0..F {
            m[i][F] += x[i] * y;
            for j in 0..F {
                m[i][j] += x[i] * x[j];
            }
        }
    }
    for c in 0..F {
        let piv = (c..F)
            .max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))
            .expect("a row");
        m.swap(c, piv);
        for r in 0..F {
            if r != c && m[c][c] != 0.0 {
                let k = m[r][c] / m[c][c];
                let pivot_row = m[c].clone();
                for (x, y) in m[r].iter_mut().zip(pivot_row).skip(c) {
                    *x -= k * y;
                }
            }
        }
    }
    std::array::from_fn(|i| {
        if m[i][i] == 0.0 {
            0.0
        } else {
            m[i][F] / m[i][i]
        }
    })
}

/// How [`train_patterns`] trains.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatternTraining {
    /// Passes over the training positions.
    pub epochs: usize,
    /// The first epoch's learning rate; each epoch multiplies it by 0.85.
    pub rate: f64,
    /// L2 decay of the pattern weights, per step.
    pub decay: f64,
    /// One pattern table trained on all bands (the linear part stays per band).
    pub tie: bool,
}

impl Default for PatternTraining {
    /// 20 epochs, rate 0.004, decay 1e-4, a table per band.
    fn default() -> Self {
        PatternTraining {
            epochs: 20,
            rate: 0.004,
            decay: 1e-4,
            tie: false,
        }
    }
}

/// Trains the pattern evaluation on `samples` and returns its weights in the layout of
/// `presort_weights.bin`. Every tenth position is held out for validation; per band the linear
/// features are fitted by least squares, then the pattern weights by stochastic gradient
/// descent on the residuals (each position in its eight orientations, in an order shuffled
/// per epoch by a fixed seed); the epoch with the lowest validation error is kept. Each line of
/// the report (positions per band, linear weights, training and validation rms error per
/// epoch) goes to `progress`.
pub fn train_patterns(
    samples: &[ScoredBoards],
    config: &PatternTraining,
    mut progress: impl FnMut(&str),
) -> Vec<u8> {
    let PatternTraining {
        epochs,
        rate,
        decay,
        tie,
    } = *config;
    let table_of = |b: usize| if tie { 0 } else { b };
    let samples: Vec<(u64, u64, f64)> = samples
        .iter()
        .map(|s| (s.player, s.opponent, f64::from(s.score)))
        .collect();
    let band_of = |p: u64, o: u64| pattern::band(64 - (p | o).count_ones());
    let feats = |p: u64, o: u64| presort::features::<8>(p, o).map(f64::from);
    let (train, valid): (Vec<_>, Vec<_>) =
        samples.iter().enumerate().partition(|(i, _)| i % 10 != 0);
    let train: Vec<(u64, u64, f64)> = train.into_iter().map(|(_, s)| *s).collect();
    let valid: Vec<(u64, u64, f64)> = valid.into_iter().map(|(_, s)| *s).collect();
    progress(&format!(
        "{} training, {} validation positions",
        train.len(),
        valid.len()
    ));

    // The linear part per band.
    let mut linear = [[0f64; LINEAR]; BANDS];
    for (b, weights) in linear.iter_mut().enumerate() {
        let rows: Vec<([f64; LINEAR], f64)> = train
            .iter()
            .filter(|&&(p, o, _)| band_of(p, o) == b)
            .map(|&(p, o, y)| (feats(p, o), y))
            .collect();
        *weights = least_squares(&rows);
        progress(&format!(
            "band {b}: {} positions, linear weights {weights:?}",
            rows.len()
        ));
    }
    let lin = |p: u64, o: u64| -> f64 {
        feats(p, o)
            .iter()
            .zip(&linear[band_of(p, o)])
            .map(|(x, w)| x * w)
            .sum()
    };

    // Residuals of the training positions in their eight orientations.
    type Sample = (usize, [(u64, u64); 8], f64);
    let residual: Vec<Sample> = train
        .iter()
        .map(|&(p, o, y)| {
            let boards = std::array::from_fn(|k| (symmetric_board(k, p), symmetric_board(k, o)));
            (table_of(band_of(p, o)), boards, y - lin(p, o))
        })
        .collect();
    let mut table = vec![vec![0f64; TABLE]; BANDS];
    let rms = |table: &[Vec<f64>], set: &[(u64, u64, f64)], with_patterns: bool| {
        let mut per = [(0f64, 0f64); BANDS];
        for &(p, o, y) in set {
            let b = band_of(p, o);
            let mut v = lin(p, o);
            if with_patterns {
                v += pattern::indices(p, o)
                    .iter()
                    .map(|&i| table[table_of(b)][i as usize])
                    .sum::<f64>();
            }
            per[b].0 += (v - y) * (v - y);
            per[b].1 += 1.0;
        }
        let total = per.iter().map(|x| x.0).sum::<f64>() / per.iter().map(|x| x.1).sum::<f64>();
        (total.sqrt(), per.map(|(s, n)| (s / n.max(1.0)).sqrt()))
    };
    progress(&format!(
        "linear only: validation rms {:?}",
        rms(&table, &valid, false)
    ));
    let mut order: Vec<usize> = (0..residual.len()).collect();
    let mut rng = Lcg(77);
    let mut lr = rate;
    let mut best = (f64::INFINITY, table.clone());
    for epoch in 0..epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for &i in &order {
            let (b, boards, r) = &residual[i];
            let w = &mut table[*b];
            for &(p, o) in boards {
                let idx = pattern::indices(p, o);
                let pred: f64 = idx.iter().map(|&j| w[j as usize]).sum();
                let step = lr * (r - pred);
                for &j in &idx {
                    let x = &mut w[j as usize];
                    *x += step - lr * decay * *x;
                }
            }
        }
        lr *= 0.85;
        let v = rms(&table, &valid, true);
        progress(&format!(
            "epoch {epoch}: training rms {:.3}, validation rms {v:?}",
            rms(&table, &train, true).0,
        ));
        if v.0 < best.0 {
            best = (v.0, table.clone());
        }
    }
    // The epoch with the lowest validation error.
    let mut table = best.1;
    progress(&format!("kept validation rms {:.3}", best.0));
    if tie {
        for b in 1..BANDS {
            table[b] = table[0].clone();
        }
    }
    pattern::encode(&linear, &table)
}

/// `count` training positions of the linear evaluation, one a line in the test-set format
/// `POSITION ; score S empties E` (as in `testsets/search/othello_presort_fit.txt`): 12 to 16
/// empties (drawn per position) reached by play from the start that is greedy by the
/// hand-made evaluation of `../eval.rs` three moves in four and uniformly random otherwise,
/// each solved exactly. The generator's seed is fixed: the first `n` lines are the same for
/// any `count >= n`.
pub fn presort_positions(count: u64) -> String {
    let mut rng = Lcg(2026);
    let mut text = String::new();
    let mut solver = Solver::<8>::new(20);
    let mut moves = Vec::new();
    let mut made = 0;
    while made < count {
        let target = 12 + rng.below(5) as u32;
        let mut pos = Othello8::start();
        while pos.empties().count_ones() > target {
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = if rng.below(4) == 0 {
                moves[rng.below(moves.len())]
            } else {
                *moves
                    .iter()
                    .min_by_key(|&&m| {
                        let (p, o) = pos.played(m).bitboards();
                        super::super::eval::evaluate::<8>(p, o)
                    })
                    .expect("a move")
            };
            pos.make_move(mv);
        }
        if pos.is_over() || pos.empties().count_ones() != target {
            continue;
        }
        let r = solver.solve(&pos, -64, 64);
        text.push_str(&format!("{pos} ; score {} empties {target}\n", r.score));
        made += 1;
    }
    text
}

/// The least-squares fit of [`fit_presort`].
#[derive(Clone, Debug, PartialEq)]
pub struct PresortFit {
    /// The weight of each feature of the linear evaluation, in discs (the features are listed
    /// at `features` in `presort.rs`).
    pub weights: Vec<f64>,
    /// The root mean square error of the fit over the positions, in discs.
    pub rms: f64,
    /// How many positions were fitted.
    pub positions: usize,
}

/// The weights of the linear evaluation's features that fit the exact scores of `positions`
/// best (least squares, through the normal equations).
pub fn fit_presort(positions: &[(Othello8, i32)]) -> PresortFit {
    let rows: Vec<([f64; presort::FEATURES], f64)> = positions
        .iter()
        .map(|(pos, score)| {
            let (p, o) = pos.bitboards();
            (
                presort::features::<8>(p, o).map(f64::from),
                f64::from(*score),
            )
        })
        .collect();
    let w = least_squares(&rows);
    let se: f64 = rows
        .iter()
        .map(|(x, y)| {
            let e = x.iter().zip(&w).map(|(a, b)| a * b).sum::<f64>() - y;
            e * e
        })
        .sum();
    PresortFit {
        weights: w.to_vec(),
        rms: (se / rows.len() as f64).sqrt(),
        positions: rows.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::final_score;
    use super::*;

    #[test]
    fn symmetric_boards_keep_exact_scores() {
        // The eight orientations of a position are the same game: their final scores agree (a
        // check of `symmetric_board` through the rules).
        let score = |p: u64, o: u64| {
            let position = Othello8::from_colours(p, o, crate::Side::First);
            Solver::<8>::new(12).solve(&position, -64, 64).score
        };
        let mut rng = Lcg(3);
        for (p, o) in play(&mut rng, 2, 1 << 9) {
            let want = score(p, o);
            for k in 1..8 {
                assert_eq!(score(symmetric_board(k, p), symmetric_board(k, o)), want);
            }
            assert!(final_score::<8>(p, o).abs() <= 64);
        }
    }

    #[test]
    fn training_steps_fit_together() {
        // Presort positions read back as a test set, fit, written and read as pattern training
        // lines, and trained into a blob of the evaluation's layout.
        let set = super::super::scored_positions::<8>(&presort_positions(12)).expect("a test set");
        let scored: Vec<(Othello8, i32)> = set
            .iter()
            .map(|&(pos, score)| (pos, score.expect("a score")))
            .collect();
        assert_eq!(scored.len(), 12);
        let fit = fit_presort(&scored);
        assert_eq!((fit.weights.len(), fit.positions), (presort::FEATURES, 12));
        assert!(fit.rms.is_finite());
        let samples: Vec<ScoredBoards> = scored
            .iter()
            .map(|(pos, score)| {
                let (player, opponent) = pos.bitboards();
                ScoredBoards {
                    player,
                    opponent,
                    score: *score,
                }
            })
            .collect();
        let lines: String = samples
            .iter()
            .map(|s| format!("{:016x} {:016x} {}\n\n", s.player, s.opponent, s.score))
            .collect();
        assert_eq!(parse_pattern_positions(&lines).as_ref(), Ok(&samples));
        assert_eq!(
            parse_pattern_positions("\n0 1 2\n0 zz 2"),
            Err(BadTrainingLine {
                line: 3,
                text: "0 zz 2".to_string()
            })
        );
        let config = PatternTraining {
            epochs: 1,
            ..PatternTraining::default()
        };
        let mut reported = 0;
        let blob = train_patterns(&samples, &config, |_| reported += 1);
        assert_eq!(blob.len(), pattern::BLOB_BYTES);
        assert_eq!(blob[..8], pattern::MAGIC);
        assert!(reported > 0);
    }
}
