package dev.framewire.core.calculators.image;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.PacketObserver;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PixelFormat;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Small frames for the image calculator tests: made from literal pixels, run through a graph,
 * captured as heap copies by an observer (the payload itself is released by the engine).
 *
 * <p>Pixels in literals: GRAY8 as 0..255, RGB24 as {@code 0xRRGGBB}, RGBA32 as {@code 0xRRGGBBAA}.
 */
final class ImageTestSupport
{
    private ImageTestSupport()
    {
    }

    /** Makes a payload from the graph's pool. */
    @FunctionalInterface
    interface FrameMaker
    {
        Payload make(PayloadPool pool);
    }

    /** A heap copy of one output packet: frame shape and tight pixel rows, or a box list. */
    static final class Captured
    {
        final long timestamp;
        final PixelFormat format;
        final int width;
        final int height;
        final byte[] bytes;

        Captured(final long timestamp, final PixelFormat format, final int width, final int height, final byte[] bytes)
        {
            this.timestamp = timestamp;
            this.format = format;
            this.width = width;
            this.height = height;
            this.bytes = bytes;
        }

        int[] gray()
        {
            final int[] out = new int[bytes.length];
            for (int i = 0; i < bytes.length; i++)
            {
                out[i] = bytes[i] & 0xFF;
            }
            return out;
        }

        int[] rgb()
        {
            final int[] out = new int[bytes.length / 3];
            for (int i = 0; i < out.length; i++)
            {
                out[i] = (bytes[3 * i] & 0xFF) << 16 | (bytes[3 * i + 1] & 0xFF) << 8 | bytes[3 * i + 2] & 0xFF;
            }
            return out;
        }

        int[] rgba()
        {
            final int[] out = new int[bytes.length / 4];
            for (int i = 0; i < out.length; i++)
            {
                out[i] = (bytes[4 * i] & 0xFF) << 24 | (bytes[4 * i + 1] & 0xFF) << 16 |
                    (bytes[4 * i + 2] & 0xFF) << 8 | bytes[4 * i + 3] & 0xFF;
            }
            return out;
        }

        /** A box list as {count, changed, x, y, w, h, pixels, ...}. */
        int[] boxes()
        {
            final int[] out = new int[bytes.length / 4];
            for (int i = 0; i < out.length; i++)
            {
                out[i] = (bytes[4 * i] & 0xFF) | (bytes[4 * i + 1] & 0xFF) << 8 | (bytes[4 * i + 2] & 0xFF) << 16 |
                    (bytes[4 * i + 3] & 0xFF) << 24;
            }
            return out;
        }
    }

    static FrameMaker gray(final int width, final int height, final int... pixels)
    {
        return pool -> frame(pool, width, height, PixelFormat.GRAY8, PixelFormat.GRAY8.minStride(width), bytes(pixels, 1));
    }

    static FrameMaker rgb(final int width, final int height, final int... pixels)
    {
        return pool -> frame(pool, width, height, PixelFormat.RGB24, PixelFormat.RGB24.minStride(width), bytes(pixels, 3));
    }

    static FrameMaker rgba(final int width, final int height, final int... pixels)
    {
        return pool -> frame(pool, width, height, PixelFormat.RGBA32, PixelFormat.RGBA32.minStride(width),
            bytes(pixels, 4));
    }

    /** A 2x2 NV12 frame: a format no image calculator takes. */
    static FrameMaker nv12()
    {
        return pool -> pool.acquireFrame(2, 2, PixelFormat.NV12);
    }

    /** A frame with padding after each row: exercises stride handling. */
    static FrameMaker padded(final FrameMaker tight, final int padding)
    {
        return pool ->
        {
            final Payload t = tight.make(pool);
            try
            {
                final byte[] rows = tightBytes(t);
                return frame(pool, t.width(), t.height(), t.format(), t.format().minStride(t.width()) + padding, rows);
            }
            finally
            {
                t.release();
            }
        };
    }

    /** A box list payload: boxes as {x, y, w, h} quadruples. */
    static FrameMaker boxes(final int... xywh)
    {
        return pool ->
        {
            final int count = xywh.length / 4;
            final Payload p = pool.acquire(BoxListDescriptor.length(count));
            final MutableDirectBuffer b = p.mutableBuffer();
            BoxListDescriptor.putHeader(b, count, 0);
            for (int i = 0; i < count; i++)
            {
                BoxListDescriptor.putBox(b, i, xywh[4 * i], xywh[4 * i + 1], xywh[4 * i + 2], xywh[4 * i + 3], 0);
            }
            return p;
        };
    }

    static byte[] bytes(final int[] pixels, final int bytesPerPixel)
    {
        final byte[] out = new byte[pixels.length * bytesPerPixel];
        for (int i = 0; i < pixels.length; i++)
        {
            for (int k = 0; k < bytesPerPixel; k++)
            {
                out[i * bytesPerPixel + k] = (byte)(pixels[i] >>> (8 * (bytesPerPixel - 1 - k)));
            }
        }
        return out;
    }

    static Payload frame(
        final PayloadPool pool,
        final int width,
        final int height,
        final PixelFormat format,
        final int stride,
        final byte[] tightRows)
    {
        final Payload p = pool.acquireFrame(width, height, format, stride);
        final MutableDirectBuffer b = p.mutableBuffer();
        final int rowBytes = width * format.bytesPerPixel();
        b.setMemory(0, p.length(), (byte)0xEE); // padding gets a value no test expects
        for (int y = 0; y < height; y++)
        {
            b.putBytes(y * stride, tightRows, y * rowBytes, rowBytes);
        }
        return p;
    }

    static byte[] tightBytes(final Payload p)
    {
        final DirectBuffer b = p.buffer();
        if (!p.isFrame())
        {
            final byte[] out = new byte[p.length()];
            b.getBytes(0, out);
            return out;
        }
        final int rowBytes = p.width() * p.format().bytesPerPixel();
        final byte[] out = new byte[rowBytes * p.height()];
        for (int y = 0; y < p.height(); y++)
        {
            b.getBytes(y * p.stride(), out, y * rowBytes, rowBytes);
        }
        return out;
    }

    /** An observer that copies each packet's payload to the heap. */
    static PacketObserver capture(final List<Captured> into)
    {
        return packet ->
        {
            final Payload p = packet.payload();
            into.add(new Captured(packet.timestamp(), p.format(), p.width(), p.height(), tightBytes(p)));
        };
    }

    /**
     * Runs a graph whose input stream is {@code in}, adding the frames at timestamps 0, 1, 2, ...,
     * and returns what the observed output stream carried. Closing the graph checks for leaks.
     */
    static List<Captured> run(final GraphConfig config, final String output, final FrameMaker... frames)
        throws Exception
    {
        final List<Captured> out = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(config))
        {
            graph.observe(output, capture(out));
            graph.start();
            for (int i = 0; i < frames.length; i++)
            {
                graph.addPacket("in", frames[i].make(graph.pool()), i);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        return out;
    }

    /** Like {@link #run}, observing several output streams. */
    static Map<String, List<Captured>> runAll(
        final GraphConfig config,
        final String[] outputs,
        final FrameMaker... frames) throws Exception
    {
        final Map<String, List<Captured>> out = new LinkedHashMap<>();
        try (Graph graph = new Graph(config))
        {
            for (final String output : outputs)
            {
                final List<Captured> list = Collections.synchronizedList(new ArrayList<>());
                out.put(output, list);
                graph.observe(output, capture(list));
            }
            graph.start();
            for (int i = 0; i < frames.length; i++)
            {
                graph.addPacket("in", frames[i].make(graph.pool()), i);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        return out;
    }

    /** Like {@link #run} but the run must fail; returns the failure. The graph is closed (leak check) first. */
    static GraphException runFailing(final GraphConfig config, final FrameMaker... frames) throws Exception
    {
        final GraphException failure;
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (int i = 0; i < frames.length; i++)
            {
                try
                {
                    graph.addPacket("in", frames[i].make(graph.pool()), i);
                }
                catch (final IllegalStateException ended)
                {
                    break; // the run failed already; the payload went to the graph, which released it
                }
            }
            graph.closeAllInputs();
            failure = assertThrows(GraphException.class, graph::waitUntilDone);
        }
        return failure;
    }

    /** A graph of one node between graph input {@code in} and output {@code out}. */
    static GraphConfig oneNode(final String calculator, final Object... options)
    {
        return GraphConfig.builder()
            .inputStream("in")
            .node("node", n ->
            {
                n.calculator(calculator).inputStream("in").outputStream("out");
                for (int i = 0; i < options.length; i += 2)
                {
                    n.option((String)options[i], options[i + 1]);
                }
            })
            .outputStream("out")
            .build();
    }

    static void assertPixels(final int[] expected, final int[] actual)
    {
        assertArrayEquals(expected, actual, () -> "expected " + Arrays.toString(expected) + " but was " +
            Arrays.toString(actual));
    }

    /**
     * Every file in a directory is owner-only ({@code rw-------}); nothing left under a temporary name.
     *
     * @return how many files there are.
     */
    static int assertOwnerOnlyFiles(final java.nio.file.Path directory) throws java.io.IOException
    {
        int files = 0;
        try (java.nio.file.DirectoryStream<java.nio.file.Path> list = java.nio.file.Files.newDirectoryStream(directory))
        {
            for (final java.nio.file.Path file : list)
            {
                org.junit.jupiter.api.Assertions.assertFalse(file.toString().endsWith(".tmp"), file.toString());
                if (directory.getFileSystem().supportedFileAttributeViews().contains("posix"))
                {
                    org.junit.jupiter.api.Assertions.assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions
                        .toString(java.nio.file.Files.getPosixFilePermissions(file)), file.toString());
                }
                files++;
            }
        }
        return files;
    }
}
