package dev.framewire.core;

import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PixelFormat;
import dev.framewire.offheap.PoolContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A memory budget too small to carry one frame through the graph is found when the graph is
 * validated, naming the node, the stream, the frame size and the budget: frames are followed from
 * sources whose options fix their size down through the transforms that derive theirs (resize,
 * colour conversion, in-place filters), each counted at the pool's slot (a power of two). A large
 * enough budget runs, and nodes whose frame sizes are unknown before they run are not checked.
 */
class FrameBudgetCheckTest
{
    private static final long MIB = 1L << 20;

    @TempDir
    Path dir;

    private static GraphConfig camera(final long width, final long height, final long budget)
    {
        return GraphConfig.builder().memoryBudget(budget)
            .node("cam", n -> n.calculator("SyntheticCameraCalculator").outputStream("FRAME:frames")
                .option("width", width).option("height", height).option("frames", 3L).option("fps", 0.0))
            .node("resize", n -> n.calculator("ResizeCalculator").inputStream("frames").outputStream("small")
                .option("factor", 0.5))
            .outputStream("small").build();
    }

    /** camera 640x360 RGBA32 -> resize x2 -> RGBA to RGB24, the end stream 'rgb'. */
    private static GraphConfig chain(final long budget)
    {
        return GraphConfig.builder().memoryBudget(budget)
            .node("cam", n -> n.calculator("SyntheticCameraCalculator").outputStream("frames")
                .option("width", 640L).option("height", 360L).option("frames", 3L).option("fps", 0.0))
            .node("resize", n -> n.calculator("ResizeCalculator").inputStream("frames").outputStream("big")
                .option("factor", 2.0))
            .node("cc", n -> n.calculator("ColorConvertCalculator").inputStream("big").outputStream("rgb")
                .option("conversion", "RGBA_TO_RGB24"))
            .outputStream("rgb").build();
    }

    /** A graph with a budget and one 1280x720 frame from camera 'cam' on stream 'frames', to build on. */
    private static GraphConfig.Builder hdCamera(final long budget)
    {
        return GraphConfig.builder().memoryBudget(budget)
            .node("cam", n -> n.calculator("SyntheticCameraCalculator").outputStream("frames")
                .option("width", 1280L).option("height", 720L).option("frames", 1L));
    }

    private static List<String> errors(final GraphConfig config)
    {
        return assertThrows(GraphConfigException.class, () -> new Graph(config).close()).errors();
    }

    /** Validation finds {@code count} errors, the one at {@code index} starting with {@code start}. */
    private static void assertError(final GraphConfig config, final int count, final int index, final String start)
    {
        final List<String> errors = errors(config);
        assertEquals(count, errors.size(), errors.toString());
        assertTrue(errors.get(index).startsWith(start), errors.toString());
    }

    @Test
    void aBudgetTooSmallForOneFrameFailsAtStartNamingNodeStreamSizeAndBudget()
    {
        // 1920 x 1080 RGBA32 is 8,294,400 bytes, an 8 MiB slot, and the camera keeps a background frame
        // besides the one it fills: 16 MiB, which a budget of 22,369,622 bytes (hard limit 16 MiB) holds. The
        // resize's 960x540 output (2,073,600 bytes, a 2 MiB slot) is held with its input: 10 MiB
        final List<String> errors = errors(camera(1920, 1080, 4 * MIB));
        assertEquals(2, errors.size(), errors.toString());
        assertEquals("node 'cam': one frame on stream 'frames' is 8294400 bytes (1920x1080 RGBA32) (a 8388608 " +
            "byte slot of the pool), with the 1 more it keeps for the run, 16777216 bytes at once, but " +
            "memory_budget_bytes 4194304 gives a hard limit of 3145728 bytes (75 %); valid is memory_budget_bytes of " +
            "at least 22369622, or smaller frames",
            errors.get(0));
        assertEquals("node 'resize': one frame on stream 'small' is 2073600 bytes (960x540 RGBA32) (a 2097152 byte " +
            "slot of the pool), held with its input frame on stream 'frames' of 8294400 bytes (1920x1080 RGBA32) (a " +
            "8388608 byte slot), 10485760 bytes at once, but memory_budget_bytes 4194304 gives a hard limit of " +
            "3145728 bytes (75 %); valid is memory_budget_bytes of at least 22369622 (for every node of the graph), or " +
            "smaller frames", errors.get(1));
    }

    @Test
    void theBudgetItCallsValidPasses()
    {
        try (Graph graph = new Graph(camera(1920, 1080, 22_369_622)))
        {
            assertEquals(2, graph.config().nodes().size());
        }
        final List<String> errors = errors(camera(1920, 1080, 22_369_621));
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).startsWith("node 'cam': "), errors.toString());
    }

    @Test
    void framesCountAtTheirSlotNotTheirBytes()
    {
        // 1024 x 768 RGBA32 is 3,145,728 bytes, and the camera holds two (its background and the one it fills):
        // 6 MiB, under the 7,077,888 hard limit of a 9 MiB budget; but each takes a 4 MiB slot
        final List<String> errors = errors(camera(1024, 768, 9 * MIB));
        assertEquals(List.of("node 'cam': one frame on stream 'frames' is 3145728 bytes (1024x768 RGBA32) (a 4194304 " +
            "byte slot of the pool), with the 1 more it keeps for the run, 8388608 bytes at once, but " +
            "memory_budget_bytes 9437184 gives a hard limit of 7077888 bytes (75 %); valid is memory_budget_bytes of " +
            "at least 11184811, or smaller frames"), errors);
    }

    @Test
    void aChainOfTransformsDerivesEachFrameFromItsInputs()
    {
        // cam 640x360 RGBA32 (921,600 B, 1 MiB slot); resize x2: 1280x720 RGBA32 (3,686,400 B, 4 MiB slot), 5 MiB
        // with its input; cc: 1280x720 RGB24 (2,764,800 B, 4 MiB slot), 8 MiB with its input: past the 6 MiB hard
        // limit of an 8 MiB budget, where the others fit
        final List<String> errors = errors(chain(8 * MIB));
        assertEquals(List.of("node 'cc': one frame on stream 'rgb' is 2764800 bytes (1280x720 RGB24) (a 4194304 byte " +
            "slot of the pool), held with its input frame on stream 'big' of 3686400 bytes (1280x720 RGBA32) (a " +
            "4194304 byte slot), 8388608 bytes at once, but memory_budget_bytes 8388608 gives a hard limit of " +
            "6291456 bytes (75 %); valid is memory_budget_bytes of at least 11184811, or smaller frames"), errors);
        try (Graph graph = new Graph(chain(11_184_811)))
        {
            assertEquals(3, graph.config().nodes().size());
        }
    }

    @Test
    void aBudgetThatHoldsTheChainRunsIt() throws Exception
    {
        final List<String> frames = new CopyOnWriteArrayList<>();
        try (Graph graph = new Graph(chain(64 * MIB)))
        {
            graph.observe("rgb", p ->
            {
                final Payload frame = p.payload();
                frames.add(frame.width() + "x" + frame.height() + " " + frame.format());
            });
            graph.start();
            assertTrue(graph.awaitDone(60, TimeUnit.SECONDS), "graph did not finish");
            graph.waitUntilDone();
        }
        assertEquals(List.of("1280x720 RGB24", "1280x720 RGB24", "1280x720 RGB24"), frames);
    }

    @Test
    void theFramesValidationDerivesAreTheFramesThatCome() throws Exception
    {
        // odd sizes and a factor that rounds: what the rules derive along the edges is what the calculators make
        final Function<Long, GraphConfig> graph = budget -> GraphConfig.builder().memoryBudget(budget)
            .node("cam", n -> n.calculator("SyntheticCameraCalculator").outputStream("frames")
                .option("width", 333L).option("height", 199L).option("frames", 2L).option("fps", 0.0))
            .node("resize", n -> n.calculator("ResizeCalculator").inputStream("frames").outputStream("small")
                .option("factor", 0.37))
            .node("bright", n -> n.calculator("BrightnessContrastCalculator").inputStream("small")
                .outputStream("bright").option("contrast", 1.5))
            .node("resize2", n -> n.calculator("ResizeCalculator").inputStream("bright").outputStream("wide")
                .option("width", 301L))
            .node("cc", n -> n.calculator("ColorConvertCalculator").inputStream("wide").outputStream("gray"))
            .outputStream("gray").build();
        final Map<String, String> declared = new TreeMap<>();
        for (final String error : errors(graph.apply(1024L)))
        {
            final Matcher m = Pattern.compile("on stream '(\\w+)' is \\d+ bytes \\(([^)]+)\\)").matcher(error);
            assertTrue(m.find(), error);
            declared.put(m.group(1), m.group(2));
        }
        assertEquals(Map.of("frames", "333x199 RGBA32", "small", "123x74 RGBA32", "wide", "301x37 RGBA32",
            "gray", "301x37 GRAY8"), declared);
        final Map<String, String> came = new ConcurrentSkipListMap<>();
        try (Graph running = new Graph(graph.apply(64 * MIB)))
        {
            for (final String stream : declared.keySet())
            {
                running.observe(stream, p -> came.put(stream, p.payload().width() + "x" + p.payload().height() + " " +
                    p.payload().format()));
            }
            running.start();
            assertTrue(running.awaitDone(60, TimeUnit.SECONDS), "graph did not finish");
            running.waitUntilDone();
        }
        assertEquals(declared, came);
    }

    @Test
    void anInPlaceFilterPassesItsInputFrameOn()
    {
        // brightness works in place: it takes no slot, and the resize below it sees the camera's frame
        final GraphConfig config = hdCamera(16 * MIB)
            .node("bright", n -> n.calculator("BrightnessContrastCalculator").inputStream("frames")
                .outputStream("bright").option("brightness", 10L))
            .node("resize", n -> n.calculator("ResizeCalculator").inputStream("bright").outputStream("big")
                .option("factor", 2.0))
            .outputStream("big").build();
        assertError(config, 1, 0, "node 'resize': one frame on stream 'big' is 14745600 bytes (2560x1440 RGBA32) (a " +
            "16777216 byte slot of the pool), held with its input frame on stream 'bright' of 3686400 bytes (1280x720 " +
            "RGBA32) (a 4194304 byte slot), 20971520 bytes at once");
    }

    @Test
    void aFlowLimiterOfOneStreamPassesItsFramesOn()
    {
        // the demo graph's shape: camera -> flow limiter (FINISHED from the end) -> gray -> resize; the conversion
        // below the limiter sees the camera's frame: 4 MiB + 1 MiB (1280x720 GRAY8), past a 4.5 MiB hard limit
        final GraphConfig config = hdCamera(6 * MIB)
            .node("limit", n -> n.calculator("FlowLimiterCalculator")
                .inputStream("frames", "FINISHED:small").backEdge("FINISHED").outputStream("limited"))
            .node("gray", n -> n.calculator("ColorConvertCalculator").inputStream("limited").outputStream("gray"))
            .node("resize", n -> n.calculator("ResizeCalculator").inputStream("gray").outputStream("small"))
            .outputStream("small").build();
        // the camera's two 4 MiB slots are the first error
        assertError(config, 2, 1, "node 'gray': one frame on stream 'gray' is 921600 bytes (1280x720 GRAY8) (a " +
            "1048576 byte slot of the pool), held with its input frame on stream 'limited' of 3686400 bytes (1280x720 " +
            "RGBA32) (a 4194304 byte slot), 5242880 bytes at once");
    }

    @Test
    void aNodeMustHoldItsInputFrameWhileItFillsItsOutput()
    {
        // 640 x 360 RGBA32 is 921,600 bytes (a 1 MiB slot, 2 MiB with the camera's background), the filter's
        // 3 MiB a 4 MiB slot, which fits the 4.5 MiB hard limit of a 6 MiB budget; the two together do not
        final GraphConfig config = GraphConfig.builder().memoryBudget(6 * MIB)
            .node("cam", n -> n.calculator("SyntheticCameraCalculator").outputStream("frames")
                .option("width", 640L).option("height", 360L).option("frames", 1L))
            .node("filter", n -> n.calculator(ThreeMegabyteFilter::new).inputStream("frames").outputStream("out"))
            .outputStream("out").build();
        final List<String> errors = errors(config);
        assertEquals(1, errors.size(), errors.toString());
        final String error = errors.get(0);
        assertTrue(error.startsWith("node 'filter': one frame on stream 'out' is 3145728 bytes (a 4194304 byte slot " +
            "of the pool), held with its input frame on stream 'frames' of 921600 bytes (640x360 RGBA32) (a 1048576 " +
            "byte slot), 5242880 bytes at once"), error);
        assertTrue(error.contains("hard limit of 4718592 bytes"), error);
    }

    /** A node that declares 3 MiB frames on its output; never run. */
    private static final class ThreeMegabyteFilter implements Calculator
    {
        @Override
        public void contract(final Contract contract)
        {
            contract.outputFrameBytes((node, options) -> 3L << 20);
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            throw new UnsupportedOperationException("validation only");
        }
    }

    @Test
    void aFrameOverThePoolsLargestSlotIsNamed()
    {
        // 8192 x 4096 RGBA32 is 128 MiB; the default pool's largest slot is 64 MiB
        final List<String> errors = errors(camera(8192, 4096, 0));
        assertEquals(List.of("node 'cam': one frame on stream 'frames' is 134217728 bytes (8192x4096 RGBA32), more " +
            "than the pool's largest slot of 67108864 bytes; valid is a frame of at most 67108864 bytes, or a pool " +
            "with larger slots (new Graph(config, new PayloadPool(new PoolContext().maxSlotBytes(...))), a power of " +
            "two)"), errors);
    }

    @Test
    void aGivenPoolsBudgetIsTheOneChecked()
    {
        // the config's 4 MiB would not hold a 1080p frame; the pool the graph runs over does
        try (PayloadPool pool = new PayloadPool(new PoolContext().maxBytes(64 * MIB));
             Graph graph = new Graph(camera(1920, 1080, 4 * MIB), pool))
        {
            assertEquals(2, graph.config().nodes().size());
        }
        try (PayloadPool pool = new PayloadPool(new PoolContext().maxBytes(12 * MIB)))
        {
            final GraphConfigException ex = assertThrows(GraphConfigException.class,
                () -> new Graph(camera(1920, 1080, 512 * MIB), pool).close());
            assertTrue(ex.errors().get(0).contains("but the pool's budget 12582912 gives a hard limit of 9437184 " +
                "bytes (75 %); valid is the pool's budget of at least 22369622"), ex.errors().toString());
        }
    }

    @Test
    void aSubgraphAddedAtRunTimeIsCheckedAgainstThePoolTheGraphRunsOver() throws Exception
    {
        // a 1080p camera (two 8 MiB slots) added to a graph whose config says 4 MiB but whose pool has 64 MiB
        final GraphConfig base = GraphConfig.builder().memoryBudget(4 * MIB).inputStream("in")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
            .outputStream("out").build();
        final GraphConfig camera = GraphConfig.builder().type("BigCamera")
            .node("cam", n -> n.calculator("SyntheticCameraCalculator").outputStream("frames")
                .option("width", 1920L).option("height", 1080L).option("frames", 1L).option("fps", 0.0))
            .outputStream("frames").build();
        try (PayloadPool pool = new PayloadPool(new PoolContext().maxBytes(64 * MIB)))
        {
            try (Graph graph = new Graph(base, pool))
            {
                graph.start();
                graph.addSubgraph("big", camera, Map.of()).get(30, TimeUnit.SECONDS);
                graph.closeAllInputs();
                assertTrue(graph.awaitDone(30, TimeUnit.SECONDS), "graph did not finish");
                graph.waitUntilDone();
            }
        }
        try (PayloadPool pool = new PayloadPool(new PoolContext().maxBytes(16 * MIB));
             Graph graph = new Graph(base, pool))
        {
            graph.start();
            final GraphConfigException ex = assertThrows(GraphConfigException.class,
                () -> graph.addSubgraph("big", camera, Map.of()));
            assertTrue(ex.errors().get(0).startsWith("subgraph 'big': node 'big__cam': one frame on stream " +
                "'big__frames' is 8294400 bytes (1920x1080 RGBA32)"), ex.errors().toString());
            assertTrue(ex.errors().get(0).contains("but the pool's budget 16777216 gives a hard limit of 12582912"),
                ex.errors().toString());
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    @Test
    void sourcesWhoseOptionsFixTheirSizeAreChecked()
    {
        // a video source scaled to 1920x1080 RGB24 (6,220,800 B, an 8 MiB slot), a raw video file of 1920x1080 gray
        // frames (2,073,600 B, a 2 MiB slot): past the 1.5 MiB hard limit of a 2 MiB budget, without opening either
        final GraphConfig config = GraphConfig.builder().memoryBudget(2 * MIB)
            .node("video", n -> n.calculator("VideoSourceCalculator").outputStream("VIDEO:frames")
                .option("url", dir.resolve("in.mp4").toString()).option("width", 1920L).option("height", 1080L))
            .node("raw", n -> n.calculator("RawVideoReaderCalculator").outputStream("gray")
                .option("path", dir.resolve("in.raw").toString()).option("pix_fmt", "gray")
                .option("width", 1920L).option("height", 1080L))
            .outputStream("frames").outputStream("gray").build();
        final List<String> errors = errors(config);
        assertEquals(2, errors.size(), errors.toString());
        assertTrue(errors.get(0).startsWith("node 'video': one frame on stream 'frames' is 6220800 bytes (1920x1080 " +
            "RGB24) (a 8388608 byte slot of the pool)"), errors.toString());
        assertTrue(errors.get(1).startsWith("node 'raw': one frame on stream 'gray' is 2073600 bytes (1920x1080 " +
            "GRAY8) (a 2097152 byte slot of the pool)"), errors.toString());
    }

    @Test
    void nodesWhoseFrameSizesAreUnknownAreNotChecked()
    {
        // frames from a graph input, an image folder or a video at the stream's own size: known only when they
        // come, so a tiny budget passes validation, and so do the transforms below them
        final GraphConfig config = GraphConfig.builder().memoryBudget(1024)
            .inputStream("frames")
            .node("resize", n -> n.calculator("ResizeCalculator").inputStream("frames").outputStream("small")
                .option("factor", 0.5))
            .node("folder", n -> n.calculator("ImageFolderSourceCalculator").outputStream("images")
                .option("directory", dir.toString()))
            .node("gray", n -> n.calculator("ColorConvertCalculator").inputStream("images").outputStream("gray"))
            .node("video", n -> n.calculator("VideoSourceCalculator").outputStream("VIDEO:video")
                .option("url", dir.resolve("in.mp4").toString()).option("width", 1920L))
            .node("half", n -> n.calculator("ResizeCalculator").inputStream("video").outputStream("half"))
            .outputStream("small").outputStream("gray").outputStream("half").build();
        try (Graph graph = new Graph(config))
        {
            assertEquals(5, graph.config().nodes().size());
        }
    }

    @Test
    void aFrameShapeCountsTheTightestStride()
    {
        assertEquals(1920L * 1080 * 3 / 2, new Contract.FrameShape(1920, 1080, PixelFormat.I420).bytes());
        assertThrows(IllegalArgumentException.class, () -> new Contract.FrameShape(0, 1080, PixelFormat.GRAY8));
    }
}
