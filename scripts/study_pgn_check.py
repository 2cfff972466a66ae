#!/usr/bin/env python3
"""Reads a club study's PGN with python-chess, as a second reader of what ox88 writes.

Every chapter (one PGN game each, as `ox88 club study NAME --pgn` writes them) is parsed
by python-chess (`pip install chess`), an implementation independent of ox88's. For each
chapter it prints what python-chess found in it: the main line's moves, the variations
(side lines, nested ones included), the comments with text, the NAGs, the arrows
(`[%cal]`), the marked squares (`[%csl]`) and the evaluations (`[%eval]`), and any error
python-chess reported (an illegal or unreadable move, a bracket out of place).

    ox88 club study ruy-lopez --pgn > ruy.pgn && python3 scripts/study_pgn_check.py ruy.pgn
    ox88 club study ruy-lopez --pgn | python3 scripts/study_pgn_check.py

Exit status: 0 when every chapter was read without error, 1 when python-chess reported an
error in one (or found no game at all), 2 when python-chess is missing.
"""

import argparse
import io
import re
import sys

try:
    import chess
    import chess.pgn
except ImportError:
    print("python-chess is missing: pip install chess", file=sys.stderr)
    sys.exit(2)

# A `[%name ...]` command inside a comment (python-chess leaves them in the comment text).
COMMAND = re.compile(r"\[%[^\]]*\]")


def nodes(game):
    """Every node of the game, the root (the chapter itself) first, depth first."""
    stack = [game]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.variations))


def score_text(pov):
    """An evaluation as White sees it, as PGN's `[%eval]` writes it."""
    white = pov.white()
    if white.is_mate():
        return f"#{white.mate()}"
    return f"{white.score() / 100:.2f}"


def check(game, number):
    """Prints what python-chess read in one chapter; returns its errors."""
    tags = game.headers
    name = tags.get("ChapterName") or tags.get("Event", "?")
    mainline = list(game.mainline_moves())
    variations = comments = nags = 0
    arrows, squares, evals = [], [], []
    for node in nodes(game):
        variations += max(len(node.variations) - 1, 0)
        nags += len(node.nags)
        if COMMAND.sub("", node.comment).strip():
            comments += 1
        where = node.san() if node.parent is not None else "start"
        for a in node.arrows():
            # python-chess reads a marked square as an arrow from the square to itself.
            colour = {"green": "G", "red": "R", "yellow": "Y", "blue": "B"}.get(a.color, a.color)
            if a.tail == a.head:
                squares.append(f"{colour}{chess.square_name(a.tail)}")
            else:
                arrows.append(f"{colour}{chess.square_name(a.tail)}{chess.square_name(a.head)}")
        pov = node.eval()
        if pov is not None:
            evals.append(f"{score_text(pov)}@{where}")
    start = "" if game.board().fen() == chess.STARTING_FEN else f" from {game.board().fen()}"
    print(f"chapter {number}: {name}{start}")
    print(f"  main line: {len(mainline)} move{'' if len(mainline) == 1 else 's'}", end="")
    if mainline:
        print(f" ({game.board().variation_san(mainline)})")
    else:
        print()
    print(f"  variations: {variations}  comments: {comments}  NAGs: {nags}")
    print(f"  arrows: {len(arrows)} {' '.join(arrows)}".rstrip())
    print(f"  squares: {len(squares)} {' '.join(squares)}".rstrip())
    print(f"  evals: {len(evals)} {' '.join(evals)}".rstrip())
    for e in game.errors:
        print(f"  error: {e}")
    return list(game.errors)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("pgn", nargs="?", help="the study's PGN file (standard input if none)")
    args = parser.parse_args()
    if args.pgn and args.pgn != "-":
        with open(args.pgn, encoding="utf-8") as f:
            text = f.read()
    else:
        text = sys.stdin.read()
    handle = io.StringIO(text)
    errors, chapters = 0, 0
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        chapters += 1
        errors += len(check(game, chapters))
    if chapters == 0:
        print("no chapter in the PGN", file=sys.stderr)
        return 1
    print(f"{chapters} chapters read, {errors} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
