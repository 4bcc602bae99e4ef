package dev.framewire.core.calculators.image;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.framewire.core.calculators.image.ImageFolderSourceCalculatorTest.writeGray;
import static dev.framewire.core.calculators.image.ImageFolderSourceCalculatorTest.writeRgba;
import static dev.framewire.core.calculators.image.ImageTestSupport.FrameMaker;
import static dev.framewire.core.calculators.image.ImageTestSupport.assertPixels;
import static dev.framewire.core.calculators.image.ImageTestSupport.gray;
import static dev.framewire.core.calculators.image.ImageTestSupport.padded;
import static dev.framewire.core.calculators.image.ImageTestSupport.rgb;
import static dev.framewire.core.calculators.image.ImageTestSupport.rgba;
import static dev.framewire.core.calculators.image.ImageTestSupport.runFailing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The image folder sink: one PNG per frame named by prefix and zero-padded timestamp, exact
 * pixels for RGBA32 and GRAY8 (padded rows too), the folder made when missing; and the round trip
 * folder to graph to folder with every pixel the same.
 */
@Timeout(30)
class ImageFolderSinkCalculatorTest
{
    @TempDir
    Path dir;

    private static GraphConfig sink(final Path directory, final Object... options)
    {
        return GraphConfig.builder()
            .inputStream("in")
            .node("sink", n ->
            {
                n.calculator("ImageFolderSinkCalculator").inputStream("in").option("directory", directory.toString());
                for (int i = 0; i < options.length; i += 2)
                {
                    n.option((String)options[i], options[i + 1]);
                }
            })
            .build();
    }

    private static void feed(final GraphConfig config, final long[] timestamps, final FrameMaker... frames)
        throws Exception
    {
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (int i = 0; i < frames.length; i++)
            {
                graph.addPacket("in", frames[i].make(graph.pool()), timestamps[i]);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    static List<String> files(final Path directory) throws Exception
    {
        try (Stream<Path> list = Files.list(directory))
        {
            return list.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    /** A PNG's pixels as {@code 0xRRGGBBAA}, exactly as stored (gray read sample by sample). */
    static int[] readRgba(final Path file) throws Exception
    {
        final BufferedImage image = ImageIO.read(file.toFile());
        final int w = image.getWidth();
        final int[] out = new int[w * image.getHeight()];
        for (int i = 0; i < out.length; i++)
        {
            if (image.getType() == BufferedImage.TYPE_BYTE_GRAY)
            {
                final int g = image.getRaster().getSample(i % w, i / w, 0);
                out[i] = g << 24 | g << 16 | g << 8 | 0xFF;
            }
            else
            {
                final int argb = image.getRGB(i % w, i / w);
                out[i] = argb << 8 | argb >>> 24;
            }
        }
        return out;
    }

    @Test
    void writesRgbaAndGrayFramesAsPngsNamedByPrefixAndTimestampWithExactPixels() throws Exception
    {
        final Path out = dir.resolve("made/by/sink");
        feed(sink(out, "prefix", "shot-"), new long[] {0, 7, 1_234_567},
            rgba(2, 2, 0xFF000080, 0x00FF00FF, 0x0000FF00, 0x12345678),
            padded(gray(3, 1, 0, 128, 255), 5),
            padded(rgba(1, 2, 0xCAFEBABE, 0x01020304), 12));

        assertEquals(List.of("shot-000000000000.png", "shot-000000000007.png", "shot-000001234567.png"), files(out));
        assertEquals(3, ImageTestSupport.assertOwnerOnlyFiles(out), "owner-only, nothing left half-written");
        assertPixels(new int[] {0xFF000080, 0x00FF00FF, 0x0000FF00, 0x12345678},
            readRgba(out.resolve("shot-000000000000.png")));
        assertEquals(BufferedImage.TYPE_BYTE_GRAY, ImageIO.read(out.resolve("shot-000000000007.png").toFile()).getType(),
            "a GRAY8 frame is a gray PNG");
        assertPixels(new int[] {0x000000FF, 0x808080FF, 0xFFFFFFFF}, readRgba(out.resolve("shot-000000000007.png")));
        assertPixels(new int[] {0xCAFEBABE, 0x01020304}, readRgba(out.resolve("shot-000001234567.png")));
    }

    @Test
    void defaultPrefixIsFrame() throws Exception
    {
        feed(sink(dir), new long[] {42}, gray(1, 1, 9));
        assertEquals(List.of("frame_000000000042.png"), files(dir));
    }

    @Test
    void aFormatItCannotWriteFailsNamingNodeAndFormat() throws Exception
    {
        final GraphException failure = runFailing(sink(dir), rgb(1, 1, 0x010203));
        final String message = failure.failures().get(0).cause().getMessage();
        assertTrue(message.contains("'sink'") && message.contains("RGB24") && message.contains("RGBA32 or GRAY8"),
            message);
    }

    @Test
    void roundTripFolderThroughTheGraphToFolderKeepsEveryPixel() throws Exception
    {
        final Path in = Files.createDirectory(dir.resolve("in"));
        final Path out = dir.resolve("out");
        writeRgba(in.resolve("0.png"), 3, 2,
            0xFF000080, 0x00FF00FF, 0x0000FFFF, 0x12345678, 0xFFFFFF00, 0x00000001);
        writeGray(in.resolve("1.png"), 2, 2, 0, 1, 128, 255);
        writeRgba(in.resolve("2.png"), 1, 3, 0xDEADBEEF, 0x00000000, 0xFFFFFFFF);
        final GraphConfig config = GraphConfig.builder()
            .maxShipmentSize(2)
            .node("source", n -> n.calculator("ImageFolderSourceCalculator").outputStream("frames")
                .option("directory", in.toString()))
            .node("sink", n -> n.calculator("ImageFolderSinkCalculator").inputStream("frames")
                .option("directory", out.toString()).option("prefix", "copy_"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(List.of("copy_000000000000.png", "copy_000000000001.png", "copy_000000000002.png"), files(out));
        for (int i = 0; i < 3; i++)
        {
            assertPixels(readRgba(in.resolve(i + ".png")), readRgba(out.resolve("copy_00000000000" + i + ".png")));
        }
    }
}
