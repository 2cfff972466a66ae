#!/usr/bin/env python3
"""How many of `ox88 review`'s marks a strong engine would not give.

`make` plays games between Stockfish at several `UCI_Elo` settings (limited strength makes
mistakes of every size, so such games give the review plenty to mark) and writes them as PGN.

`measure` runs `ox88 review` on every game of the given PGN files (at its default budget
unless `--review-arg` says otherwise), reads the annotated PGN it writes, and judges each
marked move with Stockfish at a fixed depth: the evaluation before the move and after it,
from the mover's side, turned into winning chances on lichess's scale
(2 / (1 + e^(-0.00368208 cp)) - 1, centipawns clipped to +-1000, a mate as +-1000). The loss
is the drop in those chances. A mark counts as false when the loss is below

    ?!  0.025      ?  0.05      ??  0.075

and, as a stricter second count, when it is below the mark's own threshold on the same scale
(0.1, 0.2, 0.3: the strong engine would have given a milder mark or none). It prints the
marks, the false ones by kind, the rates, and each review's time, nodes and second looks.

`scale` fits the factor that puts ox88's search centipawns on Stockfish's scale (the
review applies lichess's curve, fitted to Stockfish's centipawns, to k times its own).
Stockfish runs at nice 10 on one thread; its evaluations are cached by position and depth in
`--cache` so a second run (another ox88 binary on the same games) costs little.

The games measured are kept in scripts/data: review-gm.pgn, twelve grandmaster games (the
first round of the German Bundesliga 2007/08, as published in public PGN collections), and
review-sf.pgn, ten games `make` played (UCI_Elo 1350 to 2000, 0.05 s a move), and
review-sf-tune.pgn, ten more the same way with `--seed 2` (Stockfish's play at limited
strength is random, so a replay gives other games).

Needs python-chess (`pip install chess`) and Stockfish (`apt-get install stockfish`).

Examples:
    python3 scripts/review_false_marks.py make --out /tmp/review-sf.pgn --games 10
    cargo build --release
    python3 scripts/review_false_marks.py measure --ox88 target/release/ox88 \\
        scripts/data/review-gm.pgn scripts/data/review-sf.pgn
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import chess
import chess.engine
import chess.pgn

STOCKFISH = "/usr/games/stockfish"
MARKS = {6: "?!", 2: "?", 4: "??"}
# The rule: a mark is false when the move lost less than this.
FALSE_BELOW = {"?!": 0.025, "?": 0.05, "??": 0.075}
# The stricter count: below the mark's own threshold (the review's and lichess's).
OWN_THRESHOLD = {"?!": 0.1, "?": 0.2, "??": 0.3}


def stockfish(hash_mb: int = 64) -> chess.engine.SimpleEngine:
    engine = chess.engine.SimpleEngine.popen_uci(["nice", "-n", "10", STOCKFISH])
    engine.configure({"Threads": 1, "Hash": hash_mb})
    return engine


def chances(cp: int) -> float:
    cp = max(-1000, min(1000, cp))
    return 2.0 / (1.0 + math.exp(-0.00368208 * cp)) - 1.0


def make(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    elos = [int(e) for e in args.elos.split(",")]
    white, black = stockfish(16), stockfish(16)
    games = []
    try:
        for n in range(args.games):
            we, be = rng.choice(elos), rng.choice(elos)
            white.configure({"UCI_LimitStrength": True, "UCI_Elo": we})
            black.configure({"UCI_LimitStrength": True, "UCI_Elo": be})
            board = chess.Board()
            while not board.is_game_over(claim_draw=True) and board.ply() < args.max_plies:
                engine = white if board.turn == chess.WHITE else black
                result = engine.play(board, chess.engine.Limit(time=args.movetime))
                board.push(result.move)
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = "Stockfish at limited strength"
            game.headers["Round"] = str(n + 1)
            game.headers["White"] = f"Stockfish UCI_Elo {we}"
            game.headers["Black"] = f"Stockfish UCI_Elo {be}"
            game.headers["Result"] = board.result(claim_draw=True)
            games.append(game)
            print(f"game {n + 1}: {we} vs {be}, {board.ply()} plies, "
                  f"{game.headers['Result']}", file=sys.stderr)
    finally:
        white.quit()
        black.quit()
    with open(args.out, "w") as f:
        for g in games:
            print(g, file=f, end="\n\n")


class Judge:
    """Stockfish at a fixed depth, its evaluations cached by position."""

    def __init__(self, depth: int, cache: Path):
        self.depth = depth
        self.cache_path = cache
        self.cache = json.loads(cache.read_text()) if cache.exists() else {}
        self.engine = stockfish()

    def close(self) -> None:
        self.engine.quit()
        self.cache_path.write_text(json.dumps(self.cache))

    def cp(self, board: chess.Board) -> int:
        """Centipawns for the side to move (a mate as +-100000), from the board with its
        moves so that repetitions count."""
        if board.is_checkmate():
            return -100000
        if board.is_stalemate() or board.is_insufficient_material():
            return 0
        key = f"{self.depth} {board.fen()} {' '.join(m.uci() for m in board.move_stack[-8:])}"
        if key not in self.cache:
            info = self.engine.analyse(board, chess.engine.Limit(depth=self.depth))
            self.cache[key] = info["score"].pov(board.turn).score(mate_score=100000)
        return self.cache[key]

    def loss(self, before: chess.Board, move: chess.Move) -> float:
        after = before.copy()
        after.push(move)
        return chances(self.cp(before)) - chances(-self.cp(after))


def count_games(path: str) -> int:
    return len(re.findall(r"^\[Event ", Path(path).read_text(), flags=re.M))


def measure(args: argparse.Namespace) -> None:
    judge = Judge(args.depth, Path(args.cache))
    tally = {k: [0, 0, 0] for k in MARKS.values()}  # marks, false, false by own threshold
    games = 0
    total_time = total_nodes = total_looks = 0.0
    try:
        for path in args.pgn:
            for number in range(1, count_games(path) + 1):
                cmd = [args.ox88, "review", path, "--game", str(number), *args.review_arg]
                run = subprocess.run(cmd, capture_output=True, text=True, check=True)
                found = re.search(r"review: ([\d.]+) s(?:, (\d+) nodes)?(?:.*?(\d+) second looks)?",
                                  run.stderr)
                if found:
                    total_time += float(found.group(1))
                    total_nodes += int(found.group(2) or 0)
                    total_looks += int(found.group(3) or 0)
                game = chess.pgn.read_game(io.StringIO(run.stdout))
                games += 1
                board = game.board()
                for node in game.mainline():
                    mark = next((MARKS[n] for n in node.nags if n in MARKS), None)
                    if mark:
                        loss = judge.loss(board, node.move)
                        row = tally[mark]
                        row[0] += 1
                        wrong = loss < FALSE_BELOW[mark]
                        row[1] += wrong
                        row[2] += loss < OWN_THRESHOLD[mark]
                        if args.verbose or wrong:
                            san = board.san(node.move)
                            num = f"{board.fullmove_number}{'.' if board.turn else '...'}"
                            flag = "FALSE" if wrong else ""
                            print(f"  {Path(path).name} #{number} {num}{san}{mark} "
                                  f"loss {loss:.3f} {flag}", file=sys.stderr)
                    board.push(node.move)
    finally:
        judge.close()
    marks = sum(r[0] for r in tally.values())
    false = sum(r[1] for r in tally.values())
    strict = sum(r[2] for r in tally.values())
    print(f"games {games}, marks {marks}")
    for mark, (n, f, s) in tally.items():
        print(f"  {mark:<2}  marks {n:>3}  false {f:>3}  below its own threshold {s:>3}")
    if marks:
        print(f"false marks {false} of {marks} ({100 * false / marks:.1f}%); "
              f"below their own threshold {strict} ({100 * strict / marks:.1f}%)")
    if games and total_time:
        nps = f", {total_nodes / total_time:.0f} n/s" if total_nodes else ""
        print(f"review time {total_time:.1f} s in all, {total_time / games:.1f} s a game"
              f"{nps}, {total_looks:.0f} second looks")


def scale(args: argparse.Namespace) -> None:
    """Fits the factor that puts ox88's search centipawns on Stockfish's scale: the k for
    which lichess's curve at k * ox88's score is nearest (least squares in winning chances)
    to the curve at Stockfish's score, over every position of the games the review scored
    (its `[%eval]` after each move) and Stockfish at `--depth` scored too."""
    judge = Judge(args.depth, Path(args.cache))
    pairs = []
    try:
        for path in args.pgn:
            for number in range(1, count_games(path) + 1):
                cmd = [args.ox88, "review", path, "--game", str(number), *args.review_arg]
                run = subprocess.run(cmd, capture_output=True, text=True, check=True)
                game = chess.pgn.read_game(io.StringIO(run.stdout))
                board = game.board()
                for node in game.mainline():
                    board.push(node.move)
                    found = re.search(r"\[%eval (-?[\d.]+)\]", node.comment or "")
                    if not found or board.is_game_over():
                        continue
                    ours = round(100 * float(found.group(1)))
                    theirs = judge.cp(board) * (1 if board.turn == chess.WHITE else -1)
                    if abs(ours) < 1000 and abs(theirs) < 1000:
                        pairs.append((ours, theirs))
    finally:
        judge.close()

    def error(k: float) -> float:
        return sum((chances(round(k * o)) - chances(t)) ** 2 for o, t in pairs)

    best = min((k / 100 for k in range(20, 161)), key=error)
    mean_ours = sum(abs(o) for o, _ in pairs) / len(pairs)
    mean_theirs = sum(abs(t) for _, t in pairs) / len(pairs)
    print(f"positions {len(pairs)}; mean |cp| ox88 {mean_ours:.0f}, Stockfish {mean_theirs:.0f}")
    print(f"k = {best:.2f} (squared error {error(best):.2f}; at k = 1: {error(1.0):.2f})")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("make", help="play Stockfish games at limited strength")
    m.add_argument("--out", required=True)
    m.add_argument("--games", type=int, default=10)
    m.add_argument("--elos", default="1350,1500,1650,1800,2000")
    m.add_argument("--movetime", type=float, default=0.05)
    m.add_argument("--max-plies", type=int, default=160)
    m.add_argument("--seed", type=int, default=1)
    r = sub.add_parser("measure", help="count the review's false marks")
    r.add_argument("pgn", nargs="+")
    r.add_argument("--ox88", default="target/release/ox88")
    r.add_argument("--review-arg", action="append", default=[],
                   help="an argument for `ox88 review` (repeat: --review-arg=--depth "
                        "--review-arg=14)")
    r.add_argument("--depth", type=int, default=16, help="Stockfish's depth")
    r.add_argument("--cache", default="target/review-false-marks-cache.json")
    r.add_argument("--verbose", action="store_true", help="every mark, not only false ones")
    f = sub.add_parser("scale", help="fit the factor from ox88's centipawns to Stockfish's")
    f.add_argument("pgn", nargs="+")
    f.add_argument("--ox88", default="target/release/ox88")
    f.add_argument("--review-arg", action="append", default=[])
    f.add_argument("--depth", type=int, default=12, help="Stockfish's depth")
    f.add_argument("--cache", default="target/review-false-marks-cache.json")
    args = p.parse_args()
    {"make": make, "measure": measure, "scale": scale}[args.command](args)


if __name__ == "__main__":
    main()
