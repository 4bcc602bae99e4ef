package dev.framewire.tools;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The journal retention values the command line takes: an age ({@code 90s}, {@code 30m},
 * {@code 12h}, {@code 7d}, {@code 2w}, or ISO-8601 such as {@code P7D}) and a size (bytes, or a
 * number with {@code K}, {@code M}, {@code G} or {@code T}, binary: {@code 1K} is 1024 bytes).
 * picocli converters; a value they refuse is a usage error naming the option and what is valid.
 *
 * <p>Threading: stateless.
 */
final class Retention
{
    private static final Pattern AGE = Pattern.compile("(\\d+)\\s*(s|m|min|h|d|w)", Pattern.CASE_INSENSITIVE);
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([kmgt]?)(?:i?b)?",
        Pattern.CASE_INSENSITIVE);

    private Retention()
    {
    }

    /** An age: a whole number and a unit, or ISO-8601. */
    static final class AgeConverter implements ITypeConverter<Duration>
    {
        @Override
        public Duration convert(final String value)
        {
            return age(value);
        }
    }

    /** A size in bytes: a number, with an optional binary unit. */
    static final class SizeConverter implements ITypeConverter<Long>
    {
        @Override
        public Long convert(final String value)
        {
            return size(value);
        }
    }

    /** {@code --journal-max-age none}: runs of any age are kept (compared by identity). */
    static final Duration NO_AGE_LIMIT = Duration.ofSeconds(Long.MAX_VALUE);
    /** {@code --journal-max-size none}. */
    static final long NO_SIZE_LIMIT = -1;

    static Duration age(final String value)
    {
        final String text = value.strip();
        if ("none".equalsIgnoreCase(text))
        {
            return NO_AGE_LIMIT;
        }
        final Matcher m = AGE.matcher(text);
        if (m.matches())
        {
            try
            {
                final long n = Long.parseLong(m.group(1));
                switch (m.group(2).toLowerCase(Locale.ROOT))
                {
                    case "s":
                        return Duration.ofSeconds(n);
                    case "m":
                    case "min":
                        return Duration.ofMinutes(n);
                    case "h":
                        return Duration.ofHours(n);
                    case "d":
                        return Duration.ofDays(n);
                    default:
                        return Duration.ofDays(Math.multiplyExact(n, 7));
                }
            }
            catch (final NumberFormatException | ArithmeticException ex)
            {
                throw new TypeConversionException("'" + value + "' is too large an age");
            }
        }
        if (text.toUpperCase(Locale.ROOT).startsWith("P"))
        {
            try
            {
                final Duration d = Duration.parse(text.toUpperCase(Locale.ROOT));
                if (!d.isNegative())
                {
                    return d;
                }
            }
            catch (final DateTimeParseException ex)
            {
                // said below
            }
        }
        throw new TypeConversionException("'" + value + "' is not an age; give a whole number and a unit: 90s, " +
            "30m, 12h, 7d or 2w (or ISO-8601, such as P7D), or none");
    }

    static long size(final String value)
    {
        if ("none".equalsIgnoreCase(value.strip()))
        {
            return NO_SIZE_LIMIT;
        }
        final Matcher m = SIZE.matcher(value.strip());
        if (!m.matches())
        {
            throw new TypeConversionException("'" + value + "' is not a size; give bytes, or a number with K, M, G " +
                "or T (binary: 1K = 1024 bytes), such as 500M or 10G, or none");
        }
        final int shift;
        switch (m.group(2).toLowerCase(Locale.ROOT))
        {
            case "k":
                shift = 10;
                break;
            case "m":
                shift = 20;
                break;
            case "g":
                shift = 30;
                break;
            case "t":
                shift = 40;
                break;
            default:
                shift = 0;
        }
        final BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(1L << shift));
        if (bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0)
        {
            throw new TypeConversionException("'" + value + "' is too large a size");
        }
        return bytes.longValue();
    }
}
