#!/usr/bin/env python3
"""Play ox88 against itself at several strength levels and write the games as PGN, for
`ox88 puzzles mine`: games between levels below full strength hold natural mistakes (a
piece left hanging, a mate missed), which is what puzzles are made of.

Each game starts from one of the 500 balanced openings (tests/data/openings500.pgn, taken
in turn, played from the initial position so the games name their openings) and pairs two levels drawn from --elos, each side an `ox88 uci` process with
`UCI_LimitStrength` and `UCI_Elo`, thinking --movetime milliseconds a move. Games longer
than --max-plies are cut off (`*`), as nothing is lost for puzzles.

Needs python-chess (`pip install chess`).

    cargo build --release
    python3 scripts/puzzle_games.py --games 4 --out /tmp/games.pgn          # smoke run
    python3 scripts/puzzle_games.py --games 800 --jobs 2 --out target/puzzle-games.pgn
"""

from __future__ import annotations

import argparse
import concurrent.futures
import random
import sys
from pathlib import Path

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # pragma: no cover - the message is the point
    sys.exit("puzzle_games.py needs python-chess: pip install chess")

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ENGINE = REPO / "target" / "release" / "ox88"
OPENINGS = REPO / "tests" / "data" / "openings500.pgn"


def openings() -> list[chess.Board]:
    boards = []
    with open(OPENINGS) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            boards.append(game.end().board())
    return boards


def play(engine: str, start: chess.Board, elos: tuple[int, int], movetime: float,
         max_plies: int, number: int) -> str:
    sides = []
    try:
        for elo in elos:
            e = chess.engine.SimpleEngine.popen_uci([engine, "uci"], timeout=120)
            e.configure({"UCI_LimitStrength": True, "UCI_Elo": elo, "OwnBook": False})
            sides.append(e)
        board = start.copy()
        while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
            side = sides[0] if board.turn == chess.WHITE else sides[1]
            result = side.play(board, chess.engine.Limit(time=movetime))
            if result.move is None:
                break
            board.push(result.move)
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = "ox88 level games for puzzles"
        game.headers["Round"] = str(number)
        game.headers["White"] = f"ox88 {elos[0]}"
        game.headers["Black"] = f"ox88 {elos[1]}"
        outcome = board.outcome(claim_draw=True)
        game.headers["Result"] = outcome.result() if outcome else "*"
        return str(game) + "\n\n"
    finally:
        for e in sides:
            e.quit()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--first", type=int, default=0, help="index of the first opening")
    ap.add_argument("--elos", type=int, nargs="+", default=[900, 1200, 1500, 1800, 2100])
    ap.add_argument("--movetime", type=float, default=0.05, help="seconds per move")
    ap.add_argument("--max-plies", type=int, default=240)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", default=str(DEFAULT_ENGINE))
    ap.add_argument("--out", required=True, help="PGN file to append the games to")
    args = ap.parse_args()
    books = openings()
    rng = random.Random(args.seed)
    plan = [(books[(args.first + i) % len(books)], (rng.choice(args.elos), rng.choice(args.elos)), i + 1)
            for i in range(args.games)]
    with open(args.out, "a") as out, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(play, args.engine, b, elos, args.movetime, args.max_plies, n)
                for b, elos, n in plan]
        failed = 0
        for done, job in enumerate(concurrent.futures.as_completed(jobs), 1):
            try:
                out.write(job.result())
                out.flush()
            except Exception as e:  # a game that fails is left out, the rest go on
                failed += 1
                print(f"a game failed: {e!r}", file=sys.stderr)
            print(f"{done}/{args.games} games ({failed} failed)", file=sys.stderr)


if __name__ == "__main__":
    main()
