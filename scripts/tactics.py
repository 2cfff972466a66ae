#!/usr/bin/env python3
"""A tactics set made by Stockfish, and how many of it an engine solves at a fixed move time.

`make` builds the set: each balanced opening of the shared book is played on by Stockfish at
a low node count with now and then a worse move chosen on purpose (so positions with
something to punish arise), and the first position of each game where one move is clearly
best (Stockfish at a fixed node count after a quicker first look, MultiPV 2: the best move at least `--gap` centipawns
ahead of the second, the side to move not already winning by more than `--decided`) is kept,
unless that move merely takes back what was just taken. Written as EPD with `bm` (SAN) and
the gap in a comment. Everything is seeded and node-limited, so the same Stockfish makes the
same set.

`solve` gives each position to one or more engines in turn with `go movetime N` (a fresh
`ucinewgame` each, no book) and counts a position solved when the engine's move is the `bm`
move. It prints the solve rate and the time the engines took per move (from `go` to
`bestmove`, as a GUI sees it).

Needs python-chess (`pip install chess`) and Stockfish (`apt-get install stockfish`).

Examples:
    cargo build --release
    python3 scripts/tactics.py make --out scripts/tactics.epd
    python3 scripts/tactics.py solve --epd scripts/tactics.epd --movetime 500 \\
        --engine target/release/ox88 --engine /tmp/ox88-old
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("needs python-chess: pip install chess")

ROOT = Path(__file__).resolve().parent.parent
OPENINGS = ROOT / "tests" / "data" / "openings500.epd"
DEFAULT_STOCKFISH = "/usr/games/stockfish"


def openings(path: Path) -> list[chess.Board]:
    boards = []
    for line in path.read_text().splitlines():
        if line.strip():
            board, _ = chess.Board.from_epd(line)
            boards.append(board)
    return boards


def is_recapture(board: chess.Board, move: chess.Move) -> bool:
    """The move takes on the square where the last move captured."""
    if not board.move_stack or not board.is_capture(move):
        return False
    last = board.peek()
    before = board.copy()
    before.pop()
    return before.is_capture(last) and last.to_square == move.to_square


def clear_best(sf: chess.engine.SimpleEngine, board: chess.Board, nodes: int, gap: int, decided: int):
    """(best move, its score, the gap to the second) where one move is clearly best."""
    if board.legal_moves.count() < 2:
        return None
    infos = sf.analyse(board, chess.engine.Limit(nodes=nodes), multipv=2)
    if len(infos) < 2 or "pv" not in infos[0] or "pv" not in infos[1]:
        return None
    first = infos[0]["score"].pov(board.turn)
    second = infos[1]["score"].pov(board.turn)
    # Mates: a mate in a few against anything else is a clear best; long mates are left out.
    if first.is_mate():
        if first.mate() is None or first.mate() <= 0 or first.mate() > 3 or second.is_mate():
            return None
        return infos[0]["pv"][0], f"#{first.mate()}", 10000
    a, b = first.score(), second.score(mate_score=100000)
    if a is None or b is None or abs(a) > decided:
        return None
    if a - b < gap:
        return None
    return infos[0]["pv"][0], f"{a:+d}", a - b


def make(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    sf = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    sf.configure({"Threads": 1, "Hash": 64})
    lines = []
    # Written as found, so an interrupted run keeps what it made.
    out = open(args.out, "w")
    try:
        for n, start in enumerate(openings(Path(args.openings))):
            if len(lines) >= args.count:
                break
            board = start.copy()
            for _ in range(args.plies):
                if board.is_game_over():
                    break
                # A quick look first; a position that passes it is judged at full nodes.
                if board.ply() > start.ply() + 2 and clear_best(
                    sf, board, args.screen_nodes, args.gap * 3 // 4, args.decided * 2
                ):
                    found = clear_best(sf, board, args.nodes, args.gap, args.decided)
                    if found and not is_recapture(board, found[0]):
                        mv, score, gap = found
                        epd = board.epd(bm=mv, id=f"tactics {len(lines) + 1}")
                        lines.append(f'{epd} c0 "opening {n + 1}, stockfish {score}, gap {gap}";')
                        out.write(lines[-1] + "\n")
                        out.flush()
                        print(f"{len(lines):4} {board.san(mv):8} {score:>6} gap {gap}", file=sys.stderr)
                        break
                # On with a move: Stockfish's best, or now and then a worse one on purpose.
                infos = sf.analyse(board, chess.engine.Limit(nodes=args.play_nodes), multipv=4)
                moves = [i["pv"][0] for i in infos if "pv" in i]
                if not moves:
                    break
                pick = moves[0] if rng.random() > args.noise else rng.choice(moves)
                board.push(pick)
    finally:
        sf.quit()
        out.close()
    print(f"{len(lines)} positions written to {args.out}", file=sys.stderr)


def solve(args: argparse.Namespace) -> None:
    positions = []
    for line in Path(args.epd).read_text().splitlines():
        if line.strip():
            board, ops = chess.Board.from_epd(line)
            positions.append((board, ops["bm"], ops.get("id", "")))
    movetime = args.movetime / 1000.0
    engines = []
    for path in args.engine:
        eng = chess.engine.SimpleEngine.popen_uci([path, "uci"])
        options = {"OwnBook": False} if "OwnBook" in eng.options else {}
        if "Move Overhead" in eng.options:
            options["Move Overhead"] = args.overhead
        eng.configure(options)
        engines.append(eng)
    solved = [0] * len(engines)
    times: list[list[float]] = [[] for _ in engines]
    missed: list[list[str]] = [[] for _ in engines]
    try:
        # Position by position, every engine in turn, so a busy machine weighs on all alike.
        for board, bm, name in positions:
            for i, eng in enumerate(engines):
                # A new game object each time: python-chess sends `ucinewgame` before it.
                start = time.monotonic()
                result = eng.play(board, chess.engine.Limit(time=movetime), game=object())
                times[i].append(time.monotonic() - start)
                if result.move in bm:
                    solved[i] += 1
                else:
                    missed[i].append(name)
    finally:
        for eng in engines:
            eng.quit()
    n = len(positions)
    for i, path in enumerate(args.engine):
        t = times[i]
        print(
            f"{path}: movetime {args.movetime} ms: solved {solved[i]}/{n} ({100.0 * solved[i] / n:.1f}%); "
            f"time per move mean {statistics.mean(t):.3f} s, "
            f"median {statistics.median(t):.3f} s, min {min(t):.3f} s, max {max(t):.3f} s"
        )
        if args.verbose:
            print("  missed: " + ", ".join(missed[i]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    m = sub.add_parser("make", help="build the set with Stockfish")
    m.add_argument("--stockfish", default=DEFAULT_STOCKFISH)
    m.add_argument("--openings", default=str(OPENINGS))
    m.add_argument("--out", default=str(ROOT / "scripts" / "tactics.epd"))
    m.add_argument("--count", type=int, default=150)
    m.add_argument("--plies", type=int, default=40, help="plies played on from each opening at most")
    m.add_argument("--nodes", type=int, default=400_000, help="Stockfish nodes to judge a position")
    m.add_argument("--screen-nodes", type=int, default=30_000, help="Stockfish nodes for a first look")
    m.add_argument("--play-nodes", type=int, default=20_000, help="Stockfish nodes to pick a move")
    m.add_argument("--noise", type=float, default=0.25, help="how often a move is picked among the top 4")
    m.add_argument("--gap", type=int, default=200, help="centipawns the best move leads the second by")
    m.add_argument("--decided", type=int, default=400, help="leave out positions already won by more")
    m.add_argument("--seed", type=int, default=1)
    s = sub.add_parser("solve", help="count what engines solve at a fixed move time")
    s.add_argument("--epd", default=str(ROOT / "scripts" / "tactics.epd"))
    s.add_argument("--engine", action="append", required=True, help="an ox88 binary (repeatable)")
    s.add_argument("--movetime", type=int, default=500, help="milliseconds per position")
    s.add_argument("--overhead", type=int, default=30, help="the engine's Move Overhead, ms")
    s.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    if args.command == "make":
        if not Path(args.stockfish).exists():
            sys.exit(f"{args.stockfish} not found: apt-get install stockfish, or pass --stockfish")
        make(args)
    else:
        solve(args)


if __name__ == "__main__":
    main()
