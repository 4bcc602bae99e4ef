package dev.framewire.core;

import org.agrona.concurrent.NanoClock;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * A clock on simulated time, for deterministic tests of time-based calculators (MediaPipe's
 * {@code SimulationClock} with its {@code SimulationClockExecutor}). Give it to a graph as its clock
 * ({@code GraphConfig.builder().clock(clock)}): calculators read it through
 * {@link CalculatorContext#nanoTime()}, and sleep on it with {@link #sleep(long)} (a calculator
 * gets the clock as a side packet, as MediaPipe's SleepCalculator does, or holds it). Time never
 * passes by itself: it moves to the earliest wake-up of a sleeping thread only once nothing else
 * can happen, that is when
 * <ul>
 *   <li>every graph on this clock has nothing to run: no node queued or running but those whose
 *       call sleeps on this clock, no packet added and not yet taken in; and</li>
 *   <li>every thread that said it takes part ({@link #threadStart()}, the test's own thread as a
 *       rule) sleeps on this clock.</li>
 * </ul>
 * Then the earliest sleeper (the first to call, of several at the same time) wakes, alone, and
 * time moves on only once it sleeps again or its graph is idle again. So every run of a test
 * plays the same events in the same order, however the threads are scheduled.
 *
 * <p>Like MediaPipe's, a node that becomes ready while its worker's call sleeps keeps time from
 * moving until it runs: give the graph enough workers, or a {@link Scheduling#STEALING} executor,
 * so that no node waits behind a sleeping call (MediaPipe's test uses eight threads). A graph whose
 * every path waits on a sleep then cannot move; the test's timeout ends it.
 *
 * <p>Threading: any thread. The graph attaches itself as it starts ({@link #attach}) and detaches
 * as its workers stop; its workers ask the clock to look again when they go idle
 * ({@link #recheck()}). Every method but {@link #nanoTime()} takes the clock's lock; the graph's
 * answer to "is anything left to run" is asked under it, and reads only volatile state.
 */
public final class SimulationClock implements NanoClock
{
    /** A thread sleeping until {@link #at}; the {@link #order} of its call breaks ties. */
    private static final class Waiter
    {
        final long at;
        final long order;
        final Thread thread;

        Waiter(final long at, final long order, final Thread thread)
        {
            this.at = at;
            this.order = order;
            this.thread = thread;
        }
    }

    private volatile long now;
    private long calls;
    private final TreeMap<Waiter, Waiter> waiters = new TreeMap<>((a, b) ->
        a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.order, b.order));
    private final Set<Thread> sleeping = new HashSet<>();
    private final Set<Thread> started = new HashSet<>();
    private final List<BooleanSupplier> graphs = new ArrayList<>();

    /** A clock at 0. */
    public SimulationClock()
    {
        this(0);
    }

    /**
     * A clock at {@code startNanos}.
     *
     * @param startNanos the simulated time it starts at.
     */
    public SimulationClock(final long startNanos)
    {
        this.now = startNanos;
    }

    /**
     * The simulated time.
     *
     * @return nanoseconds.
     */
    @Override
    public long nanoTime()
    {
        return now;
    }

    /**
     * Sleeps until {@code nanos} have passed on this clock. From a calculator's call: its node counts
     * as waiting on the clock meanwhile, so time may move.
     *
     * @param nanos 0 or more.
     * @throws InterruptedException if interrupted (the graph's cancel or close).
     */
    public void sleep(final long nanos) throws InterruptedException
    {
        synchronized (this)
        {
            sleepUntilLocked(now + Math.max(0, nanos));
        }
    }

    /**
     * Sleeps until this clock reads {@code atNanos} or later.
     *
     * @param atNanos when to wake.
     * @throws InterruptedException if interrupted (the graph's cancel or close).
     */
    public void sleepUntil(final long atNanos) throws InterruptedException
    {
        synchronized (this)
        {
            sleepUntilLocked(atNanos);
        }
    }

    private void sleepUntilLocked(final long atNanos) throws InterruptedException
    {
        final Thread self = Thread.currentThread();
        final Waiter waiter = new Waiter(atNanos, calls++, self);
        waiters.put(waiter, waiter);
        sleeping.add(self);
        try
        {
            tryAdvance();
            while (waiters.containsKey(waiter))
            {
                wait();
            }
        }
        finally
        {
            if (waiters.remove(waiter) != null) // interrupted before its time came
            {
                sleeping.remove(self);
                tryAdvance();
            }
        }
    }

    /**
     * The calling thread takes part in the simulation: time does not move while it runs, only
     * while it sleeps on this clock (MediaPipe's {@code ThreadStart}). A test's thread calls it
     * before it starts the graph, so that the graph's events and its own happen in simulated order.
     */
    public synchronized void threadStart()
    {
        started.add(Thread.currentThread());
    }

    /** The calling thread no longer takes part ({@link #threadStart()}); time may move without it. */
    public synchronized void threadFinish()
    {
        started.remove(Thread.currentThread());
        tryAdvance();
    }

    /**
     * Whether {@code thread} sleeps on this clock now. The graph asks, under the clock's lock, to
     * tell a node whose call sleeps from one that runs.
     *
     * @param thread a thread.
     * @return true while it sleeps.
     */
    public synchronized boolean isSleeping(final Thread thread)
    {
        return sleeping.contains(thread);
    }

    /**
     * The engine, as a graph on this clock starts: {@code idle} answers, under the clock's lock,
     * whether the graph has nothing to run but calls sleeping on this clock.
     *
     * @param idle the graph's answer.
     */
    public synchronized void attach(final BooleanSupplier idle)
    {
        graphs.add(idle);
    }

    /**
     * The engine, as the graph's workers stop: it no longer holds time back.
     *
     * @param idle what {@link #attach} was given.
     */
    public synchronized void detach(final BooleanSupplier idle)
    {
        graphs.remove(idle);
        tryAdvance();
    }

    /** The engine, when a graph on this clock may have gone idle: time moves if nothing else can happen. */
    public synchronized void recheck()
    {
        tryAdvance();
    }

    /** Under the lock: wakes the earliest sleeper, at its time, if nothing else can happen first. */
    private void tryAdvance()
    {
        if (waiters.isEmpty() || !sleeping.containsAll(started))
        {
            return;
        }
        for (final BooleanSupplier graph : graphs)
        {
            if (!graph.getAsBoolean())
            {
                return;
            }
        }
        final Waiter first = waiters.pollFirstEntry().getKey();
        sleeping.remove(first.thread);
        if (first.at > now)
        {
            now = first.at;
        }
        notifyAll();
    }

    @Override
    public String toString()
    {
        return "SimulationClock{now=" + now + ", sleeping=" + waiters.size() + '}';
    }
}
