#!/usr/bin/env python3
"""Soak test of the TUI: many engine-vs-engine games in one process, memory watched.

Starts `ox88` (the TUI) in a pseudo-terminal in engine-vs-engine mode at depth 5 with no
delay between moves, asks it for a series of games with `:games N` (a new game starts when
one ends), and samples the process's resident set size (VmRSS from /proc/PID/status) every
few seconds. A game counts as played when its PGN appears in the autosave archive
(`$OX88_DATA_DIR/games/`, a fresh temporary directory). Prints the samples, then min/max
and the growth from the first sample taken after the first finished game to the last.

Only the standard library (pty, select, os) is used; Linux only (/proc).

    python3 scripts/soak_tui.py --games 20
    python3 scripts/soak_tui.py --games 200 --binary target/release/ox88 --interval 10
"""

import argparse
import fcntl
import os
import pty
import select
import shutil
import signal
import struct
import sys
import tempfile
import termios
import time


def rss_kib(pid):
    """The process's resident set size in KiB, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def games_played(data_dir):
    archive = os.path.join(data_dir, "games")
    try:
        return sum(1 for n in os.listdir(archive) if n.endswith(".pgn"))
    except OSError:
        return 0


def drain(fd, timeout):
    """Reads (and throws away) what the TUI drew, so it never blocks on a full pty."""
    ready, _, _ = select.select([fd], [], [], timeout)
    if ready:
        try:
            return os.read(fd, 65536)
        except OSError:
            return b""
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    ap.add_argument("--depth", type=int, default=5, help="search depth (default 5)")
    ap.add_argument("--interval", type=float, default=5.0, help="seconds between samples")
    ap.add_argument("--binary", default="target/release/ox88", help="the ox88 binary")
    ap.add_argument("--timeout", type=float, default=3600.0, help="give up after this many seconds")
    ap.add_argument("--keep", action="store_true", help="keep the data directory (the games' PGN)")
    args = ap.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"{args.binary}: not found (cargo build --release first)")

    data_dir = tempfile.mkdtemp(prefix="ox88-soak-")
    env = dict(os.environ, OX88_DATA_DIR=data_dir, TERM="xterm-256color")
    cmd = [args.binary, "--mode", "engine", "--depth", str(args.depth), "--delay", "0"]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(cmd[0], cmd, env)
    # 120x40, so the whole layout is drawn.
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    os.kill(pid, signal.SIGWINCH)

    start = time.time()
    samples = []  # (seconds, games, KiB)
    settled = None  # the first sample after the first finished game
    try:
        # Let it draw its first screen, then ask for the series.
        end = time.time() + 2.0
        while time.time() < end:
            drain(fd, 0.1)
        os.write(fd, f":games {args.games}\r".encode())
        next_sample = time.time()
        while True:
            now = time.time()
            if now >= next_sample:
                kib = rss_kib(pid)
                if kib is None:
                    sys.exit("ox88 exited during the soak")
                played = games_played(data_dir)
                samples.append((now - start, played, kib))
                print(f"{now - start:8.1f}s  games {played:4d}  RSS {kib / 1024:8.1f} MiB", flush=True)
                if settled is None and played >= 1:
                    settled = samples[-1]
                if played >= args.games:
                    break
                if now - start > args.timeout:
                    print("timeout", flush=True)
                    break
                next_sample = now + args.interval
            if drain(fd, max(0.0, min(0.2, next_sample - time.time()))) == b"":
                sys.exit("the pty closed: ox88 exited")
    finally:
        try:
            os.write(fd, b"\x03")  # Ctrl+C quits (the game is saved)
            end = time.time() + 5.0
            while time.time() < end:
                if drain(fd, 0.1) == b"":
                    break
                done, _ = os.waitpid(pid, os.WNOHANG)
                if done:
                    break
            else:
                os.kill(pid, signal.SIGTERM)
        except OSError:
            pass
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
        if args.keep:
            print(f"games kept in {data_dir}/games")
        else:
            shutil.rmtree(data_dir, ignore_errors=True)

    kib = [s[2] for s in samples]
    print(f"samples {len(samples)}, games {samples[-1][1]}, {samples[-1][0]:.0f}s")
    print(f"RSS min {min(kib) / 1024:.1f} MiB, max {max(kib) / 1024:.1f} MiB")
    if settled is not None:
        grow = samples[-1][2] - settled[2]
        print(
            f"after the first game ({settled[0]:.0f}s, {settled[2] / 1024:.1f} MiB) "
            f"to the end: {grow / 1024:+.1f} MiB over {samples[-1][1] - settled[1]} games"
        )


if __name__ == "__main__":
    main()
