#!/usr/bin/env python3
"""Play ox88 against Stockfish over UCI and count what matters for a UCI engine.

Each opening of the book is played twice, ox88 taking each colour once. The clock is kept
here, from the wall time of each `go` round trip (pipe latency included, as a GUI sees it):
a side whose clock goes below zero loses on time. Illegal moves, crashes and hangs are
counted and end the game as a loss for the engine at fault. At the end: W/D/L from ox88's
point of view, an Elo difference with a 95% error bar, and the failure counts. The exit
status is 1 when ox88 made any illegal move, crashed or lost on time, so the script can
guard a release.

Needs python-chess (`pip install chess`) and Stockfish (`apt-get install stockfish`).

Examples:
    cargo build --release
    python3 scripts/match.py --games 4 --tc 2+0.05            # smoke run
    python3 scripts/match.py --games 100 --tc 10+0.1 --elo 1500 --pgn /tmp/match.pgn
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import dataclasses
import logging
import math
import os
import shlex
import shutil
import signal
import sys
import threading
import time
from pathlib import Path

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # pragma: no cover - the message is the point
    sys.exit("match.py needs python-chess: pip install chess")

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ENGINE = REPO / "target" / "release" / "ox88"
# The 500 balanced openings (8 moves each), kept in the repository.
DEFAULT_OPENINGS = REPO / "tests" / "data" / "openings500.epd"
DEFAULT_STOCKFISH = "/usr/games/stockfish"
# A game longer than this is adjudicated a draw: both engines are shuffling.
MAX_PLIES = 600
# Seconds past its whole clock an engine may stay silent before the game is called a hang.
HANG_GRACE = 10.0


@dataclasses.dataclass
class Opening:
    index: int
    board: chess.Board
    """The position to start from, with the opening moves on its stack when they are known,
    so the engines get `position startpos moves …` and the game's history."""


@dataclasses.dataclass
class GameResult:
    number: int
    opening: int
    ox88_white: bool
    result: str  # "1-0", "0-1", "1/2-1/2"
    reason: str
    plies: int
    ox88_score: float  # 1, 0.5 or 0
    illegal: bool = False  # ox88 sent an illegal or null move
    crash: bool = False  # ox88's process died or broke the protocol
    time_loss: bool = False  # ox88 lost on time
    opponent_fault: str = ""  # Stockfish misbehaved (should never happen)
    max_overshoot_ms: float = 0.0  # worst (time used - time left) for ox88; > 0 means a loss
    min_clock_ms: float = math.inf  # the least ox88 had left after a move (its safety margin)
    pgn: str = ""
    # Per move played after the opening: (seconds used, seconds left after the move, whether
    # ox88 played it), for
    # the PGN's [%emt]/[%clk] comments and the time-use summary.
    times: list = dataclasses.field(default_factory=list)


def load_openings(path: Path) -> list[Opening]:
    openings = []
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f):
            line = line.strip()
            if not line:
                continue
            board, ops = chess.Board.from_epd(line)
            start = board
            moves = ops.get("c0")
            if isinstance(moves, str):
                # The EPD's comment holds the moves from the initial position: replaying them
                # gives the engines the real game history (repetitions, `moves` parsing).
                replay = chess.Board()
                try:
                    for token in moves.split():
                        if token.endswith(".") or token[0].isdigit():
                            continue
                        replay.push_san(token)
                    if replay.board_fen() == board.board_fen() and replay.turn == board.turn:
                        start = replay
                except ValueError:
                    start = board
            openings.append(Opening(index=i, board=start))
    if not openings:
        sys.exit(f"no openings in {path}")
    return openings


def configure(engine: chess.engine.SimpleEngine, options: dict[str, str]) -> None:
    """Sets the options the engine declares; others (Stockfish's `Threads` or `Move Overhead`
    when the opponent is another engine) are skipped."""
    for name, value in options.items():
        if name in engine.options:
            engine.configure({name: value})


def parse_options(pairs: list[str]) -> dict[str, str]:
    out = {}
    for p in pairs:
        if "=" not in p:
            sys.exit(f"--option/--sf-option expects Name=Value, got {p!r}")
        name, value = p.split("=", 1)
        out[name.strip()] = value.strip()
    return out


def play_bounded(engine: chess.engine.SimpleEngine, board: chess.Board, limit: chess.engine.Limit,
                 game: object, timeout: float) -> chess.engine.PlayResult:
    """`SimpleEngine.play` with a deadline: python-chess sets none for clock limits, and a
    hung engine must end the game (as a loss), not the match."""
    coro = asyncio.wait_for(engine.protocol.play(board, limit, game=game), timeout)
    return asyncio.run_coroutine_threadsafe(coro, engine.protocol.loop).result()


def exit_code(engine: chess.engine.SimpleEngine) -> int | None:
    """The engine process's exit code once it has ended, else None."""
    done = engine.protocol.returncode
    try:
        return done.result() if done.done() else None
    except Exception:  # noqa: BLE001 - cancelled or failed: no code to report
        return None


def play_game(number: int, opening: Opening, ox88_white: bool, args, stop: threading.Event) -> GameResult:
    board = opening.board.copy()
    base, inc = args.base, args.inc
    clocks = {chess.WHITE: base, chess.BLACK: base}
    ox88_color = chess.WHITE if ox88_white else chess.BLACK
    res = GameResult(number, opening.index, ox88_white, "*", "", 0, 0.0)
    engines: dict[bool, chess.engine.SimpleEngine] = {}
    game_id = object()  # python-chess sends `ucinewgame` when this changes

    def finish(result: str, reason: str) -> GameResult:
        res.result, res.reason = result, reason
        res.plies = board.ply() - opening.board.ply()
        if result == "1/2-1/2":
            res.ox88_score = 0.5
        else:
            winner = chess.WHITE if result == "1-0" else chess.BLACK
            res.ox88_score = 1.0 if winner == ox88_color else 0.0
        res.pgn = make_pgn(opening, board, res, args)
        return res

    try:
        try:
            engines[ox88_color] = chess.engine.SimpleEngine.popen_uci([args.engine, *args.engine_args])
            configure(engines[ox88_color], args.ox88_options)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError, TimeoutError) as e:
            res.crash = True
            return finish("0-1" if ox88_white else "1-0", f"ox88 failed to start: {e}")
        sf = chess.engine.SimpleEngine.popen_uci(shlex.split(args.stockfish))
        engines[not ox88_color] = sf
        # Move Overhead: python-chess and a busy machine add latency the clock here counts;
        # the opponent must not lose on time for it (that would flatter ox88). 100 ms at
        # 10 s and more, a hundredth of the base below that (at least 10 ms): Stockfish
        # reserves the overhead for each of the ~50 moves it plans, so a fixed 100 ms at
        # 2 s + 0.02 s left it 1 ms a move and it lost every game.
        overhead = max(10, min(100, int(args.base * 10)))
        sf_options = {"Threads": "1", "Hash": "16", "Move Overhead": str(overhead)}
        if args.elo:
            sf_options.update({"UCI_LimitStrength": "true", "UCI_Elo": str(args.elo)})
        sf_options.update(args.sf_options)
        configure(sf, sf_options)

        while not stop.is_set():
            outcome = board.outcome(claim_draw=True)
            if outcome is not None:
                return finish(outcome.result(), outcome.termination.name.lower())
            if board.ply() - opening.board.ply() >= MAX_PLIES:
                return finish("1/2-1/2", f"adjudicated after {MAX_PLIES} plies")
            side = board.turn
            is_ox88 = side == ox88_color
            name = "ox88" if is_ox88 else opponent_label(args)
            lose = "0-1" if side == chess.WHITE else "1-0"
            limit = chess.engine.Limit(
                white_clock=clocks[chess.WHITE],
                black_clock=clocks[chess.BLACK],
                white_inc=inc,
                black_inc=inc,
            )
            started = time.monotonic()
            try:
                played = play_bounded(engines[side], board, limit, game_id, clocks[side] + HANG_GRACE)
            except chess.engine.EngineTerminatedError as e:
                if is_ox88:
                    res.crash = True
                else:
                    res.opponent_fault = f"crash: {e}"
                return finish(lose, f"{name} crashed: {e}")
            except chess.engine.EngineError as e:
                # python-chess refuses a best move that is not legal here.
                if is_ox88:
                    res.illegal = True
                else:
                    res.opponent_fault = f"illegal move: {e}"
                return finish(lose, f"{name} sent an illegal move: {e}")
            except (TimeoutError, asyncio.TimeoutError):
                if is_ox88:
                    res.time_loss = True
                else:
                    res.opponent_fault = "hang"
                return finish(lose, f"{name} did not answer (hang)")
            used = time.monotonic() - started
            left = clocks[side] - used
            if is_ox88 and left < 0:
                res.max_overshoot_ms = max(res.max_overshoot_ms, -left * 1000.0)
            if left < -args.margin:
                if is_ox88:
                    res.time_loss = True
                else:
                    res.opponent_fault = "time loss"
                return finish(lose, f"{name} lost on time (used {used * 1000:.0f} ms of "
                                    f"{clocks[side] * 1000:.0f} ms, inc {inc * 1000:.0f} ms)")
            if is_ox88:
                res.min_clock_ms = min(res.min_clock_ms, max(left, 0.0) * 1000.0)
            clocks[side] = max(left, 0.0) + inc
            res.times.append((used, max(left, 0.0), is_ox88))
            move = played.move
            if move is None or move not in board.legal_moves:
                if is_ox88:
                    res.illegal = True
                else:
                    res.opponent_fault = f"illegal move {move}"
                return finish(lose, f"{name} sent no legal move ({move})")
            board.push(move)
        return finish("*", "interrupted")
    finally:
        for color, e in engines.items():
            try:
                e.quit()
            except Exception:  # noqa: BLE001 - a dead engine cannot be quit; nothing to do
                try:
                    e.close()
                except Exception:  # noqa: BLE001
                    pass
            # A process that ends badly after `quit` (a panic on the way out) crashed too.
            code = exit_code(e)
            if color == ox88_color and code not in (None, 0) and not res.crash:
                res.crash = True
                res.reason += f"; ox88 exited with code {code} after quit"


def opponent_label(args) -> str:
    """The opponent's name: `--name`, else Stockfish with its UCI_Elo (or full strength)."""
    if args.name:
        return args.name
    return f"Stockfish (UCI_Elo {args.elo})" if args.elo else "Stockfish (full strength)"


def make_pgn(opening: Opening, board: chess.Board, res: GameResult, args) -> str:
    game = chess.pgn.Game()
    ox88, sf = "ox88", opponent_label(args)
    game.headers["Event"] = f"ox88 match {args.base:g}+{args.inc:g}"
    game.headers["Round"] = str(res.number)
    game.headers["White"] = ox88 if res.ox88_white else sf
    game.headers["Black"] = sf if res.ox88_white else ox88
    game.headers["Result"] = res.result
    game.headers["Termination"] = res.reason
    game.headers["Opening"] = f"book #{opening.index + 1}"
    # With the opening's moves known the game starts from the initial position; otherwise
    # from the opening's FEN. Either way `board.move_stack` holds every move from there.
    if not opening.board.move_stack:
        game.setup(opening.board)
    node = game
    # The moves after the opening are the ones played on the clock (the last len(times)).
    first_timed = len(board.move_stack) - len(res.times)
    for i, m in enumerate(board.move_stack):
        node = node.add_variation(m)
        if i >= first_timed:
            used, left, _ = res.times[i - first_timed]
            h, rest = divmod(left, 3600)
            mnt, sec = divmod(rest, 60)
            node.comment = f"[%clk {int(h)}:{int(mnt):02d}:{sec:04.1f}] [%emt {used:.3f}]"
    return str(game)


def elo(score: float) -> float:
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: no "-0"


def elo_estimate(w: int, d: int, l: int) -> str:
    n = w + d + l
    if n == 0:
        return "no games"
    p = (w + 0.5 * d) / n
    # Standard error of the mean score per game (trinomial), then a 95% interval mapped
    # through the logistic curve; the interval is asymmetric in Elo, so both ends are shown.
    var = (w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * (0 - p) ** 2) / n
    se = math.sqrt(var / n)
    lo, hi = max(p - 1.96 * se, 1e-9), min(p + 1.96 * se, 1 - 1e-9)
    # A clean sweep has no spread to measure; the exact one-sided 95% bound of a binomial
    # with n wins out of n (p^n = 0.05) still says how far the result reaches.
    sweep = 0.05 ** (1.0 / n)
    if p <= 0.0:
        return f"score 0%: below {elo(1 - sweep):+.0f} (95% bound); play a weaker opponent"
    if p >= 1.0:
        return f"score 100%: above {elo(sweep):+.0f} (95% bound); play a stronger opponent"
    return f"{elo(p):+.0f} (95%: {elo(lo):+.0f} .. {elo(hi):+.0f}), score {100 * p:.1f}%"


def parse_tc(text: str) -> tuple[float, float]:
    try:
        base, _, inc = text.partition("+")
        return float(base), float(inc or 0)
    except ValueError:
        sys.exit(f"--tc expects seconds[+increment], like 10+0.1; got {text!r}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=os.environ.get("OX88", str(DEFAULT_ENGINE)), help="ox88 binary (default: target/release/ox88, or $OX88)")
    ap.add_argument("--engine-args", nargs="*", default=["uci"], help="arguments for ox88 (default: uci)")
    ap.add_argument("--stockfish", default=DEFAULT_STOCKFISH, help="the opponent's binary and arguments, e.g. '/usr/games/toga2' or 'gnuchess --uci' (with --elo 0)")
    ap.add_argument("--name", help="the opponent's name in the output and the PGN (default: Stockfish and its UCI_Elo)")
    ap.add_argument("--elo", type=int, default=1350, help="Stockfish UCI_Elo with UCI_LimitStrength (Stockfish 15.1: 1350..2850); 0 = full strength")
    ap.add_argument("--games", type=int, default=100, help="number of games (each opening twice, colours swapped)")
    ap.add_argument("--tc", default="10+0.1", help="time control, seconds+increment (default 10+0.1)")
    ap.add_argument("--margin", type=float, default=0.0, help="seconds a side may overstep before losing on time (default 0)")
    ap.add_argument("--concurrency", type=int, default=1, help="games played at once (default 1; the machine has 2 cores)")
    ap.add_argument("--openings", default=str(DEFAULT_OPENINGS), help="EPD file of start positions")
    ap.add_argument("--first-opening", type=int, default=0, help="index of the first opening used")
    ap.add_argument("--option", action="append", default=[], help="ox88 UCI option Name=Value (repeatable)")
    ap.add_argument("--sf-option", action="append", default=[], help="Stockfish UCI option Name=Value (repeatable)")
    ap.add_argument("--pgn", help="write all games to this PGN file")
    ap.add_argument("--debug", action="store_true", help="log every UCI line (python-chess debug logging)")
    args = ap.parse_args()

    args.base, args.inc = parse_tc(args.tc)
    args.ox88_options = parse_options(args.option)
    args.sf_options = parse_options(args.sf_option)
    if args.debug:
        logging.basicConfig(level=logging.DEBUG)
    if not Path(args.engine).exists():
        sys.exit(f"{args.engine} not found: run `cargo build --release` first or pass --engine")
    opponent = shlex.split(args.stockfish)
    if not opponent or shutil.which(opponent[0]) is None:
        sys.exit(f"{args.stockfish} not found: apt-get install stockfish, or pass --stockfish")

    openings = load_openings(Path(args.openings))
    jobs = []
    for g in range(args.games):
        op = openings[(args.first_opening + g // 2) % len(openings)]
        jobs.append((g + 1, op, g % 2 == 0))

    sf_name = opponent_label(args)
    print(f"ox88 vs {sf_name}: {args.games} games at {args.base:g}s+{args.inc:g}s, "
          f"concurrency {args.concurrency}, openings {args.openings}", flush=True)

    # Ctrl-C or SIGTERM: games in progress end at their next move, the summary still prints.
    # (A shell starts background jobs with SIGINT ignored; installing the handler undoes that.)
    def interrupt(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, interrupt)
    stop = threading.Event()
    results: list[GameResult] = []
    started = time.monotonic()
    lock = threading.Lock()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.concurrency)) as pool:
        futures = [pool.submit(play_game, n, op, white, args, stop) for n, op, white in jobs]
        try:
            for fut in concurrent.futures.as_completed(futures):
                r = fut.result()
                with lock:
                    results.append(r)
                    w = sum(x.ox88_score == 1.0 for x in results)
                    d = sum(x.ox88_score == 0.5 for x in results)
                    l = len(results) - w - d
                flags = [f for f, on in (("ILLEGAL", r.illegal), ("CRASH", r.crash), ("TIME", r.time_loss)) if on]
                if r.opponent_fault:
                    flags.append(f"stockfish {r.opponent_fault}")
                colour = "white" if r.ox88_white else "black"
                print(f"game {r.number:>3}: ox88 {colour:<5} opening #{r.opening + 1:<3} {r.result:<7} "
                      f"{r.reason} ({r.plies} plies)  [+{w} ={d} -{l}]"
                      + (f"  {' '.join(flags)}" if flags else ""), flush=True)
        except KeyboardInterrupt:
            stop.set()
            for f in futures:
                f.cancel()
            print("interrupted; finishing games in progress", flush=True)

    results.sort(key=lambda r: r.number)
    if args.pgn:
        with open(args.pgn, "w", encoding="utf-8") as f:
            for r in results:
                f.write(r.pgn + "\n\n")
    done = [r for r in results if r.result != "*"]
    w = sum(r.ox88_score == 1.0 for r in done)
    d = sum(r.ox88_score == 0.5 for r in done)
    l = len(done) - w - d
    illegal = sum(r.illegal for r in done)
    crashes = sum(r.crash for r in done)
    time_losses = sum(r.time_loss for r in done)
    overshoot = max((r.max_overshoot_ms for r in done), default=0.0)
    lowest = min((r.min_clock_ms for r in done), default=math.inf)
    faults = [f"game {r.number}: {r.opponent_fault}" for r in done if r.opponent_fault]
    minutes = (time.monotonic() - started) / 60
    print()
    print(f"ox88 vs {sf_name}, {args.base:g}+{args.inc:g}, {len(done)} games in {minutes:.1f} min"
          f" ({minutes * 60:.0f} s)")
    print(f"W/D/L (ox88): {w}/{d}/{l}")
    print(f"Elo difference: {elo_estimate(w, d, l)}")
    if args.elo:
        print("  (relative to Stockfish's UCI_Elo scale, which is calibrated at longer time controls)")
    print(f"illegal moves: {illegal}, crashes: {crashes}, time losses: {time_losses}"
          f" (worst overshoot {overshoot:.0f} ms; lowest clock after an ox88 move "
          f"{lowest:.0f} ms)")
    # Time use: how long each side thought on average, and what it had left at the end
    # (time not used is strength left on the table; too little is a risk).
    for label, mine in (("ox88", True), (sf_name, False)):
        used = [t for r in done for (t, _, ox) in r.times if ox == mine]
        ends = [next((left for (_, left, ox) in reversed(r.times) if ox == mine), None)
                for r in done]
        ends = [e for e in ends if e is not None]
        if used and ends:
            print(f"time use, {label}: {1000 * sum(used) / len(used):.0f} ms a move on average,"
                  f" {sum(ends) / len(ends):.1f} s left at the end of a game on average")
    if faults:
        print(f"{sf_name} faults: " + "; ".join(faults))
    return 1 if illegal or crashes or time_losses else 0


if __name__ == "__main__":
    sys.exit(main())
