#!/usr/bin/env bash
# How many 1080p30 H.264 cameras this machine carries, three ways, interleaved in one run:
#   ffmpeg   ffmpeg alone decoding the file to null (the ceiling: decode only)
#   gst      GStreamer: filesrc ! qtdemux ! h264parse ! avdec_h264 ! videoconvert ! GRAY8 ! videoscale 960x540 ! fakesink
#   framewire  a graph: VideoSourceCalculator (ffmpeg decodes, scales to a 640-wide GRAY8 detection
#            stream, as graphs/video_ingest.pbtxt asks) -> MotionDetectorCalculator
# Each decodes the same file as fast as it can; cameras = frames per second / 30.
#   scripts/camera-bench.sh [ROUNDS] [SECONDS_OF_VIDEO]
# Needs ffmpeg, gst-launch-1.0 (gstreamer1.0-libav, -plugins-good, -plugins-base) and the framewire jar.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${1:-3}"
SECONDS_OF_VIDEO="${2:-20}"
WORK="$(mktemp -d /tmp/framewire-camera-bench.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
FILE="$WORK/cam1080p30.mp4"
FRAMES=$((SECONDS_OF_VIDEO * 30))
ffmpeg -hide_banner -loglevel error -f lavfi -i "testsrc2=size=1920x1080:rate=30" -frames:v "$FRAMES" \
  -c:v libx264 -preset veryfast -g 60 -bf 2 -pix_fmt yuv420p "$FILE"
cat > "$WORK/bench.pbtxt" <<PB
executor { name: "camera" num_threads: 1 idle_strategy: PARK }
output_stream: "cam_boxes"
node {
  name: "cam"
  calculator: "VideoSourceCalculator"
  executor: "camera"
  output_stream: "VIDEO:cam"
  option { name: "url" string_value: "$FILE" }
  option { name: "pixel_format" string_value: "GRAY8" }
  option { name: "width" int_value: 640 }
}
node {
  name: "cam_motion"
  calculator: "MotionDetectorCalculator"
  input_stream: "FRAME:cam"
  output_stream: "BOXES:cam_boxes"
  option { name: "threshold" int_value: 25 }
  option { name: "min_pixels" int_value: 50 }
  option { name: "cell" int_value: 16 }
}
PB
JAR="$ROOT/tools/target/framewire.jar"
[ -f "$JAR" ] || (cd "$ROOT" && mvn -B -q -o -pl tools -am package -DskipTests)
now() { date +%s.%N; }
fps() { awk -v f="$FRAMES" -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", f / (b - a) }'; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "java: $(java -version 2>&1 | head -1); $(ffmpeg -version | head -1 | cut -d' ' -f1-3); $(gst-launch-1.0 --version | sed -n 2p)"
echo "file: 1920x1080 H.264 (veryfast, B-frames, GOP 60), $FRAMES frames at 30 fps"
printf "%-6s %-10s %10s %10s\n" round contender fps cameras
for r in $(seq 1 "$ROUNDS"); do
  a=$(now); ffmpeg -hide_banner -loglevel error -i "$FILE" -map 0:v:0 -f null - ; b=$(now)
  f=$(fps "$a" "$b"); printf "%-6s %-10s %10s %10s\n" "$r" ffmpeg "$f" "$(awk -v f="$f" 'BEGIN{printf "%.2f", f/30}')"
  a=$(now); gst-launch-1.0 -q filesrc location="$FILE" ! qtdemux ! h264parse ! avdec_h264 ! videoconvert ! \
    video/x-raw,format=GRAY8 ! videoscale ! video/x-raw,width=960,height=540 ! fakesink sync=false >/dev/null; b=$(now)
  f=$(fps "$a" "$b"); printf "%-6s %-10s %10s %10s\n" "$r" gst "$f" "$(awk -v f="$f" 'BEGIN{printf "%.2f", f/30}')"
  a=$(now); java @"$ROOT/.mvn/jvm.config" -jar "$JAR" run "$WORK/bench.pbtxt" --no-journal >"$WORK/run.out" 2>&1 || { cat "$WORK/run.out"; exit 1; }; b=$(now)
  f=$(fps "$a" "$b"); printf "%-6s %-10s %10s %10s\n" "$r" framewire "$f" "$(awk -v f="$f" 'BEGIN{printf "%.2f", f/30}')"
done
echo "framewire's last run said (its packet count on 'cam' must be $FRAMES):"
grep -E "cam|frames|packets" "$WORK/run.out" | head -12
echo "(framewire's time includes the JVM's start, about 0.5-1 s: the longer the file, the less it weighs)"
