package dev.framewire.journal;

import dev.framewire.core.Timestamp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares two journals' outputs: for every stream nodes emitted on, the sequence of packets
 * (timestamp, and the value as journaled: a number, a checksum, a length). Streams are matched by
 * name, so the two runs' ids need not agree. The answer is "identical", or the first difference:
 * of the differing streams, the one whose first differing packet has the lowest timestamp.
 *
 * <pre>{@code
 * JournalDiff diff = JournalDiff.compare(JournalReader.read(recorded), JournalReader.read(replayed));
 * System.out.println(diff.identical() ? "identical" : diff.firstDifference());
 * }</pre>
 *
 * <p>Subgraphs added and removed at run time (format 1.5) are compared too: the same names,
 * templates, parameters and bindings, added and removed in the same order; a difference there comes
 * first (stream {@code "(subgraphs)"}).
 *
 * <p>Values compare as recorded: a payload is compared by checksum only when both journals
 * checksummed its stream ({@link dev.framewire.core.journal.JournalConfig#checksumStreams}); a Java object is compared by
 * timestamp only.
 *
 * <p>Threading: immutable.
 */
public final class JournalDiff
{
    /** Where two journals first differ on one stream. */
    public static final class Difference
    {
        private final String stream;
        private final long packet;
        private final JournalRecord expected;
        private final JournalRecord actual;
        private final String description;

        Difference(
            final String stream, final long packet, final JournalRecord expected, final JournalRecord actual,
            final String description)
        {
            this.stream = stream;
            this.packet = packet;
            this.expected = expected;
            this.actual = actual;
            this.description = description;
        }

        /**
         * The stream.
         *
         * @return its name.
         */
        public String stream()
        {
            return stream;
        }

        /**
         * Which packet of the stream, counting from 0.
         *
         * @return the position.
         */
        public long packet()
        {
            return packet;
        }

        /**
         * The expected journal's emit there.
         *
         * @return the record, or null if that journal's stream ended before it.
         */
        public JournalRecord expected()
        {
            return expected;
        }

        /**
         * The actual journal's emit there.
         *
         * @return the record, or null if that journal's stream ended before it.
         */
        public JournalRecord actual()
        {
            return actual;
        }

        long timestamp()
        {
            if (expected != null && actual != null)
            {
                return Math.min(expected.timestamp(), actual.timestamp());
            }
            return expected != null ? expected.timestamp() : actual.timestamp();
        }

        /**
         * The difference in a sentence.
         *
         * @return the sentence.
         */
        @Override
        public String toString()
        {
            return description;
        }
    }

    private final List<String> streams;
    private final Difference first;
    private final List<Difference> differences;
    private final List<String> notes;

    private JournalDiff(final List<String> streams, final List<Difference> differences, final List<String> notes)
    {
        this.streams = Collections.unmodifiableList(streams);
        this.notes = List.copyOf(notes);
        this.differences = Collections.unmodifiableList(differences);
        Difference min = null;
        for (final Difference d : differences)
        {
            if (min == null || d.timestamp() < min.timestamp())
            {
                min = d;
            }
        }
        this.first = min;
    }

    /**
     * Compares the emits of every stream either journal has emits on.
     *
     * @param expected the reference run (a recording).
     * @param actual   the run to check (a replay).
     * @return the comparison.
     */
    public static JournalDiff compare(final JournalReader expected, final JournalReader actual)
    {
        final Map<String, List<JournalRecord>> a = emitsByStream(expected);
        final Map<String, List<JournalRecord>> b = emitsByStream(actual);
        final boolean aCut = expected.cutAt() != null;
        final boolean bCut = actual.cutAt() != null;
        final List<String> names = new ArrayList<>(a.keySet());
        for (final String name : b.keySet())
        {
            if (!a.containsKey(name))
            {
                names.add(name);
            }
        }
        final List<Difference> differences = new ArrayList<>();
        final Difference subgraphs = compareSubgraphs(expected, actual);
        if (subgraphs != null)
        {
            differences.add(subgraphs);
        }
        for (final String name : names)
        {
            final Difference d = compare(name, a.getOrDefault(name, List.of()), b.getOrDefault(name, List.of()), aCut,
                bCut);
            if (d != null)
            {
                differences.add(d);
            }
        }
        final List<String> notes = new ArrayList<>();
        cutNote(notes, "expected", expected);
        cutNote(notes, "actual", actual);
        uncompared(notes, names, a, b);
        return new JournalDiff(names, differences, notes);
    }

    private static void cutNote(final List<String> notes, final String which, final JournalReader journal)
    {
        final JournalDamage cut = journal.cutAt();
        if (cut != null)
        {
            notes.add("the " + which + " journal is damaged: compared up to its damage, where it stopped at " + cut +
                "; each stream's packets after that point in the other journal are not compared");
        }
    }

    /** What the journals hold too little of to compare: values recorded by timestamp only. */
    private static void uncompared(
        final List<String> notes, final List<String> names, final Map<String, List<JournalRecord>> a,
        final Map<String, List<JournalRecord>> b)
    {
        final List<String> objects = new ArrayList<>();
        final List<String> payloads = new ArrayList<>();
        for (final String name : names)
        {
            final List<JournalRecord> x = a.getOrDefault(name, List.of());
            final List<JournalRecord> y = b.getOrDefault(name, List.of());
            final JournalRecord r = !x.isEmpty() ? x.get(0) : !y.isEmpty() ? y.get(0) : null;
            if (r == null)
            {
                continue;
            }
            if (r.valueKind() == JournalRecord.VALUE_NONE)
            {
                objects.add(name);
            }
            else if (r.valueKind() == JournalRecord.VALUE_PAYLOAD)
            {
                payloads.add(name);
            }
        }
        if (!objects.isEmpty())
        {
            notes.add("not compared: the values of " + objects + " (Java objects, journaled by timestamp only); " +
                "their timestamps were compared");
        }
        if (!payloads.isEmpty())
        {
            notes.add("not compared: the payload bytes of " + payloads + " (journaled by length only: name them in " +
                "JournalConfig.checksumStreams in both runs to compare them by XXH64; `framewire run` checksums its " +
                "end streams); their timestamps and lengths were compared");
        }
    }

    /**
     * The subgraphs added and removed at run time (format 1.5), in file order: the same names,
     * templates, parameters and bindings, added and removed in the same order. Their departures are
     * not compared: when a subgraph left, relative to the next addition, depends on timing. A
     * difference here has no timestamp and comes first.
     */
    private static Difference compareSubgraphs(final JournalReader expected, final JournalReader actual)
    {
        final List<JournalRecord> a = subgraphSteps(expected);
        final List<JournalRecord> b = subgraphSteps(actual);
        final boolean aCut = expected.cutAt() != null;
        final boolean bCut = actual.cutAt() != null;
        final int n = Math.min(a.size(), b.size());
        for (int i = 0; i < n; i++)
        {
            final String x = describeStep(a.get(i));
            final String y = describeStep(b.get(i));
            if (!x.equals(y))
            {
                return new Difference(SUBGRAPHS, i, a.get(i), b.get(i), "subgraphs, step #" + i + ": expected " + x +
                    ", got " + y);
            }
        }
        if (a.size() == b.size() || (aCut && a.size() < b.size()) || (bCut && b.size() < a.size()))
        {
            return null; // equal, or the longer one goes on past the other's damage
        }
        final boolean expectedLonger = a.size() > b.size();
        final JournalRecord extra = expectedLonger ? a.get(n) : b.get(n);
        return new Difference(SUBGRAPHS, n, expectedLonger ? extra : null, expectedLonger ? null : extra,
            "subgraphs: the " + (expectedLonger ? "actual" : "expected") + " journal has " + n + " subgraph " +
            "additions and removals; the " + (expectedLonger ? "expected" : "actual") + " one goes on with " +
            describeStep(extra));
    }

    /** What a subgraph difference names as its stream. */
    static final String SUBGRAPHS = "(subgraphs)";

    private static List<JournalRecord> subgraphSteps(final JournalReader journal)
    {
        final List<JournalRecord> steps = new ArrayList<>();
        for (final JournalRecord r : journal.records())
        {
            if (r.kind() == JournalRecord.Kind.SUBGRAPH_ADDED || r.kind() == JournalRecord.Kind.SUBGRAPH_REMOVED)
            {
                steps.add(r);
            }
        }
        return steps;
    }

    private static String describeStep(final JournalRecord r)
    {
        final JournalSubgraph s = r.subgraph();
        if (r.kind() == JournalRecord.Kind.SUBGRAPH_REMOVED)
        {
            return "subgraph '" + s.name() + "' removed";
        }
        return "subgraph '" + s.name() + "' added (template " + JournalRecord.hex(r.value()) + ", params " +
            s.parameters() + (s.bindings().isEmpty() ? "" : ", bound " + s.bindings()) + ")";
    }

    private static Map<String, List<JournalRecord>> emitsByStream(final JournalReader journal)
    {
        final Map<String, List<JournalRecord>> emits = new LinkedHashMap<>();
        for (final JournalRecord r : journal.records())
        {
            if (r.kind() == JournalRecord.Kind.EMIT && r.streamName() != null)
            {
                emits.computeIfAbsent(r.streamName(), k -> new ArrayList<>()).add(r);
            }
        }
        // in nanos order (stable): an ASYNC journal appends each worker's ring in turn, so a stream
        // whose packets several workers delivered is not in delivery order in the file
        for (final List<JournalRecord> stream : emits.values())
        {
            stream.sort(Comparator.comparingLong(JournalRecord::nanos));
        }
        return emits;
    }

    private static Difference compare(
        final String stream, final List<JournalRecord> a, final List<JournalRecord> b, final boolean aCut,
        final boolean bCut)
    {
        final int n = Math.min(a.size(), b.size());
        for (int i = 0; i < n; i++)
        {
            final JournalRecord x = a.get(i);
            final JournalRecord y = b.get(i);
            if (x.timestamp() != y.timestamp())
            {
                return new Difference(stream, i, x, y, "stream `" + stream + "`, packet #" + i + ": expected timestamp " +
                    Timestamp.toString(x.timestamp()) + ", got " + Timestamp.toString(y.timestamp()));
            }
            if (x.valueKind() != y.valueKind())
            {
                return new Difference(stream, i, x, y, "stream `" + stream + "`, packet #" + i + " at timestamp " +
                    Timestamp.toString(x.timestamp()) + ": the journals recorded its value differently (" +
                    describe(x) + " vs " + describe(y) + "); journal both runs with the same checksum streams");
            }
            if (x.value() != y.value())
            {
                return new Difference(stream, i, x, y, "stream `" + stream + "`, packet #" + i + " at timestamp " +
                    Timestamp.toString(x.timestamp()) + ": expected " + describe(x) + ", got " + describe(y));
            }
        }
        if (a.size() == b.size() || (aCut && a.size() < b.size()) || (bCut && b.size() < a.size()))
        {
            return null; // equal, or the longer one goes on past the other's damage
        }
        final boolean expectedLonger = a.size() > b.size();
        final JournalRecord extra = expectedLonger ? a.get(n) : b.get(n);
        return new Difference(stream, n, expectedLonger ? extra : null, expectedLonger ? null : extra,
            "stream `" + stream + "`: the " + (expectedLonger ? "actual" : "expected") + " journal ends after " + n +
            " packets; the " + (expectedLonger ? "expected" : "actual") + " one goes on with packet #" + n +
            " at timestamp " + Timestamp.toString(extra.timestamp()) + " (" + (expectedLonger ? a.size() : b.size()) +
            " packets in all)");
    }

    private static String describe(final JournalRecord r)
    {
        final String v = r.valueText();
        return v.isEmpty() ? "an object" : v;
    }

    /**
     * Whether every stream's packets are the same in both journals.
     *
     * @return true if identical.
     */
    public boolean identical()
    {
        return first == null;
    }

    /**
     * The first difference: of the differing streams, the one that differs at the lowest timestamp.
     *
     * @return it, or null when identical.
     */
    public Difference firstDifference()
    {
        return first;
    }

    /**
     * The first difference of every stream that differs.
     *
     * @return the differences, in stream order.
     */
    public List<Difference> differences()
    {
        return differences;
    }

    /**
     * What the comparison could not cover: the part after a journal's damage, values journaled by
     * timestamp or length only.
     *
     * @return sentences, empty when everything journaled was compared.
     */
    public List<String> notes()
    {
        return notes;
    }

    /**
     * The streams compared.
     *
     * @return names.
     */
    public List<String> streams()
    {
        return streams;
    }

    /**
     * "identical (n streams)" or the first difference.
     *
     * @return the answer in a sentence.
     */
    @Override
    public String toString()
    {
        return first == null ? "identical (" + streams.size() + " streams compared)" : first.toString();
    }
}
