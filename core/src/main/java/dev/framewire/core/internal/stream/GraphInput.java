package dev.framewire.core.internal.stream;

import dev.framewire.core.Timestamp;
import dev.framewire.core.TimestampException;
import dev.framewire.core.internal.queue.AdderGuard;
import dev.framewire.core.internal.queue.HeldBack;
import dev.framewire.core.internal.queue.HeldBackAdder;
import dev.framewire.core.internal.queue.InputQueue;

import dev.framewire.core.jfr.BackpressureEvent;
import dev.framewire.core.journal.JournalSink;
import dev.framewire.offheap.Payload;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A graph input stream: where {@link Graph#addPacket} puts packets in. It is a source for
 * backpressure: while a queue downstream of it is full, adders wait or are refused.
 *
 * <p>Threading: adders on any threads, serialized by a guard (a CAS flag held only while a packet
 * is handed to the consumer queues, never while waiting for room), since the stream has one
 * producer side. Waiters park and are unparked when a queue they wait on stops being full.
 */
public final class GraphInput implements HeldBackAdder
{
    public final StreamRun run;
    public final String name;
    public final OutputStream stream;
    /** Queues whose fullness holds adders back; volatile: a subgraph bound to this stream changes it at run time. */
    public volatile InputQueue[] throttleQueues = new InputQueue[0];
    private final HeldBack heldBack = new HeldBack();
    /** Whether the graph's {@code room_batch} is above 1 (see {@link #add}). */
    private final boolean roomBatched;
    /** Serializes the adders; on a line of its own. */
    private final AdderGuard guard = new AdderGuard();
    private volatile Thread waiter;
    private volatile boolean closed;
    /** Arrival clock readings of the last packets, for graph-input-to-here latency; see {@link #arrivalNanos}. */
    private final long[] arrivalTimestamps = new long[ARRIVALS];
    private final long[] arrivalNanos = new long[ARRIVALS];
    private volatile long arrivals;
    private static final int ARRIVALS = 4096;

    public GraphInput(final StreamRun run, final String name)
    {
        this.run = run;
        this.name = name;
        this.stream = new OutputStream(run, null, 0, StreamSpec.parse(name));
        this.roomBatched = run.config().roomBatch() > 1;
    }

    public boolean isThrottled()
    {
        return heldBack.check(throttleQueues);
    }

    /**
     * Adds a packet.
     *
     * @return false if refused because a queue is full and {@code wait} is false (the caller keeps
     * its payload reference).
     */
    public boolean add(final long timestamp, final Object value, final long word, final boolean wait)
        throws InterruptedException
    {
        // A refusing add under MediaPipe's rule looks exactly and asks for no room (HeldBack.fullNow);
        // under a room batch it stays held back through the batch like any holder (isThrottled)
        if ((wait || roomBatched) ? isThrottled() : HeldBack.fullNow(throttleQueues))
        {
            if (!wait)
            {
                // a closed stream or an ended run is an error, as for a waiting add: a refusal
                // would tell the caller to retry, and a queue nobody drains stays full forever
                checkOpen(value);
                return false;
            }
            try
            {
                awaitRoom();
            }
            catch (final InterruptedException ex)
            {
                if (value instanceof Payload)
                {
                    ((Payload)value).release(); // the reference passes to the graph also when the add throws
                }
                throw ex;
            }
        }
        guard.lock();
        try
        {
            checkOpen(value);
            if (value == InputQueue.LONG || value == InputQueue.DOUBLE)
            {
                stream.stage(timestamp, value, word);
            }
            else
            {
                // as a node's emit: refuses null, and stamps a payload with its generation, which
                // the consumer checks (a word of 0 fails as soon as the slot has been reused)
                stream.add(value, timestamp);
            }
            final JournalSink journal = run.journal();
            if (journal != null)
            {
                journal.graphInput(stream.streamId, timestamp, OutputStream.journalValue(value), word);
            }
            if (run.recordsArrivals())
            {
                final long n = arrivals;
                final int i = (int)n & (ARRIVALS - 1);
                arrivalTimestamps[i] = timestamp;
                arrivalNanos[i] = run.clock().nanoTime();
                arrivals = n + 1; // volatile write publishes the slot
            }
            try
            {
                stream.flush();
            }
            catch (final RuntimeException ex)
            {
                // checked and staged, but not (wholly) delivered: a queue at its hard cap, or an
                // observer that threw. Not the caller's mistake: the run fails, as for a node.
                run.fail("graph input '" + name + "'", timestamp, ex);
                throw ex;
            }
        }
        catch (final TimestampException ex)
        {
            if (value instanceof Payload)
            {
                ((Payload)value).release();
            }
            // As MediaPipe's AddPacketToInputStream: the add reports the error and the graph is in
            // error, so later adds fail and waitUntilDone() reports it (the first failure kept)
            if (!run.isStopping())
            {
                run.fail("graph input '" + name + "'", timestamp, ex);
            }
            throw ex;
        }
        catch (final RuntimeException | InterruptedException ex)
        {
            throw ex;
        }
        catch (final Exception ex)
        {
            // an observer that threw is the observer's failure, named so (ObserverFailure)
            final String where = ex instanceof ObserverFailure ? ((ObserverFailure)ex).where() : "graph input '" + name + "'";
            run.fail(where, timestamp, ex);
            throw new IllegalStateException(where + " failed at timestamp " + Timestamp.toString(timestamp) + ": " +
                ex.getMessage(), ex);
        }
        finally
        {
            guard.unlock();
        }
        return true;
    }

    private static final String ENDED =
        "belongs to a run that has ended (failed, cancelled or done: waitUntilDone() says which and why)";

    private void checkOpen(final Object value)
    {
        final String problem = closed ? "is closed" : run.isStopping() ? ENDED :
            !run.isStarted() ? "belongs to a graph not started yet" : null;
        if (problem != null)
        {
            if (value instanceof Payload)
            {
                ((Payload)value).release();
            }
            throw new IllegalStateException("graph input stream '" + name + "' " + problem);
        }
    }

    private void awaitRoom() throws InterruptedException
    {
        final BackpressureEvent event = new BackpressureEvent();
        if (event.shouldCommit())
        {
            for (final InputQueue queue : throttleQueues)
            {
                if (queue.isFull())
                {
                    event.stream = queue.toString();
                    event.depth = queue.size();
                    event.limit = queue.limit;
                    break;
                }
            }
        }
        event.begin();
        waiter = Thread.currentThread();
        run.adderWaits(1);
        try
        {
            while (isThrottled() && !run.isStopping())
            {
                run.checkDeadlock();
                if (isThrottled())
                {
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(10));
                    if (Thread.interrupted())
                    {
                        throw new InterruptedException("interrupted while waiting for room on graph input '" +
                            name + "'");
                    }
                }
            }
        }
        finally
        {
            run.adderWaits(-1);
            waiter = null;
            event.commit();
        }
    }

    /**
     * Any thread: when the packet at {@code timestamp} was added, or -1. A benign race: a slot
     * overwritten while read gives a wrong answer only for a packet 4096 adds old.
     */
    public long arrivalNanos(final long timestamp)
    {
        final long n = arrivals;
        for (long k = n - 1; k >= 0 && k >= n - ARRIVALS; k--)
        {
            final int i = (int)k & (ARRIVALS - 1);
            final long ts = arrivalTimestamps[i];
            if (ts == timestamp)
            {
                return arrivalNanos[i];
            }
            if (ts < timestamp)
            {
                return -1; // timestamps increase: it is not further back
            }
        }
        return -1;
    }

    /** Any thread: a queue this input waits on has room. */
    @Override
    public void wakeWaiter()
    {
        final Thread t = waiter;
        if (t != null)
        {
            LockSupport.unpark(t);
        }
    }

    public void setBound(final long bound)
    {
        guard.lock();
        try
        {
            checkOpen(null);
            if (bound < stream.bound)
            {
                // MediaPipe refuses a bound below the stream's (SetInputStreamTimestampBound): a
                // caller that goes back in time has a bug worth hearing about; the run goes on
                throw new TimestampException("graph input stream '" + name + "': bound " + Timestamp.toString(bound) +
                    " is below its bound " + Timestamp.toString(stream.bound) + "; a bound only moves forward");
            }
            if (bound > stream.bound)
            {
                stream.setNextTimestampBound(bound);
                stream.flush();
            }
        }
        catch (final RuntimeException ex)
        {
            throw ex;
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
        finally
        {
            guard.unlock();
        }
    }

    public void close()
    {
        guard.lock();
        try
        {
            if (closed)
            {
                return;
            }
            closed = true;
            stream.close();
            stream.flush();
        }
        catch (final RuntimeException ex)
        {
            throw ex;
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
        finally
        {
            guard.unlock();
        }
    }

    @Override
    public boolean isClosed()
    {
        return closed;
    }

    /** Any thread: a hot-plugged subgraph's queue starts consuming this stream (see {@link OutputStream#attachMirror}). */
    public void attachMirror(final InputQueue queue)
    {
        guard.lock();
        try
        {
            stream.attachMirror(queue);
        }
        finally
        {
            guard.unlock();
        }
    }

    /** Any thread: a hot-plugged subgraph's queue stops consuming this stream. */
    public void detachMirror(final InputQueue queue)
    {
        guard.lock();
        try
        {
            stream.detachMirror(queue);
        }
        finally
        {
            guard.unlock();
        }
    }

    /** Any thread: adders are also held back by {@code queues} (a hot-plugged subgraph's, downstream of this stream). */
    public void addThrottles(final InputQueue[] queues)
    {
        guard.lock();
        try
        {
            throttleQueues = OutputStream.with(throttleQueues, queues);
            heldBack.forget();
        }
        finally
        {
            guard.unlock();
        }
    }

    /** Any thread: {@code queues} no longer hold adders back. */
    public void removeThrottles(final InputQueue[] queues)
    {
        guard.lock();
        try
        {
            throttleQueues = OutputStream.without(throttleQueues, queues);
            heldBack.forget();
        }
        finally
        {
            guard.unlock();
        }
    }

    /** Any thread: see {@link AdderGuard#activity()}. */
    public long activity()
    {
        return guard.activity();
    }
}
