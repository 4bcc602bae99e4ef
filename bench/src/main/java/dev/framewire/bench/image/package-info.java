/**
 * The image kernels ({@code dev.framewire.core.calculators.image}'s {@code ImageKernels},
 * {@code BilinearResizer}, {@code MotionKernel}) on off-heap frames, each beside OpenCV's Java
 * bindings on the same bytes and beside the memory floor, a plain off-heap copy of the same
 * number of bytes; see docs/results/image-kernels.md.
 */
package dev.framewire.bench.image;
