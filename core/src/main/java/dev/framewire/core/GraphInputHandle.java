package dev.framewire.core;

import dev.framewire.core.internal.run.Run;

import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.stream.GraphInput;

import dev.framewire.offheap.Payload;

/**
 * One graph input stream, looked up once with {@link Graph#input(String)} and then fed with no
 * lookup by name per packet: the same adds as {@link Graph#addPacket(String, long, long)} and its
 * siblings, on a stream fixed when the handle was made.
 *
 * <pre>{@code
 * GraphInputHandle in = graph.input("in");   // before or after start; one handle per stream
 * graph.start();
 * for (long ts = 0; ts < 10; ts++) {
 *     in.addPacket(ts * 2, ts);               // a long packet: no boxing, no map lookup
 * }
 * in.close();
 * }</pre>
 *
 * <p>A handle lives as long as its graph: {@link Graph#input(String)} returns the same one for a
 * stream every time. After {@link #close()} or the end of the run, adds fail as those of
 * {@link Graph#addPacket} do, naming the stream.
 *
 * <p>Threading: as the graph's adds: any thread, a stream's adds serialized with one another.
 */
public final class GraphInputHandle
{
    /** The run and stream fed: those of the graph's latest run (see {@link #rebind}). */
    private volatile Run run;
    private volatile GraphInput input;

    GraphInputHandle(final Run run, final GraphInput input)
    {
        this.run = run;
        this.input = input;
    }

    /**
     * The graph's owner, as a new run is prepared: the handle feeds that run's stream of its name. A
     * hot-plugged subgraph's stream is not in the new run: its handle stays with the old run.
     */
    void rebind(final Run next)
    {
        final GraphInput same = next.inputs.get(input.name);
        if (same != null)
        {
            this.input = same;
            this.run = next;
        }
    }

    /** Whether this handle feeds that graph input (a subgraph added again has a new one of the same name). */
    boolean feeds(final GraphInput in)
    {
        return input == in;
    }

    /**
     * The stream's name.
     *
     * @return the graph input stream this handle feeds.
     */
    public String name()
    {
        return input.name;
    }

    /**
     * Adds a packet, waiting while a queue downstream is full. An off-heap payload's reference
     * passes to the graph (also when this throws).
     *
     * @param value     a Java object or a {@link Payload}.
     * @param timestamp above the stream's previous packet and bound.
     * @throws TimestampException naming the stream and both timestamps.
     * @throws IllegalStateException if the stream is closed, the graph not started or its run ended.
     * @throws InterruptedException if interrupted while waiting for room.
     */
    public void addPacket(final Object value, final long timestamp) throws InterruptedException
    {
        input.add(timestamp, value, 0, true);
    }

    /**
     * Adds a {@code long} packet, unboxed, waiting while a queue downstream is full.
     *
     * @param value     the value.
     * @param timestamp above the stream's previous packet and bound.
     * @throws InterruptedException if interrupted while waiting for room.
     */
    public void addPacket(final long value, final long timestamp) throws InterruptedException
    {
        input.add(timestamp, InputQueue.LONG, value, true);
    }

    /**
     * Adds a {@code double} packet, unboxed, waiting while a queue downstream is full.
     *
     * @param value     the value.
     * @param timestamp above the stream's previous packet and bound.
     * @throws InterruptedException if interrupted while waiting for room.
     */
    public void addPacket(final double value, final long timestamp) throws InterruptedException
    {
        input.add(timestamp, InputQueue.DOUBLE, Double.doubleToRawLongBits(value), true);
    }

    /**
     * Adds a packet unless a queue downstream is full, in which case it is refused at once and the
     * caller keeps its payload reference.
     *
     * @param value     a Java object or a {@link Payload}.
     * @param timestamp above the stream's previous packet and bound.
     * @return true if added, false if refused.
     */
    public boolean tryAddPacket(final Object value, final long timestamp)
    {
        return Run.tryAdd(input, timestamp, value, 0);
    }

    /**
     * Adds a {@code long} packet unless a queue downstream is full.
     *
     * @param value     the value.
     * @param timestamp above the stream's previous packet and bound.
     * @return true if added, false if refused.
     */
    public boolean tryAddPacket(final long value, final long timestamp)
    {
        return Run.tryAdd(input, timestamp, InputQueue.LONG, value);
    }

    /**
     * Adds a {@code double} packet unless a queue downstream is full.
     *
     * @param value     the value.
     * @param timestamp above the stream's previous packet and bound.
     * @return true if added, false if refused.
     */
    public boolean tryAddPacket(final double value, final long timestamp)
    {
        return Run.tryAdd(input, timestamp, InputQueue.DOUBLE, Double.doubleToRawLongBits(value));
    }

    /**
     * Promises that no packet below {@code bound} will come on this stream.
     *
     * @param bound the next timestamp a packet may carry.
     * @throws IllegalStateException if the stream is closed or the run has ended.
     * @throws TimestampException    if {@code bound} is below the stream's bound; the run goes on.
     */
    public void setBound(final long bound)
    {
        input.setBound(bound);
    }

    /**
     * Closes the stream: its bound becomes {@link Timestamp#DONE}. Closing it again does nothing.
     */
    public void close()
    {
        run.inputs.closeInput(input);
    }

    /**
     * Whether the stream was closed.
     *
     * @return true once {@link #close()} or {@link Graph#closeInput(String)} closed it.
     */
    public boolean isClosed()
    {
        return input.isClosed();
    }

    @Override
    public String toString()
    {
        return "graph input stream '" + input.name + "'";
    }
}
