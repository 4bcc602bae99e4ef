package dev.framewire.core;

import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.run.EnumErrors;
import dev.framewire.core.internal.run.TextExtensions;

import com.google.protobuf.Descriptors;
import com.google.protobuf.ExtensionRegistry;
import com.google.protobuf.TextFormat;
import com.google.protobuf.TextFormatParseInfoTree;
import com.google.protobuf.TextFormatParseLocation;
import dev.framewire.core.config.proto.CalculatorGraphConfig;
import dev.framewire.core.config.proto.Executor;
import dev.framewire.core.config.proto.InputStreamHandler;
import dev.framewire.core.config.proto.InputStreamHandlerOptions;
import dev.framewire.core.config.proto.InputStreamInfo;
import dev.framewire.core.config.proto.Option;
import dev.framewire.core.config.proto.StreamQueueSize;
import dev.framewire.core.config.proto.SyncSet;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
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
    private static final Pattern NUM_THREADS = Pattern.compile("\\bnum_threads\\s*:\\s*(\\d+)");
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
        return toConfig(proto.build(), tree, source, extensions, calculators);
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
    private static String explain(final String message)
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

    private static GraphConfig toConfig(
        final CalculatorGraphConfig proto, final TextFormatParseInfoTree tree, final String source,
        final TextExtensions extensions, final boolean calculators)
    {
        final List<String> errors = new ArrayList<>();
        final GraphConfig.Builder b = GraphConfig.builder();
        proto.getInputStreamList().forEach(b::inputStream);
        proto.getOutputStreamList().forEach(b::outputStream);
        proto.getInputSidePacketList().forEach(b::inputSidePacket);
        proto.getOutputSidePacketList().forEach(b::outputSidePacket);
        if (proto.hasType() && !proto.getType().isEmpty())
        {
            b.type(proto.getType());
        }
        final Map<String, List<String>> unknownCalculators = new LinkedHashMap<>();
        b.source(source);
        if (proto.hasMaxQueueSize())
        {
            b.maxQueueSize(proto.getMaxQueueSize());
        }
        b.reportDeadlock(proto.getReportDeadlock());
        if (proto.hasQueueHardCap())
        {
            b.queueHardCap(proto.getQueueHardCap());
        }
        b.failurePolicy(FailurePolicy.valueOf(proto.getFailurePolicy().name()));
        b.scheduleOrder(ScheduleOrder.valueOf(proto.getScheduleOrder().name()));
        b.backpressure(Backpressure.valueOf(proto.getBackpressure().name()));
        b.memoryLimitPolicy(MemoryLimitPolicy.valueOf(proto.getMemoryLimitPolicy().name()));
        if (proto.hasMemoryBudgetBytes())
        {
            b.memoryBudget(proto.getMemoryBudgetBytes());
        }
        if (proto.hasWatchdogTimeoutMs())
        {
            b.timeoutGuardMillis(proto.getWatchdogTimeoutMs());
        }
        if (proto.hasMaxShipmentSize())
        {
            b.maxShipmentSize(proto.getMaxShipmentSize());
        }
        if (proto.hasMaxShipmentBytes())
        {
            b.maxShipmentBytes(proto.getMaxShipmentBytes());
        }
        if (proto.hasInputSetsPerRun())
        {
            b.inputSetsPerRun(proto.getInputSetsPerRun());
        }
        if (proto.hasRoomBatch())
        {
            b.roomBatch(proto.getRoomBatch());
        }
        for (final StreamQueueSize size : proto.getStreamQueueSizeList())
        {
            b.streamQueueSize(size.getStream(), size.getMaxQueueSize());
        }
        final Descriptors.FieldDescriptor executorField = field(CalculatorGraphConfig.getDescriptor(), "executor");
        for (int e = 0; e < proto.getExecutorCount(); e++)
        {
            final Executor executor = proto.getExecutor(e);
            final String where = at(source, tree, executorField, e) + "executor '" + executor.getName() + "'";
            if (executor.hasType() && !executor.getType().equals("ThreadPoolExecutor"))
            {
                errors.add(where + ": type '" + executor.getType() + "' is not supported; valid is ThreadPoolExecutor");
            }
            int threads = executor.hasNumThreads() ? executor.getNumThreads() : 1;
            for (final TextExtensions.Block block : extensions.at("executor[" + e + "].options[0]"))
            {
                final Matcher m = NUM_THREADS.matcher(block.text);
                if (OptionsExtension.typeOf(block.name).equals("mediapipe.ThreadPoolExecutorOptions") && m.find())
                {
                    threads = Integer.parseInt(m.group(1));
                }
            }
            final ExecutorConfig config = ExecutorConfig.of(threads,
                IdleKind.valueOf(executor.getIdleStrategy().name())).spinBeforeParkMicros(executor.hasSpinBeforeParkUs() ?
                executor.getSpinBeforeParkUs() : ExecutorConfig.DEFAULT_SPIN_BEFORE_PARK_MICROS);
            final int[] cpus = executor.getCpuList().stream().mapToInt(Integer::intValue).toArray();
            b.executor(executor.getName().isEmpty() ? GraphConfig.DEFAULT_EXECUTOR : executor.getName(),
                cpus.length > 0 ? config.pinnedTo(cpus) : config);
        }
        if (proto.hasNumThreads() && !b.hasExecutor(GraphConfig.DEFAULT_EXECUTOR))
        {
            b.executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(proto.getNumThreads(), IdleKind.PARK));
        }
        final Descriptors.FieldDescriptor nodeField = field(CalculatorGraphConfig.getDescriptor(), "node");
        for (int i = 0; i < proto.getNodeCount(); i++)
        {
            final dev.framewire.core.config.proto.Node node = proto.getNode(i);
            final TextFormatParseInfoTree nodeTree = i < tree.getNestedTrees(nodeField).size() ?
                tree.getNestedTrees(nodeField).get(i) : null;
            final String name = node.hasName() ? node.getName() : node.getCalculator().replace("Calculator", "")
                .toLowerCase() + "_" + i;
            final String where = at(source, tree, nodeField, i) + "node '" + name + "'";
            b.nodeLocation(name, at(source, tree, nodeField, i).replaceFirst(": $", ""));
            final Supplier<? extends Calculator> factory = calculators ?
                CalculatorRegistry.global().lookup(node.getCalculator()) : null;
            if (calculators && factory == null && !SubgraphRegistry.global().contains(node.getCalculator()))
            {
                unknownCalculators.computeIfAbsent(node.getCalculator(), k -> new ArrayList<>())
                    .add(at(source, tree, nodeField, i).replaceFirst(": $", "") + " node '" + name + "'");
            }
            final Contract contract = new Contract();
            if (factory != null)
            {
                try
                {
                    factory.get().contract(contract);
                }
                catch (final RuntimeException ex)
                {
                    errors.add(where + ": its calculator's contract() failed: " + ex);
                }
            }
            final int index = i;
            final InputPolicy policy = policy(node.hasInputStreamHandler() ? node.getInputStreamHandler() :
                proto.hasInputStreamHandler() ? proto.getInputStreamHandler() : null,
                node.hasInputStreamHandler() ? "node[" + i + "].input_stream_handler[0].options[0]" :
                "input_stream_handler[0].options[0]", extensions, source, where, errors);
            b.node(name, n ->
            {
                n.calculator(node.getCalculator());
                node.getInputStreamList().forEach(n::inputStream);
                node.getOutputStreamList().forEach(n::outputStream);
                node.getInputSidePacketList().forEach(n::inputSidePacket);
                node.getOutputSidePacketList().forEach(n::outputSidePacket);
                for (final TextExtensions.Block block : extensions.blocks())
                {
                    if (block.path.startsWith("node[" + index + "].options[") ||
                        block.path.startsWith("node[" + index + "].node_options["))
                    {
                        n.extension(new OptionsExtension(OptionsExtension.typeOf(block.name), block.text,
                            source + ":" + block.line));
                    }
                }
                if (node.hasExecutor())
                {
                    n.executor(node.getExecutor());
                }
                if (policy != null)
                {
                    n.inputPolicy(policy);
                }
                n.sourceLayer(node.getSourceLayer());
                if (node.hasMaxInFlight())
                {
                    n.maxInFlight(node.getMaxInFlight());
                }
                for (final InputStreamInfo info : node.getInputStreamInfoList())
                {
                    if (info.getBackEdge())
                    {
                        n.backEdge(info.getTagIndex());
                    }
                }
                final Descriptors.FieldDescriptor optionField =
                    field(dev.framewire.core.config.proto.Node.getDescriptor(), "option");
                for (int o = 0; o < node.getOptionCount(); o++)
                {
                    final Option option = node.getOption(o);
                    final Object value = optionValue(option);
                    final String optionWhere = (nodeTree == null ? source + ": " : at(source, nodeTree, optionField, o)) +
                        "node '" + name + "'";
                    final Contract.OptionSpec spec = contract.options().get(option.getName());
                    if (!calculators)
                    {
                        n.option(option.getName(), value);
                        continue;
                    }
                    if (factory != null && spec == null)
                    {
                        errors.add(optionWhere + ": unknown option '" + option.getName() + "' for " + node.getCalculator() +
                            "; valid options are " + contract.options().keySet());
                    }
                    else if (value == null)
                    {
                        errors.add(optionWhere + ": option '" + option.getName() + "' has no value; give int_value, " +
                            "double_value, bool_value or string_value");
                    }
                    else if (spec != null && spec.type.coerce(value) == null)
                    {
                        errors.add(optionWhere + ": option '" + option.getName() + "' must be a " + spec.type + " (" +
                            valueField(spec.type) + "), was " + value);
                    }
                    n.option(option.getName(), value);
                }
            });
        }
        if (unknownCalculators.size() == 1 && unknownCalculators.values().iterator().next().size() == 1)
        {
            final Map.Entry<String, List<String>> only = unknownCalculators.entrySet().iterator().next();
            errors.add(0, only.getValue().get(0).replaceFirst(" node ", ": node ") + ": unknown calculator '" +
                only.getKey() + "'; registered calculators are " + CalculatorRegistry.global().names() +
                (SubgraphRegistry.global().types().isEmpty() ? "" : ", registered subgraphs " +
                SubgraphRegistry.global().types()) + "; validate --structure-only checks the streams without it");
        }
        else if (!unknownCalculators.isEmpty())
        {
            final StringBuilder sb = new StringBuilder(source).append(": ").append(unknownCalculators.size())
                .append(unknownCalculators.size() == 1 ? " unknown calculator: " : " unknown calculators: ");
            boolean first = true;
            for (final Map.Entry<String, List<String>> e : unknownCalculators.entrySet())
            {
                sb.append(first ? "" : "; ").append('\'').append(e.getKey()).append("' at ").append(String.join(", ", e.getValue()));
                first = false;
            }
            sb.append("; registered calculators are ").append(CalculatorRegistry.global().names());
            if (!SubgraphRegistry.global().types().isEmpty())
            {
                sb.append(", registered subgraphs ").append(SubgraphRegistry.global().types());
            }
            sb.append("; validate --structure-only checks the streams without them");
            errors.add(0, sb.toString());
        }
        if (!errors.isEmpty())
        {
            throw new GraphConfigException(errors);
        }
        return b.build();
    }

    private static InputPolicy policy(
        final InputStreamHandler handler, final String optionsPath, final TextExtensions extensions,
        final String source, final String where, final List<String> errors)
    {
        if (handler == null)
        {
            return null;
        }
        final InputStreamHandlerOptions.Builder merged = handler.getOptions().toBuilder();
        for (final TextExtensions.Block block : extensions.at(optionsPath))
        {
            // MediaPipe's handler option messages use the field names of Framewire's flattened one.
            try
            {
                TextFormat.merge(block.text, merged);
            }
            catch (final TextFormat.ParseException ex)
            {
                errors.add(source + ":" + (block.line + ex.getLine() - 1) + ": " + where + ": input_stream_handler " +
                    "options [" + block.name + "]: " + explain(ex.getMessage()));
            }
        }
        final InputStreamHandlerOptions options = merged.build();
        final String name = handler.getInputStreamHandler();
        try
        {
            switch (name)
            {
                case "DefaultInputStreamHandler":
                    return options.hasBatchSize() ? InputPolicy.batch(options.getBatchSize()) : InputPolicy.DEFAULT;
                case "ImmediateInputStreamHandler":
                    return InputPolicy.immediate();
                case "SyncSetInputStreamHandler":
                    final List<List<String>> groups = new ArrayList<>();
                    for (final SyncSet set : options.getSyncSetList())
                    {
                        groups.add(set.getTagIndexList());
                    }
                    return InputPolicy.syncSets(groups);
                case "FixedSizeInputStreamHandler":
                    return InputPolicy.fixedSize(options.hasTriggerQueueSize() ? options.getTriggerQueueSize() : 2,
                        options.hasTargetQueueSize() ? options.getTargetQueueSize() : 1, options.getFixedMinSize());
                case "EarlyCloseInputStreamHandler":
                    return InputPolicy.earlyClose();
                default:
                    final List<String> valid = new ArrayList<>();
                    for (final InputPolicy.Kind kind : InputPolicy.Kind.values())
                    {
                        valid.add(kind.handlerName());
                    }
                    errors.add(where + ": unknown input_stream_handler '" + name + "'; valid are " + valid);
                    return null;
            }
        }
        catch (final IllegalArgumentException ex)
        {
            errors.add(where + ": " + ex.getMessage());
            return null;
        }
    }

    private static Object optionValue(final Option option)
    {
        switch (option.getValueCase())
        {
            case INT_VALUE:
                return option.getIntValue();
            case DOUBLE_VALUE:
                return option.getDoubleValue();
            case BOOL_VALUE:
                return option.getBoolValue();
            case STRING_VALUE:
                return option.getStringValue();
            default:
                return null;
        }
    }

    private static String valueField(final OptionType type)
    {
        switch (type)
        {
            case LONG:
                return "int_value";
            case DOUBLE:
                return "double_value";
            case BOOLEAN:
                return "bool_value";
            default:
                return "string_value";
        }
    }

    private static Descriptors.FieldDescriptor field(final Descriptors.Descriptor type, final String name)
    {
        return type.findFieldByName(name);
    }

    private static String at(
        final String source, final TextFormatParseInfoTree tree, final Descriptors.FieldDescriptor field, final int index)
    {
        try
        {
            final TextFormatParseLocation location = tree.getLocation(field, index);
            return source + ":" + (location.getLine() + 1) + ":" + (location.getColumn() + 1) + ": ";
        }
        catch (final IllegalArgumentException ex)
        {
            return source + ": ";
        }
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
        final CalculatorGraphConfig.Builder proto = CalculatorGraphConfig.newBuilder();
        proto.addAllInputStream(config.inputStreamSpecs).addAllOutputStream(config.outputStreamSpecs)
            .addAllInputSidePacket(config.inputSidePackets).addAllOutputSidePacket(config.outputSidePackets);
        if (config.type != null)
        {
            proto.setType(config.type);
        }
        if (config.maxQueueSize != 0)
        {
            proto.setMaxQueueSize(config.maxQueueSize);
        }
        if (config.reportDeadlock)
        {
            proto.setReportDeadlock(true);
        }
        for (final Map.Entry<String, ExecutorConfig> e : config.executors.entrySet())
        {
            final Executor.Builder executor = Executor.newBuilder().setName(e.getKey())
                .setNumThreads(e.getValue().workers())
                .setIdleStrategy(dev.framewire.core.config.proto.IdleStrategy.valueOf(e.getValue().idle().name()));
            for (final int cpu : e.getValue().cpus())
            {
                executor.addCpu(cpu);
            }
            if (e.getValue().spinBeforeParkMicros() != ExecutorConfig.DEFAULT_SPIN_BEFORE_PARK_MICROS)
            {
                executor.setSpinBeforeParkUs(e.getValue().spinBeforeParkMicros());
            }
            proto.addExecutor(executor);
        }
        for (final Map.Entry<String, Integer> e : config.streamQueueSizes.entrySet())
        {
            proto.addStreamQueueSize(StreamQueueSize.newBuilder().setStream(e.getKey()).setMaxQueueSize(e.getValue()));
        }
        final GraphConfig defaults = GraphConfig.builder().build();
        if (config.queueHardCap != defaults.queueHardCap)
        {
            proto.setQueueHardCap(config.queueHardCap);
        }
        if (config.failurePolicy != defaults.failurePolicy)
        {
            proto.setFailurePolicy(dev.framewire.core.config.proto.FailurePolicy.valueOf(config.failurePolicy.name()));
        }
        if (config.scheduleOrder != defaults.scheduleOrder)
        {
            proto.setScheduleOrder(dev.framewire.core.config.proto.ScheduleOrder.valueOf(config.scheduleOrder.name()));
        }
        if (config.backpressure != defaults.backpressure)
        {
            proto.setBackpressure(dev.framewire.core.config.proto.Backpressure.valueOf(config.backpressure.name()));
        }
        if (config.memoryLimitPolicy != defaults.memoryLimitPolicy)
        {
            proto.setMemoryLimitPolicy(
                dev.framewire.core.config.proto.MemoryLimitPolicy.valueOf(config.memoryLimitPolicy.name()));
        }
        if (config.memoryBudgetBytes != defaults.memoryBudgetBytes)
        {
            proto.setMemoryBudgetBytes(config.memoryBudgetBytes);
        }
        if (config.timeoutGuardNanos != defaults.timeoutGuardNanos)
        {
            proto.setWatchdogTimeoutMs(config.timeoutGuardNanos / 1_000_000);
        }
        if (config.inputSetsPerRun != defaults.inputSetsPerRun)
        {
            proto.setInputSetsPerRun(config.inputSetsPerRun);
        }
        if (config.roomBatch != defaults.roomBatch)
        {
            proto.setRoomBatch(config.roomBatch);
        }
        if (config.maxShipmentSize != defaults.maxShipmentSize)
        {
            proto.setMaxShipmentSize(config.maxShipmentSize);
        }
        if (config.maxShipmentBytes != defaults.maxShipmentBytes)
        {
            proto.setMaxShipmentBytes(config.maxShipmentBytes);
        }
        for (final NodeConfig node : config.nodes)
        {
            proto.addNode(node(node));
        }
        return TextFormat.printer().printToString(proto.build());
    }

    private static dev.framewire.core.config.proto.Node node(final NodeConfig node)
    {
        if (node.calculatorName == null)
        {
            throw new IllegalArgumentException("node '" + node.name + "' uses a calculator by class or factory, which " +
                "has no text form; register it by name (CalculatorRegistry) to write the config as text");
        }
        final dev.framewire.core.config.proto.Node.Builder b = dev.framewire.core.config.proto.Node.newBuilder()
            .setName(node.name).setCalculator(node.calculatorName)
            .addAllInputStream(node.inputStreams).addAllOutputStream(node.outputStreams)
            .addAllInputSidePacket(node.inputSidePackets).addAllOutputSidePacket(node.outputSidePackets);
        if (!node.executor.equals(GraphConfig.DEFAULT_EXECUTOR))
        {
            b.setExecutor(node.executor);
        }
        if (node.sourceLayer != 0)
        {
            b.setSourceLayer(node.sourceLayer);
        }
        if (node.maxInFlight != 1)
        {
            b.setMaxInFlight(node.maxInFlight);
        }
        for (final String backEdge : node.backEdges)
        {
            b.addInputStreamInfo(InputStreamInfo.newBuilder().setTagIndex(backEdge).setBackEdge(true));
        }
        if (node.inputPolicy != null)
        {
            final InputPolicy policy = node.inputPolicy;
            final InputStreamHandlerOptions.Builder options = InputStreamHandlerOptions.newBuilder();
            if (policy.batchSize() > 1)
            {
                options.setBatchSize(policy.batchSize());
            }
            for (final List<String> group : policy.syncSets())
            {
                options.addSyncSet(SyncSet.newBuilder().addAllTagIndex(group));
            }
            if (policy.kind() == InputPolicy.Kind.FIXED_SIZE)
            {
                options.setTriggerQueueSize(policy.triggerQueueSize()).setTargetQueueSize(policy.targetQueueSize())
                    .setFixedMinSize(policy.fixedMinSize());
            }
            final InputStreamHandler.Builder handler = InputStreamHandler.newBuilder()
                .setInputStreamHandler(policy.kind().handlerName());
            if (!options.build().equals(InputStreamHandlerOptions.getDefaultInstance()))
            {
                handler.setOptions(options);
            }
            b.setInputStreamHandler(handler);
        }
        for (final Map.Entry<String, Object> e : node.options.entrySet())
        {
            final Option.Builder option = Option.newBuilder().setName(e.getKey());
            final Object value = e.getValue();
            if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte)
            {
                option.setIntValue(((Number)value).longValue());
            }
            else if (value instanceof Number)
            {
                option.setDoubleValue(((Number)value).doubleValue());
            }
            else if (value instanceof Boolean)
            {
                option.setBoolValue((Boolean)value);
            }
            else
            {
                option.setStringValue(String.valueOf(value));
            }
            b.addOption(option);
        }
        return b.build();
    }
}
