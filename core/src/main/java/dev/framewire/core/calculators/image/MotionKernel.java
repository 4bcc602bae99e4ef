package dev.framewire.core.calculators.image;

import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;

import java.util.Arrays;

/**
 * Frame-difference motion on GRAY8 frames: which pixels changed by more than a threshold since
 * the previous frame, counted in a grid of cells, and the bounding boxes of 8-connected groups
 * of active cells.
 *
 * <p>The difference is SWAR on longs, every byte the same work: a row of each frame is copied
 * into a {@code long[]}, and one array loop (vectorised by C2) computes, for eight pixels a long,
 * {@code |now - before| > threshold} without a branch: the even and odd bytes are spread into
 * 16-bit lanes, {@code 256 + a - b} and {@code 256 + b - a} (never negative, so no borrow crosses
 * a lane) are each added to {@code 255 - threshold}, and bit 9 of a lane is then set exactly
 * when that difference exceeds the threshold. Only the longs with a changed pixel are looked at
 * pixel by pixel. So sensor noise below the threshold costs what a still scene costs.
 *
 * <p>Not thread-safe; the grid is made on {@link #reset} and nothing is allocated per frame.
 */
public final class MotionKernel
{
    private static final long EVEN = ImageKernels.EVEN_BYTES;
    private static final long LANE_BIAS = 0x0100_0100_0100_0100L;
    private static final long BIT9 = 0x0200_0200_0200_0200L;

    private int width;
    private int height;
    private int cell;
    private int cellsX;
    private int cellsY;
    private int[] cellOfX = new int[0];
    private int[] cellPixels = new int[0];
    private int[] cellMinX = new int[0];
    private int[] cellMaxX = new int[0];
    private int[] cellMinY = new int[0];
    private int[] cellMaxY = new int[0];
    private boolean[] visited = new boolean[0];
    private int[] stack = new int[0];
    private long[] now = new long[0];
    private long[] before = new long[0];
    private long[] changed = new long[0];
    private int words;
    private static final VectorRows SIMD = Simd.ROWS;

    /**
     * Makes the grid for a frame size.
     *
     * @param width  frame width.
     * @param height frame height.
     * @param cell   side of a grid cell in pixels, at least 1.
     */
    public void reset(final int width, final int height, final int cell)
    {
        if (width < 1 || height < 1 || cell < 1)
        {
            throw new IllegalArgumentException("motion grid for " + width + "x" + height + " frames in cells of " +
                cell + ": all must be at least 1");
        }
        this.width = width;
        this.height = height;
        this.cell = cell;
        cellsX = (width + cell - 1) / cell;
        cellsY = (height + cell - 1) / cell;
        final int cells = cellsX * cellsY;
        cellOfX = new int[width];
        for (int x = 0; x < width; x++)
        {
            cellOfX[x] = x / cell;
        }
        cellPixels = new int[cells];
        cellMinX = new int[cells];
        cellMaxX = new int[cells];
        cellMinY = new int[cells];
        cellMaxY = new int[cells];
        visited = new boolean[cells];
        stack = new int[cells];
        final int words = (width + 7) >> 3;
        this.words = words;
        now = new long[words + VectorRows.PAD];
        before = new long[words + VectorRows.PAD];
        changed = new long[words + VectorRows.PAD];
    }

    /**
     * Compares a frame with the previous one and copies it over the previous one, in one pass.
     *
     * @param frame        the new GRAY8 frame, of the reset size.
     * @param frameStride  its bytes per row.
     * @param previous     the previous frame, overwritten with the new one.
     * @param prevStride   its bytes per row.
     * @param threshold    a pixel changed when {@code |now - before| > threshold}, 0..255.
     * @return changed pixels in the frame.
     */
    public int difference(
        final DirectBuffer frame,
        final int frameStride,
        final DirectBuffer previous,
        final int prevStride,
        final int threshold)
    {
        if (threshold < 0 || threshold > 255)
        {
            throw new IllegalArgumentException("motion threshold " + threshold + ": it must be 0..255");
        }
        final int width = this.width;
        final int height = this.height;
        ImageKernels.checkPlane(frame, 0, frameStride, width, height, "frame");
        ImageKernels.checkPlane(previous, 0, prevStride, width, height, "previous frame");
        final int[] pixels = cellPixels;
        final int[] minX = cellMinX;
        final int[] maxX = cellMaxX;
        final int[] minY = cellMinY;
        final int[] maxY = cellMaxY;
        Arrays.fill(pixels, 0);
        Arrays.fill(minX, Integer.MAX_VALUE);
        Arrays.fill(maxX, -1);
        Arrays.fill(minY, Integer.MAX_VALUE);
        Arrays.fill(maxY, -1);
        final long bias = 0x0001_0001_0001_0001L * (255 - threshold);
        final Object nBase = frame.byteArray();
        final long nAddr = frame.addressOffset();
        final Object pBase = previous.byteArray();
        final long pAddr = previous.addressOffset();
        final long[] a = now;
        final long[] b = before;
        final long[] m = changed;
        final int words = this.words;
        final int[] cellOfX = this.cellOfX;
        final int cell = this.cell;
        final int cellsX = this.cellsX;
        int total = 0;
        for (int y = 0; y < height; y++)
        {
            final long nRow = nAddr + (long)y * frameStride;
            final long pRow = pAddr + (long)y * prevStride;
            a[words - 1] = 0; // a row's last long may be part-filled: the same zeros on both sides
            b[words - 1] = 0;
            UnsafeApi.copyMemory(nBase, nRow, a, ImageKernels.LONG_BASE, width);
            UnsafeApi.copyMemory(pBase, pRow, b, ImageKernels.LONG_BASE, width);
            UnsafeApi.copyMemory(nBase, nRow, pBase, pRow, width);
            final long any = SIMD != null ? SIMD.motion(a, b, m, words, threshold) : differenceRow(a, b, m, words, bias);
            if (any == 0) // a still row: nothing to look at pixel by pixel
            {
                continue;
            }
            final int cellRow = (y / cell) * cellsX;
            for (int i = 0; i < words; i++)
            {
                long bits = m[i];
                while (bits != 0)
                {
                    final int x = (i << 3) + (Long.numberOfTrailingZeros(bits) >>> 3);
                    bits &= bits - 1;
                    final int c = cellRow + cellOfX[x];
                    total++;
                    pixels[c]++;
                    minX[c] = Math.min(minX[c], x);
                    maxX[c] = Math.max(maxX[c], x);
                    minY[c] = Math.min(minY[c], y);
                    maxY[c] = y;
                }
            }
        }
        return total;
    }

    /** One row's SWAR difference, eight pixels a long (see the class comment); the OR of the longs written. */
    private static long differenceRow(final long[] a, final long[] b, final long[] m, final int words, final long bias)
    {
        long any = 0;
        for (int i = 0; i < words; i++) // superword: long lanes, and an OR reduction
        {
            final long p = a[i];
            final long q = b[i];
            final long pe = p & EVEN;
            final long qe = q & EVEN;
            final long po = p >>> 8 & EVEN;
            final long qo = q >>> 8 & EVEN;
            final long e = ((pe | LANE_BIAS) - qe + bias | (qe | LANE_BIAS) - pe + bias) & BIT9;
            final long o = ((po | LANE_BIAS) - qo + bias | (qo | LANE_BIAS) - po + bias) & BIT9;
            final long bits = e >>> 9 | o >>> 1;
            m[i] = bits;
            any |= bits;
        }
        return any;
    }

    /**
     * Joins 8-connected active cells of the last {@link #difference} into regions, in raster
     * order of their first cell, and writes the boxes of those with enough changed pixels as
     * {@code x, y, width, height, pixels}, five ints a box.
     *
     * @param boxes     where the boxes go, at least {@code 5 * maxBoxes} ints.
     * @param maxBoxes  most boxes.
     * @param minPixels a region needs at least this many changed pixels.
     * @return boxes written.
     */
    public int regions(final int[] boxes, final int maxBoxes, final long minPixels)
    {
        final int cellsX = this.cellsX;
        final int cellsY = this.cellsY;
        final int[] pixels = cellPixels;
        final boolean[] visited = this.visited;
        final int[] stack = this.stack;
        Arrays.fill(visited, false);
        int count = 0;
        for (int start = 0, cells = cellsX * cellsY; start < cells && count < maxBoxes; start++)
        {
            if (pixels[start] == 0 || visited[start])
            {
                continue;
            }
            int top = 0;
            stack[top++] = start;
            visited[start] = true;
            long sum = 0;
            int x0 = Integer.MAX_VALUE;
            int y0 = Integer.MAX_VALUE;
            int x1 = -1;
            int y1 = -1;
            while (top > 0)
            {
                final int c = stack[--top];
                sum += pixels[c];
                x0 = Math.min(x0, cellMinX[c]);
                x1 = Math.max(x1, cellMaxX[c]);
                y0 = Math.min(y0, cellMinY[c]);
                y1 = Math.max(y1, cellMaxY[c]);
                final int cx = c % cellsX;
                final int cy = c / cellsX;
                for (int ny = Math.max(0, cy - 1), nyEnd = Math.min(cellsY - 1, cy + 1); ny <= nyEnd; ny++)
                {
                    for (int nx = Math.max(0, cx - 1), nxEnd = Math.min(cellsX - 1, cx + 1); nx <= nxEnd; nx++)
                    {
                        final int n = ny * cellsX + nx;
                        if (pixels[n] != 0 && !visited[n])
                        {
                            visited[n] = true;
                            stack[top++] = n;
                        }
                    }
                }
            }
            if (sum >= minPixels)
            {
                final int at = 5 * count++;
                boxes[at] = x0;
                boxes[at + 1] = y0;
                boxes[at + 2] = x1 - x0 + 1;
                boxes[at + 3] = y1 - y0 + 1;
                boxes[at + 4] = (int)sum;
            }
        }
        return count;
    }
}
