package dev.framewire.core.calculators.image;

import javax.imageio.ImageIO;
import javax.imageio.stream.FileImageOutputStream;
import javax.imageio.stream.ImageOutputStream;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes the image sinks' PNG files: owner-only ({@code rw-------}) from the moment they exist,
 * and whole or not at all. A frame from a camera is nobody else's business.
 *
 * <p>The image goes into a temporary file created with the owner-only mode in the same system
 * call (the umask can only take bits away, and {@code rw-------} has none it would take), then is
 * moved into place atomically, so a reader never sees half a file and the mode goes with the move
 * (replacing a file of the same name, whatever its mode). ImageIO writes straight into that file:
 * given a stream instead, it would cache the image in a temporary file of its own in
 * {@code java.io.tmpdir}, with the umask's mode. On a file system without POSIX permissions the
 * file gets that file system's defaults.
 *
 * <p>Threading: stateless.
 */
final class PngFiles
{
    private static final String OWNER_ONLY = "rw-------";

    private PngFiles()
    {
    }

    /**
     * Writes an image as a PNG file.
     *
     * @param image the image.
     * @param file  where; replaced if it exists.
     * @throws IOException if it cannot be written (nothing is left behind then).
     */
    static void write(final BufferedImage image, final Path file) throws IOException
    {
        final Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(temporary); // left by a crash, perhaps with another mode: made anew below
        final boolean posix = file.getFileSystem().supportedFileAttributeViews().contains("posix");
        Files.createFile(temporary, posix ?
            new FileAttribute<?>[]{PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(OWNER_ONLY))} :
            new FileAttribute<?>[0]);
        try
        {
            try (RandomAccessFile raf = new RandomAccessFile(temporary.toFile(), "rw");
                ImageOutputStream out = new FileImageOutputStream(raf))
            {
                if (!ImageIO.write(image, "png", out))
                {
                    throw new IOException("no PNG writer in this JVM");
                }
            }
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final IOException | RuntimeException ex)
        {
            Files.deleteIfExists(temporary);
            throw ex;
        }
    }
}
