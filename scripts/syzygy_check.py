#!/usr/bin/env python3
"""Compare `ox88 tb` with python-chess's Syzygy prober on random positions.

python-chess is an outside oracle here, never a part of ox88: for random legal positions of
the endings in the tables directory (some with an en-passant capture), `ox88 tb --moves`
must print the same WDL and DTZ as python-chess's probe_wdl/probe_dtz, and for every legal
move the same result (the mover's WDL after it, and its DTZ: 1 for a mate, ±1/±101 for a
capture or pawn move, else the reply's DTZ negated and one ply further from zero).

Needs python-chess (`pip install chess`) and the tables (`scripts/get-syzygy.sh`).

Examples:
    cargo build --release
    scripts/get-syzygy.sh
    python3 scripts/syzygy_check.py --positions 500
    python3 scripts/syzygy_check.py --positions 200 --seed 7 --syzygy target/syzygy
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys

import chess
import chess.syzygy

PIECES = {"Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN}


def random_position(rng: random.Random, name: str) -> chess.Board | None:
    """A random legal position with the men of table `name`, either colour the stronger."""
    white, black = name.split("v")
    if rng.random() < 0.5:
        white, black = black, white
    board = chess.Board(None)
    squares = list(chess.SQUARES)
    rng.shuffle(squares)
    for color, part in ((chess.WHITE, white), (chess.BLACK, black)):
        for letter in part:
            kind = chess.KING if letter == "K" else PIECES[letter]
            while True:
                sq = squares.pop()
                if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
                    squares.insert(0, sq)
                    continue
                break
            board.set_piece_at(sq, chess.Piece(kind, color))
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    return board if board.is_valid() else None


def with_en_passant(rng: random.Random, board: chess.Board) -> chess.Board | None:
    """The position with an en-passant square set where a capture there is legal."""
    them = not board.turn
    rank = 3 if them == chess.WHITE else 4
    for sq in board.pieces(chess.PAWN, them):
        if chess.square_rank(sq) != rank:
            continue
        step = -8 if them == chess.WHITE else 8
        behind, start = sq + step, sq + 2 * step
        if board.piece_at(behind) or board.piece_at(start):
            continue
        b = board.copy()
        b.ep_square = behind
        if b.is_valid() and b.has_legal_en_passant():
            return b
    return None


def ep_position(rng: random.Random, names: list[str]) -> chess.Board | None:
    """A random position with a legal en-passant capture (pawns of both sides)."""
    name = rng.choice([n for n in names if n.count("P") >= 1])
    board = random_position(rng, name)
    if board is None:
        return None
    # Put a pawn of each side side by side on the en-passant rank.
    them = not board.turn
    rank = 3 if them == chess.WHITE else 4
    file = rng.randrange(8)
    mine_file = file + rng.choice([-1, 1])
    if not 0 <= mine_file < 8:
        return None
    board2 = board.copy()
    theirs = list(board2.pieces(chess.PAWN, them))
    mine = list(board2.pieces(chess.PAWN, board.turn))
    if not theirs or not mine:
        return None
    t_sq, m_sq = chess.square(file, rank), chess.square(mine_file, rank)
    if board2.piece_at(t_sq) or board2.piece_at(m_sq):
        return None
    board2.remove_piece_at(theirs[0])
    board2.remove_piece_at(mine[0])
    board2.set_piece_at(t_sq, chess.Piece(chess.PAWN, them))
    board2.set_piece_at(m_sq, chess.Piece(chess.PAWN, board.turn))
    return with_en_passant(rng, board2)


def before_zeroing(wdl: int) -> int:
    return {2: 1, 1: 101, -1: -101, -2: -1, 0: 0}[wdl]


def expected(tb: chess.syzygy.Tablebase, board: chess.Board) -> list[str]:
    lines = [f"wdl {tb.probe_wdl(board)} dtz {tb.probe_dtz(board)}"]
    rows = []
    for move in board.legal_moves:
        zeroing = board.is_zeroing(move)
        uci = move.uci()
        san = board.san(move)
        board.push(move)
        wdl = -tb.probe_wdl(board)
        if zeroing:
            dtz = before_zeroing(wdl)
        else:
            reply = -tb.probe_dtz(board)
            dtz = reply + (reply > 0) - (reply < 0)
        if board.is_checkmate():
            dtz = 1
        board.pop()
        rows.append((uci, san, wdl, dtz))
    return lines + sorted(f"{u} {s} wdl {w} dtz {d}" for u, s, w, d in rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--syzygy", default="target/syzygy")
    ap.add_argument("--ox88", default="target/release/ox88")
    ap.add_argument("--ep-share", type=float, default=0.1, help="share of positions with an en-passant capture")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    names = sorted({f[:-5] for f in os.listdir(args.syzygy) if f.endswith(".rtbw")})
    tb = chess.syzygy.open_tablebase(args.syzygy)
    agreed = disagreed = moves_checked = ep_count = 0
    while agreed + disagreed < args.positions:
        if rng.random() < args.ep_share:
            board = ep_position(rng, names)
            if board is None:
                continue
            ep_count += 1
        else:
            board = random_position(rng, rng.choice(names))
            if board is None:
                continue
        fen = board.fen()
        want = expected(tb, board)
        run = subprocess.run([args.ox88, "tb", "--syzygy", args.syzygy, "--fen", fen, "--moves"],
                             capture_output=True, text=True)
        got = run.stdout.splitlines()
        got = got[:1] + sorted(got[1:])
        if run.returncode == 0 and got == want:
            agreed += 1
            moves_checked += len(want) - 1
        else:
            disagreed += 1
            print(f"DIFFERENT {fen}\n  python-chess: {want}\n  ox88:         {got} {run.stderr.strip()}")
    print(f"{agreed} of {agreed + disagreed} positions agree ({ep_count} with en passant; "
          f"{moves_checked} moves' results compared in the agreeing ones)")
    return 0 if disagreed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
