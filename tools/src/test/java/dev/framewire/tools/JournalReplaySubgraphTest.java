package dev.framewire.tools;

import com.google.gson.JsonObject;
import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.CalculatorRegistry;
import dev.framewire.core.Contract;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.OptionType;
import dev.framewire.core.journal.JournalConfig;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code framewire journal replay} of a run that added and removed subgraphs while packets flowed
 * (journal format 1.5): the replay adds and removes them again at the same points, from the
 * recorded template text and parameters, feeds their graph inputs as recorded, and
 * {@code journal diff} finds no difference; {@code dump} (text and JSON) and {@code postmortem}
 * show the subgraphs by name. A subgraph that cannot be made again (a parameter recorded by type
 * only) is refused with a sentence saying so, and a damaged subgraph record is reported as damage.
 */
@Timeout(120)
class JournalReplaySubgraphTest
{
    private static final String ADD = "ReplayTestAddCalculator";

    @TempDir
    Path dir;

    /** out = in + offset, on long packets. */
    static final class Add implements Calculator
    {
        private long offset;

        @Override
        public void contract(final Contract contract)
        {
            contract.option("offset", OptionType.LONG, 0L);
            contract.option("label", OptionType.STRING, "none");
        }

        @Override
        public void open(final CalculatorContext ctx)
        {
            offset = ctx.options().getLong("offset");
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            ctx.output(0).addLong(ctx.input(0).getLong() + offset, ctx.inputTimestamp());
        }
    }

    @BeforeAll
    static void register()
    {
        CalculatorRegistry.global().register(ADD, Add::new);
    }

    private static GraphConfig template()
    {
        return GraphConfig.builder()
            .type("ReplayTestCamera")
            .inputStream("frames")
            .node("add", n -> n.calculator(ADD).inputStream("frames").outputStream("sum")
                .option("offset", "$offset").option("label", "camera ${label}"))
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("sum").outputStream("out"))
            .outputStream("out")
            .build();
    }

    private GraphConfig base(final JournalConfig.Mode mode)
    {
        return GraphConfig.builder()
            .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
            .inputStream("in")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("mid"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("mid").outputStream("out"))
            .outputStream("out")
            .journal(new JournalConfig().directory(dir.resolve("rec")).mode(mode))
            .build();
    }

    private static void awaitGone(final Graph graph, final String name)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (graph.subgraphs().contains(name))
        {
            assertTrue(System.nanoTime() - deadline < 0, () -> name + " still in the graph");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /**
     * Packets on {@code in} throughout; cam1 added and fed, removed while packets keep coming;
     * cam2 bound to {@code in}; cam1 added again under the same name with another offset; cam3
     * closed by its input and leaving on its own.
     */
    private Path record(final JournalConfig.Mode mode, final Map<String, ?> cam3Params) throws Exception
    {
        try (Graph graph = new Graph(base(mode)))
        {
            graph.start();
            long in = 0;
            for (; in < 10; in++)
            {
                graph.addPacket("in", in, in);
            }
            graph.addSubgraph("cam1", template(), Map.of("offset", 100L, "label", "one")).get(10, TimeUnit.SECONDS);
            for (long ts = 0; ts < 10; ts++, in++)
            {
                graph.addPacket("cam1__frames", ts, ts);
                graph.addPacket("in", in, in);
            }
            final var removal = graph.removeSubgraph("cam1", Duration.ofSeconds(5), Duration.ofSeconds(5));
            for (int i = 0; i < 5; i++, in++)
            {
                graph.addPacket("in", in, in);
            }
            assertTrue(removal.get(20, TimeUnit.SECONDS).drained());
            graph.addSubgraph("cam2", template(), Map.of("offset", 7L, "label", 2.5), Map.of(),
                Map.of("frames", "in")).get(10, TimeUnit.SECONDS);
            for (int i = 0; i < 10; i++, in++)
            {
                graph.addPacket("in", in, in);
            }
            assertTrue(graph.removeSubgraph("cam2").get(20, TimeUnit.SECONDS).drained());
            graph.addSubgraph("cam1", template(), Map.of("offset", 1000L, "label", "again")).get(10, TimeUnit.SECONDS);
            graph.addSubgraph("cam3", template(), cam3Params).get(10, TimeUnit.SECONDS);
            for (long ts = 50; ts < 60; ts++, in++)
            {
                graph.addPacket("cam1__frames", ts, ts);
                graph.addPacket("cam3__frames", ts * 2, ts);
                graph.addPacket("in", in, in);
            }
            graph.closeInput("cam3__frames");
            awaitGone(graph, "cam3"); // every node closed: it leaves on its own
            assertTrue(graph.removeSubgraph("cam1", Duration.ofSeconds(5), Duration.ofSeconds(5))
                .get(20, TimeUnit.SECONDS).drained());
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        return JournalReader.latestRun(dir.resolve("rec"));
    }

    @ParameterizedTest
    @EnumSource(JournalConfig.Mode.class)
    void aReplayAddsAndRemovesTheSubgraphsAtTheSamePointsAndDiffFindsNoDifference(final JournalConfig.Mode mode)
        throws Exception
    {
        final Path recorded = record(mode, Map.of("offset", 3L, "label", "three"));
        final JournalReader journal = JournalReader.read(recorded);
        final long cam1Again = journal.records().stream().filter(r -> r.kind() == JournalRecord.Kind.EMIT &&
            "cam1__out".equals(r.streamName()) && r.value() >= 1000).count();
        // SYNC's recording replayed as fast as possible, ASYNC's at the recorded pacing
        final Cli.Result replay = mode == JournalConfig.Mode.SYNC ? Cli.run("journal", "replay", recorded.toString(),
            "--as-fast-as-possible", "--journal", dir.resolve("rep").toString()) :
            Cli.run("journal", "replay", recorded.toString(), "--journal", dir.resolve("rep").toString());
        assertEquals(0, replay.exit(), replay.toString());
        assertTrue(replay.out().contains("4 subgraphs added at run time"), replay.out());
        assertFalse(replay.out().contains("note:"), replay.out());
        final Path replayed = JournalReader.latestRun(dir.resolve("rep"));

        final Cli.Result diff = Cli.run("journal", "diff", recorded.toString(), replayed.toString());
        assertEquals(0, diff.exit(), diff.toString());
        assertTrue(diff.out().contains("identical: 8 streams compared"), diff.out()); // mid, out and each subgraph's sum and out

        // the replay's own journal has the same subgraph steps, in the same order among the graph inputs
        assertEquals(steps(journal), steps(JournalReader.read(replayed)));
        assertEquals(10, cam1Again, "cam1's second life");
        assertEquals(10, count(JournalReader.read(replayed), "cam1__out", 1000), "cam1's second life, replayed");
    }

    /** The subgraph records and graph inputs in file order: kind, subgraph or stream. */
    private static List<String> steps(final JournalReader journal)
    {
        return journal.records().stream()
            .filter(r -> r.kind() == JournalRecord.Kind.SUBGRAPH_ADDED || r.kind() == JournalRecord.Kind.SUBGRAPH_REMOVED ||
                (r.kind() == JournalRecord.Kind.GRAPH_INPUT && "in".equals(r.streamName())))
            .map(r -> r.kind() == JournalRecord.Kind.GRAPH_INPUT ? "in" : r.kind() + " " + r.text())
            .collect(Collectors.toList());
    }

    private static long count(final JournalReader journal, final String stream, final long atLeast)
    {
        return journal.records().stream().filter(r -> r.kind() == JournalRecord.Kind.EMIT &&
            stream.equals(r.streamName()) && r.value() >= atLeast).count();
    }

    @Test
    void aSubgraphsCapturedPayloadsReplayWithTheirBytesAndChecksums() throws Exception
    {
        final GraphConfig pass = GraphConfig.builder().inputStream("frames")
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("frames").outputStream("out"))
            .outputStream("out")
            .build();
        final GraphConfig config = base(JournalConfig.Mode.ASYNC).toBuilder().journal(new JournalConfig()
            .directory(dir.resolve("rec")).mode(JournalConfig.Mode.ASYNC).captureStreams("cam__frames")
            .checksumStreams("cam__out")).build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.addSubgraph("cam", pass, Map.of()).get(10, TimeUnit.SECONDS);
            for (long ts = 0; ts < 8; ts++)
            {
                final dev.framewire.offheap.Payload frame = graph.pool().acquire(48);
                for (int b = 0; b < 48; b++)
                {
                    frame.mutableBuffer().putByte(b, (byte)(ts * 31 + b));
                }
                graph.addPacket("cam__frames", frame, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        final Path recorded = JournalReader.latestRun(dir.resolve("rec"));
        final Cli.Result replay = Cli.run("journal", "replay", recorded.toString(), "--as-fast-as-possible",
            "--journal", dir.resolve("rep").toString());
        assertEquals(0, replay.exit(), replay.toString());
        assertFalse(replay.out().contains("fed as zeros"), replay.out());
        final JournalReader replayed = JournalReader.read(JournalReader.latestRun(dir.resolve("rep")));
        assertTrue(replayed.captureStreams().contains("cam__frames") && replayed.checksumStreams().contains("cam__out"),
            replayed.captureStreams() + " " + replayed.checksumStreams());
        assertEquals(8, replayed.records().stream().filter(r -> r.kind() == JournalRecord.Kind.EMIT &&
            "cam__out".equals(r.streamName()) && r.valueKind() == JournalRecord.VALUE_CHECKSUM).count());
        final Cli.Result diff = Cli.run("journal", "diff", recorded.toString(), replayed.directory().toString());
        assertEquals(0, diff.exit(), diff.toString());
    }

    @Test
    void dumpAndPostmortemShowTheSubgraphsByName() throws Exception
    {
        final Path recorded = record(JournalConfig.Mode.SYNC, Map.of("offset", 3L, "label", "three"));
        final Cli.Result text = Cli.run("journal", "dump", recorded.toString(), "--kind", "subgraph-added");
        assertEquals(0, text.exit(), text.toString());
        assertEquals(4, text.out().strip().split("\n").length, text.out());
        assertTrue(text.out().contains(" subgraph=cam2 nodes=[cam2__add, cam2__pass] streams=[cam2__sum, cam2__out] " +
            "params=[label:double=2.5, offset:int64=7] bind={frames=in}"), text.out());

        final Cli.Result json = Cli.run("journal", "dump", recorded.toString(), "--json");
        assertEquals(0, json.exit(), json.toString());
        final List<JsonObject> objects = JournalCommandTest.objects(json.out());
        final JsonObject added = objects.stream().filter(o -> o.get("kind").getAsString().equals("subgraph_added"))
            .findFirst().orElseThrow();
        assertEquals("cam1", added.get("subgraph").getAsString());
        assertEquals("[\"cam1__add\",\"cam1__pass\"]", added.get("nodes").toString());
        assertEquals("[{\"name\":\"label\",\"type\":\"string\",\"value\":\"one\"},{\"name\":\"offset\",\"type\":" +
            "\"int64\",\"value\":\"100\"}]", added.get("params").toString());
        assertTrue(added.get("template").getAsString().contains("type: \"ReplayTestCamera\""), added.toString());
        final JsonObject removed = objects.stream().filter(o -> o.get("kind").getAsString().equals("subgraph_removed"))
            .findFirst().orElseThrow();
        assertEquals(5_000_000_000L, removed.get("drainDeadlineNanos").getAsLong());
        final JsonObject left = objects.stream().filter(o -> o.get("kind").getAsString().equals("subgraph_left"))
            .findFirst().orElseThrow();
        assertTrue(left.get("drained").getAsBoolean());
        assertTrue(objects.stream().anyMatch(o -> o.has("stream") && o.get("stream").getAsString().equals("cam3__out")),
            "an emit of cam3's output named by name");

        final Cli.Result pm = Cli.run("journal", "postmortem", recorded.toString());
        assertEquals(0, pm.exit(), pm.toString());
        assertTrue(pm.out().contains("cam3__add"), pm.out());
        assertTrue(pm.out().contains("cam2__out"), pm.out());
    }

    @Test
    void aSubgraphWithAParameterRecordedByTypeOnlyIsNotReplayed() throws Exception
    {
        final Path recorded = record(JournalConfig.Mode.SYNC, Map.of("offset", 3L, "label", Duration.ofMillis(5)));
        final Cli.Result replay = Cli.run("journal", "replay", recorded.toString(), "--no-journal");
        assertEquals(1, replay.exit(), replay.toString());
        assertTrue(replay.err().contains("subgraph 'cam3' (added at record #"), replay.toString());
        assertTrue(replay.err().contains(") cannot be replayed: parameter 'label' was a java.time.Duration, a Java " +
            "object the journal records by type only; it cannot be made again from the journal; only parameters of " +
            "types string, int64, int32, int16, int8, double, float and bool are recorded by value"), replay.toString());
        assertFalse(replay.err().contains("\tat "), replay.toString());
        assertFalse(replay.out().contains("replayed in"), replay.toString()); // refused before anything ran
    }

    @Test
    void aDamagedSubgraphRecordIsReportedAsDamage() throws Exception
    {
        final Path recorded = record(JournalConfig.Mode.SYNC, Map.of("offset", 3L, "label", "three"));
        final Path cq4;
        try (Stream<Path> files = Files.list(recorded))
        {
            cq4 = files.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        // the first SUBGRAPH_ADDED record (cam1's; its first node is 2): a bit flipped in its template text
        final byte[] bytes = Files.readAllBytes(cq4);
        final byte[] head = {15, 0, 0, 0, -1, -1, -1, -1, 2, 0, 0, 0};
        int body = -1;
        for (int at = 0; at + head.length <= bytes.length && body < 0; at += 4)
        {
            body = java.util.Arrays.equals(bytes, at, at + head.length, head, 0, head.length) ? at : -1;
        }
        assertTrue(body > 0, "cam1's SUBGRAPH_ADDED record");
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(cq4.toFile(), "rw"))
        {
            raf.seek(body + 60);
            final int b = raf.read();
            raf.seek(body + 60);
            raf.write(b ^ 0x10);
        }
        final Cli.Result dump = Cli.run("journal", "dump", recorded.toString());
        assertEquals(1, dump.exit(), dump.toString());
        assertTrue(dump.out().contains("# damage: file " + cq4.getFileName()), dump.toString());
        assertTrue(dump.err().contains("checksum mismatch"), dump.toString());
        assertFalse(dump.err().contains("\tat "), dump.toString());
        final Cli.Result replay = Cli.run("journal", "replay", recorded.toString(), "--no-journal");
        assertEquals(1, replay.exit(), replay.toString());
        assertTrue(replay.err().contains("checksum mismatch") && !replay.err().contains("\tat "), replay.toString());
    }
}
