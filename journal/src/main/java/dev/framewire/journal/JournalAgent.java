package dev.framewire.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * ASYNC mode's journal agent: drains the writers' ring into Chronicle, a record's bytes copied
 * as they are (the ring holds the on-disk layout of {@link JournalDescriptor} but the checksum),
 * each followed by its CRC32C, computed here over the ring's bytes so that the writers do not pay
 * for it; and journals how many records a full ring lost.
 *
 * <p>Threading: its own thread, under an Agrona {@code AgentRunner} with a backoff idle strategy
 * that parks; it owns its Chronicle appender, created in {@link #onStart()} on that thread.
 */
final class JournalAgent implements Agent, MessageHandler
{
    /** Records appended per duty cycle at most, so the idle strategy sees the truth about work. */
    private static final int DRAIN_LIMIT = 4096;

    private final SingleChronicleQueue queue;
    private final ManyToOneRingBuffer ring;
    private final AtomicLong lost;
    private final JournalWriter writer;
    /** The ring's memory, for checksumming a record in place; its position and limit are the agent's. */
    private final ByteBuffer ringBytes;
    private final JournalDescriptor.Scratch scratch = new JournalDescriptor.Scratch();
    private ExcerptAppender appender;
    private long lostReported;

    JournalAgent(
        final SingleChronicleQueue queue,
        final ManyToOneRingBuffer ring,
        final ByteBuffer ringBytes,
        final AtomicLong lost,
        final JournalWriter writer)
    {
        this.queue = queue;
        this.ring = ring;
        this.ringBytes = ringBytes.duplicate();
        this.lost = lost;
        this.writer = writer;
    }

    @Override
    public void onStart()
    {
        appender = queue.createAppender();
    }

    @Override
    public int doWork()
    {
        int work = ring.read(this, DRAIN_LIMIT);
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
        final int checksum = JournalDescriptor.checksum(scratch.crc, ringBytes, index, length);
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
            while (ring.read(this, Integer.MAX_VALUE) > 0)
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
