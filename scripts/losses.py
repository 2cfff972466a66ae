#!/usr/bin/env python3
"""Where ox88 loses: the first decisive drop in each game it lost in a match PGN.

For every game of `--pgn` that ox88 lost, Stockfish at full strength scores each position
where ox88 is to move (a fixed node budget, `--nodes`). The first time the score, from
ox88's side, falls by more than `--threshold` centipawns from one ox88 move to the next
(ox88's move and the opponent's answer), and it was not already lost (better than -300),
is that game's drop: printed as one JSON line with the position before ox88's move, the
move played, Stockfish's choice there, the two scores and the non-pawn material left
(3 a minor piece, 5 a rook, 9 a queen; 62 at the start). With `--recheck BIN`, ox88 (that
binary) also searches each drop's position at `--recheck-nodes` budgets, and Stockfish
scores the move it then picks: what did ox88 think, and did more search avoid the drop (the
move keeps ox88 within half the threshold of the score before)? A summary by phase goes to
standard error at the end. Games where neither player is `--name` are skipped.

Needs python-chess (`pip install chess`) and Stockfish (`apt-get install stockfish`).
Takes minutes: one Stockfish search per ox88 move of every lost game, up to its drop.

Examples:
    python3 scripts/losses.py --pgn sf2500.pgn > drops.jsonl
    python3 scripts/losses.py --pgn sf2500.pgn --recheck target/release/ox88 > drops.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:
    sys.exit("losses.py needs python-chess: pip install chess")

PIECE_POINTS = {chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def non_pawn_material(board: chess.Board) -> int:
    return sum(
        len(board.pieces(kind, colour)) * points
        for kind, points in PIECE_POINTS.items()
        for colour in (chess.WHITE, chess.BLACK)
    )


def score_for(info: chess.engine.InfoDict, side: chess.Color) -> int | None:
    score = info.get("score")
    return None if score is None else score.pov(side).score(mate_score=10000)


def first_drop(game: chess.pgn.Game, ox: chess.Color, sf, limit, threshold: int):
    board = game.board()
    last = None  # (score, fen, move, Stockfish's move, ply) at ox88's previous turn
    for ply, move in enumerate(game.mainline_moves()):
        if board.turn == ox:
            info = sf.analyse(board, limit)
            score = score_for(info, ox)
            pv = info.get("pv") or [None]
            if last is not None and score is not None and last[0] is not None:
                if last[0] - score > threshold and last[0] > -300:
                    before = chess.Board(last[1])
                    return {
                        "ply": last[4],
                        "fen": last[1],
                        "move": last[2],
                        "best": last[3],
                        "before": last[0],
                        "after": score,
                        "non_pawn_material": non_pawn_material(before),
                    }
            last = (score, board.fen(), move.uci(), pv[0].uci() if pv[0] else None, ply)
        board.push(move)
    return None


def recheck(drop: dict, ox88, sf, sf_limit, budgets: list[int], margin: int) -> list[dict]:
    board = chess.Board(drop["fen"])
    side = board.turn
    out = []
    for nodes in budgets:
        # A fresh game each time (ucinewgame): no table entries from the last budget.
        played = ox88.play(board, chess.engine.Limit(nodes=nodes), info=chess.engine.INFO_SCORE, game=object())
        move = played.move
        if move is None:
            continue
        board.push(move)
        judged = score_for(sf.analyse(board, sf_limit), side)
        board.pop()
        out.append(
            {
                "nodes": nodes,
                "move": move.uci(),
                "ox88_score": score_for(played.info, side),
                "stockfish_score": judged,
                "avoids_drop": judged is not None and drop["before"] - judged <= margin,
            }
        )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pgn", required=True, help="a match PGN (scripts/match.py --pgn)")
    ap.add_argument("--name", default="ox88", help="ox88's player name in the PGN")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--nodes", type=int, default=100_000, help="Stockfish's nodes per position")
    ap.add_argument("--threshold", type=int, default=120, help="a drop larger than this, in centipawns")
    ap.add_argument("--recheck", metavar="BIN", help="an ox88 binary to search each drop's position again")
    ap.add_argument("--recheck-nodes", type=int, nargs="+", default=[150_000, 1_500_000])
    args = ap.parse_args()

    sf = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    sf.configure({"Hash": 64, "Threads": 1})
    limit = chess.engine.Limit(nodes=args.nodes)
    ox88 = chess.engine.SimpleEngine.popen_uci([args.recheck, "uci"]) if args.recheck else None
    phases = {"middlegame (40+)": 0, "late middlegame (20-39)": 0, "ending (<20)": 0}
    lost = found = 0
    try:
        with open(args.pgn, encoding="utf-8") as f:
            number = 0
            while (game := chess.pgn.read_game(f)) is not None:
                number += 1
                if game.headers.get("White") == args.name:
                    ox = chess.WHITE
                elif game.headers.get("Black") == args.name:
                    ox = chess.BLACK
                else:
                    continue
                result = game.headers.get("Result")
                if result != ("0-1" if ox == chess.WHITE else "1-0"):
                    continue
                lost += 1
                drop = first_drop(game, ox, sf, limit, args.threshold)
                row = {"game": number, "drop": drop}
                if drop is not None:
                    found += 1
                    npm = drop["non_pawn_material"]
                    key = "middlegame (40+)" if npm >= 40 else "late middlegame (20-39)" if npm >= 20 else "ending (<20)"
                    phases[key] += 1
                    if ox88 is not None:
                        row["recheck"] = recheck(drop, ox88, sf, limit, args.recheck_nodes, args.threshold // 2)
                print(json.dumps(row), flush=True)
    finally:
        sf.quit()
        if ox88 is not None:
            ox88.quit()
    print(f"{lost} lost games, {found} with a drop of more than {args.threshold} cp:", file=sys.stderr)
    for key, n in phases.items():
        print(f"  {key}: {n}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
