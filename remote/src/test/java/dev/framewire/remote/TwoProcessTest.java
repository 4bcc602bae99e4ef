package dev.framewire.remote;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.offheap.Payload;
import org.agrona.IoUtil;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static dev.framewire.remote.RemoteTestSupport.await;
import static dev.framewire.remote.RemoteTestSupport.channel;
import static dev.framewire.remote.RemoteTestSupport.publisher;
import static dev.framewire.remote.RemoteTestSupport.streamId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frames between two JVMs over UDP on 127.0.0.1: this one publishes, a child ({@link RemoteChild})
 * receives. Every frame arrives with the checksum it left with; a receiver killed with SIGKILL
 * mid-run leaves the publisher running under DROP, counting what it could not send, and a new
 * receiver on the same endpoint gets frames again and the close, and reports the packets it missed.
 * A publisher ({@link RemotePublisherChild}) killed with SIGKILL mid-run is reported gone by the
 * receiver in this JVM once its image goes silent past the liveness timeout, which closes the
 * stream or keeps it open per {@code publisher_lost}; nothing leaks either way.
 */
class TwoProcessTest
{
    @Test
    @Timeout(120)
    void framesCrossWithTheirChecksums() throws Exception
    {
        final String channel = channel(RemoteTestSupport.Transport.UDP);
        final int id = streamId();
        final Map<Long, Long> sent = new ConcurrentHashMap<>();
        try (Child child = new Child(RemoteChild.class, channel, id);
            Graph sender = new Graph(publisher(channel, id, n -> n.option("mtu", 8192L))))
        {
            sender.start();
            final GraphInputHandle in = sender.input("in");
            for (long ts = 0; ts < 200; ts++)
            {
                in.addPacket(frame(sender, ts, sent), ts);
            }
            sender.closeAllInputs();
            sender.waitUntilDone();
            assertEquals(0, child.waitFor(), child.stderr());
            assertEquals(sent, child.frames, "every frame, each with the checksum it left with");
            assertEquals(200L, child.done.get());
        }
    }

    @Test
    @Timeout(120)
    void aReceiverKilledMidRunCostsDropsAndARestartedOneGetsFramesAgain() throws Exception
    {
        final String channel = channel(RemoteTestSupport.Transport.UDP);
        final int id = streamId();
        final Map<Long, Long> sent = new ConcurrentHashMap<>();
        try (Graph sender = new Graph(publisher(channel, id, n -> n.option("mtu", 8192L).option("policy", "DROP")));
            Child first = new Child(RemoteChild.class, channel, id))
        {
            sender.start();
            final GraphInputHandle in = sender.input("in");
            final AtomicLong ts = new AtomicLong();
            final Runnable sendOne = () ->
            {
                try
                {
                    final long t = ts.getAndIncrement();
                    in.addPacket(frame(sender, t, sent), t);
                    Thread.sleep(2); // paced, a camera's way: a DROP publisher never waits itself
                }
                catch (final InterruptedException ex)
                {
                    throw new IllegalStateException(ex);
                }
            };
            while (first.frames.size() < 20)
            {
                assertTrue(first.process.isAlive(), first.stderr());
                sendOne.run();
            }
            first.process.destroyForcibly(); // SIGKILL: no CLOSE, no clean driver shutdown
            first.process.waitFor(10, TimeUnit.SECONDS);
            first.deleteDriverDirectory();
            final long dropsBefore = sender.dropCount("tx");
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (sender.dropCount("tx") == dropsBefore && System.nanoTime() < deadline)
            {
                sendOne.run();
            }
            assertTrue(sender.dropCount("tx") > dropsBefore, "frames nobody took were counted: " + sender.report());
            try (Child second = new Child(RemoteChild.class, channel, id))
            {
                final long restartedAt = ts.get();
                final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (second.frames.size() < 20 && System.nanoTime() < until)
                {
                    assertTrue(second.process.isAlive(), second.stderr());
                    sendOne.run();
                }
                assertTrue(second.frames.size() >= 20, "the restarted receiver gets frames again");
                sender.closeAllInputs();
                sender.waitUntilDone();
                assertEquals(0, second.waitFor(), second.stderr());
                // it may also get frames the publication took while no one read them (within the
                // flow control window, so few), since the sender resumes where it stopped
                assertTrue(second.frames.keySet().stream().anyMatch(t -> t >= restartedAt), "frames sent after the restart");
                for (final Map.Entry<Long, Long> e : second.frames.entrySet())
                {
                    assertEquals(sent.get(e.getKey()), e.getValue(), "checksum of the frame at " + e.getKey());
                }
                for (final Map.Entry<Long, Long> e : first.frames.entrySet())
                {
                    assertEquals(sent.get(e.getKey()), e.getValue(), "checksum of the frame at " + e.getKey());
                }
                assertEquals((long)second.frames.size(), second.done.get());
                assertTrue(second.lost.get() > 0, "the restarted receiver counted the packets it never got");
            }
        }
    }

    /** The receiving driver's image liveness timeout here: Aeron's default is 10 s. */
    private static final long LIVENESS_MS = 1_000;

    @ParameterizedTest
    @ValueSource(strings = {"CLOSE", "WAIT"})
    @Timeout(120)
    void aPublisherKilledMidRunIsReportedGoneAndTheStreamClosesOrWaitsPerPublisherLost(final String publisherLost)
        throws Exception
    {
        final String channel = channel(RemoteTestSupport.Transport.UDP);
        final int id = streamId();
        final Map<Long, Long> got = new ConcurrentHashMap<>();
        final Queue<RemoteStatus> statuses = new ConcurrentLinkedQueue<>();
        // a driver of the test's own, given to the subscriber as an external one (aeron_dir), so
        // that a silent image is declared gone after 1 s rather than Aeron's 10 s
        final Path aeronDir = Files.createTempDirectory("framewire-test-aeron-");
        final String driverDir = aeronDir.resolve("aeron").toString();
        final GraphConfig config = GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .executor("rx", ExecutorConfig.of(1, IdleKind.PARK))
            .node("rx", n -> n.calculator(AeronSubscriberCalculator.NAME).executor("rx")
                .outputStream("out", "STATUS:status")
                .option("channel", channel).option("stream_id", (long)id)
                .option("publisher_lost", publisherLost).option("aeron_dir", driverDir)
                .option("key_file", RemoteTestSupport.keyFile()))
            .outputStream("out", "status")
            .build();
        try (MediaDriver driver = MediaDriver.launch(new MediaDriver.Context()
                .aeronDirectoryName(driverDir)
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(new BackoffIdleStrategy(10, 20, 1_000, 1_000_000))
                .termBufferSparseFile(true)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true)
                .imageLivenessTimeoutNs(TimeUnit.MILLISECONDS.toNanos(LIVENESS_MS)));
            Graph receiver = new Graph(config))
        {
            receiver.observe("out", p -> got.put(p.timestamp(), RemoteChild.crc(p.payload())));
            receiver.observe("status", p -> statuses.add(p.get(RemoteStatus.class)));
            receiver.start();
            try (Child publisher = new Child(RemotePublisherChild.class, channel, id))
            {
                await("20 frames from the child publisher", 60_000, () -> got.size() >= 20 || !publisher.process.isAlive());
                assertTrue(publisher.process.isAlive(), publisher.stderr());
                publisher.process.destroyForcibly(); // SIGKILL: no CLOSE, no clean driver shutdown
                assertTrue(publisher.process.waitFor(10, TimeUnit.SECONDS));
                publisher.deleteDriverDirectory();
                final long killedAt = System.nanoTime();
                await("the receiver to report the publisher gone", 30_000, () -> statuses.stream()
                    .anyMatch(s -> s.kind() == RemoteStatus.Kind.DISCONNECTED));
                final long reportedAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
                final List<RemoteStatus> gone = statuses.stream()
                    .filter(s -> s.kind() == RemoteStatus.Kind.DISCONNECTED).toList();
                assertEquals(1, gone.size(), statuses.toString());
                final String reason = gone.get(0).reason();
                if (publisherLost.equals("CLOSE"))
                {
                    assertEquals("publisher gone without closing the stream; the stream closes (publisher_lost CLOSE)",
                        reason);
                    assertTrue(receiver.awaitDone(20, TimeUnit.SECONDS), "the stream closed: " + receiver.report());
                    receiver.waitUntilDone();
                }
                else
                {
                    assertEquals("publisher gone without closing the stream; the stream stays open for it to come " +
                        "back (publisher_lost WAIT)", reason);
                    assertFalse(receiver.awaitDone(LIVENESS_MS, TimeUnit.MILLISECONDS),
                        "publisher_lost WAIT keeps the stream open: " + receiver.report());
                    receiver.cancel();
                }
                // within the test driver's 1 s liveness timeout and the receiver's next look, well
                // before Aeron's default 10 s
                assertTrue(reportedAfterMs < 8_000, "reported after the liveness timeout, not Aeron's default: " +
                    reportedAfterMs + " ms");
                assertTrue(statuses.stream().anyMatch(s -> s.kind() == RemoteStatus.Kind.CONNECTED), statuses.toString());
                publisher.reader.join(10_000); // the killed child's output is read to its end
                assertFalse(publisher.reader.isAlive(), "the killed child's output ended");
                assertTrue(got.size() >= 20);
                // The child prints a frame's checksum before it sends the frame, but the last lines of a
                // killed child can be lost to the reader (the JDK drains a dead process's pipe into a
                // buffer of its own while the reader may be blocked on it): a frame with no line is
                // allowed only after the last line read; every other frame must match its line.
                final long lastReported = publisher.sent.keySet().stream().mapToLong(Long::longValue).max().orElse(-1);
                int checked = 0;
                for (final Map.Entry<Long, Long> e : got.entrySet())
                {
                    final Long sent = publisher.sent.get(e.getKey());
                    if (sent == null)
                    {
                        assertTrue(e.getKey() > lastReported, () -> "no checksum line for the frame at " + e.getKey() +
                            ", before the last line read (" + lastReported + "); the child's other output: " +
                            publisher.other);
                        continue;
                    }
                    assertEquals(sent, e.getValue(), () -> "checksum of the frame at " + e.getKey() +
                        "; the child's other output: " + publisher.other + "; stderr:\n" + publisher.stderr());
                    checked++;
                }
                assertTrue(checked >= 10, "frames checked against the child's lines: " + checked + " of " + got.size());
            }
        }
        finally
        {
            IoUtil.delete(aeronDir.toFile(), true);
        }
    }

    private static Payload frame(final Graph sender, final long ts, final Map<Long, Long> sent)
    {
        final Payload p = RemotePublisherChild.frame(sender, ts);
        sent.put(ts, RemoteChild.crc(p));
        return p;
    }

    /** A child JVM ({@link RemoteChild} or {@link RemotePublisherChild}) and what it printed. */
    private static final class Child implements AutoCloseable
    {
        final Process process;
        final Map<Long, Long> frames = new ConcurrentHashMap<>();
        /** Lines of its standard output that are none of the above. */
        final Queue<String> other = new ConcurrentLinkedQueue<>();
        /** What a {@link RemotePublisherChild} sent: timestamp to checksum. */
        final Map<Long, Long> sent = new ConcurrentHashMap<>();
        final AtomicLong done = new AtomicLong(-1);
        final AtomicReference<String> directory = new AtomicReference<>();
        /** The most packets a GAP status said never arrived. */
        final AtomicLong lost = new AtomicLong();
        private final Path stderr;
        final Thread reader;

        Child(final Class<?> main, final String channel, final int id) throws Exception
        {
            stderr = Files.createTempFile("remote-child-", ".txt");
            final Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            process = new ProcessBuilder(java.toString(), "@" + jvmConfig(), "-Xmx256m",
                "-XX:MaxDirectMemorySize=512m",
                "-Dframewire.leakTracking=true",
                "-XX:+DisplayVMOutputToStderr", // the VM's warnings must not cut into the lines read here
                "-cp", System.getProperty("java.class.path"), main.getName(), channel, Integer.toString(id))
                .redirectError(stderr.toFile())
                .start();
            reader = new Thread(() ->
            {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8)))
                {
                    String line;
                    while ((line = in.readLine()) != null)
                    {
                        try
                        {
                            parse(line);
                        }
                        catch (final RuntimeException ex)
                        {
                            other.add(line); // not one of ours, or one of ours cut by another writer
                        }
                    }
                }
                catch (final Exception ex)
                {
                    // the child was killed: its output ends
                }
            }, "remote-child-reader");
            reader.setDaemon(true);
            reader.start();
            await("the child's driver", 30_000, () -> directory.get() != null || !process.isAlive());
        }

        private void parse(final String line)
        {
            final String[] f = line.split(" ");
            if (f[0].equals("FRAME"))
            {
                frames.put(Long.parseLong(f[1]), Long.parseLong(f[2]));
            }
            else if (f[0].equals("SENT"))
            {
                sent.put(Long.parseLong(f[1]), Long.parseLong(f[2]));
            }
            else if (f[0].equals("DONE"))
            {
                done.set(Long.parseLong(f[1]));
            }
            else if (f[0].equals("STATUS") && f[1].equals("GAP"))
            {
                lost.accumulateAndGet(Long.parseLong(f[2]), Math::max);
            }
            else if (f[0].equals("DIR"))
            {
                directory.set(f[1]);
            }
            else
            {
                other.add(line);
            }
        }

        int waitFor() throws Exception
        {
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), () -> "the child ends once the stream closes; it got " +
                frames.size() + " frames, DONE " + done.get() + ", stderr:\n" + stderr());
            reader.join(10_000);
            return process.exitValue();
        }

        String stderr()
        {
            try
            {
                return Files.readString(stderr);
            }
            catch (final Exception ex)
            {
                return ex.toString();
            }
        }

        /** What a killed child's driver leaves: its owner-only parent directory under /dev/shm or tmp. */
        void deleteDriverDirectory()
        {
            final String dir = directory.get();
            if (dir != null)
            {
                IoUtil.delete(new File(dir).getParentFile(), true);
            }
        }

        @Override
        public void close() throws Exception
        {
            if (process.isAlive())
            {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                deleteDriverDirectory();
            }
            Files.deleteIfExists(stderr);
        }
    }

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
}
