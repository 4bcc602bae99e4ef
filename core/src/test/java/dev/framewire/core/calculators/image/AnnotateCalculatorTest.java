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
import static dev.framewire.core.calculators.image.ImageTestSupport.FrameMaker;
import static dev.framewire.core.calculators.image.ImageTestSupport.assertPixels;
import static dev.framewire.core.calculators.image.ImageTestSupport.boxes;
import static dev.framewire.core.calculators.image.ImageTestSupport.capture;
import static dev.framewire.core.calculators.image.ImageTestSupport.gray;
import static dev.framewire.core.calculators.image.ImageTestSupport.nv12;
import static dev.framewire.core.calculators.image.ImageTestSupport.padded;
import static dev.framewire.core.calculators.image.ImageTestSupport.rgba;
import static dev.framewire.core.calculators.image.ImageTestSupport.run;
import static dev.framewire.core.calculators.image.ImageTestSupport.tightBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class AnnotateCalculatorTest
{
    private static GraphConfig annotate(final Object... options)
    {
        return GraphConfig.builder()
            .inputStream("in", "boxes")
            .node("annotate", n ->
            {
                n.calculator("AnnotateCalculator").inputStream("FRAME:in", "BOXES:boxes").outputStream("out");
                for (int i = 0; i < options.length; i += 2)
                {
                    n.option((String)options[i], options[i + 1]);
                }
            })
            .outputStream("out")
            .build();
    }

    /** Frame i and box list i at timestamp i (a null box list: none at that timestamp). */
    private static List<Captured> run(
        final GraphConfig config,
        final FrameMaker[] frames,
        final FrameMaker[] boxes,
        final long[] copies) throws Exception
    {
        final List<Captured> out = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(config))
        {
            graph.observe("out", capture(out));
            graph.start();
            for (int i = 0; i < frames.length; i++)
            {
                if (boxes[i] != null)
                {
                    graph.addPacket("boxes", boxes[i].make(graph.pool()), i);
                }
                graph.addPacket("in", frames[i].make(graph.pool()), i);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            copies[0] = graph.pool().copies();
        }
        return out;
    }

    @Test
    void drawsGrayOutlines() throws Exception
    {
        final long[] copies = new long[1];
        final List<Captured> out = run(annotate(),
            new FrameMaker[]{gray(6, 5, new int[30])}, new FrameMaker[]{boxes(1, 1, 4, 3)}, copies);
        assertPixels(new int[]{
            0, 0, 0, 0, 0, 0,
            0, 255, 255, 255, 255, 0,
            0, 255, 0, 0, 255, 0,
            0, 255, 255, 255, 255, 0,
            0, 0, 0, 0, 0, 0}, out.get(0).gray());
        assertEquals(0, copies[0], "the only reference is written in place");
    }

    @Test
    void drawsThickRgbaOutlinesClippedToTheFrame() throws Exception
    {
        final int o = 0x10203040;
        final int g = 0x00FF00FF;
        final long[] copies = new long[1];
        final List<Captured> out = run(annotate("color", 0x00FF00L, "thickness", 2),
            new FrameMaker[]{padded(rgba(5, 5, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o),
                4)},
            new FrameMaker[]{boxes(-3, 2, 7, 9)}, copies);
        // box x -3..3, y 2..10: top rows 2-3, right cols 2-3; left and bottom lie outside the frame
        assertPixels(new int[]{
            o, o, o, o, o,
            o, o, o, o, o,
            g, g, g, g, o,
            g, g, g, g, o,
            o, o, g, g, o}, out.get(0).rgba());
    }

    @Test
    void framesWithoutBoxesPassUntouched() throws Exception
    {
        final long[] copies = new long[1];
        final List<Captured> out = run(annotate(),
            new FrameMaker[]{gray(2, 2, 1, 2, 3, 4), gray(2, 2, 5, 6, 7, 8), gray(2, 2, 9, 9, 9, 9)},
            new FrameMaker[]{boxes(), null, boxes(0, 0, 1, 1)}, copies);
        assertEquals(3, out.size());
        assertPixels(new int[]{1, 2, 3, 4}, out.get(0).gray());
        assertPixels(new int[]{5, 6, 7, 8}, out.get(1).gray());
        assertPixels(new int[]{255, 9, 9, 9}, out.get(2).gray());
        assertEquals(1, out.get(1).timestamp);
    }

    @Test
    void sharedFrameIsCopiedBeforeDrawing() throws Exception
    {
        try (Graph graph = new Graph(annotate()))
        {
            final List<Captured> out = Collections.synchronizedList(new ArrayList<>());
            graph.observe("out", capture(out));
            final OutputPoller original = graph.poller("in");
            graph.start();
            graph.addPacket("boxes", boxes(0, 0, 2, 2).make(graph.pool()), 0);
            graph.addPacket("in", gray(2, 2, 1, 2, 3, 4).make(graph.pool()), 0);
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(1, graph.pool().copies());
            assertPixels(new int[]{255, 255, 255, 255}, out.get(0).gray());
            assertTrue(original.next(1, TimeUnit.SECONDS));
            assertPixels(new int[]{1, 2, 3, 4},
                new Captured(0, null, 2, 2, tightBytes(original.packet().payload())).gray());
        }
    }

    @Test
    void wrongPixelFormatNamesNodeAndFormat() throws Exception
    {
        try (Graph graph = new Graph(annotate()))
        {
            graph.start();
            graph.addPacket("boxes", boxes(0, 0, 1, 1).make(graph.pool()), 0);
            graph.addPacket("in", nv12().make(graph.pool()), 0);
            graph.closeAllInputs();
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            final String message = ex.failures().get(0).cause().getMessage();
            assertTrue(message.contains("node 'annotate'") && message.contains("NV12 frame"), message);
        }
    }
}
