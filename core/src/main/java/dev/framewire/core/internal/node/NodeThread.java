package dev.framewire.core.internal.node;

import dev.framewire.core.journal.WorkerJournal;

/**
 * What a node needs of the thread that runs it: the worker it is pinned to ({@link Node#worker})
 * and the one running its current step ({@link Node#runningOn}). Owned by this package so that
 * {@link Node}, {@link Lane}, {@link SharedCalls} and {@link DropRecords} name no scheduler type;
 * the scheduler's worker implements it, and is its only implementation, so each call site stays
 * monomorphic (inlined behind one type check) and none allocates.
 *
 * <p>Threading: {@link #enqueue(Node)} and {@link #submit(Runnable)} from any thread; the
 * accessors read fields set before the run starts ({@link #journal()} before the workers start,
 * {@link #thread()} once the thread started).
 */
public interface NodeThread
{
    /**
     * The position among the graph's workers: the journal's worker id.
     *
     * @return the id.
     */
    int id();

    /**
     * The name, for reports, assertions and JFR events.
     *
     * @return the name.
     */
    String name();

    /**
     * The journal's part through which the calls run here are journaled.
     *
     * @return the journal's part, or null when the graph keeps no journal.
     */
    WorkerJournal journal();

    /**
     * The thread, once it started.
     *
     * @return the thread, or null before the start.
     */
    Thread thread();

    /**
     * Any thread: hands a queued node to this thread's heap (its own thread) or inbox (any other).
     *
     * @param node a node claimed for scheduling, queued at most once.
     */
    void enqueue(Node node);

    /**
     * Any thread: runs {@code command} on this thread at the top of a duty cycle; a control path
     * (the command allocates a queue node), never per packet.
     *
     * @param command what to run.
     */
    void submit(Runnable command);
}
