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
import java.util.Locale;

/**
 * How the secret of a publish url reaches the video sink's ffmpeg without going on its command
 * line, which every local user can read ({@code /proc/PID/cmdline}, {@code ps}).
 *
 * <p>ffmpeg 5.1 (Debian 12) cannot read an output url from a file, but its {@code -fpre FILE}
 * (an output's preset file) reads {@code name=value} lines and sets each as if given as
 * {@code -name value} for that output: format, muxer and protocol options. An SRT url's
 * {@code passphrase} is the libsrt protocol's option of that name, so it moves out of the url
 * into such a file, readable by its owner only, in a private temporary directory (mode 0700):
 * {@code srt://host:9000?passphrase=secret&latency=200000} runs as
 * {@code -fpre /tmp/framewire-publish-.../publish.ffpreset srt://host:9000?latency=200000}.
 *
 * <p>An {@code rtsp://} url's {@code user:password@} has no such option in ffmpeg 5.1 (its RTSP
 * muxer takes them from the url only): ffmpeg publishes, over TCP, to a {@link RtspPublishRelay}
 * on 127.0.0.1 that answers the server's challenge with them. An {@code rtmp://} url's stream
 * key (all after the application: {@code rtmp://host/live/KEY}, the secret of every streaming
 * service's publish url) goes into the preset file as the rtmp protocol's {@code rtmp_playpath},
 * with the application as {@code rtmp_app}, and ffmpeg's url keeps the host alone. An RTMP
 * url's {@code user:password@} has no option in ffmpeg 5.1: the sink refuses it at validation
 * unless its {@code password_on_command_line} accepts the exposure, and then warns.
 *
 * <p>Threading: the sink's worker only.
 */
final class PublishSecrets
{
    private static final Logger LOG = LoggerFactory.getLogger(VideoSinkCalculator.class);

    /** The SRT url parameters that are secrets and libsrt options of the same name. */
    private static final List<String> SRT_SECRETS = List.of("passphrase");

    /** The preset file of the ffmpeg running, if any. */
    private Path file;
    /** The RTSP relay of the ffmpeg running, if any. */
    private RtspPublishRelay relay;

    /**
     * The output arguments for a url: the url itself, or {@code -fpre FILE} and the url
     * without its secrets. The last file, if any, is deleted first.
     *
     * @param url  the publish url, secrets included.
     * @param node the sink node's name.
     * @return the arguments to put where the output url goes.
     * @throws IOException if the preset file cannot be written.
     */
    List<String> output(final String url, final String node) throws IOException
    {
        forget();
        if (RtspPublishRelay.applies(url))
        {
            final RtspPublishRelay started = new RtspPublishRelay(url, node);
            relay = started;
            return List.of("-rtsp_transport", "tcp", "-f", "rtsp", started.start());
        }
        final String rtmpKey = rtmpKey(url);
        if (rtmpKey != null)
        {
            final int app = url.indexOf('/', url.indexOf("://") + 3);
            final int key = url.length() - rtmpKey.length() - 1;
            return withPreset("rtmp_app=" + url.substring(app + 1, key) + "\nrtmp_playpath=" + rtmpKey + "\n",
                url.substring(0, app + 1));
        }
        final int query = url.indexOf('?');
        if (!url.toLowerCase(Locale.ROOT).startsWith("srt://") || query < 0)
        {
            return List.of(url);
        }
        final StringBuilder kept = new StringBuilder(url.substring(0, query));
        final StringBuilder preset = new StringBuilder();
        char separator = '?';
        for (final String pair : url.substring(query + 1).split("&"))
        {
            final int eq = pair.indexOf('=');
            final String name = eq < 0 ? pair : pair.substring(0, eq);
            if (eq > 0 && SRT_SECRETS.contains(name))
            {
                preset.append(name).append('=').append(pair.substring(eq + 1)).append('\n');
            }
            else if (!pair.isEmpty())
            {
                kept.append(separator).append(pair);
                separator = '&';
            }
        }
        if (preset.length() == 0)
        {
            return List.of(url);
        }
        return withPreset(preset.toString(), kept.toString());
    }

    /**
     * An RTMP url's stream key, all after its application ({@code rtmp://host/app/KEY?query} gives
     * {@code KEY?query}), or null for another url or one with no key.
     */
    static String rtmpKey(final String url)
    {
        final String lower = url.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("rtmp://") && !lower.startsWith("rtmps://"))
        {
            return null;
        }
        final int app = url.indexOf('/', url.indexOf("://") + 3);
        final int key = app < 0 ? -1 : url.indexOf('/', app + 1);
        return key < 0 || key == url.length() - 1 ? null : url.substring(key + 1);
    }

    /** {@code -fpre FILE} (the lines, in an owner-only file in a private directory) and the url. */
    private List<String> withPreset(final String lines, final String url) throws IOException
    {
        final Path dir = Files.createTempDirectory("framewire-publish-"); // 0700 on POSIX
        final Path written = dir.resolve("publish.ffpreset");
        Files.createFile(written, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        file = written;
        try (Writer w = Files.newBufferedWriter(written, StandardCharsets.UTF_8))
        {
            w.write(lines);
        }
        return List.of("-fpre", written.toString(), url);
    }

    /** Deletes the preset file and closes the relay, if any: ffmpeg has finished, or is gone. */
    void forget()
    {
        final RtspPublishRelay r = relay;
        relay = null;
        if (r != null)
        {
            r.close();
        }
        final Path written = file;
        file = null;
        if (written != null)
        {
            try
            {
                Files.deleteIfExists(written);
                Files.deleteIfExists(written.getParent());
            }
            catch (final IOException ex)
            {
                LOG.warn("VideoSinkCalculator: cannot delete the publish preset file {}: {}", written, ex.toString());
            }
        }
    }
}
