package dev.framewire.bench.remote;

import dev.framewire.core.GraphInputHandle;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PixelFormat;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.function.LongSupplier;

/**
 * One round trip of the hop benchmarks, the same in one JVM ({@link RemoteHopBenchmark}) and
 * between two processes ({@link RemoteProcessHopBenchmark}): sends timestamp {@code ts} and waits, with
 * the benchmark's idle strategy, until it comes back; a later one coming back first is an error
 * (the benchmark checks its own answer).
 *
 * <p>Threading: the benchmark thread.
 */
final class HopRoundTrip
{
    private HopRoundTrip()
    {
    }

    /**
     * Through Framewire: a long packet, or a {@code width} x {@code height} GRAY8 frame, into graph
     * A's input; back when A's observer has set {@code arrived} to {@code ts}.
     */
    static long framewire(
        final GraphInputHandle in, final PayloadPool pool, final boolean frames, final int width, final int height,
        final long ts, final LongSupplier arrived, final IdleStrategy idle) throws InterruptedException
    {
        if (frames)
        {
            in.addPacket(pool.acquireFrame(width, height, PixelFormat.GRAY8), ts);
        }
        else
        {
            in.addPacket(ts, ts);
        }
        long got;
        idle.reset();
        while ((got = arrived.getAsLong()) != ts)
        {
            if (got > ts)
            {
                throw new IllegalStateException("sent " + ts + ", came back " + got);
            }
            idle.idle();
        }
        return got;
    }

    /** Through Aeron's own echo, the floor: {@code message} with {@code ts} at byte 16, back on {@code pong}. */
    static long echo(
        final ExclusivePublication ping, final UnsafeBuffer message, final Subscription pong,
        final FragmentHandler pongAssembler, final long ts, final LongSupplier echoed, final IdleStrategy idle)
    {
        message.putLong(16, ts);
        idle.reset();
        while (ping.offer(message, 0, message.capacity()) < 0)
        {
            idle.idle();
        }
        long got;
        while ((got = echoed.getAsLong()) != ts)
        {
            if (got > ts)
            {
                throw new IllegalStateException("sent " + ts + ", came back " + got);
            }
            idle.idle(pong.poll(pongAssembler, 16));
        }
        return got;
    }
}
