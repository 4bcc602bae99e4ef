package dev.framewire.tools;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.NodeConfig;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoGraphTest
{
    /** The copy users see; surefire runs in tools/. */
    static final Path REPO_GRAPH = Path.of("..", "graphs", "camera_ingest.pbtxt");

    private static DemoGraph demo(final int cameras)
    {
        return DemoGraph.of(DemoGraph.builtInText(), "camera_ingest.pbtxt", new DemoGraph.Settings(cameras, 320, 240,
            30.0, 90, 15, Path.of("snaps"), 3));
    }

    @Test
    void theBuiltInGraphIsTheRepositorysFile() throws Exception
    {
        assertEquals(Files.readString(REPO_GRAPH), DemoGraph.builtInText(),
            "tools/src/main/resources/graphs/camera_ingest.pbtxt must be a copy of graphs/camera_ingest.pbtxt");
    }

    @Test
    void theDemosDefaultsAreTheFilesValues()
    {
        final CommandLine cli = FramewireCommand.commandLine();
        final CommandLine demo = cli.getSubcommands().get("demo");
        final Map<String, String> defaults = Map.of("--cameras", "4", "--width", "1280", "--height", "720",
            "--fps", "60", "--snapshot-every", "60", "--snapshots", "snapshots", "--workers", "2");
        defaults.forEach((option, value) ->
            assertEquals(value, demo.getCommandSpec().findOption(option).defaultValue(), option));
        final GraphConfig file = DemoGraph.of(DemoGraph.builtInText(), "f", new DemoGraph.Settings(4, 1280, 720, 60.0,
            1200, 60, Path.of("snapshots"), 2)).config();
        final GraphConfig original = dev.framewire.core.GraphConfigText.parse(DemoGraph.builtInText(), "f");
        assertEquals(dev.framewire.core.GraphConfigText.write(original), dev.framewire.core.GraphConfigText.write(file),
            "the demo on its defaults runs the file as it is");
    }

    @Test
    void hotplugMakesACameraTemplateAndABaseGraphThatKeepsItsWorkers()
    {
        final DemoHotplugGraph hotplug = DemoHotplugGraph.of(DemoGraph.builtInText(), "camera_ingest.pbtxt",
            new DemoGraph.Settings(8, 320, 240, 30.0, 0, 15, Path.of("snaps"), 2));
        final GraphConfig template = hotplug.template();
        assertEquals(List.of("camera", "limiter", "gray", "half", "motion", "annotate", "snapshots"), names(template));
        assertEquals(List.of("camera", "annotated"), template.outputStreams());
        assertEquals("camera", hotplug.cameraStream());
        assertEquals("annotated", hotplug.endStream());
        assertTrue(template.inputStreams().isEmpty(), "the camera is the subgraph's source");
        assertTrue(template.executors().isEmpty(), "a template runs on the graph's executors");
        final NodeConfig camera = template.nodes().get(0);
        assertEquals("$seed", camera.options().get("seed"), "a parameter of the template");
        assertEquals(List.of("FRAME:moving", "BOXES:boxes"), template.nodes().get(5).inputStreams());

        final GraphConfig base = hotplug.base();
        final List<String> idle = new ArrayList<>();
        for (int w = 0; w < 8; w++)
        {
            idle.add("hold_camera_" + w);
        }
        idle.addAll(List.of("hold_default_0", "hold_default_1", "hold_snapshots_0"));
        assertEquals(idle, names(base), "one idle node per worker, no camera");
        assertEquals(List.of(DemoHotplugGraph.HOLD), base.inputStreams());
        assertEquals(8, base.executors().get("camera").workers());
        assertEquals(2, base.executors().get("default").workers());
    }

    @Test
    void fewerCamerasDropTheOtherChains()
    {
        final DemoGraph demo = demo(2);
        final List<String> names = names(demo.config());
        assertEquals(14, names.size(), names.toString());
        assertTrue(names.stream().allMatch(n -> n.startsWith("cam0") || n.startsWith("cam1")), names.toString());
        assertEquals(List.of(new DemoGraph.Chain("cam0", "cam0", "cam0_annotated"),
            new DemoGraph.Chain("cam1", "cam1", "cam1_annotated")), demo.chains());
        assertEquals(2, demo.config().executors().get("camera").workers());
        assertEquals(3, demo.config().executors().get("default").workers());
        final NodeConfig camera = node(demo.config(), "cam1");
        assertEquals(320L, camera.options().get("width"));
        assertEquals(240L, camera.options().get("height"));
        assertEquals(30.0, camera.options().get("fps"));
        assertEquals(90L, camera.options().get("frames"));
        assertEquals(1L, camera.options().get("seed"));
        final NodeConfig sink = node(demo.config(), "cam1_snapshots");
        assertEquals(15L, sink.options().get("every"));
        assertEquals("snaps", sink.options().get("directory"));
    }

    @Test
    void moreCamerasCopyTheFirstChainRenamed()
    {
        final DemoGraph demo = demo(6);
        final List<String> names = names(demo.config());
        assertEquals(42, names.size(), names.toString());
        assertEquals(new DemoGraph.Chain("cam5", "cam5", "cam5_annotated"), demo.chains().get(5));
        final NodeConfig limiter = node(demo.config(), "cam5_limiter");
        assertEquals(List.of("cam5", "FINISHED:cam5_annotated"), limiter.inputStreams());
        assertEquals(List.of("cam5_limited"), limiter.outputStreams());
        assertEquals(java.util.Set.of("FINISHED"), limiter.backEdges());
        assertEquals(2L, limiter.options().get("max_in_flight"));
        assertEquals(List.of("FRAME:cam5_moving", "BOXES:cam5_boxes"), node(demo.config(), "cam5_annotate")
            .inputStreams());
        assertEquals(5L, node(demo.config(), "cam5").options().get("seed"));
        assertEquals("camera", node(demo.config(), "cam5").executor());
        assertEquals(6, demo.config().executors().get("camera").workers());
        try (dev.framewire.core.Graph graph = GraphFiles.validate("demo", demo.config()))
        {
            assertNotNull(graph, "validates");
        }
    }

    @Test
    void aGraphWithoutCamerasIsRefused()
    {
        final CommandFailure ex = assertThrows(CommandFailure.class, () -> DemoGraph.of(Cli.countingGraph(3), "x",
            new DemoGraph.Settings(1, 2, 2, 1.0, 1, 1, Path.of("s"), 1)));
        assertTrue(ex.getMessage().contains("has no SyntheticCameraCalculator node"), ex.getMessage());
    }

    @Test
    void theDemoRunsAnotherGraphFile(@org.junit.jupiter.api.io.TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("bad.pbtxt");
        Files.writeString(file, "node { calculator: \"Nope\" }\n");
        final Cli.Result r = Cli.run("demo", "--graph", file.toString(), "--duration", "1");
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains(file + ":1:"), r.toString());
        assertTrue(r.err().contains("unknown calculator 'Nope'"), r.toString());
    }

    private static List<String> names(final GraphConfig config)
    {
        final List<String> names = new ArrayList<>();
        for (final NodeConfig node : config.nodes())
        {
            names.add(node.name());
        }
        return names;
    }

    private static NodeConfig node(final GraphConfig config, final String name)
    {
        for (final NodeConfig node : config.nodes())
        {
            if (node.name().equals(name))
            {
                return node;
            }
        }
        throw new AssertionError("no node " + name + " in " + names(config));
    }

    @Test
    void sourcesReplaceTheCamerasAndRecordAddsASinkPerChain()
    {
        final DemoGraph demo = DemoGraph.of(DemoGraph.builtInText(), "camera_ingest.pbtxt",
            new DemoGraph.Settings(2, 320, 240, 30.0, 90, 15, Path.of("snaps"), 2),
            new DemoGraph.Video(List.of("rtsp://127.0.0.1:8554/a", "/tmp/b.mp4"), Path.of("rec"), 30));
        final Map<String, NodeConfig> nodes = new java.util.HashMap<>();
        demo.config().nodes().forEach(n -> nodes.put(n.name(), n));
        assertEquals("VideoSourceCalculator", nodes.get("cam0").calculator());
        assertEquals("rtsp://127.0.0.1:8554/a", nodes.get("cam0").options().get("url"));
        assertEquals("/tmp/b.mp4", nodes.get("cam1").options().get("url"));
        assertEquals("GRAY8", nodes.get("cam0").options().get("pixel_format"), "ffmpeg hands over gray");
        assertEquals("PassThroughCalculator", nodes.get("cam0_gray").calculator(), "no RGBA to convert");
        assertEquals("rec", nodes.get("cam0").options().get("record_dir"), "the camera's own stream, copied");
        assertEquals(30.0, nodes.get("cam0").options().get("record_segment_seconds"));
        assertEquals("VideoSinkCalculator", nodes.get("cam1_motion_record").calculator());
        assertEquals(List.of("cam1_annotated"), nodes.get("cam1_motion_record").inputStreams());
        assertEquals(Path.of("rec", "cam1-motion.mp4").toString(), nodes.get("cam1_motion_record").options().get("url"));
        assertEquals(30.0, nodes.get("cam1_motion_record").options().get("segment_seconds"));
        assertFalse(nodes.containsKey("cam2"));
    }

    @Test
    void theVideoIngestGraphIsValid()
    {
        final int code = FramewireCommand.commandLine().execute("validate", Path.of("..", "graphs",
            "video_ingest.pbtxt").toString());
        assertEquals(0, code);
    }
}
