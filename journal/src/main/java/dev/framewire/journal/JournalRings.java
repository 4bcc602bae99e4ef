package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static dev.framewire.journal.JournalDescriptor.FIXED_LENGTH;

/**
 * ASYNC mode's rings, from the producing threads' side, and the journal agent that drains them:
 * a worker's thread claims on its {@link WorkerRing}, any other thread (a graph input's adder, the
 * graph's owner, a thread using a worker id it does not own) on one many-to-one ring. A full ring
 * loses the record (counted; the agent journals the loss) or, under
 * {@link JournalConfig.RingFull#WAIT}, makes the thread wait for the agent to make room.
 * {@link #flush} waits until the agent has appended every record claimed before it.
 *
 * <p>Threading: {@link #makeWorkerRings} at run start, before the workers start (which
 * publishes the rings to them); the offers from any thread, each on the ring {@link #ownRing}
 * gives it; {@link #close} once, after the workers stopped.
 */
final class JournalRings
{
    /**
     * ASYNC under {@link JournalConfig.ClockReads#HAND_OVER}: a call no other thread handed a
     * packet ({@link JournalWriter#processBeginSameWorker}) begins at its worker's last clock reading.
     */
    final boolean readsAtHandOver;
    /** Under {@link JournalConfig.RingFull#WAIT}: a full ring makes the thread wait, not lose the record. */
    final boolean waitsForRoom;
    /** Records lost to a full ring, shared with the agent, which journals each loss. */
    final AtomicLong lost;
    /** The ring of threads that are not a worker's own (see {@link #ownRing}). */
    final ManyToOneRingBuffer shared;
    private final int ringCapacity;
    private final JournalAgent agent;
    private final AgentRunner agentRunner;
    /**
     * By worker id, the worker's own one-to-one ring and the thread that owns it; made at run
     * start before the workers start (which publishes them to the workers), handed to the agent
     * through a volatile write.
     */
    private WorkerRing[] workerRings = new WorkerRing[0];
    private volatile boolean closed;

    JournalRings(
        final JournalConfig config,
        final ManyToOneRingBuffer shared,
        final AtomicLong lost,
        final JournalAgent agent,
        final AgentRunner agentRunner)
    {
        this.readsAtHandOver = config.clockReads() == JournalConfig.ClockReads.HAND_OVER;
        this.waitsForRoom = config.ringFull() == JournalConfig.RingFull.WAIT;
        this.ringCapacity = config.ringCapacity();
        this.shared = shared;
        this.lost = lost;
        this.agent = agent;
        this.agentRunner = agentRunner;
    }

    /** A many-to-one ring of {@code capacity} bytes, in direct memory. */
    static ManyToOneRingBuffer sharedRing(final int capacity)
    {
        return new ManyToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(capacity + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    /** Starts the journal agent on a daemon thread of its own. */
    void startAgent(final boolean batchScheduling)
    {
        if (batchScheduling)
        {
            BatchScheduling.load(); // here, so that the agent starts draining at once
        }
        AgentRunner.startOnThread(agentRunner, r ->
        {
            final Thread thread = new Thread(r, "framewire-journal");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * At run start, before the workers start (which publishes them): a ring per worker, handed to
     * the agent too.
     *
     * @param writer  the journal the rings are the workers' parts of.
     * @param values  what a folded packet's value is journaled as.
     * @param workers the number of workers.
     */
    void makeWorkerRings(final JournalWriter writer, final PacketValues values, final int workers)
    {
        final WorkerRing[] rings = new WorkerRing[workers];
        for (int w = 0; w < rings.length; w++)
        {
            rings[w] = new WorkerRing(writer, this, values, w, ringCapacity);
        }
        this.workerRings = rings;
        agent.workerRings(rings);
    }

    /** The workers' rings, by worker id. */
    WorkerRing[] workerRings()
    {
        return workerRings;
    }

    /**
     * The calling thread's ring: its worker's own when it owns it (a volatile read, a plain load
     * on x86, and a compare), else null for the many-to-one ring.
     */
    WorkerRing ownRing(final int workerId)
    {
        final WorkerRing[] rings = this.workerRings;
        if (workerId >= 0 && workerId < rings.length)
        {
            final WorkerRing own = rings[workerId];
            final Thread owner = own.owner;
            if (owner == Thread.currentThread())
            {
                return own;
            }
            if (owner == null)
            {
                return claimRing(own);
            }
        }
        return null;
    }

    /** Cold path, once per worker: the first thread to journal with a worker's id owns its ring. */
    private synchronized WorkerRing claimRing(final WorkerRing own)
    {
        if (own.owner == null)
        {
            own.owner = Thread.currentThread();
        }
        return own.owner == Thread.currentThread() ? own : null;
    }

    /**
     * One fixed-size record, at a clock read now, on the calling thread's ring: its worker's, after
     * the worker's staged calls and open call (their nanos first: this record's is read after), or
     * the many-to-one ring.
     */
    void record(
        final int kind, final int aux, final int worker, final int node, final int stream, final long timestamp,
        final long value)
    {
        final WorkerRing own = ownRing(worker);
        final RingBuffer ring = own == null ? shared : own.ring;
        if (own != null)
        {
            own.before(ring);
        }
        offer(ring, kind, aux, worker, node, stream, System.nanoTime(), timestamp, value);
    }

    /**
     * One fixed-size record onto a ring; when it is full, counted lost (never block a worker), or
     * under {@link JournalConfig.RingFull#WAIT} after waiting for room.
     */
    void offer(
        final RingBuffer ring,
        final int kind,
        final int aux,
        final int worker,
        final int node,
        final int stream,
        final long nanos,
        final long timestamp,
        final long value)
    {
        int index = ring.tryClaim(kind, FIXED_LENGTH);
        if (index <= 0 && waitsForRoom)
        {
            index = claimWaiting(ring, kind, FIXED_LENGTH);
        }
        if (index > 0)
        {
            JournalDescriptor.putFixed(ring.buffer(), index, kind, aux, worker, node, stream, nanos, timestamp, value);
            ring.commit(index);
        }
        else
        {
            lost.incrementAndGet(); // the agent journals the loss
        }
    }

    /**
     * A record with a text tail, as a longer message on the calling thread's ring (see
     * {@link #record}). A text longer than the ring's longest message is cut (it may split a
     * character). Rare and telling records: waits for room (parking) rather than lose them, up to
     * 5 s for RUN_END, 1 s for others.
     */
    void text(final int kind, final int worker, final int node, final long timestamp, final long value, final byte[] text)
    {
        byte[] utf8 = text;
        final WorkerRing own = ownRing(worker);
        final RingBuffer ring = own == null ? shared : own.ring;
        if (own != null)
        {
            own.before(ring);
        }
        final long nanos = System.nanoTime();
        final int room = ring.maxMsgLength() - FIXED_LENGTH - 4;
        if (utf8.length > room)
        {
            utf8 = Arrays.copyOf(utf8, room);
        }
        final long patience = kind == JournalDescriptor.RUN_END ? TimeUnit.SECONDS.toNanos(5) :
            TimeUnit.SECONDS.toNanos(1);
        final int index = claimPatiently(ring, kind, FIXED_LENGTH + 4 + utf8.length, patience);
        if (index > 0)
        {
            final AtomicBuffer buffer = ring.buffer();
            JournalDescriptor.putFixed(buffer, index, kind, 0, worker, node, -1, nanos, timestamp, value);
            buffer.putInt(index + FIXED_LENGTH, utf8.length);
            buffer.putBytes(index + FIXED_LENGTH + 4, utf8);
            ring.commit(index);
        }
        else
        {
            lost.incrementAndGet();
        }
    }

    /**
     * Under {@link JournalConfig.RingFull#WAIT}, the ring found full: claims room once the agent
     * has made it, spinning briefly, then yielding the core (on a machine of few cores the agent
     * may need it), then parking 10 us at a time. Gives up only when the journal is closing or its
     * agent has stopped: then the record is lost and counted as under LOSE.
     *
     * @return the claim's index, or a value of at most 0 when it gave up.
     */
    int claimWaiting(final RingBuffer ring, final int kind, final int length)
    {
        int index;
        int idles = 0;
        while ((index = ring.tryClaim(kind, length)) <= 0)
        {
            if (closed || agentRunner.isClosed())
            {
                return index;
            }
            if (idles < 100)
            {
                if (idles == 0)
                {
                    wakeAgent(); // it may be parked for up to its pace or agentMaxParkNanos
                }
                idles++;
                Thread.onSpinWait();
            }
            else if (idles < 200)
            {
                idles++;
                Thread.yield();
            }
            else
            {
                LockSupport.parkNanos(10_000L);
            }
        }
        return index;
    }

    /** Ends the agent's park, if it is parked, so that it drains the rings now. */
    private void wakeAgent()
    {
        final Thread agentThread = agentRunner.thread();
        if (agentThread != null)
        {
            LockSupport.unpark(agentThread);
        }
    }

    private static int claimPatiently(
        final RingBuffer ring, final int kind, final int length, final long timeoutNanos)
    {
        int index = ring.tryClaim(kind, length);
        final long deadline = System.nanoTime() + timeoutNanos;
        while (index <= 0 && System.nanoTime() - deadline < 0)
        {
            LockSupport.parkNanos(100_000L);
            index = ring.tryClaim(kind, length);
        }
        return index;
    }

    /**
     * At run end, from the stopping thread: a call still open (its worker stopped inside it, or
     * never returned) goes in as a PROCESS_BEGIN without an end, as SYNC would have it, and any
     * staged calls before it; through the many-to-one ring, since its worker may still be alive.
     * The workers have stopped, which publishes their fields; a worker that never returned is a
     * benign race here (at worst a torn call is journaled as open).
     */
    void endWorkers()
    {
        for (final WorkerRing own : workerRings)
        {
            own.before(shared);
        }
    }

    /**
     * Waits until the agent has read past every record claimed on any ring before the call, then
     * finished the duty cycle it read them in, which appends the batch they went into. The calling
     * thread's own staged calls go on its ring first. Parks while waiting.
     *
     * @return true when appended; false on timeout or if the journal is closed.
     */
    boolean flush(final long timeoutNanos)
    {
        final WorkerRing[] rings = this.workerRings;
        for (final WorkerRing own : rings)
        {
            if (own.owner == Thread.currentThread())
            {
                own.flushStaged(own.ring); // the caller's own staged calls; a worker's go when it idles
            }
        }
        final long[] targets = new long[rings.length + 1];
        for (int w = 0; w < rings.length; w++)
        {
            targets[w] = rings[w].ring.producerPosition();
        }
        targets[rings.length] = shared.producerPosition();
        final long deadline = System.nanoTime() + timeoutNanos;
        for (int w = 0; w <= rings.length; w++)
        {
            final RingBuffer r = w < rings.length ? rings[w].ring : shared;
            while (r.consumerPosition() < targets[w])
            {
                if (!pause(deadline))
                {
                    return false;
                }
            }
        }
        final long cycle = agent.cycles();
        while (agent.cycles() <= cycle)
        {
            if (!pause(deadline))
            {
                return false;
            }
        }
        return true;
    }

    /** Flush's wait: false when closed or past the deadline, else wakes the agent (rather than wait out its park) and parks a moment. */
    private boolean pause(final long deadline)
    {
        if (closed || System.nanoTime() - deadline > 0)
        {
            return false;
        }
        wakeAgent();
        LockSupport.parkNanos(50_000L);
        return true;
    }

    /** Closes the rings: waiters give up, and the agent drains what is left in its onClose, on its own thread. */
    void close()
    {
        closed = true;
        agentRunner.close();
    }
}
