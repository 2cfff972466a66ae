#!/usr/bin/env python3
"""Play endgames against Stockfish from positions the Syzygy tables have judged: does ox88
win the won ones within the fifty-move rule and hold the drawn ones, with and without its
`SyzygyPath`?

Positions are random legal positions of small endings; python-chess's prober (an outside
oracle here, not part of ox88) keeps those that are wins for the side to move (ox88's side)
and, separately, draws where ox88 is the side with less material (it must defend). Each
position is played twice by default: ox88 with the tables, and ox88 without them;
Stockfish (by default also given the tables, so it defends as well as can be) plays the
other side. A game ends by the rules: mate, stalemate, dead material, threefold
repetition, or the fifty-move rule (a hundred plies without a capture or pawn move).

Needs python-chess, Stockfish, a release build and the tables (`scripts/get-syzygy.sh`).

Examples:
    cargo build --release && scripts/get-syzygy.sh
    python3 scripts/syzygy_play.py --won 40 --drawn 20
    python3 scripts/syzygy_play.py --won 10 --drawn 0 --modes tables --movetime 0.2 --seed 3
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import sys

import chess
import chess.engine
import chess.syzygy

PIECES = {"Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN}

# Endings where ox88's side (the first part) should win, and where it (the second part,
# the weaker side) should hold a draw. Pawn endings come twice as often: their positions
# are the ones where the fifty-move rule and the conversion matter. An ending whose
# tables are missing (KRPvKR needs the 5-man set) is skipped.
WON = ["KQvK", "KRvK", "KBNvK", "KBBvK", "KPvK", "KPvK", "KPPvK", "KQvKR", "KRvKP", "KQvKP",
       "KRPvKR"]
DRAWN = ["KPvK", "KPvK", "KRvKB", "KRvKN", "KQvKR", "KPvKP", "KRvKP", "KRPvKR", "KBPvKB"]


def random_position(rng: random.Random, strong: str, weak: str, strong_color: bool) -> chess.Board | None:
    """A random legal position: `strong`'s men for `strong_color`, `weak`'s for the other."""
    board = chess.Board(None)
    squares = list(chess.SQUARES)
    rng.shuffle(squares)
    for color, part in ((strong_color, strong), (not strong_color, weak)):
        for letter in part:
            kind = chess.KING if letter == "K" else PIECES[letter]
            while True:
                sq = squares.pop()
                if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
                    squares.insert(0, sq)
                    continue
                break
            board.set_piece_at(sq, chess.Piece(kind, color))
    return board


def pick_positions(rng: random.Random, tb: chess.syzygy.Tablebase, endings: list[str], count: int,
                   want_win: bool) -> list[tuple[str, str]]:
    """`count` (ending, FEN) pairs with ox88 to move: a win for it (`want_win`), else a draw
    in which ox88 has the weaker men. Trivial starts (a capture at once, a pawnless win in
    a move or two) are skipped so that each game tests the play."""
    out = []
    tries = 0
    while len(out) < count and tries < 200_000:
        tries += 1
        name = rng.choice(endings)
        strong, weak = name.split("v")
        ox88_color = rng.choice([chess.WHITE, chess.BLACK])
        if want_win:
            board = random_position(rng, strong, weak, ox88_color)
        else:
            board = random_position(rng, strong, weak, not ox88_color)
        board.turn = ox88_color
        if not board.is_valid() or board.is_check() or board.is_game_over():
            continue
        if any(board.is_capture(m) for m in board.legal_moves):
            continue
        try:
            wdl = tb.probe_wdl(board)
            dtz = tb.probe_dtz(board)
        except (KeyError, chess.syzygy.MissingTableError):
            continue
        pawnless = "P" not in name
        if want_win and wdl == 2 and (dtz >= 3 or not pawnless):
            out.append((name, board.fen()))
        elif not want_win and wdl == 0:
            # A draw that needs care: the stronger side, to move next, could win if ox88
            # errs (some reply of ox88's loses).
            if any(_loses(tb, board, m) for m in board.legal_moves):
                out.append((name, board.fen()))
    return out


def _loses(tb: chess.syzygy.Tablebase, board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    try:
        return tb.probe_wdl(board) == 2
    except (KeyError, chess.syzygy.MissingTableError):
        return False
    finally:
        board.pop()


def play(fen: str, ox88: chess.engine.SimpleEngine, sf: chess.engine.SimpleEngine,
         movetime: float, max_plies: int) -> tuple[str, int]:
    """One game from `fen`, ox88 to move first. Returns ("win" | "draw" | "loss", plies)."""
    board = chess.Board(fen)
    ox88_color = board.turn
    limit = chess.engine.Limit(time=movetime)
    plies = 0
    while plies < max_plies:
        if board.is_checkmate():
            return ("loss" if board.turn == ox88_color else "win"), plies
        if (board.is_stalemate() or board.is_insufficient_material()
                or board.halfmove_clock >= 100 or board.is_repetition(3)):
            return "draw", plies
        engine = ox88 if board.turn == ox88_color else sf
        result = engine.play(board, limit, game=fen)
        if result.move is None:
            return ("loss" if board.turn == ox88_color else "win"), plies
        board.push(result.move)
        plies += 1
    return "draw", plies


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ox88", default="target/release/ox88")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--syzygy", default=os.environ.get("OX88_SYZYGY", "target/syzygy"))
    ap.add_argument("--won", type=int, default=40, help="won positions to play")
    ap.add_argument("--drawn", type=int, default=20, help="drawn positions to play")
    ap.add_argument("--movetime", type=float, default=0.1, help="seconds per move, both engines")
    ap.add_argument("--modes", default="tables,none",
                    help="comma-separated: 'tables' (ox88 with SyzygyPath), 'none' (without)")
    ap.add_argument("--sf-no-tables", action="store_true", help="Stockfish plays without tables")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--verbose", action="store_true", help="print every game")
    args = ap.parse_args()

    syzygy = os.path.abspath(args.syzygy)
    if not os.path.isfile(os.path.join(syzygy, "KQvK.rtbw")):
        print(f"no Syzygy tables in {syzygy} (run scripts/get-syzygy.sh)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    with chess.syzygy.open_tablebase(syzygy) as tb:
        won = pick_positions(rng, tb, WON, args.won, True)
        drawn = pick_positions(rng, tb, DRAWN, args.drawn, False)
    print(f"{len(won)} won and {len(drawn)} drawn positions (seed {args.seed}), "
          f"{args.movetime:.2f} s a move", flush=True)

    sf = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    if not args.sf_no_tables:
        sf.configure({"SyzygyPath": syzygy})
    try:
        for mode in [m.strip() for m in args.modes.split(",") if m.strip()]:
            ox88 = chess.engine.SimpleEngine.popen_uci([os.path.abspath(args.ox88), "uci"])
            if mode == "tables":
                ox88.configure({"SyzygyPath": syzygy})
            elif mode != "none":
                print(f"unknown mode {mode}", file=sys.stderr)
                return 2
            counts = collections.Counter()
            by_ending = collections.Counter()
            failures = []
            for kind, positions in (("won", won), ("drawn", drawn)):
                for name, fen in positions:
                    outcome, plies = play(fen, ox88, sf, args.movetime, args.max_plies)
                    good = outcome == "win" if kind == "won" else outcome != "loss"
                    counts[(kind, good)] += 1
                    by_ending[(kind, name, good)] += 1
                    if not good:
                        failures.append(f"{kind} {name} {fen}: {outcome} after {plies} plies")
                    if args.verbose:
                        print(f"  {mode} {kind} {name} {fen}: {outcome} ({plies} plies)", flush=True)
            ox88.quit()
            print(f"\nox88 {'with' if mode == 'tables' else 'without'} tables:")
            print(f"  won positions:   {counts[('won', True)]} won, "
                  f"{counts[('won', False)]} not won (of {len(won)})")
            print(f"  drawn positions: {counts[('drawn', True)]} held, "
                  f"{counts[('drawn', False)]} lost (of {len(drawn)})")
            for kind, name in sorted({(k, n) for (k, n, _) in by_ending}):
                good = by_ending[(kind, name, True)]
                total = good + by_ending[(kind, name, False)]
                print(f"    {kind} {name}: {good}/{total} {'won' if kind == 'won' else 'held'}")
            for f in failures:
                print(f"  FAILED {f}")
            sys.stdout.flush()
    finally:
        sf.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
