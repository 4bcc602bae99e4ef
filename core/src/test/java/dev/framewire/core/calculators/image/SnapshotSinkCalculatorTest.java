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
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.framewire.core.calculators.image.ImageTestSupport.FrameMaker;
import static dev.framewire.core.calculators.image.ImageTestSupport.assertOwnerOnlyFiles;
import static dev.framewire.core.calculators.image.ImageTestSupport.assertPixels;
import static dev.framewire.core.calculators.image.ImageTestSupport.gray;
import static dev.framewire.core.calculators.image.ImageTestSupport.nv12;
import static dev.framewire.core.calculators.image.ImageTestSupport.padded;
import static dev.framewire.core.calculators.image.ImageTestSupport.rgb;
import static dev.framewire.core.calculators.image.ImageTestSupport.rgba;
import static dev.framewire.core.calculators.image.ImageTestSupport.runFailing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class SnapshotSinkCalculatorTest
{
    @TempDir
    Path dir;

    private static GraphConfig sink(final Path directory, final long every)
    {
        return GraphConfig.builder()
            .inputStream("in")
            .node("sink", n -> n.calculator("SnapshotSinkCalculator").inputStream("in")
                .option("directory", directory.toString()).option("every", every))
            .build();
    }

    private static void feed(final GraphConfig config, final FrameMaker... frames) throws Exception
    {
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (int i = 0; i < frames.length; i++)
            {
                graph.addPacket("in", frames[i].make(graph.pool()), i * 1000L);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    private static List<String> files(final Path directory) throws Exception
    {
        try (Stream<Path> list = Files.list(directory))
        {
            return list.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    @Test
    void writesEveryNthGrayFrameWithExactPixels() throws Exception
    {
        final Path out = dir.resolve("a/b"); // created with its parents
        feed(sink(out, 2),
            gray(2, 2, 0, 1, 2, 3), gray(2, 2, 9, 9, 9, 9), padded(gray(2, 2, 10, 20, 30, 255), 5),
            gray(2, 2, 9, 9, 9, 9), gray(2, 2, 4, 5, 6, 7));
        assertEquals(List.of("in_000000000000.png", "in_000000002000.png", "in_000000004000.png"), files(out));
        final BufferedImage image = ImageIO.read(out.resolve("in_000000002000.png").toFile());
        assertEquals(2, image.getWidth());
        assertEquals(2, image.getHeight());
        assertEquals(BufferedImage.TYPE_BYTE_GRAY, image.getType());
        final int[] pixels = image.getRaster().getPixels(0, 0, 2, 2, (int[])null);
        assertPixels(new int[]{10, 20, 30, 255}, pixels);
    }

    @Test
    void writesRgbaAndRgbColoursExactly() throws Exception
    {
        feed(sink(dir, 1), rgba(2, 1, 0x10203040, 0xFF8001FF), rgb(1, 1, 0x0A0B0C));
        final BufferedImage rgba = ImageIO.read(dir.resolve("in_000000000000.png").toFile());
        assertEquals(0x40102030, rgba.getRGB(0, 0)); // ARGB
        assertEquals(0xFFFF8001, rgba.getRGB(1, 0));
        final BufferedImage rgb = ImageIO.read(dir.resolve("in_000000001000.png").toFile());
        assertEquals(0xFF0A0B0C, rgb.getRGB(0, 0));
    }

    @Test
    void snapshotsAreOwnerOnlyFromTheStartAlsoWhenTheyReplaceAFile() throws Exception
    {
        // a file of the same name readable by all, and a temporary file a crash left behind
        final Path old = Files.writeString(dir.resolve("in_000000000000.png"), "old");
        final Path leftover = Files.writeString(dir.resolve("in_000000001000.png.tmp"), "half");
        if (dir.getFileSystem().supportedFileAttributeViews().contains("posix"))
        {
            Files.setPosixFilePermissions(old, PosixFilePermissions.fromString("rw-r--r--"));
            Files.setPosixFilePermissions(leftover, PosixFilePermissions.fromString("rw-rw-rw-"));
        }
        feed(sink(dir, 1), gray(2, 2, 0, 1, 2, 3), gray(1, 1, 7));
        assertEquals(2, assertOwnerOnlyFiles(dir));
        assertEquals(2, ImageIO.read(old.toFile()).getWidth(), "replaced by the snapshot");
        assertEquals(1, ImageIO.read(dir.resolve("in_000000001000.png").toFile()).getWidth());
    }

    @Test
    void fileNamesAreSafe()
    {
        assertEquals("cam_0_out.x-y_000000000042.png", SnapshotSinkCalculator.fileName("cam/0 out.x-y", 42));
    }

    @Test
    void wrongPixelFormatNamesNodeAndFormat() throws Exception
    {
        final GraphException ex = runFailing(sink(dir, 1), nv12());
        final String message = ex.failures().get(0).cause().getMessage();
        assertTrue(message.contains("node 'sink'") && message.contains("NV12 frame"), message);
    }

    @Test
    void uncreatableDirectoryFailsAtOpen() throws Exception
    {
        final Path file = Files.write(dir.resolve("file"), new byte[1]);
        final GraphException ex = runFailing(sink(file.resolve("sub"), 1));
        final String message = ex.failures().get(0).cause().getMessage();
        assertTrue(message.contains("node 'sink'") && message.contains("cannot create snapshot directory"), message);
    }
}
