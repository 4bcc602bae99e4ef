#!/usr/bin/env bash
# How fast ffmpeg can hand raw frames through a pipe at all, beside its -f null ceiling: the figures
# of docs/BENCHMARKS.md's "pipe alone" paragraph (issue 14). Makes a 90-frame 1080p rawvideo file in
# a temporary directory, then times, RUNS times each and alternating:
#   null:  ffmpeg -i FILE -pix_fmt FMT -f null -                       (decode and convert, write nothing)
#   pipe:  ffmpeg -i FILE -pix_fmt FMT -c:v rawvideo -f nut - | cat   (the same, written into a pipe)
# for FMT rgba and gray. Needs ffmpeg (apt-get install ffmpeg).
#
#   scripts/pipe-ceiling.sh [RUNS]
set -euo pipefail
command -v ffmpeg >/dev/null || { echo "pipe-ceiling: ffmpeg is not installed (apt-get install ffmpeg)" >&2; exit 2; }
RUNS="${1:-3}"
DIR="$(mktemp -d)"
trap 'rm -rf "$DIR"' EXIT
FILE="$DIR/raw1080.nut"
ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=1920x1080:rate=30 -frames:v 90 \
  -c:v rawvideo -pix_fmt yuv420p "$FILE"
seconds() { local s e; s=$(date +%s.%N); "$@"; e=$(date +%s.%N); awk -v s="$s" -v e="$e" 'BEGIN { print e - s }'; }
echo "nproc $(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(ffmpeg -version | head -1 | cut -d' ' -f1-3), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
for fmt in rgba gray; do
  for ((i = 1; i <= RUNS; i++)); do
    null=$(seconds ffmpeg -hide_banner -loglevel error -i "$FILE" -pix_fmt "$fmt" -f null -)
    pipe=$(seconds bash -c "ffmpeg -hide_banner -loglevel error -i '$FILE' -pix_fmt $fmt -c:v rawvideo -f nut - | cat > /dev/null")
    awk -v f="$fmt" -v i="$i" -v n="$null" -v p="$pipe" 'BEGIN { printf "%-4s run %d: -f null %6.3f s (%4.0f frames/s)   into a pipe %6.3f s (%4.0f frames/s)   ratio %.2f\n", f, i, n, 90 / n, p, 90 / p, n / p }'
  done
done
