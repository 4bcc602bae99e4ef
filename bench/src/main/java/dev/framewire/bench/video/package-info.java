/**
 * Video benchmarks (issue 14): a 1080p file through the video source into a counting sink, beside
 * {@code ffmpeg -f null} of the same file and pixel format, the ceiling. Each checks its frame
 * count and throws when it is wrong.
 */
package dev.framewire.bench.video;
