package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static dev.framewire.journal.JournalRecord.Kind.EMIT;
import static dev.framewire.journal.JournalRecord.Kind.GRAPH_INPUT;
import static dev.framewire.journal.JournalRecord.Kind.PROCESS_BEGIN;
import static dev.framewire.journal.JournalRecord.Kind.PROCESS_END;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A child JVM journals in a loop and is killed with SIGKILL ({@link Process#destroyForcibly()})
 * mid-run; the parent reads its journal and finds every record the child had reported durable,
 * in order, with nothing after a gap.
 */
@Timeout(60)
class JournalCrashTest
{
    static final long KILL_AFTER = 20_000;

    @TempDir
    Path dir;

    static Path jvmConfig()
    {
        for (Path d = Path.of(System.getProperty("user.dir")).toAbsolutePath(); d != null; d = d.getParent())
        {
            final Path config = d.resolve(".mvn").resolve("jvm.config");
            if (Files.isRegularFile(config))
            {
                return config;
            }
        }
        throw new IllegalStateException("no .mvn/jvm.config above " + System.getProperty("user.dir"));
    }

    @ParameterizedTest
    @EnumSource(JournalConfig.Mode.class)
    void recordsWrittenBeforeAKillNineAreReadable(final JournalConfig.Mode mode) throws Exception
    {
        final Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        final Path stderr = dir.resolve("child-stderr.txt");
        final ProcessBuilder builder = new ProcessBuilder(java.toString(), "@" + jvmConfig(), "-Xmx128m",
            "-cp", System.getProperty("java.class.path"), JournalCrashChild.class.getName(),
            dir.resolve("journals").toString(), mode.name())
            .redirectError(stderr.toFile());
        final Process child = builder.start();
        final AtomicLong durable = new AtomicLong();
        final AtomicReference<Path> run = new AtomicReference<>();
        try
        {
            final Thread reader = new Thread(() ->
            {
                try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)))
                {
                    String line;
                    while ((line = in.readLine()) != null)
                    {
                        if (line.startsWith("RUN "))
                        {
                            run.set(Path.of(line.substring(4)));
                        }
                        else if (line.startsWith("DURABLE "))
                        {
                            durable.set(Long.parseLong(line.substring(8)));
                        }
                    }
                }
                catch (final Exception ignored)
                {
                    // the child died: its pipe closes
                }
            }, "crash-child-stdout");
            reader.setDaemon(true);
            reader.start();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            while (durable.get() < KILL_AFTER && child.isAlive() && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
            assertTrue(child.isAlive(), () -> "the child died on its own: " + read(stderr));
            assertTrue(durable.get() >= KILL_AFTER, () -> "the child did not get far in 40 s: " + read(stderr));
            // another process is writing the run: retention never deletes it, whatever the limits
            assertEquals(JournalRetention.Verdict.IN_USE, verdict(run.get(), 0));
        }
        finally
        {
            child.destroyForcibly();
            assertTrue(child.waitFor(20, TimeUnit.SECONDS));
        }
        assertEquals(137, child.exitValue(), "killed by SIGKILL");
        final long reported = durable.get(); // the last line read before the kill; the child may have gone further
        assertNotNull(run.get());

        final JournalReader journal = JournalReader.read(run.get());
        assertNull(journal.runEnd(), "a killed run has no end record");
        // the child's one thread makes, per iteration i, GRAPH_INPUT i (worker -1), then worker 0's
        // PROCESS_BEGIN, EMIT, PROCESS_END at i. SYNC: the file is that order, a contiguous prefix of
        // it, at most the last iteration cut short. ASYNC: the graph inputs go through the many-to-one
        // ring and worker 0's records through its own, and the agent appends the rings in turn: each
        // is a contiguous prefix in its own order, and nothing is lost but what was in the rings
        final List<JournalRecord> records = journal.records();
        final long[] counted = checkOrder(mode, records.subList(2, records.size()));
        final long inputs = counted[0];
        final long calls = counted[1];
        final long phase = counted[2];
        final long iteration = Math.min(inputs, calls);
        System.out.println(mode + ": the child reported " + reported + " iterations durable; the journal holds " +
            inputs + " graph inputs and " + calls + " calls" + (phase > 0 ? " and " + phase + " records of the next" : "") +
            (journal.endsIncomplete() ? ", then an incomplete record" : ""));
        assertTrue(iteration >= reported, "read " + iteration + " iterations, the child had reported " + reported +
            " durable");
        assertFalse(journal.isDamaged(), "a killed run is not damage: " + journal.damage());
        // the OS dropped the dead writer's lock: the run can go
        assertEquals(JournalRetention.Verdict.DELETE, verdict(run.get(), 0));
        // the crash window: the writer never closed, so nothing restricted the files after the fact;
        // each was made owner-only when it was made
        if (JournalFiles.isPosix(run.get()))
        {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(run.get())));
            try (DirectoryStream<Path> files = Files.newDirectoryStream(run.get()))
            {
                for (final Path file : files)
                {
                    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)),
                        file.toString());
                }
            }
        }
    }

    /** Checks the records after the run header are in the order the child wrote; returns {inputs, calls, phase}. */
    private static long[] checkOrder(final JournalConfig.Mode mode, final List<JournalRecord> records)
    {
        final JournalRecord.Kind[] call = {PROCESS_BEGIN, EMIT, PROCESS_END};
        long inputs = 0;
        long calls = 0;
        int phase = 0;
        for (final JournalRecord r : records)
        {
            if (r.kind() == GRAPH_INPUT)
            {
                if (mode == JournalConfig.Mode.SYNC)
                {
                    assertTrue(phase == 0 && inputs == calls, r::toString);
                }
                assertEquals(inputs, r.timestamp(), r::toString);
                inputs++;
                continue;
            }
            if (mode == JournalConfig.Mode.SYNC)
            {
                assertEquals(calls + 1, inputs, r::toString);
            }
            assertEquals(call[phase], r.kind(), r::toString);
            assertEquals(0, r.worker(), r::toString);
            assertEquals(calls, r.timestamp(), r::toString);
            if (r.kind() == EMIT)
            {
                assertEquals(calls * 2, r.value());
            }
            if (++phase == call.length)
            {
                phase = 0;
                calls++;
            }
        }
        return new long[] {inputs, calls, phase};
    }

    private static JournalRetention.Verdict verdict(final Path run, final long maxTotalBytes) throws IOException
    {
        for (final JournalRetention.Decision d : JournalRetention.plan(run.getParent(), null, maxTotalBytes,
            Instant.now()))
        {
            if (d.run().equals(run))
            {
                return d.verdict();
            }
        }
        throw new AssertionError(run + " is not among the runs of " + run.getParent());
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final Exception ex)
        {
            return ex.toString();
        }
    }
}
