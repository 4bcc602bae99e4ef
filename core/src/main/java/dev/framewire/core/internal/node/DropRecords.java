package dev.framewire.core.internal.node;

import dev.framewire.core.jfr.DropEvent;
import dev.framewire.core.journal.JournalSink;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What a node records of its drops besides their total ({@link Node#drops}, which reports and
 * {@link Graph#dropCount} read beside its calls): the count by reason for {@link GraphStats}, one
 * drop in the journal per drop, and a JFR {@link DropEvent} when a recording wants them. Every drop
 * of the node comes here through {@link Node#dropped} or {@link Node#droppedSet}.
 *
 * <p>Threading: {@link #packet} and {@link #inputSet} from the node's step (its worker, or with
 * lanes whichever worker runs the step), one at a time; the counts by reason are written with opaque
 * stores and read by {@link #byReasonOpaque} from any thread, a benign race (diagnostics).
 */
public final class DropRecords
{
    /** Opaque stores and loads of {@link #byReason}'s elements. */
    private static final VarHandle BY_REASON = MethodHandles.arrayElementVarHandle(long[].class);

    private final NodeRunState runState;
    private final int nodeId;
    private final String nodeName;
    /** How many drop reasons there are: the API's {@code GraphStats.DropReason}, in its order. */
    public static final int REASONS = 5;

    /** Drops by reason, indexed by the API's {@code GraphStats.DropReason#ordinal()}. */
    private final long[] byReason = new long[REASONS];
    /** Asks JFR whether drop events are wanted (a policy that drops at full rate made a {@code DropEvent} per drop). */
    private final DropEvent eventProbe = new DropEvent();

    public DropRecords(final NodeRunState runState, final int nodeId, final String nodeName)
    {
        this.runState = runState;
        this.nodeId = nodeId;
        this.nodeName = nodeName;
    }

    /** Node step: one packet of {@code stream} dropped, the step running on {@code on}. */
    public void packet(final NodeThread on, final String stream, final long timestamp, final String reason)
    {
        countByReason(reason, 1);
        final JournalSink journal = runState.journal();
        if (journal != null)
        {
            journal.drop(on.id(), nodeId, runState.streamId(stream), timestamp, journalCode(reason));
        }
        commitEvent(stream, timestamp, reason);
    }

    /**
     * Node step: a whole input set, or a source's shipment, of {@code packets} packets dropped. It
     * counts as its packets; the journal and JFR get one drop of the set (stream -1 in the journal:
     * its packets were taken by the call, see {@code Postmortem}).
     */
    void inputSet(final NodeThread on, final long timestamp, final String reason, final int packets)
    {
        countByReason(reason, packets);
        final JournalSink journal = runState.journal();
        if (journal != null)
        {
            journal.drop(on.id(), nodeId, -1, timestamp, journalCode(reason));
        }
        commitEvent("", timestamp, reason);
    }

    /** Any thread: the drops for a reason (the API's {@code GraphStats.DropReason#ordinal()}), an opaque load. */
    public long byReasonOpaque(final int reason)
    {
        return (long)BY_REASON.getOpaque(byReason, reason);
    }

    /** A string switch (hash cached in the literal) and an opaque store. */
    private void countByReason(final String reason, final int packets)
    {
        final int index = reasonIndex(reason);
        BY_REASON.setOpaque(byReason, index, byReason[index] + packets);
    }

    private void commitEvent(final String stream, final long timestamp, final String reason)
    {
        if (Node.JFR_PROBES && eventProbe.isEnabled()) // no event made per drop while no recording wants them
        {
            final DropEvent event = new DropEvent();
            event.node = nodeName;
            event.stream = stream;
            event.timestamp = timestamp;
            event.reason = reason;
            if (event.shouldCommit())
            {
                event.commit();
            }
        }
    }

    /** The journal's code for a drop reason. */
    private static int journalCode(final String reason)
    {
        switch (reason)
        {
            case "policy":
                return JournalSink.POLICY;
            case "calculator":
                return JournalSink.FLOW_LIMIT;
            case "memory":
                return JournalSink.MEMORY;
            case "failure":
                return JournalSink.FAILURE;
            default:
                return JournalSink.CLOSE;
        }
    }

    /** The index of a drop's reason tag ("policy", "calculator", "memory", "failure", "close"). */
    public static int reasonIndex(final String reason)
    {
        switch (reason)
        {
            case "policy":
                return 0;
            case "calculator":
                return 1;
            case "memory":
                return 2;
            case "failure":
                return 3;
            default:
                return 4;
        }
    }
}
