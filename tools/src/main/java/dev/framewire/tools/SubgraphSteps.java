package dev.framewire.tools;

import dev.framewire.core.Graph;
import dev.framewire.core.PacketObserver;
import dev.framewire.core.SubgraphExpander;
import dev.framewire.core.SubgraphRemoval;
import dev.framewire.journal.JournalRecord;
import dev.framewire.journal.JournalSubgraph;

import dev.framewire.core.SubgraphExpander;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The replay's subgraph steps ({@link ReplayPlan}): adds a recorded subgraph again (its template
 * read from the recorded text, its parameters from their recorded text, its bindings, with
 * observers counting its output streams' packets), removes it with the recorded deadlines, waits
 * where the recording had it leave (so that a name added again is free, as it was), and closes a
 * subgraph's graph input where the recording closed it. An addition the replay's graph refuses ends
 * the replay with a {@link CommandFailure}; a removal or departure that turns out otherwise than
 * recorded (cancelled rather than drained, or not left in time) is a note.
 *
 * <p>Threading: the command's thread; the observers count on the workers.
 */
final class SubgraphSteps
{
    /** How long past its deadlines a departure is waited for. */
    private static final long LEAVE_SLACK_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final Map<String, AtomicLong> counts;
    private final Set<String> counted;
    private final boolean tailed;
    private final Map<ReplayPlan.Instance, CompletableFuture<Void>> additions = new LinkedHashMap<>();
    private final Map<ReplayPlan.Instance, CompletableFuture<SubgraphRemoval>> removals = new HashMap<>();
    private final List<String> notes = new ArrayList<>();
    /** By subgraph: packets its graph inputs refused, and what the first refusal said. */
    private final Map<String, Long> refused = new LinkedHashMap<>();
    private final Map<String, String> refusedFirst = new HashMap<>();

    /**
     * @param counts  packets seen per stream, by the graph's name of the stream.
     * @param counted the streams to count.
     * @param tailed  whether the replay's sources stop at their last recorded packet
     *                ({@link ReplayTailCalculator}): a removal then waits for the subgraph's sources
     *                to get there, so that it comes after the packets it came after in the recording.
     */
    SubgraphSteps(final Map<String, AtomicLong> counts, final Set<String> counted, final boolean tailed)
    {
        this.tailed = tailed;
        this.counts = counts;
        this.counted = counted;
    }

    /** One step: a subgraph added, removed or left, or one of its inputs closed. */
    void run(final Graph graph, final ReplayPlan.Step step) throws InterruptedException
    {
        final ReplayPlan.Instance instance = step.instance;
        final JournalRecord r = step.record;
        switch (r.kind())
        {
            case SUBGRAPH_ADDED:
                add(graph, instance);
                break;
            case SUBGRAPH_REMOVED:
            {
                final JournalSubgraph removed = r.subgraph();
                if (tailed && !ReplayTailCalculator.awaitSources(instance.name + SubgraphExpander.SEPARATOR,
                    LEAVE_SLACK_NANOS))
                {
                    notes.add("subgraph '" + instance.name + "' was removed " + LEAVE_SLACK_NANOS / 1_000_000_000 +
                        " s after the replay's removal point with its sources short of the packets they had emitted " +
                        "in the recording (record #" + r.index() + ")");
                }
                try
                {
                    removals.put(instance, graph.removeSubgraph(instance.name,
                        Duration.ofNanos(removed.drainDeadlineNanos()), Duration.ofNanos(removed.cancelDeadlineNanos())));
                }
                catch (final IllegalArgumentException | IllegalStateException ex)
                {
                    notes.add("subgraph '" + instance.name + "' could not be removed where the recording removed it " +
                        "(record #" + r.index() + "): " + ex.getMessage());
                }
                break;
            }
            case SUBGRAPH_LEFT:
                awaitLeft(graph, instance, r);
                break;
            case BOUND:
                try
                {
                    graph.closeInput(r.streamName());
                }
                catch (final IllegalArgumentException | IllegalStateException ex)
                {
                    notes.add("graph input '" + r.streamName() + "' of subgraph '" + instance.name + "' could not be " +
                        "closed where the recording closed it (record #" + r.index() + "): " + ex.getMessage());
                }
                break;
            default:
                break;
        }
    }

    private void add(final Graph graph, final ReplayPlan.Instance instance) throws InterruptedException
    {
        if (graph.subgraphs().contains(instance.name))
        {
            // the recording's previous subgraph of this name had left by now; give the replay's time to
            awaitGone(graph, instance.name, LEAVE_SLACK_NANOS);
        }
        final Map<String, PacketObserver> observers = new HashMap<>();
        instance.outputs.forEach((stream, full) ->
        {
            if (counted.contains(full))
            {
                final AtomicLong count = counts.get(full);
                observers.put(stream, packet -> count.incrementAndGet());
            }
        });
        try
        {
            additions.put(instance, graph.addSubgraph(instance.name, instance.template, instance.params, observers,
                instance.bind));
        }
        catch (final IllegalArgumentException | IllegalStateException ex)
        {
            throw new CommandFailure("subgraph '" + instance.name + "' (added at record #" + instance.added.index() +
                ") could not be added in the replay: " + ex.getMessage());
        }
    }

    private void awaitLeft(final Graph graph, final ReplayPlan.Instance instance, final JournalRecord left)
        throws InterruptedException
    {
        final CompletableFuture<SubgraphRemoval> removal = removals.get(instance);
        if (removal == null)
        {
            // it left on its own in the recording (every node closed): so should it here
            if (!awaitGone(graph, instance.name, LEAVE_SLACK_NANOS))
            {
                notes.add("subgraph '" + instance.name + "' left the recording on its own (record #" + left.index() +
                    ") but was still in the replay " + LEAVE_SLACK_NANOS / 1_000_000_000 + " s later; the replay " +
                    "went on");
            }
            return;
        }
        final JournalSubgraph removed = instance.removed.subgraph();
        final long patience = saturatedAdd(saturatedAdd(removed.drainDeadlineNanos(), removed.cancelDeadlineNanos()),
            LEAVE_SLACK_NANOS);
        try
        {
            final SubgraphRemoval outcome = removal.get(patience, TimeUnit.NANOSECONDS);
            final boolean drained = left.subgraph().drained();
            if (outcome.drained() != drained)
            {
                notes.add("subgraph '" + instance.name + "' " + (drained ? "drained" : "was cancelled") + " in the " +
                    "recording and " + (outcome.drained() ? "drained" : "was cancelled") + " in the replay");
            }
        }
        catch (final ExecutionException ex)
        {
            notes.add("the removal of subgraph '" + instance.name + "' failed in the replay: " + ex.getCause().getMessage());
        }
        catch (final TimeoutException ex)
        {
            notes.add("subgraph '" + instance.name + "' had not left the replay " + patience / 1_000_000 + " ms after " +
                "its removal; the replay went on");
        }
    }

    /** A packet the recording's subgraph took and the replay's refused (its input closed, or it left early). */
    void refused(final ReplayPlan.Instance instance, final JournalRecord r, final RuntimeException ex)
    {
        final long count = refused.merge(instance.name, 1L, Long::sum);
        if (count == 1)
        {
            refusedFirst.put(instance.name, "graph input '" + r.streamName() + "' of subgraph '" + instance.name +
                "' refused a packet the recording took (record #" + r.index() + ", timestamp " + r.timestamp() + "): " +
                ex.getMessage());
        }
    }

    /** Waits, polling, until the graph has no subgraph of that name. */
    private static boolean awaitGone(final Graph graph, final String name, final long timeoutNanos)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeoutNanos;
        while (graph.subgraphs().contains(name))
        {
            if (System.nanoTime() - deadline > 0)
            {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(1);
        }
        return true;
    }

    /**
     * What the replay noticed: additions whose nodes did not open, removals that went otherwise
     * than recorded.
     */
    List<String> notes()
    {
        final List<String> all = new ArrayList<>(notes);
        refused.forEach((name, count) -> all.add(refusedFirst.get(name) + (count > 1 ? "; and " + (count - 1) +
            " more packets of it" : "")));
        additions.forEach((instance, opened) ->
        {
            if (opened.isCompletedExceptionally())
            {
                try
                {
                    opened.join();
                }
                catch (final RuntimeException ex)
                {
                    final Throwable cause = ex.getCause() != null ? ex.getCause() : ex;
                    all.add("subgraph '" + instance.name + "' (added at record #" + instance.added.index() + ") did " +
                        "not open in the replay: " + cause.getMessage());
                }
            }
        });
        return all;
    }

    private static long saturatedAdd(final long a, final long b)
    {
        final long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
