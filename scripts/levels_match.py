#!/usr/bin/env python3
"""Calibrate ox88's playing levels against Stockfish 15.1 with UCI_LimitStrength.

For each level asked for, ox88 plays that level against Stockfish set to the same Elo
(Stockfish 15.1 accepts UCI_Elo 1350..2850, so lower levels meet Stockfish at 1350 and the
measured difference is added). Each opening of the book is played twice, colours swapped.
The games, clock and failure rules are those of scripts/match.py, which this script imports.

Stockfish's UCI_Elo scale is anchored to CCRL 40/4 ratings (its documentation: fitted from
games at 60+0.6). At 10+0.1 the numbers are a rough guide; docs/levels.md says how to read
them.

ox88 plays a level as any GUI would ask it to: `ox88 uci` with `setoption name
UCI_LimitStrength value true` and `setoption name UCI_Elo value N`, and `OwnBook false` so
that the level driver chooses every move from the opening position on. Each game starts a
fresh engine, whose level choices are seeded from the clock, so games from one opening differ.

Needs python-chess (`pip install chess`) and Stockfish (`apt-get install stockfish`).

Examples:
    cargo build --release
    python3 scripts/levels_match.py --levels club --games 2              # smoke run
    python3 scripts/levels_match.py --levels beginner casual club expert master --games 100
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import match  # noqa: E402  (scripts/match.py: the games, the clock, the Elo estimate)

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OPENINGS = REPO / "tests" / "data" / "openings500.epd"
# The level names of src/engine/levels.rs.
NAMED = {"beginner": 800, "casual": 1200, "club": 1600, "expert": 2000, "master": 2400}
SF_MIN_ELO, SF_MAX_ELO = 1350, 2850


def level_elo(text: str) -> int:
    t = text.strip().lower()
    if t in NAMED:
        return NAMED[t]
    try:
        n = int(t)
    except ValueError:
        sys.exit(f"level {text!r}: use {', '.join(NAMED)} or an Elo from 800 to 2800")
    if not 800 <= n <= 2800:
        sys.exit(f"level {n}: levels go from 800 to 2800")
    return n


def score_elo(w: int, d: int, l: int) -> float | None:
    n = w + d + l
    if n == 0:
        return None
    p = (w + 0.5 * d) / n
    if p <= 0.0 or p >= 1.0:
        return None
    return -400.0 * math.log10(1.0 / p - 1.0)


def run_level(elo: int, args, stop: threading.Event) -> tuple[int, int, int, list[match.GameResult]]:
    sf_elo = min(max(elo, SF_MIN_ELO), SF_MAX_ELO)
    ns = argparse.Namespace(
        engine=args.engine,
        stockfish=args.stockfish,
        elo=sf_elo,
        base=args.base,
        inc=args.inc,
        margin=args.margin,
        sf_options={},
        name=None,  # match.opponent_label: Stockfish with its UCI_Elo
    )
    ns.engine_args = ["uci"]
    # No book: the level driver chooses every move, as the calibration table measured it.
    ns.ox88_options = {"UCI_LimitStrength": "true", "UCI_Elo": str(elo), "OwnBook": "false"}
    openings = match.load_openings(Path(args.openings))
    results = []
    for g in range(args.games):
        if stop.is_set():
            break
        op = openings[(args.first_opening + g // 2) % len(openings)]
        r = match.play_game(g + 1, op, g % 2 == 0, ns, stop)
        results.append(r)
        flags = [f for f, on in (("ILLEGAL", r.illegal), ("CRASH", r.crash), ("TIME", r.time_loss)) if on]
        colour = "white" if r.ox88_white else "black"
        print(f"  level {elo} game {r.number:>3}: ox88 {colour:<5} opening #{r.opening + 1:<3} "
              f"{r.result:<7} {r.reason} ({r.plies} plies)" + (f"  {' '.join(flags)}" if flags else ""),
              flush=True)
    done = [r for r in results if r.result != "*"]
    w = sum(r.ox88_score == 1.0 for r in done)
    d = sum(r.ox88_score == 0.5 for r in done)
    return w, d, len(done) - w - d, done


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--levels", nargs="+", default=["club"], help="level names or Elo numbers (default: club)")
    # `uci` is the only way now; the option stays so that older command lines still run.
    ap.add_argument("--via", choices=["uci"], default="uci", help=argparse.SUPPRESS)
    ap.add_argument("--engine", default=os.environ.get("OX88", str(match.DEFAULT_ENGINE)))
    ap.add_argument("--stockfish", default=match.DEFAULT_STOCKFISH)
    ap.add_argument("--games", type=int, default=2, help="games per level (default 2: a smoke run)")
    ap.add_argument("--tc", default="10+0.1", help="seconds+increment (default 10+0.1)")
    ap.add_argument("--margin", type=float, default=0.0, help="seconds a side may overstep its clock")
    ap.add_argument("--openings", default=str(DEFAULT_OPENINGS))
    ap.add_argument("--first-opening", type=int, default=0)
    ap.add_argument("--pgn", help="write all games to this PGN file")
    args = ap.parse_args()
    args.base, args.inc = match.parse_tc(args.tc)
    if not Path(args.engine).exists():
        sys.exit(f"{args.engine} not found: run `cargo build --release` first or pass --engine")
    if not Path(args.stockfish).exists():
        sys.exit(f"{args.stockfish} not found: apt-get install stockfish, or pass --stockfish")

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, interrupt)
    stop = threading.Event()
    started = time.monotonic()
    rows, games, failures = [], [], 0
    try:
        for text in args.levels:
            elo = level_elo(text)
            sf_elo = min(max(elo, SF_MIN_ELO), SF_MAX_ELO)
            print(f"level {text} ({elo}) vs Stockfish UCI_Elo {sf_elo}: {args.games} games at "
                  f"{args.base:g}+{args.inc:g}, via {args.via}", flush=True)
            w, d, l, done = run_level(elo, args, stop)
            games += done
            failures += sum(r.illegal or r.crash or r.time_loss for r in done)
            diff = score_elo(w, d, l)
            estimate = "n/a (needs a score strictly between 0% and 100%)" if diff is None else f"{sf_elo + diff:.0f}"
            rows.append((text, elo, sf_elo, w, d, l, match.elo_estimate(w, d, l), estimate))
    except KeyboardInterrupt:
        stop.set()
        print("interrupted", flush=True)

    if args.pgn:
        with open(args.pgn, "w", encoding="utf-8") as f:
            for r in games:
                f.write(r.pgn + "\n\n")
    print()
    print(f"{len(games)} games in {(time.monotonic() - started) / 60:.1f} min at {args.base:g}+{args.inc:g}")
    print("| level | Elo | Stockfish UCI_Elo | W/D/L | Elo difference | estimated Elo |")
    print("| --- | --- | --- | --- | --- | --- |")
    for text, elo, sf_elo, w, d, l, diff, estimate in rows:
        print(f"| {text} | {elo} | {sf_elo} | {w}/{d}/{l} | {diff} | {estimate} |")
    if failures:
        print(f"{failures} games with an illegal move, a crash or a time loss by ox88")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
