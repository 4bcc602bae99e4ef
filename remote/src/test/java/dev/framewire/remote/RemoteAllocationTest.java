package dev.framewire.remote;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PixelFormat;
import dev.framewire.offheap.PoolContext;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static dev.framewire.remote.RemoteTestSupport.await;
import static dev.framewire.remote.RemoteTestSupport.publisher;
import static dev.framewire.remote.RemoteTestSupport.streamId;
import static dev.framewire.remote.RemoteTestSupport.subscriber;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The remote hop allocates nothing on the graphs' workers in steady state: long packets and
 * fragmented frames published, polled, reassembled into pooled payloads and emitted, measured with
 * the JVM's per-thread allocation counters of every worker of both graphs around windows of
 * {@value #ROUNDS} packets after a warm-up; the least of up to {@value #WINDOWS} windows is judged,
 * as in the journal's allocation test (the first windows may still run code the JIT has not
 * compiled). One allocation per packet would be at least 16 x {@value #ROUNDS} bytes. Unauthenticated,
 * and authenticated (header and payload, or header only) under a link key. AES-GCM encryption is
 * left out: the JDK's GCM allocates per message (see docs/results/remote-auth.md).
 */
class RemoteAllocationTest
{
    static final int WARM_UP = 20_000;
    static final int ROUNDS = 20_000;
    static final int WINDOWS = 5;
    static final long LIMIT = 16 * 1024;

    @ParameterizedTest
    @ValueSource(strings = {"NONE", "PAYLOAD", "HEADER"})
    @Timeout(120)
    void theHopAllocatesNothingOnTheWorkers(final String authentication) throws Exception
    {
        final java.util.function.Consumer<dev.framewire.core.NodeConfig.Builder> auth = n ->
        {
            if (!"NONE".equals(authentication))
            {
                n.option("key_file", RemoteTestSupport.keyFile()).option("authentication", authentication);
            }
        };
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final int id = streamId();
        final AtomicLong arrived = new AtomicLong(-1);
        try (PayloadPool txPool = new PayloadPool(new PoolContext().leakTracking(false));
            PayloadPool rxPool = new PayloadPool(new PoolContext().leakTracking(false));
            Graph receiver = new Graph(subscriber("aeron:ipc", id, auth), rxPool);
            Graph sender = new Graph(publisher("aeron:ipc", id, n ->
            {
                n.option("term_length", 16L << 20);
                auth.accept(n);
            }), txPool))
        {
            receiver.observe("out", p -> arrived.lazySet(p.timestamp()));
            receiver.start();
            sender.start();
            final GraphInputHandle in = sender.input("in");
            long ts = rounds(sender, in, 0, WARM_UP, arrived);
            final List<String> names = new ArrayList<>();
            final List<Long> workers = workers(names);
            long least = Long.MAX_VALUE;
            String perWorker = "";
            for (int window = 0; window < WINDOWS && least >= LIMIT; window++)
            {
                final long[] before = perThread(threads, workers);
                ts = rounds(sender, in, ts, ROUNDS, arrived);
                final long[] after = perThread(threads, workers);
                long sum = 0;
                final StringBuilder each = new StringBuilder();
                for (int i = 0; i < after.length; i++)
                {
                    sum += after[i] - before[i];
                    each.append(' ').append(names.get(i)).append('=').append(after[i] - before[i]);
                }
                if (sum < least)
                {
                    least = sum;
                    perWorker = each.toString();
                }
            }
            sender.closeAllInputs();
            sender.waitUntilDone();
            receiver.waitUntilDone();
            System.out.println(authentication + ": " + least + " bytes allocated on " + workers.size() + " workers for " + ROUNDS + " packets:" +
                perWorker);
            assertTrue(least < LIMIT, least + " bytes allocated on the workers for " + ROUNDS + " packets:" + perWorker);
        }
    }

    /** Sends {@code count} packets from {@code ts}, one in eight a 320x240 GRAY8 frame, and waits for the last. */
    private static long rounds(final Graph sender, final GraphInputHandle in, final long from, final int count,
        final AtomicLong arrived) throws Exception
    {
        long ts = from;
        for (int i = 0; i < count; i++, ts++)
        {
            if ((ts & 7) == 0)
            {
                in.addPacket(sender.pool().acquireFrame(320, 240, PixelFormat.GRAY8), ts);
            }
            else
            {
                in.addPacket(ts, ts);
            }
        }
        final long last = ts - 1;
        await("packet " + last + " to arrive", 60_000, () -> arrived.get() == last);
        return ts;
    }

    private static List<Long> workers(final List<String> names)
    {
        final List<Long> ids = new ArrayList<>();
        for (final Thread t : Thread.getAllStackTraces().keySet())
        {
            if (t.getName().matches("framewire-(default|rx)-\\d+"))
            {
                ids.add(t.getId());
                names.add(t.getName());
            }
        }
        assertTrue(ids.size() >= 2, "the publisher's worker and the subscriber's: " + ids);
        return ids;
    }

    private static long[] perThread(final com.sun.management.ThreadMXBean threads, final List<Long> ids)
    {
        final long[] bytes = new long[ids.size()];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = threads.getThreadAllocatedBytes(ids.get(i));
        }
        return bytes;
    }
}
