package dev.framewire.core.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;

import java.util.concurrent.atomic.AtomicLong;

/**
 * ASYNC mode's journal agent: drains the writers' ring into Chronicle, a record's bytes copied
 * as they are (the ring holds the on-disk layout of {@link JournalDescriptor}), and journals how
 * many records a full ring lost.
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
    private ExcerptAppender appender;
    private long lostReported;

    JournalAgent(
        final SingleChronicleQueue queue, final ManyToOneRingBuffer ring, final AtomicLong lost, final JournalWriter writer)
    {
        this.queue = queue;
        this.ring = ring;
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
        final DocumentContext dc = appender.writingDocument();
        try
        {
            // the ring is direct memory: copy the record's bytes straight into the mapped file
            dc.wire().bytes().unsafeWrite(buffer.addressOffset() + index, length);
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
            final Bytes<?> bytes = dc.wire().bytes();
            JournalDescriptor.writeFixed(bytes, JournalDescriptor.LOST, 0, -1, -1, -1, System.nanoTime(),
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
