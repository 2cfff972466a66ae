#!/usr/bin/env python3
"""Select the shipped puzzle set from mined puzzle files, spread over ratings.

Reads CSV files with the lichess puzzle database's columns (as `ox88 puzzles mine` writes
them), drops repeats (the same id, or the same position and answer mined from two games),
and takes puzzles round-robin over rating bands 200 wide from 600 to 2400, so that the
easy puzzles, which weak games hold most of, do not crowd out the hard ones; within a band
the order is a hash of the id (stable, and unrelated to which game came first). GameUrl
keeps the games file's name (`games-3.pgn#17`: chunk 3 of scripts/make-puzzles.sh, game 17). Prints the
selection, sorted by rating, as CSV on standard output and a summary on standard error.

    python3 scripts/puzzle_select.py --count 1200 target/puzzles/mined-*.csv > selected.csv

With --one-move-at-most N every longer puzzle is kept and the one-move puzzles are thinned
to N, spread over the bands as above.
"""

from __future__ import annotations

import argparse
import collections
import csv
import hashlib
import sys

HEADER = ["PuzzleId", "FEN", "Moves", "Rating", "RatingDeviation", "Popularity", "NbPlays",
          "Themes", "GameUrl", "OpeningTags"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--count", type=int, default=1200)
    ap.add_argument("--one-move-at-most", type=int, metavar="N",
                    help="keep every puzzle of two or more solver moves and at most N of one "
                         "move (the one-movers still spread over the bands); --count is then "
                         "ignored")
    ap.add_argument("--leave-out", metavar="FILE",
                    help="ids to leave out, one per line (# starts a comment)")
    args = ap.parse_args()
    left_out = set()
    if args.leave_out:
        with open(args.leave_out) as f:
            left_out = {line.split("#")[0].strip() for line in f} - {""}
    seen_ids, seen_positions, pool = set(left_out), set(), []
    for path in args.files:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                moves = row["Moves"].split()
                position = (row["FEN"], moves[0], moves[1])
                if row["PuzzleId"] in seen_ids or position in seen_positions:
                    continue
                seen_ids.add(row["PuzzleId"])
                seen_positions.add(position)
                # The game's file by its name alone: where it was mined is this machine's.
                row["GameUrl"] = row["GameUrl"].rsplit("/", 1)[-1]
                pool.append(row)
    distinct = len(pool)
    chosen = []
    if args.one_move_at_most is not None:
        chosen = [r for r in pool if len(r["Moves"].split()) > 2]
        pool = [r for r in pool if len(r["Moves"].split()) <= 2]
        args.count = len(chosen) + args.one_move_at_most
    bands = collections.defaultdict(list)
    for row in pool:
        bands[min(int(row["Rating"]), 2399) // 200].append(row)
    for rows in bands.values():
        rows.sort(key=lambda r: hashlib.sha1(r["PuzzleId"].encode()).hexdigest())
    while len(chosen) < args.count and any(bands.values()):
        for band in sorted(bands):
            if bands[band] and len(chosen) < args.count:
                chosen.append(bands[band].pop())
    chosen.sort(key=lambda r: (int(r["Rating"]), r["PuzzleId"]))
    out = csv.DictWriter(sys.stdout, HEADER, lineterminator="\n")
    out.writeheader()
    out.writerows(chosen)
    spread = collections.Counter(min(int(r["Rating"]), 2399) // 200 * 200 for r in chosen)
    themes = collections.Counter(t for r in chosen for t in r["Themes"].split())
    print(f"{distinct} distinct puzzles in {len(args.files)} files; {len(chosen)} selected",
          file=sys.stderr)
    print("ratings: " + ", ".join(f"{b}-{b + 199}: {n}" for b, n in sorted(spread.items())),
          file=sys.stderr)
    print("themes: " + ", ".join(f"{t} {n}" for t, n in themes.most_common()), file=sys.stderr)


if __name__ == "__main__":
    main()
