#!/usr/bin/env bash
# The camera-ingest demo: graphs/camera_ingest.pbtxt (built into the jar), 4 synthetic 1280x720
# cameras at 60 fps through a flow limiter, gray, half size, motion detection and annotation into PNG
# snapshots, for 20 s. Options: scripts/demo.sh --help
# Real video instead (needs ffmpeg): --source URL, repeatable, one camera each (rtsp://..., udp://...,
# a file, /dev/video0); --record DIR writes each camera's annotated video as MP4 clips.
# --split: the same demo as two processes on this machine over Aeron UDP on 127.0.0.1 (cameras,
# flow limiters and grayscale in this one; half size, motion and annotation in a second JVM it
# starts), with the end-to-end latency table across both (docs/REMOTE.md).
# Cameras that come and go: --hotplug starts with 2 cameras, each a subgraph added to the running
# graph, adds one every 5 s up to 8, then removes them one by one (--hotplug-every MS, --hotplug-max N).
exec "$(dirname "$0")/framewire" demo "$@"
