/**
 * Image calculators over off-heap frame payloads: a synthetic camera, a raw video reader and an
 * image folder (in shipments) as sources, color conversion, bilinear resize, brightness and
 * contrast, frame-difference motion detection, box annotation, a PNG snapshot sink and a PNG
 * folder sink. Registered by name through
 * {@link dev.framewire.core.calculators.StandardCalculators}.
 *
 * <p>Pixels are read and written in the payloads' Agrona buffers; no frame is copied to the Java
 * heap except by the PNG sinks ({@link dev.framewire.core.calculators.image.SnapshotSinkCalculator},
 * {@link dev.framewire.core.calculators.image.ImageFolderSinkCalculator}), whose encoder needs a
 * {@code BufferedImage}, and the image folder source, whose decoder makes one. Packed RGBA32
 * pixels are read and written as little-endian ints, so that the bytes R, G, B, A in memory are
 * {@code 0xAABBGGRR}.
 */
package dev.framewire.core.calculators.image;
