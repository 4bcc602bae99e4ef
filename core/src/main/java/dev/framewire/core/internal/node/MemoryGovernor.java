package dev.framewire.core.internal.node;

import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.log.RateLimitedLog;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.stream.InputPort;

import dev.framewire.core.jfr.ReportEvent;
import dev.framewire.offheap.MemoryBudget;
import dev.framewire.offheap.Payload;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The run's side of the global memory budget: over the soft limit, sources are
 * held back while the consumers drain (and completion pressure favours the nodes whose runs free
 * the most); under {@link MemoryLimitPolicy#DROP_OLDEST}, once an acquire has passed the hard limit,
 * nodes shed the oldest payload packets queued on their inputs until the pool is back under the soft
 * limit, and every drop is counted and kept; the log gets one line per 10 s, saying how many.
 *
 * <p>Threading: any thread. The two flags are volatile and written rarely (at a limit crossing);
 * the checks workers make on every run read them and, only when set, the budget.
 */
public final class MemoryGovernor
{
    private static final Logger LOG = LoggerFactory.getLogger("dev.framewire.core.Graph"); // the name users know
    /** Drop reports kept for {@link Graph#memoryDrops()}; every drop is logged and counted anyway. */
    private static final int KEPT_DROPS = 10_000;
    private static final long DROP_LINE_SECONDS = 10;

    private final MemoryBudget budget;
    /** What to schedule when held-back sources may run again. */
    private final Runnable scheduleSources;
    /** Sources were held back because the pool is over its soft limit; see {@link #checkHeldSources()}. */
    private volatile boolean heldSources;
    /** Over the hard limit under DROP_OLDEST: nodes shed their oldest queued payloads. */
    private volatile boolean pressure;
    private final ConcurrentLinkedQueue<String> drops = new ConcurrentLinkedQueue<>();
    /** Packets dropped to stay within the budget: each shed packet, each packet of a dropped input set. */
    private final AtomicLong droppedPackets = new AtomicLong();
    /** Drops are logged at most once per {@value #DROP_LINE_SECONDS} s, the first at once. */
    private final RateLimitedLog dropLines = new RateLimitedLog(TimeUnit.SECONDS.toNanos(DROP_LINE_SECONDS));
    /** Packets dropped since the last line logged. */
    private final AtomicLong packetsSinceLine = new AtomicLong();

    public MemoryGovernor(final MemoryBudget budget, final Runnable scheduleSources)
    {
        this.budget = budget;
        this.scheduleSources = scheduleSources;
    }

    /**
     * A source's worker, before a source call: whether the pool is over its soft limit, in which
     * case the source waits (and the first to wait says so).
     */
    public boolean holdsSourcesBack()
    {
        if (!budget.isOverSoftLimit())
        {
            return false;
        }
        if (!heldSources)
        {
            heldSources = true; // sources wait while consumers drain
            ReportEvent.emit("memory-soft-limit", "sources held back: " + budget.bytesInUse() +
                " B in use, over the soft limit of " + budget.softLimitBytes() + " B");
        }
        return true;
    }

    /** Any thread: whether sources are being held back because the pool is over its soft limit. */
    public boolean holdsSources()
    {
        return heldSources && budget.isOverSoftLimit();
    }

    /** Any thread, cheap: lets sources held back by memory run again once under the soft limit. */
    public void checkHeldSources()
    {
        if (heldSources && !budget.isOverSoftLimit())
        {
            heldSources = false;
            scheduleSources.run();
        }
    }

    /** Any thread: whether the pool is over its soft limit (completion pressure doubles full queues then). */
    public boolean overSoftLimit()
    {
        return budget.isOverSoftLimit();
    }

    /** A worker whose acquire passed the hard limit under DROP_OLDEST: nodes start shedding. */
    public void onHardLimit()
    {
        pressure = true;
    }

    /** A worker, after a run: whether nodes should shed memory now. */
    boolean underPressure()
    {
        return pressure;
    }

    /**
     * Worker, under DROP_OLDEST while over the soft limit: drops the oldest payload packets queued
     * on this node's inputs, keeping one per input, and reports each drop.
     */
    public void shed(final Node node)
    {
        if (!budget.isOverSoftLimit())
        {
            pressure = false;
            return;
        }
        for (final InputPort port : node.inputs)
        {
            final InputQueue queue = port.queue;
            while (queue.size() > 1 && queue.peekValue() instanceof Payload && budget.isOverSoftLimit())
            {
                final long ts = queue.peekTimestamp();
                if (queue.dropHead())
                {
                    queue.wakeHeldBack();
                }
                node.dropped(queue.streamName, ts, "memory");
                reportDrop("dropped the packet at " + Timestamp.toString(ts) + " queued on " + queue +
                    ": over the memory budget's hard limit", 1);
            }
        }
    }

    /**
     * Any thread: one drop made to stay within the budget, of {@code packets} packets (one queued
     * packet, or a whole input set); counted, logged, and kept (the first 10,000).
     */
    public void reportDrop(final String report, final int packets)
    {
        droppedPackets.addAndGet(packets);
        if (drops.size() < KEPT_DROPS)
        {
            drops.add(report);
        }
        packetsSinceLine.addAndGet(packets);
        final long now = System.nanoTime();
        if (dropLines.record(now))
        {
            // one line per interval, not one per drop: an undersized budget under DROP_OLDEST
            // drops on every run of every node (45,000 lines in 30 s before this)
            final long window = dropLines.windowMillis(now);
            dropLines.takeCount();
            final long dropped = packetsSinceLine.getAndSet(0);
            if (window == 0)
            {
                LOG.warn("{} (memory drops are logged at most once every {} s; Graph.memoryDrops() keeps them)", report,
                    DROP_LINE_SECONDS);
            }
            else
            {
                LOG.warn("dropped {} packets in the last {} s to stay within the memory budget; the latest: {}", dropped,
                    Math.round(window / 1000.0), report);
            }
        }
    }

    /** Any thread, at the end of the run: logs the drops no line has told yet, if any. */
    public void logPendingDrops()
    {
        final long dropped = packetsSinceLine.getAndSet(0);
        if (dropped > 0)
        {
            LOG.warn("dropped {} more packets to stay within the memory budget before the run ended ({} in all)",
                dropped, droppedPackets.get());
        }
    }

    /** Any thread: packets dropped so far to stay within the budget. */
    public long droppedPackets()
    {
        return droppedPackets.get();
    }

    /** Any thread: the drop reports kept so far. */
    public List<String> drops()
    {
        return new ArrayList<>(drops);
    }
}
