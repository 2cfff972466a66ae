#!/bin/sh
# The recipe of the tuning data: self-play at 5000-9999 nodes a move from the
# 500 balanced openings, seed 1, quiet positions labelled with the game's result, then the
# Texel fit. Large files stay out of git (default /work/tunedata; any directory will do).
#
#   scripts/gen_tune_data.sh [DIR] [GAMES]
#
# Runs on one thread under nice (the machine is shared). A run can be cut short and the
# positions written so far used: each game's positions are appended when it ends.
set -eu
DIR=${1:-/work/tunedata}
GAMES=${2:-4000}
mkdir -p "$DIR"
cargo build --release
cp target/release/ox88 "$DIR/ox88-selfplay"   # a rebuild must not change a running binary
nice -n 10 "$DIR/ox88-selfplay" selfplay --out "$DIR/selfplay.txt" --games "$GAMES" \
    --nodes 5000 --seed 1 --openings tests/data/openings500.epd 2> "$DIR/selfplay.log"
# The fit (λ = 1e-6 won its match; docs/strength.md): --hold-out 0.25 first to see that
# the held-out error falls, then on everything.
nice -n 10 target/release/ox88 tune "$DIR/selfplay.txt" --iterations 400 --lambda 1e-6 \
    --hold-out 0.25
nice -n 10 target/release/ox88 tune "$DIR/selfplay.txt" --iterations 400 --lambda 1e-6 \
    --out src/engine/eval/weights.rs
