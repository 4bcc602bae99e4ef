package dev.framewire.core.internal.stream;

import dev.framewire.core.GraphConfig;
import org.agrona.concurrent.NanoClock;
import dev.framewire.core.journal.JournalSink;

/**
 * What a stream needs of the run it belongs to: an {@link OutputStream} its config and journal, a
 * {@link GraphInput} also whether the run has started or is stopping, the arrival clock, and the
 * calls it makes when an add fails or waits for room. The lower layer owns it, the run implements it
 * (one implementation, so C2 devirtualises the calls), and no stream names the run.
 *
 * <p>Threading: as each method says; the per-packet ones ({@link #journal()}, {@link #isStarted()},
 * {@link #isStopping()}, {@link #recordsArrivals()}) read one field of the implementation, with the
 * field's (plain or volatile) semantics.
 */
public interface StreamRun
{
    /** Any thread: the config the graph was made from (immutable). */
    GraphConfig config();

    /** Producers, a plain read: the run's journal, or null; set before any worker starts or input takes a packet. */
    JournalSink journal();

    /** Any thread, a volatile read: whether the run has started. */
    boolean isStarted();

    /** Any thread, a volatile read: whether the run is stopping (it failed or was cancelled, or is ending). */
    boolean isStopping();

    /** Adders, a volatile read: whether graph inputs note when each packet came. */
    boolean recordsArrivals();

    /** Adders: the graph's clock, for arrival times. */
    NanoClock clock();

    /** Any thread: the run fails at {@code where}. */
    void fail(String where, long timestamp, Throwable cause);

    /** An adder starts (+1) or stops (-1) waiting for room: the deadlock check counts the waiters. */
    void adderWaits(int delta);

    /** A waiting adder: looks for a deadlock, and takes MediaPipe's way out of one (a raised limit). */
    void checkDeadlock();
}
