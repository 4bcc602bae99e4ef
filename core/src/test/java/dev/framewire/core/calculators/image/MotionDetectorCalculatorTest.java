package dev.framewire.core.calculators.image;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static dev.framewire.core.calculators.image.ImageTestSupport.Captured;
import static dev.framewire.core.calculators.image.ImageTestSupport.assertPixels;
import static dev.framewire.core.calculators.image.ImageTestSupport.gray;
import static dev.framewire.core.calculators.image.ImageTestSupport.rgba;
import static dev.framewire.core.calculators.image.ImageTestSupport.runAll;
import static dev.framewire.core.calculators.image.ImageTestSupport.runFailing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class MotionDetectorCalculatorTest
{
    private static GraphConfig motion(final Object... options)
    {
        return GraphConfig.builder()
            .inputStream("in")
            .node("motion", n ->
            {
                n.calculator("MotionDetectorCalculator").inputStream("FRAME:in")
                    .outputStream("BOXES:boxes", "FRAME:frames");
                for (int i = 0; i < options.length; i += 2)
                {
                    n.option((String)options[i], options[i + 1]);
                }
            })
            .outputStream("boxes", "frames")
            .build();
    }

    private static int[] fill(final int size, final int value)
    {
        final int[] p = new int[size];
        Arrays.fill(p, value);
        return p;
    }

    @Test
    void boxesTheChangedPixelsAndPassesFramesOn() throws Exception
    {
        final int[] still = fill(16, 10);
        final int[] moved = {
            10, 10, 10, 10,
            10, 200, 200, 10,
            10, 200, 34, 10,    // 34 - 10 = 24, under the threshold of 25
            10, 10, 10, 36};    // 36 - 10 = 26, over it
        final Map<String, List<Captured>> out = runAll(motion("min_pixels", 1, "cell", 16),
            new String[]{"boxes", "frames"}, gray(4, 4, still), gray(4, 4, moved), gray(4, 4, moved));
        final List<Captured> boxes = out.get("boxes");
        assertEquals(3, boxes.size());
        // count, changed pixels, then x, y, w, h, pixels per box
        assertPixels(new int[]{0, 0}, boxes.get(0).boxes());
        assertPixels(new int[]{1, 4, 1, 1, 3, 3, 4}, boxes.get(1).boxes());
        assertPixels(new int[]{0, 0}, boxes.get(2).boxes());
        assertEquals(1, boxes.get(1).timestamp);
        final List<Captured> frames = out.get("frames");
        assertEquals(3, frames.size());
        assertPixels(moved, frames.get(1).gray());
        assertEquals(2, frames.get(2).timestamp);
    }

    @Test
    void separateRegionsGetSeparateBoxesInRasterOrder() throws Exception
    {
        final int w = 32;
        final int h = 16;
        final int[] before = new int[w * h];
        final int[] after = new int[w * h];
        // region A: x 1..2, y 1..2 (4 px); region B crosses cells: x 3..5, y 9..11 (9 px) with cell 4;
        // region C: x 25..27, y 10..12 (9 px), far from both
        for (int y = 1; y <= 2; y++)
        {
            for (int x = 1; x <= 2; x++)
            {
                after[y * w + x] = 255;
            }
        }
        for (int y = 9; y <= 11; y++)
        {
            for (int x = 3; x <= 5; x++)
            {
                after[y * w + x] = 255;
            }
            for (int x = 25; x <= 27; x++)
            {
                after[y * w + x + w] = 255;
            }
        }
        final Map<String, List<Captured>> out = runAll(motion("min_pixels", 4, "cell", 4),
            new String[]{"boxes"}, gray(w, h, before), gray(w, h, after));
        assertPixels(new int[]{
            3, 22,
            1, 1, 2, 2, 4,
            3, 9, 3, 3, 9,
            25, 10, 3, 3, 9}, out.get("boxes").get(1).boxes());
    }

    @Test
    void regionsUnderMinPixelsAreNotBoxes() throws Exception
    {
        final int[] moved = fill(16, 0);
        moved[5] = 255;
        moved[6] = 255;
        final Map<String, List<Captured>> out = runAll(motion(), new String[]{"boxes"},
            gray(4, 4, fill(16, 0)), gray(4, 4, moved));
        assertPixels(new int[]{0, 2}, out.get("boxes").get(1).boxes());
    }

    @Test
    void sizeChangeStartsOver() throws Exception
    {
        final Map<String, List<Captured>> out = runAll(motion("min_pixels", 1), new String[]{"boxes"},
            gray(2, 2, 0, 0, 0, 0), gray(3, 1, 255, 255, 255), gray(3, 1, 255, 0, 255));
        assertPixels(new int[]{0, 0}, out.get("boxes").get(1).boxes());
        assertPixels(new int[]{1, 1, 1, 0, 1, 1, 1}, out.get("boxes").get(2).boxes());
    }

    @Test
    void wrongPixelFormatNamesNodeAndFormat() throws Exception
    {
        final GraphException ex = runFailing(motion(), rgba(1, 1, 0));
        assertEquals("motion", ex.failures().get(0).node());
        final String message = ex.failures().get(0).cause().getMessage();
        assertTrue(message.contains("node 'motion'") && message.contains("RGBA32 frame") &&
            message.contains("needs GRAY8"), message);
    }

    @Test
    void failureAfterFirstFrameReleasesThePreviousFrame() throws Exception
    {
        // the second frame fails the node; closing the graph (the leak check) finds nothing held
        final GraphException ex = runFailing(motion(), gray(2, 2, 0, 0, 0, 0), rgba(1, 1, 0));
        assertEquals(1, ex.failures().get(0).timestamp());
    }
}
