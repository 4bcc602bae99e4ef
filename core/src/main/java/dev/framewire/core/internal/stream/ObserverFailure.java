package dev.framewire.core.internal.stream;

import dev.framewire.core.PacketObserver;
import dev.framewire.core.Timestamp;

/**
 * A {@link PacketObserver} threw while a node's output delivered a packet to it. The node's call
 * had returned: the failure is the observer's, and the run's failure record names the observer,
 * its stream and the packet's timestamp ({@link #where()}), not the node, which did nothing wrong.
 *
 * <p>Threading: made and thrown on the producing node's worker; immutable.
 */
public final class ObserverFailure extends Exception
{
    private static final long serialVersionUID = 1L;

    private final String where;
    private final long timestamp;

    ObserverFailure(final String stream, final PacketObserver observer, final long timestamp, final Exception cause)
    {
        super("observer " + observer.getClass().getName() + " of stream '" + stream + "' threw on the packet at " +
            Timestamp.toString(timestamp) + ": " + cause, cause);
        this.where = "observer of stream '" + stream + "' (" + observer.getClass().getName() + ")";
        this.timestamp = timestamp;
    }

    /**
     * Where the failure is: the observer, its stream and class, as the run's failure record names it.
     *
     * @return e.g. {@code observer of stream 'frames' (com.example.Display$1)}.
     */
    public String where()
    {
        return where;
    }

    /**
     * The timestamp of the packet the observer was given.
     *
     * @return the timestamp.
     */
    public long timestamp()
    {
        return timestamp;
    }
}
