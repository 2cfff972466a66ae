#!/usr/bin/env python3
"""How much having the move is worth: ox88's evaluation against Stockfish's scores.

Each position of a data file (`FEN;cp` a line, as `scripts/nn_data.py` writes) is taken
twice, once with White to move and once with Black (positions where the side that would not
be to move stands in check are left out, and so is any en-passant square). Stockfish scores
both at a fixed node count, and ox88 evaluates both statically (`ox88 eval`: in the `net`
mode its line `search's own E`, the value the search uses; the E shown last is the same
whoever is to move). The bonus is
half the difference of the two values, both from White's view: what the side to move gains
by being the one to move. The script prints its mean and median for both, and the mean by
the number of pieces on the board.

Stockfish's score is a searched one: it sees the threats the side to move can carry out.
A static evaluation cannot see them all, so it is expected to give less.

Needs Stockfish (`apt-get install stockfish`) and python-chess (`pip install chess`).

    python3 scripts/stm_bonus.py v1a.txt --every 40
    OX88_EVALFILE=new.bin python3 scripts/stm_bonus.py v1a.txt --ox88 target/release/ox88
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

try:
    import chess
except ImportError:
    sys.exit("needs python-chess: pip install chess")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nn_data import Engine  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", help="positions, `FEN;cp` a line")
    ap.add_argument("--every", type=int, default=40, help="take every Nth line (default 40)")
    ap.add_argument("--nodes", type=int, default=400, help="Stockfish's nodes a position (default 400)")
    ap.add_argument("--ox88", default=str(REPO / "target" / "release" / "ox88"), help="ox88 binary")
    ap.add_argument("--mode", default="net", help="ox88's evaluation mode (default net)")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    args = ap.parse_args()
    if args.every < 1:
        sys.exit("--every must be at least 1")

    sf = Engine(args.stockfish)

    def stockfish_white(b: chess.Board) -> int | None:
        sf.new_game()
        _, s = sf.search(b.fen(), args.nodes)
        if s is None:
            return None
        return s if b.turn == chess.WHITE else -s

    def ox88_white(b: chess.Board) -> int:
        out = subprocess.run(
            [args.ox88, "eval", "--mode", args.mode, "--fen", b.fen()],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        # The `net` mode's last line `E: N` is the same whoever is to move; the bonus is in
        # the search's own value (side to move's view), printed on the line before.
        for line in out.splitlines():
            if line.startswith("search's own E: "):
                v = int(line.split()[3])
                return v if b.turn == chess.WHITE else -v
        return int(out.strip().splitlines()[-1].split()[-1])

    pairs: list[tuple[int, float, float]] = []
    with open(args.data) as f:
        for i, line in enumerate(f):
            if i % args.every:
                continue
            try:
                b = chess.Board(line.split(";")[0])
            except ValueError:
                continue
            b.ep_square = None
            other = b.copy()
            other.turn = not b.turn
            if not other.is_valid() or other.is_check() or b.is_check():
                continue
            white, black = (b, other) if b.turn == chess.WHITE else (other, b)
            a, c = stockfish_white(white), stockfish_white(black)
            if a is None or c is None or abs(a) > 1500 or abs(c) > 1500:
                continue
            x, y = ox88_white(white), ox88_white(black)
            pairs.append((len(b.piece_map()), (a - c) / 2, (x - y) / 2))
    if not pairs:
        sys.exit("no position could be taken both ways")
    sf_b = [p[1] for p in pairs]
    ox_b = [p[2] for p in pairs]
    print(f"{len(pairs)} positions, each with either side to move")
    print(
        f"bonus for the side to move (cp): Stockfish mean {statistics.mean(sf_b):.1f} "
        f"median {statistics.median(sf_b):.1f}; ox88 ({args.mode}) mean "
        f"{statistics.mean(ox_b):.1f} median {statistics.median(ox_b):.1f}"
    )
    for lo in range(0, 33, 8):
        group = [p for p in pairs if lo <= p[0] < lo + 8]
        if group:
            print(
                f"  {lo:2}-{lo + 7:2} pieces: {len(group):4} positions, Stockfish "
                f"{statistics.mean(p[1] for p in group):6.1f}, ox88 "
                f"{statistics.mean(p[2] for p in group):6.1f}"
            )


if __name__ == "__main__":
    main()
