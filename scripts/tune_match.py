#!/usr/bin/env python3
"""Play two ox88 builds against each other at a fixed node count per move (does
the tuned evaluation win?).

Each opening of tests/data/openings500.epd is played twice, each build taking each colour
once; games run one at a time. A game ends by the rules (mate, stalemate, threefold,
fifty moves, insufficient material) or as a draw after 400 plies. At the end: W/D/L from
the first build's point of view and an Elo difference with a 95% interval (the same
formula as scripts/match.py). Progress goes to standard error, the summary to standard
output.

Needs python-chess (`pip install chess`).

Example (run it under nice: the machine is shared):
    nice -n 10 python3 scripts/tune_match.py /tmp/ox88-tuned /tmp/ox88-base --nodes 20000 --games 200
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import chess  # noqa: E402
import chess.engine  # noqa: E402

from match import elo_estimate  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
MAX_PLIES = 400


def openings(path: Path) -> list[str]:
    out = []
    for line in path.read_text().splitlines():
        fields = line.split(";")[0].split()[:4]
        if len(fields) == 4:
            out.append(" ".join(fields) + " 0 1")
    return out


def play(white, black, fen: str, nodes: int, game: int) -> str:
    board = chess.Board(fen)
    limit = chess.engine.Limit(nodes=nodes)
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        engine = white if board.turn == chess.WHITE else black
        result = engine.play(board, limit, game=game)  # a new game: ucinewgame
        if result.move is None or result.move not in board.legal_moves:
            return "0-1" if board.turn == chess.WHITE else "1-0"
        board.push(result.move)
    if board.ply() >= MAX_PLIES and not board.is_game_over(claim_draw=True):
        return "1/2-1/2"
    return board.result(claim_draw=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("first", help="the build under test (e.g. tuned)")
    ap.add_argument("second", help="the reference build (e.g. untuned)")
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--games", type=int, default=200, help="games (pairs of colours)")
    ap.add_argument("--start", type=int, default=0, help="first opening's index")
    ap.add_argument("--openings", type=Path, default=REPO / "tests/data/openings500.epd")
    args = ap.parse_args()
    fens = openings(args.openings)
    a = chess.engine.SimpleEngine.popen_uci([args.first, "uci"])
    b = chess.engine.SimpleEngine.popen_uci([args.second, "uci"])
    for e in (a, b):
        e.configure({"Hash": 16})
    w = d = l = 0
    try:
        for g in range(args.games):
            fen = fens[(args.start + g // 2) % len(fens)]
            first_white = g % 2 == 0
            res = play(a, b, fen, args.nodes, g) if first_white else play(b, a, fen, args.nodes, g)
            if res == "1/2-1/2":
                d += 1
            elif (res == "1-0") == first_white:
                w += 1
            else:
                l += 1
            print(f"game {g + 1}: {res} (first build {'White' if first_white else 'Black'}); "
                  f"+{w} ={d} -{l}", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
    finally:
        a.quit()
        b.quit()
    print(f"{args.first} vs {args.second}, {args.nodes} nodes per move: "
          f"+{w} ={d} -{l}; Elo {elo_estimate(w, d, l)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
