package dev.framewire.core.internal.run;

import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Takes the bracketed extension and Any blocks ({@code [mediapipe.FooOptions.ext] { ... }},
 * {@code [type.googleapis.com/mediapipe.Foo] { ... }}) out of {@code .pbtxt} text before protobuf's
 * parser sees it, since their types are MediaPipe's and not compiled here. Each block is blanked
 * with spaces (newlines kept, so every line and column the parser reports stays right) and
 * recorded with its field path, as {@code node[3].options[0]} or {@code node[0].node_options[1]}: every message field with its index among its repeats.
 *
 * <p>The scan knows the text format's lexical rules (strings with escapes, {@code #} comments,
 * {@code {}} and {@code <>} message delimiters) and nothing of the schema: a malformed block is left
 * for the parser to report.
 *
 * <p>Threading: one instance per text, on one thread.
 */
public final class TextExtensions
{
    /** One block taken out. */
    public static final class Block
    {
        public final String path;
        public final String name;
        public final String text;
        public final int line;

        public Block(final String path, final String name, final String text, final int line)
        {
            this.path = path;
            this.name = name;
            this.text = text;
            this.line = line;
        }
    }

    private final char[] chars;
    private final List<Block> blocks = new ArrayList<>();
    private int pos;
    private int line = 1;

    private TextExtensions(final String text)
    {
        this.chars = text.toCharArray();
    }

    /**
     * Scans text.
     *
     * @param text the config text.
     * @return the scan: {@link #text()} without the blocks, {@link #blocks()} the blocks.
     */
    public static TextExtensions scan(final String text)
    {
        final TextExtensions scan = new TextExtensions(text);
        scan.run();
        return scan;
    }

    public String text()
    {
        return new String(chars);
    }

    public List<Block> blocks()
    {
        return blocks;
    }

    /** The blocks at a path. */
    public List<Block> at(final String path)
    {
        final List<Block> found = new ArrayList<>();
        for (final Block block : blocks)
        {
            if (block.path.equals(path))
            {
                found.add(block);
            }
        }
        return found;
    }

    private void run()
    {
        final Deque<String> path = new ArrayDeque<>();
        final Deque<Map<String, Integer>> counts = new ArrayDeque<>();
        counts.push(new HashMap<>());
        String lastName = null;
        while (pos < chars.length)
        {
            final char c = chars[pos];
            if (skipNewlineOrComment(c))
            {
                continue;
            }
            if (c == '"' || c == '\'')
            {
                skipString();
                lastName = null;
            }
            else if (Character.isLetter(c) || c == '_')
            {
                final int start = pos;
                while (pos < chars.length && (Character.isLetterOrDigit(chars[pos]) || chars[pos] == '_'))
                {
                    pos++;
                }
                lastName = new String(chars, start, pos - start);
            }
            else if (c == '{' || c == '<')
            {
                final String field = lastName == null ? "?" : lastName;
                final int index = counts.peek().merge(field, 1, Integer::sum) - 1;
                path.push((path.isEmpty() ? "" : path.peek() + ".") + field + "[" + index + "]");
                counts.push(new HashMap<>());
                lastName = null;
                pos++;
            }
            else if (c == '}' || c == '>')
            {
                if (!path.isEmpty())
                {
                    path.pop();
                    counts.pop();
                }
                lastName = null;
                pos++;
            }
            else if (c == '[' && !path.isEmpty() && !insideList())
            {
                takeBlock(path.peek());
                lastName = null;
            }
            else
            {
                if (c != ':' && !Character.isWhitespace(c))
                {
                    lastName = null;
                }
                pos++;
            }
        }
    }

    /** Whether this '[' opens a list value ({@code field: [1, 2]}) rather than an extension name. */
    private boolean insideList()
    {
        int p = pos - 1;
        while (p >= 0 && Character.isWhitespace(chars[p]))
        {
            p--;
        }
        return p >= 0 && (chars[p] == ':' || chars[p] == ',');
    }

    private void takeBlock(final String parentPath)
    {
        final int start = pos;
        final int startLine = line;
        int close = pos;
        while (close < chars.length && chars[close] != ']' && chars[close] != '\n')
        {
            close++;
        }
        if (close >= chars.length || chars[close] != ']')
        {
            pos++;
            return; // not an extension name; the parser will say what is wrong
        }
        final String name = new String(chars, start + 1, close - start - 1).trim();
        pos = close + 1;
        skipSpace();
        if (pos < chars.length && chars[pos] == ':')
        {
            pos++;
            skipSpace();
        }
        final String text;
        if (pos < chars.length && (chars[pos] == '{' || chars[pos] == '<'))
        {
            final int bodyStart = pos + 1;
            int depth = 0;
            do
            {
                final char c = chars[pos];
                if (skipNewlineOrComment(c))
                {
                    continue;
                }
                if (c == '"' || c == '\'')
                {
                    skipString();
                }
                else
                {
                    depth += c == '{' || c == '<' ? 1 : c == '}' || c == '>' ? -1 : 0;
                    pos++;
                }
            }
            while (depth > 0 && pos < chars.length);
            if (depth > 0)
            {
                pos = start + 1;
                line = startLine;
                return; // unbalanced: left for the parser
            }
            text = new String(chars, bodyStart, pos - 1 - bodyStart);
        }
        else
        {
            final int valueStart = pos;
            if (pos < chars.length && (chars[pos] == '"' || chars[pos] == '\''))
            {
                skipString();
            }
            else
            {
                while (pos < chars.length && !Character.isWhitespace(chars[pos]) && chars[pos] != '}' &&
                    chars[pos] != '>' && chars[pos] != ';' && chars[pos] != ',')
                {
                    pos++;
                }
            }
            text = new String(chars, valueStart, pos - valueStart);
        }
        blocks.add(new Block(parentPath, name, text, startLine));
        for (int p = start; p < pos; p++)
        {
            if (chars[p] != '\n')
            {
                chars[p] = ' ';
            }
        }
    }

    private void skipSpace()
    {
        while (pos < chars.length && Character.isWhitespace(chars[pos]))
        {
            if (chars[pos] == '\n')
            {
                line++;
            }
            pos++;
        }
    }

    /** Steps over a newline (counting the line) or a comment at {@code c}; false if {@code c} starts neither. */
    private boolean skipNewlineOrComment(final char c)
    {
        if (c == '\n')
        {
            line++;
            pos++;
            return true;
        }
        if (c == '#')
        {
            skipComment();
            return true;
        }
        return false;
    }

    private void skipComment()
    {
        while (pos < chars.length && chars[pos] != '\n')
        {
            pos++;
        }
    }

    private void skipString()
    {
        final char quote = chars[pos++];
        while (pos < chars.length && chars[pos] != quote && chars[pos] != '\n')
        {
            if (chars[pos] == '\\')
            {
                pos++;
            }
            pos++;
        }
        if (pos < chars.length && chars[pos] == quote)
        {
            pos++;
        }
    }
}
