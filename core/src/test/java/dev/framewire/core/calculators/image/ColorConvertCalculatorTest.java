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
import static dev.framewire.core.calculators.image.ImageTestSupport.boxes;
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
class ColorConvertCalculatorTest
{
    @Test
    void rgbaToGrayUsesIntegerWeights() throws Exception
    {
        // (77 R + 150 G + 29 B + 128) >> 8, worked by hand: red 77, green 149, blue 29, (10,20,30) 18,
        // (16,32,48) 7552 >> 8 = 29, (48,32,16) 9088 >> 8 = 35
        final List<Captured> out = run(oneNode("ColorConvertCalculator", "conversion", "RGBA_TO_GRAY8"), "out",
            rgba(4, 4,
                0xFF0000FF, 0x00FF00FF, 0x0000FFFF, 0xFFFFFFFF,
                0x000000FF, 0x0A141EFF, 0x80808000, 0x01010180,
                0xFF000000, 0x00FF0000, 0x0000FF00, 0x7F7F7F7F,
                0x102030FF, 0x302010FF, 0xC8C8C8FF, 0xFEFEFEFF));
        assertEquals(1, out.size());
        assertEquals(PixelFormat.GRAY8, out.get(0).format);
        assertEquals(4, out.get(0).width);
        assertEquals(4, out.get(0).height);
        assertEquals(0, out.get(0).timestamp);
        assertPixels(new int[]{
            77, 149, 29, 255,
            0, 18, 128, 1,
            77, 149, 29, 127,
            29, 35, 200, 254}, out.get(0).gray());
    }

    @Test
    void wideRowsTakeTheEightPixelPathAndTheTail() throws Exception
    {
        // 11 pixels a row: 8 through the two-pixels-per-multiply path, 3 one at a time; all match the formula
        final int[] rgba = new int[22];
        final int[] expected = new int[22];
        for (int i = 0; i < rgba.length; i++)
        {
            final int r = (i * 37) & 0xFF;
            final int g = (i * 91 + 13) & 0xFF;
            final int b = (255 - i * 11) & 0xFF;
            rgba[i] = r << 24 | g << 16 | b << 8 | 0x7F;
            expected[i] = (77 * r + 150 * g + 29 * b + 128) >> 8;
        }
        assertPixels(expected, run(oneNode("ColorConvertCalculator"), "out", padded(rgba(11, 2, rgba), 4))
            .get(0).gray());
    }

    @Test
    void honoursInputStride() throws Exception
    {
        final List<Captured> out = run(oneNode("ColorConvertCalculator"), "out",
            padded(rgba(2, 2, 0xFF0000FF, 0x00FF00FF, 0x0000FFFF, 0xFFFFFFFF), 12));
        assertPixels(new int[]{77, 149, 29, 255}, out.get(0).gray());
    }

    @Test
    void rgbToRgbaAddsOpaqueAlpha() throws Exception
    {
        final List<Captured> out = run(oneNode("ColorConvertCalculator", "conversion", "RGB24_TO_RGBA"), "out",
            rgb(2, 2, 0x102030, 0xFFFFFF, 0x000000, 0xA0B0C0),
            rgb(2, 2, 0x010203, 0x040506, 0x070809, 0x0A0B0C));
        assertEquals(2, out.size());
        assertEquals(PixelFormat.RGBA32, out.get(0).format);
        assertPixels(new int[]{0x102030FF, 0xFFFFFFFF, 0x000000FF, 0xA0B0C0FF}, out.get(0).rgba());
        assertPixels(new int[]{0x010203FF, 0x040506FF, 0x070809FF, 0x0A0B0CFF}, out.get(1).rgba());
        assertEquals(1, out.get(1).timestamp);
    }

    @Test
    void rgbToGrayAndRgbaToRgb() throws Exception
    {
        assertPixels(new int[]{77, 149, 29, 18},
            run(oneNode("ColorConvertCalculator", "conversion", "RGB24_TO_GRAY8"), "out",
                rgb(2, 2, 0xFF0000, 0x00FF00, 0x0000FF, 0x0A141E)).get(0).gray());
        assertPixels(new int[]{0x102030, 0x405060},
            run(oneNode("ColorConvertCalculator", "conversion", "RGBA_TO_RGB24"), "out",
                rgba(2, 1, 0x10203000, 0x405060FF)).get(0).rgb());
    }

    @Test
    void wrongPixelFormatNamesNodeAndFormat() throws Exception
    {
        final GraphException ex = runFailing(oneNode("ColorConvertCalculator", "conversion", "RGBA_TO_GRAY8"),
            gray(4, 4, new int[16]));
        assertEquals("node", ex.failures().get(0).node());
        final String message = ex.failures().get(0).cause().getMessage();
        assertTrue(message.contains("node 'node'"), message);
        assertTrue(message.contains("GRAY8 frame"), message);
        assertTrue(message.contains("needs RGBA32"), message);
        assertTrue(message.contains("input stream 'in'"), message);
    }

    @Test
    void nonFramePacketIsAnError() throws Exception
    {
        final GraphException ex = runFailing(oneNode("ColorConvertCalculator"), boxes(0, 0, 1, 1));
        final String message = ex.failures().get(0).cause().getMessage();
        assertTrue(message.contains("blob payload") && message.contains("not a frame"), message);
    }

    @Test
    void unknownConversionFailsAtValidation()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class,
            () -> new Graph(oneNode("ColorConvertCalculator", "conversion", "RGB_TO_HSV")));
        final String message = ex.getMessage();
        assertTrue(message.contains("'conversion'") && message.contains("RGB_TO_HSV") &&
            message.contains("RGBA_TO_GRAY8"), message);
    }

    @Test
    void misspeltOptionIsAConfigError()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class,
            () -> new Graph(oneNode("ColorConvertCalculator", "convertion", "RGBA_TO_GRAY8")).close());
        assertTrue(ex.getMessage().contains("convertion"), ex.getMessage());
    }
}
