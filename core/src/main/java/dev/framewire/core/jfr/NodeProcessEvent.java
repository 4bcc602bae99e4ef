package dev.framewire.core.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * One calculator call: a node processing an input set (or a source making a shipment), timed.
 */
@Name("dev.framewire.NodeProcess")
@Label("Node Process")
@Category({"Framewire", "Engine"})
@Description("A calculator call: open, process of one input set or shipment, or close")
@Enabled(false)
@StackTrace(false)
@Threshold("0 ns")
public final class NodeProcessEvent extends Event
{
    /** The node's name. */
    @Label("Node")
    public String node;

    /** The input timestamp, in microseconds (or a special value). */
    @Label("Input Timestamp")
    public long inputTimestamp;

    /** The worker thread's name. */
    @Label("Worker")
    public String worker;
}
