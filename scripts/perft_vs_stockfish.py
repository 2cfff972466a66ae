#!/usr/bin/env python3
"""Perft speed of ox88 beside Stockfish's `go perft` on the same machine, alternating runs
so both see the same load; both count the last ply in bulk. Best of N rounds.

usage: scripts/perft_vs_stockfish.py [--rounds N] [--ox88 PATH] [--stockfish PATH]
"""
import argparse
import subprocess
import time

CASES = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119060324),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193690690),
]


def stockfish(path, fen, depth):
    sf = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    sf.stdin.write(f"position fen {fen}\nisready\n")
    sf.stdin.flush()
    while sf.stdout.readline().strip() != "readyok":
        pass
    start = time.perf_counter()
    sf.stdin.write(f"go perft {depth}\n")
    sf.stdin.flush()
    nodes = None
    for line in sf.stdout:
        if line.startswith("Nodes searched"):
            nodes = int(line.split(":")[1])
            break
    elapsed = time.perf_counter() - start
    sf.stdin.write("quit\n")
    sf.stdin.flush()
    sf.wait()
    return elapsed, nodes


def ox88(path, fen, depth):
    start = time.perf_counter()
    out = subprocess.run([path, "perft", str(depth), "--fen", fen], capture_output=True, text=True, check=True).stdout
    elapsed = time.perf_counter() - start
    nodes = int(next(l for l in out.splitlines() if l.startswith("Nodes searched")).split(":")[1])
    return elapsed, nodes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--ox88", default="target/release/ox88")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    a = ap.parse_args()
    for name, fen, depth, want in CASES:
        best_sf = best_ox = float("inf")
        for _ in range(a.rounds):
            t, n = stockfish(a.stockfish, fen, depth)
            assert n == want, (name, n)
            best_sf = min(best_sf, t)
            t, n = ox88(a.ox88, fen, depth)
            assert n == want, (name, n)
            best_ox = min(best_ox, t)
        print(f"{name:9} perft {depth} {want:>11} nodes  stockfish {best_sf:6.3f} s ({want/best_sf/1e6:6.1f} Mnps)"
              f"  ox88 {best_ox:6.3f} s ({want/best_ox/1e6:6.1f} Mnps)  ox88/stockfish {100*best_sf/best_ox:5.1f}%")


if __name__ == "__main__":
    main()
