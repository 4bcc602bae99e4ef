package dev.framewire.core.calculators.image;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.OutputPoller;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.framewire.core.calculators.image.ImageTestSupport.Captured;
import static dev.framewire.core.calculators.image.ImageTestSupport.assertPixels;
import static dev.framewire.core.calculators.image.ImageTestSupport.capture;
import static dev.framewire.core.calculators.image.ImageTestSupport.gray;
import static dev.framewire.core.calculators.image.ImageTestSupport.oneNode;
import static dev.framewire.core.calculators.image.ImageTestSupport.padded;
import static dev.framewire.core.calculators.image.ImageTestSupport.rgb;
import static dev.framewire.core.calculators.image.ImageTestSupport.rgba;
import static dev.framewire.core.calculators.image.ImageTestSupport.run;
import static dev.framewire.core.calculators.image.ImageTestSupport.runFailing;
import static dev.framewire.core.calculators.image.ImageTestSupport.tightBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class BrightnessContrastCalculatorTest
{
    // out = clamp(round((v - 128) * 2 + 128 + 10)):
    // 0 -> -118 -> 0; 100 -> 82; 127 -> 136; 128 -> 138; 150 -> 182; 180 -> 242; 200 -> 282 -> 255; 255 -> 255
    private static final int[] IN = {0, 100, 127, 128, 150, 180, 200, 255};
    private static final int[] OUT = {0, 82, 136, 138, 182, 242, 255, 255};

    @Test
    void grayInPlace() throws Exception
    {
        final List<Captured> out = run(oneNode("BrightnessContrastCalculator", "brightness", 10, "contrast", 2.0),
            "out", gray(4, 2, IN));
        assertPixels(OUT, out.get(0).gray());
    }

    @Test
    void rgbaLeavesAlphaAlone() throws Exception
    {
        final List<Captured> out = run(oneNode("BrightnessContrastCalculator", "brightness", 10, "contrast", 2.0),
            "out", padded(rgba(2, 1, 0x647F9607, 0x00C8FFFF), 4));
        // (100, 127, 150, 7) -> (82, 136, 182, 7); (0, 200, 255, 255) -> (0, 255, 255, 255)
        assertPixels(new int[]{0x5288B607, 0x00FFFFFF}, out.get(0).rgba());
    }

    @Test
    void negativeBrightnessAndLowContrast() throws Exception
    {
        // round((v - 128) * 0.5 + 128 - 20): 0 -> 44; 100 -> 94; 255 -> 171.5 -> 172
        final List<Captured> out = run(oneNode("BrightnessContrastCalculator", "brightness", -20, "contrast", 0.5),
            "out", rgb(1, 1, 0x0064FF));
        assertPixels(new int[]{0x2C5EAC}, out.get(0).rgb());
    }

    @Test
    void sharedFrameIsCopiedNotChanged() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("bc", n -> n.calculator("BrightnessContrastCalculator").inputStream("in").outputStream("out")
                .option("brightness", 10).option("contrast", 2.0))
            .outputStream("out")
            .build();
        final List<Captured> out = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(config))
        {
            graph.observe("out", capture(out));
            final OutputPoller original = graph.poller("in"); // holds a reference until polled: the frame is shared
            graph.start();
            graph.addPacket("in", gray(4, 2, IN).make(graph.pool()), 0);
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(1, graph.pool().copies());
            assertTrue(original.next(1, TimeUnit.SECONDS));
            assertPixels(IN, new Captured(0, null, 4, 2, tightBytes(original.packet().payload())).gray());
        }
        assertPixels(OUT, out.get(0).gray());
    }

    @Test
    void neutralSettingsPassTheFrameWithoutCopy() throws Exception
    {
        final GraphConfig config = oneNode("BrightnessContrastCalculator");
        try (Graph graph = new Graph(config))
        {
            final List<Captured> out = Collections.synchronizedList(new ArrayList<>());
            graph.observe("out", capture(out));
            final OutputPoller original = graph.poller("in");
            graph.start();
            graph.addPacket("in", gray(4, 2, IN).make(graph.pool()), 0);
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(0, graph.pool().copies());
            assertPixels(IN, out.get(0).gray());
            assertTrue(original.next(1, TimeUnit.SECONDS));
        }
    }

    @Test
    void wrongPixelFormatNamesNodeAndFormat() throws Exception
    {
        final GraphException ex = runFailing(oneNode("BrightnessContrastCalculator", "brightness", 1),
            pool -> pool.acquireFrame(2, 2, dev.framewire.offheap.PixelFormat.NV12));
        final String message = ex.failures().get(0).cause().getMessage();
        assertTrue(message.contains("node 'node'") && message.contains("NV12 frame"), message);
    }
}
