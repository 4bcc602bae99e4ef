package dev.framewire.core.internal.node;

import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.handler.SingleInputSync;
import dev.framewire.core.internal.stream.OutputStream;
import dev.framewire.core.jfr.NodeProcessEvent;
import dev.framewire.core.journal.JournalSink;
import dev.framewire.core.journal.WorkerJournal;

/**
 * One call of a node's calculator in its step ({@link Node#run()}): a source's call, or an input
 * set's (the first, the rest of a {@code batch_size} batch, or more ready ones up to
 * {@code input_sets_per_run}), with what each call records: the node's input timestamp and call
 * count (opaque stores), its time in {@code process} when the graph times calls, its journal begin
 * and end, its JFR event when a recording wants one, and the bound an offset gives its outputs.
 * Stateless: static calls on the node's own fields, which C2 inlines as it did the node's private
 * methods they were (the same bytecode, the same sizes), so a call gains no dispatch and no load.
 *
 * <p>Threading: the node's worker (the one running its step), and {@link #journalBegin} and
 * {@link #journalEnd} too when {@link NodeLifecycle} opens or closes the node.
 */
final class NodeCalls
{
    private NodeCalls()
    {
    }

    /** A source's call: one shipment; then the node closes if the calculator asked to stop. */
    static void source(final Node node)
    {
        Node.INPUT_TIMESTAMP.setOpaque(node, 0L);
        journalBegin(node, false);
        Node.CALLS.setOpaque(node, node.calls + 1);
        node.shipmentBytes = 0;
        final NodeProcessEvent event = Node.JFR_PROBES && node.processEventProbe.isEnabled() ? new NodeProcessEvent() : null;
        if (event != null)
        {
            event.begin();
        }
        try
        {
            timed(node);
            commitProcessEvent(node, event, 0);
            node.flushOutputs();
        }
        catch (final Throwable t)
        {
            node.onFailure(0, t);
            return;
        }
        finally
        {
            journalEnd(node);
        }
        node.retry.onProgress();
        if (node.stopRequested)
        {
            node.close();
        }
    }

    /** The call of the input set the policy found ready at {@code ready}. */
    static void inputSet(final Node node, final long ready)
    {
        final long timestamp = node.sync.fill(ready);
        Node.INPUT_TIMESTAMP.setOpaque(node, timestamp);
        journalBegin(node, true);
        Node.CALLS.setOpaque(node, node.calls + 1);
        final NodeProcessEvent event = Node.JFR_PROBES && node.processEventProbe.isEnabled() ? new NodeProcessEvent() : null;
        if (event != null)
        {
            event.begin();
        }
        try
        {
            timed(node);
            commitProcessEvent(node, event, timestamp);
            node.releaseInputs();
            if (node.hasOffset)
            {
                // also as far as the inputs' bounds have moved: a bound that arrived while this
                // node was queued schedules no further run, so it must be followed now
                final SingleInputSync solo = node.solo;
                final long in = solo != null ? solo.inputBoundAfterFill() : node.inputBound();
                // inputs all done: close() follows, and may still emit where the input set left the bound
                final long completed = in == Timestamp.DONE ? timestamp :
                    Math.max(timestamp, Timestamp.previousAllowedInStream(in));
                final long next = OffsetBounds.offsetBound(completed, node.offset);
                for (final OutputStream output : node.outputs)
                {
                    output.setNextTimestampBound(next);
                }
            }
            node.flushOutputs();
        }
        catch (final Throwable t)
        {
            node.onFailure(timestamp, t);
        }
        finally
        {
            journalEnd(node);
        }
    }

    /** The input sets after the first of a batch ({@code batch_size}). */
    static void restOfBatch(final Node node)
    {
        for (int n = node.sync.batchSize() - 1; n > 0 && node.lifecycle == Node.OPEN && !node.runState.isStopping(); n--)
        {
            final long next = node.sync.nextInBatch();
            if (next == Node.NOT_READY || next == Node.READY_FOR_CLOSE)
            {
                return;
            }
            inputSet(node, next);
        }
    }

    /** Up to {@code input_sets_per_run - 1} more ready input sets, while open and not held back. */
    static void moreReady(final Node node)
    {
        for (int n = node.inputSetsPerRun - 1;
            n > 0 && node.lifecycle == Node.OPEN && !node.runState.isStopping() && !node.isThrottled(); n--)
        {
            final long next = node.readiness();
            if (next == Node.NOT_READY || next == Node.READY_FOR_CLOSE)
            {
                return;
            }
            inputSet(node, next);
        }
    }

    /**
     * The calculator's {@code process}, timed with the graph's clock when the graph times calls (two
     * clock reads and an opaque store per call, returned or thrown); else just the call.
     */
    private static void timed(final Node node) throws Exception
    {
        if (!node.runState.timesProcessCalls())
        {
            node.calculator.process(node);
            return;
        }
        final long began = node.runState.clock().nanoTime();
        try
        {
            node.calculator.process(node);
        }
        finally
        {
            Node.CALL_NANOS.setOpaque(node, node.callNanos + (node.runState.clock().nanoTime() - began));
        }
    }

    /**
     * Journals the call's begin: at the worker's last clock reading when no other thread handed it
     * a packet since (see {@link JournalSink#processBeginSameWorker}): its inputs all come from its
     * worker, or, for an input set just taken ({@code inputSetTaken}), its one handed-over packet
     * was published before that reading.
     */
    static void journalBegin(final Node node, final boolean inputSetTaken)
    {
        final WorkerJournal journal = node.runningOn.journal();
        if (journal != null)
        {
            if (node.inputsFromItsWorker ||
                inputSetTaken && node.oneInputHandedOver && journal.reusesReadings() && node.solo.publishedBeforeLastReading())
            {
                journal.processBeginSameWorker(node.id, node.inputTimestamp);
            }
            else
            {
                journal.processBegin(node.id, node.inputTimestamp);
            }
        }
    }

    /** Journals the call's end. */
    static void journalEnd(final Node node)
    {
        final WorkerJournal journal = node.runningOn.journal();
        if (journal != null)
        {
            journal.processEnd(node.id, node.inputTimestamp);
        }
    }

    private static void commitProcessEvent(final Node node, final NodeProcessEvent event, final long timestamp)
    {
        if (event != null && event.shouldCommit())
        {
            event.node = node.name;
            event.inputTimestamp = timestamp;
            event.worker = node.runningOn.name();
            event.commit();
        }
    }
}
