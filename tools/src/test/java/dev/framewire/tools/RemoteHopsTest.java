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

import static org.junit.jupiter.api.Assertions.*;

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
        assertTrue(r.out().contains("sent 60 (last 590), received 50 (last 490), sent but never received 10"),
            r.toString());
        assertTrue(r.out().contains("never received: timestamp 500, sequence 50, after the last received"),
            r.toString());
        assertTrue(r.out().contains("the receiving side stopped after 490: its run ended cancelled"), r.toString());

        // one journal alone: the hop has no subscriber to pair with
        final List<RemoteHops.Hop> alone = RemoteHops.of(List.of(txJournal));
        assertNull(alone.get(0).subscriberNode());
        assertEquals(60, alone.get(0).missing());
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
