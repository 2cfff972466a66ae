#!/usr/bin/env python3
"""How much the shown E moves from one ply to the next along real games, against Stockfish.

    scripts/e_zigzag.py make [--pgn ../shared/data/openings/8moves_v3_sample500.pgn] \
        [--out scripts/data/zigzag_sf.pgn] [--games 100] [--skip 0] \
        [--player stockfish|PATH-TO-OX88] [--nodes 20000]
    scripts/e_zigzag.py measure [--pgn scripts/data/zigzag_sf.pgn] [--plies 40] \
        [--engine now=target/release/ox88] [--engine before=/tmp/ox88-before] \
        [--stockfish /usr/games/stockfish]

`make` takes `--games` balanced openings (after the first `--skip`) and plays each on to ply 40 with a UCI
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
  correlation; and the same over the quiet positions alone (not in check, no capture that
  plainly wins material for either side), where a static evaluation is not caught in the
  middle of an exchange: Stockfish's static eval counts the piece just taken, an E that
  settles the exchange first does not, and over all positions that difference alone pulls
  the slope down; `scale` is sd(E) / sd(SF) over the quiet positions, the slope that does
  not shrink with the two evaluations' disagreement (least squares gives correlation times
  it); `at end` is the least-squares slope against Stockfish's static eval of the position
  E actually scores (where ox88 says `captures in flight: ...`, the position after those
  captures), over all positions; with `--sf-depth N`, also the slope against Stockfish's search score at
  depth N (a settled verdict, the exchange played out) over all positions;
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


def search_white(engine: Uci, fen: str, depth: int) -> int | None:
    """A UCI engine's search score at `depth`, centipawns from White's view (None for a mate)."""
    engine.send(f"position fen {fen}")
    engine.send(f"go depth {depth}")
    score = None
    for line in engine.wait(lambda l: l.startswith("bestmove")):
        m = re.search(r"score (cp|mate) (-?\d+)", line)
        if m:
            score = int(m.group(2)) if m.group(1) == "cp" else None
    if score is None:
        return None
    return score if chess.Board(fen).turn == chess.WHITE else -score


class Ox88(Uci):
    def __init__(self, path: str):
        super().__init__(path, ["uci"])
        self.quiet_end: dict[str, str] = {}

    def eval_white(self, fen: str) -> int | None:
        self.send(f"position fen {fen}")
        self.send("eval")
        lines = self.wait(lambda l: l.startswith("E: "))
        text = lines[-1][3:].strip()
        # Where E settles captures first, the position it scores: `fen` after them.
        self.quiet_end[fen] = fen
        for line in lines:
            if line.startswith("captures in flight: "):
                board = chess.Board(fen)
                for san in line[len("captures in flight: "):].split(" (")[0].split():
                    board.push_san(san)
                self.quiet_end[fen] = board.fen()
        return int(text) if re.fullmatch(r"-?\d+", text) else None


def make(args: argparse.Namespace) -> None:
    player: Uci = Stockfish(args.player) if "stockfish" in args.player else Ox88(args.player)
    games = 0
    with open(args.pgn) as f, open(args.out, "w") as out:
        for _ in range(args.skip):
            chess.pgn.read_game(f)
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


VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 100}


def quiet(fen: str) -> bool:
    """Nothing in flight: the side to move is not in check and neither side has a capture
    that plainly wins material (of an undefended piece or of a piece worth more than the
    capturer; promotions count). Here a static evaluation means what it says."""
    board = chess.Board(fen)
    if board.is_check():
        return False
    for side in (board.turn, not board.turn):
        b = board.copy(stack=False)
        b.turn = side
        b.ep_square = None
        for m in b.generate_pseudo_legal_moves():
            if m.promotion is not None:
                return False
            if not b.is_capture(m) or b.is_en_passant(m):
                continue
            target, mover = b.piece_at(m.to_square), b.piece_at(m.from_square)
            if target is None or mover is None:
                continue
            if not b.is_attacked_by(target.color, m.to_square) or VALUE[target.piece_type] > VALUE[mover.piece_type]:
                return False
    return True


def scale(xs: list[float], ys: list[float]) -> float:
    """sd(ys) / sd(xs): the slope of the reduced major axis, which unlike least squares does
    not shrink when the reference itself is noisy."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    return math.sqrt(sum((y - my) ** 2 for y in ys) / sum((x - mx) ** 2 for x in xs))


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
    calm = [[quiet(x) for x in g] for g in games]
    sf_end: dict[str, int | None] = {}
    searched = None
    if args.sf_depth:
        searched = [[search_white(sf, x, args.sf_depth) for x in g] for g in games]
    positions = sum(len(g) for g in games)
    print(f"{len(games)} games, {positions} positions (plies 1-{args.plies})")
    print(
        f"{'E':<12}{'mean |step|':>12}{'vs SF':>8}{'slope':>8}{'corr':>7}"
        f"{'quiet slope':>12}{'corr':>7}{'scale':>7}{'at end':>7}{'corr':>6}{'after W':>9}{'after B':>9}"
        + (f"{'vs search':>10}{'corr':>7}" if searched else "")
    )
    for label in ["stockfish"] + [l for l, _ in engines]:
        steps, ref_steps, xs, ys, qx, qy, sx, sy, ex, ey = [], [], [], [], [], [], [], [], [], []
        eng = dict(engines).get(label)
        after = {True: [], False: []}  # keyed by "White just moved"
        for gi, g in enumerate(games):
            mine, ref = values[label][gi], values["stockfish"][gi]
            for i in range(len(g)):
                if mine[i] is not None and ref[i] is not None and abs(ref[i]) <= 600:
                    xs.append(ref[i])
                    ys.append(mine[i])
                    if searched and searched[gi][i] is not None and abs(searched[gi][i]) <= 600:
                        sx.append(searched[gi][i])
                        sy.append(mine[i])
                    end = eng.quiet_end.get(g[i], g[i]) if eng else g[i]
                    at_end = sf_end.setdefault(end, sf.eval_white(end))
                    if at_end is not None and abs(at_end) <= 600:
                        ex.append(at_end)
                        ey.append(mine[i])
                    if calm[gi][i]:
                        qx.append(ref[i])
                        qy.append(mine[i])
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
        qslope, qcorr = slope_corr(qx, qy)
        aw = sum(after[True]) / len(after[True])
        ab = sum(after[False]) / len(after[False])
        tail = ""
        if searched:
            sslope, scorr = slope_corr(sx, sy)
            tail = f"{sslope:>10.2f}{scorr:>7.2f}"
        print(
            f"{label:<12}{mean:>12.1f}{ratio:>8.2f}{slope:>8.2f}{corr:>7.2f}{qslope:>12.2f}{qcorr:>7.2f}{scale(qx, qy):>7.2f}"
            f"{slope_corr(ex, ey)[0]:>7.2f}{slope_corr(ex, ey)[1]:>6.2f}"
            f"{aw:>+9.1f}{ab:>+9.1f}{tail}"
        )
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
    mk.add_argument("--skip", type=int, default=0, help="openings passed over first")
    mk.add_argument("--player", default="/usr/games/stockfish")
    mk.add_argument("--nodes", type=int, default=20000)
    ms = sub.add_parser("measure")
    ms.add_argument("--pgn", default="scripts/data/zigzag_sf.pgn")
    ms.add_argument("--plies", type=int, default=40)
    ms.add_argument("--engine", action="append", default=[])
    ms.add_argument("--stockfish", default="/usr/games/stockfish")
    ms.add_argument("--sf-depth", type=int, default=0, help="also the slope against Stockfish's search at this depth")
    args = ap.parse_args()
    {"make": make, "measure": measure}[args.cmd](args)


if __name__ == "__main__":
    main()
