package dev.framewire.core.calculators.video;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the ffmpeg executable and its version, once per path, with an error a user can act on
 * when it is missing.
 */
final class Ffmpeg
{
    /** The default executable, looked up on {@code PATH}. */
    static final String DEFAULT = "ffmpeg";

    private static final Pattern VERSION = Pattern.compile("version\\s+n?(\\d+)\\.(\\d+)");
    private static final ConcurrentHashMap<String, int[]> VERSIONS = new ConcurrentHashMap<>();

    private Ffmpeg()
    {
    }

    /**
     * The major and minor version of an ffmpeg executable; {@code {99, 0}} for a build whose
     * version line has no number (a git build), taken as recent.
     *
     * @param path       the executable.
     * @param calculator for the message.
     * @param node       for the message.
     * @return {major, minor}.
     * @throws IllegalStateException naming the calculator, the node and how to install ffmpeg
     *                               when it cannot be run.
     */
    static int[] version(final String path, final String calculator, final String node)
    {
        final int[] known = VERSIONS.get(path);
        if (known != null)
        {
            return known;
        }
        final String out;
        try
        {
            final Process p = new ProcessBuilder(path, "-hide_banner", "-version").redirectErrorStream(true).start();
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(20, TimeUnit.SECONDS))
            {
                p.destroyForcibly();
                throw missing(path, calculator, node, "'" + path + " -version' did not finish in 20 s");
            }
            if (p.exitValue() != 0)
            {
                throw missing(path, calculator, node, "'" + path + " -version' exited with " + p.exitValue() + ": " +
                    out.trim());
            }
        }
        catch (final IOException ex)
        {
            throw missing(path, calculator, node, "cannot run '" + path + "': " + ex.getMessage());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw missing(path, calculator, node, "interrupted while running '" + path + " -version'");
        }
        final Matcher m = VERSION.matcher(out);
        final int[] version = m.find() ? new int[]{Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))} :
            new int[]{99, 0};
        VERSIONS.put(path, version);
        return version;
    }

    /**
     * Whether a {@link #version} is at least {@code major.minor}: the option names the source and
     * sink pass (e.g. {@code -fps_mode} from 5.1, {@code -vsync} before) depend on it.
     */
    static boolean atLeast(final int[] version, final int major, final int minor)
    {
        return version[0] > major || version[0] == major && version[1] >= minor;
    }

    /**
     * Whether ffmpeg (at its default path) can be run: for tests and tools that skip without it.
     *
     * @return true if {@code ffmpeg -version} runs.
     */
    static boolean available()
    {
        try
        {
            version(DEFAULT, "", "");
            return true;
        }
        catch (final IllegalStateException ex)
        {
            return false;
        }
    }

    private static IllegalStateException missing(final String path, final String calculator, final String node,
        final String why)
    {
        return new IllegalStateException("node '" + node + "' (" + calculator + ") needs ffmpeg, which is not " +
            "usable: " + why + ". Install it (Debian/Ubuntu: apt-get install ffmpeg; Fedora: dnf install ffmpeg; " +
            "macOS: brew install ffmpeg) or give the node's option 'ffmpeg_path' the executable's path");
    }
}
