package dev.framewire.core.execution;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static dev.framewire.core.execution.Execution.parked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seed 004 §4 Phase 2.5: a folder of 10,000 images goes through a graph in shipments, so the
 * off-heap memory of the run is bounded by one shipment, not by the folder.
 * <pre>
 *   ImageFolderSource --frames--> BrightnessContrast --brighter--> ImageFolderSink
 * </pre>
 */
@Timeout(120)
class ShipmentTest
{
    private static final int IMAGES = 10_000;
    private static final int SIDE = 8;
    private static final int SHIPMENT = 64;
    /** An 8x8 RGBA32 frame is 256 bytes, the pool's smallest slot. */
    private static final long SLOT = 256;
    private static final int VARIANTS = 16;

    @TempDir
    Path dir;

    /** Image {@code v}'s pixel at {@code (x, y)} as ARGB: opaque, every channel below 246. */
    private static int argb(final int v, final int x, final int y)
    {
        return 0xFF00_0000 | (v * 15) << 16 | (x * 30) << 8 | y * 30;
    }

    private static byte[] png(final int v) throws Exception
    {
        final BufferedImage image = new BufferedImage(SIDE, SIDE, BufferedImage.TYPE_INT_ARGB);
        for (int y = 0; y < SIDE; y++)
        {
            for (int x = 0; x < SIDE; x++)
            {
                image.setRGB(x, y, argb(v, x, y));
            }
        }
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertTrue(ImageIO.write(image, "png", bytes));
        return bytes.toByteArray();
    }

    @Test
    void tenThousandImagesRunInShipmentsWithPeakMemoryOfAboutOneShipment() throws Exception
    {
        final long setup = System.nanoTime();
        final Path in = Files.createDirectory(dir.resolve("in"));
        final Path out = dir.resolve("out");
        final byte[][] variants = new byte[VARIANTS][];
        for (int v = 0; v < VARIANTS; v++)
        {
            variants[v] = png(v);
        }
        for (int i = 0; i < IMAGES; i++)
        {
            Files.write(in.resolve(String.format("img%05d.png", i)), variants[i % VARIANTS]);
        }

        final GraphConfig config = parked(1)
            .maxShipmentSize(SHIPMENT)
            .node("load", n -> n.calculator("ImageFolderSourceCalculator").outputStream("frames")
                .option("directory", in.toString()))
            .node("brighten", n -> n.calculator("BrightnessContrastCalculator").inputStream("frames")
                .outputStream("brighter").option("brightness", 10L))
            .node("save", n -> n.calculator("ImageFolderSinkCalculator").inputStream("brighter")
                .option("directory", out.toString()))
            .build();
        final long started = System.nanoTime();
        final long setupMillis = TimeUnit.NANOSECONDS.toMillis(started - setup);
        final long peak;
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilDone();
            peak = graph.pool().budget().peakBytesInUse();
            assertEquals((IMAGES + SHIPMENT - 1) / SHIPMENT, graph.callCount("load"), "157 shipments of 64 or fewer");
            assertEquals(IMAGES, graph.callCount("save"));
        }
        final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        final long files;
        try (Stream<Path> list = Files.list(out))
        {
            files = list.filter(p -> p.getFileName().toString().endsWith(".png")).count();
        }
        System.out.printf("%d %dx%d PNGs (made in %d ms) read, brightened and written in %d ms in shipments of %d: " +
            "peak off-heap %d B (%d frames of %d B)%n", IMAGES, SIDE, SIDE, setupMillis, millis, SHIPMENT, peak,
            peak / SLOT, SLOT);

        assertEquals(IMAGES, files);
        assertTrue(peak <= (SHIPMENT + 2) * SLOT, "peak " + peak + " B is " + peak / SLOT + " frames; a shipment is " +
            SHIPMENT);
        for (final int i : new int[] {0, 1, 4_999, IMAGES - 1})
        {
            final BufferedImage written = ImageIO.read(out.resolve(String.format("frame_%012d.png", i)).toFile());
            for (int y = 0; y < SIDE; y++)
            {
                for (int x = 0; x < SIDE; x++)
                {
                    assertEquals(argb(i % VARIANTS, x, y) + 0x000A_0A0A, written.getRGB(x, y),
                        "image " + i + " at (" + x + ", " + y + ")");
                }
            }
        }
    }
}
