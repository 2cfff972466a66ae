#!/usr/bin/env python3
"""How much a static evaluation swings when only the side to move changes.

    scripts/e_swing.py make [--pgn ../shared/data/openings/8moves_v3_sample500.pgn] \
        [--out tests/data/quiet_positions.epd] [--count 100]
    scripts/e_swing.py measure [--epd tests/data/quiet_positions.epd] \
        [--engine old=/tmp/ox88-before] [--engine new=target/release/ox88] \
        [--stockfish /usr/games/stockfish]

`make` plays each balanced opening's moves and keeps one quiet position from it: the latest
position from ply 10 on in which the side to move is not in check, there is no en passant
square and neither side has a capture that plainly wins material (of an undefended piece, or
of a piece worth more than the capturer; or a promotion), so that the position with the other side to move is
legal and just as quiet. The first `--count` openings that have one give the set.

`measure` takes each position with White to move and the same position with Black to move
and prints, for each engine, the mean and 95th percentile of |E(White to move) - E(Black to
move)|, both from White's view: `ox88 eval --fen` (its last line `E: N`) for each ox88 binary
named with `--engine LABEL=PATH`, and Stockfish's static evaluation (UCI `eval`, "Final
evaluation +0.25 (white side)"). It also prints the start position and the Italian after
1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 with each side to move.

Needs python-chess (`pip install chess`).
"""

import argparse
import re
import subprocess
import sys

import chess
import chess.pgn

EXTRA = [
    ("start", chess.STARTING_FEN),
    ("Italian 3...Bc5", "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"),
]


VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 100}


def winning_capture(board: chess.Board) -> bool:
    """A capture that plainly wins material: of an undefended piece, or of a piece worth
    more than the capturer (a one-step exchange test; promotions count as winning)."""
    for m in board.legal_moves:
        if m.promotion is not None:
            return True
        if not board.is_capture(m) or board.is_en_passant(m):
            continue
        target = board.piece_at(m.to_square)
        mover = board.piece_at(m.from_square)
        assert target is not None and mover is not None
        defended = board.is_attacked_by(target.color, m.to_square)
        if not defended or VALUE[target.piece_type] > VALUE[mover.piece_type]:
            return True
    return False


def quiet_both_ways(board: chess.Board) -> bool:
    """Not in check, no en passant square, and no capture that plainly wins material for
    either side to move."""
    if board.is_check() or board.ep_square is not None or winning_capture(board):
        return False
    other = flipped(board)
    return other is not None and not winning_capture(other)


def flipped(board: chess.Board) -> chess.Board | None:
    """The same position with the other side to move (en passant cleared); None if illegal."""
    b = board.copy(stack=False)
    b.turn = not b.turn
    b.ep_square = None
    return b if b.is_valid() else None


def make(args: argparse.Namespace) -> None:
    out = []
    with open(args.pgn) as f:
        while len(out) < args.count:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            board = game.board()
            keep = None
            for ply, move in enumerate(game.mainline_moves(), start=1):
                board.push(move)
                if ply >= 10 and quiet_both_ways(board):
                    keep = board.copy(stack=False)
            if keep is not None:
                out.append(keep.fen(en_passant="legal"))
    with open(args.out, "w") as f:
        f.write(
            "# Quiet balanced positions for the side-to-move swing of E (scripts/e_swing.py make):\n"
            "# from each of ../shared/data's 500 balanced 8-move openings (8moves_v3_sample500.pgn),\n"
            "# in order, the latest position from ply 10 on that is not in check, has no en passant\n"
            "# square and no capture for either side that plainly wins material (of an undefended\n"
            "# piece or of a piece worth more than the capturer); the first 100 openings that have one.\n"
        )
        for fen in out:
            f.write(fen + "\n")
    print(f"{len(out)} positions in {args.out}", file=sys.stderr)


class Stockfish:
    def __init__(self, path: str):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")

    def send(self, cmd: str) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()

    def wait(self, prefix: str) -> list[str]:
        assert self.p.stdout is not None
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("stockfish ended")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def eval_white(self, fen: str) -> int:
        """Stockfish's static evaluation, centipawns from White's view."""
        self.send(f"position fen {fen}")
        self.send("eval")
        for line in self.wait("Final evaluation"):
            if line.startswith("Final evaluation"):
                m = re.search(r"([+-]?\d+\.\d+)", line)
                if m is None:  # "none (in check)"
                    raise ValueError(f"no evaluation for {fen}")
                return round(float(m.group(1)) * 100)
        raise AssertionError


def ox88_eval(path: str, fen: str) -> int:
    out = subprocess.run([path, "eval", "--fen", fen], capture_output=True, text=True, check=True).stdout
    last = out.strip().splitlines()[-1]
    assert last.startswith("E: "), last
    return int(last[3:])


def percentile(xs: list[int], q: float) -> float:
    s = sorted(xs)
    # Nearest rank.
    k = max(0, min(len(s) - 1, int(round(q * len(s) + 0.5)) - 1))
    return float(s[k])


def measure(args: argparse.Namespace) -> None:
    engines = [tuple(e.split("=", 1)) for e in args.engine]
    sf = Stockfish(args.stockfish)
    evaluators = [(label, lambda fen, p=path: ox88_eval(p, fen)) for label, path in engines]
    evaluators.append(("stockfish", sf.eval_white))
    with open(args.epd) as f:
        fens = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    swings: dict[str, list[int]] = {label: [] for label, _ in evaluators}
    signed: dict[str, list[int]] = {label: [] for label, _ in evaluators}
    used = 0
    for fen in fens:
        board = chess.Board(fen)
        white = board.copy(stack=False)
        white.turn = chess.WHITE
        white.ep_square = None
        black = flipped(white)
        if not white.is_valid() or black is None:
            continue
        used += 1
        for label, ev in evaluators:
            d = ev(white.fen()) - ev(black.fen())
            swings[label].append(abs(d))
            signed[label].append(d)
    print(f"{used} positions, each with White and with Black to move")
    print(f"{'evaluation':<12}{'mean |swing|':>14}{'p95':>8}{'mean signed':>14}")
    for label, _ in evaluators:
        xs = swings[label]
        print(
            f"{label:<12}{sum(xs) / len(xs):>14.1f}{percentile(xs, 0.95):>8.0f}"
            f"{sum(signed[label]) / len(xs):>14.1f}"
        )
    print()
    print(f"{'position':<18}" + "".join(f"{label + ' W/B':>18}" for label, _ in evaluators))
    for name, fen in EXTRA:
        w = chess.Board(fen)
        b = flipped(w)
        assert b is not None
        cells = "".join(f"{f'{ev(w.fen()):+d} / {ev(b.fen()):+d}':>18}" for _, ev in evaluators)
        print(f"{name:<18}{cells}")
    sf.send("quit")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    mk = sub.add_parser("make")
    mk.add_argument("--pgn", default="../shared/data/openings/8moves_v3_sample500.pgn")
    mk.add_argument("--out", default="tests/data/quiet_positions.epd")
    mk.add_argument("--count", type=int, default=100)
    me = sub.add_parser("measure")
    me.add_argument("--epd", default="tests/data/quiet_positions.epd")
    me.add_argument("--engine", action="append", default=[], help="LABEL=PATH of an ox88 binary")
    me.add_argument("--stockfish", default="/usr/games/stockfish")
    args = ap.parse_args()
    make(args) if args.cmd == "make" else measure(args)


if __name__ == "__main__":
    main()
