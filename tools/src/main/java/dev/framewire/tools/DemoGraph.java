package dev.framewire.tools;

import com.google.protobuf.TextFormat;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.config.proto.CalculatorGraphConfig;
import dev.framewire.core.config.proto.Executor;
import dev.framewire.core.config.proto.IdleStrategy;
import dev.framewire.core.config.proto.InputStreamInfo;
import dev.framewire.core.config.proto.Node;
import dev.framewire.core.config.proto.Option;
import dev.framewire.core.config.proto.StreamQueueSize;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The demo's graph: {@code graphs/camera_ingest.pbtxt} (built into the jar, or a file given with
 * {@code --graph}) with the demo's flags applied.
 *
 * <p>A camera is a {@code SyntheticCameraCalculator} node; its chain is the camera and every node
 * downstream of it (back edges left out), which must end in a {@code SnapshotSinkCalculator}
 * (the stream it reads is where the demo measures). Chains must not share nodes. For
 * {@code --cameras N}:
 * <ul>
 *   <li>N up to the file's cameras keeps the first N chains and drops the others' nodes, with
 *       their graph outputs and stream queue sizes;</li>
 *   <li>each camera past the file's is a copy of the first chain, renamed: the first camera's
 *       name as a prefix of a node or stream name ({@code cam0_gray}) becomes the new camera's
 *       ({@code cam5_gray}), other chain-made names get the new camera's name appended; its
 *       {@code seed} is its index, so every camera shows different shapes.</li>
 * </ul>
 * Then the flags override the file: every camera's {@code width}, {@code height}, {@code fps} and
 * {@code frames}; every snapshot sink's {@code every} and {@code directory}; the cameras'
 * executor gets one thread per camera (a camera parks between frames), the {@code default}
 * executor {@code --workers} threads. Everything else (queue sizes, the flow limiters, the
 * schedule order, the other options) is the file's.
 *
 * <p>The edits are made on the text format's own message, read with protobuf's
 * {@link TextFormat} and printed back for {@link GraphConfigText#parse}; the original is parsed
 * with {@code GraphConfigText} first, so its errors carry its own lines.
 */
final class DemoGraph
{
    /** The built-in graph, a classpath resource (a copy of the repository's graphs/camera_ingest.pbtxt). */
    static final String RESOURCE = "/graphs/camera_ingest.pbtxt";
    static final String CAMERA = "SyntheticCameraCalculator";
    static final String SNAPSHOTS = "SnapshotSinkCalculator";

    /**
     * One camera's chain as the demo measures it.
     *
     * @param camera       the camera node's name.
     * @param cameraStream the stream the camera emits.
     * @param endStream    the stream the chain's snapshot sink reads: the measuring point.
     */
    record Chain(String camera, String cameraStream, String endStream)
    {
    }

    /**
     * The flags that override the file.
     *
     * @param cameras       number of cameras.
     * @param width         frame width.
     * @param height        frame height.
     * @param fps           frames per second, 0 for as fast as possible.
     * @param frames        frames per camera, 0 for no limit.
     * @param snapshotEvery every Nth frame to a PNG.
     * @param snapshots     the PNG directory.
     * @param workers       threads of the default executor.
     */
    record Settings(
        int cameras, long width, long height, double fps, long frames, long snapshotEvery, Path snapshots, int workers)
    {
    }

    /**
     * Real video instead of the synthetic cameras, and recording: {@code scripts/demo.sh --source URL
     * --record DIR}.
     *
     * @param sources        one url per camera (each camera node becomes a {@code VideoSourceCalculator}
     *                       reading it as RGBA32); empty keeps the synthetic cameras.
     * @param record         a directory for each chain's annotated video as MP4 clip segments
     *                       ({@code VideoSinkCalculator}), or null for none.
     * @param segmentSeconds the clip length.
     */
    record Video(List<String> sources, Path record, double segmentSeconds)
    {
        /** Synthetic cameras, no recording. */
        static final Video NONE = new Video(List.of(), null, 60);
    }

    static final String VIDEO_SOURCE = "VideoSourceCalculator";
    static final String VIDEO_SINK = "VideoSinkCalculator";
    static final String COLOR_CONVERT = "ColorConvertCalculator";
    static final String PASS_THROUGH = "PassThroughCalculator";

    private final String source;
    private final GraphConfig config;
    private final List<Chain> chains;
    private final String text;

    private DemoGraph(final String source, final GraphConfig config, final List<Chain> chains, final String text)
    {
        this.source = source;
        this.config = config;
        this.chains = chains;
        this.text = text;
    }

    /** The graph as the demo runs it, in the text format ({@link DemoSplit} cuts it in two). */
    String text()
    {
        return text;
    }

    /** Where the graph came from, with the demo's camera count: for messages. */
    String source()
    {
        return source;
    }

    GraphConfig config()
    {
        return config;
    }

    List<Chain> chains()
    {
        return chains;
    }

    /**
     * The built-in graph's text.
     *
     * @return the text of {@link #RESOURCE}.
     */
    static String builtInText()
    {
        try (InputStream in = DemoGraph.class.getResourceAsStream(RESOURCE))
        {
            if (in == null)
            {
                throw new IllegalStateException("resource " + RESOURCE + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot read resource " + RESOURCE, ex);
        }
    }

    /**
     * Applies the demo's flags to a graph's text.
     *
     * @param text     the graph's text.
     * @param source   where it came from, for messages.
     * @param settings the flags.
     * @return the demo graph.
     * @throws CommandFailure if the text is not a graph the demo can use.
     */
    static DemoGraph of(final String text, final String source, final Settings settings)
    {
        return of(text, source, settings, Video.NONE);
    }

    /**
     * Applies the demo's flags to a graph's text, with real video sources and recording.
     *
     * @param text     the graph's text.
     * @param source   where it came from, for messages.
     * @param settings the flags; {@code cameras} must equal the number of sources when there are any.
     * @param video    the sources and the recording.
     * @return the demo graph.
     * @throws CommandFailure if the text is not a graph the demo can use.
     */
    static DemoGraph of(final String text, final String source, final Settings settings, final Video video)
    {
        final List<Chain> chains = new ArrayList<>();
        final CalculatorGraphConfig.Builder edited = edit(text, source, settings, video, chains);
        final String demoSource = source + " (as the demo runs it: " + settings.cameras() + " camera" +
            (settings.cameras() == 1 ? "" : "s") + ")";
        try
        {
            final String demoText = TextFormat.printer().printToString(edited.build());
            return new DemoGraph(demoSource, GraphConfigText.parse(demoText, demoSource), chains, demoText);
        }
        catch (final GraphConfigException ex)
        {
            throw GraphFiles.invalid(demoSource, ex);
        }
    }

    /** The file's text with the flags applied, as its protobuf message; {@code chains} gets the cameras' chains. */
    static CalculatorGraphConfig.Builder edit(
        final String text, final String source, final Settings settings, final Video video, final List<Chain> chains)
    {
        final Topology topology;
        try
        {
            topology = new Topology(GraphConfigText.parse(text, source));
        }
        catch (final GraphConfigException ex)
        {
            throw GraphFiles.invalid(source, ex);
        }
        final List<String> cameras = new ArrayList<>();
        for (final NodeConfig node : topology.config().nodes())
        {
            if (node.calculator().equals(CAMERA))
            {
                cameras.add(node.name());
            }
        }
        if (cameras.isEmpty())
        {
            throw new CommandFailure("the demo graph '" + source + "' has no " + CAMERA + " node to take as a camera");
        }
        final List<Set<String>> chainNodes = chainNodes(topology, source, cameras);

        final CalculatorGraphConfig.Builder proto = CalculatorGraphConfig.newBuilder();
        try
        {
            TextFormat.merge(text, proto);
        }
        catch (final TextFormat.ParseException ex)
        {
            throw new CommandFailure(source + ":" + ex.getLine() + ": " + ex.getMessage()); // parsed above: not reached
        }
        final int kept = Math.min(settings.cameras(), cameras.size());
        final CalculatorGraphConfig.Builder edited = withoutCameras(proto, topology, chainNodes, kept);

        for (int c = 0; c < kept; c++)
        {
            chains.add(chain(topology, source, cameras.get(c), chainNodes.get(c), UnaryOperator.identity()));
        }
        final String template = cameras.get(0);
        final Set<String> templateNodes = chainNodes.get(0);
        final Set<String> templateStreams = outputsOf(topology, templateNodes);
        for (int c = cameras.size(); c < settings.cameras(); c++)
        {
            final String camera = template.replaceFirst("\\d+$", "") + c;
            final UnaryOperator<String> rename = name -> name.startsWith(template) ?
                camera + name.substring(template.length()) : name + "_" + camera;
            cloneChain(proto, edited, templateNodes, templateStreams, rename, c);
            chains.add(chain(topology, source, template, templateNodes, rename));
        }
        applySettings(edited, settings, video);
        if (video.record() != null)
        {
            record(edited, video, chains);
        }
        return edited;
    }

    /** Each camera's chain: the nodes downstream of it, which no other camera may reach. */
    private static List<Set<String>> chainNodes(
        final Topology topology, final String source, final List<String> cameras)
    {
        final List<Set<String>> chainNodes = new ArrayList<>();
        final Map<String, String> chainOf = new HashMap<>();
        for (final String camera : cameras)
        {
            final Set<String> chain = topology.downstreamOf(camera);
            for (final String node : chain)
            {
                final String other = chainOf.put(node, camera);
                if (other != null)
                {
                    throw new CommandFailure("the demo graph '" + source + "': node '" + node + "' is downstream of " +
                        "cameras '" + other + "' and '" + camera + "'; the demo needs each camera's chain on its own");
                }
            }
            chainNodes.add(chain);
            snapshotSink(topology, source, camera, chain);
        }
        return chainNodes;
    }

    /** The graph without the chains of the cameras after the first {@code kept}, and their streams. */
    private static CalculatorGraphConfig.Builder withoutCameras(
        final CalculatorGraphConfig.Builder proto,
        final Topology topology,
        final List<Set<String>> chainNodes,
        final int kept)
    {
        final Set<String> dropped = new HashSet<>();
        for (int c = kept; c < chainNodes.size(); c++)
        {
            dropped.addAll(chainNodes.get(c));
        }
        final Set<String> droppedStreams = outputsOf(topology, dropped);
        final CalculatorGraphConfig.Builder edited = proto.clone().clearNode().clearOutputStream()
            .clearStreamQueueSize();
        for (final Node node : proto.getNodeList())
        {
            if (!dropped.contains(node.getName()))
            {
                edited.addNode(node);
            }
        }
        for (final String output : proto.getOutputStreamList())
        {
            if (!droppedStreams.contains(output))
            {
                edited.addOutputStream(output);
            }
        }
        for (final StreamQueueSize size : proto.getStreamQueueSizeList())
        {
            if (!droppedStreams.contains(size.getStream()))
            {
                edited.addStreamQueueSize(size);
            }
        }
        return edited;
    }

    /** The flags applied to the cameras, the gray conversions, the snapshot sinks and the executors. */
    private static void applySettings(
        final CalculatorGraphConfig.Builder edited, final Settings settings, final Video video)
    {
        final Set<String> cameraExecutors = new LinkedHashSet<>();
        int cameraIndex = 0;
        for (int n = 0; n < edited.getNodeCount(); n++)
        {
            final Node.Builder node = edited.getNodeBuilder(n);
            if (node.getCalculator().equals(CAMERA) && !video.sources().isEmpty())
            {
                // a real camera in the synthetic one's place: same node, same output stream
                node.setCalculator(VIDEO_SOURCE).clearOption();
                setOption(node, "url", video.sources().get(cameraIndex++));
                // ffmpeg hands over gray, 1 byte a pixel where RGBA was 4: the chain's gray
                // conversion becomes a pass-through (below)
                setOption(node, "pixel_format", "GRAY8");
                setOption(node, "realtime", Boolean.TRUE);
                if (video.record() != null)
                {
                    // the camera's own stream, copied, in segments named by camera and start
                    setOption(node, "record_dir", video.record().toString());
                    setOption(node, "record_segment_seconds", video.segmentSeconds());
                }
                cameraExecutors.add(node.hasExecutor() ? node.getExecutor() : GraphConfig.DEFAULT_EXECUTOR);
            }
            else if (node.getCalculator().equals(COLOR_CONVERT) && !video.sources().isEmpty() &&
                node.getOptionList().stream().anyMatch(o -> o.getName().equals("conversion") &&
                    o.getStringValue().equals("RGBA_TO_GRAY8")))
            {
                node.setCalculator(PASS_THROUGH).clearOption(); // the frames are gray already
            }
            else if (node.getCalculator().equals(CAMERA))
            {
                setOption(node, "width", settings.width());
                setOption(node, "height", settings.height());
                setOption(node, "fps", settings.fps());
                setOption(node, "frames", settings.frames());
                cameraExecutors.add(node.hasExecutor() ? node.getExecutor() : GraphConfig.DEFAULT_EXECUTOR);
            }
            else if (node.getCalculator().equals(SNAPSHOTS))
            {
                setOption(node, "every", settings.snapshotEvery());
                setOption(node, "directory", settings.snapshots().toString());
            }
        }
        cameraExecutors.remove(GraphConfig.DEFAULT_EXECUTOR);
        for (final String executor : cameraExecutors)
        {
            executor(edited, executor).setNumThreads(settings.cameras());
        }
        executor(edited, GraphConfig.DEFAULT_EXECUTOR).setNumThreads(settings.workers());
    }

    /**
     * Each chain's motion view (what the snapshot sink gets: gray, half size, boxes drawn),
     * re-encoded into MP4 clips; a real camera's own stream is recorded by its source.
     */
    private static void record(
        final CalculatorGraphConfig.Builder edited, final Video video, final List<Chain> chains)
    {
        for (final Chain chain : chains)
        {
            final Node.Builder sink = edited.addNodeBuilder().setName(chain.camera() + "_motion_record")
                .setCalculator(VIDEO_SINK).setExecutor("recorder").addInputStream(chain.endStream());
            setOption(sink, "url", video.record().resolve(chain.camera() + "-motion.mp4").toString());
            setOption(sink, "segment_seconds", video.segmentSeconds());
        }
        executor(edited, "recorder").setNumThreads(Math.min(chains.size(), 4));
    }

    private static String snapshotSink(
        final Topology topology, final String source, final String camera, final Set<String> chain)
    {
        String end = null;
        for (final String node : chain)
        {
            final NodeConfig config = topology.nodes().get(node);
            if (config.calculator().equals(SNAPSHOTS))
            {
                if (end != null || config.inputStreams().size() != 1)
                {
                    end = null;
                    break;
                }
                end = Topology.streamName(config.inputStreams().get(0));
            }
        }
        if (end == null)
        {
            throw new CommandFailure("the demo graph '" + source + "': camera '" + camera + "' must lead to exactly " +
                "one " + SNAPSHOTS + " with one input, where the demo measures its frames");
        }
        return end;
    }

    private static Chain chain(
        final Topology topology,
        final String source,
        final String camera,
        final Set<String> chain,
        final UnaryOperator<String> rename)
    {
        final String cameraStream = Topology.streamName(topology.nodes().get(camera).outputStreams().get(0));
        return new Chain(rename.apply(camera), rename.apply(cameraStream),
            rename.apply(snapshotSink(topology, source, camera, chain)));
    }

    private static Set<String> outputsOf(final Topology topology, final Set<String> nodes)
    {
        final Set<String> streams = new HashSet<>();
        for (final String node : nodes)
        {
            for (final String spec : topology.nodes().get(node).outputStreams())
            {
                streams.add(Topology.streamName(spec));
            }
        }
        return streams;
    }

    /** Adds a renamed copy of the template chain: node names, and the streams the chain makes. */
    private static void cloneChain(
        final CalculatorGraphConfig.Builder proto,
        final CalculatorGraphConfig.Builder edited,
        final Set<String> templateNodes,
        final Set<String> templateStreams,
        final UnaryOperator<String> rename,
        final int seed)
    {
        final UnaryOperator<String> spec = s ->
        {
            final int colon = s.lastIndexOf(':');
            final String name = s.substring(colon + 1);
            return templateStreams.contains(name) ? s.substring(0, colon + 1) + rename.apply(name) : s;
        };
        for (final Node node : proto.getNodeList())
        {
            if (!templateNodes.contains(node.getName()))
            {
                continue;
            }
            final Node.Builder copy = renamed(node, rename, spec);
            if (copy.getCalculator().equals(CAMERA))
            {
                setOption(copy, "seed", (long)seed);
            }
            edited.addNode(copy);
        }
        for (final String output : proto.getOutputStreamList())
        {
            if (templateStreams.contains(output))
            {
                edited.addOutputStream(rename.apply(output));
            }
        }
        for (final StreamQueueSize size : proto.getStreamQueueSizeList())
        {
            if (templateStreams.contains(size.getStream()))
            {
                edited.addStreamQueueSize(size.toBuilder().setStream(rename.apply(size.getStream())));
            }
        }
    }

    /** A copy of the node under its new name, its streams renamed by {@code spec} ({@code TAG:index:name}). */
    static Node.Builder renamed(final Node node, final UnaryOperator<String> rename, final UnaryOperator<String> spec)
    {
        final Node.Builder copy = node.toBuilder().setName(rename.apply(node.getName()))
            .clearInputStream().clearOutputStream().clearInputStreamInfo();
        node.getInputStreamList().forEach(s -> copy.addInputStream(spec.apply(s)));
        node.getOutputStreamList().forEach(s -> copy.addOutputStream(spec.apply(s)));
        for (final InputStreamInfo info : node.getInputStreamInfoList())
        {
            copy.addInputStreamInfo(info.toBuilder().setTagIndex(spec.apply(info.getTagIndex())));
        }
        return copy;
    }

    static Executor.Builder executor(final CalculatorGraphConfig.Builder proto, final String name)
    {
        for (int e = 0; e < proto.getExecutorCount(); e++)
        {
            final Executor.Builder executor = proto.getExecutorBuilder(e);
            final String executorName = executor.getName().isEmpty() ? GraphConfig.DEFAULT_EXECUTOR : executor.getName();
            if (executorName.equals(name))
            {
                return executor;
            }
        }
        return proto.addExecutorBuilder().setName(name).setIdleStrategy(IdleStrategy.PARK);
    }

    static void setOption(final Node.Builder node, final String name, final Object value)
    {
        final Option.Builder option = Option.newBuilder().setName(name);
        if (value instanceof Long)
        {
            option.setIntValue((Long)value);
        }
        else if (value instanceof Double)
        {
            option.setDoubleValue((Double)value);
        }
        else if (value instanceof Boolean)
        {
            option.setBoolValue((Boolean)value);
        }
        else
        {
            option.setStringValue(value.toString());
        }
        for (int o = 0; o < node.getOptionCount(); o++)
        {
            if (node.getOption(o).getName().equals(name))
            {
                node.setOption(o, option);
                return;
            }
        }
        node.addOption(option);
    }
}
