package dev.framewire.tools;

import com.google.protobuf.TextFormat;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.config.proto.CalculatorGraphConfig;
import dev.framewire.core.config.proto.Executor;
import dev.framewire.core.config.proto.IdleStrategy;
import dev.framewire.core.config.proto.Node;
import dev.framewire.core.config.proto.StreamQueueSize;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The demo's graph cut in two for {@code scripts/demo.sh --split}: the cameras' process (each
 * camera, its flow limiter and grayscale, then an {@code AeronPublisherCalculator}) and the
 * analysis process (an {@code AeronSubscriberCalculator} per camera, then half size, motion,
 * annotation and the snapshot sink), one Aeron UDP channel on 127.0.0.1 between them, one stream
 * id per camera.
 *
 * <pre>
 *   process 1: camN -&gt; camN_limiter -&gt; camN_gray -&gt; camN_tx ==UDP 127.0.0.1:PORT, stream N+1==&gt;
 *                         ^                |
 *                         +-- FINISHED ----+   (the back edge stays in this process)
 *   process 2: ==&gt; camN_rx -&gt; camN_half -&gt; camN_motion -&gt; camN_annotate -&gt; camN_snapshots
 * </pre>
 *
 * <p>Each chain is cut at the output of its {@code ColorConvertCalculator}: that node and everything
 * upstream of it stay in the first process, everything downstream goes to the second. A back edge
 * of the first process from a stream of the second (the flow limiter's {@code FINISHED}, from the
 * annotated frames) cannot cross the link, which carries streams one way: it is fed by the cut
 * stream instead, so a limiter counts a frame finished when its grayscale is handed to the
 * publisher. The limiter then bounds the frames in flight in the first process only; what the
 * analysis cannot take the publisher drops ({@code DROP}, counted, never buffered) and the
 * analysis counts as a gap. Any other stream between the two halves is an error.
 */
final class DemoSplit
{
    static final String CUT_AFTER = "ColorConvertCalculator";
    static final String PUBLISHER = "AeronPublisherCalculator";
    static final String SUBSCRIBER = "AeronSubscriberCalculator";
    static final String RECEIVER_EXECUTOR = "rx";
    /** Aeron's smallest term length. */
    private static final long MIN_TERM = 64 * 1024;

    /**
     * The two halves.
     *
     * @param cameras      the first process's graph.
     * @param analysis     the second process's graph.
     * @param channel      the Aeron channel between them.
     * @param cutStreams   per camera (the demo's chain order), the stream that crosses.
     */
    record Sides(GraphConfig cameras, GraphConfig analysis, String channel, List<String> cutStreams)
    {
    }

    private DemoSplit()
    {
    }

    /**
     * Cuts the demo's graph in two.
     *
     * @param demo   the demo's graph, flags applied.
     * @param port   the UDP port on 127.0.0.1 the analysis process receives on.
     * @param width  the cameras' frame width (sizes the publications' terms).
     * @param height the cameras' frame height.
     * @param keyFile the link's key (owner-only), which both halves' remote nodes are given.
     * @return both halves.
     * @throws CommandFailure naming a chain without a grayscale node or a stream that would cross the other way.
     */
    static Sides of(final DemoGraph demo, final int port, final long width, final long height, final Path keyFile)
    {
        final Topology topology = new Topology(demo.config());
        final String channel = "aeron:udp?endpoint=127.0.0.1:" + port;
        final Cuts cut = cuts(demo, topology);
        final List<String> cuts = cut.streams();
        final Set<String> analysisNodes = cut.analysisNodes();
        final Map<String, String> cutOfNode = cut.cutOfNode();

        final CalculatorGraphConfig.Builder proto = CalculatorGraphConfig.newBuilder();
        try
        {
            TextFormat.merge(demo.text(), proto);
        }
        catch (final TextFormat.ParseException ex)
        {
            throw new IllegalStateException("the demo's own text does not parse", ex); // printed by protobuf itself
        }
        final CalculatorGraphConfig.Builder first = empty(proto);
        final CalculatorGraphConfig.Builder second = empty(proto);
        final Set<String> firstStreams = new HashSet<>();
        final Set<String> secondStreams = new HashSet<>();
        for (final Node node : proto.getNodeList())
        {
            final boolean analysis = analysisNodes.contains(node.getName());
            for (final String spec : node.getOutputStreamList())
            {
                (analysis ? secondStreams : firstStreams).add(Topology.streamName(spec));
            }
        }
        for (final Node node : proto.getNodeList())
        {
            final boolean analysis = analysisNodes.contains(node.getName());
            final Node.Builder copy = node.toBuilder().clearInputStream();
            for (final String spec : node.getInputStreamList())
            {
                final String stream = Topology.streamName(spec);
                final boolean crosses = analysis ? firstStreams.contains(stream) : secondStreams.contains(stream);
                if (!crosses || (analysis && cuts.contains(stream)))
                {
                    copy.addInputStream(spec);
                }
                else if (!analysis && Topology.isBackEdge(topology.nodes().get(node.getName()), spec))
                {
                    // a back edge from the analysis cannot cross the link: fed by the cut stream instead
                    copy.addInputStream(spec.substring(0, spec.length() - stream.length()) +
                        cutOfNode.get(node.getName()));
                }
                else
                {
                    throw new CommandFailure("--split: node '" + node.getName() + "' reads stream '" + stream +
                        "' of the other process; only each camera's " + CUT_AFTER + " output may cross (" + cuts + ")");
                }
            }
            (analysis ? second : first).addNode(copy);
        }
        link(demo, cuts, channel, keyFile, termLength(width, height), first, second);
        for (final String output : proto.getOutputStreamList())
        {
            (secondStreams.contains(output) ? second : first).addOutputStream(output);
        }
        for (final StreamQueueSize size : proto.getStreamQueueSizeList())
        {
            (secondStreams.contains(size.getStream()) ? second : first).addStreamQueueSize(size);
        }
        keepUsedExecutors(proto, first);
        keepUsedExecutors(proto, second);
        DemoGraph.executor(second, RECEIVER_EXECUTOR).setNumThreads(cuts.size()).setIdleStrategy(IdleStrategy.PARK);
        return new Sides(parse(first, demo.source() + ", the cameras' half (--split)"),
            parse(second, demo.source() + ", the analysis half (--split)"), channel, List.copyOf(cuts));
    }

    /**
     * Where each chain is cut.
     *
     * @param streams       per camera, the stream that crosses.
     * @param analysisNodes the nodes of the second process.
     * @param cutOfNode     by node of a chain, its chain's cut stream.
     */
    private record Cuts(List<String> streams, Set<String> analysisNodes, Map<String, String> cutOfNode)
    {
    }

    /** Cuts each chain after its grayscale node: what goes to the analysis process. */
    private static Cuts cuts(final DemoGraph demo, final Topology topology)
    {
        final List<String> cuts = new ArrayList<>();
        final Set<String> analysisNodes = new LinkedHashSet<>();
        final Map<String, String> cutOfNode = new HashMap<>();
        for (final DemoGraph.Chain chain : demo.chains())
        {
            final Set<String> nodes = topology.downstreamOf(chain.camera());
            String cut = null;
            for (final String node : nodes)
            {
                final NodeConfig config = topology.nodes().get(node);
                if (config.calculator().equals(CUT_AFTER) && config.outputStreams().size() == 1)
                {
                    cut = Topology.streamName(config.outputStreams().get(0));
                    break;
                }
            }
            if (cut == null)
            {
                throw new CommandFailure("--split: camera '" + chain.camera() + "' of " + demo.source() + " has no " +
                    CUT_AFTER + " with one output downstream of it; the split demo cuts each chain after it");
            }
            cuts.add(cut);
            for (final Topology.Input consumer : topology.consumersOf(cut))
            {
                if (!consumer.backEdge())
                {
                    analysisNodes.addAll(topology.downstreamOf(consumer.node()));
                }
            }
            for (final String node : nodes)
            {
                cutOfNode.put(node, cut);
            }
        }
        return new Cuts(cuts, analysisNodes, cutOfNode);
    }

    /** Adds each chain's publisher to the first half and its subscriber to the second, at the cut. */
    private static void link(
        final DemoGraph demo, final List<String> cuts, final String channel, final Path keyFile, final long term,
        final CalculatorGraphConfig.Builder first, final CalculatorGraphConfig.Builder second)
    {
        for (int c = 0; c < cuts.size(); c++)
        {
            final String camera = demo.chains().get(c).camera();
            final String cut = cuts.get(c);
            final Node.Builder tx = first.addNodeBuilder().setName(camera + "_tx").setCalculator(PUBLISHER)
                .addInputStream(cut);
            DemoGraph.setOption(tx, "channel", channel);
            DemoGraph.setOption(tx, "stream_id", (long)(c + 1));
            DemoGraph.setOption(tx, "policy", "DROP");
            DemoGraph.setOption(tx, "mtu", 8192L);
            DemoGraph.setOption(tx, "term_length", term);
            DemoGraph.setOption(tx, "key_file", keyFile.toString());
            final Node.Builder rx = Node.newBuilder().setName(camera + "_rx").setCalculator(SUBSCRIBER)
                .setExecutor(RECEIVER_EXECUTOR).addOutputStream(cut).addOutputStream("STATUS:" + cut + "_link");
            DemoGraph.setOption(rx, "channel", channel);
            DemoGraph.setOption(rx, "stream_id", (long)(c + 1));
            DemoGraph.setOption(rx, "publisher_lost", "CLOSE"); // the cameras' process gone: the analysis ends
            DemoGraph.setOption(rx, "key_file", keyFile.toString());
            second.addNode(c, rx); // sources first, as the file lists them
        }
    }

    /**
     * A term that holds the largest grayscale frame the cameras make: Aeron takes a message of at most
     * an eighth of the term. Rows padded to 64 bytes, the 96-byte header, rounded up to a power of two.
     */
    static long termLength(final long width, final long height)
    {
        final long frame = ((width + 63) & ~63L) * height + 96;
        long term = MIN_TERM;
        while (term < 8 * frame)
        {
            term <<= 1;
        }
        return term;
    }

    private static CalculatorGraphConfig.Builder empty(final CalculatorGraphConfig.Builder proto)
    {
        return proto.clone().clearNode().clearOutputStream().clearStreamQueueSize().clearInputStream();
    }

    /** Drops executors no node of this half runs on (the default one stays). */
    private static void keepUsedExecutors(final CalculatorGraphConfig.Builder proto, final CalculatorGraphConfig.Builder half)
    {
        final Set<String> used = new HashSet<>();
        used.add(GraphConfig.DEFAULT_EXECUTOR);
        for (final Node node : half.getNodeList())
        {
            used.add(node.hasExecutor() ? node.getExecutor() : GraphConfig.DEFAULT_EXECUTOR);
        }
        half.clearExecutor();
        for (final Executor executor : proto.getExecutorList())
        {
            final String name = executor.getName().isEmpty() ? GraphConfig.DEFAULT_EXECUTOR : executor.getName();
            if (used.contains(name))
            {
                half.addExecutor(executor);
            }
        }
    }

    private static GraphConfig parse(final CalculatorGraphConfig.Builder half, final String source)
    {
        try
        {
            return GraphConfigText.parse(TextFormat.printer().printToString(half.build()), source);
        }
        catch (final GraphConfigException ex)
        {
            throw GraphFiles.invalid(source, ex);
        }
    }
}
