package dev.framewire.core;

/**
 * How a node's inputs are synchronized into input sets, declared per node.
 *
 * <p><b>Default</b> (MediaPipe's DefaultInputStreamHandler): a node is ready when some timestamp
 * is settled on every input and at least one input has a packet there; that timestamp's packets
 * form the input set. It guarantees input sets in strictly ascending timestamp order, nothing
 * dropped, and the same input sets in the same order whatever the threads do. It gives up
 * latency: a slow or silent input holds the node back until its bound moves (use offsets or
 * {@link Output#setNextTimestampBound(long)} upstream to keep it moving).
 *
 * <p>Threading: immutable.
 */
public final class InputPolicy
{
    /** The default policy. */
    public static final InputPolicy DEFAULT = new InputPolicy("default");

    private final String name;

    private InputPolicy(final String name)
    {
        this.name = name;
    }

    /**
     * The policy's name as the config writes it.
     *
     * @return the name.
     */
    public String name()
    {
        return name;
    }

    @Override
    public String toString()
    {
        return name;
    }
}
