package dev.framewire.core.calculators.image;

import dev.framewire.core.FailurePolicy;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphException;
import dev.framewire.offheap.PixelFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static dev.framewire.core.calculators.image.ImageTestSupport.Captured;
import static dev.framewire.core.calculators.image.ImageTestSupport.assertPixels;
import static dev.framewire.core.calculators.image.ImageTestSupport.capture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The image folder source: files in name order at timestamps 0, 1, 2, ..., exact RGBA32 pixels
 * for color and gray PNGs, at most a shipment per call, and errors that name the file.
 *
 * <p>Pixels in literals are {@code 0xRRGGBBAA}, as {@link Captured#rgba()} gives them.
 */
@Timeout(30)
class ImageFolderSourceCalculatorTest
{
    @TempDir
    Path dir;

    /** Writes an ARGB PNG from {@code 0xRRGGBBAA} pixels. */
    static void writeRgba(final Path file, final int width, final int height, final int... rgba) throws Exception
    {
        final BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
        for (int i = 0; i < rgba.length; i++)
        {
            final int p = rgba[i];
            image.setRGB(i % width, i / width, (p & 0xFF) << 24 | p >>> 8);
        }
        assertTrue(ImageIO.write(image, "png", file.toFile()), "no PNG writer");
    }

    /** Writes an 8-bit gray PNG. */
    static void writeGray(final Path file, final int width, final int height, final int... gray) throws Exception
    {
        final BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_BYTE_GRAY);
        for (int i = 0; i < gray.length; i++)
        {
            image.getRaster().setSample(i % width, i / width, 0, gray[i]);
        }
        assertTrue(ImageIO.write(image, "png", file.toFile()), "no PNG writer");
    }

    static GraphConfig.Builder source(final Path directory, final Object... options)
    {
        return GraphConfig.builder()
            .node("source", n ->
            {
                n.calculator("ImageFolderSourceCalculator").outputStream("frames")
                    .option("directory", directory.toString());
                for (int i = 0; i < options.length; i += 2)
                {
                    n.option((String)options[i], options[i + 1]);
                }
            })
            .outputStream("frames");
    }

    private static List<Captured> run(final GraphConfig config, final long[] calls) throws Exception
    {
        final List<Captured> out = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(config))
        {
            graph.observe("frames", capture(out));
            graph.start();
            graph.waitUntilDone();
            calls[0] = graph.callCount("source");
        }
        return out;
    }

    @Test
    void readsFilesInNameOrderAsExactRgbaFramesAtTimestampsZeroOneTwo() throws Exception
    {
        // written out of order: the source sorts by file name
        writeGray(dir.resolve("c.png"), 2, 2, 0, 1, 128, 255);
        writeRgba(dir.resolve("a.png"), 3, 2,
            0xFF000080, 0x00FF00FF, 0x0000FFFF,
            0x12345678, 0xFFFFFF00, 0x00000001);
        writeRgba(dir.resolve("b.png"), 1, 1, 0x80808080);
        Files.writeString(dir.resolve("notes.txt"), "not an image", StandardCharsets.US_ASCII);

        final long[] calls = new long[1];
        final List<Captured> out = run(source(dir).build(), calls);

        assertEquals(3, out.size(), "the text file does not match the default pattern");
        for (int i = 0; i < 3; i++)
        {
            assertEquals(i, out.get(i).timestamp);
            assertEquals(PixelFormat.RGBA32, out.get(i).format);
        }
        assertEquals(3, out.get(0).width);
        assertEquals(2, out.get(0).height);
        assertPixels(new int[] {
            0xFF000080, 0x00FF00FF, 0x0000FFFF,
            0x12345678, 0xFFFFFF00, 0x00000001}, out.get(0).rgba());
        assertPixels(new int[] {0x80808080}, out.get(1).rgba());
        // gray samples copied as they are, not through the linear gray color space
        assertPixels(new int[] {0x000000FF, 0x010101FF, 0x808080FF, 0xFFFFFFFF}, out.get(2).rgba());
        assertEquals(1, calls[0], "three files fit in one shipment");
    }

    @Test
    void emitsAtMostAShipmentPerCall() throws Exception
    {
        for (int i = 0; i < 5; i++)
        {
            writeRgba(dir.resolve("img" + i + ".png"), 2, 1, i << 24 | 0xFF, 0x000000FF);
        }
        final long[] calls = new long[1];
        final List<Captured> out = run(source(dir).maxShipmentSize(2).build(), calls);

        assertEquals(5, out.size());
        for (int i = 0; i < 5; i++)
        {
            assertEquals(i, out.get(i).timestamp);
            assertPixels(new int[] {i << 24 | 0xFF, 0x000000FF}, out.get(i).rgba());
        }
        assertEquals(3, calls[0], "shipments of 2, 2 and 1, stopping with the last");
    }

    @Test
    void endsAShipmentBeforeAFrameThatWouldPassMaxShipmentBytesAndEmitsItNextCall() throws Exception
    {
        // 64 x 64 RGBA32 frames take 16 KiB slots: three to a shipment of at most 48 KiB
        final int[] pixels = new int[64 * 64];
        for (int i = 0; i < 10; i++)
        {
            java.util.Arrays.fill(pixels, i << 24 | 0xFF);
            writeRgba(dir.resolve(String.format("img%02d.png", i)), 64, 64, pixels);
        }
        final long[] calls = new long[1];
        final List<Captured> out = run(source(dir).maxShipmentBytes(3 * 16 * 1024).build(), calls);

        assertEquals(10, out.size());
        for (int i = 0; i < 10; i++)
        {
            assertEquals(i, out.get(i).timestamp, "each file once, in order");
            assertEquals(i << 24 | 0xFF, out.get(i).rgba()[64 * 64 - 1]);
        }
        assertEquals(4, calls[0], "shipments of 3, 3, 3 and 1, though max_shipment_size is 64");
    }

    @Test
    void stopsInTheCallThatEmitsTheLastFileWhenTheFolderIsAWholeNumberOfShipments() throws Exception
    {
        for (int i = 0; i < 4; i++)
        {
            writeGray(dir.resolve("img" + i + ".png"), 1, 1, i);
        }
        final long[] calls = new long[1];
        assertEquals(4, run(source(dir).maxShipmentSize(2).build(), calls).size());
        assertEquals(2, calls[0]);
    }

    @Test
    void patternSelectsFiles() throws Exception
    {
        writeGray(dir.resolve("keep1.png"), 1, 1, 10);
        writeGray(dir.resolve("skip.png"), 1, 1, 20);
        writeGray(dir.resolve("keep2.png"), 1, 1, 30);
        final long[] calls = new long[1];
        final List<Captured> out = run(source(dir, "pattern", "keep*.png").build(), calls);
        assertEquals(2, out.size());
        assertPixels(new int[] {0x0A0A0AFF}, out.get(0).rgba());
        assertPixels(new int[] {0x1E1E1EFF}, out.get(1).rgba());
    }

    @Test
    void anEmptyFolderStopsAtOnce() throws Exception
    {
        final long[] calls = new long[1];
        assertEquals(0, run(source(dir).build(), calls).size());
        assertEquals(1, calls[0]);
    }

    @Test
    void anUnreadableFileFailsTheRunNamingTheFileAndLeaksNothing() throws Exception
    {
        writeGray(dir.resolve("a.png"), 1, 1, 1);
        Files.write(dir.resolve("b.png"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        writeGray(dir.resolve("c.png"), 1, 1, 3);
        final GraphException failure;
        try (Graph graph = new Graph(source(dir).build()))
        {
            graph.start();
            failure = assertThrows(GraphException.class, graph::waitUntilDone);
        }
        assertEquals("source", failure.failures().get(0).node());
        final String message = failure.failures().get(0).cause().getMessage();
        assertTrue(message.contains("b.png") && message.contains("ImageFolderSourceCalculator"), message);
    }

    @Test
    void underDropTimestampAnUnreadableFileIsSkippedAloneAndTheRunGoesOn() throws Exception
    {
        writeGray(dir.resolve("a.png"), 1, 1, 1);
        Files.write(dir.resolve("b.png"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        writeGray(dir.resolve("c.png"), 1, 1, 3);
        final List<Captured> out = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(source(dir).failurePolicy(FailurePolicy.DROP_TIMESTAMP).build()))
        {
            graph.observe("frames", capture(out));
            graph.start();
            graph.waitUntilDone();
            assertEquals(1, graph.failures().size(), String.valueOf(graph.failures()));
            final String message = graph.failures().get(0).cause().getMessage();
            assertTrue(message.contains("b.png' (timestamp 1): "), message);
            assertEquals(1, graph.failures().get(0).timestamp(), "the file's timestamp, not 0");
            assertEquals(1, graph.dropCount("source"), "the dropped file is counted");
        }
        assertEquals(2, out.size(), "a's frame went out before the failure, c's after it");
        assertEquals(0, out.get(0).timestamp);
        assertEquals(2, out.get(1).timestamp, "b's timestamp stays unused");
        assertPixels(new int[] {0x030303FF}, out.get(1).rgba());
    }

    /**
     * Four files, the second a 2048 x 2048 frame whose 16 MiB slot is over the hard limit (12 MiB)
     * of a 16 MiB budget; no byte cap on shipments, so the first file's frame is staged in the same
     * call when the second's acquire is refused.
     */
    private GraphConfig.Builder folderWithAnOversizeFrame(final FailurePolicy policy) throws Exception
    {
        writeGray(dir.resolve("a.png"), 1, 1, 1);
        writeGray(dir.resolve("b.png"), 2048, 2048);
        writeGray(dir.resolve("c.png"), 1, 1, 3);
        writeGray(dir.resolve("d.png"), 1, 1, 4);
        return source(dir).failurePolicy(policy).memoryBudget(16L << 20).maxShipmentBytes(-1);
    }

    @Test
    void underDropTimestampAFrameTooLargeForThePoolDropsItsTimestampCountedAndTheRunGoesOn() throws Exception
    {
        final List<Captured> out = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(folderWithAnOversizeFrame(FailurePolicy.DROP_TIMESTAMP).build()))
        {
            graph.observe("frames", capture(out));
            graph.start();
            graph.waitUntilDone();
            assertEquals(1, graph.failureCount(), String.valueOf(graph.failures()));
            assertEquals(1, graph.failures().get(0).timestamp(), "the file's own timestamp, not 0");
            final String message = graph.failures().get(0).cause().getMessage();
            assertTrue(message.contains("b.png' (timestamp 1) is a 2048x2048 frame of 16777216 B, more than this pool " +
                "can ever hold; the file is skipped"), message);
            assertEquals(1, graph.dropCount("source"), "the dropped file is counted");
            assertTrue(graph.report().contains("], 1 dropped"), graph.report());
        }
        assertEquals(3, out.size(), "a (made in the same call, before b) and the files after b come out");
        assertEquals(0, out.get(0).timestamp);
        assertEquals(2, out.get(1).timestamp);
        assertEquals(3, out.get(2).timestamp);
        assertPixels(new int[] {0x040404FF}, out.get(2).rgba());
    }

    @Test
    void underFailRunAFrameTooLargeForThePoolFailsTheRunNamingTheFileAndItsTimestamp() throws Exception
    {
        final GraphException failure;
        try (Graph graph = new Graph(folderWithAnOversizeFrame(FailurePolicy.FAIL_RUN).build()))
        {
            graph.start();
            failure = assertThrows(GraphException.class, graph::waitUntilDone);
        }
        assertEquals(1, failure.failureCount(), failure.getMessage());
        assertEquals(0, failure.failures().get(0).timestamp(), "nothing delivered: a's frame was discarded");
        final String message = failure.failures().get(0).cause().getMessage();
        assertTrue(message.contains("b.png' (timestamp 1) is a 2048x2048 frame"), message);
    }

    @Test
    void aMissingDirectoryFailsInOpenNamingIt() throws Exception
    {
        final Path missing = dir.resolve("nowhere");
        final GraphException failure;
        try (Graph graph = new Graph(source(missing).build()))
        {
            graph.start();
            failure = assertThrows(GraphException.class, graph::waitUntilDone);
        }
        final String message = failure.failures().get(0).cause().getMessage();
        assertTrue(message.contains(missing.toString()) && message.contains("'directory'"), message);
    }

    @Test
    void theDirectoryOptionIsRequired()
    {
        final GraphConfig config = GraphConfig.builder()
            .node("source", n -> n.calculator("ImageFolderSourceCalculator").outputStream("frames"))
            .outputStream("frames")
            .build();
        final GraphConfigException error = assertThrows(GraphConfigException.class, () -> new Graph(config).close());
        assertTrue(error.getMessage().contains("directory"), error.getMessage());
    }
}
