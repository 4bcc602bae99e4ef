package dev.framewire.tools;

import com.google.protobuf.TextFormat;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.config.proto.CalculatorGraphConfig;
import dev.framewire.core.config.proto.Executor;
import dev.framewire.core.config.proto.Node;
import dev.framewire.core.config.proto.StreamQueueSize;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The demo with cameras that come and go ({@code --hotplug}): a base graph that runs no camera,
 * and a camera's chain as a subgraph template to add to it with {@code Graph.addSubgraph}.
 *
 * @param base         the graph to start: the file's settings and executors (the camera
 *                     executor with one thread per camera at most), no camera, and one idle
 *                     pass-through per worker on the graph input {@link #HOLD}, because a graph
 *                     starts an executor's workers for the nodes of its own config only; closing
 *                     {@link #HOLD} ends the run once the cameras are gone.
 * @param template     the first camera's chain, renamed: the camera node and its stream
 *                     {@code camera}, every other name without the camera's prefix
 *                     ({@code cam0_gray} is {@code gray}); its {@code seed} is the parameter
 *                     {@code $seed}; its output streams are the camera's stream and the
 *                     measured one, for the demo's observers.
 * @param cameraStream the template's camera stream.
 * @param endStream    the template's measured stream (what its snapshot sink reads).
 * @param source       where it came from, for messages.
 */
record DemoHotplugGraph(GraphConfig base, GraphConfig template, String cameraStream, String endStream, String source)
{
    /** The base graph's input that keeps its idle nodes, and so its workers, running. */
    static final String HOLD = "hold";

    /**
     * The graph and the camera template of {@code --hotplug}.
     *
     * @param text       the graph's text.
     * @param source     where it came from, for messages.
     * @param settings   the flags, {@code cameras} the most cameras in the graph at once.
     * @return the base graph and the template.
     * @throws CommandFailure if the text is not a graph the demo can use.
     */
    static DemoHotplugGraph of(final String text, final String source, final DemoGraph.Settings settings)
    {
        final List<DemoGraph.Chain> chains = new ArrayList<>();
        final CalculatorGraphConfig.Builder one = DemoGraph.edit(text, source, new DemoGraph.Settings(1,
            settings.width(), settings.height(), settings.fps(), settings.frames(), settings.snapshotEvery(), settings.snapshots(), settings.workers()),
            DemoGraph.Video.NONE, chains);
        final DemoGraph.Chain chain = chains.get(0);
        final String camera = chain.camera();
        final UnaryOperator<String> rename = name -> name.equals(camera) ? "camera" :
            name.startsWith(camera + "_") ? name.substring(camera.length() + 1) : name;
        final UnaryOperator<String> spec = s ->
        {
            final int colon = s.lastIndexOf(':');
            return s.substring(0, colon + 1) + rename.apply(s.substring(colon + 1));
        };

        final CalculatorGraphConfig.Builder template = one.clone().clearNode().clearExecutor().clearInputStream()
            .clearOutputStream().clearStreamQueueSize();
        for (final Node node : one.getNodeList())
        {
            final Node.Builder copy = DemoGraph.renamed(node, rename, spec);
            if (copy.getCalculator().equals(DemoGraph.CAMERA))
            {
                DemoGraph.setOption(copy, "seed", "$seed");
            }
            template.addNode(copy);
        }
        for (final StreamQueueSize size : one.getStreamQueueSizeList())
        {
            template.addStreamQueueSize(size.toBuilder().setStream(rename.apply(size.getStream())));
        }
        final String cameraStream = rename.apply(chain.cameraStream());
        final String endStream = rename.apply(chain.endStream());
        template.addOutputStream(cameraStream).addOutputStream(endStream);

        final CalculatorGraphConfig.Builder base = one.clone().clearNode().clearInputStream().clearOutputStream()
            .clearStreamQueueSize().addInputStream(HOLD);
        for (int n = 0; n < one.getNodeCount(); n++)
        {
            final Node node = one.getNode(n);
            if (node.getCalculator().equals(DemoGraph.CAMERA))
            {
                DemoGraph.executor(base, node.hasExecutor() ? node.getExecutor() : GraphConfig.DEFAULT_EXECUTOR)
                    .setNumThreads(settings.cameras());
            }
        }
        for (final Executor executor : base.getExecutorList())
        {
            final String name = executor.getName().isEmpty() ? GraphConfig.DEFAULT_EXECUTOR : executor.getName();
            for (int w = 0; w < Math.max(1, executor.getNumThreads()); w++)
            {
                final String idle = HOLD + "_" + name + "_" + w;
                base.addNode(Node.newBuilder().setName(idle).setCalculator("PassThroughCalculator").setExecutor(name)
                    .addInputStream(HOLD).addOutputStream(idle));
                base.addOutputStream(idle);
            }
        }

        final String hotplugSource = source + " (as the demo --hotplug runs it)";
        try
        {
            return new DemoHotplugGraph(
                GraphConfigText.parse(TextFormat.printer().printToString(base.build()), hotplugSource + ", base graph"),
                // its structure only: "$seed" is checked against the camera's contract once bound, by addSubgraph
                GraphConfigText.parseStructure(TextFormat.printer().printToString(template.build()),
                    hotplugSource + ", camera template"),
                cameraStream, endStream, hotplugSource);
        }
        catch (final GraphConfigException ex)
        {
            throw GraphFiles.invalid(hotplugSource, ex);
        }
    }
}
