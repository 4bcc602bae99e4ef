package dev.framewire.core.calculators.image;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.offheap.PixelFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static dev.framewire.core.calculators.image.ImageTestSupport.Captured;
import static dev.framewire.core.calculators.image.ImageTestSupport.capture;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class RawVideoReaderCalculatorTest
{
    @TempDir
    Path dir;

    private static GraphConfig reader(final Object... options)
    {
        return GraphConfig.builder()
            .node("reader", n ->
            {
                n.calculator("RawVideoReaderCalculator").outputStream("video");
                for (int i = 0; i < options.length; i += 2)
                {
                    n.option((String)options[i], options[i + 1]);
                }
            })
            .outputStream("video")
            .build();
    }

    private static byte[] counting(final int length)
    {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(i * 7 + 1);
        }
        return bytes;
    }

    @Test
    void readsRgb24FramesBackToBack() throws Exception
    {
        final byte[] content = counting(3 * 2 * 2 * 3); // three 2x2 rgb24 frames
        final Path file = Files.write(dir.resolve("clip.rgb"), content);
        final List<Captured> out = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(reader("path", file.toString(), "width", 2, "height", 2, "fps", 25.0)))
        {
            graph.observe("video", capture(out));
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(3, out.size());
        for (int i = 0; i < 3; i++)
        {
            assertEquals(PixelFormat.RGB24, out.get(i).format);
            assertEquals(2, out.get(i).width);
            assertEquals(2, out.get(i).height);
            assertEquals(i * 40_000L, out.get(i).timestamp);
            assertArrayEquals(Arrays.copyOfRange(content, 12 * i, 12 * i + 12), out.get(i).bytes, "frame " + i);
        }
    }

    @Test
    void readsGrayAndRgba() throws Exception
    {
        final byte[] content = counting(3 * 2 * 4);
        final Path file = Files.write(dir.resolve("clip.raw"), content);
        final List<Captured> gray = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(reader("path", file.toString(), "pix_fmt", "gray", "width", 3, "height", 2)))
        {
            graph.observe("video", capture(gray));
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(4, gray.size());
        assertEquals(PixelFormat.GRAY8, gray.get(3).format);
        assertEquals(100_000, gray.get(3).timestamp);
        assertArrayEquals(Arrays.copyOfRange(content, 18, 24), gray.get(3).bytes);

        final List<Captured> rgba = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(reader("path", file.toString(), "pix_fmt", "rgba", "width", 3, "height", 2)))
        {
            graph.observe("video", capture(rgba));
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(1, rgba.size());
        assertEquals(PixelFormat.RGBA32, rgba.get(0).format);
        assertArrayEquals(content, rgba.get(0).bytes);
    }

    @Test
    void emptyFileHasNoFrames() throws Exception
    {
        final Path file = Files.write(dir.resolve("empty.raw"), new byte[0]);
        final List<Captured> out = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(reader("path", file.toString(), "width", 2, "height", 2)))
        {
            graph.observe("video", capture(out));
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(0, out.size());
    }

    @Test
    void truncatedLastFrameNamesFileAndOffset() throws Exception
    {
        final Path file = Files.write(dir.resolve("cut.rgb"), counting(2 * 12 + 5));
        final List<Captured> out = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(reader("path", file.toString(), "width", 2, "height", 2)))
        {
            graph.observe("video", capture(out));
            graph.start();
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertEquals("reader", ex.failures().get(0).node());
            final String message = ex.failures().get(0).cause().getMessage();
            assertTrue(message.contains(file.toString()), message);
            assertTrue(message.contains("frame 2"), message);
            assertTrue(message.contains("byte offset 24"), message);
            assertTrue(message.contains("byte offset 29"), message);
        }
        assertEquals(2, out.size(), "the whole frames before the cut went out");
    }

    @Test
    void missingFileNamesIt() throws Exception
    {
        final Path missing = dir.resolve("nope.rgb");
        try (Graph graph = new Graph(reader("path", missing.toString(), "width", 2, "height", 2)))
        {
            graph.start();
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            final String message = ex.failures().get(0).cause().getMessage();
            assertTrue(message.contains("node 'reader'") && message.contains(missing.toString()), message);
        }
    }

    @Test
    void unknownPixelFormatNamesTheOption() throws Exception
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class,
            () -> new Graph(reader("path", "-", "pix_fmt", "yuv444p", "width", 2, "height", 2)));
        final String message = ex.getMessage();
        assertTrue(message.contains("'pix_fmt'") && message.contains("yuv444p") && message.contains("rgb24"),
            message);
    }
}
