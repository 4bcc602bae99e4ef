package dev.framewire.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The limits a {@code .pbtxt} graph config must keep before it is parsed, checked in one pass over
 * the text (time linear in its size, memory constant), so that a hostile or broken file fails fast
 * with an error that names the limit instead of running the parser, the planner or the heap out:
 * <ul>
 *   <li>{@value #MAX_BYTES} bytes of file;</li>
 *   <li>{@value #MAX_DEPTH} levels of nested messages ({@code node { options { ... } }} is 2; the
 *       deepest real MediaPipe configs are under 10);</li>
 *   <li>{@value #MAX_NODES} nodes (each node's queues, counters and histograms take some 100 KiB of
 *       heap when the graph is built: 10,000 nodes run a 1 GiB heap out);</li>
 *   <li>{@value #MAX_STREAMS} stream, side packet and executor entries in all.</li>
 * </ul>
 * The scan knows the text format's lexical rules (quoted strings with escapes, {@code #} comments,
 * {@code {}} and {@code <>} delimiters) and nothing of the schema; the parser reports everything else.
 *
 * <p>Threading: stateless.
 */
final class ConfigLimits
{
    /** The largest config file, in bytes. */
    static final long MAX_BYTES = 16L * 1024 * 1024;
    /** The deepest nesting of messages. */
    static final int MAX_DEPTH = 64;
    /** The most nodes a config may declare. */
    static final int MAX_NODES = 4_096;
    /** The most stream, side packet and executor entries. */
    static final int MAX_STREAMS = 65_536;

    private ConfigLimits()
    {
    }

    /**
     * Checks a file's size before it is read.
     *
     * @throws GraphConfigException if it is larger than {@link #MAX_BYTES}.
     */
    static void checkSize(final Path file) throws IOException
    {
        final long size = Files.size(file);
        if (size > MAX_BYTES)
        {
            throw new GraphConfigException(List.of(file + ": the file is " + size + " bytes, more than a graph config " +
                "may be (" + MAX_BYTES + " bytes); is it a graph config?"));
        }
    }

    /**
     * Checks config text against the limits, in one pass.
     *
     * @param text   the text.
     * @param source the file name, for messages.
     * @throws GraphConfigException naming the limit, and the line where it was passed.
     */
    static void check(final String text, final String source)
    {
        final int length = text.length();
        if (length > MAX_BYTES)
        {
            throw new GraphConfigException(List.of(source + ": the config is " + length + " characters, more than a " +
                "graph config may be (" + MAX_BYTES + " bytes)"));
        }
        int depth = 0;
        int nodes = 0;
        int streams = 0;
        int line = 1;
        int wordStart = -1;
        int i = 0;
        while (i < length)
        {
            final char c = text.charAt(i);
            if (Character.isLetterOrDigit(c) || c == '_')
            {
                if (wordStart < 0)
                {
                    wordStart = i;
                }
                i++;
                continue;
            }
            if (wordStart >= 0)
            {
                if (depth == 0 && is(text, wordStart, i, "node"))
                {
                    if (++nodes > MAX_NODES)
                    {
                        throw limit(source, line, "more than " + MAX_NODES + " nodes");
                    }
                }
                else if (depth <= 1 && isStreamField(text, wordStart, i) && ++streams > MAX_STREAMS)
                {
                    throw limit(source, line, "more than " + MAX_STREAMS + " streams, side packets and executors");
                }
                wordStart = -1;
            }
            if (c == '\n')
            {
                line++;
            }
            else if (c == '#')
            {
                while (i < length && text.charAt(i) != '\n')
                {
                    i++;
                }
                continue;
            }
            else if (c == '"' || c == '\'')
            {
                i++;
                while (i < length && text.charAt(i) != c && text.charAt(i) != '\n')
                {
                    i += text.charAt(i) == '\\' ? 2 : 1;
                }
            }
            else if (c == '{' || c == '<')
            {
                if (++depth > MAX_DEPTH)
                {
                    throw limit(source, line, "messages nested too deep: more than " + MAX_DEPTH + " levels");
                }
            }
            else if ((c == '}' || c == '>') && depth > 0)
            {
                depth--;
            }
            i++;
        }
    }

    private static boolean isStreamField(final String text, final int start, final int end)
    {
        return is(text, start, end, "input_stream") || is(text, start, end, "output_stream") ||
            is(text, start, end, "input_side_packet") || is(text, start, end, "output_side_packet") ||
            is(text, start, end, "executor");
    }

    private static boolean is(final String text, final int start, final int end, final String word)
    {
        return end - start == word.length() && text.startsWith(word, start);
    }

    private static GraphConfigException limit(final String source, final int line, final String what)
    {
        return new GraphConfigException(List.of(source + ":" + line + ": " + what + ", past what a graph config may " +
            "hold (at most " + MAX_DEPTH + " levels of nesting, " + MAX_NODES + " nodes, " + MAX_STREAMS +
            " streams, side packets and executors, " + MAX_BYTES + " bytes); split the graph, or check the file"));
    }
}
