package dev.framewire.core.internal.stream;

import dev.framewire.core.MemoryLimitException;
import dev.framewire.core.Output;
import dev.framewire.core.PacketObserver;
import dev.framewire.core.QueueOverflowException;
import dev.framewire.core.Timestamp;
import dev.framewire.core.TimestampException;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.queue.OneToOnePacketRing;
import dev.framewire.core.internal.queue.PacketSlot;

import dev.framewire.core.journal.JournalSink;
import dev.framewire.core.journal.WorkerJournal;
import dev.framewire.offheap.Payload;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

abstract class OutputStreamPad0
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

abstract class OutputStreamFields extends OutputStreamPad0
{
    /** The lowest timestamp the next packet may carry. */
    public long bound = Timestamp.PRE_STREAM;
    public long lastTimestamp = Timestamp.UNSET;
    public long publishedBound = Timestamp.PRE_STREAM;
    /** {@link #lastTimestamp} as of the last flush: what a discard goes back to. */
    public long publishedLast = Timestamp.UNSET;
    /** Packets staged in the current call. */
    public int staged;
    /**
     * The first packet staged in the current call: here, beside the bound, not in the staging
     * arrays, which hold the second on. A call (or a graph input's add) stages one packet in the
     * common case; in three arrays that packet took three more lines to stage and to flush.
     */
    public long firstTimestamp;
    public Object firstValue;
    public long firstWord;
    /**
     * Packets delivered so far (to the consumers and observers): one opaque store per flush that
     * delivers any, by the producer only; read by {@link GraphStats} (opaque).
     */
    public long delivered;
}

abstract class OutputStreamPad1 extends OutputStreamFields
{
    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;
}

/**
 * The producer side of a stream: what a node (or a graph input) emits, staged during a call and
 * delivered when it returns to every consumer queue ("mirror"), every observer, and its new bound.
 *
 * <p>Fan-out: a payload emitted to k mirrors gets k references, the producer's own moving to the
 * first; observers borrow it during their call. A payload nobody consumes is released at once.
 *
 * <p>Threading: the producing node's worker (or a graph input's adder under its guard) only.
 * Layout: the fields it writes per packet sit between cache lines of padding, as
 * {@link PacketSlot}'s do.
 */
public final class OutputStream extends OutputStreamPad1 implements Output
{
    private static final VarHandle DELIVERED;

    static
    {
        try
        {
            DELIVERED = MethodHandles.lookup().findVarHandle(OutputStreamFields.class, "delivered", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    public final String name;
    /** The producing node, or null for a graph input. */
    public final Node node;
    public final int index;
    public final String tag;
    public final int tagIndex;
    /** What the stream needs of its graph while it runs: the journal, for the bounds a flush moves. */
    private final StreamRun runState;
    /** {@code max_shipment_size}, from the graph's config: a source's packets per stream per call at most. */
    private final int maxShipmentSize;
    /** The journal's id of this stream. */
    public int streamId = -1;
    public InputQueue[] mirrors = new InputQueue[0];
    public PacketObserver[] observers = new PacketObserver[0];
    private final PacketSlot observed;

    /** The packets staged after the first ({@link #firstValue}): the second at index 0. */
    private long[] stagedTimestamps = new long[8];
    private Object[] stagedValues = new Object[8];
    private long[] stagedWords = new long[8];
    /** Set once a consumer dropped out of the run: emits are released instead of delivered. */
    public boolean discarding;

    public OutputStream(final StreamRun runState, final Node node, final int index, final StreamSpec spec)
    {
        this.runState = runState;
        this.maxShipmentSize = runState.config().maxShipmentSize();
        this.node = node;
        this.index = index;
        this.name = spec.name;
        this.tag = spec.tag;
        this.tagIndex = spec.index;
        this.observed = new PacketSlot(spec.name);
    }

    private String owner()
    {
        return node == null ? "graph input stream '" + name + "'" : "node '" + node.name + "' on stream '" + name + "'";
    }

    @Override
    public int index()
    {
        return index;
    }

    @Override
    public String streamName()
    {
        return name;
    }

    @Override
    public void add(final Object value, final long timestamp)
    {
        stage(timestamp, value, EmitChecks.checkEmitted(this, value, timestamp, node == null ? null : node.inputs));
    }

    @Override
    public void addLong(final long value, final long timestamp)
    {
        stage(timestamp, InputQueue.LONG, value);
    }

    @Override
    public void addDouble(final double value, final long timestamp)
    {
        stage(timestamp, InputQueue.DOUBLE, Double.doubleToRawLongBits(value));
    }

    /** Checks the timestamp against the bound, then stages the packet for delivery. */
    public void stage(final long timestamp, final Object value, final long word)
    {
        if (discarding)
        {
            if (value instanceof Payload && node != null)
            {
                ((Payload)value).release(); // a failed or blocked node's late emits go nowhere
            }
            return;
        }
        if (node != null && node.isSource)
        {
            checkShipment(value);
        }
        if (timestamp < bound || !Timestamp.isValidPacketTimestamp(timestamp) ||
            (timestamp == Timestamp.PRE_STREAM || timestamp == Timestamp.POST_STREAM) && lastTimestamp != Timestamp.UNSET)
        {
            final String error = EmitChecks.timestampError(owner(), timestamp, lastTimestamp, bound);
            if (value instanceof Payload && node != null)
            {
                // the reference was handed to us: release it so that nothing leaks on the error path
                ((Payload)value).release();
            }
            throw new TimestampException(error);
        }
        final int n = staged;
        if (n == 0)
        {
            firstTimestamp = timestamp;
            if (firstValue != value)
            {
                firstValue = value; // only when it differs: see PacketSlot.set
            }
            firstWord = word;
        }
        else
        {
            stageMore(n - 1, timestamp, value, word);
        }
        staged = n + 1;
        lastTimestamp = timestamp;
        bound = Timestamp.nextAllowedInStream(timestamp);
    }

    /**
     * A source's emit: within {@code max_shipment_size} packets on this stream and
     * {@code max_shipment_bytes} across the call, or refused (its payload released).
     */
    private void checkShipment(final Object value)
    {
        if (staged >= maxShipmentSize)
        {
            if (value instanceof Payload)
            {
                ((Payload)value).release();
            }
            throw new IllegalStateException("source node '" + node.name + "' emitted more than max_shipment_size " +
                maxShipmentSize + " packets on stream '" + name + "' in one call; emit the rest in " +
                "the next call (it is called again until it stops)");
        }
        if (value instanceof Payload)
        {
            try
            {
                node.addToShipment(name, (Payload)value);
            }
            catch (final MemoryLimitException ex)
            {
                ((Payload)value).release();
                throw ex;
            }
        }
    }

    /** The first staged packet, {@code value}, has gone out: an object or payload is let go, a marker stays (see PacketSlot.clear). */
    private void forgetFirst(final Object value)
    {
        if (!(value instanceof OneToOnePacketRing.Marker))
        {
            firstValue = null;
        }
    }

    /** A packet after the call's first: into the staging arrays at {@code i}, grown when full. */
    private void stageMore(final int i, final long timestamp, final Object value, final long word)
    {
        if (i == stagedTimestamps.length)
        {
            grow();
        }
        stagedTimestamps[i] = timestamp;
        stagedValues[i] = value;
        stagedWords[i] = word;
    }

    private void grow()
    {
        final int size = stagedTimestamps.length * 2;
        stagedTimestamps = Arrays.copyOf(stagedTimestamps, size);
        stagedValues = Arrays.copyOf(stagedValues, size);
        stagedWords = Arrays.copyOf(stagedWords, size);
    }

    @Override
    public void setNextTimestampBound(final long newBound)
    {
        if (newBound > bound)
        {
            bound = newBound;
        }
    }

    @Override
    public long nextTimestampBound()
    {
        return bound;
    }

    @Override
    public void close()
    {
        bound = Timestamp.DONE;
    }

    public boolean isClosed()
    {
        return bound == Timestamp.DONE;
    }

    /**
     * Delivers what was staged, then the bound, then wakes the consumers.
     *
     * @throws Exception from an observer, or a {@link QueueOverflowException} at a hard cap.
     */
    public void flush() throws Exception
    {
        final InputQueue[] mirrors = this.mirrors;
        final int count = staged;
        Exception failure = null;
        int failedAt = count;
        for (int i = 0; i < count; i++)
        {
            final long timestamp;
            final Object value;
            final long word;
            if (i == 0)
            {
                timestamp = firstTimestamp;
                value = firstValue;
                word = firstWord;
                forgetFirst(value);
            }
            else
            {
                timestamp = stagedTimestamps[i - 1];
                value = stagedValues[i - 1];
                word = stagedWords[i - 1];
                stagedValues[i - 1] = null;
            }
            if (failure == null)
            {
                try
                {
                    deliver(mirrors, timestamp, value, word);
                }
                catch (final Exception ex)
                {
                    failure = ex;
                    failedAt = i;
                }
            }
            else if (value instanceof Payload)
            {
                ((Payload)value).release();
            }
        }
        staged = 0;
        if (failedAt > 0)
        {
            DELIVERED.setOpaque(this, delivered + failedAt);
        }
        publishedLast = lastTimestamp;
        final long b = bound;
        final boolean boundMoved = b != publishedBound;
        if (boundMoved)
        {
            publishedBound = b;
            final JournalSink journal = runState.journal();
            // a bound that is more than the last packet implies (a close, setNextTimestampBound)
            // is journaled, and is the only kind a queue stores: a packet settles its stream up to
            // itself. After a failed or discarded delivery a queue may lack the packet, so it is
            // told the bound.
            final boolean implied = count > 0 && b == Timestamp.nextAllowedInStream(lastTimestamp);
            if (journal != null && !implied)
            {
                journal.bound(node == null ? -1 : node.runningOn.id(), streamId, b);
            }
            if (!implied || failure != null || discarding)
            {
                for (final InputQueue mirror : mirrors)
                {
                    mirror.publishBound(b);
                }
            }
        }
        if (count > 0 || boundMoved)
        {
            notifyConsumers(mirrors);
        }
        if (failure != null)
        {
            throw failure;
        }
    }

    /**
     * Schedules each mirror's consumer. A consumer pinned to the worker this producer runs on is
     * queued with no fence and, when already scheduled, no write ({@link Node#scheduleFromOwnWorker});
     * any other is told after one full fence for all of them, which orders this flush's queue and
     * bound stores before the reads of their states (see {@link Node#schedule()}).
     */
    private void notifyConsumers(final InputQueue[] mirrors)
    {
        final Node producer = node;
        // the producer's worker, compared by identity only (the stream layer names no worker type)
        final Object own = producer == null || producer.shared != null ? null : producer.worker;
        boolean fenced = false;
        for (final InputQueue mirror : mirrors)
        {
            final Node consumer = (Node)mirror.consumer;
            if (mirror.polled)
            {
                continue; // the consumer's worker looks at this queue every duty cycle
            }
            if (own != null && consumer != null && consumer.worker == own && consumer.shared == null &&
                consumer != producer)
            {
                consumer.scheduleFromOwnWorker();
            }
            else
            {
                if (!fenced)
                {
                    VarHandle.fullFence();
                    fenced = true;
                }
                mirror.wakeConsumer();
            }
        }
    }

    private void deliver(final InputQueue[] mirrors, final long timestamp, final Object value, final long word)
        throws Exception
    {
        final boolean isPayload = value instanceof Payload;
        final int consumers = discarding ? 0 : mirrors.length;
        final WorkerJournal journal = node == null ? null : node.runningOn.journal();
        if (journal != null)
        {
            journal.emit(node.id, streamId, timestamp, journalValue(value), word);
        }
        final PacketObserver[] observers = this.observers;
        if (observers.length > 0)
        {
            observed.set(timestamp, value, word);
            try
            {
                for (final PacketObserver observer : observers)
                {
                    try
                    {
                        observer.onPacket(observed);
                    }
                    catch (final Exception ex)
                    {
                        throw new ObserverFailure(name, observer, timestamp, ex); // the observer's, not the node's
                    }
                }
            }
            catch (final Exception ex)
            {
                if (isPayload)
                {
                    ((Payload)value).release();
                }
                throw ex;
            }
            finally
            {
                observed.clear();
            }
        }
        if (isPayload)
        {
            final Payload payload = (Payload)value;
            if (consumers == 0)
            {
                payload.release();
                return;
            }
            if (consumers > 1)
            {
                payload.retain(consumers - 1);
            }
            payload.ownerTag(this);
        }
        for (int m = 0; m < consumers; m++)
        {
            final InputQueue mirror = mirrors[m];
            if (!mirror.offer(timestamp, value, word))
            {
                if (isPayload)
                {
                    for (int r = m; r < consumers; r++)
                    {
                        ((Payload)value).release();
                    }
                }
                throw new QueueOverflowException(mirror + " is at its hard cap of " + mirror.capacity() +
                    " packets (queue limit " + mirror.limit + ") and " + owner() + " emitted timestamp " +
                    Timestamp.toString(timestamp) + "; its consumer does not keep up and backpressure cannot hold " +
                    "this producer back: use Backpressure.ALL_NODES, a flow limiter, or a larger queueHardCap");
            }
        }
    }

    /**
     * Releases staged payloads without delivering them (a failed call, a failed or cancelled run),
     * and takes the stream's bound and last timestamp back to what was last delivered: nothing
     * downstream saw the discarded packets, so a source called again after a failed call may emit
     * their timestamps again.
     */
    public void discardStaged()
    {
        for (int i = 0; i < staged; i++)
        {
            final Object value;
            if (i == 0)
            {
                value = firstValue;
                forgetFirst(value);
            }
            else
            {
                value = stagedValues[i - 1];
                stagedValues[i - 1] = null;
            }
            if (value instanceof Payload)
            {
                ((Payload)value).release();
            }
        }
        staged = 0;
        bound = publishedBound;
        lastTimestamp = publishedLast;
    }

    public int stagedCount()
    {
        return staged;
    }

    /** Any thread: packets delivered so far (an opaque load of a single writer's counter). */
    public long deliveredCount()
    {
        return (long)DELIVERED.getOpaque(this);
    }

    /**
     * The producer's thread (its worker between two calls, or a graph input's adder under its
     * guard), never during a flush: a hot-plugged subgraph's queue starts consuming this stream.
     * The queue, made wholly by another thread, was published to this one by the command queue
     * (or the guard) that brought it; it starts at the bound consumers have seen, so it never sees a
     * packet below it, and gets every packet delivered from the next flush on. The array is copied:
     * a flush in progress elsewhere could not happen (this thread is the only producer), and no
     * flush allocates.
     */
    public void attachMirror(final InputQueue queue)
    {
        queue.publishBound(publishedBound);
        mirrors = with(mirrors, new InputQueue[]{queue});
        VarHandle.fullFence(); // the bound before the consumer's state: see Node.schedule()
        queue.wakeConsumer();
    }

    /**
     * The producer's thread, as {@link #attachMirror}: the queue stops consuming this stream and
     * is closed (its bound done), so its consumer sees a close, never a stall.
     */
    public void detachMirror(final InputQueue queue)
    {
        mirrors = without(mirrors, new InputQueue[]{queue});
        queue.publishBound(Timestamp.DONE); // the last store of this queue's producer side
        VarHandle.fullFence();
        queue.wakeConsumer();
    }

    /** A new array: {@code queues} appended to {@code to}. */
    public static InputQueue[] with(final InputQueue[] to, final InputQueue[] queues)
    {
        final InputQueue[] all = Arrays.copyOf(to, to.length + queues.length);
        System.arraycopy(queues, 0, all, to.length, queues.length);
        return all;
    }

    /** A new array: {@code from} without {@code queues}. */
    public static InputQueue[] without(final InputQueue[] from, final InputQueue[] queues)
    {
        final java.util.List<InputQueue> gone = Arrays.asList(queues);
        return Arrays.stream(from).filter(q -> !gone.contains(q)).toArray(InputQueue[]::new);
    }

    @Override
    public String toString()
    {
        return owner();
    }

    /** The journal's marker for an engine value: long and double packets keep their bits in the word. */
    public static Object journalValue(final Object value)
    {
        if (value == InputQueue.LONG)
        {
            return JournalSink.LONG;
        }
        return value == InputQueue.DOUBLE ? JournalSink.DOUBLE : value;
    }
}
