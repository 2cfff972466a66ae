#!/usr/bin/env python3
"""Precision and recall of `ox88 review`'s marks against Stockfish 15.1 at depth 16.

The judge: Stockfish at a fixed depth (16) evaluates every position of every game. Each
move's loss is the drop in the mover's winning chances between the position before it and
the position after it, on lichess's scale: 2 / (1 + e^(-0.00368208 cp)) - 1, centipawns
clipped to +-1000, a mate as +-1000. Stockfish's mark for the move uses lichess's
thresholds:

    ?!  loss >= 0.1      ?  loss >= 0.2      ??  loss >= 0.3

Against that judge:

* precision: of ox88's marks (`?!`, `?`, `??`), the share Stockfish marks at least `?!`;
* recall: of Stockfish's `?` and `??`, the share ox88 marks at all.

`label` fills the cache of Stockfish's evaluations (one per position, keyed by depth, FEN
and the last moves so that repetitions count) for the games of the given PGN files;
`measure` runs `ox88 review` on every game (with the given review arguments, e.g.
`--review-arg=--deep`), reads the annotated PGN it writes and prints the table row, the
misses and false marks with `--verbose`, and the review's wall time (and the CPU time of
the review process) per game. Stockfish runs at nice 10 on one thread; the cache lives in
`--cache` (default target/review-sf16-cache.json), so a rerun with another ox88 binary
costs only the reviews.

The games: scripts/data/review-gm.pgn (twelve grandmaster games),
scripts/data/review-sf-tune.pgn and scripts/data/review-sf.pgn (ten games each of Stockfish
at limited strength, the first to tune on, the second to report); see
scripts/review_false_marks.py for where they come from.

Examples:
    python3 scripts/review_precision.py label scripts/data/review-gm.pgn scripts/data/review-sf.pgn
    python3 scripts/review_precision.py measure --review-arg=--deep scripts/data/review-sf.pgn
"""

from __future__ import annotations

import argparse
import io
import json
import math
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import chess
import chess.engine
import chess.pgn

STOCKFISH = "/usr/games/stockfish"
MARKS = {6: "?!", 2: "?", 4: "??"}
THRESHOLD = {"?!": 0.1, "?": 0.2, "??": 0.3}


def chances(cp: int) -> float:
    cp = max(-1000, min(1000, cp))
    return 2.0 / (1.0 + math.exp(-0.00368208 * cp)) - 1.0


def stockfish_mark(loss: float) -> str | None:
    for mark in ("??", "?", "?!"):
        if loss >= THRESHOLD[mark]:
            return mark
    return None


class Judge:
    """Stockfish at a fixed depth, its evaluations cached by position."""

    def __init__(self, depth: int, cache: Path, nice: int = 10):
        self.depth = depth
        self.nice = nice
        self.cache_path = cache
        self.cache = json.loads(cache.read_text()) if cache.exists() else {}
        self.engine = None
        self.fresh = 0

    def close(self) -> None:
        if self.engine:
            self.engine.quit()
        self.save()

    def save(self) -> None:
        self.cache_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.cache_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.cache))
        tmp.replace(self.cache_path)

    def cp(self, board: chess.Board) -> int:
        """Centipawns for the side to move (a mate as +-100000)."""
        if board.is_checkmate():
            return -100000
        if board.is_stalemate() or board.is_insufficient_material():
            return 0
        key = f"{self.depth} {board.fen()} {' '.join(m.uci() for m in board.move_stack[-8:])}"
        if key not in self.cache:
            if self.engine is None:
                self.engine = chess.engine.SimpleEngine.popen_uci(["nice", "-n", str(self.nice), STOCKFISH])
                self.engine.configure({"Threads": 1, "Hash": 64})
            info = self.engine.analyse(board, chess.engine.Limit(depth=self.depth))
            self.cache[key] = info["score"].pov(board.turn).score(mate_score=100000)
            self.fresh += 1
            if self.fresh % 50 == 0:
                self.save()
        return self.cache[key]

    def loss(self, before: chess.Board, move: chess.Move) -> float:
        after = before.copy()
        after.push(move)
        return chances(self.cp(before)) - chances(-self.cp(after))


def games_of(path: str, limit: int | None = None) -> list[chess.pgn.Game]:
    """The games of a PGN file, the first `limit` of them when given."""
    games = []
    with open(path) as f:
        while (g := chess.pgn.read_game(f)) is not None and (limit is None or len(games) < limit):
            games.append(g)
    return games


def label(args: argparse.Namespace) -> None:
    judge = Judge(args.depth, Path(args.cache), args.nice)
    start = time.time()
    try:
        for path in args.pgn:
            for number, game in enumerate(games_of(path, args.games), 1):
                if number < args.first:
                    continue
                board = game.board()
                judge.cp(board)
                for move in game.mainline_moves():
                    board.push(move)
                    judge.cp(board)
                print(f"{Path(path).name} #{number}: {judge.fresh} evaluated, "
                      f"{time.time() - start:.0f} s", file=sys.stderr, flush=True)
    finally:
        judge.close()


def review(args: argparse.Namespace, path: str, number: int) -> tuple[str, str, float, float]:
    """Runs `ox88 review --table` on one game: its annotated PGN, its table (every move's
    evaluation and loss, read by `tune`), wall time and CPU time (user and system, from
    /usr/bin/time). With `--runs`, a run already there is read back instead."""
    saved = None
    if args.runs:
        saved = Path(args.runs) / f"{Path(path).stem}-{number}.pgn"
        if saved.exists() and saved.with_suffix(".table").exists():
            wall, cpu = map(float, saved.with_suffix(".time").read_text().split())
            return saved.read_text(), saved.with_suffix(".table").read_text(), wall, cpu
    with tempfile.TemporaryDirectory() as tmp:
        pgn_path = Path(tmp) / "review.pgn"
        cmd = ["/usr/bin/time", "-f", "%U %S", "nice", "-n", str(args.nice), args.ox88,
               "review", path, "--game", str(number), "--table", "--out", str(pgn_path),
               *args.review_arg]
        t0 = time.time()
        run = subprocess.run(cmd, capture_output=True, text=True, check=True)
        wall = time.time() - t0
        pgn = pgn_path.read_text()
    user, system = map(float, run.stderr.strip().splitlines()[-1].split())
    if saved:
        saved.parent.mkdir(parents=True, exist_ok=True)
        saved.write_text(pgn)
        saved.with_suffix(".table").write_text(run.stdout)
        saved.with_suffix(".time").write_text(f"{wall} {user + system}")
    return pgn, run.stdout, wall, user + system


def measure(args: argparse.Namespace) -> None:
    marks = agreed = sf_bad = found = sf_any = plies = 0
    by_mark = {m: [0, 0] for m in THRESHOLD}  # ox88's marks of that kind, agreed
    games = 0
    wall = cpu = 0.0
    todo = [(path, n) for path in args.pgn
            for n in range(1, len(games_of(path, args.games)) + 1)]
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        runs = list(pool.map(lambda t: review(args, *t), todo))
    if args.reviews_only:
        return
    judge = Judge(args.depth, Path(args.cache), args.nice)
    confirm = (Judge(args.confirm_depth, Path(args.confirm_cache), args.nice)
               if args.confirm_depth else None)
    confirmed = confirmed_found = 0
    try:
        for (path, number), (text, _table, w, c) in zip(todo, runs):
            wall += w
            cpu += c
            game = chess.pgn.read_game(io.StringIO(text))
            games += 1
            board = game.board()
            for node in game.mainline():
                ours = next((MARKS[n] for n in node.nags if n in MARKS), None)
                loss = judge.loss(board, node.move)
                theirs = stockfish_mark(loss)
                num = f"{board.fullmove_number}{'.' if board.turn else '...'}"
                san = board.san(node.move)
                if ours:
                    marks += 1
                    by_mark[ours][0] += 1
                    if theirs:
                        agreed += 1
                        by_mark[ours][1] += 1
                    elif args.verbose:
                        print(f"  false  {Path(path).name} #{number} {num}{san}{ours} "
                              f"sf loss {loss:.3f}", file=sys.stderr)
                if theirs:
                    sf_any += 1
                if theirs in ("?", "??") and confirm and confirm.loss(board, node.move) >= 0.2:
                    confirmed += 1
                    confirmed_found += bool(ours)
                if theirs in ("?", "??"):
                    sf_bad += 1
                    if ours:
                        found += 1
                    elif args.verbose:
                        print(f"  missed {Path(path).name} #{number} {num}{san} "
                              f"sf {theirs} loss {loss:.3f}", file=sys.stderr)
                board.push(node.move)
                plies += 1
    finally:
        judge.close()
        if confirm:
            confirm.close()
    label_ = args.label or " ".join(args.review_arg) or "(default)"
    print(f"{label_}: games {games}, ox88 marks {marks}, Stockfish marks {sf_any} "
          f"({sf_bad} ? or ??)")
    for mark, (n, a) in by_mark.items():
        print(f"  ox88 {mark:<2} {n:>3}, Stockfish agrees {a:>3}")
    precision = 100 * agreed / marks if marks else float("nan")
    recall = 100 * found / sf_bad if sf_bad else float("nan")
    print(f"precision {agreed}/{marks} = {precision:.0f}%   recall {found}/{sf_bad} = "
          f"{recall:.0f}%   time per game {wall / max(games, 1):.1f} s wall, "
          f"{cpu / max(games, 1):.1f} s CPU; a 40-move game {80 * cpu / max(plies, 1):.1f} s CPU")
    if confirm:
        print(f"recall of the ? and ?? Stockfish confirms at depth {args.confirm_depth}: "
              f"{confirmed_found}/{confirmed} = {100 * confirmed_found / max(confirmed, 1):.0f}%")


ROW = re.compile(r"\s(\S+)\s+(\d+\.\d\d)(?:\s\s(\?\?|\?!|\?|!)?)?\s*(.*)$")


def table_rows(table: str) -> list[tuple[float, str | None, bool]]:
    """A review's `--table`, one (loss, mark, markable) a move in game order: markable is
    false for the engine's own choice and the book's moves, which are never marked."""
    rows = []
    for line in table.splitlines()[1:]:
        m = ROW.search(line)
        if not m:
            raise ValueError(f"not a table row: {line!r}")
        mark = m.group(3) if m.group(3) != "!" else None
        note = m.group(4)
        rows.append((float(m.group(2)), mark, note not in ("engine's choice", "book")))
    return rows


def tune(args: argparse.Namespace) -> None:
    """Precision and recall of other thresholds for ox88's own losses, read from the tables
    of reviews already run (`measure --runs DIR`): what the marks would be with `?!` from
    each threshold in turn (`?` and `??` from theirs), no review run again."""
    judge = Judge(args.depth, Path(args.cache), args.nice)
    moves = []  # (ours: loss, mark, markable; Stockfish's loss)
    try:
        for path in args.pgn:
            for number, game in enumerate(games_of(path, args.games), 1):
                table = Path(args.runs) / f"{Path(path).stem}-{number}.table"
                if not table.exists():
                    continue
                rows = table_rows(table.read_text())
                board = game.board()
                for move, row in zip(game.mainline_moves(), rows):
                    moves.append((row, judge.loss(board, move)))
                    board.push(move)
    finally:
        judge.close()
    sf_bad = sum(1 for _, loss in moves if loss >= 0.2)
    print(f"{len(moves)} moves, Stockfish ? or ?? {sf_bad}")
    print("?! from   marks  precision   recall   (?! recall)")
    for t in [x / 100 for x in range(10, 21)] + [0.25, 0.3]:
        marks = agreed = found = sf_any = found_any = 0
        for (loss, mark, markable), theirs in moves:
            ours = None
            if markable:
                if mark and loss < 0.1:  # a mate rule's mark stands
                    ours = mark
                elif loss >= max(t, 0.2) or (loss >= t and loss < 0.2):
                    ours = "x"
            if ours:
                marks += 1
                agreed += theirs >= 0.1
                found += theirs >= 0.2
            sf_any += theirs >= 0.1
            found_any += bool(ours) and theirs >= 0.1
        print(f"  {t:.2f}   {marks:>6}   {100 * agreed / max(marks, 1):5.1f}%   "
              f"{100 * found / max(sf_bad, 1):5.1f}%   {100 * found_any / max(sf_any, 1):5.1f}%")


def ceiling(args: argparse.Namespace) -> None:
    """Stockfish at another depth as the reviewer, judged by Stockfish at `--depth` the same
    way ox88 is: its marks by lichess's thresholds on consecutive positions. How far two
    runs of the best engine at different depths agree says how much of the gap is the
    judge's own noise around the thresholds."""
    judge = Judge(args.depth, Path(args.cache), args.nice)
    other = Judge(args.reviewer_depth, Path(args.reviewer_cache), args.nice)
    marks = agreed = sf_bad = found = 0
    try:
        for path in args.pgn:
            for game in games_of(path, args.games):
                board = game.board()
                for move in game.mainline_moves():
                    theirs = judge.loss(board, move)
                    ours = stockfish_mark(other.loss(board, move))
                    if ours:
                        marks += 1
                        agreed += theirs >= 0.1
                    if theirs >= 0.2:
                        sf_bad += 1
                        found += bool(ours)
                    board.push(move)
    finally:
        judge.close()
        other.close()
    print(f"Stockfish depth {args.reviewer_depth} as the reviewer: marks {marks}, precision "
          f"{100 * agreed / max(marks, 1):.0f}%, recall {found}/{sf_bad} = "
          f"{100 * found / max(sf_bad, 1):.0f}%")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    lab = sub.add_parser("label", help="fill the cache of Stockfish's evaluations")
    lab.add_argument("pgn", nargs="+")
    m = sub.add_parser("measure", help="precision and recall of the review's marks")
    m.add_argument("pgn", nargs="+")
    m.add_argument("--ox88", default="target/release/ox88")
    m.add_argument("--review-arg", action="append", default=[],
                   help="an argument for `ox88 review` (repeat: --review-arg=--deep)")
    m.add_argument("--label", help="the row's name in the output")
    m.add_argument("--verbose", action="store_true", help="list false marks and misses")
    m.add_argument("--jobs", type=int, default=1, help="reviews run at once")
    m.add_argument("--runs", help="a folder keeping each review's PGN and times, read back "
                   "on a rerun (one folder per binary and arguments)")
    m.add_argument("--confirm-depth", type=int,
                   help="also the recall of the ? and ?? Stockfish still gives at this depth")
    m.add_argument("--confirm-cache", default="target/review-sf-confirm-cache.json")
    m.add_argument("--reviews-only", action="store_true",
                   help="run (and keep, with --runs) the reviews, judge nothing")
    t = sub.add_parser("tune", help="other thresholds tried on reviews already run")
    t.add_argument("pgn", nargs="+")
    t.add_argument("--runs", required=True, help="the folder of `measure --runs`")
    c = sub.add_parser("ceiling", help="Stockfish at another depth as the reviewer")
    c.add_argument("pgn", nargs="+")
    c.add_argument("--reviewer-depth", type=int, default=12)
    c.add_argument("--reviewer-cache", default="target/review-sf-reviewer-cache.json")
    lab.add_argument("--first", type=int, default=1, help="start at this game of each file")
    for s in (lab, m, t, c):
        s.add_argument("--depth", type=int, default=16, help="Stockfish's depth")
        s.add_argument("--cache", default="target/review-sf16-cache.json")
        s.add_argument("--games", type=int, help="only the first N games of each file")
        s.add_argument("--nice", type=int, default=10, help="Stockfish's nice level")
    args = p.parse_args()
    {"label": label, "measure": measure, "tune": tune, "ceiling": ceiling}[args.command](args)


if __name__ == "__main__":
    main()
