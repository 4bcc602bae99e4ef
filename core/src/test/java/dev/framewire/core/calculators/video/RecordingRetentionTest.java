package dev.framewire.core.calculators.video;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A camera's size limit: the oldest segments go first, down to the limit, never the newest (the open one). */
class RecordingRetentionTest
{
    @TempDir
    Path dir;

    @Test
    void theOpenSegmentStaysEvenAloneOverTheLimit() throws Exception
    {
        final Recording recording = new Recording("cam", dir, 10, "mp4", 0, 1);
        recording.prepare();
        final Path old = Files.write(recording.dir().resolve("cam-20000101T000000Z-0000000000001.mp4"),
            new byte[300_000]);
        final Path open = Files.write(recording.dir().resolve("cam-20000101T000010Z-0000000000001.mp4"),
            new byte[2_000_000]);
        assertEquals(1, recording.sweep(System.currentTimeMillis()));
        assertFalse(Files.exists(old), "older than the open one, and the camera over its 1 MB");
        assertTrue(Files.exists(open), "the open segment is never deleted, even alone over the limit");
        assertEquals(0, recording.sweep(System.currentTimeMillis()));
    }

    @Test
    void underTheLimitNothingGoes() throws Exception
    {
        final Recording recording = new Recording("cam", dir, 10, "mp4", 0, 1);
        recording.prepare();
        Files.write(recording.dir().resolve("cam-20000101T000000Z-0000000000001.mp4"), new byte[400_000]);
        Files.write(recording.dir().resolve("cam-20000101T000010Z-0000000000001.mp4"), new byte[400_000]);
        assertEquals(0, recording.sweep(System.currentTimeMillis()));
        assertEquals(2, recording.segments().size());
    }
}
