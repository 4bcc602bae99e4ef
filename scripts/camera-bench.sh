#!/usr/bin/env bash
# How many 1080p30 H.264 cameras this machine carries, interleaved in one run:
#   ffmpeg     ffmpeg alone decoding the file to null (the ceiling: decode only)
#   ffmpeg-det ffmpeg alone making framewire's detection stream (the command the source runs, the
#              same decoder and its thread settings) into a pipe that `cat` empties: ffmpeg's own
#              cost of handing frames over, without the JVM
#   gst        GStreamer: filesrc ! qtdemux ! h264parse ! avdec_h264 ! videoconvert ! GRAY8 ! videoscale 960x540 ! fakesink
#   framewire  a graph: VideoSourceCalculator (ffmpeg decodes, scales the luma plane to a 640-wide
#              GRAY8 detection stream in full range, the default) -> MotionDetectorCalculator
#   fw-coded   the same with gray_range "coded" (the luma as the stream codes it, no range
#              expansion), as graphs/video_ingest.pbtxt asks for its motion detection
# Each decodes the same file as fast as it can. Each decoder runs with ffmpeg's (libavcodec's)
# default threads, the same for all. Per contender and round:
#   wall    frames / wall time from spawn to exit (framewire: including the JVM's start);
#   run     framewire only: frames / the run's own time (graph start to end, without the JVM's start);
#   cpu     CPU time (user + sys) of the whole process tree per frame (exact, wait4's rusage);
#           framewire's 'cpu-run' leaves out the JVM's own CPU before it started ffmpeg (its start),
#           'cpu-steady' also its JIT compiler threads' (warm-up, once per JVM, not per camera);
# cameras = frames a second / 30; by CPU: 2 cores / (CPU seconds a frame * 30), which a loaded
# machine disturbs far less than wall time (other processes take wall time, not our CPU time).
#   scripts/camera-bench.sh [ROUNDS] [SECONDS_OF_VIDEO]
# Needs ffmpeg, gst-launch-1.0 (gstreamer1.0-libav, -plugins-good, -plugins-base), python3 and the
# framewire jar. Per-thread CPU of the last framewire run: $WORK/framewire-*.json (KEEP=1 keeps $WORK).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${1:-3}"
SECONDS_OF_VIDEO="${2:-20}"
WORK="$(mktemp -d /tmp/framewire-camera-bench.XXXXXX)"
if [ "${KEEP:-0}" = 1 ]; then echo "keeping $WORK"; else trap 'rm -rf "$WORK"' EXIT; fi
FILE="$WORK/cam1080p30.mp4"
FRAMES=$((SECONDS_OF_VIDEO * 30))
ffmpeg -hide_banner -loglevel error -f lavfi -i "testsrc2=size=1920x1080:rate=30" -frames:v "$FRAMES" \
  -c:v libx264 -preset veryfast -g 60 -bf 2 -pix_fmt yuv420p "$FILE"
graph() { cat > "$WORK/$1.pbtxt" <<PB
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
  $2
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
}
graph framewire ""
graph fw-coded 'option { name: "gray_range" string_value: "coded" }'
JAR="$ROOT/tools/target/framewire.jar"
[ -f "$JAR" ] || (cd "$ROOT" && mvn -B -q -o -pl tools -am package -DskipTests)
CPU="$ROOT/scripts/proc-cpu.py"
# the detection stream's command, as VideoSourceCalculator builds it for this graph (SourceCommand)
DET_VF="format=pix_fmts=yuv420p|yuvj420p|yuv422p|yuvj422p|yuv444p|yuvj444p|yuv440p|yuvj440p|yuv411p|yuvj411p|yuv410p|nv12|nv21|gray,extractplanes=y,scale=640:-1:flags=area:out_range=pc"
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); v=d[sys.argv[2]]; print(v if v is not None else 0)" "$1" "$2"; }
jit() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(v for k, v in d['threads'].items() if 'Compiler' in k))" "$1"; }
row() { # contender json [run_seconds]
  local wall cpu start
  wall=$(field "$2" wall_s); cpu=$(field "$2" cpu_s); start=$(field "$2" start_cpu_s)
  awk -v r="$ROUND" -v c="$1" -v f="$FRAMES" -v w="$wall" -v cpu="$cpu" -v s="$start" -v j="$(jit "$2")" -v run="${3:-0}" 'BEGIN {
    printf "%-6s %-10s %8.1f %8.2f", r, c, f / w, f / w / 30;
    printf " %8s %8s", (run > 0 ? sprintf("%.1f", f / run) : "-"), (run > 0 ? sprintf("%.2f", f / run / 30) : "-");
    printf " %9.2f %8.2f", cpu * 1000 / f, 2 * f / cpu / 30;
    printf " %9s", (s > 0 ? sprintf("%.2f", 2 * f / (cpu - s) / 30) : "-");
    printf " %9s\n", (s > 0 ? sprintf("%.2f", 2 * f / (cpu - s - j) / 30) : "-") }'
}
ratio() { # contender run_seconds: framewire/ffmpeg ratios of this round
  awk -v r="$ROUND" -v c="$1" -v a="$(field "$WORK/ffmpeg-$ROUND.json" wall_s)" -v b="$(field "$WORK/$1-$ROUND.json" wall_s)" \
    -v run="$2" -v ca="$(field "$WORK/ffmpeg-$ROUND.json" cpu_s)" -v cb="$(field "$WORK/$1-$ROUND.json" cpu_s)" \
    -v sb="$(field "$WORK/$1-$ROUND.json" start_cpu_s)" -v jb="$(jit "$WORK/$1-$ROUND.json")" 'BEGIN {
    printf "%-6s %s/ffmpeg: wall %.2f, run %.2f, cpu %.2f, cpu-run %.2f, cpu-steady %.2f\n", r, c, a / b, a / run, ca / cb,
      ca / (cb - sb), ca / (cb - sb - jb) }'
}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "java: $(java -version 2>&1 | head -1); $(ffmpeg -version | head -1 | cut -d' ' -f1-3); $(gst-launch-1.0 --version | sed -n 2p)"
echo "file: 1920x1080 H.264 (veryfast, B-frames, GOP 60), $FRAMES frames at 30 fps; detection stream -vf $DET_VF -pix_fmt gray"
printf "%-6s %-10s %8s %8s %8s %8s %9s %8s %9s %9s\n" round contender fps cameras run-fps run-cams "cpu-ms/f" cpu-cams \
  cpu-run cpu-steady
for ROUND in $(seq 1 "$ROUNDS"); do
  python3 "$CPU" --json "$WORK/ffmpeg-$ROUND.json" -- \
    ffmpeg -hide_banner -loglevel error -nostdin -i "$FILE" -map 0:v:0 -f null -
  row ffmpeg "$WORK/ffmpeg-$ROUND.json"
  python3 "$CPU" --json "$WORK/det-$ROUND.json" -- bash -c "ffmpeg -hide_banner -loglevel error -nostdin -color_range tv -copyts \
    -i '$FILE' -map 0:v:0 -an -sn -dn -vf '$DET_VF' -autoscale 0 -enc_time_base:v -1 -fps_mode passthrough \
    -c:v rawvideo -pix_fmt gray -f nut pipe:1 | cat > /dev/null"
  row ffmpeg-det "$WORK/det-$ROUND.json"
  python3 "$CPU" --json "$WORK/gst-$ROUND.json" -- gst-launch-1.0 -q filesrc location="$FILE" ! qtdemux ! h264parse ! \
    avdec_h264 ! videoconvert ! video/x-raw,format=GRAY8 ! videoscale ! video/x-raw,width=960,height=540 ! \
    fakesink sync=false >/dev/null
  row gst "$WORK/gst-$ROUND.json"
  for g in framewire fw-coded; do
    python3 "$CPU" --json "$WORK/$g-$ROUND.json" -- java @"$ROOT/.mvn/jvm.config" -jar "$JAR" run \
      "$WORK/$g.pbtxt" --no-journal >"$WORK/run.out" 2>&1 || { cat "$WORK/run.out"; exit 1; }
    run=$(sed -n 's/^throughput: .* in \([0-9.]*\) s = .*/\1/p' "$WORK/run.out")
    row "$g" "$WORK/$g-$ROUND.json" "$run"
    grep -q "throughput: $FRAMES packets" "$WORK/run.out" || {
      echo "framewire's run did not deliver $FRAMES packets on cam_boxes:"; cat "$WORK/run.out"; exit 1; }
    ratio "$g" "$run"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "fw-coded's last run said (its packet count on 'cam_boxes' must be $FRAMES):"
grep -E "cam|throughput|drops" "$WORK/run.out" | head -12
echo "fw-coded's last run, CPU seconds per thread (sampled; JVM start = CPU before its first child):"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('  total %.2f, JVM start %.2f' % (d['cpu_s'], d['start_cpu_s'] or 0)); [print('  %-45s %6.2f' % (k, v)) for k, v in list(d['threads'].items())[:16]]" "$WORK/fw-coded-$ROUNDS.json"
