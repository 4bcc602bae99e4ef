package dev.framewire.core.internal.queue;

/**
 * Whether a source node or a graph input is held back by a full queue downstream (MediaPipe's
 * throttling), remembering which queue held it back last, so that asking again while nothing has
 * changed reads one line that nobody writes instead of the head and tail of every queue.
 *
 * <p>Why it matters: a producer refused at a full queue asks again and again (a waiting adder's
 * loop, a yielding sender, a source rescheduled on room). Each full look reads the head and tail
 * of each queue it obeys, lines the consumer's worker writes on every packet; with the two vCPUs
 * far apart every read is a remote miss and every miss takes the line away from the worker, which
 * then stalls on its own writes (B2's chain ran at 0.3 of its speed, and of the locked design's,
 * in that host state). Now, once held back by queue q, it asks only whether q has signalled room
 * since ({@link InputQueue#roomSignals()}, a counter its consumer writes only when it hands out
 * room), and looks at every queue again only after that. A look at a queue below its limit reads
 * only the flag its producer keeps ({@link InputQueue#atLimit()}, stored when the queue reaches or
 * leaves its limit): neither the queue's tail and head, which move with every packet, nor its room
 * counter; a queue the flag says is at its limit gets the exact look ({@link InputQueue#wantsRoom()}).
 *
 * <p>Who holds: sources, and graph inputs' adds that wait for room; a refusing add
 * ({@code tryAddPacket}) too under a room batch, while under MediaPipe's rule it looks exactly
 * each time and raises no flag ({@link #fullNow}), since it waits for no hand-out of room.
 *
 * <p>Threading: the holder's thread (a source's worker, a graph input's adder); a report from
 * another thread may look too: both fields are hints, a stale one costs one full look.
 */
public final class HeldBack
{
    private InputQueue by;
    private long seenSignals;

    /**
     * Any thread (see the class javadoc): whether any of {@code queues} is full.
     *
     * @param queues the queues the holder obeys.
     * @return true while one of them is full.
     */
    public boolean check(final InputQueue[] queues)
    {
        final InputQueue last = by;
        if (last != null && last.roomSignals() == seenSignals)
        {
            return true; // no room handed out since it was found full (and flagged): still full
        }
        for (final InputQueue queue : queues)
        {
            if (!queue.atLimit())
            {
                continue; // a "no" is never wrong, and costs no read of the room counter's line
            }
            final long signals = queue.roomSignals(); // before the exact look: a signal after it shows next time
            if (queue.wantsRoom())
            {
                by = queue;
                seenSignals = signals;
                return true;
            }
        }
        if (last != null)
        {
            by = null; // a store only when it changes
        }
        return false;
    }

    /**
     * Whether any of {@code queues} is full right now, for a holder that will not wait for room (a
     * refusing add): an exact look at each queue its producer found at its limit, with no flag
     * raised and nothing remembered, so the consumer is never asked to hand out room to it. Under
     * saturation a holder that raises the flag costs the consumer's worker, per packet, a read of
     * the flag and of the tail, a store to clear the flag and a fenced store to count the signal,
     * each on a line the holder writes or reads; this look costs it the head's line once a pop.
     *
     * @param queues the queues the holder obeys.
     * @return true if one of them is at or over its limit.
     */
    public static boolean fullNow(final InputQueue[] queues)
    {
        for (final InputQueue queue : queues)
        {
            if (queue.atLimit() && queue.fullNow())
            {
                return true;
            }
        }
        return false;
    }

    /** The holder's thread, when the queues it obeys change: the queue it remembers may be gone. */
    public void forget()
    {
        by = null;
    }
}
