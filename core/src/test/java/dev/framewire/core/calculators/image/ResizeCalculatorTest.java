package dev.framewire.core.calculators.image;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphException;
import dev.framewire.offheap.PixelFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.framewire.core.calculators.image.ImageTestSupport.Captured;
import static dev.framewire.core.calculators.image.ImageTestSupport.assertPixels;
import static dev.framewire.core.calculators.image.ImageTestSupport.gray;
import static dev.framewire.core.calculators.image.ImageTestSupport.oneNode;
import static dev.framewire.core.calculators.image.ImageTestSupport.padded;
import static dev.framewire.core.calculators.image.ImageTestSupport.rgb;
import static dev.framewire.core.calculators.image.ImageTestSupport.rgba;
import static dev.framewire.core.calculators.image.ImageTestSupport.run;
import static dev.framewire.core.calculators.image.ImageTestSupport.runFailing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class ResizeCalculatorTest
{
    @Test
    void halvingGrayIsTheRoundedMeanOfEachBlock() throws Exception
    {
        final List<Captured> out = run(oneNode("ResizeCalculator", "factor", 0.5), "out",
            gray(4, 4,
                0, 10, 20, 30,
                40, 50, 60, 71,
                80, 90, 100, 110,
                120, 130, 140, 152));
        assertEquals(PixelFormat.GRAY8, out.get(0).format);
        assertEquals(2, out.get(0).width);
        assertEquals(2, out.get(0).height);
        // 100/4 = 25; 181/4 = 45.25 -> 45; 420/4 = 105; 502/4 = 125.5 -> 126
        assertPixels(new int[]{25, 45, 105, 126}, out.get(0).gray());
    }

    @Test
    void halvingRgbaAveragesEveryChannelWithExplicitSize() throws Exception
    {
        final List<Captured> out = run(oneNode("ResizeCalculator", "width", 2, "height", 1), "out",
            padded(rgba(4, 2,
                0x00000000, 0x04080C10, 0xFF000000, 0xFF000000,
                0x0810181F, 0x0C141C24, 0x00FF00FF, 0x00FF00FF), 8));
        assertEquals(PixelFormat.RGBA32, out.get(0).format);
        assertEquals(2, out.get(0).width);
        assertEquals(1, out.get(0).height);
        // left: R (0+4+8+12)/4 = 6, G (0+8+16+20)/4 = 11, B (0+12+24+28)/4 = 16, A (0+16+31+36)/4 = 20.75 -> 21
        // right: R 510/4 = 127.5 -> 128, G 127.5 -> 128, B 0, A 127.5 -> 128
        assertPixels(new int[]{0x060B1015, 0x80800080}, out.get(0).rgba());
    }

    @Test
    void upscalingInterpolatesBetweenPixelCentres() throws Exception
    {
        final List<Captured> out = run(oneNode("ResizeCalculator", "factor", 2.0), "out",
            gray(2, 2,
                0, 100,
                200, 40));
        assertEquals(4, out.get(0).width);
        assertEquals(4, out.get(0).height);
        // sample positions per axis: 0 (edge), 0.25, 0.75, 1 (edge)
        assertPixels(new int[]{
            0, 25, 75, 100,
            50, 59, 76, 85,
            150, 126, 79, 55,
            200, 160, 80, 40}, out.get(0).gray());
    }

    @Test
    void unevenDownscaleUsesFixedPointWeights() throws Exception
    {
        // 4 -> 3 columns: samples at 0.167 (weight 43/256), 1.5 (128), 2.833 (213)
        // 100 * 43 / 256 = 16.8 -> 17; (100 + 200) / 2 = 150; (200 * 43 + 60 * 213) / 256 = 83.5 -> 84
        final List<Captured> out = run(oneNode("ResizeCalculator", "width", 3, "height", 1), "out",
            gray(4, 1, 0, 100, 200, 60));
        assertPixels(new int[]{17, 150, 84}, out.get(0).gray());
    }

    @Test
    void upscalingRgbaInterpolatesEveryChannel() throws Exception
    {
        // (0,0,0,0) to (100,200,40,255) at 1/4 and 3/4: (25,50,10,63.75 -> 64), (75,150,30,191.25 -> 191)
        final List<Captured> out = run(oneNode("ResizeCalculator", "width", 4, "height", 1), "out",
            rgba(2, 1, 0x00000000, 0x64C828FF));
        assertPixels(new int[]{0x00000000, 0x19320A40, 0x4B961EBF, 0x64C828FF}, out.get(0).rgba());
    }

    @Test
    void sameSizeCopiesExactly() throws Exception
    {
        final int[] pixels = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        assertPixels(pixels, run(oneNode("ResizeCalculator", "factor", 1.0), "out", gray(3, 3, pixels)).get(0).gray());
    }

    @Test
    void wrongPixelFormatNamesNodeAndFormat() throws Exception
    {
        final GraphException ex = runFailing(oneNode("ResizeCalculator"), rgb(2, 2, 0, 0, 0, 0));
        final String message = ex.failures().get(0).cause().getMessage();
        assertEquals("node", ex.failures().get(0).node());
        assertTrue(message.contains("node 'node'") && message.contains("RGB24 frame") &&
            message.contains("needs GRAY8 or RGBA32"), message);
    }

    @Test
    void badFactorFailsAtValidation()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class,
            () -> new Graph(oneNode("ResizeCalculator", "factor", 0.0)));
        assertEquals(List.of("node 'node': option 'factor' is 0.0; valid is a finite number > 0.0 and <= 64.0"),
            ex.errors());
    }
}
