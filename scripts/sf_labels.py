#!/usr/bin/env python3
"""Label tuning positions with Stockfish's score, for `ox88 tune`.

A game's result says who won, not why: when both players miss the same attack (ox88 against
itself), the positions before it are labelled as if it were not there. A strong engine's
score of each position says what the position is worth. This script turns positions into
such labels, in four steps:

    extract   quiet positions of PGN games (not in check, the move played there neither a
              capture nor a promotion, from ply 8, each position once), labelled by the
              game's result: `FEN [1.0]`, the format `ox88 selfplay` writes
    label     Stockfish at full strength, one thread, a fixed depth, scores each line of such
              a file; the score (White's view, centipawns, a mate as +/-3000) is appended:
              `FEN [result] cp`. Appends to OUT, so a stopped run can go on with --start
    scale     the logistic scale s for which 1 / (1 + exp(-cp / s)) best predicts the games'
              results on a labelled file (least squares), as a check and for `mix`
    mix       the file `ox88 tune` reads: each position's label becomes
              alpha * result + (1 - alpha) / (1 + exp(-cp / s))

Only Stockfish's scores of positions are used: numbers, not its code or its evaluation's
terms. Needs Stockfish (`apt-get install stockfish`); `extract` needs python-chess.

Examples:
    python3 scripts/sf_labels.py extract games.txt match1.pgn match2.pgn
    python3 scripts/sf_labels.py label selfplay.txt selfplay_sf.txt --depth 8 --step 2
    python3 scripts/sf_labels.py scale selfplay_sf.txt
    python3 scripts/sf_labels.py mix selfplay_sf.txt train.txt --alpha 0 --scale 140
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys

MATE = 3000
CLIP = 2000


def extract(args: argparse.Namespace) -> None:
    try:
        import chess
        import chess.pgn
    except ImportError:
        sys.exit("extract needs python-chess: pip install chess")
    seen: set[str] = set()
    written = 0
    with open(args.out, "w") as out:
        for path in args.pgn:
            with open(path) as f:
                while (game := chess.pgn.read_game(f)) is not None:
                    label = {"1-0": "[1.0]", "0-1": "[0.0]", "1/2-1/2": "[0.5]"}.get(
                        game.headers.get("Result", "*")
                    )
                    if label is None:
                        continue
                    board = game.board()
                    for ply, move in enumerate(game.mainline_moves()):
                        quiet = not (
                            board.is_check()
                            or board.is_capture(move)
                            or move.promotion is not None
                        )
                        if ply >= 8 and quiet:
                            key = " ".join(board.fen().split()[:4])
                            if key not in seen:
                                seen.add(key)
                                out.write(f"{board.fen()} {label}\n")
                                written += 1
                        board.push(move)
    print(f"{written} positions written to {args.out}", file=sys.stderr)


class Stockfish:
    def __init__(self, binary: str, hash_mb: int) -> None:
        self.p = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.until("uciok")
        self.send("setoption name Threads value 1")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("isready")
        self.until("readyok")

    def send(self, line: str) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix: str) -> None:
        assert self.p.stdout is not None
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("Stockfish quit")
            if line.startswith(prefix):
                return

    def score(self, fen: str, depth: int) -> int | None:
        """The last exact score of a depth-limited search, from the side to move's view."""
        assert self.p.stdout is not None
        self.send("position fen " + fen)
        self.send(f"go depth {depth}")
        score = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("Stockfish quit")
            if line.startswith("bestmove"):
                return score
            words = line.split()
            if "score" in words and "lowerbound" not in words and "upperbound" not in words:
                i = words.index("score")
                if words[i + 1] == "cp":
                    score = int(words[i + 2])
                elif words[i + 1] == "mate":
                    score = MATE if int(words[i + 2]) > 0 else -MATE

    def quit(self) -> None:
        self.send("quit")
        self.p.wait()


def label(args: argparse.Namespace) -> None:
    sf = Stockfish(args.stockfish, args.hash)
    written = 0
    with open(args.inp) as f, open(args.out, "a") as out:
        for i, line in enumerate(f):
            if i < args.start or (i - args.start) % args.step:
                continue
            if args.count and written >= args.count:
                break
            text = line.strip()
            if not text or text.startswith("#") or "[" not in text:
                continue
            cut = text.rfind("[")
            fen, result = text[:cut].strip(), text[cut:].strip()
            fields = fen.split()
            if len(fields) < 4 or fields[1] not in ("w", "b"):
                print(f"line {i + 1}: not a FEN, skipped", file=sys.stderr)
                continue
            cp = sf.score(fen, args.depth)
            if cp is None:
                continue
            if fields[1] == "b":
                cp = -cp
            out.write(f"{fen} {result} {cp}\n")
            written += 1
            if written % 1000 == 0:
                out.flush()
    sf.quit()
    print(f"{written} positions scored into {args.out}", file=sys.stderr)


def read_scored(path: str):
    with open(path) as f:
        for line in f:
            fen, result, cp = line.rsplit(None, 2)
            yield fen, float(result.strip("[]")), max(-CLIP, min(CLIP, int(cp)))


def expected(cp: float, s: float) -> float:
    return 1.0 / (1.0 + math.exp(-cp / s))


def scale(args: argparse.Namespace) -> None:
    rows = [(r, cp) for _, r, cp in read_scored(args.inp)]
    if not rows:
        sys.exit(f"{args.inp}: no scored positions")

    def error(s: float) -> float:
        return sum((r - expected(cp, s)) ** 2 for r, cp in rows) / len(rows)

    best = min(range(40, 801, 10), key=error)
    print(f"{len(rows)} positions: s = {best} (mean squared error {error(best):.8f})")


def mix(args: argparse.Namespace) -> None:
    if not 0.0 <= args.alpha <= 1.0:
        sys.exit("--alpha is a share from 0 to 1")
    written = 0
    with open(args.out, "w") as out:
        for fen, r, cp in read_scored(args.inp):
            t = args.alpha * r + (1.0 - args.alpha) * expected(cp, args.scale)
            out.write(f"{fen} [{t:.4f}]\n")
            written += 1
    print(f"{written} positions written to {args.out}", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = ap.add_subparsers(dest="command", required=True)
    e = sub.add_parser("extract", help="quiet positions of PGN games, with their results")
    e.add_argument("out")
    e.add_argument("pgn", nargs="+")
    e.set_defaults(run=extract)
    la = sub.add_parser("label", help="append Stockfish's score to each position")
    la.add_argument("inp")
    la.add_argument("out")
    la.add_argument("--depth", type=int, default=8)
    la.add_argument("--start", type=int, default=0, help="first line (0-based)")
    la.add_argument("--step", type=int, default=1, help="every n-th line from --start")
    la.add_argument("--count", type=int, default=0, help="stop after this many (0: all)")
    la.add_argument("--hash", type=int, default=16, help="Stockfish's hash in MB")
    la.add_argument("--stockfish", default="/usr/games/stockfish")
    la.set_defaults(run=label)
    sc = sub.add_parser("scale", help="the logistic scale that best predicts the results")
    sc.add_argument("inp")
    sc.set_defaults(run=scale)
    m = sub.add_parser("mix", help="write the labels ox88 tune reads")
    m.add_argument("inp")
    m.add_argument("out")
    m.add_argument("--alpha", type=float, default=0.0, help="the game result's share")
    m.add_argument("--scale", type=float, default=140.0, help="the logistic scale s")
    m.set_defaults(run=mix)
    args = ap.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
