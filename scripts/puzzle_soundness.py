#!/usr/bin/env python3
"""Judge puzzles with Stockfish: for a random sample, at the first solver move (with
--all-moves, at every one but a last move that mates), is the solution Stockfish's best move
at depth --depth, with the next best at least --gap pawns worse (or the solution a mate and
the next move no mate at all)? Prints the share that holds and lists those that do not;
--keep writes the ones that hold.

Needs python-chess (`pip install chess`) and Stockfish (`apt-get install stockfish`).

    ./target/release/ox88 puzzles export > /tmp/shipped.csv
    python3 scripts/puzzle_soundness.py /tmp/shipped.csv --sample 200 --depth 18
"""

from __future__ import annotations

import argparse
import csv
import random
import sys

try:
    import chess
    import chess.engine
except ImportError:  # pragma: no cover - the message is the point
    sys.exit("puzzle_soundness.py needs python-chess: pip install chess")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--sample", type=int, default=200)
    ap.add_argument("--depth", type=int, default=18)
    ap.add_argument("--gap", type=float, default=1.5, help="pawns")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--all-moves", action="store_true",
                    help="judge every solver move, not only the first (a last move that mates "
                         "may be any mate)")
    ap.add_argument("--keep", help="write the puzzles that hold to this CSV file")
    args = ap.parse_args()
    with open(args.file, newline="") as f:
        rows = list(csv.DictReader(f))
    random.Random(args.seed).shuffle(rows)
    rows = rows[: args.sample]
    sf = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    sf.configure({"Threads": args.threads, "Hash": 128})
    sound, kept = 0, []
    for row in rows:
        board = chess.Board(row["FEN"])
        moves = row["Moves"].split()
        board.push_uci(moves[0])
        ok = True
        for k in range(1, len(moves), 2):
            solution = chess.Move.from_uci(moves[k])
            if k > 1 and not args.all_moves:
                break
            board.push(solution)
            mates = board.is_checkmate()
            board.pop()
            if k > 1 and k == len(moves) - 1 and mates:
                break
            infos = sf.analyse(board, chess.engine.Limit(depth=args.depth), multipv=2)
            best = infos[0]["pv"][0]
            s1 = infos[0]["score"].pov(board.turn)
            ok = best == solution
            if ok and len(infos) > 1:
                s2 = infos[1]["score"].pov(board.turn)
                if s1.is_mate():
                    ok = not (s2.is_mate() and s2.mate() > 0)
                else:
                    ok = s1.score() - s2.score(mate_score=100000) >= args.gap * 100
            if not ok:
                print(f"{row['PuzzleId']} move {k // 2 + 1}: solution {solution}, Stockfish {best} {s1}"
                      + (f", second {infos[1]['pv'][0]} {infos[1]['score'].pov(board.turn)}" if len(infos) > 1 else ""))
                break
            board.push(solution)
            if k + 1 < len(moves):
                board.push_uci(moves[k + 1])
        if ok:
            sound += 1
            kept.append(row)
            if args.all_moves:
                print(f"{row['PuzzleId']}: sound", flush=True)
    sf.quit()
    if args.keep:
        with open(args.keep, "w", newline="") as f:
            out = csv.DictWriter(f, list(rows[0].keys()) if rows else [], lineterminator="\n")
            out.writeheader()
            out.writerows(kept)
    print(f"{sound}/{len(rows)} sound at depth {args.depth} ({100.0 * sound / max(1, len(rows)):.1f}%)")


if __name__ == "__main__":
    main()
