package dev.framewire.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * ASYNC mode's journal agent: drains the writers' rings into Chronicle (each worker's one-to-one
 * ring and the many-to-one ring of every other thread, up to {@link #DRAIN_LIMIT} records from
 * each a duty cycle), a record's bytes copied as they are (the rings hold the on-disk layout of
 * {@link JournalDescriptor} but the checksum), each followed by its CRC32C, computed here over the
 * ring's bytes so that the writers do not pay for it; and journals how many records a full ring
 * lost. Per ring, records are appended in the order they were claimed; across rings in the order
 * the agent drains them, so the file is not in {@code nanos} order across workers.
 *
 * <p>Threading: its own thread, under an Agrona {@code AgentRunner} with a backoff idle strategy
 * that parks; it owns its Chronicle appender, created in {@link #onStart()} on that thread. The
 * workers' rings are handed over once, by {@link #workerRings} (a volatile write the agent reads
 * each cycle).
 */
final class JournalAgent implements Agent, MessageHandler
{
    /** Records appended per duty cycle at most, so the idle strategy sees the truth about work. */
    private static final int DRAIN_LIMIT = 4096;

    private final SingleChronicleQueue queue;
    private final ManyToOneRingBuffer ring;
    private final AtomicLong lost;
    private final JournalWriter writer;
    /** The shared ring's memory, for checksumming a record in place; its position and limit are the agent's. */
    private final ByteBuffer ringBytes;
    private volatile JournalWriter.WorkerRing[] handedOver = new JournalWriter.WorkerRing[0];
    /** The agent's copies: the workers' rings, and their memory as buffers of its own. */
    private RingBuffer[] rings = new RingBuffer[0];
    private ByteBuffer[] ringsBytes = new ByteBuffer[0];
    /** The memory of the ring being drained. */
    private ByteBuffer currentBytes;
    private final JournalDescriptor.Scratch scratch = new JournalDescriptor.Scratch();
    private ExcerptAppender appender;
    private long lostReported;

    JournalAgent(
        final SingleChronicleQueue queue,
        final ManyToOneRingBuffer ring,
        final AtomicLong lost,
        final JournalWriter writer)
    {
        this.queue = queue;
        this.ring = ring;
        this.ringBytes = ring.buffer().byteBuffer().duplicate();
        this.lost = lost;
        this.writer = writer;
    }

    @Override
    public void onStart()
    {
        appender = queue.createAppender();
    }

    /** The writer, at run start: the workers' rings, to drain from now on. */
    void workerRings(final JournalWriter.WorkerRing[] rings)
    {
        handedOver = rings;
    }

    @Override
    public int doWork()
    {
        final JournalWriter.WorkerRing[] handedOver = this.handedOver;
        if (handedOver.length != rings.length)
        {
            adopt(handedOver);
        }
        return drain(DRAIN_LIMIT);
    }

    private int drain(final int limit)
    {
        final RingBuffer[] rings = this.rings;
        final ByteBuffer[] ringsBytes = this.ringsBytes;
        int work = 0;
        for (int w = 0; w < rings.length; w++)
        {
            currentBytes = ringsBytes[w];
            work += rings[w].read(this, limit);
        }
        currentBytes = ringBytes;
        work += ring.read(this, limit);
        final long lostNow = lost.get();
        if (lostNow != lostReported)
        {
            appendLost(lostNow);
            work++;
        }
        return work;
    }

    @Override
    public void onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final int checksum = JournalDescriptor.checksum(scratch.crc, currentBytes, index, length);
        final DocumentContext dc = appender.writingDocument();
        try
        {
            // the ring is direct memory: copy the record's bytes straight into the mapped file
            final Bytes<?> bytes = dc.wire().bytes();
            bytes.unsafeWrite(buffer.addressOffset() + index, length);
            bytes.writeInt(checksum);
        }
        catch (final RuntimeException ex)
        {
            dc.rollbackOnClose();
            writer.onFailure(ex);
        }
        finally
        {
            dc.close();
        }
    }

    private void adopt(final JournalWriter.WorkerRing[] handedOver)
    {
        final RingBuffer[] rings = new RingBuffer[handedOver.length];
        final ByteBuffer[] ringsBytes = new ByteBuffer[handedOver.length];
        for (int w = 0; w < rings.length; w++)
        {
            rings[w] = handedOver[w].ring;
            ringsBytes[w] = rings[w].buffer().byteBuffer().duplicate();
        }
        this.rings = rings;
        this.ringsBytes = ringsBytes;
    }

    private void appendLost(final long lostNow)
    {
        final DocumentContext dc = appender.writingDocument();
        try
        {
            scratch.appendFixed(dc.wire().bytes(), JournalDescriptor.LOST, 0, -1, -1, -1, System.nanoTime(),
                Long.MIN_VALUE, lostNow - lostReported);
            lostReported = lostNow;
        }
        catch (final RuntimeException ex)
        {
            dc.rollbackOnClose();
            writer.onFailure(ex);
        }
        finally
        {
            dc.close();
        }
    }

    /** Drains what is left, so that closing loses nothing that was given before. */
    @Override
    public void onClose()
    {
        if (appender == null)
        {
            return;
        }
        try
        {
            adopt(handedOver);
            while (drain(Integer.MAX_VALUE) > 0)
            {
                // until empty
            }
            if (lost.get() != lostReported)
            {
                appendLost(lost.get());
            }
        }
        finally
        {
            appender.close();
        }
    }

    @Override
    public String roleName()
    {
        return "framewire-journal";
    }
}
