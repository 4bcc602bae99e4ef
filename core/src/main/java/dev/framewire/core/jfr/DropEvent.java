package dev.framewire.core.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A packet dropped: by an input policy, a calculator (flow limiter, gate), the memory budget, or
 * a failure policy.
 */
@Name("dev.framewire.Drop")
@Label("Packet Drop")
@Category({"Framewire", "Engine"})
@Description("A packet or input set dropped, with where and why")
@Enabled(false)
@StackTrace(false)
public final class DropEvent extends Event
{
    /** The node that dropped. */
    @Label("Node")
    public String node;

    /** The stream, or empty when the drop is of a whole input set. */
    @Label("Stream")
    public String stream;

    /** The packet's timestamp. */
    @Label("Timestamp")
    public long timestamp;

    /** Why: policy, calculator, memory, failure, close. */
    @Label("Reason")
    public String reason;
}
