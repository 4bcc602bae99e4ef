package dev.framewire.bench.core.baseline;

import dev.framewire.offheap.Payload;

/**
 * A pass-through node of the baseline: takes one packet per run from its input queue, checks its
 * timestamp increases, and pushes it to the next stage's queue (scheduling that stage), or, at
 * the end of the line, hands it to the sink and releases a payload. One packet per run, and a
 * run re-queues the node while input remains: the granularity Framewire's nodes have.
 *
 * <p>Threading: {@link #run()} on its worker only; {@link #queued} under the worker's lock.
 */
final class LockedStage
{
    final LockedEngine engine;
    final int id;
    /** MediaPipe's order: nodes nearer the outputs first (lower runs first). */
    final int priority;
    final LockedQueue input;
    LockedStage next;
    LockedWorker worker;
    /** Whether the node is in its worker's queue; guarded by the worker's lock. */
    boolean queued;

    /** The current input set, filled by {@link LockedQueue#popInto}. */
    long timestamp;
    Object value;
    long word;
    private long lastTimestamp = Long.MIN_VALUE;

    LockedStage(final LockedEngine engine, final int id, final int priority, final LockedQueue input)
    {
        this.engine = engine;
        this.id = id;
        this.priority = priority;
        this.input = input;
    }

    void run() throws Exception
    {
        if (!input.popInto(this))
        {
            return;
        }
        final long ts = timestamp;
        final Object v = value;
        value = null;
        if (ts <= lastTimestamp)
        {
            if (v instanceof Payload)
            {
                ((Payload)v).release();
            }
            throw new IllegalStateException("stage " + id + ": timestamp " + ts + " is not after " + lastTimestamp);
        }
        lastTimestamp = ts;
        final LockedStage next = this.next;
        if (next != null)
        {
            if (!next.input.push(ts, v, word))
            {
                if (v instanceof Payload)
                {
                    ((Payload)v).release();
                }
                throw new IllegalStateException("stage " + next.id + ": input queue at its hard cap");
            }
            next.worker.schedule(next);
        }
        else
        {
            try
            {
                engine.sink.onPacket(ts, v, word);
            }
            finally
            {
                if (v instanceof Payload)
                {
                    ((Payload)v).release();
                }
            }
        }
        if (input.size() > 0)
        {
            worker.schedule(this);
        }
    }
}
