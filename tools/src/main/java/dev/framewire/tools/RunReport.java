package dev.framewire.tools;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphStats;
import dev.framewire.core.NodeConfig;
import dev.framewire.offheap.MemoryBudget;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code framewire run} prints at the end: the latency table per stream and end to end,
 * throughput, drops and the off-heap peak; and whether the run delivered nothing. Called on the
 * command's thread once the graph is done.
 */
final class RunReport
{
    private RunReport()
    {
    }

    static long total(final List<StreamMeter> meters)
    {
        long sum = 0;
        for (final StreamMeter meter : meters)
        {
            sum += meter.packets();
        }
        return sum;
    }

    /**
     * Whether the run delivered nothing because it dropped everything (an undersized memory budget
     * under DROP_OLDEST, failures under DROP_TIMESTAMP): no packet on an end stream and no call of
     * a sink node, but drops for memory or failures. Drops a calculator makes on purpose (a closed
     * gate) or an input policy makes do not count: such a run did what it was told. Says so on
     * {@code err}, naming the drops and what to change.
     */
    static boolean deliveredNothing(final PrintWriter err, final Graph graph, final List<StreamMeter> ends)
    {
        long delivered = total(ends);
        for (final NodeConfig node : graph.config().nodes())
        {
            if (node.outputStreams().isEmpty())
            {
                delivered += graph.callCount(node.name());
            }
        }
        long dropped = 0;
        for (final GraphStats.NodeStats node : graph.stats().nodes())
        {
            dropped += node.drops(GraphStats.DropReason.MEMORY) + node.drops(GraphStats.DropReason.FAILURE);
        }
        if (delivered > 0 || dropped == 0)
        {
            return false;
        }
        final long memory = graph.memoryDropCount();
        err.println("the run delivered nothing: no packet reached an end stream or a sink node, and " + dropped +
            " packets were dropped after failures or to stay within the memory budget" + (memory > 0 ? " (" + memory + " of them for the memory budget of " +
            graph.pool().budget().maxBytes() + " B: raise memory_budget_bytes so that a frame can go through the " +
            "whole graph)" : "") + "; see the drops above");
        err.flush();
        return true;
    }

    static long drops(final Graph graph)
    {
        long sum = 0;
        for (final NodeConfig node : graph.config().nodes())
        {
            sum += graph.dropCount(node.name());
        }
        return sum;
    }

    static void report(
        final PrintWriter out,
        final Graph graph,
        final Topology topology,
        final Map<String, EntryTimes> entries,
        final List<StreamMeter> meters,
        final List<StreamMeter> ends,
        final Map<String, Recorder> stampRecorders,
        final double seconds,
        final MemoryBudget budget,
        final double warmup)
    {
        int nodeWidth = "end to end".length();
        int streamWidth = "all * streams".length();
        for (final StreamMeter meter : meters)
        {
            nodeWidth = Math.max(nodeWidth, meter.node().length());
            streamWidth = Math.max(streamWidth, meter.stream().length() + 2);
        }
        for (final EntryTimes entry : entries.values())
        {
            nodeWidth = Math.max(nodeWidth, topology.producerOf(entry.stream()).length());
            streamWidth = Math.max(streamWidth, entry.stream().length() + 2);
        }
        final String row = "%-" + nodeWidth + "s  %-" + streamWidth + "s %9s %9s %9s %9s %9s %9s%n";
        out.println();
        out.println("latency in ms, per stream: from when a packet's timestamp first entered the graph (a source " +
            "node's output or a graph input upstream) to when the packet left the call that produced it; " +
            "* end streams");
        if (warmup > 0)
        {
            out.println("(packets of the first " + trim(warmup) + " s are counted but left out of the percentiles)");
        }
        out.printf(Locale.ROOT, row, "node", "stream", "packets", "per s", "p50", "p99", "p99.9", "max");
        for (final EntryTimes entry : entries.values())
        {
            final String producer = topology.producerOf(entry.stream());
            out.println(String.format(Locale.ROOT, row, producer.equals(Topology.GRAPH_INPUT) ? "(graph input)" :
                producer, entry.stream(), entry.packets(), perSecond(entry.packets(), seconds), "entry", "", "", "")
                .stripTrailing());
        }
        final Histogram all = new Histogram(StreamMeter.HIGHEST_NANOS, 3);
        long unmatched = 0;
        final List<String> unmatchedStreams = new ArrayList<>();
        for (final StreamMeter meter : meters)
        {
            latencyRow(out, row, meter.node(), meter.stream() + (meter.isEnd() ? " *" : ""), meter.packets(), seconds,
                meter.latency());
            if (meter.isEnd())
            {
                all.add(meter.latency());
            }
            if (meter.unmatched() > 0)
            {
                unmatched += meter.unmatched();
                unmatchedStreams.add(meter.stream());
            }
        }
        final long endPackets = total(ends);
        latencyRow(out, row, "end to end", "all * streams", endPackets, seconds, all);
        if (unmatched > 0)
        {
            out.println("(" + unmatched + " packets on " + unmatchedStreams + " carried timestamps no entry stream " +
                "upstream remembered; they are counted but not in the percentiles)");
        }
        for (final Map.Entry<String, Recorder> e : stampRecorders.entrySet())
        {
            latencyRow(out, row, e.getKey(), "(LatencyStamp)", -1, seconds, e.getValue().getIntervalHistogram());
        }
        out.println();
        out.printf(Locale.ROOT, "throughput: %d packets on the end streams in %.2f s = %.1f packets/s%n", endPackets,
            seconds, rate(endPackets, seconds));
        final StringBuilder byNode = new StringBuilder();
        long drops = 0;
        for (final NodeConfig node : graph.config().nodes())
        {
            final long d = graph.dropCount(node.name());
            if (d > 0)
            {
                byNode.append(byNode.length() == 0 ? " (" : ", ").append(node.name()).append(' ').append(d);
                drops += d;
            }
        }
        out.println("drops: " + drops + (byNode.length() > 0 ? byNode + ")" : ""));
        final long memoryDrops = graph.memoryDropCount();
        if (memoryDrops > 0)
        {
            out.println("memory drops (packets dropped over the hard limit): " + memoryDrops);
        }
        out.printf(Locale.ROOT, "off-heap: peak %s in use, %s at the end (budget %s)%n", mib(budget.peakBytesInUse()),
            mib(budget.bytesInUse()), mib(budget.maxBytes()));
        out.flush();
    }

    static void latencyRow(
        final PrintWriter out,
        final String row,
        final String node,
        final String stream,
        final long packets,
        final double seconds,
        final Histogram h)
    {
        final boolean any = h.getTotalCount() > 0;
        out.printf(Locale.ROOT, row, node, stream, packets >= 0 ? Long.toString(packets) : "",
            packets >= 0 ? perSecond(packets, seconds) : "",
            any ? ms(h.getValueAtPercentile(50)) : "-", any ? ms(h.getValueAtPercentile(99)) : "-",
            any ? ms(h.getValueAtPercentile(99.9)) : "-", any ? ms(h.getMaxValue()) : "-");
    }

    static double rate(final long count, final double seconds)
    {
        return seconds > 0 ? count / seconds : 0;
    }

    static String perSecond(final long count, final double seconds)
    {
        final double rate = rate(count, seconds);
        return String.format(Locale.ROOT, rate < 10_000 ? "%.1f" : "%.0f", rate);
    }

    static String ms(final long nanos)
    {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }

    static String mib(final long bytes)
    {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    static String trim(final double value)
    {
        return value == Math.rint(value) ? Long.toString((long)value) : Double.toString(value);
    }
}
