#!/usr/bin/env python3
"""Drives `runner uci` with python-chess: short self-play games under a clock.

From the initial position and from a few Bratko-Kopec positions (testsets/bratko_kopec.epd),
two instances of the engine play each other with a time control (base + increment per move).
Every move must be legal (python-chess checks it against its own move generator) and every
move must arrive before the mover's clock runs out; the clock is measured here, around the
whole round trip (command, search, answer), so the engine's own overhead counts against it.

Usage: uci_selfplay.py PATH_TO_RUNNER
Exit status 0 when every game passed, 1 otherwise.
"""

import signal
import sys
import time

import chess
import chess.engine

BASE_MS = 2000  # clock per side at the start of each game
INC_MS = 50  # increment per move
MAX_PLIES = 24  # plies per game (a short game: the test is about legality and time)
GRACE_S = 10  # a move not answered this long after the mover's clock ran out is a hang
BK_LINES = (1, 5, 12)  # Bratko-Kopec positions used as openings (1-based, after comments)

# (white options, black options): the other games pit parallel algorithms in the play engine
# on two threads (the default for Threads 2, and delay splitting) against the sequential search.
PAIRINGS = [
    ({}, {}),
    ({"Threads": 2}, {"Setting": "play"}),
    ({"Threads": 2, "Algorithm": "delaysplit"}, {"Setting": "play"}),
]


def bratko_kopec(path):
    """The FEN of each EPD line (the first four fields)."""
    fens = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                fens.append(" ".join(line.split()[:4]) + " 0 1")
    return fens


class NoAnswer(Exception):
    """The engine did not answer `go` at all (python-chess would wait for ever)."""


def no_answer(signum, frame):
    raise NoAnswer(f"no bestmove within the clock + {GRACE_S} s")


def play_game(runner, fen, white_options, black_options):
    """Plays one game; returns a list of problems (empty when all is well)."""
    board = chess.Board(fen) if fen else chess.Board()
    engines = {}
    problems = []
    try:
        for colour, options in ((chess.WHITE, white_options), (chess.BLACK, black_options)):
            engine = chess.engine.SimpleEngine.popen_uci([runner, "uci"], timeout=60)
            engines[colour] = engine
            engine.configure(options)
        clock = {chess.WHITE: BASE_MS / 1000.0, chess.BLACK: BASE_MS / 1000.0}
        inc = INC_MS / 1000.0
        plies = 0
        while not board.is_game_over(claim_draw=True) and plies < MAX_PLIES:
            mover = board.turn
            limit = chess.engine.Limit(
                white_clock=clock[chess.WHITE],
                black_clock=clock[chess.BLACK],
                white_inc=inc,
                black_inc=inc,
            )
            start = time.monotonic()
            # python-chess waits for `bestmove` without a timeout under a clock limit: an alarm
            # turns an engine that never answers into a failure instead of a hung CI run.
            signal.signal(signal.SIGALRM, no_answer)
            signal.alarm(int(clock[mover]) + GRACE_S)
            try:
                result = engines[mover].play(board, limit)
            finally:
                signal.alarm(0)
            took = time.monotonic() - start
            move = result.move
            if move is None or move not in board.legal_moves:
                problems.append(f"ply {plies + 1}: illegal move {move} in {board.fen()}")
                break
            clock[mover] -= took
            if clock[mover] <= 0:
                problems.append(
                    f"ply {plies + 1}: {'White' if mover else 'Black'} lost on time "
                    f"(the move took {took * 1000:.0f} ms, {-clock[mover] * 1000:.0f} ms too many)"
                )
                break
            clock[mover] += inc
            board.push(move)
            plies += 1
        left = {c: f"{clock[c] * 1000:.0f} ms" for c in clock}
        print(
            f"  {plies} plies, clocks left: White {left[chess.WHITE]}, Black {left[chess.BLACK]};"
            f" moves: {' '.join(m.uci() for m in board.move_stack)}"
        )
    except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError,
            NoAnswer) as e:
        problems.append(f"engine failure: {e!r} in {board.fen()}")
    finally:
        for engine in engines.values():
            try:
                engine.quit()
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError):
                engine.close()
    return problems


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    runner = sys.argv[1]
    fens = bratko_kopec("testsets/bratko_kopec.epd")
    openings = [("initial position", None)] + [
        (f"Bratko-Kopec {n}", fens[n - 1]) for n in BK_LINES
    ]
    failures = 0
    for white, black in PAIRINGS:
        for name, fen in openings:
            print(f"{name}: White {white or 'defaults'} vs Black {black or 'defaults'}, "
                  f"{BASE_MS} ms + {INC_MS} ms")
            problems = play_game(runner, fen, white, black)
            for p in problems:
                print(f"  FAIL: {p}")
            failures += len(problems)
    if failures:
        print(f"uci self-play: {failures} problem(s)")
        return 1
    print("uci self-play: every move legal and on time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
