package dev.framewire.core;

import com.google.protobuf.TextFormat;
import dev.framewire.core.config.proto.CalculatorGraphConfig;
import dev.framewire.core.config.proto.Executor;
import dev.framewire.core.config.proto.InputStreamHandler;
import dev.framewire.core.config.proto.InputStreamHandlerOptions;
import dev.framewire.core.config.proto.InputStreamInfo;
import dev.framewire.core.config.proto.Option;
import dev.framewire.core.config.proto.StreamQueueSize;
import dev.framewire.core.config.proto.SyncSet;

import java.util.List;
import java.util.Map;

/**
 * Writes a {@link GraphConfig} back as a {@code CalculatorGraphConfig} message in text form, leaving
 * out what is at its default, for {@link GraphConfigText#write(GraphConfig)}.
 *
 * <p>Threading: stateless; safe from any thread.
 */
final class GraphConfigWriter
{
    private GraphConfigWriter()
    {
    }

    /** The config as {@code .pbtxt} text; see {@link GraphConfigText#write(GraphConfig)}. */
    static String write(final GraphConfig config)
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
            if (e.getValue().scheduling() != Scheduling.PINNED)
            {
                executor.setScheduling(dev.framewire.core.config.proto.Scheduling.valueOf(e.getValue().scheduling().name()));
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
            if (!policy.timestampBaseTagIndex().isEmpty())
            {
                options.setTimestampBaseTagIndex(policy.timestampBaseTagIndex());
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
