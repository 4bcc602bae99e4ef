package dev.framewire.core.internal.node;

import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Input;
import dev.framewire.core.Output;
import dev.framewire.core.Timestamp;
import dev.framewire.core.TimestampException;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.stream.EmitChecks;
import dev.framewire.core.internal.stream.InputPort;
import dev.framewire.core.internal.stream.OutputStream;

import dev.framewire.core.jfr.NodeProcessEvent;
import dev.framewire.core.journal.WorkerJournal;
import dev.framewire.offheap.Payload;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * One {@code process} call of a node whose {@code max_in_flight} is above 1: the input set it was
 * given, what the calculator emitted, and whether it threw. A node has {@code max_in_flight} lanes,
 * used in turn.
 *
 * <p>A step of the node takes an input set, moves its packets into the next free lane
 * ({@link #load}) and queues the lane on the executor's {@link SharedCalls}; the first free worker
 * (its runner) calls {@code process} with the lane as the context ({@link #run}); emits are
 * recorded in the lane, not delivered. Later steps of the node retire lanes in the order they were
 * loaded, which is input-timestamp order, replaying each one's emits and bounds into the node's
 * real outputs ({@link #replay}): downstream sees exactly what calls made one after another would
 * have produced, whatever order they finished in.
 *
 * <p>Threading: the node's step owns a lane until it queues it; the runner owns it from then
 * until {@link #isDone()} turns true (a release store, after everything the call wrote); then the
 * node's steps own it again. After the run, the thread that stopped the workers owns it.
 */
public final class Lane implements CallContext
{
    private static final VarHandle DONE;

    static
    {
        try
        {
            DONE = MethodHandles.lookup().findVarHandle(Lane.class, "done", boolean.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    public final Node node;
    /** The call's input set; its payloads are lent to the call (see {@link InputPort#passOn}). */
    public final InputPort[] inputs;
    private final Emits[] outputs;
    private final NodeProcessEvent processEventProbe = new NodeProcessEvent();
    /** The call's time in {@code process} when the graph times calls, else 0; the node's step adds it up. */
    public long callNanos;
    /** The input set's timestamp. */
    public long timestamp;
    /** What {@code process} threw, or null. */
    public Throwable failure;
    /** Packets the calculator counted as dropped in this call. */
    public int drops;
    /** The worker running the call (its journal notes carry its id); written by it before the call. */
    private NodeThread runner;
    @SuppressWarnings("unused") // through DONE
    private volatile boolean done;

    public Lane(final Node node)
    {
        this.node = node;
        this.inputs = new InputPort[node.inputs.length];
        for (int i = 0; i < inputs.length; i++)
        {
            final InputPort home = node.inputs[i];
            inputs[i] = new InputPort(node, i, home.spec, home.queue);
        }
        this.outputs = new Emits[node.outputs.length];
        for (int i = 0; i < outputs.length; i++)
        {
            outputs[i] = new Emits(this, node.outputs[i]);
        }
    }

    // ---------------------------------------------------------------- the node's step

    /** Node step: takes over the input set the node's ports hold (their packets move here). */
    public void load(final long inputTimestamp)
    {
        timestamp = inputTimestamp;
        failure = null;
        drops = 0;
        callNanos = 0;
        for (int i = 0; i < inputs.length; i++)
        {
            node.inputs[i].moveTo(inputs[i]);
        }
        for (final Emits output : outputs)
        {
            output.reset();
        }
        DONE.setOpaque(this, false); // published to the runner by the hand-over
    }

    /** Packets of the input set this lane holds: what a failed call drops. */
    int inputPackets()
    {
        return NodeLifecycle.inputPackets(inputs);
    }

    public boolean isDone()
    {
        return (boolean)DONE.getAcquire(this);
    }

    /**
     * Node step: stages what the call emitted on the node's outputs, each in its emit order, then
     * releases the input set (the caller flushes). A timestamp the stream refuses throws, with the rest released.
     */
    public void replay() throws TimestampException
    {
        try
        {
            for (final Emits output : outputs)
            {
                output.replay();
            }
        }
        finally
        {
            release();
        }
    }

    /** Node step, or the stopping thread: releases the input set and whatever is still recorded. */
    public void release()
    {
        for (final InputPort input : inputs)
        {
            input.releaseHeld();
        }
        for (final Emits output : outputs)
        {
            output.discard();
        }
    }

    // ---------------------------------------------------------------- the runner

    /** Runner: the call. A cancelled run skips it; the stopping thread releases the lane. */
    public void run(final NodeThread runner)
    {
        this.runner = runner;
        if (!node.runState.isStopping())
        {
            final WorkerJournal journal = runner.journal();
            if (journal != null)
            {
                journal.processBegin(node.id, timestamp);
            }
            final NodeProcessEvent event = Node.JFR_PROBES && processEventProbe.isEnabled() ? new NodeProcessEvent() : null;
            if (event != null)
            {
                event.begin();
            }
            final boolean timed = node.runState.timesProcessCalls();
            final long began = timed ? node.runState.clock().nanoTime() : 0;
            try
            {
                node.calculator.process(this);
                if (timed)
                {
                    callNanos = node.runState.clock().nanoTime() - began;
                }
                if (event != null && event.shouldCommit())
                {
                    event.node = node.name;
                    event.inputTimestamp = timestamp;
                    event.worker = runner.name();
                    event.commit();
                }
            }
            catch (final Throwable t)
            {
                failure = t;
                if (timed)
                {
                    callNanos = node.runState.clock().nanoTime() - began;
                }
            }
            if (journal != null)
            {
                journal.processEnd(node.id, timestamp);
            }
        }
        DONE.setRelease(this, true);
        VarHandle.fullFence(); // the done store before the state read: see Node.schedule()
        node.schedule(); // a step of the node retires the lane
    }

    // ---------------------------------------------------------------- CalculatorContext (what differs from the node's; the rest: CallContext)

    @Override
    public Node callNode()
    {
        return node;
    }

    @Override
    public NodeThread callWorker()
    {
        return runner;
    }

    @Override
    public long inputTimestamp()
    {
        return timestamp;
    }

    @Override
    public Input input(final int index)
    {
        return inputs[index];
    }

    @Override
    public Output output(final int index)
    {
        return outputs[index];
    }

    @Override
    public void setOffset(final long offset)
    {
        throw new IllegalStateException("node '" + node.name + "': setOffset is for open, not process");
    }

    @Override
    public void stop()
    {
        node.stop(); // a node with inputs: the run's sources close, as MediaPipe's StatusStop from Process
    }

    @Override
    public long shipmentBytesLeft()
    {
        return Long.MAX_VALUE; // not a source
    }

    @Override
    public boolean isCancelled()
    {
        return node.runState.isStopping();
    }

    @Override
    public void countDrop()
    {
        drops++;
    }

    @Override
    public String toString()
    {
        return "call of node '" + node.name + "' at " + Timestamp.toString(timestamp);
    }

    /**
     * One output as a lane's call sees it: emits and bounds recorded for the node's step to
     * replay into the real stream. Its arrays grow to the most one call emitted and are reused.
     *
     * <p>Threading: as the lane's.
     */
    public static final class Emits implements Output
    {
        private final Lane lane;
        private final OutputStream stream;
        private long[] timestamps = new long[4];
        private Object[] values = new Object[4];
        private long[] words = new long[4];
        private int count;
        private long bound;
        private boolean closed;

        public Emits(final Lane lane, final OutputStream stream)
        {
            this.lane = lane;
            this.stream = stream;
        }

        public void reset()
        {
            count = 0;
            closed = false;
            bound = stream.bound; // the stream's, as of the hand-over: what nextTimestampBound starts from
        }

        @Override
        public int index()
        {
            return stream.index;
        }

        @Override
        public String streamName()
        {
            return stream.name;
        }

        @Override
        public void add(final Object value, final long timestamp)
        {
            record(timestamp, value, EmitChecks.checkEmitted(stream, value, timestamp, lane.inputs));
        }

        @Override
        public void addLong(final long value, final long timestamp)
        {
            record(timestamp, InputQueue.LONG, value);
        }

        @Override
        public void addDouble(final double value, final long timestamp)
        {
            record(timestamp, InputQueue.DOUBLE, Double.doubleToRawLongBits(value));
        }

        private void record(final long timestamp, final Object value, final long word)
        {
            if (count == timestamps.length)
            {
                timestamps = Arrays.copyOf(timestamps, count * 2);
                values = Arrays.copyOf(values, count * 2);
                words = Arrays.copyOf(words, count * 2);
            }
            timestamps[count] = timestamp;
            values[count] = value;
            words[count] = word;
            count++;
            if (Timestamp.isValidPacketTimestamp(timestamp))
            {
                bound = Math.max(bound, Timestamp.nextAllowedInStream(timestamp));
            }
        }

        @Override
        public void setNextTimestampBound(final long newBound)
        {
            bound = Math.max(bound, newBound);
        }

        @Override
        public long nextTimestampBound()
        {
            return bound;
        }

        @Override
        public void close()
        {
            closed = true;
            bound = Timestamp.DONE;
        }

        /** Node step: stages the recorded packets on the stream (checking them), then the bound. */
        public void replay()
        {
            final OutputStream stream = this.stream;
            for (int i = 0; i < count; i++)
            {
                final Object value = values[i];
                values[i] = null; // the stream owns it now, or released it if it refused it
                stream.stage(timestamps[i], value, words[i]);
            }
            count = 0;
            stream.setNextTimestampBound(bound);
            if (closed)
            {
                stream.close();
            }
        }

        /** Releases the payloads still recorded. */
        public void discard()
        {
            for (int i = 0; i < count; i++)
            {
                final Object value = values[i];
                values[i] = null;
                if (value instanceof Payload)
                {
                    ((Payload)value).release();
                }
            }
            count = 0;
        }

        @Override
        public String toString()
        {
            return stream.toString();
        }
    }
}
