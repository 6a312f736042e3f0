//! Training the pattern evaluation (`pattern.rs`): positions generated and labelled with
//! exact scores by the solver, then per band a least-squares fit of the linear features and
//! stochastic gradient descent of the pattern weights on the residuals, every training
//! position used in its eight symmetric orientations. Both steps are ignored tests; the
//! commands are in `README.md` ("Training the evaluation").

use super::super::bitboard::{flips, moves};
use super::pattern::{self, BANDS, LINEAR, TABLE};
use super::presort;
use super::{Solver, final_score};

/// A small linear congruential generator (Knuth's MMIX constants).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

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
        let sq = if rng.below(random_in) == 0 {
            squares[rng.below(squares.len() as u64) as usize]
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

#[test]
#[ignore = "writes training positions for the pattern evaluation; run with --release -- --ignored"]
fn generate_pattern_training_positions() {
    // GEN_OUT=path GEN_THREADS=t GEN_SECONDS=s GEN_SEED=x GEN_EMPTIES=lo,hi: each thread plays
    // games (random moves with probability 1/2 to 1/8, else greedy by the presort evaluation)
    // and solves about a third of their positions with lo..=hi empties. Lines: the two
    // bitboards (side to move, opponent) in hex and the exact score.
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let out = std::env::var("GEN_OUT").unwrap_or_else(|_| "pattern_train.txt".to_string());
    let (threads, seconds, seed) = (
        env("GEN_THREADS", 2),
        env("GEN_SECONDS", 60),
        env("GEN_SEED", 5),
    );
    let (lo, hi) = std::env::var("GEN_EMPTIES")
        .ok()
        .and_then(|v| {
            let (a, b) = v.split_once(',')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        })
        .unwrap_or((12u32, 20u32));
    let started = std::time::Instant::now();
    let handles: Vec<_> = (0..threads)
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
                    let random_in = 2 + rng.below(7);
                    for (p, o) in play(&mut rng, random_in, targets) {
                        if started.elapsed().as_secs() >= seconds {
                            break;
                        }
                        if moves::<8>(p, o) == 0 && moves::<8>(o, p) == 0 {
                            continue;
                        }
                        let pos = super::Othello::<8>::from_colours(p, o, crate::Side::First);
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
        all.push_str(&h.join().expect("generator thread"));
    }
    println!("{} positions", all.lines().count());
    std::fs::write(&out, all).expect("write the training positions");
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
pub(super) fn least_squares<const F: usize>(rows: &[([f64; F], f64)]) -> [f64; F] {
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

#[test]
#[ignore = "trains the pattern evaluation; run with --release -- --ignored --nocapture"]
fn train_presort_patterns() {
    // TRAIN_DATA=file[,file...] (lines of generate_pattern_training_positions);
    // TRAIN_OUT=path (default: the blob in the source tree); TRAIN_EPOCHS, TRAIN_RATE,
    // TRAIN_DECAY (L2, per step); TRAIN_TIE=1 trains one pattern table on all bands (the
    // linear part stays per band). Every tenth position is held out for validation.
    let data = std::env::var("TRAIN_DATA").expect("TRAIN_DATA=file[,file...]");
    let out = std::env::var("TRAIN_OUT").unwrap_or_else(|_| {
        format!(
            "{}/src/othello/endgame/presort_weights.bin",
            env!("CARGO_MANIFEST_DIR")
        )
    });
    let num = |k: &str, d: f64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let (epochs, rate, decay) = (
        num("TRAIN_EPOCHS", 20.0) as usize,
        num("TRAIN_RATE", 0.004),
        num("TRAIN_DECAY", 1e-4),
    );
    let tie = std::env::var("TRAIN_TIE").is_ok_and(|v| v == "1");
    let table_of = |b: usize| if tie { 0 } else { b };
    let mut samples: Vec<(u64, u64, f64)> = Vec::new();
    for file in data.split(',') {
        let text = std::fs::read_to_string(file).expect("training file");
        for line in text.lines() {
            let w: Vec<&str> = line.split_whitespace().collect();
            if let [p, o, s] = w[..] {
                let p = u64::from_str_radix(p, 16).expect("hex bitboard");
                let o = u64::from_str_radix(o, 16).expect("hex bitboard");
                samples.push((p, o, s.parse().expect("score")));
            }
        }
    }
    let band_of = |p: u64, o: u64| pattern::band(64 - (p | o).count_ones());
    let feats = |p: u64, o: u64| presort::features::<8>(p, o).map(f64::from);
    let (train, valid): (Vec<_>, Vec<_>) =
        samples.iter().enumerate().partition(|(i, _)| i % 10 != 0);
    let train: Vec<(u64, u64, f64)> = train.into_iter().map(|(_, s)| *s).collect();
    let valid: Vec<(u64, u64, f64)> = valid.into_iter().map(|(_, s)| *s).collect();
    println!(
        "{} training, {} validation positions",
        train.len(),
        valid.len()
    );

    // The linear part per band.
    let mut linear = [[0f64; LINEAR]; BANDS];
    for (b, weights) in linear.iter_mut().enumerate() {
        let rows: Vec<([f64; LINEAR], f64)> = train
            .iter()
            .filter(|&&(p, o, _)| band_of(p, o) == b)
            .map(|&(p, o, y)| (feats(p, o), y))
            .collect();
        *weights = least_squares(&rows);
        println!(
            "band {b}: {} positions, linear weights {weights:?}",
            rows.len()
        );
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
    println!(
        "linear only: validation rms {:?}",
        rms(&table, &valid, false)
    );
    let mut order: Vec<usize> = (0..residual.len()).collect();
    let mut rng = Lcg(77);
    let mut lr = rate;
    let mut best = (f64::INFINITY, table.clone());
    for epoch in 0..epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
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
        println!(
            "epoch {epoch}: training rms {:.3}, validation rms {v:?}",
            rms(&table, &train, true).0,
        );
        if v.0 < best.0 {
            best = (v.0, table.clone());
        }
    }
    // The epoch with the lowest validation error.
    let mut table = best.1;
    println!("kept validation rms {:.3}", best.0);
    if tie {
        for b in 1..BANDS {
            table[b] = table[0].clone();
        }
    }
    let blob = pattern::encode(&linear, &table);
    std::fs::write(&out, blob).expect("write the weights");
    println!("wrote {out}");
}

#[test]
fn symmetric_boards_keep_exact_scores() {
    // The eight orientations of a position are the same game: their final scores agree (a
    // check of `symmetric_board` through the rules).
    let score = |p: u64, o: u64| {
        let position = super::Othello::<8>::from_colours(p, o, crate::Side::First);
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
