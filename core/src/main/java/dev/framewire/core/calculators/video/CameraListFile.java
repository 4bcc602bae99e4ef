package dev.framewire.core.calculators.video;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * How a camera url with a password reaches ffmpeg without going on its command line, which every
 * local user can read ({@code /proc/PID/cmdline}, {@code ps}): an ffconcat list file, readable by
 * its owner only, in a private temporary directory (mode 0700), that ffmpeg opens with its concat
 * demuxer ({@code -f concat -safe 0}). The concat demuxer opens the url with the list's
 * {@code option NAME VALUE} lines, which carry the source's input options:
 *
 * <pre>
 *   ffconcat version 1.0
 *   file 'rtsp://viewer:secret@192.168.1.64:554/Streaming/Channels/101'
 *   option rtsp_transport tcp
 * </pre>
 *
 * <p>The file lives only while ffmpeg opens it: {@link #forget} deletes it once ffmpeg has
 * delivered the stream's header, and at the end of every attempt.
 *
 * <p>Threading: the source's reader thread.
 */
final class CameraListFile
{
    private static final Logger LOG = LoggerFactory.getLogger(VideoSourceCalculator.class);

    /** The list file of the attempt running, if any. */
    private Path file;

    /**
     * Writes the list of a url: the url, then the input options as the list's
     * {@code option NAME VALUE} lines (an option without a value gets "1"). The last list, if
     * any, is deleted first.
     *
     * @param url   the url, with its password.
     * @param input the input options, {@code -name [value]...}.
     * @return the file to give ffmpeg's {@code -i}.
     * @throws IOException if an option is not {@code -name}, or the file cannot be written.
     */
    Path write(final String url, final List<String> input) throws IOException
    {
        forget();
        final StringBuilder text = new StringBuilder("ffconcat version 1.0\nfile '")
            .append(url.replace("'", "'\\''")).append("'\n");
        for (int i = 0; i < input.size(); i++)
        {
            final String name = input.get(i);
            if (!name.startsWith("-") || name.length() < 2)
            {
                throw new IOException("input_options: '" + name + "' is not an option name (-name); with a " +
                    "password in the url the options go into ffmpeg's concat list as NAME VALUE pairs");
            }
            final boolean valued = i + 1 < input.size() && !input.get(i + 1).startsWith("-");
            text.append("option ").append(name.substring(1)).append(' ')
                .append(valued ? input.get(++i) : "1").append('\n');
        }
        final Path dir = Files.createTempDirectory("framewire-camera-"); // 0700 on POSIX
        final Path list = dir.resolve("input.ffconcat");
        Files.createFile(list, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        file = list;
        try (Writer w = Files.newBufferedWriter(list, StandardCharsets.UTF_8))
        {
            w.write(text.toString());
        }
        return list;
    }

    /** Deletes the list file of the last attempt, if any: ffmpeg has read it, or is gone. */
    void forget()
    {
        final Path list = file;
        file = null;
        if (list != null)
        {
            try
            {
                Files.deleteIfExists(list);
                Files.deleteIfExists(list.getParent());
            }
            catch (final IOException ex)
            {
                LOG.warn("VideoSourceCalculator: cannot delete the camera list file {}: {}", list, ex.toString());
            }
        }
    }
}
