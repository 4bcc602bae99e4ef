package dev.framewire.core;

import dev.framewire.core.internal.run.EnumErrors;
import dev.framewire.core.internal.run.TextExtensions;

import com.google.protobuf.Descriptors;
import com.google.protobuf.ExtensionRegistry;
import com.google.protobuf.TextFormat;
import com.google.protobuf.TextFormatParseInfoTree;
import com.google.protobuf.TextFormatParseLocation;
import dev.framewire.core.config.proto.CalculatorGraphConfig;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Graph configs in MediaPipe's text format ({@code .pbtxt}), read with protobuf-java's
 * {@link TextFormat} against Framewire's own {@code framewire/graph_config.proto}: the fields of
 * MediaPipe's {@code CalculatorGraphConfig} Framewire supports, with their names, plus its own
 * run-wide settings. A field the proto does not have, a syntax error, an unknown calculator, input
 * stream handler or option is reported with the file, the line and what is valid; nothing is
 * silently ignored. {@link #write(GraphConfig)} gives the text back, so builder to text to builder
 * gives the same graph.
 *
 * <p>Threading: stateless; safe from any thread.
 */
public final class GraphConfigText
{
    private static final Pattern NO_FIELD = Pattern.compile("Message type \"([\\w.]+)\" has no field named \"(\\w+)\"");
    /** protobuf-java 4's form: "Input contains unknown fields ...:\n4:3:\tframewire.Node.field". */
    private static final Pattern UNKNOWN_FIELD = Pattern.compile("\\d+:\\d+:\\s+([\\w.]+)\\.(\\w+)\\s*$",
        Pattern.MULTILINE);

    private GraphConfigText()
    {
    }

    /**
     * Reads a {@code .pbtxt} file.
     *
     * @param file the file.
     * @return the config, not yet validated as a whole (a {@link Graph} does that).
     * @throws IOException if the file cannot be read.
     * @throws GraphConfigException with the file and line of each error.
     */
    public static GraphConfig read(final Path file) throws IOException
    {
        ConfigLimits.checkSize(file);
        return parse(decode(Files.readAllBytes(file), file.toString()), file.toString());
    }

    /**
     * Reads a {@code .pbtxt} file for its structure only: calculators are not looked up and their
     * options not checked, so a graph of calculators Framewire does not have (MediaPipe's own)
     * can be drawn and its streams checked ({@link GraphConfig#checkStructure()}).
     *
     * @param file the file.
     * @return the config.
     * @throws IOException if the file cannot be read.
     * @throws GraphConfigException with the file and line of each error.
     */
    public static GraphConfig readStructure(final Path file) throws IOException
    {
        ConfigLimits.checkSize(file);
        return parse(decode(Files.readAllBytes(file), file.toString()), file.toString(), false);
    }

    /**
     * The text of a config file, which must be UTF-8 text: a byte order mark, UTF-16, a binary
     * file or malformed UTF-8 is an error saying which and where.
     *
     * @param bytes  the file's bytes.
     * @param source the file name, for messages.
     * @return the text.
     * @throws GraphConfigException naming the encoding problem and its byte offset.
     */
    public static String decode(final byte[] bytes, final String source)
    {
        if (bytes.length >= 2 && ((bytes[0] == (byte)0xFF && bytes[1] == (byte)0xFE) ||
            (bytes[0] == (byte)0xFE && bytes[1] == (byte)0xFF)))
        {
            throw new GraphConfigException(List.of(source + ": the file is UTF-16 (it starts with a UTF-16 byte order " +
                "mark); a graph file must be UTF-8 text: convert it (iconv -f UTF-16 -t UTF-8)"));
        }
        if (bytes.length >= 3 && bytes[0] == (byte)0xEF && bytes[1] == (byte)0xBB && bytes[2] == (byte)0xBF)
        {
            throw new GraphConfigException(List.of(source + ":1:1: the file starts with a UTF-8 byte order mark " +
                "(EF BB BF), which the text format does not allow; save it as UTF-8 without a BOM"));
        }
        int line = 1;
        for (int i = 0; i < bytes.length; i++)
        {
            if (bytes[i] == 0)
            {
                throw new GraphConfigException(List.of(source + ":" + line + ": the file is binary, not text (a NUL " +
                    "byte at offset " + i + (i + 1 < bytes.length && bytes[i + 1] != 0 && i > 0 && bytes[i - 1] != 0 ?
                    "" : "; UTF-16 without a byte order mark looks like this") + "); give the graph in protobuf text " +
                    "format (.pbtxt), UTF-8 encoded"));
            }
            if (bytes[i] == '\n')
            {
                line++;
            }
        }
        try
        {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        }
        catch (final CharacterCodingException ex)
        {
            final ByteBuffer in = ByteBuffer.wrap(bytes);
            final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder();
            decoder.decode(in, CharBuffer.allocate(bytes.length), true);
            final int bad = in.position();
            int badLine = 1;
            for (int i = 0; i < bad; i++)
            {
                badLine += bytes[i] == '\n' ? 1 : 0;
            }
            throw new GraphConfigException(List.of(source + ":" + badLine + ": the file is not valid UTF-8 (byte 0x" +
                String.format("%02X", bytes[Math.min(bad, bytes.length - 1)] & 0xFF) + " at offset " + bad + "); save " +
                "it as UTF-8 (a Latin-1 file: iconv -f LATIN1 -t UTF-8)"));
        }
    }

    /**
     * Parses config text.
     *
     * @param text   the text.
     * @param source where it came from, for messages (a file name).
     * @return the config.
     * @throws GraphConfigException with the source and line of each error.
     */
    public static GraphConfig parse(final String text, final String source)
    {
        return parse(text, source, true);
    }

    /**
     * Parses config text for its structure only, as {@link #readStructure(Path)}.
     *
     * @param text   the text.
     * @param source where it came from, for messages (a file name).
     * @return the config.
     * @throws GraphConfigException with the source and line of each error.
     */
    public static GraphConfig parseStructure(final String text, final String source)
    {
        return parse(text, source, false);
    }

    private static GraphConfig parse(final String text, final String source, final boolean calculators)
    {
        ConfigLimits.check(text, source); // before anything whose time or memory grows faster than the text
        final CalculatorGraphConfig.Builder proto = CalculatorGraphConfig.newBuilder();
        final TextFormatParseInfoTree.Builder treeBuilder = TextFormatParseInfoTree.builder();
        final TextExtensions extensions = TextExtensions.scan(text);
        try
        {
            TextFormat.Parser.newBuilder().setParseInfoTreeBuilder(treeBuilder).build()
                .merge(extensions.text(), ExtensionRegistry.getEmptyRegistry(), proto);
        }
        catch (final TextFormat.ParseException ex)
        {
            throw new GraphConfigException(List.of(source + ":" + ex.getLine() + ":" + ex.getColumn() + ": " +
                explain(ex.getMessage())));
        }
        final TextFormatParseInfoTree tree = treeBuilder.build();
        final List<String> twice = new ArrayList<>();
        checkTwice(proto.build(), tree, source, twice);
        if (!twice.isEmpty())
        {
            throw new GraphConfigException(twice);
        }
        return new GraphConfigReader(proto.build(), tree, source, extensions, calculators).toConfig();
    }

    /**
     * A field that is not repeated given twice is an error naming it and both lines: protobuf's
     * parser would keep the last silently.
     */
    private static void checkTwice(
        final com.google.protobuf.Message message, final TextFormatParseInfoTree tree, final String source,
        final List<String> errors)
    {
        for (final Descriptors.FieldDescriptor field : message.getDescriptorForType().getFields())
        {
            final List<TextFormatParseLocation> locations = tree.getLocations(field);
            if (!field.isRepeated() && locations.size() > 1)
            {
                final StringBuilder lines = new StringBuilder();
                for (final TextFormatParseLocation location : locations)
                {
                    lines.append(lines.length() == 0 ? "" : " and ").append(location.getLine() + 1);
                }
                errors.add(source + ":" + (locations.get(1).getLine() + 1) + ":" + (locations.get(1).getColumn() + 1) +
                    ": field '" + field.getName() + "' of " + field.getContainingType().getName() +
                    " is given twice (lines " + lines + "); it takes one value");
            }
            if (field.getJavaType() == Descriptors.FieldDescriptor.JavaType.MESSAGE)
            {
                final List<TextFormatParseInfoTree> nested = tree.getNestedTrees(field);
                if (field.isRepeated())
                {
                    for (int i = 0; i < message.getRepeatedFieldCount(field) && i < nested.size(); i++)
                    {
                        checkTwice((com.google.protobuf.Message)message.getRepeatedField(field, i), nested.get(i), source,
                            errors);
                    }
                }
                else if (!nested.isEmpty() && message.hasField(field))
                {
                    checkTwice((com.google.protobuf.Message)message.getField(field), nested.get(0), source, errors);
                }
            }
        }
    }

    /** A parse error in plain words, with the valid fields when a field is unknown. */
    static String explain(final String message)
    {
        final String plain = message.replaceFirst("^\\d+:\\d+: ", "");
        Matcher m = NO_FIELD.matcher(plain);
        if (!m.find())
        {
            m = UNKNOWN_FIELD.matcher(plain);
        }
        if (m.find(0))
        {
            final Descriptors.Descriptor type = findType(m.group(1));
            if (type != null)
            {
                final List<String> fields = new ArrayList<>();
                for (final Descriptors.FieldDescriptor field : type.getFields())
                {
                    fields.add(field.getName());
                }
                return "unsupported field '" + m.group(2) + "' in " + type.getName() + "; valid fields are " + fields;
            }
        }
        return EnumErrors.explain(plain);
    }

    private static Descriptors.Descriptor findType(final String fullName)
    {
        for (final Descriptors.Descriptor type : CalculatorGraphConfig.getDescriptor().getFile().getMessageTypes())
        {
            if (type.getFullName().equals(fullName))
            {
                return type;
            }
        }
        return null;
    }

    /**
     * The config as {@code .pbtxt} text. Nodes must name their calculators by registered name:
     * a class or factory has no text form.
     *
     * @param config the config.
     * @return the text.
     * @throws IllegalArgumentException naming a node whose calculator has no registered name.
     */
    public static String write(final GraphConfig config)
    {
        return GraphConfigWriter.write(config);
    }
}
