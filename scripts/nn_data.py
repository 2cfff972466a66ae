#!/usr/bin/env python3
"""Positions labelled by Stockfish's score, for training ox88's network (`ox88 nn-train`).

Stockfish plays itself from the balanced openings at a fixed node count a move. Every
position where it is to move, not in check, and its chosen move is neither a capture nor a
promotion, is written with the score Stockfish gave it: `FEN;cp`, the score from the side to
move's view in centipawns. Mate scores and positions beyond +/-3000 are left out. To spread
the games, each game starts with a few random plies after its opening, and a move is
replaced by a random legal one with a small probability (the labels stay true: each is
Stockfish's score of the position it was given).

Only Stockfish's scores of positions are used: numbers, not its code or its network.
Needs Stockfish (`apt-get install stockfish`) and python-chess (`pip install chess`).

    python3 scripts/nn_data.py --out nn1.txt --games 4000 --nodes 1500 --seed 1
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys

try:
    import chess
except ImportError:
    sys.exit("needs python-chess: pip install chess")


class Engine:
    def __init__(self, path: str) -> None:
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")
        self.send("isready")
        self.wait("readyok")

    def send(self, line: str) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write(line + "\n")

    def wait(self, token: str) -> list[str]:
        assert self.p.stdout is not None
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("the engine stopped")
            lines.append(line)
            if line.startswith(token):
                return lines

    def new_game(self) -> None:
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")

    def search(self, fen: str, nodes: int) -> tuple[str, int | None]:
        """The best move and its score (centipawns, side to move; None for a mate)."""
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        score: int | None = None
        for line in self.wait("bestmove"):
            if line.startswith("info") and " score " in line and "lowerbound" not in line and "upperbound" not in line:
                words = line.split()
                i = words.index("score")
                score = int(words[i + 2]) if words[i + 1] == "cp" else None
            if line.startswith("bestmove"):
                return line.split()[1], score
        raise AssertionError


def openings(path: str) -> list[str]:
    fens = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 4:
                fens.append(" ".join(parts[:4]) + " 0 1")
    return fens


def finished(board: chess.Board) -> bool:
    """Over, or drawn by a claim. Cheaper than `is_game_over(claim_draw=True)`, which tries
    every legal move for a repetition it would make."""
    return board.is_game_over() or board.halfmove_clock >= 100 or board.is_repetition(3)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--nodes", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random-plies", type=int, default=6, help="most random plies after the opening (an even number is played)")
    ap.add_argument("--random-rate", type=float, default=0.04, help="chance a move is replaced by a random one")
    ap.add_argument("--openings", default="tests/data/openings500.epd")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    book = openings(args.openings)
    sf = Engine(args.stockfish)
    written = 0
    with open(args.out, "a") as out:
        for game in range(args.games):
            board = chess.Board(rng.choice(book))
            # An even count: each side plays as many random moves, so the side to move is not
            # the one a random move just favoured (an odd count left Black to move and ahead).
            for _ in range(2 * rng.randint(0, args.random_plies // 2)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            sf.new_game()
            quiet_streak_lost = 0
            while not finished(board) and board.ply() < 400:
                fen = board.fen()
                best, score = sf.search(fen, args.nodes)
                move = chess.Move.from_uci(best)
                quiet = not board.is_check() and not board.is_capture(move) and move.promotion is None
                if score is not None and quiet and abs(score) <= 3000:
                    out.write(f"{fen};{score}\n")
                    written += 1
                if score is None or abs(score) > 1500:
                    quiet_streak_lost += 1
                    if quiet_streak_lost >= 6:
                        break
                else:
                    quiet_streak_lost = 0
                if rng.random() < args.random_rate:
                    move = rng.choice(list(board.legal_moves))
                board.push(move)
            out.flush()
            if (game + 1) % 50 == 0:
                print(f"{game + 1} games, {written} positions", file=sys.stderr, flush=True)
    sf.send("quit")


if __name__ == "__main__":
    main()
