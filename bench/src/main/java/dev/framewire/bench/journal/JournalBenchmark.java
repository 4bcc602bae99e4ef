package dev.framewire.bench.journal;

import dev.framewire.bench.suite.Suite;
import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.WorkerJournal;
import dev.framewire.journal.JournalRecord;
import dev.framewire.journal.JournalWriter;
import dev.framewire.journal.PayloadChecksum;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PoolContext;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * What one journal record costs the worker that writes it: {@code processBegin} (the smallest
 * record), {@code emitLong} (an unboxed long packet, its bits recorded) and {@code emitChecksum1k}
 * (a 1 KiB payload on a checksum stream: XXH64 of its bytes, then the record; {@code checksum1k}
 * is the checksum alone, and writes nothing). In {@code SYNC}
 * mode the op appends to Chronicle's mapped file; in {@code ASYNC} it claims a slot in the
 * many-to-one ring and returns, while the journal agent (a second thread, parking when idle)
 * appends. Every op must allocate nothing: {@code gc.alloc.rate.norm} ≈ 0 B/op (the profiler
 * counts every thread, Chronicle's and the agent's too; the unit test
 * {@code JournalAllocationTest} counts the writing thread alone).
 *
 * <p>Iterations are 200 ms and the ASYNC ring 512 MiB, so that a producer that never pauses does
 * not fill it within one iteration; after each, the agent drains the ring, untimed. (Run with the
 * script's defaults, {@code -r 1s} overrides this and a fast producer outruns the agent: the line
 * printed after each iteration says how many records a full ring lost.)
 *
 * <p>At the end the journal is counted: it must hold one record per op, less the records the
 * writer counted lost, or the benchmark throws. Then it is deleted.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = "-XX:MaxDirectMemorySize=2g")
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 200, timeUnit = TimeUnit.MILLISECONDS)
public class JournalBenchmark
{
    /**
     * ASYNC: 512 MiB, so that one 200 ms iteration of a producer that never pauses fits: the op
     * then measures what a worker pays, not a full ring's refusal. (A producer this fast
     * outruns the agent, which appends at SYNC's rate; see docs/JOURNAL.md.)
     */
    private static final int RING_BYTES = 1 << 29;
    /** The header and the run start, written before the ops, and the run end after them. */
    private static final int PREAMBLE = 3;
    /**
     * Record kinds of the journal's format 1.10 that hold other records: the agent's BATCH,
     * PACKED_INPUTS and PACKED_EMITS, a worker's CALLS, PACKED_CALLS and DENSE_CALLS.
     */
    private static final byte BATCH = 14;
    private static final byte CALLS = 18;
    private static final byte PACKED_CALLS = 19;
    private static final byte PACKED_INPUTS = 20;
    private static final byte DENSE_CALLS = 21;
    private static final byte PACKED_EMITS = 23;

    @Param({"SYNC", "ASYNC"})
    public String mode;

    private Path root;
    private PayloadPool pool;
    private Payload frame;
    private JournalWriter writer;
    private WorkerJournal worker;
    private long ops;

    @Setup(Level.Trial)
    public void setUp() throws IOException
    {
        root = Files.createTempDirectory("framewire-journal-bench");
        pool = new PayloadPool(new PoolContext().leakTracking(false));
        frame = pool.acquire(1024);
        for (int i = 0; i < 1024; i++)
        {
            frame.mutableBuffer().putByte(i, (byte)i);
        }
        writer = JournalWriter.open(new JournalConfig().directory(root).mode(JournalConfig.Mode.valueOf(mode))
            .checksumStreams("frames").ringCapacity(RING_BYTES));
        writer.runStart("bench", 1, "bench", new String[]{"source", "detector"}, new String[]{"in", "frames", "out"},
            new String[]{"worker-0"}, new int[][]{{0}, {1}});
        worker = writer.worker(0);
    }

    /** ASYNC: lets the agent empty the ring (untimed), so that every iteration starts alike. */
    @TearDown(Level.Iteration)
    public void drain()
    {
        if (!writer.flush(TimeUnit.SECONDS.toNanos(120)))
        {
            throw new IllegalStateException("the journal agent did not drain the ring in 120 s");
        }
        System.out.printf("%n  %s: %,d ops so far, %,d lost to a full ring%n", mode, ops, writer.lostRecords());
    }

    @TearDown(Level.Trial)
    public void checkJournal(final BenchmarkParams params)
    {
        // a call still open (processBegin's last) goes in at the run's end
        writer.runEnd("done");
        final long lost = writer.lostRecords();
        final Path run = writer.runDirectory();
        writer.close();
        frame.release();
        pool.close();
        if (writer.failures() != 0)
        {
            throw new IllegalStateException(writer.failures() + " appends failed", writer.firstFailure());
        }
        // SYNC journals a call as three records (begin, emit, end); ASYNC stages it as one entry
        final String benchmark = params.getBenchmark();
        final boolean calls = benchmark.endsWith(".call") || benchmark.endsWith(".callSameWorker") ||
            benchmark.endsWith(".callWorkerJournal");
        final long records = (count(run) - PREAMBLE) / (calls && mode.equals("SYNC") ? 3 : 1);
        System.out.printf("%n  %s: %,d ops, %,d records in the journal, %,d lost to a full ring (%.2f %%)%n", mode,
            ops, records, lost, 100.0 * lost / Math.max(1, ops));
        delete(root);
        if (records + lost != ops)
        {
            throw new IllegalStateException("the journal holds " + records + " records and " + lost +
                " were counted lost, for " + ops + " ops");
        }
    }

    private static long count(final Path run)
    {
        long n = 0;
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(run).readOnly(true).build())
        {
            final ExcerptTailer tailer = queue.createTailer();
            while (true)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    if (!dc.isPresent())
                    {
                        return n;
                    }
                    final Bytes<?> bytes = dc.wire().bytes();
                    final long at = bytes.readPosition();
                    if (bytes.readByte(at) == BATCH)
                    {
                        // the agent's append: count (int) at 4, then each record as its length (int) and bytes
                        final int count = bytes.readInt(at + 4);
                        long record = at + 8;
                        for (int i = 0; i < count; i++)
                        {
                            final int length = bytes.readInt(record);
                            n += ops(bytes, record + 4);
                            record += 4 + length;
                        }
                    }
                    else
                    {
                        n += ops(bytes, at);
                    }
                }
            }
        }
    }

    /**
     * The ops a record stands for (the layouts of {@code JournalDescriptor}): a worker's staged calls
     * (CALLS, PACKED_CALLS, DENSE_CALLS: count (int) at 8) one per call, the agent's packed graph inputs
     * and emits (PACKED_INPUTS, PACKED_EMITS: count at 8) one per packet, its LOST records none, any
     * other one.
     */
    private static long ops(final Bytes<?> bytes, final long record)
    {
        final byte kind = bytes.readByte(record);
        if (kind == CALLS || kind == PACKED_CALLS || kind == DENSE_CALLS || kind == PACKED_INPUTS ||
            kind == PACKED_EMITS)
        {
            return bytes.readInt(record + 8);
        }
        return kind == JournalRecord.Kind.LOST.code() ? 0 : 1;
    }

    private static void delete(final Path dir)
    {
        try
        {
            Suite.deleteTree(dir);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    @Benchmark
    public void processBegin()
    {
        writer.processBegin(0, 1, ops++);
    }

    /**
     * One whole call as a chain's worker journals it: its begin, the packet it emits at its input
     * timestamp, its end. ASYNC stages it (one clock read, an entry in the worker's staging, a ring
     * message every 64 calls); SYNC appends three records.
     */
    @Benchmark
    public void call()
    {
        final long ts = ops++;
        writer.processBegin(0, 1, ts);
        writer.emit(0, 1, 2, ts, JournalWriter.LONG, ts);
        writer.processEnd(0, 1, ts);
    }

    /**
     * {@link #call} of a node fed from its own worker ({@code processBeginSameWorker}): under ASYNC's
     * default {@code ClockReads.HAND_OVER} it begins at the worker's last clock reading, so the
     * clock is read once per 64 calls (when the staged calls go) rather than once a call. SYNC
     * reads it for every record, as in {@link #call}.
     */
    @Benchmark
    public void callSameWorker()
    {
        final long ts = ops++;
        writer.processBeginSameWorker(0, 1, ts);
        writer.emit(0, 1, 2, ts, JournalWriter.LONG, ts);
        writer.processEnd(0, 1, ts);
    }

    /**
     * {@link #callSameWorker} as the engine makes it: through the worker's journal
     * ({@code JournalWriter.worker}), which the engine takes once per worker, so that no call
     * looks the worker's ring up by its id.
     */
    @Benchmark
    public void callWorkerJournal()
    {
        final long ts = ops++;
        final WorkerJournal worker = this.worker;
        worker.processBeginSameWorker(1, ts);
        worker.emit(1, 2, ts, JournalWriter.LONG, ts);
        worker.processEnd(1, ts);
    }

    @Benchmark
    public void emitLong()
    {
        final long ts = ops++;
        writer.emit(0, 1, 2, ts, JournalWriter.LONG, ts);
    }

    @Benchmark
    public void emitChecksum1k()
    {
        writer.emit(0, 1, 1, ops++, frame);
    }

    /** The checksum alone, for what {@code emitChecksum1k} adds to {@code emitLong}; writes no record. */
    @Benchmark
    public long checksum1k()
    {
        return PayloadChecksum.of(frame.buffer(), 0, 1024);
    }
}
