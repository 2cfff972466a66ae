#!/usr/bin/env python3
"""Play two ox88 binaries against each other: a new build against a baseline.

Each opening of the book (tests/data/openings500.epd) is played twice, each binary taking
each colour once, so the openings' imbalance cancels out. Games are played one at a time.
A fixed node budget per move (`--nodes`) keeps the comparison fair on a busy machine; a
clock (`--tc`) is possible too. At the end: W/D/L from the new binary's point of view, an
Elo difference with a 95% error bar, and, with `--sprt`, the log-likelihood ratio of the
sequential probability ratio test (the run stops early when it crosses a bound). The exit
status is 1 when either binary made an illegal move, crashed or stopped answering.

Needs python-chess (`pip install chess`).

Examples:
    python3 scripts/selfmatch.py --base /work/wt/search-base/ox88 --games 20 --nodes 10000
    python3 scripts/selfmatch.py --base /tmp/base/ox88 --games 400 --nodes 15000 \\
        --sprt --elo1 5 --pgn /tmp/self.pgn
    python3 scripts/selfmatch.py --base target/release/ox88 --games 100 \\
        --new-option SyzygyPath=target/syzygy      # the same build, with tables against without
"""

from __future__ import annotations

import argparse
import math
import signal
import sys
import time
from pathlib import Path

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # pragma: no cover - the message is the point
    sys.exit("selfmatch.py needs python-chess: pip install chess")

REPO = Path(__file__).resolve().parent.parent
DEFAULT_NEW = REPO / "target" / "release" / "ox88"
DEFAULT_OPENINGS = REPO / "tests" / "data" / "openings500.epd"
# A game longer than this is adjudicated a draw: both sides are shuffling.
MAX_PLIES = 400


def load_openings(path: Path) -> list[chess.Board]:
    boards = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            board, _ = chess.Board.from_epd(line)
        except ValueError as e:
            sys.exit(f"{path}:{number}: not an EPD line ({e})")
        boards.append(board)
    if not boards:
        sys.exit(f"{path}: no openings")
    return boards


def parse_tc(text: str) -> tuple[float, float]:
    """`5+0.05` → (300 s, 0.05 s): minutes + increment seconds."""
    base, _, inc = text.partition("+")
    try:
        return float(base) * 60.0, float(inc or 0)
    except ValueError:
        sys.exit(f"--tc {text!r}: expected minutes+increment, e.g. 0.5+0.05")


class Failure(Exception):
    """An engine broke the rules or died; the match is void."""


def play_game(engines: dict[str, chess.engine.SimpleEngine], white: str, start: chess.Board,
              args, game_id: int) -> tuple[str, chess.pgn.Game]:
    """One game from `start`; `white` names the engine with White. Returns the result
    ("1-0", "0-1", "1/2-1/2") and the PGN."""
    board = start.copy()
    black = "base" if white == "new" else "new"
    side_name = {chess.WHITE: white, chess.BLACK: black}
    clock = None
    if args.tc:
        base, inc = parse_tc(args.tc)
        clock = {chess.WHITE: base, chess.BLACK: base}
    result = None
    termination = "normal"
    while result is None:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result = outcome.result()
            break
        if board.ply() - start.ply() >= MAX_PLIES:
            result, termination = "1/2-1/2", "adjudication"
            break
        who = side_name[board.turn]
        if clock is None:
            limit = chess.engine.Limit(nodes=args.nodes)
        else:
            limit = chess.engine.Limit(white_clock=clock[chess.WHITE],
                                       black_clock=clock[chess.BLACK],
                                       white_inc=inc, black_inc=inc)
        started = time.monotonic()
        try:
            played = engines[who].play(board, limit, game=game_id)
        except chess.engine.EngineError as e:
            raise Failure(f"game {game_id}: {who} failed: {e}") from e
        except chess.engine.EngineTerminatedError as e:
            raise Failure(f"game {game_id}: {who} crashed: {e}") from e
        mv = played.move
        if mv is None or mv not in board.legal_moves:
            raise Failure(f"game {game_id}: {who} played illegal move {mv} in {board.fen()}")
        if clock is not None:
            # The mover's clock runs while it thinks; the increment comes after the move.
            clock[board.turn] -= time.monotonic() - started
            if clock[board.turn] < 0:
                flagged = board.turn
                # A flag loses only if the other side could still mate (FIDE 6.9).
                if board.has_insufficient_material(not flagged):
                    result = "1/2-1/2"
                    termination = "time forfeit against insufficient material"
                else:
                    result = "0-1" if flagged == chess.WHITE else "1-0"
                    termination = "time forfeit"
                break
            clock[board.turn] += inc
        board.push(mv)
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = "ox88 selfmatch"
    game.headers["Round"] = str(game_id)
    game.headers["White"] = f"ox88 {white}"
    game.headers["Black"] = f"ox88 {black}"
    game.headers["Result"] = result
    game.headers["Termination"] = termination
    return result, game


def elo_from_score(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / p - 1.0)


def elo_estimate(w: int, d: int, l: int) -> tuple[float, float]:
    """Elo difference and the half-width of its 95% interval, from the per-game variance of
    the score (trinomial model)."""
    n = w + d + l
    if n == 0:
        return 0.0, 0.0
    p = (w + 0.5 * d) / n
    var = (w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * p ** 2) / n
    se = math.sqrt(var / n)
    lo, hi = elo_from_score(p - 1.96 * se), elo_from_score(p + 1.96 * se)
    return elo_from_score(p), (hi - lo) / 2


def sprt_llr(w: int, d: int, l: int, elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (elo1) against H0 (elo0), the usual normal approximation
    of the trinomial GSPRT: LLR = n·(s1−s0)·(2·s̄ − s0 − s1) / (2·var)."""
    n = w + d + l
    if n == 0 or w + l == 0:
        return 0.0
    p = (w + 0.5 * d) / n
    var = (w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * p ** 2) / n
    if var <= 0:
        return 0.0

    def score(elo: float) -> float:
        return 1.0 / (1.0 + 10 ** (-elo / 400.0))

    s0, s1 = score(elo0), score(elo1)
    return n * (s1 - s0) * (2 * p - s0 - s1) / (2 * var)


def stop_with_summary(signum, frame):  # noqa: ARG001 - the signal handler's signature
    raise KeyboardInterrupt


def main() -> int:
    # Ctrl-C, or SIGINT/SIGTERM to a match started in the background (where SIGINT is
    # ignored by default): stop after printing the games so far.
    signal.signal(signal.SIGINT, stop_with_summary)
    signal.signal(signal.SIGTERM, stop_with_summary)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--new", type=Path, default=DEFAULT_NEW, help="the binary under test")
    ap.add_argument("--base", type=Path, required=True, help="the baseline binary")
    ap.add_argument("--openings", type=Path, default=DEFAULT_OPENINGS)
    ap.add_argument("--games", type=int, default=100, help="games (rounded up to pairs)")
    ap.add_argument("--skip", type=int, default=0, help="openings to skip first")
    ap.add_argument("--nodes", type=int, default=10000, help="nodes per move")
    ap.add_argument("--tc", help="a clock instead of nodes: minutes+increment, e.g. 0.2+0.02")
    ap.add_argument("--hash", type=int, default=16, help="hash table MB of each engine")
    ap.add_argument("--pgn", type=Path, help="write the games here")
    ap.add_argument("--sprt", action="store_true", help="stop when the SPRT decides")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=5.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("-q", "--quiet", action="store_true", help="no line per game")
    ap.add_argument("--new-option", action="append", default=[], metavar="NAME=VALUE",
                    help="a UCI option for the new binary (repeatable)")
    ap.add_argument("--base-option", action="append", default=[], metavar="NAME=VALUE",
                    help="a UCI option for the baseline (repeatable)")
    args = ap.parse_args()
    extra = {}
    for side in ("new", "base"):
        extra[side] = {}
        for item in getattr(args, f"{side}_option"):
            name, sep, value = item.partition("=")
            if not sep or not name.strip():
                sys.exit(f"--{side}-option {item!r}: expected NAME=VALUE")
            extra[side][name.strip()] = value
    if args.games < 1 or args.nodes < 1 or args.hash < 1:
        sys.exit("--games, --nodes and --hash must be positive")
    for path in (args.new, args.base):
        if not path.is_file():
            sys.exit(f"{path}: no such binary")
    openings = load_openings(args.openings)
    lower = math.log(args.beta / (1 - args.alpha))
    upper = math.log((1 - args.beta) / args.alpha)

    engines = {}
    try:
        for name, path in (("new", args.new), ("base", args.base)):
            eng = chess.engine.SimpleEngine.popen_uci([str(path), "uci"])
            if "Hash" in eng.options:
                eng.configure({"Hash": args.hash})
            if extra[name]:
                eng.configure(extra[name])
            engines[name] = eng
    except (OSError, chess.engine.EngineError) as e:
        sys.exit(f"cannot start engine: {e}")

    w = d = l = 0
    pgn_out = open(args.pgn, "w") if args.pgn else None
    status = 0
    decided = ""
    try:
        pairs = (args.games + 1) // 2
        for k in range(pairs):
            start = openings[(args.skip + k) % len(openings)]
            for white in ("new", "base"):
                game_id = 2 * k + (white == "base") + 1
                result, game = play_game(engines, white, start, args, game_id)
                new_white = white == "new"
                if result == "1/2-1/2":
                    d += 1
                elif (result == "1-0") == new_white:
                    w += 1
                else:
                    l += 1
                if pgn_out:
                    print(game, file=pgn_out, end="\n\n")
                    pgn_out.flush()
                if not args.quiet:
                    elo, err = elo_estimate(w, d, l)
                    print(f"game {game_id:4} opening {args.skip + k + 1:3} new={white:5} "
                          f"{result:7}  +{w} ={d} -{l}  {elo:+.1f} ±{err:.1f}", flush=True)
            if args.sprt:
                llr = sprt_llr(w, d, l, args.elo0, args.elo1)
                if llr >= upper:
                    decided = "H1 accepted (new is stronger)"
                    break
                if llr <= lower:
                    decided = "H0 accepted (no gain of elo1)"
                    break
    except Failure as e:
        print(f"FAILURE: {e}", file=sys.stderr)
        status = 1
    except KeyboardInterrupt:
        print("interrupted: the games so far", file=sys.stderr)
    finally:
        for eng in engines.values():
            try:
                eng.quit()
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError):
                status = 1
        if pgn_out:
            pgn_out.close()

    n = w + d + l
    elo, err = elo_estimate(w, d, l)
    score = (w + 0.5 * d) / n if n else 0.0
    budget = f"tc {args.tc}" if args.tc else f"{args.nodes} nodes/move"
    print(f"{n} games, {budget}: +{w} ={d} -{l}  score {100 * score:.1f}%  "
          f"Elo {elo:+.1f} ± {err:.1f} (95%)")
    if args.sprt:
        llr = sprt_llr(w, d, l, args.elo0, args.elo1)
        print(f"SPRT elo0={args.elo0:g} elo1={args.elo1:g} alpha={args.alpha:g} "
              f"beta={args.beta:g}: LLR {llr:+.2f} [{lower:+.2f}, {upper:+.2f}] "
              f"{decided or 'undecided'}")
    return status


if __name__ == "__main__":
    sys.exit(main())
