package dev.framewire.bench.suite;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.IdleKind;
import dev.framewire.core.Input;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PixelFormat;
import org.agrona.DirectBuffer;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * B3: 1920x1080 RGBA frames (8,294,400 B, off-heap, from the contender's pool) fanned out to three
 * readers and one writer. A reader reads one long per 4 KiB page (2,025 reads) and emits the
 * frame's marker (its first long); the writer writes marker + 1 at byte 8 and emits what it reads
 * back. Throughput in frames a second, all workers parked when idle, at most a few frames in
 * flight; after every iteration the count (4 per frame) and the sum of what was emitted are
 * checked.
 *
 * <p>{@code bytesCopied} (a JMH secondary result, bytes a second) over the score is the bytes
 * copied per frame:
 * <ul>
 *   <li>{@code FRAMEWIRE_COW}: the writer beside the readers calls {@code writablePayload()}: a
 *       copy only while a reader still holds the frame. Nothing orders the writer after the
 *       readers: on one worker MediaPipe's order runs the node declared last (the writer) first
 *       among nodes of equal depth, so it finds the frame shared and copies.</li>
 *   <li>{@code FRAMEWIRE_COW_AFTER}: the same writer also takes the readers' outputs as inputs,
 *       so the default policy runs it only after all three readers have run that timestamp and
 *       released the frame (a node releases its inputs before its outputs leave): it writes the
 *       frame itself on any number of workers. This is the Disruptor contender's topology,
 *       expressed as MediaPipe expresses a dependency.</li>
 *   <li>{@code FRAMEWIRE_CLONE}: the writer always clones (acquire, copy, write, release).</li>
 *   <li>{@code DISRUPTOR}: readers as three parallel handlers, the writer a handler after them
 *       ({@code handleEventsWith(r0, r1, r2).then(w)}): it writes in place, never copies, four
 *       threads.</li>
 *   <li>{@code TPE}: one one-thread executor per reader and writer (four); the frame is retained
 *       for each; the writer runs beside the readers, so it always clones.</li>
 *   <li>The seeds' baseline ({@code LockedEngine}) is a line engine without fan-out: not run.</li>
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class B3FanOutFrameBenchmark
{
    static final int WIDTH = 1920;
    static final int HEIGHT = 1080;
    static final int READERS = 3;
    static final int IN_FLIGHT_FRAMES = 4;
    static final int PAGE = 4096;

    @Param({"FRAMEWIRE_COW/1", "FRAMEWIRE_COW_AFTER/1", "FRAMEWIRE_CLONE/1", "FRAMEWIRE_COW/2", "FRAMEWIRE_COW_AFTER/2",
        "FRAMEWIRE_CLONE/2", "DISRUPTOR/4", "TPE/4"})
    public String contender;

    /** Bytes copied, as a rate beside the frame rate. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Copies
    {
        public long bytesCopied;

        @Setup(Level.Iteration)
        public void reset()
        {
            bytesCopied = 0;
        }
    }

    private final Arrivals arrivals = new Arrivals();
    private final AtomicLong cloned = new AtomicLong();
    private FrameLine line;
    private PayloadPool pool;
    private long sent;
    private long expectedSum;
    private long copiedAtIterationStart;
    private long framesAtIterationStart;

    /** A contender: takes a frame's reference, or refuses and leaves it with the caller. */
    interface FrameLine extends AutoCloseable
    {
        boolean offer(Payload frame, long timestamp);

        PayloadPool pool();

        /** Bytes copied so far. */
        long bytesCopied();
    }

    @Setup(Level.Trial)
    public void setUp()
    {
        final int threads = Integer.parseInt(contender.substring(contender.indexOf('/') + 1));
        switch (contender.substring(0, contender.indexOf('/')))
        {
            case "FRAMEWIRE_COW":
                line = new FramewireFanOut(threads, false, false, cloned, arrivals);
                break;
            case "FRAMEWIRE_COW_AFTER":
                line = new FramewireFanOut(threads, false, true, cloned, arrivals);
                break;
            case "FRAMEWIRE_CLONE":
                line = new FramewireFanOut(threads, true, false, cloned, arrivals);
                break;
            case "DISRUPTOR":
                line = new DisruptorFanOut(arrivals);
                break;
            case "TPE":
                line = new ExecutorFanOut(cloned, arrivals);
                break;
            default:
                throw new IllegalArgumentException("unknown contender " + contender);
        }
        pool = line.pool();
    }

    @Setup(Level.Iteration)
    public void startIteration()
    {
        copiedAtIterationStart = line.bytesCopied();
        framesAtIterationStart = sent;
    }

    @Benchmark
    public long frame(final Copies copies)
    {
        final long n = ++sent;
        final long marker = n * 3 + 1;
        expectedSum += READERS * marker + marker + 1;
        final Payload frame = pool.acquireFrame(WIDTH, HEIGHT, PixelFormat.RGBA32);
        frame.mutableBuffer().putLong(0, marker);
        while (!line.offer(frame, n))
        {
            Thread.yield();
        }
        copies.bytesCopied = line.bytesCopied() - copiedAtIterationStart;
        return n;
    }

    @TearDown(Level.Iteration)
    public void verify()
    {
        arrivals.verify(contender, (READERS + 1) * sent, expectedSum);
        final long frames = sent - framesAtIterationStart;
        System.out.println("(" + contender + ": " + frames + " frames, " +
            (frames == 0 ? 0 : (line.bytesCopied() - copiedAtIterationStart) / frames) + " B copied per frame)");
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        line.close();
    }

    /** The readers' work: one long per page, into a sum nobody may skip. */
    static long readPages(final DirectBuffer buffer, final int length)
    {
        long sum = 0;
        for (int i = PAGE; i + 8 <= length; i += PAGE)
        {
            sum += buffer.getLong(i);
        }
        return sum;
    }

    /** The writer's work on a payload it may write: marker + 1 at byte 8, read back. */
    static long write(final Payload writable)
    {
        writable.mutableBuffer().putLong(8, writable.buffer().getLong(0) + 1);
        return writable.buffer().getLong(8);
    }

    static final class ReaderCalculator implements Calculator
    {
        long blackhole;

        @Override
        public void process(final CalculatorContext ctx)
        {
            final Payload frame = ctx.input(0).payload();
            blackhole += readPages(frame.buffer(), frame.length());
            ctx.output(0).addLong(frame.buffer().getLong(0), ctx.inputTimestamp());
        }
    }

    static final class WriterCalculator implements Calculator
    {
        private final boolean clone;
        private final AtomicLong cloned;

        WriterCalculator(final boolean clone, final AtomicLong cloned)
        {
            this.clone = clone;
            this.cloned = cloned;
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            final Input input = ctx.input(0);
            if (clone)
            {
                final Payload frame = input.payload();
                final Payload copy = ctx.pool().acquireFrame(frame.width(), frame.height(), frame.format());
                try
                {
                    copy.mutableBuffer().putBytes(0, frame.buffer(), 0, frame.length());
                    cloned.addAndGet(frame.length());
                    ctx.output(0).addLong(write(copy), ctx.inputTimestamp());
                }
                finally
                {
                    copy.release();
                }
            }
            else
            {
                ctx.output(0).addLong(write(input.writablePayload()), ctx.inputTimestamp());
            }
        }
    }

    static final class FramewireFanOut implements FrameLine
    {
        private final Graph graph;
        private final GraphInputHandle in;
        private final AtomicLong cloned;
        private final int frameBytes = PixelFormat.RGBA32.frameBytes(HEIGHT, PixelFormat.RGBA32.minStride(WIDTH));

        /**
         * @param afterReaders whether the writer also takes the readers' outputs, so it runs after
         *                     them.
         */
        FramewireFanOut(final int workers, final boolean clone, final boolean afterReaders, final AtomicLong cloned,
            final Arrivals arrivals)
        {
            this.cloned = cloned;
            final GraphConfig.Builder builder = GraphConfig.builder()
                .inputStream("frame")
                .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(workers, IdleKind.PARK))
                .maxQueueSize(IN_FLIGHT_FRAMES / 2)
                .queueHardCap(IN_FLIGHT_FRAMES);
            for (int r = 0; r < READERS; r++)
            {
                final String out = "r" + r;
                builder.node("reader" + r, n -> n.calculator(ReaderCalculator::new).inputStream("frame").outputStream(out))
                    .outputStream(out);
            }
            builder.node("writer", n ->
            {
                n.calculator(() -> new WriterCalculator(clone, cloned)).inputStream("frame").outputStream("w");
                for (int r = 0; afterReaders && r < READERS; r++)
                {
                    n.inputStream("r" + r);
                }
            }).outputStream("w");
            graph = new Graph(builder.build());
            for (int r = 0; r < READERS; r++)
            {
                graph.observe("r" + r, packet -> arrivals.accept(packet.getLong()));
            }
            graph.observe("w", packet -> arrivals.accept(packet.getLong()));
            graph.start();
            in = graph.input("frame");
        }

        @Override
        public boolean offer(final Payload frame, final long timestamp)
        {
            return in.tryAddPacket(frame, timestamp);
        }

        @Override
        public PayloadPool pool()
        {
            return graph.pool();
        }

        @Override
        public long bytesCopied()
        {
            return graph.pool().copies() * frameBytes + cloned.get();
        }

        @Override
        public void close() throws Exception
        {
            Suite.closeGraph(graph);
        }
    }

    /** A frame's slot in the ring. */
    static final class FrameEvent
    {
        Payload frame;
        long blackhole;
    }

    static final class DisruptorFanOut implements FrameLine
    {
        private final PayloadPool pool = new PayloadPool();
        private final Disruptor<FrameEvent> disruptor;
        private final RingBuffer<FrameEvent> ring;
        private final Arrivals arrivals;

        DisruptorFanOut(final Arrivals arrivals)
        {
            this.arrivals = arrivals;
            disruptor = new Disruptor<>(FrameEvent::new, IN_FLIGHT_FRAMES, Suite.daemonThreads("disruptor-fanout"),
                ProducerType.SINGLE, Suite.waitStrategy(IdleKind.PARK));
            disruptor.handleEventsWith(this::read, this::read, this::read).then((e, s, end) ->
            {
                final Payload frame = e.frame;
                e.frame = null;
                try
                {
                    arrivals.accept(write(frame)); // every reader is done with it: in place
                }
                finally
                {
                    frame.release();
                }
            });
            ring = disruptor.start();
        }

        private void read(final FrameEvent event, final long sequence, final boolean endOfBatch)
        {
            final Payload frame = event.frame;
            final long sum = readPages(frame.buffer(), frame.length());
            arrivals.accept(frame.buffer().getLong(0));
            if (sum == 42)
            {
                event.blackhole++; // keeps the reads; three readers may race on it, it is never read
            }
        }

        @Override
        public boolean offer(final Payload frame, final long timestamp)
        {
            if (!ring.hasAvailableCapacity(1))
            {
                return false;
            }
            final long sequence = ring.next();
            ring.get(sequence).frame = frame;
            ring.publish(sequence);
            return true;
        }

        @Override
        public PayloadPool pool()
        {
            return pool;
        }

        @Override
        public long bytesCopied()
        {
            return 0;
        }

        @Override
        public void close() throws Exception
        {
            disruptor.shutdown(10, TimeUnit.SECONDS);
            pool.close();
        }
    }

    static final class ExecutorFanOut implements FrameLine
    {
        private final PayloadPool pool = new PayloadPool();
        private final ThreadPoolExecutor[] executors = new ThreadPoolExecutor[READERS + 1];
        private final Suite.Carriers<Fan> fans;
        private final AtomicLong cloned;
        private final Arrivals arrivals;
        private long sent;

        /** One frame's four tasks, reused. */
        final class Fan
        {
            Payload frame;
            long blackhole;
            final Runnable reader = () ->
            {
                try
                {
                    blackhole += readPages(frame.buffer(), frame.length()); // racy on purpose, never read
                    arrivals.accept(frame.buffer().getLong(0));
                }
                finally
                {
                    frame.release();
                }
            };
            final Runnable writer = () ->
            {
                final Payload copy = pool.acquireFrame(frame.width(), frame.height(), frame.format());
                try
                {
                    copy.mutableBuffer().putBytes(0, frame.buffer(), 0, frame.length());
                    cloned.addAndGet(frame.length());
                    arrivals.accept(write(copy));
                }
                finally
                {
                    copy.release();
                    frame.release();
                }
            };
        }

        ExecutorFanOut(final AtomicLong cloned, final Arrivals arrivals)
        {
            this.cloned = cloned;
            this.arrivals = arrivals;
            for (int i = 0; i < executors.length; i++)
            {
                executors[i] = Suite.executor("tpe-fanout-" + i);
            }
            fans = new Suite.Carriers<>(Fan::new);
        }

        @Override
        public boolean offer(final Payload frame, final long timestamp)
        {
            if (sent - arrivals.count() / (READERS + 1) >= IN_FLIGHT_FRAMES)
            {
                return false;
            }
            final Fan fan = fans.next();
            fan.frame = frame;
            frame.retain(READERS); // one reference per task
            sent++;
            for (int r = 0; r < READERS; r++)
            {
                executors[r].execute(fan.reader);
            }
            executors[READERS].execute(fan.writer);
            return true;
        }

        @Override
        public PayloadPool pool()
        {
            return pool;
        }

        @Override
        public long bytesCopied()
        {
            return cloned.get();
        }

        @Override
        public void close() throws Exception
        {
            Suite.shutdown(executors);
            pool.close();
        }
    }
}
