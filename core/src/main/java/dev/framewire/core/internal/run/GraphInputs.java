package dev.framewire.core.internal.run;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.stream.GraphInput;
import dev.framewire.offheap.Payload;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A run's graph input streams by name, the hot-plugged subgraphs' too: the adds by name, bounds and
 * closes of the API graph ({@code Graph.addPacket}, {@code setInputBound}, {@code closeInput}), whose
 * javadoc is the contract of the methods here that share their names. One per {@link Run}; the facade
 * reaches it through {@link GraphRuns#inputs()}, as it reached the run, so an add by name loads what it
 * did before it moved here (the runs' latest, then the map).
 *
 * <p>Threading: the adds, bounds and closes from any thread (a stream's adds are serialized by the
 * stream); {@link #publish} and {@link #remove} under the hot-plug lock ({@link Hotplug}), which copy
 * the map on write and publish it with a volatile store.
 */
public final class GraphInputs
{
    private final RunState runState;
    /** Told after a graph input closes: a run without nodes ends once its inputs are closed. */
    private final Runnable onClosed;
    /** Graph input streams by name, the subgraphs' too; copied on write under the hot-plug lock. */
    private volatile Map<String, GraphInput> byName;

    GraphInputs(final RunState runState, final GraphInput[] own, final Runnable onClosed)
    {
        this.runState = runState;
        this.onClosed = onClosed;
        final Map<String, GraphInput> inputs = new LinkedHashMap<>();
        for (final GraphInput input : own)
        {
            inputs.put(input.name, input);
        }
        this.byName = Collections.unmodifiableMap(inputs);
    }

    /** The API graph's {@code addPacket}, whose javadoc is the contract. */
    public void addPacket(final String stream, final Object value, final long timestamp) throws InterruptedException
    {
        inputFor(stream, value).add(timestamp, value, 0, true);
    }

    /** The API graph's {@code addPacket}, whose javadoc is the contract. */
    public void addPacket(final String stream, final long value, final long timestamp) throws InterruptedException
    {
        inputFor(stream, null).add(timestamp, InputQueue.LONG, value, true);
    }

    /** The API graph's {@code addPacket}, whose javadoc is the contract. */
    public void addPacket(final String stream, final double value, final long timestamp) throws InterruptedException
    {
        inputFor(stream, null).add(timestamp, InputQueue.DOUBLE, Double.doubleToRawLongBits(value), true);
    }

    /** The API graph's {@code tryAddPacket}, whose javadoc is the contract. */
    public boolean tryAddPacket(final String stream, final Object value, final long timestamp)
    {
        return Run.tryAdd(inputFor(stream, value), timestamp, value, 0);
    }

    /** The API graph's {@code tryAddPacket}, whose javadoc is the contract. */
    public boolean tryAddPacket(final String stream, final long value, final long timestamp)
    {
        return Run.tryAdd(inputFor(stream, null), timestamp, InputQueue.LONG, value);
    }

    /** The API graph's {@code tryAddPacket}, whose javadoc is the contract. */
    public boolean tryAddPacket(final String stream, final double value, final long timestamp)
    {
        return Run.tryAdd(inputFor(stream, null), timestamp, InputQueue.DOUBLE, Double.doubleToRawLongBits(value));
    }

    private GraphInput inputFor(final String stream, final Object value)
    {
        final GraphInput input = byName.get(stream);
        if (input == null)
        {
            if (value instanceof Payload)
            {
                ((Payload)value).release();
            }
            throw new IllegalArgumentException("'" + stream + "' is not a graph input stream; graph input streams are " +
                byName.keySet());
        }
        if (value != null && !(value instanceof Payload) && !runState.started)
        {
            throw new IllegalStateException("graph input stream '" + stream + "' belongs to a graph not started yet");
        }
        return input;
    }

    /** The API graph's {@code setInputBound}, whose javadoc is the contract. */
    public void setInputBound(final String stream, final long bound)
    {
        inputFor(stream, null).setBound(bound);
    }

    /** The API graph's {@code closeInput}, whose javadoc is the contract. */
    public void closeInput(final String stream)
    {
        closeInput(inputFor(stream, null));
    }

    /** A graph input's handle or {@link #closeInput(String)}: closes it (again does nothing). */
    public void closeInput(final GraphInput input)
    {
        input.close();
        onClosed.run();
    }

    /** Any thread: the graph input stream of that name, or why there is none. */
    public GraphInput graphInput(final String stream)
    {
        return inputFor(stream, null);
    }

    /** The API graph's {@code closeAllInputs}, whose javadoc is the contract. */
    public void closeAllInputs()
    {
        for (final GraphInput input : byName.values())
        {
            if (!input.isClosed())
            {
                input.close();
            }
        }
        onClosed.run();
    }

    /** Whether every graph input stream is closed. */
    boolean allClosed()
    {
        return byName.values().stream().allMatch(GraphInput::isClosed);
    }

    /** Any thread: the graph inputs, the subgraphs' too, as they are now. */
    Collection<GraphInput> all()
    {
        return byName.values();
    }

    /**
     * Any thread: a graph input by name, or null.
     *
     * @param stream its name.
     * @return it, or null.
     */
    public GraphInput get(final String stream)
    {
        return byName.get(stream);
    }

    /** The graph's own graph inputs, in config order. */
    GraphInput[] own(final GraphConfig config)
    {
        final GraphInput[] own = new GraphInput[config.inputStreams().size()];
        for (int k = 0; k < own.length; k++)
        {
            own[k] = byName.get(config.inputStreams().get(k));
        }
        return own;
    }

    /** When a graph input took the packet of {@code timestamp}, in the clock's nanoseconds, or -1. */
    long arrivalNanos(final long timestamp)
    {
        for (final GraphInput input : byName.values())
        {
            final long nanos = input.arrivalNanos(timestamp);
            if (nanos >= 0)
            {
                return nanos;
            }
        }
        return -1;
    }

    /** Under the hot-plug lock: a subgraph's graph inputs join (copy on write). */
    void publish(final GraphInput[] added)
    {
        final Map<String, GraphInput> inputs = new LinkedHashMap<>(byName);
        for (final GraphInput input : added)
        {
            inputs.put(input.name, input);
        }
        byName = Collections.unmodifiableMap(inputs);
    }

    /** Under the hot-plug lock: a subgraph's graph inputs leave (copy on write). */
    void remove(final GraphInput[] leaving)
    {
        final Map<String, GraphInput> inputs = new LinkedHashMap<>(byName);
        for (final GraphInput input : leaving)
        {
            inputs.remove(input.name);
        }
        byName = Collections.unmodifiableMap(inputs);
    }
}
