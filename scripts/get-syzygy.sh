#!/usr/bin/env bash
# Fetches the complete 3- and 4-man Syzygy set (35 WDL + 35 DTZ files, about 4.4 MB) into
# DIR (default: target/syzygy). The files ship in the source package of python-chess on
# PyPI, under data/syzygy/regular; pip downloads it, nothing is installed. Running it again
# when the files are all there does nothing.
#
#   scripts/get-syzygy.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-target/syzygy}"
version="1.11.2"
expected=70

count() { find "$dir" -maxdepth 1 -name '*.rtb[wz]' 2>/dev/null | wc -l; }

if [ -d "$dir" ] && [ "$(count)" -ge "$expected" ]; then
    echo "syzygy: $dir already has the 3- and 4-man tables"
    exit 0
fi

python=python3
command -v "$python" >/dev/null || { echo "syzygy: python3 is needed (for pip)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "syzygy: downloading chess==$version (source package) from PyPI"
"$python" -m pip download --quiet --disable-pip-version-check --no-deps \
    --no-binary :all: --dest "$work" "chess==$version"
archive="$(find "$work" -maxdepth 1 -name 'chess-*.tar.gz' | head -n 1)"
[ -n "$archive" ] || { echo "syzygy: pip gave no source archive" >&2; exit 1; }
tar -xzf "$archive" -C "$work"
src="$work/chess-$version/data/syzygy/regular"
[ -d "$src" ] || { echo "syzygy: $src is not in the package" >&2; exit 1; }

mkdir -p "$dir"
cp "$src"/*.rtbw "$src"/*.rtbz "$dir"/
echo "syzygy: $(count) table files in $dir"
[ "$(count)" -ge "$expected" ] || { echo "syzygy: expected $expected files" >&2; exit 1; }
