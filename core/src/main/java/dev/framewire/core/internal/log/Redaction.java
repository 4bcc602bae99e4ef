package dev.framewire.core.internal.log;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hides the password of a url ({@code rtsp://user:secret@host/} becomes
 * {@code rtsp://user:***@host/}, {@code srt://host:9000?passphrase=secret} becomes
 * {@code srt://host:9000?passphrase=***}) before it is written anywhere another person reads: log lines,
 * exception messages, journal notes, metric tags, a child's stderr kept for reports. The one
 * function for it, so that every path redacts the same way.
 *
 * <p>A user name alone ({@code rtsp://admin@host}) is kept: it is not a secret and tells an
 * operator which account a camera uses. A url whose user info is all password-like
 * ({@code rtsp://:secret@host}) is redacted the same way.
 *
 * <p>Threading: stateless; any thread.
 */
public final class Redaction
{
    /** What a password is replaced with. */
    public static final String MASK = "***";

    // scheme://user:password@ ; the password runs to the last '@' before the host's '/', '?' or
    // '#' (a password may hold '@' unescaped; ffmpeg takes the last '@' too)
    private static final Pattern USER_INFO = Pattern.compile(
        "([A-Za-z][A-Za-z0-9+.-]*://)([^/?#@:\\s]*):([^/?#\\s]*)@");

    // a secret url parameter: SRT's passphrase (srt://host:9000?passphrase=...), or a password
    // or token given in a query
    private static final Pattern QUERY_SECRET = Pattern.compile(
        "([?&](?:passphrase|password|passwd|pass|pwd|token)=)([^&#\\s'\"]*)", Pattern.CASE_INSENSITIVE);

    // an RTMP url's stream key: everything after the application, rtmp://host/app/KEY (the key
    // publishes to the account, as a password does)
    private static final Pattern RTMP_KEY = Pattern.compile(
        "((?i:rtmps?|rtmpt|rtmpe|rtmpte)://[^/\\s]+/[^/?#\\s]+/)([^?#\\s'\"]+)");

    private Redaction()
    {
    }

    /**
     * Text with the password of every url in it masked: a url alone, or a line that holds some
     * (ffmpeg's stderr names its input). A {@code user:password@} loses its password, and a
     * query's {@code passphrase=}, {@code password=}, {@code passwd=}, {@code pass=}, {@code pwd=} or
     * {@code token=} its value ({@code srt://host:9000?passphrase=***&latency=200}), and an RTMP
     * url its stream key, all after the application ({@code rtmp://host/live/***}).
     *
     * @param text anything; null gives null.
     * @return the text, the same instance when it holds no url with a password.
     */
    public static String redact(final String text)
    {
        if (text == null || text.indexOf("://") < 0)
        {
            return text;
        }
        final String userless = text.indexOf('@') < 0 ? text : maskUserInfo(text);
        final String masked = userless.toLowerCase(Locale.ROOT).contains("rtmp") ? RTMP_KEY.matcher(userless).replaceAll("$1" + MASK) : userless;
        if (masked.indexOf('=') < 0)
        {
            return masked;
        }
        final Matcher q = QUERY_SECRET.matcher(masked);
        return q.find() ? q.replaceAll("$1" + MASK) : masked;
    }

    private static String maskUserInfo(final String text)
    {
        final Matcher m = USER_INFO.matcher(text);
        if (!m.find())
        {
            return text;
        }
        final StringBuilder out = new StringBuilder(text.length());
        int from = 0;
        do
        {
            out.append(text, from, m.start(3)).append(MASK).append('@');
            from = m.end();
        }
        while (m.find());
        return out.append(text, from, text.length()).toString();
    }

    /**
     * Whether a url carries a password in its user info ({@code user:password@}); a query's
     * secrets, which {@link #redact} masks too, do not count.
     *
     * @param url as given.
     * @return true if the url has {@code user:password@}.
     */
    public static boolean hasPassword(final String url)
    {
        return url != null && USER_INFO.matcher(url).find();
    }
}
