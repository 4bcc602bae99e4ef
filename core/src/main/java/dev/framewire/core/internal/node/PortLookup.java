package dev.framewire.core.internal.node;

import dev.framewire.core.internal.stream.InputPort;
import dev.framewire.core.internal.stream.OutputStream;

/**
 * A node's input ports and outputs by stream name or by tag ({@code TAG}, {@code TAG:index}), for
 * {@link CallContext}: one lookup for both kinds, with no allocation when the key is a name or a tag
 * of index 0. Stateless.
 */
final class PortLookup
{
    private PortLookup()
    {
    }

    /**
     * The position in {@code ports} (an {@link InputPort} or {@link OutputStream} array) of the one
     * named or tagged {@code key}.
     *
     * @throws IllegalArgumentException naming the node and listing its valid keys, when none matches.
     */
    static int indexOf(final Object[] ports, final String kind, final String node, final String key)
    {
        for (int i = 0; i < ports.length; i++)
        {
            final Object port = ports[i];
            if (nameOf(port).equals(key) || matchesTag(tagOf(port), tagIndexOf(port), key))
            {
                return i;
            }
        }
        final StringBuilder valid = new StringBuilder();
        for (final Object port : ports)
        {
            final String tag = tagOf(port);
            valid.append(valid.length() == 0 ? "" : ", ").append(tag.isEmpty() ? nameOf(port) :
                tag + ":" + tagIndexOf(port) + " (" + nameOf(port) + ")");
        }
        throw new IllegalArgumentException("node '" + node + "' has no " + kind + " '" + key + "'; its " + kind +
            "s are [" + valid + "]");
    }

    private static String nameOf(final Object port)
    {
        return port instanceof InputPort ? ((InputPort)port).streamName : ((OutputStream)port).name;
    }

    private static String tagOf(final Object port)
    {
        return port instanceof InputPort ? ((InputPort)port).tag : ((OutputStream)port).tag;
    }

    private static int tagIndexOf(final Object port)
    {
        return port instanceof InputPort ? ((InputPort)port).tagIndex : ((OutputStream)port).tagIndex;
    }

    private static boolean matchesTag(final String tag, final int tagIndex, final String key)
    {
        if (tag.isEmpty() || !key.startsWith(tag))
        {
            return false;
        }
        if (key.length() == tag.length())
        {
            return tagIndex == 0;
        }
        return key.charAt(tag.length()) == ':' && key.substring(tag.length() + 1).equals(Integer.toString(tagIndex));
    }
}
