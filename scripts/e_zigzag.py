#!/usr/bin/env python3
"""How much the shown E moves from one ply to the next along real games, against Stockfish.

    scripts/e_zigzag.py make [--pgn ../shared/data/openings/8moves_v3_sample500.pgn] \
        [--out scripts/data/zigzag_sf.pgn] [--games 100] [--player stockfish|PATH-TO-OX88] \
        [--nodes 20000]
    scripts/e_zigzag.py measure [--pgn scripts/data/zigzag_sf.pgn] [--plies 40] \
        [--engine now=target/release/ox88] [--engine before=/tmp/ox88-before] \
        [--stockfish /usr/games/stockfish]

`make` takes the first `--games` balanced openings and plays each on to ply 40 with a UCI
engine at a fixed node count per move (Stockfish by default, or an ox88 binary), writing the
games as PGN: a set of real middlegame play, each game once.

`measure` walks the first `--plies` positions of every game (the position after each move)
and asks each engine for its static E from White's view: ox88's UCI `eval` (its last line
`E: N`, the same E as `ox88 eval`) and Stockfish 15.1's UCI `eval` ("Final evaluation").
Positions in check have no Stockfish evaluation and break the chain there. It prints, per
engine:

- mean |E(ply n+1) - E(ply n)| over consecutive positions that both have a value, and its
  ratio to Stockfish's on the same pairs (the zig-zag figure: at most 1.25 is the goal);
- the least-squares slope of E against Stockfish's E over all positions with |SF| <= 600 cp
  (0.8-1.25 is the goal, so that a smaller zig-zag is not bought by shrinking E) and the
  correlation;
- the mean signed change after a White move and after a Black move (a side-to-move bias
  shows as opposite signs).

Needs python-chess (`pip install chess`) and Stockfish (`apt-get install stockfish`).
"""

import argparse
import math
import re
import subprocess
import sys

import chess
import chess.pgn


class Uci:
    def __init__(self, path: str, args: list[str] | None = None):
        self.p = subprocess.Popen(
            [path] + (args or []), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1,
        )
        self.send("uci")
        self.wait(lambda l: l.startswith("uciok"))

    def send(self, cmd: str) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()

    def wait(self, done) -> list[str]:
        assert self.p.stdout is not None
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine ended")
            lines.append(line.rstrip("\n"))
            if done(lines[-1]):
                return lines

    def bestmove(self, fen: str, nodes: int) -> str:
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        last = self.wait(lambda l: l.startswith("bestmove"))[-1]
        return last.split()[1]

    def quit(self) -> None:
        self.send("quit")
        self.p.wait(timeout=10)


class Stockfish(Uci):
    def eval_white(self, fen: str) -> int | None:
        self.send(f"position fen {fen}")
        self.send("eval")
        for line in self.wait(lambda l: l.startswith("Final evaluation")):
            if line.startswith("Final evaluation"):
                m = re.search(r"([+-]?\d+\.\d+)", line)
                return None if m is None else round(float(m.group(1)) * 100)
        return None


class Ox88(Uci):
    def __init__(self, path: str):
        super().__init__(path, ["uci"])

    def eval_white(self, fen: str) -> int | None:
        self.send(f"position fen {fen}")
        self.send("eval")
        last = self.wait(lambda l: l.startswith("E: "))[-1]
        text = last[3:].strip()
        return int(text) if re.fullmatch(r"-?\d+", text) else None


def make(args: argparse.Namespace) -> None:
    player: Uci = Stockfish(args.player) if "stockfish" in args.player else Ox88(args.player)
    games = 0
    with open(args.pgn) as f, open(args.out, "w") as out:
        while games < args.games:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
            while board.ply() < 40 and not board.is_game_over():
                board.push_uci(player.bestmove(board.fen(), args.nodes))
            played = chess.pgn.Game.from_board(board)
            played.headers["Event"] = f"e_zigzag set, {args.player} at {args.nodes} nodes"
            print(played, file=out, end="\n\n")
            games += 1
    player.quit()
    print(f"{games} games in {args.out}", file=sys.stderr)


def slope_corr(xs: list[float], ys: list[float]) -> tuple[float, float]:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    return sxy / sxx, sxy / math.sqrt(sxx * syy)


def measure(args: argparse.Namespace) -> None:
    sf = Stockfish(args.stockfish)
    engines = [(label, Ox88(path)) for label, path in (e.split("=", 1) for e in args.engine)]
    games = []
    with open(args.pgn) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            board = game.board()
            fens = []
            for move in game.mainline_moves():
                board.push(move)
                fens.append(board.fen())
                if len(fens) >= args.plies:
                    break
            games.append(fens)
    # values[label][game][ply] (None where the evaluator has none)
    values: dict[str, list[list[int | None]]] = {"stockfish": [[sf.eval_white(x) for x in g] for g in games]}
    for label, eng in engines:
        values[label] = [[eng.eval_white(x) for x in g] for g in games]
    positions = sum(len(g) for g in games)
    print(f"{len(games)} games, {positions} positions (plies 1-{args.plies})")
    print(
        f"{'E':<12}{'mean |step|':>12}{'vs SF':>8}{'slope':>8}{'corr':>7}"
        f"{'after W':>9}{'after B':>9}"
    )
    for label in ["stockfish"] + [l for l, _ in engines]:
        steps, ref_steps, xs, ys = [], [], [], []
        after = {True: [], False: []}  # keyed by "White just moved"
        for gi, g in enumerate(games):
            mine, ref = values[label][gi], values["stockfish"][gi]
            for i in range(len(g)):
                if mine[i] is not None and ref[i] is not None and abs(ref[i]) <= 600:
                    xs.append(ref[i])
                    ys.append(mine[i])
                if i == 0:
                    continue
                pair = (mine[i - 1], mine[i], ref[i - 1], ref[i])
                if None in pair:
                    continue
                steps.append(abs(mine[i] - mine[i - 1]))
                ref_steps.append(abs(ref[i] - ref[i - 1]))
                white_moved = chess.Board(g[i]).turn == chess.BLACK
                after[white_moved].append(mine[i] - mine[i - 1])
        mean = sum(steps) / len(steps)
        ratio = mean / (sum(ref_steps) / len(ref_steps))
        slope, corr = slope_corr(xs, ys)
        aw = sum(after[True]) / len(after[True])
        ab = sum(after[False]) / len(after[False])
        print(f"{label:<12}{mean:>12.1f}{ratio:>8.2f}{slope:>8.2f}{corr:>7.2f}{aw:>+9.1f}{ab:>+9.1f}")
    sf.quit()
    for _, eng in engines:
        eng.quit()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    mk = sub.add_parser("make")
    mk.add_argument("--pgn", default="../shared/data/openings/8moves_v3_sample500.pgn")
    mk.add_argument("--out", default="scripts/data/zigzag_sf.pgn")
    mk.add_argument("--games", type=int, default=100)
    mk.add_argument("--player", default="/usr/games/stockfish")
    mk.add_argument("--nodes", type=int, default=20000)
    ms = sub.add_parser("measure")
    ms.add_argument("--pgn", default="scripts/data/zigzag_sf.pgn")
    ms.add_argument("--plies", type=int, default=40)
    ms.add_argument("--engine", action="append", default=[])
    ms.add_argument("--stockfish", default="/usr/games/stockfish")
    args = ap.parse_args()
    {"make": make, "measure": measure}[args.cmd](args)


if __name__ == "__main__":
    main()
