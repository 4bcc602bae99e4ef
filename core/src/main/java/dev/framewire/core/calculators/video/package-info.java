/**
 * Video in and out through an ffmpeg child process, JNI-free: {@link
 * dev.framewire.core.calculators.video.VideoSourceCalculator} reads cameras, streams and files
 * into pooled off-heap frames, {@link dev.framewire.core.calculators.video.VideoSinkCalculator}
 * encodes frames to files, clip segments or streams. Frames cross the pipe between the child and
 * a pooled slot with channel I/O, never through a heap array.
 */
package dev.framewire.core.calculators.video;
