package dev.framewire.tools;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.IdleKind;
import dev.framewire.core.journal.JournalConfig;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.RemoteHops;
import dev.framewire.remote.AeronPublisherCalculator;
import dev.framewire.remote.AeronSubscriberCalculator;
import dev.framewire.remote.RemoteStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Two graphs in one JVM over Aeron IPC, each journaled into its own directory: {@code journal
 * postmortem} of both follows the packets across the hop and names those sent but never received.
 */
@Timeout(120)
class RemoteHopsTest
{
    private static final int STREAM_ID = 7301;

    @TempDir
    Path dir;

    @Test
    void thePostmortemOfBothJournalsFollowsPacketsAcrossTheHop() throws Exception
    {
        final Path txJournals = dir.resolve("tx");
        final Path rxJournals = dir.resolve("rx");
        final GraphConfig tx = GraphConfig.builder()
            .inputStream("in")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .node("tx", n -> n.calculator(AeronPublisherCalculator.NAME).inputStream("in")
                .option("channel", "aeron:ipc").option("stream_id", (long)STREAM_ID).option("policy", "DROP")
                .option("linger_ms", 200L).option("term_length", 1L << 20))
            .journal(new JournalConfig().directory(txJournals))
            .build();
        final GraphConfig rx = GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .node("rx", n -> n.calculator(AeronSubscriberCalculator.NAME).outputStream("out", "STATUS:status")
                .option("channel", "aeron:ipc").option("stream_id", (long)STREAM_ID))
            .outputStream("out", "status")
            .journal(new JournalConfig().directory(rxJournals))
            .build();
        final AtomicLong received = new AtomicLong();
        final AtomicBoolean connected = new AtomicBoolean();
        try (Graph sender = new Graph(tx); Graph receiver = new Graph(rx))
        {
            receiver.observe("out", p -> received.incrementAndGet());
            receiver.observe("status", p -> connected.compareAndSet(false,
                p.get(RemoteStatus.class).kind() == RemoteStatus.Kind.CONNECTED));
            receiver.start();
            sender.start();
            await("the subscriber to see the publisher", connected::get);
            final GraphInputHandle in = sender.input("in");
            for (long ts = 0; ts < 50; ts++)
            {
                in.addPacket(ts * 3, ts * 10);
            }
            await("50 packets across", () -> received.get() == 50);
            // the receiving side stops; what the publisher is given from now on is never received
            receiver.cancel();
            final GraphException cancelled = assertThrows(GraphException.class, receiver::waitUntilDone);
            assertTrue(cancelled.isCancelled(), cancelled.toString());
            for (long ts = 50; ts < 60; ts++)
            {
                in.addPacket(ts * 3, ts * 10);
            }
            sender.closeAllInputs();
            sender.waitUntilDone();
        }

        final JournalReader txJournal = JournalReader.read(txJournals);
        final JournalReader rxJournal = JournalReader.read(rxJournals);
        final List<RemoteHops.Hop> hops = RemoteHops.of(List.of(rxJournal, txJournal));
        assertEquals(1, hops.size(), hops.toString());
        final RemoteHops.Hop hop = hops.get(0);
        assertEquals("tx", hop.publisherNode());
        assertEquals("in", hop.stream());
        assertEquals(STREAM_ID, hop.streamId());
        assertEquals("rx", hop.subscriberNode());
        assertEquals(rxJournal.directory().toString(), hop.subscriberRun());
        assertEquals(60, hop.sent());
        assertEquals(50, hop.received());
        assertEquals(10, hop.missing());
        assertEquals(490, hop.lastReceived());
        assertEquals(590, hop.lastSent());
        assertEquals("cancelled", hop.subscriberEnd());
        final RemoteHops.Missing first = hop.firstMissing().get(0);
        assertEquals(500, first.timestamp());
        assertEquals(50, first.sequence());
        assertEquals("after the last received", first.where());

        final Cli.Result r = Cli.run("journal", "postmortem", txJournals.toString(), rxJournals.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("tx stream 'in' -> Aeron session " + hop.session() + ", stream id " + STREAM_ID +
            " -> rx"), r.toString());
        assertTrue(r.out().contains("sent 60 (last 590), received 50 (last 490), rejected 0, sent but never received 10"),
            r.toString());
        assertTrue(r.out().contains("never received: timestamp 500, sequence 50, after the last received"),
            r.toString());
        assertTrue(r.out().contains("the receiving side stopped after 490: its run was cancelled (no reason given)"), r.toString());

        // one journal alone: the hop has no subscriber to pair with
        final List<RemoteHops.Hop> alone = RemoteHops.of(List.of(txJournal));
        assertNull(alone.get(0).subscriberNode());
        assertEquals(60, alone.get(0).missing());
    }

    @Test
    void aSecondPublisherStartingAgainFromItsFirstTimestampIsCountedRejectedNotReceived() throws Exception
    {
        final Path txJournals = dir.resolve("tx");
        final Path tx2Journals = dir.resolve("tx2");
        final Path rxJournals = dir.resolve("rx");
        final AtomicLong received = new AtomicLong();
        final AtomicLong connects = new AtomicLong();
        final AtomicLong rejections = new AtomicLong();
        try (Graph first = new Graph(publisher(txJournals, STREAM_ID + 1));
            Graph second = new Graph(publisher(tx2Journals, STREAM_ID + 1));
            Graph receiver = new Graph(GraphConfig.builder()
                .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
                .node("rx", n -> n.calculator(AeronSubscriberCalculator.NAME).outputStream("out", "STATUS:status")
                    .option("channel", "aeron:ipc").option("stream_id", (long)(STREAM_ID + 1)))
                .outputStream("out", "status")
                .journal(new JournalConfig().directory(rxJournals))
                .build()))
        {
            receiver.observe("out", p -> received.incrementAndGet());
            receiver.observe("status", p ->
            {
                if (p.get(RemoteStatus.class).kind() == RemoteStatus.Kind.CONNECTED)
                {
                    connects.incrementAndGet();
                }
            });
            receiver.start();
            first.start();
            await("the subscriber to see the first publisher", () -> connects.get() == 1);
            for (long ts = 0; ts < 50; ts++)
            {
                first.input("in").addPacket(ts * 3, ts * 10);
            }
            await("50 packets across", () -> received.get() == 50);
            // a second publisher (a restarted one, as far as the subscriber can tell) sends from timestamp 0 again:
            // its first 50 are below the stream's bound and rejected, its last 10 go through
            second.start();
            await("the subscriber to see the second publisher", () -> connects.get() == 2);
            for (long ts = 0; ts < 60; ts++)
            {
                second.input("in").addPacket(ts * 3, ts * 10);
            }
            await("the second publisher's last 10 across", () -> received.get() == 60);
            rejections.set(receiver.dropCount("rx"));
            receiver.cancel();
            assertThrows(GraphException.class, receiver::waitUntilDone);
            first.closeAllInputs();
            second.closeAllInputs();
            first.waitUntilDone();
            second.waitUntilDone();
        }
        assertEquals(50, rejections.get(), "the subscriber's own count of rejected messages");
        final JournalReader one = JournalReader.read(txJournals);
        final JournalReader two = JournalReader.read(tx2Journals);
        final JournalReader rx = JournalReader.read(rxJournals);
        final List<RemoteHops.Hop> hops = RemoteHops.of(List.of(one, two, rx));
        assertEquals(2, hops.size(), hops.toString());
        final RemoteHops.Hop a = hops.get(0);
        assertEquals(50, a.sent());
        assertEquals(50, a.received());
        assertEquals(0, a.rejected());
        assertEquals(0, a.missing());
        final RemoteHops.Hop b = hops.get(1);
        assertNotEquals(a.session(), b.session());
        assertEquals(60, b.sent());
        assertEquals(10, b.received(), "only the packets above the first publisher's last count as received");
        assertEquals(50, b.rejected());
        assertEquals(50, b.missing());
        assertEquals("rejected by the subscriber", b.firstMissing().get(0).where());
        assertEquals(0, b.firstMissing().get(0).timestamp());

        final Cli.Result r = Cli.run("journal", "postmortem", txJournals.toString(), tx2Journals.toString(),
            rxJournals.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("sent 60 (last 590), received 10 (last 590), rejected 50, sent but never received " +
            "50"), r.toString());
        assertTrue(r.out().contains("sent 50 (last 490), received 50 (last 490), rejected 0, sent but never received " +
            "0"), r.toString());
    }

    private static GraphConfig publisher(final Path journals, final int streamId)
    {
        return GraphConfig.builder()
            .inputStream("in")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .node("tx", n -> n.calculator(AeronPublisherCalculator.NAME).inputStream("in")
                .option("channel", "aeron:ipc").option("stream_id", (long)streamId).option("policy", "DROP")
                .option("linger_ms", 200L).option("term_length", 1L << 20))
            .journal(new JournalConfig().directory(journals))
            .build();
    }

    private static void await(final String what, final BooleanSupplier condition) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("timed out waiting for " + what);
            }
            Thread.sleep(2);
        }
    }
}
