package dev.framewire.core.internal.sched;

/**
 * How long a worker's current call has lasted, as seen from outside: no clock is read on the
 * worker (a clock_gettime per node run was 15% of a 4-stage chain's worker time in B2). A report or
 * the timeout guard looks at (runs, current call); the first look that finds a pair notes the time,
 * later looks that find the same pair measure from there.
 *
 * <p>Threading: whichever thread reports; a benign race between the guard and a caller of
 * {@code Graph.report()}: diagnostics only.
 */
final class CallWatch
{
    private long seenRuns = -1;
    private Object seenCall;
    private long seenAtNanos;

    /**
     * How long {@code call} has been seen in progress, or -1 outside calls. The duration counts from
     * the first observation of this call, so it is at most one guard period short.
     *
     * @param call the worker's call now (a node or a lane), or null.
     * @param runs the worker's run count now.
     * @param now  {@code System.nanoTime()}.
     * @return nanoseconds, or -1.
     */
    long observedNanos(final Object call, final long runs, final long now)
    {
        if (call == null)
        {
            return -1;
        }
        if (runs != seenRuns || call != seenCall)
        {
            seenRuns = runs;
            seenCall = call;
            seenAtNanos = now;
        }
        return now - seenAtNanos;
    }
}
