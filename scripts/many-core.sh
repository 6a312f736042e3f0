#!/usr/bin/env bash
# The measurements of a many-core machine in one command: a calibrated cost model, the
# simulator against real threads on 1, 2, 4, ... processors (with the never-splitting control),
# a threads comparison of the split-engine algorithms in the research setting (with its
# control), and the play setting's scaling of delay splitting (YBW), Lazy SMP and ABDADA in
# games against the sequential engine. Run it on a quiet machine: nothing else running.
#
# Usage: scripts/many-core.sh [OUT]   (default OUT: target/many-core)
# Environment: PROCS (default: 2, 4, 8, ... up to the cores), GAMES for the validation
# (default tictactoe4,othello,checkers), MIN_SECONDS (default 1), MATCH_GAMES (default 100),
# TIME_MS (default 100), SKIP_STRENGTH=1 to leave the games out (they take the longest).
#
# What it writes under OUT (each page names its command, machine and build):
#   calibrated.toml          the cost model of this machine (runner calibrate)
#   validate-sim.md, .json   measured against predicted speedups, every row with its interval
#   compare-othello/         runner compare --backend threads: report.html, results.json
#   strength/README.md       Elo per core in the play setting (runner strength)
# Each step prints whether its never-splitting control says the timing can be trusted.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-target/many-core}
cores=$(nproc)
if [ -z "${PROCS:-}" ]; then
    PROCS=""
    n=2
    while [ "$n" -le "$cores" ]; do
        PROCS="${PROCS:+$PROCS,}$n"
        n=$((n * 2))
    done
    [ -n "$PROCS" ] || PROCS=2
fi
games=${GAMES:-tictactoe4,othello,checkers}
min_seconds=${MIN_SECONDS:-1}
match_games=${MATCH_GAMES:-100}
time_ms=${TIME_MS:-100}

mkdir -p "$out"
cargo build --release -p runner
runner=target/release/runner
echo "many-core: $cores cores, processor counts $PROCS, into $out"

# 1. This machine's cost model.
"$runner" calibrate --games "$games" --out "$out/calibrated.toml"

# 2. The simulator against real threads on every processor count, with the control.
"$runner" validate-sim --sim-preset "$out/calibrated.toml" --games "$games" \
    --procs "$PROCS" --min-seconds "$min_seconds" --out "$out/validate-sim.md" --json \
    > "$out/validate-sim.json"
grep -m1 '^\*\*Measurement' "$out/validate-sim.md"

# 3. The research setting's speedups on real threads over the Othello middle-game set, each
#    position's depth chosen by the baseline's time (2 s), with the never-splitting control.
"$runner" compare --backend threads --game othello --testset othello_midgame --positions 6 \
    --algos delaysplit,mwf,pvsplit,lazysmp,abdada,aphid --procs "$PROCS" --time-ms 2000 \
    --repeat 5 --out "$out/compare-othello"

# 4. The play setting: what the cores are worth in games (YBW, Lazy SMP, ABDADA against the
#    sequential engine), Elo with its interval and the time to depth beside it.
if [ "${SKIP_STRENGTH:-0}" != 1 ]; then
    "$runner" strength --size full --backend threads --procs "$PROCS" \
        --algos delaysplit,lazysmp,abdada --match-games "$match_games" --time-ms "$time_ms" \
        --out "$out/strength"
fi
echo "many-core: done; pages under $out"
