package dev.framewire.core;

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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
        return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
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
        final CalculatorGraphConfig.Builder proto = CalculatorGraphConfig.newBuilder();
        final TextFormatParseInfoTree.Builder treeBuilder = TextFormatParseInfoTree.builder();
        try
        {
            TextFormat.Parser.newBuilder().setParseInfoTreeBuilder(treeBuilder).build()
                .merge(text, ExtensionRegistry.getEmptyRegistry(), proto);
        }
        catch (final TextFormat.ParseException ex)
        {
            throw new GraphConfigException(List.of(source + ":" + ex.getLine() + ":" + ex.getColumn() + ": " +
                explain(ex.getMessage())));
        }
        return toConfig(proto.build(), treeBuilder.build(), source);
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
        return plain;
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
        final CalculatorGraphConfig proto, final TextFormatParseInfoTree tree, final String source)
    {
        final List<String> errors = new ArrayList<>();
        final GraphConfig.Builder b = GraphConfig.builder();
        proto.getInputStreamList().forEach(b::inputStream);
        proto.getOutputStreamList().forEach(b::outputStream);
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
        if (proto.hasInputSetsPerRun())
        {
            b.inputSetsPerRun(proto.getInputSetsPerRun());
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
            final ExecutorConfig config = ExecutorConfig.of(executor.hasNumThreads() ? executor.getNumThreads() : 1,
                IdleKind.valueOf(executor.getIdleStrategy().name())).spinBeforeParkMicros(executor.hasSpinBeforeParkUs() ?
                executor.getSpinBeforeParkUs() : ExecutorConfig.DEFAULT_SPIN_BEFORE_PARK_MICROS);
            final int[] cpus = executor.getCpuList().stream().mapToInt(Integer::intValue).toArray();
            b.executor(executor.getName().isEmpty() ? GraphConfig.DEFAULT_EXECUTOR : executor.getName(),
                cpus.length > 0 ? config.pinnedTo(cpus) : config);
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
            final Supplier<? extends Calculator> factory = CalculatorRegistry.global().lookup(node.getCalculator());
            if (factory == null)
            {
                errors.add(where + ": unknown calculator '" + node.getCalculator() + "'; registered calculators are " +
                    CalculatorRegistry.global().names());
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
            final InputPolicy policy = policy(node, where, errors);
            b.node(name, n ->
            {
                n.calculator(node.getCalculator());
                node.getInputStreamList().forEach(n::inputStream);
                node.getOutputStreamList().forEach(n::outputStream);
                node.getInputSidePacketList().forEach(n::inputSidePacket);
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
        if (!errors.isEmpty())
        {
            throw new GraphConfigException(errors);
        }
        return b.build();
    }

    private static InputPolicy policy(
        final dev.framewire.core.config.proto.Node node, final String where, final List<String> errors)
    {
        if (!node.hasInputStreamHandler())
        {
            return null;
        }
        final InputStreamHandler handler = node.getInputStreamHandler();
        final InputStreamHandlerOptions options = handler.getOptions();
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
        proto.addAllInputStream(config.inputStreams).addAllOutputStream(config.outputStreams);
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
        if (config.maxShipmentSize != defaults.maxShipmentSize)
        {
            proto.setMaxShipmentSize(config.maxShipmentSize);
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
            .addAllInputSidePacket(node.inputSidePackets);
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
