#!/usr/bin/env bash
# Mines puzzles of two or more solver moves from fast games between low levels, on every
# core for a fixed time, then keeps those that stay unique at 16 times the finding budget
# and that Stockfish holds at every solver move (scripts/puzzle_soundness.py --all-moves).
# How the shipped set's longer puzzles were made (docs/puzzles.md, "The shipped set"):
#
#   cargo build --release
#   SECONDS_TO_MINE=120 JOBS=16 FIRST=70000 SEED=52 scripts/mine-fast.sh
#   python3 scripts/puzzle_select.py --one-move-at-most 825 \
#       --leave-out scripts/data/puzzles-left-out.txt src/puzzle/puzzles.csv \
#       target/fast/sound.csv > selected.csv
#
# Each worker plays chunks of five games (levels 800 to 1400 paired at random, cut at 160
# plies) and mines them at 80,000 nodes with a first look of 5,000, keeping only puzzles of
# two solver moves or more (`--min-moves 2`): the miner's own verification at 8 times the
# budget runs only on those.
set -euo pipefail
cd "$(dirname "$0")/.."
OX88=${OX88:-target/release/ox88}
OUT=${OUT:-target/fast}
JOBS=${JOBS:-2}
SECONDS_TO_MINE=${SECONDS_TO_MINE:-600}
FIRST=${FIRST:-70000}
SEED=${SEED:-52}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
mkdir -p "$OUT"
start=$(date +%s)
worker() {
    local w=$1 k=0 c
    while (( $(date +%s) - start < SECONDS_TO_MINE )); do
        c=$((w * 100 + k))
        rm -f "$OUT/g-$c.pgn"
        "$OX88" puzzles games --first $((FIRST + c * 5)) --games 5 \
            --elos 800 900 1000 1200 1400 --seed "$SEED" --max-plies 160 \
            --out "$OUT/g-$c.pgn" >/dev/null 2>&1
        "$OX88" puzzles mine "$OUT/g-$c.pgn" --nodes 80000 --look 5000 --min-moves 2 \
            --out "$OUT/m-$c.csv" 2>"$OUT/m-$c.log"
        k=$((k + 1))
    done
}
for w in $(seq 1 "$JOBS"); do worker "$w" & done
wait
python3 scripts/puzzle_select.py --count 1000000 "$OUT"/m-*.csv > "$OUT/mined.csv"
"$OX88" puzzles check "$OUT/mined.csv" --verify 1280000 --sample 0 --jobs "$JOBS" \
    --keep "$OUT/deep.csv" | tail -n 2
python3 scripts/puzzle_soundness.py "$OUT/deep.csv" --sample 1000000 --depth 18 --all-moves \
    --stockfish "$STOCKFISH" --keep "$OUT/sound.csv" | tail -n 1
