package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.WorkerJournal;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PixelFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Payloads captured at emit (format 1.10's CAPTURED records), in both modes: a frame's bytes and
 * shape, and a blob's, read back beside their EMIT records; a stream not captured has none; past
 * the capture limit capture stops, with a note naming the node and timestamp, and the emits go on.
 */
class PayloadCaptureTest
{
    @ParameterizedTest
    @EnumSource(JournalConfig.Mode.class)
    void aCapturedOutputsFramesComeBackWithTheirShapeUntilTheLimit(
        final JournalConfig.Mode mode, @TempDir final Path dir) throws Exception
    {
        // "frames" (stream 1) is a node output: captured at emit; 3 frames of 8x4 RGBA (128 B) fit in 300 B
        final JournalConfig config = new JournalConfig().directory(dir).mode(mode).captureStreams("frames")
            .captureLimit(300).blockSize(1 << 20);
        final Path run;
        try (PayloadPool pool = new PayloadPool(); JournalWriter writer = JournalWriter.open(config))
        {
            JournalRoundTripTest.start(writer);
            final WorkerJournal worker = writer.worker(0);
            for (int t = 0; t < 5; t++)
            {
                final Payload frame = pool.acquireFrame(8, 4, PixelFormat.RGBA32);
                frame.mutableBuffer().setMemory(0, frame.length(), (byte)(t + 1));
                worker.processBegin(0, t);
                worker.emit(0, 1, t, frame, 0);
                final Payload blob = pool.acquire(16);
                worker.emit(0, 2, t, blob, 0); // "out": not captured
                worker.processEnd(0, t);
                frame.release();
                blob.release();
            }
            writer.runEnd("done");
            run = writer.runDirectory();
        }
        final JournalReader reader = JournalReader.read(run);
        assertEquals(JournalDescriptor.FORMAT_MINOR, reader.formatMinor());
        assertTrue(reader.captureStreams().contains("frames"), reader.captureStreams().toString());
        final List<JournalRecord> captured = reader.records().stream()
            .filter(r -> r.kind() == JournalRecord.Kind.CAPTURED).toList();
        assertEquals(2, captured.size(), "128 B each: the third would pass 300 B; capture stops there: " + captured);
        for (int t = 0; t < captured.size(); t++)
        {
            final JournalRecord r = captured.get(t);
            assertEquals("frames", r.streamName());
            assertEquals("source", r.nodeName());
            assertEquals(t, r.timestamp());
            assertEquals("frame 8x4 RGBA32 stride 32", r.shape().toString());
            final ByteBuffer bytes = r.payload();
            assertEquals(128, bytes.remaining());
            assertEquals(t + 1, bytes.get(127));
            assertEquals(JournalRecord.VALUE_CAPTURED, r.valueKind());
        }
        assertEquals(10, reader.records().stream().filter(r -> r.kind() == JournalRecord.Kind.EMIT).count(),
            "every packet's EMIT, captured or not");
        final JournalRecord note = reader.records().stream().filter(r -> r.kind() == JournalRecord.Kind.NOTE &&
            r.text().startsWith(PayloadCapture.STOPPED)).findFirst().orElseThrow();
        assertEquals("source", note.nodeName());
        assertEquals(2, note.timestamp());
        assertTrue(note.text().contains("of 300 bytes") && note.text().contains("the run went on"), note.text());
        assertNull(reader.cutAt());
    }
}
