#!/usr/bin/env python3
"""How often ox88's search gets small endings right, judged by the Syzygy tables.

Two samples of random legal positions, each searched by `ox88 search` (which never reads
tablebases: the check is of what the engine knows without them):

* king and pawn against king, the pawn White's or Black's and either side to move, drawn
  until there are N won and N drawn positions. Right: a won position scores at least
  +1.00 for the winner (or a mate for the winner), a drawn one within 0.50 of 0.
* 4-man endings, the material picked at random from the 4-man tables in the directory,
  either colour with the first group of men. Right: a won position scores more than +0.50
  for the winner (or a mate for it), a drawn one within 0.50 of 0. Positions the
  fifty-move rule decides (cursed wins, blessed losses) are left out.

python-chess reads the tables (the judge, never linked into ox88). Give --base to run the
same positions through a second binary (a build from before a change) for comparison.

Examples:
    python3 scripts/kpk_check.py --syzygy /tmp/syzygy
    python3 scripts/kpk_check.py --syzygy /tmp/syzygy --base /tmp/ox88-before \\
        --kpk 200 --four 300 --four-depth 8 --seed 1
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import chess
    import chess.syzygy
except ImportError:  # pragma: no cover - the message is the point
    sys.exit("kpk_check.py needs python-chess: pip install chess")

REPO = Path(__file__).resolve().parent.parent
LINE = re.compile(r"^\s*(\d+)/\S+\s+\S+\s+\d+\s+\d+ n/s\s+E\s+(\S+)")


def random_position(rng: random.Random, white: str, black: str) -> chess.Board:
    """A random legal position with White's men `white` and Black's `black` (letters, the
    king included), either side to move."""
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), len(white) + len(black))
        ok = True
        for letter, colour, sq in zip(
            white + black, [chess.WHITE] * len(white) + [chess.BLACK] * len(black), squares
        ):
            kind = chess.Piece.from_symbol(letter).piece_type
            if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
                ok = False
                break
            board.set_piece_at(sq, chess.Piece(kind, colour))
        if not ok:
            continue
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid() and not board.is_game_over():
            return board


def search_score(binary: Path, fen: str, depth: int, env: dict) -> tuple[str, float | None]:
    """The last iteration's E of `ox88 search` (White's view): ('cp', pawns) or
    ('mate', +1 White mates / -1 Black mates)."""
    out = subprocess.run(
        [str(binary), "search", "--fen", fen, "--depth", str(depth)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=True,
    ).stdout
    last = None
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            last = m.group(2)
    if last is None:
        raise RuntimeError(f"no iteration line for {fen}:\n{out}")
    if "TB" in last:
        raise RuntimeError(f"a tablebase score without tables: {fen}: {last}")
    if last.startswith("#"):
        return "mate", (-1.0 if last.startswith("#-") else 1.0)
    return "cp", float(last)


def judge(kind: str, value: float, winner: int, win_margin: float) -> bool:
    """Whether the score is right: `winner` +1 White wins, -1 Black wins, 0 drawn."""
    if winner == 0:
        return kind == "cp" and abs(value) <= 0.5
    if kind == "mate":
        return value == winner
    if win_margin >= 1.0:
        return value * winner >= win_margin
    return value * winner > win_margin


def four_man_materials(directory: Path) -> list[str]:
    names = sorted(p.stem for p in directory.glob("*.rtbw"))
    return [n for n in names if len(n.replace("v", "")) == 4]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--syzygy", type=Path, required=True, help="3-4-man Syzygy tables (the judge)")
    ap.add_argument("--binary", type=Path, default=REPO / "target" / "release" / "ox88")
    ap.add_argument("--base", type=Path, help="a second binary run on the same positions")
    ap.add_argument("--kpk", type=int, default=200, help="positions per class (won, drawn)")
    ap.add_argument("--depth", type=int, default=12, help="search depth for KPK")
    ap.add_argument("--four", type=int, default=200, help="4-man positions (0: none)")
    ap.add_argument("--four-depth", type=int, default=8, help="search depth for 4-man")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-v", "--verbose", action="store_true", help="print every wrong position")
    args = ap.parse_args()

    # No tablebase path can reach the engine: no settings file, no environment variable.
    home = tempfile.mkdtemp(prefix="kpk_check_home_")
    env = {k: v for k, v in os.environ.items() if not k.startswith("OX88_")}
    env.update(HOME=home, XDG_CONFIG_HOME=home)

    binaries = [("new", args.binary)] + ([("base", args.base)] if args.base else [])
    rng = random.Random(args.seed)
    tables = chess.syzygy.open_tablebase(str(args.syzygy))

    # ---- king and pawn against king ---------------------------------------------------
    want = {1: args.kpk, 0: args.kpk}  # won (for someone), drawn
    sample: list[tuple[str, int]] = []
    while want[1] > 0 or want[0] > 0:
        white, black = ("KP", "K") if rng.random() < 0.5 else ("K", "KP")
        b = random_position(rng, white, black)
        wdl = tables.probe_wdl(b)
        if wdl in (1, -1):
            continue
        mover = 1 if b.turn == chess.WHITE else -1
        winner = 0 if wdl == 0 else mover * (1 if wdl > 0 else -1)
        cls = 1 if winner else 0
        if want[cls] > 0:
            want[cls] -= 1
            sample.append((b.fen(), winner))
    print(f"KPK: {len(sample)} positions, depth {args.depth}")
    for name, binary in binaries:
        right = {1: 0, 0: 0}
        total = {1: 0, 0: 0}
        for fen, winner in sample:
            kind, value = search_score(binary, fen, args.depth, env)
            cls = 1 if winner else 0
            total[cls] += 1
            ok = judge(kind, value, winner, 1.0)
            right[cls] += ok
            if not ok and args.verbose:
                print(f"  {name} wrong: {fen} winner {winner:+d} got {kind} {value}")
        for cls, label in [(1, "won"), (0, "drawn")]:
            n = total[cls]
            print(f"  {name:<5} {label:<6} {right[cls]}/{n} = {100 * right[cls] / n:.1f}%")

    # ---- random 4-man endings ---------------------------------------------------------
    if args.four <= 0:
        return
    materials = four_man_materials(args.syzygy)
    if not materials:
        sys.exit(f"{args.syzygy}: no 4-man tables")
    sample4: list[tuple[str, int, str]] = []
    while len(sample4) < args.four:
        material = rng.choice(materials)
        strong, weak = material.split("v")
        white, black = (strong, weak) if rng.random() < 0.5 else (weak, strong)
        b = random_position(rng, white.upper(), black.lower())
        wdl = tables.probe_wdl(b)
        if wdl in (1, -1):
            continue
        mover = 1 if b.turn == chess.WHITE else -1
        winner = 0 if wdl == 0 else mover * (1 if wdl > 0 else -1)
        sample4.append((b.fen(), winner, material))
    wins = sum(1 for _, w, _ in sample4 if w)
    print(f"4-man: {len(sample4)} positions ({wins} won, {len(sample4) - wins} drawn), "
          f"depth {args.four_depth}")
    for name, binary in binaries:
        right = {1: 0, 0: 0}
        total = {1: 0, 0: 0}
        for fen, winner, material in sample4:
            kind, value = search_score(binary, fen, args.four_depth, env)
            cls = 1 if winner else 0
            total[cls] += 1
            ok = judge(kind, value, winner, 0.5)
            right[cls] += ok
            if not ok and args.verbose:
                print(f"  {name} wrong: {material} {fen} winner {winner:+d} got {kind} {value}")
        n = total[1] + total[0]
        r = right[1] + right[0]
        print(f"  {name:<5} right {r}/{n} = {100 * r / n:.1f}% "
              f"(won {right[1]}/{total[1]}, drawn {right[0]}/{total[0]})")


if __name__ == "__main__":
    main()
