package dev.framewire.core.calculators.image;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.OptionType;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * A source of RGBA32 frames for demos and tests: shapes (rectangles and discs) bouncing over a
 * gradient, like a fixed camera watching things move. The content is a function of the seed and
 * the frame index only, so two runs with one seed give the same frames.
 *
 * <p>Streams: one output of RGBA32 frames. Options:
 * <ul>
 *   <li>{@code width} (1280), {@code height} (720): frame size in pixels;</li>
 *   <li>{@code fps} (60.0): frames per second; 0 emits as fast as the graph takes them;</li>
 *   <li>{@code frames} (0): frames to emit before stopping, 0 for no limit;</li>
 *   <li>{@code seed} (0): picks the shapes, their colors and paths, and the background's blue;</li>
 *   <li>{@code shapes} (4): number of moving shapes, 0 for the bare gradient;</li>
 *   <li>{@code reserve_frames} (0): frames in flight to make room for in the pool at
 *       {@code open} ({@code PayloadPool.reserve}, with one more for the background), so the
 *       first frames take free slots instead of allocating slabs; 0..1024.</li>
 * </ul>
 *
 * <p>Frame {@code i} carries timestamp {@code floor(i * 1e6 / fps)} microseconds, or
 * {@code i * 16667} when {@code fps} is 0. Its background pixel at {@code (x, y)} is
 * {@code R = x * 255 / (width - 1)}, {@code G = y * 255 / (height - 1)} (integer division; 0 for a
 * size of 1), {@code B = 64 + floorMod(seed, 128)}, {@code A = 255}.
 *
 * <p>Pacing: with {@code fps > 0}, frame {@code i} is due {@code i / fps} seconds after the first
 * call. Each {@code process} renders one frame, then parks ({@link LockSupport#parkNanos}, in
 * slices of at most {@value #MAX_PARK_MILLIS} ms so that a cancellation is seen) until the due
 * time, then emits it: a frame leaves the camera when it is due, not earlier. On Linux a park
 * oversleeps by the timer slack (50 us by default); the next frame's due time does not drift
 * from it, since due times count from the first frame. A frame that is late (the source was held
 * back by backpressure) goes out at once: like a camera with a deep buffer, this source never
 * drops a frame, it falls behind. Because the call parks, give the camera an executor of its
 * own, or it holds up the nodes that share its worker.
 *
 * <p>The gradient is painted once into an off-heap frame the calculator owns (released in
 * {@code close}) and copied into each new frame with one memory copy; the shapes are then drawn
 * over it. Nothing is allocated per frame.
 *
 * <p>Threading: as every calculator, called by one worker at a time.
 */
public final class SyntheticCameraCalculator implements Calculator
{
    /** Longest single park while waiting for a due time, so that cancellation is noticed. */
    static final long MAX_PARK_MILLIS = 20;
    /** Timestamp step per frame when {@code fps} is 0: a nominal 60 fps. */
    static final long UNPACED_STEP_MICROS = 16_667;

    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int OPAQUE = 0xFF00_0000;

    private int width;
    private int height;
    private double fps;
    private long frames;
    private long index;
    private long startNanos;
    private Payload background;

    private int shapeCount;
    private boolean[] isDisc;
    private int[] shapeSize;
    private int[] shapeX0;
    private int[] shapeY0;
    private int[] shapeVx;
    private int[] shapeVy;
    private int[] shapeColor;

    @Override
    public void contract(final Contract contract)
    {
        contract.outputType("*", Payload.class);
        contract.option("width", OptionType.LONG, 1280L)
            .option("height", OptionType.LONG, 720L)
            .option("fps", OptionType.DOUBLE, 60.0)
            .option("frames", OptionType.LONG, 0L)
            .option("seed", OptionType.LONG, 0L)
            .option("shapes", OptionType.LONG, 4L)
            .option("reserve_frames", OptionType.LONG, 0L)
            .range("width", 1, 16384)
            .range("height", 1, 16384)
            .range("fps", 0.0, true, Double.MAX_VALUE)
            .range("frames", 0, Long.MAX_VALUE)
            .range("shapes", 0, 64)
            .range("reserve_frames", 0, 1024)
            .outputFrame((node, options, input) -> new Contract.FrameShape((int)options.getLong("width"),
                (int)options.getLong("height"), PixelFormat.RGBA32))
            .keptFrames(1); // the background, acquired in open
    }

    @Override
    public void open(final CalculatorContext ctx)
    {
        final long w = ctx.options().getLong("width");
        final long h = ctx.options().getLong("height");
        fps = ctx.options().getDouble("fps");
        frames = ctx.options().getLong("frames");
        final long seed = ctx.options().getLong("seed");
        final long shapes = ctx.options().getLong("shapes");
        final long reserve = ctx.options().getLong("reserve_frames");
        if (w <= 0 || h <= 0 || w > 16384 || h > 16384)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': frame size " + w + "x" + h +
                " invalid; width and height must be 1..16384");
        }
        if (!(fps >= 0) || Double.isInfinite(fps))
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'fps' is " + fps +
                "; it must be 0 (as fast as possible) or a positive number");
        }
        if (frames < 0)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'frames' is " + frames +
                "; it must be 0 (no limit) or positive");
        }
        if (shapes < 0 || shapes > 64)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'shapes' is " + shapes +
                "; it must be 0..64");
        }
        if (reserve < 0 || reserve > 1024)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'reserve_frames' is " + reserve +
                "; it must be 0..1024");
        }
        width = (int)w;
        height = (int)h;
        planShapes(seed, (int)shapes);
        if (reserve > 0)
        {
            // the frames in flight and the background, so the first frames allocate no slab
            ctx.pool().reserve(PixelFormat.RGBA32.frameBytes(height, PixelFormat.RGBA32.minStride(width)),
                (int)reserve + 1);
        }
        // acquired last: open() that throws is not followed by close(), so nothing may be held then
        background = ctx.pool().acquireFrame(width, height, PixelFormat.RGBA32);
        paintGradient(background.mutableBuffer(), background.stride(), 64 + (int)Math.floorMod(seed, 128L));
    }

    @Override
    public void process(final CalculatorContext ctx)
    {
        if (ctx.isCancelled())
        {
            ctx.stop();
            return;
        }
        final long i = index;
        if (i == 0)
        {
            startNanos = System.nanoTime();
        }
        final Payload frame = ctx.pool().acquireFrame(width, height, PixelFormat.RGBA32);
        render(frame, i);
        if (fps > 0 && !awaitDue(ctx, startNanos + (long)(i * 1e9 / fps)))
        {
            frame.release();
            ctx.stop();
            return;
        }
        final long timestamp = fps > 0 ? (long)(i * 1e6 / fps) : i * UNPACED_STEP_MICROS;
        ctx.output(0).add(frame, timestamp);
        index = i + 1;
        if (frames > 0 && index >= frames)
        {
            ctx.stop();
        }
    }

    @Override
    public void close(final CalculatorContext ctx)
    {
        final Payload held = background;
        background = null;
        if (held != null)
        {
            held.release();
        }
    }

    /** Parks until {@code due}; false if the run was cancelled meanwhile. */
    private boolean awaitDue(final CalculatorContext ctx, final long due)
    {
        long left;
        while ((left = due - System.nanoTime()) > 0)
        {
            if (ctx.isCancelled())
            {
                return false;
            }
            LockSupport.parkNanos(this, Math.min(left, MAX_PARK_MILLIS * 1_000_000L));
        }
        return true;
    }

    private void planShapes(final long seed, final int count)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        shapeCount = count;
        isDisc = new boolean[count];
        shapeSize = new int[count];
        shapeX0 = new int[count];
        shapeY0 = new int[count];
        shapeVx = new int[count];
        shapeVy = new int[count];
        shapeColor = new int[count];
        final int minSide = Math.min(width, height);
        final int maxSpeed = Math.max(2, width / 160);
        for (int s = 0; s < count; s++)
        {
            isDisc[s] = (s & 1) == 1;
            final int size = Math.max(1, minSide / 12 + random.nextInt(Math.max(1, minSide / 6)));
            shapeSize[s] = Math.min(size, minSide);
            shapeX0[s] = random.nextInt(Math.max(1, 2 * (width - shapeSize[s])));
            shapeY0[s] = random.nextInt(Math.max(1, 2 * (height - shapeSize[s])));
            shapeVx[s] = (1 + random.nextInt(maxSpeed)) * (random.nextBoolean() ? 1 : -1);
            shapeVy[s] = (1 + random.nextInt(maxSpeed)) * (random.nextBoolean() ? 1 : -1);
            shapeColor[s] = OPAQUE | random.nextInt(0x100_0000);
        }
    }

    private void paintGradient(final MutableDirectBuffer buffer, final int stride, final int blue)
    {
        final int w = width;
        final int h = height;
        final int xDiv = Math.max(1, w - 1);
        final int yDiv = Math.max(1, h - 1);
        for (int y = 0; y < h; y++)
        {
            final int rowBase = OPAQUE | (blue << 16) | (y * 255 / yDiv) << 8;
            final int row = y * stride;
            for (int x = 0; x < w; x++)
            {
                buffer.putInt(row + 4 * x, rowBase | x * 255 / xDiv, LE);
            }
        }
    }

    private void render(final Payload frame, final long i)
    {
        final MutableDirectBuffer buffer = frame.mutableBuffer();
        final int stride = frame.stride();
        buffer.putBytes(0, background.buffer(), 0, frame.length());
        for (int s = 0; s < shapeCount; s++)
        {
            final int size = shapeSize[s];
            final int x = bounce(shapeX0[s] + shapeVx[s] * i, width - size);
            final int y = bounce(shapeY0[s] + shapeVy[s] * i, height - size);
            if (isDisc[s])
            {
                fillDisc(buffer, stride, x, y, size, shapeColor[s]);
            }
            else
            {
                fillRect(buffer, stride, x, y, size, size, shapeColor[s]);
            }
        }
    }

    /** A triangle wave: {@code p} bounced between 0 and {@code range}. */
    private static int bounce(final long p, final int range)
    {
        if (range <= 0)
        {
            return 0;
        }
        final long period = 2L * range;
        final long m = Math.floorMod(p, period);
        return (int)(m <= range ? m : period - m);
    }

    private static void fillRect(
        final MutableDirectBuffer buffer,
        final int stride,
        final int x,
        final int y,
        final int w,
        final int h,
        final int color)
    {
        for (int row = y, end = y + h; row < end; row++)
        {
            fillSpan(buffer, row * stride + 4 * x, w, color);
        }
    }

    private static void fillDisc(
        final MutableDirectBuffer buffer,
        final int stride,
        final int x,
        final int y,
        final int diameter,
        final int color)
    {
        final double r = diameter / 2.0;
        for (int dy = 0; dy < diameter; dy++)
        {
            final double cy = dy + 0.5 - r;
            final int half = (int)Math.round(Math.sqrt(Math.max(0.0, r * r - cy * cy)));
            final int from = (int)Math.round(r) - half;
            final int span = Math.min(diameter - Math.max(0, from), 2 * half);
            if (span > 0)
            {
                fillSpan(buffer, (y + dy) * stride + 4 * (x + Math.max(0, from)), span, color);
            }
        }
    }

    /** Writes {@code pixels} RGBA pixels of one color, two at a time. */
    private static void fillSpan(final MutableDirectBuffer buffer, final int offset, final int pixels, final int color)
    {
        final long pair = (color & 0xFFFF_FFFFL) | ((long)color << 32);
        int at = offset;
        final int pairsEnd = offset + 8 * (pixels >> 1);
        for (; at < pairsEnd; at += 8)
        {
            buffer.putLong(at, pair, LE);
        }
        if ((pixels & 1) != 0)
        {
            buffer.putInt(at, color, LE);
        }
    }
}
