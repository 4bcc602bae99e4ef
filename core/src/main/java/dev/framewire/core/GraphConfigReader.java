package dev.framewire.core;

import dev.framewire.core.internal.run.TextExtensions;

import com.google.protobuf.Descriptors;
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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a parsed {@code CalculatorGraphConfig} message into a {@link GraphConfig}: the run-wide
 * settings, the executors, the nodes with their input policies and options, each checked against
 * what is valid, every error named by file, line and node and gathered before one
 * {@link GraphConfigException} is thrown. {@link GraphConfigText} parses the text and calls it.
 *
 * <p>Threading: one instance reads one message on one thread.
 */
final class GraphConfigReader
{
    private static final Pattern NUM_THREADS = Pattern.compile("\\bnum_threads\\s*:\\s*(\\d+)");

    private final CalculatorGraphConfig proto;
    private final TextFormatParseInfoTree tree;
    private final String source;
    private final TextExtensions extensions;
    private final boolean calculators;
    private final List<String> errors = new ArrayList<>();
    private final Map<String, List<String>> unknownCalculators = new LinkedHashMap<>();
    private final GraphConfig.Builder b = GraphConfig.builder();

    GraphConfigReader(
        final CalculatorGraphConfig proto, final TextFormatParseInfoTree tree, final String source,
        final TextExtensions extensions, final boolean calculators)
    {
        this.proto = proto;
        this.tree = tree;
        this.source = source;
        this.extensions = extensions;
        this.calculators = calculators;
    }

    /** The config, or a {@link GraphConfigException} with every error found. */
    GraphConfig toConfig()
    {
        proto.getInputStreamList().forEach(b::inputStream);
        proto.getOutputStreamList().forEach(b::outputStream);
        proto.getInputSidePacketList().forEach(b::inputSidePacket);
        proto.getOutputSidePacketList().forEach(b::outputSidePacket);
        if (proto.hasType() && !proto.getType().isEmpty())
        {
            b.type(proto.getType());
        }
        b.source(source);
        settings();
        executors();
        final Descriptors.FieldDescriptor nodeField = field(CalculatorGraphConfig.getDescriptor(), "node");
        for (int i = 0; i < proto.getNodeCount(); i++)
        {
            node(nodeField, i);
        }
        reportUnknownCalculators();
        if (!errors.isEmpty())
        {
            throw new GraphConfigException(errors);
        }
        return b.build();
    }

    private void settings()
    {
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
    }

    private void executors()
    {
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
                    try
                    {
                        threads = Integer.parseInt(m.group(1));
                    }
                    catch (final NumberFormatException ex) // digits past int's range
                    {
                        errors.add(where + ": ThreadPoolExecutorOptions num_threads " + m.group(1) +
                            " is out of range; valid is a thread count from 1 to " + Integer.MAX_VALUE);
                    }
                }
            }
            final ExecutorConfig config = ExecutorConfig.of(threads,
                IdleKind.valueOf(executor.getIdleStrategy().name())).spinBeforeParkMicros(executor.hasSpinBeforeParkUs() ?
                executor.getSpinBeforeParkUs() : ExecutorConfig.DEFAULT_SPIN_BEFORE_PARK_MICROS)
                .scheduling(Scheduling.valueOf(executor.getScheduling().name()));
            final int[] cpus = executor.getCpuList().stream().mapToInt(Integer::intValue).toArray();
            b.executor(executor.getName().isEmpty() ? GraphConfig.DEFAULT_EXECUTOR : executor.getName(),
                cpus.length > 0 ? config.pinnedTo(cpus) : config);
        }
        if (proto.hasNumThreads() && !b.hasExecutor(GraphConfig.DEFAULT_EXECUTOR))
        {
            b.executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(proto.getNumThreads(), IdleKind.PARK));
        }
    }

    /** Reads node {@code i}: its calculator, streams, policy, extensions and options. */
    private void node(final Descriptors.FieldDescriptor nodeField, final int i)
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
        final InputPolicy policy = policy(node.hasInputStreamHandler() ? node.getInputStreamHandler() :
            proto.hasInputStreamHandler() ? proto.getInputStreamHandler() : null,
            node.hasInputStreamHandler() ? "node[" + i + "].input_stream_handler[0].options[0]" :
            "input_stream_handler[0].options[0]", extensions, source, where, errors);
        b.node(name, n -> setUp(n, node, i, nodeTree, name, policy, contract, factory));
    }

    private void setUp(
        final NodeConfig.Builder n, final dev.framewire.core.config.proto.Node node, final int index,
        final TextFormatParseInfoTree nodeTree, final String name, final InputPolicy policy, final Contract contract,
        final Supplier<? extends Calculator> factory)
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
        options(n, node, nodeTree, name, contract, factory);
    }

    /** The node's options, each checked against its calculator's contract when calculators are looked up. */
    private void options(
        final NodeConfig.Builder n, final dev.framewire.core.config.proto.Node node,
        final TextFormatParseInfoTree nodeTree, final String name, final Contract contract,
        final Supplier<? extends Calculator> factory)
    {
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
    }

    /** One error for the calculators no registry knows, first among the errors. */
    private void reportUnknownCalculators()
    {
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
                    "options [" + block.name + "]: " + GraphConfigText.explain(ex.getMessage()));
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
                case "MuxInputStreamHandler":
                    return InputPolicy.mux();
                case "BarrierInputStreamHandler":
                    return InputPolicy.barrier();
                case "TimestampAlignInputStreamHandler":
                    return InputPolicy.timestampAlign(options.getTimestampBaseTagIndex());
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
}
