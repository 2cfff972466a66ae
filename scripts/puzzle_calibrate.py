#!/usr/bin/env python3
"""Fit the calibration that turns ox88's measure of a puzzle's difficulty into a rating on
lichess's scale (src/puzzle/difficulty.rs), from puzzles that lichess players have rated.

    ox88 puzzles rate --ladder LICHESS.csv --jobs 2 --out LADDER.csv
    python3 scripts/puzzle_calibrate.py LICHESS.csv LADDER.csv

LICHESS.csv holds rows of the lichess puzzle database (https://database.lichess.org/#puzzles,
CC0); LADDER.csv is the same file with each Rating replaced by ox88's ladder: the Elo at
which ox88's levels play the whole solution half the time. The ladder alone runs some 200
points below lichess's ratings and compresses them, since a level sees tactics that players
of its strength miss. So the script fits, by least squares, a difficulty score from the
ladder and what a player has to find:
  - the number of solver moves,
  - whether the solution ends in mate,
  - whether the first answer gives check,
  - the checks and the captures the solver could play at the first move (the plausible
    alternatives a player weighs).
A least-squares score regresses towards the mean and would squeeze the ratings into the
middle, so the score is then mapped to a rating by matching quantiles: a puzzle whose score
is at the q-th quantile of the sample's scores gets the sample's q-th quantile rating.

It prints the fit (in-sample and five-fold cross-validated mean error) and the Rust
constants for src/puzzle/difficulty.rs. python-chess reads the positions (it is a test
oracle here, not part of ox88).
"""

import argparse
import csv
import random
import sys

import chess

FEATURES = ["ladder", "solver_moves", "mate", "check", "checks", "captures"]
QUANTILES = [0.005, 0.01, 0.025, 0.05] + [i / 10 for i in range(1, 10)] + [0.95, 0.975, 0.99, 0.995]


def features(row, ladder):
    """What ox88 measures of one puzzle (the same definitions as difficulty.rs)."""
    board = chess.Board(row["FEN"])
    moves = row["Moves"].split()
    board.push_uci(moves[0])
    first = chess.Move.from_uci(moves[1])
    legal = list(board.legal_moves)
    checks = sum(1 for m in legal if board.gives_check(m))
    captures = sum(1 for m in legal if board.is_capture(m))
    gives_check = board.gives_check(first)
    end = board.copy()
    for m in moves[1:]:
        end.push_uci(m)
    return [float(ladder), len(moves) // 2, float(end.is_checkmate()), float(gives_check),
            float(checks), float(captures)]


def solve(a, b):
    """Solves a x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(xs, ys):
    rows = [[1.0] + x for x in xs]
    k = len(rows[0])
    ata = [[sum(r[i] * r[j] for r in rows) for j in range(k)] for i in range(k)]
    aty = [sum(r[i] * y for r, y in zip(rows, ys)) for i in range(k)]
    return solve(ata, aty)


def score(coef, x):
    return coef[0] + sum(c * v for c, v in zip(coef[1:], x))


def quantile(sorted_values, q):
    """The q-th quantile, interpolated between order statistics (numpy's default)."""
    pos = q * (len(sorted_values) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (pos - lo) * (sorted_values[hi] - sorted_values[lo])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("lichess", help="lichess puzzle rows with players' ratings")
    ap.add_argument("ladder", help="the same rows rated by `ox88 puzzles rate --ladder`")
    args = ap.parse_args()
    ladder = {r["PuzzleId"]: int(r["Rating"]) for r in csv.DictReader(open(args.ladder))}
    xs, ys = [], []
    for row in csv.DictReader(open(args.lichess)):
        if row["PuzzleId"] in ladder:
            xs.append(features(row, ladder[row["PuzzleId"]]))
            ys.append(float(row["Rating"]))
    n = len(ys)
    if n < 100:
        sys.exit(f"only {n} puzzles are in both files; the fit needs at least 100")
    coef = fit(xs, ys)
    mean = sum(ys) / n
    resid = [y - score(coef, x) for x, y in zip(xs, ys)]
    r2 = 1 - sum(e * e for e in resid) / sum((y - mean) ** 2 for y in ys)
    order = list(range(n))
    random.Random(1).shuffle(order)
    cv_err = []
    for f in range(5):
        test = set(order[f::5])
        c = fit([xs[i] for i in range(n) if i not in test], [ys[i] for i in range(n) if i not in test])
        cv_err += [abs(ys[i] - score(c, xs[i])) for i in test]
    ladder_err = sum(abs(y - x[0]) for x, y in zip(xs, ys)) / n
    print(f"{n} puzzles, ratings {min(ys):.0f}-{max(ys):.0f}; the ladder alone is off by "
          f"{ladder_err:.0f} on average", file=sys.stderr)
    print(f"fit: R^2 {r2:.3f}, mean error {sum(map(abs, resid)) / n:.0f} in sample, "
          f"{sum(cv_err) / n:.0f} cross-validated (five folds)", file=sys.stderr)
    scores = sorted(score(coef, x) for x in xs)
    ratings = sorted(ys)
    print("const WEIGHTS: Weights = Weights {")
    print(f"    base: {coef[0]:.1f},")
    for name, c in zip(FEATURES, coef[1:]):
        print(f"    {name}: {c:.3f},")
    print("};")
    print(f"const RATING_MAP: [(f64, f64); {len(QUANTILES)}] = [")
    for q in QUANTILES:
        print(f"    ({quantile(scores, q):.1f}, {quantile(ratings, q):.1f}),")
    print("];")


if __name__ == "__main__":
    main()
