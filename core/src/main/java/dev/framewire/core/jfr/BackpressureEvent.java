package dev.framewire.core.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A queue became full and holds its sources back, or a graph input add waited for room.
 */
@Name("dev.framewire.Backpressure")
@Label("Backpressure")
@Category({"Framewire", "Flow Control"})
@Description("A full input queue holding sources back, or a graph input waiting for room")
@Enabled(false)
@StackTrace(false)
public final class BackpressureEvent extends Event
{
    /** The full stream (and its consumer). */
    @Label("Stream")
    public String stream;

    /** Packets queued. */
    @Label("Depth")
    public int depth;

    /** The queue's limit. */
    @Label("Limit")
    public int limit;
}
