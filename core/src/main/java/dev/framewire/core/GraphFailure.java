package dev.framewire.core;

/**
 * One failure of a run: the node (or graph input, observer, the engine itself), the input
 * timestamp it was handling, and the cause.
 *
 * <p>Threading: immutable.
 */
public final class GraphFailure
{
    private final String node;
    private final long timestamp;
    private final Throwable cause;

    /**
     * One failure of a run.
     *
     * @param node      where: a node's name, or a graph input, the watchdog, the scheduler.
     * @param timestamp the input timestamp, or {@link Timestamp#UNSET}.
     * @param cause     what was thrown.
     */
    public GraphFailure(final String node, final long timestamp, final Throwable cause)
    {
        this.node = node;
        this.timestamp = timestamp;
        this.cause = cause;
    }

    /**
     * Where it happened: a node's name, or a description such as {@code "graph"}.
     *
     * @return the name.
     */
    public String node()
    {
        return node;
    }

    /**
     * The input timestamp being handled.
     *
     * @return the timestamp, or {@link Timestamp#UNSET}.
     */
    public long timestamp()
    {
        return timestamp;
    }

    /**
     * What was thrown.
     *
     * @return the cause.
     */
    public Throwable cause()
    {
        return cause;
    }

    @Override
    public String toString()
    {
        // a node's name is one word; anything else (an observer, an executor's worker) says what it is
        final boolean isNode = node.indexOf(' ') < 0;
        return (isNode ? "node '" + node + "'" : node) + (isNode || timestamp != Timestamp.UNSET ? " at input " +
            "timestamp " + Timestamp.toString(timestamp) : "") + ": " + cause;
    }
}
