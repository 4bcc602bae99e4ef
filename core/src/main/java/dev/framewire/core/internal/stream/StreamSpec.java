package dev.framewire.core.internal.stream;

import java.util.regex.Pattern;

/**
 * A parsed stream or side packet reference: {@code name}, {@code TAG:name} or
 * {@code TAG:index:name}, with MediaPipe's rules for tags ({@code [A-Z_][A-Z0-9_]*}) and names
 * ({@code [a-z_][a-z0-9_]*}).
 *
 * <p>Threading: immutable.
 */
public final class StreamSpec
{
    public static final String SYNTAX = "[TAG:[index:]]name, TAG matching [A-Z_][A-Z0-9_]*, index a non-negative" +
        " integer, name matching [a-z_][a-z0-9_]*";
    private static final Pattern TAG = Pattern.compile("[A-Z_][A-Z0-9_]*");
    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]*");
    private static final Pattern INDEX = Pattern.compile("0|[1-9][0-9]{0,8}");

    public final String tag;
    public final int index;
    public final String name;

    private StreamSpec(final String tag, final int index, final String name)
    {
        this.tag = tag;
        this.index = index;
        this.name = name;
    }

    /**
     * Parses a spec.
     *
     * @return the spec, or null if malformed (the caller reports it with its context).
     */
    public static StreamSpec parse(final String spec)
    {
        if (spec == null)
        {
            return null;
        }
        final String[] parts = spec.split(":", -1);
        if (parts.length == 1 && NAME.matcher(parts[0]).matches())
        {
            return new StreamSpec("", 0, parts[0]);
        }
        if (parts.length == 2 && TAG.matcher(parts[0]).matches() && NAME.matcher(parts[1]).matches())
        {
            return new StreamSpec(parts[0], 0, parts[1]);
        }
        if (parts.length == 3 && TAG.matcher(parts[0]).matches() && INDEX.matcher(parts[1]).matches() &&
            NAME.matcher(parts[2]).matches())
        {
            return new StreamSpec(parts[0], Integer.parseInt(parts[1]), parts[2]);
        }
        return null;
    }

    /** Whether {@code key} (a {@code TAG:index}, a {@code TAG}, or a stream name) refers to this spec. */
    public boolean matches(final String key)
    {
        if (key.equals(name))
        {
            return true;
        }
        if (tag.isEmpty())
        {
            return false;
        }
        return key.equals(tag + ":" + index) || (index == 0 && key.equals(tag));
    }

    @Override
    public String toString()
    {
        return tag.isEmpty() ? name : tag + ":" + index + ":" + name;
    }
}
