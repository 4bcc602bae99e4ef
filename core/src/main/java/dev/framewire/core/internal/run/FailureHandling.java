package dev.framewire.core.internal.run;

import dev.framewire.core.internal.log.RateLimitedLog;
import dev.framewire.core.internal.node.MemoryGovernor;

import dev.framewire.core.internal.node.MemoryLimits;

import dev.framewire.core.FailurePolicy;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.MemoryLimitException;
import dev.framewire.core.MemoryLimitPolicy;
import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.node.SourceRetry;
import dev.framewire.core.internal.sched.Worker;
import dev.framewire.core.internal.stream.ObserverFailure;

import dev.framewire.core.jfr.ReportEvent;
import dev.framewire.core.journal.JournalSink;
import dev.framewire.offheap.MemoryBudget;
import dev.framewire.offheap.MemoryBudgetExceededException;
import dev.framewire.offheap.PayloadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a running graph does when something fails: a calculator's call (by the graph's
 * {@link FailurePolicy}: fail the run, drop the input set's timestamp, or isolate the node and
 * block what only it fed), a source's call (called again with a back-off, or given up on), a call
 * that passed the memory budget's hard limit under {@link MemoryLimitPolicy#DROP_OLDEST} (its input
 * set dropped, or a source's shipment let out), and a failure of the run itself (a graph input, a
 * worker, the watchdog, a deadlock). It keeps the run's failures ({@link FailureLog}), the nodes
 * failed and blocked under ISOLATE, and whether a failure stopped the run, and says at the end what
 * {@link Graph#waitUntilDone()} throws. One per graph, made by the graph's constructor; the graph's
 * engine-facing methods ({@code onNodeFailure}, {@code fail}, ...) delegate to it.
 *
 * <p>Threading: {@link #onNodeFailure}, {@link #keepsStaged} and what follows from them run on the
 * failed node's worker; {@link #fail} and {@link #recordFailure} on any thread (workers, graph
 * input adders, the watchdog, the thread that finds a deadlock). The failure log has its own lock;
 * the failed and blocked node lists are guarded by the monitor of {@link #failedNodes}. None of
 * this is on the per-packet path: it runs only when something fails.
 */
public final class FailureHandling
{
    /** Graph's logger, as before failure handling left Graph: a user's logging set-up names that category. */
    private static final Logger LOG = LoggerFactory.getLogger("dev.framewire.core.Graph"); // the name users know

    private final Run graph;
    private final GraphConfig config;
    /** The graph's own plan: what ISOLATE's blocking looks at until a subgraph is added. */
    private final GraphPlan plan;
    private final PayloadPool pool;
    private final MemoryGovernor memory;
    private final Hotplug hotplug;
    private final FailureLog failures;
    private volatile boolean runFailed;
    /** Sources' shipments cut short at the hard limit under DROP_OLDEST: a line per 10 s, not one each. */
    private final RateLimitedLog cutShort = new RateLimitedLog(TimeUnit.SECONDS.toNanos(10));
    /** Under ISOLATE: the nodes failed and those blocked by them. Its monitor guards both. */
    private final List<String> failedNodes = new ArrayList<>();
    private final List<String> blockedNodes = new ArrayList<>();
    /** The graph's own plan analysed, on the first isolated failure; under the monitor of {@link #failedNodes}. */
    private PlanAnalysis analysis;

    /** The graph's constructor: {@code hotplug} tells the analysis of the graph with its subgraphs. */
    public FailureHandling(
        final Run graph, final GraphConfig config, final GraphPlan plan, final PayloadPool pool,
        final MemoryGovernor memory, final Hotplug hotplug)
    {
        this.graph = graph;
        this.config = config;
        this.plan = plan;
        this.pool = pool;
        this.memory = memory;
        this.hotplug = hotplug;
        this.failures = new FailureLog(Math.max(1, config.keptFailures()));
    }

    /** Any thread: {@link Graph#failures()}. */
    public List<GraphFailure> failures()
    {
        return failures.kept();
    }

    /** Any thread: {@link Graph#failureCount()}. */
    public long failureCount()
    {
        return failures.total();
    }

    /** Any thread: whether a failure stopped the run ({@link #fail}). */
    boolean runFailed()
    {
        return runFailed;
    }

    /** Once the run has ended: whether it ends as failed: a failure stopped it, or under ISOLATE a node failed. */
    boolean runEndsFailed()
    {
        return runFailed || (config.failurePolicy() == FailurePolicy.ISOLATE && !failures.isEmpty());
    }

    /**
     * Once the run has ended: what {@link Graph#waitUntilDone()} throws, or null for a run that is done.
     *
     * @param cancelled whether the run was cancelled.
     */
    public GraphException outcome(final boolean cancelled)
    {
        memory.logPendingDrops();
        final boolean isolated = config.failurePolicy() == FailurePolicy.ISOLATE && !failures.isEmpty();
        if (!runFailed && !isolated && !cancelled)
        {
            return null;
        }
        final List<String> blocked;
        synchronized (failedNodes)
        {
            blocked = new ArrayList<>(blockedNodes);
        }
        return new GraphException(failures.kept(), cancelled && failures.isEmpty(), blocked, failures.total(),
            failures.counts());
    }

    /** Any thread: the graph's failure policy. */
    public FailurePolicy failurePolicy()
    {
        return config.failurePolicy();
    }

    /**
     * Whether a failed call's staged packets go out rather than being released: a source's under
     * DROP_OLDEST when an acquire passed the hard limit. That is not the source's fault, and the
     * frames it already made are the newest of all; releasing them would drop the newest, and
     * count a shipment as one drop. They go out, and the consumers shed their oldest instead.
     */
    public boolean keepsStaged(final Node node, final Throwable cause)
    {
        if (!node.isSource)
        {
            return false;
        }
        if (cause instanceof MemoryBudgetExceededException && config.memoryLimitPolicy() == MemoryLimitPolicy.DROP_OLDEST)
        {
            return true;
        }
        // under DROP_TIMESTAMP a frame too large for the pool is that frame's failure: the frames
        // made before it in the shipment are good and go out; the one too large is dropped
        return config.failurePolicy() == FailurePolicy.DROP_TIMESTAMP && SourceRetry.tooLarge(cause, pool.budget()) != null;
    }

    /**
     * The node's worker: a calculator threw; what happens follows the graph's failure policy.
     *
     * @param packets   what the failure drops if the run goes on: the packets of the failed input
     *                  set, or of a source's discarded shipment.
     * @param delivered whether the failed call's packets went out all the same (a source's shipment
     *                  cut short at the hard limit under DROP_OLDEST): progress.
     */
    public void onNodeFailure(
        final Node node, final long timestamp, final Throwable cause, final int packets, final boolean delivered)
    {
        final boolean inInputSet = timestamp != Timestamp.UNSTARTED && timestamp != Timestamp.DONE;
        final boolean memoryDrop = cause instanceof MemoryBudgetExceededException &&
            config.memoryLimitPolicy() == MemoryLimitPolicy.DROP_OLDEST && inInputSet;
        if (node.isSource && inInputSet && (memoryDrop || config.failurePolicy() == FailurePolicy.DROP_TIMESTAMP) &&
            !retrySource(node, timestamp, cause, delivered))
        {
            return; // gave up: the run has failed
        }
        if (memoryDrop)
        {
            memory.onHardLimit();
            if (node.isSource)
            {
                // nothing of the source's is lost (keepsStaged): it makes the rest of its shipment
                // when it runs again, once the consumers have shed their oldest below the soft limit
                ReportEvent.emit("memory-hard-limit", cause.getMessage());
                final long now = System.nanoTime();
                if (cutShort.record(now))
                {
                    cutShort.windowMillis(now);
                    LOG.warn("source node '{}' cut its shipment short at the memory hard limit ({} times since the " +
                        "last line; logged at most once every 10 s): {}", node.name, cutShort.takeCount(),
                        firstLine(cause.getMessage()));
                }
                return;
            }
            node.droppedSet(timestamp, "memory", packets);
            ReportEvent.emit("memory-hard-limit", cause.getMessage());
            memory.reportDrop("node '" + node.name + "' dropped its input set at " + Timestamp.toString(timestamp) +
                " (" + packets + (packets == 1 ? " packet" : " packets") + "): " + firstLine(cause.getMessage()),
                packets);
            node.dropTimestamp(timestamp);
            return;
        }
        final Throwable reported = reported(node, cause);
        // an observer that threw while the node's output delivered to it: the observer's failure
        final String where = cause instanceof ObserverFailure ? ((ObserverFailure)cause).where() : node.name;
        final long at = cause instanceof ObserverFailure ? ((ObserverFailure)cause).timestamp() : timestamp;
        switch (config.failurePolicy())
        {
            case DROP_TIMESTAMP:
                if (timestamp == Timestamp.UNSTARTED)
                {
                    fail(where, at, reported);
                    return;
                }
                recordFailure(where, at, reported);
                if (timestamp != Timestamp.DONE)
                {
                    // a source's failed call drops the timestamp it was making even when it had
                    // staged nothing yet (a file it could not read, a frame too large): one drop
                    node.droppedSet(timestamp, "failure", node.isSource ? Math.max(1, packets) : packets);
                    if (!node.isSource)
                    {
                        // a source has no input set to drop: what it staged was discarded, and its
                        // bounds went back to what was delivered, for its next call
                        node.dropTimestamp(timestamp);
                    }
                }
                return;
            case ISOLATE:
                recordFailure(where, at, reported);
                isolateFailed(node);
                return;
            default:
                fail(where, at, reported);
        }
    }

    /**
     * What a failure is reported as: the pool's refusal as a {@link MemoryLimitException} (the
     * limit, the bytes, the node and its streams, the fix, and who holds the bytes); a class that
     * failed to load or initialize with the JVM flags this JVM lacks, if any; else the cause.
     */
    private Throwable reported(final Node node, final Throwable cause)
    {
        if (cause instanceof MemoryBudgetExceededException)
        {
            return memoryLimit(graph, node, (MemoryBudgetExceededException)cause);
        }
        if (cause instanceof LinkageError)
        {
            final String advice = JvmFlags.adviceFor(graph.journalProvider);
            return new IllegalStateException("node '" + node.name + "' could not load or initialize a class it " +
                "needs: " + cause + (advice != null ? "; " + advice : "; this JVM has the flags the graph needs " +
                "(checked at start), so the cause is elsewhere: see the cause"), cause);
        }
        return cause;
    }

    /**
     * The source's worker: a source call failed and the run would go on and call it again
     * ({@link SourceRetry}). Calls it again at once, or after a wait, or gives up and fails the run.
     *
     * @return true to go on; false if the source gave up and the run failed.
     */
    private boolean retrySource(final Node node, final long timestamp, final Throwable cause, final boolean delivered)
    {
        final SourceRetry retry = node.retry;
        final String hopeless = SourceRetry.hopeless(cause, pool.budget(),
            config.failurePolicy() == FailurePolicy.DROP_TIMESTAMP);
        if (delivered && hopeless == null)
        {
            retry.onProgress();
            return true;
        }
        final long now = System.nanoTime();
        final long wait = hopeless != null ? -1 : retry.onFailedCall(now);
        if (wait < 0)
        {
            final Throwable reported = reported(node, cause);
            final long calls = node.calls;
            final String why = hopeless != null ?
                "calling it again cannot help: " + hopeless :
                "its last " + retry.failedCalls() + " calls failed in a row, over " +
                TimeUnit.NANOSECONDS.toMillis(retry.failingForNanos(now)) + " ms (a source whose call fails is called " +
                "again, at most " + SourceRetry.MAX_FAILED_CALLS + " times in a row, waiting up to " +
                SourceRetry.MAX_BACKOFF_MILLIS + " ms between calls)";
            fail(node.name, timestamp, new IllegalStateException("source node '" + node.name + "' gave up after " +
                calls + (calls == 1 ? " call" : " calls") + ": " + why + "; the last failure: " +
                firstLine(String.valueOf(reported)), reported));
            return false;
        }
        if (wait > 0)
        {
            Worker.of(node).backOff(node, now + wait);
        }
        return true;
    }

    private static String firstLine(final String message)
    {
        if (message == null)
        {
            return "";
        }
        final int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    /**
     * The node's worker, under ISOLATE: the failed node stays failed; nodes whose input socket lost its last live
     * producer are blocked, transitively. Blocked nodes are flagged before the failed node closes
     * its outputs, so none of them mistakes the closing for the end of its input.
     */
    private void isolateFailed(final Node node)
    {
        synchronized (failedNodes)
        {
            failedNodes.add(node.name);
            if (analysis == null)
            {
                analysis = new PlanAnalysis(plan);
            }
            final PlanAnalysis current = hotplug.currentAnalysis(); // with the subgraphs, once one was added
            final List<String> failed = new ArrayList<>(failedNodes);
            if (current != null)
            {
                failed.retainAll(current.nodes()); // not the nodes of subgraphs that have left
            }
            for (final String name : (current != null ? current : analysis).blockedBy(failed))
            {
                if (!blockedNodes.contains(name) && !failedNodes.contains(name))
                {
                    blockedNodes.add(name);
                    final Node blocked = graph.node(name);
                    blocked.blockRequested = true;
                    blocked.schedule();
                }
            }
        }
        node.isolate(Node.FAILED);
    }

    /** Any thread: a failure; under FAIL_RUN the run stops. */
    public void fail(final String where, final long timestamp, final Throwable cause)
    {
        recordFailure(where, timestamp, cause);
        runFailed = true;
        graph.stop();
    }

    /** Any thread: a failure, kept in the log (which logs it, rate-limited) and journaled; the run goes on. */
    public void recordFailure(final String where, final long timestamp, final Throwable cause)
    {
        failures.add(new GraphFailure(where, timestamp, cause)); // logged there, rate-limited
        final JournalSink journal = graph.runState.journal;
        if (journal != null)
        {
            int nodeId = -1;
            for (final Node node : graph.nodes())
            {
                if (node.name.equals(where))
                {
                    nodeId = node.id;
                }
            }
            journal.error(-1, nodeId, timestamp, where + ": " + cause);
        }
    }

    /**
     * A node's acquire was refused by the pool ({@code cause}): the pool's hard limit or its slab
     * maximum, with the pool's account (from the cause) and the graph's (queued bytes per stream).
     */
    private static MemoryLimitException memoryLimit(final Run graph, final Node node, final MemoryBudgetExceededException cause)
    {
        final MemoryBudget budget = graph.pool().budget();
        final String limit = cause.isHardLimit() ? MemoryLimitException.HARD_LIMIT : MemoryLimitException.SLAB_MAXIMUM;
        final String stream = MemoryLimits.outputNames(node);
        final StringBuilder sb = new StringBuilder(512);
        sb.append(MemoryLimits.where(node, stream)).append(" cannot take a ").append(cause.requestedBytes()).append(" B slot: ");
        if (cause.isHardLimit())
        {
            sb.append(cause.bytesInUse()).append(" B in use + ").append(cause.requestedBytes())
                .append(" B would pass the pool's hard limit of ").append(cause.limitBytes()).append(" B");
        }
        else
        {
            sb.append("the pool's slabs would pass its maximum of ").append(cause.limitBytes())
                .append(" B (free slots of other sizes are not cut up for this one; ").append(cause.bytesInUse())
                .append(" B in use)");
        }
        sb.append(" (soft limit ").append(budget.softLimitBytes()).append(" B, hard limit ")
            .append(budget.hardLimitBytes()).append(" B, budget ").append(budget.maxBytes()).append(" B)");
        if (cause.requestedBytes() > budget.hardLimitBytes())
        {
            sb.append("; the slot alone is more than the hard limit");
        }
        sb.append("\nfix: raise memory_budget_bytes (GraphConfig.Builder.memoryBudget; the hard limit is 75 % of " +
            "it), lower max_shipment_size (").append(graph.config().maxShipmentSize()).append(") or max_shipment_bytes (")
            .append(graph.shipmentByteCap).append(" B) so that sources make smaller shipments, or set " +
            "memory_limit_policy: DROP_OLDEST to drop the oldest queued packets instead of failing");
        final String pool = cause.getMessage();
        final int held = pool == null ? -1 : pool.indexOf("Held by size class:");
        sb.append('\n').append(held >= 0 ? pool.substring(held) : pool);
        sb.append('\n').append(GraphReport.memory(graph));
        return new MemoryLimitException(sb.toString(), node.name, stream, limit, cause.limitBytes(),
            cause.bytesInUse(), cause.requestedBytes(), cause);
    }
}
