package dev.framewire.core.internal.log;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hides the password of a url ({@code rtsp://user:secret@host/} becomes
 * {@code rtsp://user:***@host/}) before it is written anywhere another person reads: log lines,
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

    private Redaction()
    {
    }

    /**
     * Text with the password of every url in it masked: a url alone, or a line that holds some
     * (ffmpeg's stderr names its input).
     *
     * @param text anything; null gives null.
     * @return the text, the same instance when it holds no url with a password.
     */
    public static String redact(final String text)
    {
        if (text == null || text.indexOf("://") < 0 || text.indexOf('@') < 0)
        {
            return text;
        }
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
     * Whether a url carries a password ({@code user:password@}).
     *
     * @param url as given.
     * @return true if {@link #redact} would change it.
     */
    public static boolean hasPassword(final String url)
    {
        return url != null && USER_INFO.matcher(url).find();
    }
}
