#!/usr/bin/env python3
"""Pair two sets of `scripts/match.py` logs game by game and report the difference.

Two builds that played the same openings with the same colours against the same opponent
are compared game by game: the pair (opening, colour) is the unit, so most of the luck of
the opening drops out. The report is each side's W/D/L and score, the number of pairs, and
the mean difference in points a game with a 95% interval (normal approximation over the
pairs' differences), also as an Elo difference near the first side's score.

    python3 scripts/pair.py new.log[,new2.log] base.log[,base2.log]
"""

from __future__ import annotations

import math
import re
import sys

LINE = re.compile(r"^game\s+\d+: ox88 (white|black)\s+opening #(\d+)\s+(1-0|0-1|1/2-1/2)")


def scores(paths: str) -> dict[tuple[int, str], float]:
    """ox88's score in each game, keyed by (opening, colour); a later log wins a duplicate."""
    out: dict[tuple[int, str], float] = {}
    for path in paths.split(","):
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = LINE.match(line)
                if not m:
                    continue
                colour, opening, result = m.group(1), int(m.group(2)), m.group(3)
                if result == "1/2-1/2":
                    s = 0.5
                else:
                    white_won = result == "1-0"
                    s = 1.0 if white_won == (colour == "white") else 0.0
                out[(opening, colour)] = s
    return out


def wdl(values: list[float]) -> str:
    w = sum(v == 1.0 for v in values)
    d = sum(v == 0.5 for v in values)
    return f"{w}/{d}/{len(values) - w - d} ({100 * sum(values) / max(1, len(values)):.1f}%)"


def elo(p: float) -> float:
    p = min(max(p, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / p - 1)


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = scores(sys.argv[1]), scores(sys.argv[2])
    keys = sorted(a.keys() & b.keys())
    if not keys:
        sys.exit("no game is in both sets (same opening and colour)")
    diffs = [a[k] - b[k] for k in keys]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((x - mean) ** 2 for x in diffs) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    pa = sum(a[k] for k in keys) / n
    print(f"first:  {wdl([a[k] for k in keys])}")
    print(f"second: {wdl([b[k] for k in keys])}")
    print(f"pairs: {n}; first minus second: {100 * mean:+.1f} points a game "
          f"(95%: {100 * (mean - half):+.1f}..{100 * (mean + half):+.1f}), "
          f"about {elo(pa) - elo(pa - mean):+.0f} Elo")


if __name__ == "__main__":
    main()
