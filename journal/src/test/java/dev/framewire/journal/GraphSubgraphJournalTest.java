package dev.framewire.journal;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.CalculatorRegistry;
import dev.framewire.core.Contract;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.IdleKind;
import dev.framewire.core.OptionType;
import dev.framewire.core.PacketObserver;
import dev.framewire.core.SubgraphRemoval;
import dev.framewire.core.journal.JournalConfig;
import dev.framewire.offheap.Payload;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Subgraphs added to and removed from a journaled graph while packets flow (format 1.5): the
 * journal holds a SUBGRAPH_ADDED record (template text, parameters with their types, bindings, the
 * node and stream ids it got) before any record of its nodes and streams and after the graph
 * inputs given before it, a SUBGRAPH_REMOVED record after its last graph input, and a SUBGRAPH_LEFT
 * record after its last packet; its packets' records resolve to its names; in both modes. A
 * parameter without a text form is recorded by type only, a template without one says so, and a
 * damaged subgraph record is reported as damage.
 */
@Timeout(120)
class GraphSubgraphJournalTest
{
    /** A registered calculator (so that a template using it has a text form): out = in + offset. */
    static final String ADD = "JournalTestAddCalculator";

    /** Adds its {@code offset} option to each long packet. */
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

    /** A camera: frames in, plus its offset, passed on, out. */
    static GraphConfig template()
    {
        return GraphConfig.builder()
            .type("JournalTestCamera")
            .inputStream("frames")
            .node("add", n -> n.calculator(ADD).inputStream("frames").outputStream("sum")
                .option("offset", "$offset").option("label", "camera ${label}"))
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("sum").outputStream("out"))
            .outputStream("out")
            .build();
    }

    /** The graph's own part: in -> a -> mid -> b -> out, on 2 parked workers. */
    static GraphConfig base(final JournalConfig journal)
    {
        return GraphConfig.builder()
            .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
            .inputStream("in")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("mid"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("mid").outputStream("out"))
            .outputStream("out")
            .journal(journal)
            .build();
    }

    static PacketObserver collect(final List<Long> into)
    {
        return packet -> into.add(packet.getLong());
    }

    /**
     * The run the tests read: packets on {@code in} throughout; {@code cam1} added with its own
     * graph input and fed, removed (drained); {@code cam2} added with its input bound to
     * {@code in}, fed through it, removed; then the inputs close.
     */
    static Path recordHotplugRun(final JournalConfig.Mode mode, final Path dir, final List<Long> cam1Out,
        final List<Long> cam2Out) throws Exception
    {
        try (Graph graph = new Graph(base(new JournalConfig().directory(dir).mode(mode))))
        {
            graph.start();
            for (long ts = 0; ts < 10; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.addSubgraph("cam1", template(), Map.of("offset", 100L, "label", "one"),
                Map.of("out", collect(cam1Out))).get(10, TimeUnit.SECONDS);
            for (long ts = 0; ts < 10; ts++)
            {
                graph.addPacket("cam1__frames", ts, ts);
                graph.addPacket("in", 10 + ts, 10 + ts);
            }
            final SubgraphRemoval first = graph.removeSubgraph("cam1", Duration.ofSeconds(5), Duration.ofSeconds(5))
                .get(20, TimeUnit.SECONDS);
            assertTrue(first.drained());
            graph.addSubgraph("cam2", template(), Map.of("offset", 7L, "label", 2.5),
                Map.of("out", collect(cam2Out)), Map.of("frames", "in")).get(10, TimeUnit.SECONDS);
            for (long ts = 20; ts < 30; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            assertTrue(graph.removeSubgraph("cam2", Duration.ofSeconds(5), Duration.ofSeconds(5))
                .get(20, TimeUnit.SECONDS).drained());
            for (long ts = 30; ts < 40; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        return JournalReader.latestRun(dir);
    }

    private static int first(final List<JournalRecord> records, final Predicate<JournalRecord> p)
    {
        for (int i = 0; i < records.size(); i++)
        {
            if (p.test(records.get(i)))
            {
                return i;
            }
        }
        return -1;
    }

    private static int last(final List<JournalRecord> records, final Predicate<JournalRecord> p)
    {
        for (int i = records.size() - 1; i >= 0; i--)
        {
            if (p.test(records.get(i)))
            {
                return i;
            }
        }
        return -1;
    }

    private static Predicate<JournalRecord> is(final JournalRecord.Kind kind, final String subgraph)
    {
        return r -> r.kind() == kind && subgraph.equals(r.text());
    }

    /** Whether a record names a node or stream of a subgraph (by its names' prefix). */
    private static Predicate<JournalRecord> names(final String subgraph)
    {
        final String prefix = subgraph + "__";
        return r -> (r.nodeName() != null && r.nodeName().startsWith(prefix)) ||
            (r.streamName() != null && r.streamName().startsWith(prefix));
    }

    @ParameterizedTest
    @EnumSource(JournalConfig.Mode.class)
    void additionsAndRemovalsAreRecordedInOrderWithTheirFields(final JournalConfig.Mode mode, @TempDir final Path dir)
        throws Exception
    {
        final List<Long> cam1Out = Collections.synchronizedList(new ArrayList<>());
        final List<Long> cam2Out = Collections.synchronizedList(new ArrayList<>());
        final JournalReader journal = JournalReader.read(recordHotplugRun(mode, dir, cam1Out, cam2Out));
        assertEquals(JournalDescriptor.FORMAT_MINOR, journal.formatMinor());
        assertEquals(10, journal.formatMinor());
        assertEquals(0, journal.lostRecords());
        assertEquals(List.of(100L, 101L, 102L, 103L, 104L, 105L, 106L, 107L, 108L, 109L), cam1Out);
        assertEquals(List.of(27L, 28L, 29L, 30L, 31L, 32L, 33L, 34L, 35L, 36L), cam2Out);
        final List<JournalRecord> records = journal.records();

        // cam1: added after the ten packets on `in` given before it, before anything of its own
        final int added1 = first(records, is(JournalRecord.Kind.SUBGRAPH_ADDED, "cam1"));
        assertTrue(added1 > 0, "no SUBGRAPH_ADDED of cam1");
        final long inBefore = records.subList(0, added1).stream()
            .filter(r -> r.kind() == JournalRecord.Kind.GRAPH_INPUT && "in".equals(r.streamName())).count();
        assertEquals(10, inBefore, "graph inputs on `in` before cam1 was added");
        assertTrue(first(records, names("cam1")) > added1, "a record of cam1's before it was added");
        final JournalSubgraph cam1 = records.get(added1).subgraph();
        assertEquals("cam1", cam1.name());
        assertEquals("[label:string=one, offset:int64=100]", cam1.parameters().toString());
        assertEquals(Map.of("label", "one", "offset", 100L), cam1.parameterValues());
        assertEquals(List.of("cam1__add", "cam1__pass"), cam1.nodeNames());
        assertArrayEquals(new int[] {2, 3}, cam1.nodeIds());
        assertEquals(List.of("cam1__frames", "cam1__sum", "cam1__out"), cam1.streamNames());
        assertArrayEquals(new int[] {3, 4, 5}, cam1.streamIds());
        assertArrayEquals(new int[] {3}, cam1.nodeInputs(0));
        assertArrayEquals(new int[] {4}, cam1.nodeInputs(1));
        assertTrue(cam1.bindings().isEmpty());
        assertTrue(cam1.hasTemplateText());
        final GraphConfig reread = GraphConfigText.parseStructure(cam1.templateText(), "the record");
        assertEquals("JournalTestCamera", reread.type());
        assertEquals(List.of("frames"), reread.inputStreams());
        assertEquals("$offset", reread.nodes().get(0).options().get("offset"));
        assertEquals(JournalWriter.configHash(cam1.templateText()), records.get(added1).value());

        // its removal after its last graph input; its departure after its last packet
        final int removed1 = first(records, is(JournalRecord.Kind.SUBGRAPH_REMOVED, "cam1"));
        final int left1 = first(records, is(JournalRecord.Kind.SUBGRAPH_LEFT, "cam1"));
        assertTrue(last(records, r -> r.kind() == JournalRecord.Kind.GRAPH_INPUT &&
            "cam1__frames".equals(r.streamName())) < removed1);
        assertTrue(removed1 < left1);
        assertTrue(last(records, names("cam1")
            .and(r -> r.kind() != JournalRecord.Kind.BOUND)) < left1, "a record of cam1's after it left");
        assertEquals(TimeUnit.SECONDS.toNanos(5), records.get(removed1).subgraph().drainDeadlineNanos());
        assertEquals(TimeUnit.SECONDS.toNanos(5), records.get(removed1).subgraph().cancelDeadlineNanos());
        assertTrue(records.get(left1).subgraph().drained());
        assertEquals(0, records.get(left1).subgraph().droppedPackets());

        // cam2: bound to `in`, new ids after cam1's (ids are never reused), its parameter a double
        final int added2 = first(records, is(JournalRecord.Kind.SUBGRAPH_ADDED, "cam2"));
        assertTrue(left1 < added2);
        final JournalSubgraph cam2 = records.get(added2).subgraph();
        assertEquals(Map.of("frames", "in"), cam2.bindings());
        assertEquals("[label:double=2.5, offset:int64=7]", cam2.parameters().toString());
        assertEquals(2.5, cam2.parameterValues().get("label"));
        assertArrayEquals(new int[] {4, 5}, cam2.nodeIds());
        assertEquals(List.of("cam2__sum", "cam2__out"), cam2.streamNames());
        assertArrayEquals(new int[] {6, 7}, cam2.streamIds());
        assertArrayEquals(new int[] {0}, cam2.nodeInputs(0)); // `in`, the graph's own
        assertTrue(first(records, is(JournalRecord.Kind.SUBGRAPH_REMOVED, "cam2")) <
            first(records, is(JournalRecord.Kind.SUBGRAPH_LEFT, "cam2")));

        // the subgraphs' packets resolve to their names, with their values
        assertEquals(List.of(100L, 101L, 102L, 103L, 104L, 105L, 106L, 107L, 108L, 109L),
            values(records, "cam1__out"));
        assertEquals(List.of(27L, 28L, 29L, 30L, 31L, 32L, 33L, 34L, 35L, 36L), values(records, "cam2__out"));
        assertTrue(records.stream().anyMatch(r -> r.kind() == JournalRecord.Kind.PROCESS_BEGIN &&
            "cam2__add".equals(r.nodeName())));
        assertEquals(List.of("a", "b", "cam1__add", "cam1__pass", "cam2__add", "cam2__pass"), journal.nodeNames());
        assertEquals("cam2__out", journal.streamNames().get(7));
        assertEquals(40, values(records, "out").size());

        // the dump line, and the post-mortem knows the subgraphs' nodes
        assertTrue(records.get(added1).toString().endsWith(" subgraph=cam1 nodes=[cam1__add, cam1__pass] " +
            "streams=[cam1__frames, cam1__sum, cam1__out] params=[label:string=one, offset:int64=100]"),
            records.get(added1)::toString);
        assertTrue(records.get(left1).toString().endsWith("subgraph=cam1 drained dropped=0"), records.get(left1)::toString);
        final Postmortem postmortem = Postmortem.of(journal);
        assertTrue(postmortem.node("cam1__add").calls() >= 10, postmortem::report);
        assertEquals(0, postmortem.stream("cam1__sum").inFlight());
        assertEquals(10, postmortem.stream("cam2__out").emitted());
        // cam2 consumed `in` from its addition to its departure: nothing counts as in flight at it
        final Postmortem.StreamState in = postmortem.stream("in");
        assertEquals(40, in.emitted());
        assertEquals(0, in.inFlight(), postmortem::report);
        assertEquals(List.of("a", "cam2__add"), in.consumers().stream().map(Postmortem.Consumer::node)
            .collect(Collectors.toList()));
        assertEquals(10, in.consumers().get(1).consumed());
        assertTrue(postmortem.verdict().contains(" 2 subgraphs were added at run time; none was in the graph when " +
            "the journal ends."), postmortem::verdict);
    }

    private static List<Long> values(final List<JournalRecord> records, final String stream)
    {
        return records.stream().filter(r -> r.kind() == JournalRecord.Kind.EMIT && stream.equals(r.streamName()))
            .map(JournalRecord::value).collect(Collectors.toList());
    }

    /**
     * Another thread keeps adding packets to {@code in} while twenty subgraphs come and go, each fed
     * five packets: whatever the interleaving, each subgraph's SUBGRAPH_ADDED comes before every
     * record naming its nodes or streams, and its SUBGRAPH_LEFT after them; nothing is lost. The
     * feeder adds as fast as the graph takes packets, faster than a loaded machine's agent may append:
     * an ASYNC journal here waits for room ({@link JournalConfig.RingFull#WAIT}) rather than lose.
     */
    @ParameterizedTest
    @EnumSource(JournalConfig.Mode.class)
    void recordsStayInOrderWhilePacketsFlowFromAnotherThread(final JournalConfig.Mode mode, @TempDir final Path dir)
        throws Exception
    {
        final int subgraphs = 20;
        final java.util.concurrent.atomic.AtomicLong fed = new java.util.concurrent.atomic.AtomicLong();
        final List<Long> delivered = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(base(new JournalConfig().directory(dir).mode(mode)
            .onRingFull(JournalConfig.RingFull.WAIT))))
        {
            graph.start();
            final java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            final java.util.concurrent.CompletableFuture<Void> feeder = java.util.concurrent.CompletableFuture.runAsync(() ->
            {
                try
                {
                    for (long ts = 0; !stop.get(); ts++)
                    {
                        graph.addPacket("in", ts, ts);
                        fed.incrementAndGet();
                    }
                }
                catch (final InterruptedException ex)
                {
                    throw new IllegalStateException(ex);
                }
            });
            for (int i = 0; i < subgraphs; i++)
            {
                final String name = "cam" + i;
                graph.addSubgraph(name, template(), Map.of("offset", (long)i, "label", name),
                    Map.of("out", collect(delivered))).get(10, TimeUnit.SECONDS);
                for (long ts = 0; ts < 5; ts++)
                {
                    graph.addPacket(name + "__frames", ts, ts);
                }
                assertTrue(graph.removeSubgraph(name).get(20, TimeUnit.SECONDS).drained());
            }
            stop.set(true);
            feeder.get(10, TimeUnit.SECONDS);
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        assertEquals(subgraphs * 5, delivered.size());
        final JournalReader journal = JournalReader.read(JournalReader.latestRun(dir));
        assertEquals(0, journal.lostRecords());
        final List<JournalRecord> records = journal.records();
        assertEquals(fed.get(), records.stream().filter(r -> r.kind() == JournalRecord.Kind.GRAPH_INPUT &&
            "in".equals(r.streamName())).count());
        for (int i = 0; i < subgraphs; i++)
        {
            final String name = "cam" + i;
            final int added = first(records, is(JournalRecord.Kind.SUBGRAPH_ADDED, name));
            final int removed = first(records, is(JournalRecord.Kind.SUBGRAPH_REMOVED, name));
            final int left = first(records, is(JournalRecord.Kind.SUBGRAPH_LEFT, name));
            assertTrue(added >= 0 && added < removed && removed < left, name + ": " + added + ", " + removed + ", " + left);
            assertTrue(first(records, names(name)) > added, name + ": a record of it before it was added");
            assertTrue(last(records, names(name)) < left, name + ": a record of it after it left");
            assertTrue(last(records, r -> r.kind() == JournalRecord.Kind.GRAPH_INPUT &&
                (name + "__frames").equals(r.streamName())) < removed, name + ": an input after its removal");
            assertEquals(5, records.stream().filter(r -> r.kind() == JournalRecord.Kind.EMIT &&
                (name + "__out").equals(r.streamName())).count(), name);
        }
    }

    @Test
    void diffComparesTheSubgraphsAddedAndRemoved(@TempDir final Path dir) throws Exception
    {
        final List<Long> ignored = Collections.synchronizedList(new ArrayList<>());
        final JournalReader a = JournalReader.read(recordHotplugRun(JournalConfig.Mode.SYNC, dir.resolve("a"), ignored,
            ignored));
        final JournalReader b = JournalReader.read(recordHotplugRun(JournalConfig.Mode.ASYNC, dir.resolve("b"), ignored,
            ignored));
        assertTrue(JournalDiff.compare(a, b).identical(), () -> JournalDiff.compare(a, b).toString());

        // the same graph without its subgraphs: their steps differ first, then their streams
        try (Graph graph = new Graph(base(new JournalConfig().directory(dir.resolve("c")))))
        {
            graph.start();
            for (long ts = 0; ts < 40; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        final JournalDiff diff = JournalDiff.compare(a, JournalReader.read(JournalReader.latestRun(dir.resolve("c"))));
        assertFalse(diff.identical());
        assertEquals("(subgraphs)", diff.firstDifference().stream());
        assertEquals("subgraphs: the actual journal has 0 subgraph additions and removals; the expected one goes on " +
            "with subgraph 'cam1' added (template " + JournalRecord.hex(a.records().stream()
            .filter(r -> r.kind() == JournalRecord.Kind.SUBGRAPH_ADDED).findFirst().orElseThrow().value()) +
            ", params [label:string=one, offset:int64=100])", diff.firstDifference().toString());
        assertTrue(diff.differences().stream().anyMatch(d -> d.stream().equals("cam1__out")), diff.differences()::toString);
    }

    @Test
    void aParameterWithoutATextFormIsRecordedByTypeOnly(@TempDir final Path dir) throws Exception
    {
        try (Graph graph = new Graph(base(new JournalConfig().directory(dir))))
        {
            graph.start();
            graph.addSubgraph("cam", template(), Map.of("offset", 1L, "label", Duration.ofSeconds(3)))
                .get(10, TimeUnit.SECONDS);
            graph.addPacket("cam__frames", 5L, 0);
            graph.closeInput("cam__frames");
            awaitNoSubgraph(graph);
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        final JournalReader journal = JournalReader.read(JournalReader.latestRun(dir));
        final JournalSubgraph cam = journal.records().stream()
            .filter(r -> r.kind() == JournalRecord.Kind.SUBGRAPH_ADDED).findFirst().orElseThrow().subgraph();
        final JournalSubgraph.Parameter label = cam.parameters().get(0);
        assertEquals("label", label.name());
        assertEquals("java.time.Duration", label.type());
        assertEquals(null, label.text());
        assertFalse(label.isReproducible());
        assertTrue(cam.parameters().get(1).isReproducible());
        final IllegalStateException ex = assertThrows(IllegalStateException.class, cam::parameterValues);
        assertEquals("parameter 'label' was a java.time.Duration, a Java object the journal records by type only; " +
            "it cannot be made again from the journal", ex.getMessage());
        // the subgraph left on its own once its input closed: a departure without a removal
        assertTrue(journal.records().stream().anyMatch(is(JournalRecord.Kind.SUBGRAPH_LEFT, "cam")));
        assertFalse(journal.records().stream().anyMatch(is(JournalRecord.Kind.SUBGRAPH_REMOVED, "cam")));
    }

    /** Waits until every subgraph has left the graph (a subgraph whose inputs closed leaves on its own). */
    static void awaitNoSubgraph(final Graph graph)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!graph.subgraphs().isEmpty())
        {
            assertTrue(System.nanoTime() - deadline < 0, () -> "subgraphs still in the graph: " + graph.subgraphs());
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    @Test
    void thePostmortemNamesTheSubgraphsStillInTheGraph(@TempDir final Path dir) throws Exception
    {
        try (Graph graph = new Graph(base(new JournalConfig().directory(dir))))
        {
            graph.start();
            graph.addSubgraph("cam", template(), Map.of("offset", 1L, "label", "x")).get(10, TimeUnit.SECONDS);
            graph.addSubgraph("gone", template(), Map.of("offset", 2L, "label", "y")).get(10, TimeUnit.SECONDS);
            assertTrue(graph.removeSubgraph("gone").get(20, TimeUnit.SECONDS).drained());
            graph.addPacket("cam__frames", 5L, 0);
            graph.cancel();
            assertThrows(dev.framewire.core.GraphException.class, graph::waitUntilDone);
        }
        final Postmortem postmortem = Postmortem.of(JournalReader.read(JournalReader.latestRun(dir)));
        assertTrue(postmortem.verdict().contains(" 2 subgraphs were added at run time; in the graph when the journal " +
            "ends: `cam`."), postmortem::verdict);
    }

    @Test
    void aTemplateWithoutATextFormSaysSo(@TempDir final Path dir) throws Exception
    {
        final GraphConfig byFactory = GraphConfig.builder().inputStream("frames")
            .node("add", n -> n.calculator(Add::new).inputStream("frames").outputStream("out").option("offset", "$offset"))
            .outputStream("out")
            .build();
        try (Graph graph = new Graph(base(new JournalConfig().directory(dir))))
        {
            graph.start();
            graph.addSubgraph("cam", byFactory, Map.of("offset", 1L)).get(10, TimeUnit.SECONDS);
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        final JournalSubgraph cam = JournalReader.read(JournalReader.latestRun(dir)).records().stream()
            .filter(r -> r.kind() == JournalRecord.Kind.SUBGRAPH_ADDED).findFirst().orElseThrow().subgraph();
        assertFalse(cam.hasTemplateText());
        assertTrue(cam.templateText().startsWith("# this config has no text form: node 'add' uses a calculator by " +
            "class or factory"), cam::templateText);
    }

    @Test
    void aSubgraphsStreamsAreCapturedAndChecksummedByName(@TempDir final Path dir) throws Exception
    {
        final GraphConfig pass = GraphConfig.builder().inputStream("frames")
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("frames").outputStream("out"))
            .outputStream("out")
            .build();
        final JournalConfig journal = new JournalConfig().directory(dir).mode(JournalConfig.Mode.ASYNC)
            .captureStreams("cam__frames").checksumStreams("cam__out");
        try (Graph graph = new Graph(base(journal)))
        {
            graph.start();
            graph.addSubgraph("cam", pass, Map.of()).get(10, TimeUnit.SECONDS);
            for (long ts = 0; ts < 5; ts++)
            {
                final Payload frame = graph.pool().acquire(32);
                frame.mutableBuffer().putLong(0, ts * 11);
                graph.addPacket("cam__frames", frame, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        final JournalReader read = JournalReader.read(JournalReader.latestRun(dir));
        assertTrue(read.captureStreams().contains("cam__frames"), read.captureStreams()::toString);
        assertTrue(read.checksumStreams().contains("cam__out"), read.checksumStreams()::toString);
        final List<JournalRecord> inputs = read.records().stream()
            .filter(r -> r.kind() == JournalRecord.Kind.GRAPH_INPUT).collect(Collectors.toList());
        assertEquals(5, inputs.size());
        for (final JournalRecord r : inputs)
        {
            assertEquals(JournalRecord.VALUE_CAPTURED, r.valueKind(), r::toString);
            assertEquals(r.timestamp() * 11, r.payload().order(java.nio.ByteOrder.nativeOrder()).getLong(0));
        }
        assertTrue(read.records().stream().filter(r -> r.kind() == JournalRecord.Kind.EMIT &&
            "cam__out".equals(r.streamName())).allMatch(r -> r.valueKind() == JournalRecord.VALUE_CHECKSUM));
    }

    @Test
    void aCaptureStreamThatIsNoSubgraphsIsStillRefused(@TempDir final Path dir)
    {
        final JournalConfig journal = new JournalConfig().directory(dir).captureStreams("nowhere");
        try (Graph graph = new Graph(base(journal)))
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, graph::start);
            assertTrue(ex.getMessage().contains("journal capture stream 'nowhere' is not a stream of this graph"),
                ex::getMessage);
        }
    }

    /** The body of the SUBGRAPH_ADDED record whose first node id is {@code firstNode}, found by its first 12 bytes. */
    private static long addedRecordBody(final Path file, final int firstNode) throws Exception
    {
        final byte[] bytes = Files.readAllBytes(file);
        final byte[] head = {15, 0, 0, 0, -1, -1, -1, -1, (byte)firstNode, 0, 0, 0};
        for (int at = 0; at + head.length <= bytes.length; at += 4)
        {
            if (java.util.Arrays.equals(bytes, at, at + head.length, head, 0, head.length))
            {
                return at;
            }
        }
        throw new AssertionError("no SUBGRAPH_ADDED record with first node " + firstNode + " in " + file);
    }

    private static Path cycleFile(final Path run) throws Exception
    {
        try (Stream<Path> files = Files.list(run))
        {
            return files.filter(f -> f.getFileName().toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }

    @Test
    void aFlippedBitInASubgraphRecordIsDamageNotAStackTrace(@TempDir final Path dir) throws Exception
    {
        final Path run = recordHotplugRun(JournalConfig.Mode.SYNC, dir, Collections.synchronizedList(new ArrayList<>()),
            Collections.synchronizedList(new ArrayList<>()));
        final Path file = cycleFile(run);
        final long body = addedRecordBody(file, 2);
        new JournalFileBytes(file).flip(body + 60, 3); // inside the subgraph's name or template text
        final JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        assertTrue(ex.getMessage().contains("checksum mismatch"), ex::getMessage);
        assertEquals(JournalDamage.Kind.CHECKSUM_MISMATCH, ex.damage().get(0).kind());
        // what follows is read: cam1's records name ids the run does not know, each reported; cam2 and the end are there
        final JournalReader readable = ex.readable();
        assertNotNull(readable.runEnd());
        assertTrue(ex.damage().stream().skip(1).allMatch(d -> d.kind() == JournalDamage.Kind.CORRUPT_RECORD &&
            d.toString().contains("but the run has")), ex.damage()::toString);
        assertTrue(readable.records().stream().anyMatch(is(JournalRecord.Kind.SUBGRAPH_ADDED, "cam2")));
        assertEquals("node#2", readable.nodeNames().get(2)); // cam1's nodes, whose record was lost
        assertEquals("cam2__add", readable.nodeNames().get(4));
        assertNotNull(Postmortem.of(readable).verdict());
    }

    @Test
    void aSubgraphRecordWhoseFieldsMakeNoSenseIsACorruptRecord(@TempDir final Path dir) throws Exception
    {
        final Path run = recordHotplugRun(JournalConfig.Mode.SYNC, dir, Collections.synchronizedList(new ArrayList<>()),
            Collections.synchronizedList(new ArrayList<>()));
        final Path file = cycleFile(run);
        final long body = addedRecordBody(file, 2);
        final JournalFileBytes bytes = new JournalFileBytes(file);
        bytes.pokeInt(body + JournalDescriptor.NODE_OFFSET, 0); // its first node: 0, which the run has already
        bytes.fixChecksum(body); // a writer's mistake, not the disk's: the checksum holds
        final JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        final JournalDamage damage = ex.damage().get(0);
        assertEquals(JournalDamage.Kind.CORRUPT_RECORD, damage.kind());
        assertTrue(damage.toString().contains("the record (SUBGRAPH_ADDED) of subgraph 'cam1' says its first node is " +
            "0 but lists [2, 3]"), damage::toString);
    }
}
