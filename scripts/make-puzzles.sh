#!/usr/bin/env bash
# Built the first puzzle set that shipped in the binary (src/puzzle/puzzles.csv; the set now
# adds the longer puzzles of scripts/mine-fast.sh, docs/puzzles.md) from ox88's own games: level games from the balanced openings in chunks, each chunk mined and verified;
# then every mined puzzle is verified again by the miner's own test at 8 times the finding
# budget (so chunks mined by an older, shallower verifier are held to the same bar) and
# must stay unique at 16 times; every puzzle is rated again by the current calibration
# (`ox88 puzzles rate`, docs/puzzles.md), and a selection spread over ratings is taken
# (scripts/puzzle_select.py).
#
#   cargo build --release
#   scripts/make-puzzles.sh              # CHUNKS=90 GAMES=50 JOBS=2 OUT=target/puzzles
#
# Two of every three chunks pair weak levels (their games hold the most mistakes); the
# third pairs stronger levels. A level's search grows tenfold every 500 Elo while its games
# hold fewer mistakes, so above 1600 a chunk costs minutes for a few puzzles. The shipped
# set was made in three runs into one directory (docs/engine.md, Puzzles):
#   WEAK=800,900,1000,1200,1400,1600 STRONG=1400,1600,1800 CHUNKS=44 scripts/make-puzzles.sh
#   CHUNKS=128 scripts/make-puzzles.sh      # chunks 44-127, the defaults below
#   CHUNKS=160 scripts/make-puzzles.sh      # chunks 128-159, the miner verifying at 8x
#   CHUNKS=230 scripts/make-puzzles.sh      # chunks 160-229, the miner rating calibrated
# A chunk already mined is skipped, so the script can be stopped and run again.
set -euo pipefail
cd "$(dirname "$0")/.."
OX88=${OX88:-target/release/ox88}
OUT=${OUT:-target/puzzles}
CHUNKS=${CHUNKS:-90}
GAMES=${GAMES:-50}
JOBS=${JOBS:-2}
NODES=${NODES:-80000}
LOOK=${LOOK:-5000}
COUNT=${COUNT:-1500}
# The levels paired in two of every three chunks, and in the third.
WEAK=${WEAK:-800,900,1000,1200,1400}
STRONG=${STRONG:-1200,1400,1600}
mkdir -p "$OUT"

chunk() {
    local k=$1 elos
    if (( k % 3 == 2 )); then elos=$STRONG; else elos=$WEAK; fi
    [[ -s $OUT/mined-$k.csv ]] && return 0
    rm -f "$OUT/games-$k.pgn"
    "$OX88" puzzles games --first $((k * GAMES)) --games "$GAMES" --elos "$elos" \
        --out "$OUT/games-$k.pgn" 2>"$OUT/games-$k.log"
    "$OX88" puzzles mine "$OUT/games-$k.pgn" --nodes "$NODES" --look "$LOOK" \
        --out "$OUT/mined-$k.tmp" 2>"$OUT/mined-$k.log"
    mv "$OUT/mined-$k.tmp" "$OUT/mined-$k.csv"
    tail -n 1 "$OUT/mined-$k.log"
}
export -f chunk
export OX88 OUT GAMES NODES LOOK WEAK STRONG
seq 0 $((CHUNKS - 1)) | xargs -P "$JOBS" -I{} bash -c 'chunk {}'

# Every distinct puzzle is verified again by the miner's own test at 8x the finding budget;
# those that hold must then stay unique (nothing else within 1.5 pawns) at 16x; then the
# selection. `ox88 puzzles check --verify $((NODES * 32))` on a sample judges the result.
python3 scripts/puzzle_select.py --count 1000000 "$OUT"/mined-*.csv > "$OUT/pool.csv"
"$OX88" puzzles check "$OUT/pool.csv" --verify $((NODES * 8)) --strict --sample 0 \
    --jobs "$JOBS" --keep "$OUT/verified.csv" | tail -n 2
"$OX88" puzzles check "$OUT/verified.csv" --verify $((NODES * 16)) --sample 0 \
    --jobs "$JOBS" --keep "$OUT/deep.csv" | tail -n 2
"$OX88" puzzles rate "$OUT/deep.csv" --jobs "$JOBS" --out "$OUT/rated.csv"
python3 scripts/puzzle_select.py --count "$COUNT" --leave-out scripts/data/puzzles-left-out.txt \
    "$OUT/rated.csv" > "$OUT/selected.csv"
echo "selected $(($(wc -l < "$OUT/selected.csv") - 1)) puzzles into $OUT/selected.csv;" \
     "copy it to src/puzzle/puzzles.csv to ship it"
