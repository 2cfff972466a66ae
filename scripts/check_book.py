#!/usr/bin/env python3
"""Independent check of the built-in opening book, and a helper to extend it.

The book (src/engine/book/lines.txt) is written in the seed's format (seed 004): the moves of a
line in coordinate notation, concatenated (`e2e4e7e5g1f3b8c6f1b5`), then the opening's name. A
move may be followed by `?`: the book knows it but never chooses it itself.

This script uses python-chess, an implementation independent of ours, to

  check  (default) verify every line: syntax, legality ply by ply, and that a position reached
         by several lines (transpositions included) ends them all under one name; print counts.
  san    print every line in SAN next to its name, for a human to proof-read.
  add    turn `SAN moves | Name` rows (stdin) into book rows (stdout): the easy way to extend
         the book. Append `?` to a SAN move to mark it as not chosen by the book (`f4? d5`).

The Rust test `tests/engine/book.rs` repeats the legality check with the engine's own move generator;
this script is for whoever edits the list.
"""

import argparse
import sys
from pathlib import Path

import chess
import chess.polyglot

BOOK = Path(__file__).resolve().parent.parent / "src" / "engine" / "book" / "lines.txt"


def parse_row(text):
    """(moves, name) from one book row; moves is a list of (uci, played) pairs."""
    parts = text.split(None, 1)
    if len(parts) != 2:
        raise ValueError("expected the moves, then the name")
    token, name = parts[0], parts[1].strip()
    moves = []
    i = 0
    while i < len(token):
        uci = token[i : i + 4]
        if len(uci) != 4:
            raise ValueError(f"ply {len(moves) + 1}: '{uci}' is not a four-character move")
        i += 4
        played = True
        if i < len(token) and token[i] == "?":
            played = False
            i += 1
        moves.append((uci, played))
    return moves, name


def rows(path):
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = raw.strip()
        if text and not text.startswith("#"):
            yield number, text


def check(path, show_san):
    errors = 0
    names = {}  # zobrist key of a line's final position -> (name, row number)
    positions = set()
    played_edges = set()
    lines = 0
    longest = 0
    for number, text in rows(path):
        try:
            moves, name = parse_row(text)
        except ValueError as e:
            print(f"{path.name}:{number}: {e}")
            errors += 1
            continue
        board = chess.Board()
        sans = []
        ok = True
        for ply, (uci, played) in enumerate(moves, 1):
            try:
                move = chess.Move.from_uci(uci)
            except ValueError:
                move = None
            if move is None or move not in board.legal_moves:
                print(f"{path.name}:{number}: {name}: ply {ply}: {uci} is not legal in {board.fen()}")
                errors += 1
                ok = False
                break
            key = chess.polyglot.zobrist_hash(board)
            if played:
                played_edges.add((key, uci))
            sans.append(board.san(move) + ("?" if not played else ""))
            board.push(move)
            positions.add(chess.polyglot.zobrist_hash(board))
        if not ok:
            continue
        lines += 1
        longest = max(longest, len(moves))
        key = chess.polyglot.zobrist_hash(board)
        if key in names and names[key][0] != name:
            other, row = names[key]
            print(f"{path.name}:{number}: '{name}' reaches the position row {row} names '{other}'")
            errors += 1
        names.setdefault(key, (name, number))
        if show_san:
            print(f"{' '.join(sans):<70} {name}")
    print(
        f"{lines} lines, {len(positions)} positions, {len(names)} named positions, "
        f"{len(played_edges)} playable moves, longest line {longest} plies, {errors} errors",
        file=sys.stderr,
    )
    return errors == 0


def add():
    for raw in sys.stdin:
        text = raw.strip()
        if not text or text.startswith("#"):
            print(text)
            continue
        sans, name = (x.strip() for x in text.split("|", 1))
        board = chess.Board()
        out = []
        for san in sans.split():
            mark = "?" if san.endswith("?") else ""
            move = board.parse_san(san.rstrip("?"))
            out.append(move.uci() + mark)
            board.push(move)
        print(f"{''.join(out)}  {name}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", nargs="?", default="check", choices=["check", "san", "add"])
    ap.add_argument("--book", type=Path, default=BOOK)
    args = ap.parse_args()
    if args.command == "add":
        add()
        return 0
    return 0 if check(args.book, args.command == "san") else 1


if __name__ == "__main__":
    sys.exit(main())
