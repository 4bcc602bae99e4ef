package dev.framewire.core.internal.run;

import dev.framewire.core.GraphException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The runs of one graph, as MediaPipe's {@code StartRun} again after {@code WaitUntilDone}: the
 * first {@link Run}, made with the graph and owning its pool, and the latest. Once a run is over, a
 * new one is prepared (by the next start, or by a registration between runs): the old run's workers
 * are stopped and what it still holds is released, and a new {@link Run} is made from the same config
 * over the same pool, so every calculator is made anew and every count, bound and output side packet
 * starts afresh, as MediaPipe's {@code PrepareForRun} re-creates calculators and clears output side
 * packets. What the graph's user registered (observers, pollers, input handles, settings, the error
 * callback) is carried over by the replays the facade registers.
 *
 * <p>Threading: the graph's owning thread, as {@code start}; {@link #current()} from any thread.
 */
public final class GraphRuns
{
    private final Run first;
    private volatile Run current;
    /**
     * The latest run's graph inputs, set with {@link #current}: an add by name loads them from here as
     * it loaded the run, one load, not two.
     */
    private volatile GraphInputs currentInputs;
    /** What the facade carries over to each new run, in registration order. */
    private final List<Consumer<Run>> replays = new ArrayList<>();
    private boolean closed;

    /**
     * The runs of a graph whose first run is {@code first}.
     *
     * @param first the run made with the graph.
     */
    public GraphRuns(final Run first)
    {
        this.first = first;
        this.current = first;
        this.currentInputs = first.inputs;
    }

    /**
     * The latest run: the one running, or the last one over, or the next one not started.
     *
     * @return it.
     */
    public Run current()
    {
        return current;
    }

    /**
     * The latest run's graph inputs, by name: what the facade's adds, bounds and closes by name go to.
     *
     * @return them.
     */
    public GraphInputs inputs()
    {
        return currentInputs;
    }

    /**
     * Registers what to carry over to each later run, once made and before it starts.
     *
     * @param replay told of each new run.
     */
    public void onNewRun(final Consumer<Run> replay)
    {
        replays.add(replay);
    }

    /**
     * The run to register on before a start: the latest if not started; else, once it is over, a new
     * one. A run still going is refused.
     *
     * @param what the call, for the message.
     * @return the run not started yet.
     * @throws IllegalStateException if a run is in progress, or the graph is closed.
     */
    public Run unstarted(final String what)
    {
        final Run run = current;
        if (!run.isStarted())
        {
            return run;
        }
        if (closed)
        {
            throw new IllegalStateException(what + "(): the graph is closed; make a new Graph(config)");
        }
        if (!run.isFinished())
        {
            throw new IllegalStateException(what + "(): a run is in progress on this graph (" + run.runState() +
                "); wait for its end with waitUntilDone() (or end it with cancel() and wait) before another run");
        }
        retire(run);
        final Run next = new Run(first.config(), first.pool());
        for (final Consumer<Run> replay : replays)
        {
            replay.accept(next);
        }
        current = next;
        currentInputs = next.inputs;
        return next;
    }

    /**
     * Starts the next run: the first, or a new one once the last is over.
     *
     * @param sidePackets values for the nodes' input side packets, by name.
     * @throws IllegalStateException if a run is in progress, or the graph is closed.
     */
    public void start(final Map<String, ?> sidePackets)
    {
        if (closed && (current.isStarted() || current != first))
        {
            throw new IllegalStateException("start(): the graph is closed; make a new Graph(config) to run it");
        }
        unstarted("start").start(sidePackets);
    }

    /** An ended run: its workers stop and what it still holds (its pollers' queues too) is released. */
    private void retire(final Run run)
    {
        try
        {
            run.waitUntilDone(); // returns at once: the run is over; stops its workers if not done yet
        }
        catch (final GraphException ex)
        {
            // the run's outcome was the caller's to read; the next run starts afresh, as MediaPipe clears errors
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping the previous run's workers", ex);
        }
        if (run == first)
        {
            for (final var queue : run.pollerQueues())
            {
                queue.drainAndRelease(); // its pollers are rebound; the first run closes with the graph (its pool)
            }
        }
        else
        {
            run.close(); // not the pool's owner: releases its pollers' queues
        }
    }

    /** Closes the latest run, then the first, which owns the pool and checks it for leaks. */
    public void close()
    {
        closed = true;
        final Run run = current;
        run.close();
        if (run != first)
        {
            first.close();
        }
    }
}
