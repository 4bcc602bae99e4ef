package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.JournalSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static dev.framewire.journal.JournalRecord.Kind.GRAPH_INPUT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Format 1.8's PACKED_INPUTS: the ASYNC journal agent writes the graph inputs it takes off the
 * shared ring one after another as varint entries. Every input reads back as the GRAPH_INPUT it
 * was, extreme numbers exactly and in the order given; an input alone is written as its own
 * GRAPH_INPUT record; a record whose count lies under an intact checksum is reported, its inputs
 * skipped together, never read past its end.
 */
@Timeout(60)
class JournalInputsTest
{
    private static final int INPUTS = 2_000;
    private static final int STREAMS = JournalRoundTripTest.STREAMS.length;

    @TempDir
    Path dir;

    /** What {@link #writeInputs} gave, by input: stream, value kind, value, timestamp. */
    private final int[] streams = new int[INPUTS];
    private final int[] kinds = new int[INPUTS];
    private final long[] values = new long[INPUTS];
    private final long[] timestamps = new long[INPUTS];

    @Test
    void graphInputsInARowArePackedAndReadBackExactly() throws Exception
    {
        final Path run = writeInputs();
        final long[] packed = JournalCallsTest.firstRecordOfKind(
            JournalFiles.cycleFiles(run).get(0), JournalDescriptor.PACKED_INPUTS);
        assertTrue(packed[0] > 0);
        final List<JournalRecord> inputs = inputs(JournalReader.read(run).records());
        assertEquals(INPUTS, inputs.size());
        long nanos = Long.MIN_VALUE;
        for (int i = 0; i < INPUTS; i++)
        {
            final JournalRecord r = inputs.get(i);
            assertEquals(streams[i], r.stream(), r::toString);
            assertEquals(JournalRoundTripTest.STREAMS[streams[i]], r.streamName(), r::toString);
            assertEquals(kinds[i], r.valueKind(), r::toString);
            assertEquals(values[i], r.value(), r::toString);
            assertEquals(timestamps[i], r.timestamp(), r::toString);
            assertEquals(-1, r.worker(), r::toString);
            assertTrue(r.nanos() >= nanos, r::toString); // one adding thread: its clock readings in order
            nanos = r.nanos();
        }
    }

    @Test
    void anInputAloneIsWrittenAsItsOwnRecord() throws Exception
    {
        final Path run;
        try (JournalWriter writer = JournalWriter.open(JournalRoundTripTest.config(dir, JournalConfig.Mode.ASYNC)))
        {
            run = writer.runDirectory();
            JournalRoundTripTest.start(writer);
            writer.graphInput(1, 42, JournalSink.LONG, -7);
            assertTrue(writer.flush(TimeUnit.SECONDS.toNanos(10)));
            writer.runEnd("done");
        }
        final Path file = JournalFiles.cycleFiles(run).get(0);
        assertThrows(AssertionError.class, () -> JournalCallsTest.firstRecordOfKind(file, JournalDescriptor.PACKED_INPUTS));
        JournalCallsTest.firstRecordOfKind(file, JournalDescriptor.GRAPH_INPUT);
        final List<JournalRecord> inputs = inputs(JournalReader.read(run).records());
        assertEquals(1, inputs.size());
        assertEquals(42, inputs.get(0).timestamp());
        assertEquals(-7, inputs.get(0).value());
    }

    @Test
    void aPackedInputsRecordWhoseCountLiesIsReportedNotReadPastItsEnd() throws Exception
    {
        final Path run = writeInputs();
        final Path file = JournalFiles.cycleFiles(run).get(0);
        final long[] record = JournalCallsTest.firstRecordOfKind(file, JournalDescriptor.PACKED_INPUTS);
        final JournalFileBytes bytes = new JournalFileBytes(file);
        final int count = bytes.readInt(record[0] + JournalDescriptor.INPUTS_COUNT_OFFSET);
        assertTrue(count >= 2, "count " + count);
        final int length = JournalCallsTest.recordLength(bytes, record);

        // more inputs than it holds: its entries run out before the count
        bytes.pokeInt(record[0] + JournalDescriptor.INPUTS_COUNT_OFFSET, count + 1000); // the checksum is made to hold
        bytes.fixChecksum(record[1]);
        JournalDamage damage = JournalCallsTest.onlyDamage(run);
        assertEquals(JournalDamage.Kind.CORRUPT_RECORD, damage.kind());
        assertTrue(damage.toString().contains("a PACKED_INPUTS record of " + length + " bytes claims " + (count + 1000) +
            " graph inputs, but its entries run past its end after " + count), damage.toString());
        // that record's inputs are lost together, the others read
        JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        assertEquals(INPUTS - count, inputs(ex.readable().records()).size());
        assertEquals("done", ex.readable().runEnd().text());

        // fewer: bytes are left after the last
        bytes.pokeInt(record[0] + JournalDescriptor.INPUTS_COUNT_OFFSET, count - 1);
        bytes.fixChecksum(record[1]);
        damage = JournalCallsTest.onlyDamage(run);
        assertTrue(damage.toString().contains("a PACKED_INPUTS record of " + length + " bytes claims " + (count - 1) +
            " graph inputs, but they end at byte "), damage.toString());

        // one: a record holds at least two
        bytes.pokeInt(record[0] + JournalDescriptor.INPUTS_COUNT_OFFSET, 1);
        bytes.fixChecksum(record[1]);
        damage = JournalCallsTest.onlyDamage(run);
        assertTrue(damage.toString().contains("claims 1 graph inputs, but a record holds at least two"),
            damage.toString());
        ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        assertEquals(INPUTS - count, inputs(ex.readable().records()).size());
    }

    /**
     * {@link #INPUTS} graph inputs from the test's thread (not a worker's: the shared ring), as
     * fast as it gives them so that the agent takes many in a row: every stream, every value kind a
     * graph input without a payload has, values and timestamp steps near 0, near a power of two and
     * anywhere, either sign, {@code Long.MIN_VALUE} and {@code Long.MAX_VALUE} among them.
     */
    private Path writeInputs() throws Exception
    {
        final Random random = new Random(8);
        long timestamp = Long.MIN_VALUE;
        for (int i = 0; i < INPUTS; i++)
        {
            streams[i] = random.nextInt(STREAMS);
            timestamp += i == 0 ? 0 : 1 + (random.nextInt(4) == 0 ? random.nextInt(Integer.MAX_VALUE) : random.nextInt(40));
            timestamps[i] = i == INPUTS - 1 ? Long.MAX_VALUE : timestamp;
            final long wide = i == 1 ? Long.MIN_VALUE : i == 2 ? Long.MAX_VALUE : JournalCallsTest.wide(random);
            switch (random.nextInt(4))
            {
                case 0:
                case 1:
                    kinds[i] = JournalRecord.VALUE_LONG; // every other one a boxed Long, below
                    values[i] = wide;
                    break;
                case 2:
                    kinds[i] = JournalRecord.VALUE_DOUBLE;
                    values[i] = wide;
                    break;
                default:
                    kinds[i] = JournalRecord.VALUE_NONE; // a Java object: its timestamp only
                    values[i] = 0;
                    break;
            }
        }
        final Path run;
        try (JournalWriter writer = JournalWriter.open(JournalRoundTripTest.config(dir, JournalConfig.Mode.ASYNC)))
        {
            run = writer.runDirectory();
            JournalRoundTripTest.start(writer);
            for (int i = 0; i < INPUTS; i++)
            {
                final Object value = kinds[i] == JournalRecord.VALUE_LONG ?
                    (i % 2 == 0 ? JournalSink.LONG : Long.valueOf(values[i])) :
                    kinds[i] == JournalRecord.VALUE_DOUBLE ? JournalSink.DOUBLE : "an object";
                writer.graphInput(streams[i], timestamps[i], value, values[i]);
            }
            writer.runEnd("done");
        }
        assertEquals(0, JournalReader.read(run).lostRecords());
        return run;
    }

    private static List<JournalRecord> inputs(final List<JournalRecord> records)
    {
        final List<JournalRecord> inputs = new ArrayList<>();
        for (final JournalRecord r : records)
        {
            if (r.kind() == GRAPH_INPUT)
            {
                inputs.add(r);
            }
        }
        return inputs;
    }
}
