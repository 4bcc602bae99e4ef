package dev.framewire.journal;

import dev.framewire.core.Timestamp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The counting behind {@link Postmortem#of}: takes a journal's records in {@code nanos} order and
 * counts, per stream, the packets emitted, and per consumer (a node's input port), the packets
 * consumed, dropped and still in flight, and per node the calls begun and still open. The rules
 * are in {@link Postmortem}'s class javadoc.
 *
 * <p>Threading: confined to the thread building the post-mortem; used once.
 */
final class PostmortemTally
{
    private final JournalReader journal;
    private final int nodeCount;
    private final int streamCount;
    private final int[][] inputs;
    /** Per node, per input port: its place among the stream's consumers (its mark bit). */
    private final int[][] consumerIndex;
    private final long[] emitted;
    private final long[] lastEmitted;
    private final String[] producers;
    private final EmittedTimestamps[] emittedAt;
    /** Per node, per input port: consumed, dropped, last consumed. */
    private final long[][] consumed;
    private final long[][] dropped;
    private final long[][] lastConsumed;
    private final OpenCalls[] open;
    private final long[] calls;
    private final long[] drops;
    /**
     * A subgraph added at run time (format 1.5) consumes a stream from its addition on (a bound
     * stream of the graph's own had packets before), and holds nothing once it has left.
     */
    private final long[][] before;
    private final boolean[] left;
    private final Map<String, int[]> present = new HashMap<>();
    private final long[] queued;
    private JournalRecord lastError;
    private long start = Long.MAX_VALUE;
    private long end = Long.MIN_VALUE;

    PostmortemTally(final JournalReader journal)
    {
        this.journal = journal;
        nodeCount = journal.nodeNames().size();
        streamCount = journal.streamNames().size();
        inputs = new int[nodeCount][];
        final int[] consumerCount = new int[streamCount];
        consumerIndex = new int[nodeCount][];
        consumed = new long[nodeCount][];
        dropped = new long[nodeCount][];
        lastConsumed = new long[nodeCount][];
        before = new long[nodeCount][];
        open = new OpenCalls[nodeCount];
        for (int n = 0; n < nodeCount; n++)
        {
            inputs[n] = journal.hasTopology() ? journal.nodeInputs(n) : new int[0];
            consumerIndex[n] = new int[inputs[n].length];
            for (int p = 0; p < inputs[n].length; p++)
            {
                consumerIndex[n][p] = consumerCount[inputs[n][p]]++;
            }
            consumed[n] = new long[inputs[n].length];
            dropped[n] = new long[inputs[n].length];
            lastConsumed[n] = filled(inputs[n].length, Timestamp.UNSET);
            before[n] = new long[inputs[n].length];
            open[n] = new OpenCalls();
        }
        emitted = new long[streamCount];
        lastEmitted = filled(streamCount, Timestamp.UNSET);
        producers = new String[streamCount];
        emittedAt = new EmittedTimestamps[streamCount];
        for (int s = 0; s < streamCount; s++)
        {
            emittedAt[s] = new EmittedTimestamps(consumerCount[s]);
        }
        calls = new long[nodeCount];
        drops = new long[nodeCount];
        left = new boolean[nodeCount];
        queued = new long[nodeCount];
    }

    /**
     * Counts every record of the journal.
     *
     * @return this.
     */
    PostmortemTally count()
    {
        // in nanos order (stable: file order among equal readings): an ASYNC journal appends each
        // worker's ring in turn, so a consumer's PROCESS_BEGIN can come in the file before the EMIT
        // of the packet it took; nanos, read before the packet went out and after it came in, does not
        final List<JournalRecord> records = new ArrayList<>(journal.records());
        records.sort(Comparator.comparingLong(JournalRecord::nanos));
        for (final JournalRecord r : records)
        {
            if (r.kind() != JournalRecord.Kind.HEADER)
            {
                start = Math.min(start, r.nanos());
                end = Math.max(end, r.nanos());
                count(r);
            }
        }
        if (start == Long.MAX_VALUE)
        {
            start = journal.headerNanos();
            end = journal.headerNanos();
        }
        return this;
    }

    private void count(final JournalRecord r)
    {
        final int n = r.node();
        final int s = r.stream();
        switch (r.kind())
        {
            case GRAPH_INPUT:
            case EMIT:
                if (s >= 0 && s < streamCount)
                {
                    emitted[s]++;
                    lastEmitted[s] = r.timestamp();
                    emittedAt[s].add(r.timestamp());
                    producers[s] = r.kind() == JournalRecord.Kind.EMIT ? r.nodeName() : "graph input";
                }
                break;
            case PROCESS_BEGIN:
                if (n >= 0 && n < nodeCount)
                {
                    begin(r, n);
                }
                break;
            case PROCESS_END:
                if (n >= 0 && n < nodeCount)
                {
                    open[n].end(r.worker());
                }
                break;
            case DROP:
                if (n >= 0 && n < nodeCount)
                {
                    drop(n, s);
                }
                break;
            case ERROR:
                lastError = r;
                break;
            case SUBGRAPH_ADDED:
                subgraphAdded(r);
                break;
            case SUBGRAPH_LEFT:
                subgraphLeft(r);
                break;
            default:
                break;
        }
    }

    private void begin(final JournalRecord r, final int n)
    {
        calls[n]++;
        final long ts = r.timestamp();
        open[n].begin(r.worker(), ts, r.nanos());
        if (!Timestamp.isValidPacketTimestamp(ts))
        {
            return;
        }
        for (int p = 0; p < inputs[n].length; p++)
        {
            // once per consumer and timestamp: a repeated timestamp (one call per
            // input with an immediate policy) or a BEGIN that came after a later
            // timestamp's (calls on several workers) finds the mark set
            if (emittedAt[inputs[n][p]].consume(ts, consumerIndex[n][p]))
            {
                consumed[n][p]++;
                if (lastConsumed[n][p] == Timestamp.UNSET || ts > lastConsumed[n][p])
                {
                    lastConsumed[n][p] = ts;
                }
            }
        }
    }

    private void drop(final int n, final int s)
    {
        drops[n]++;
        for (int p = 0; p < inputs[n].length; p++)
        {
            if (inputs[n][p] == s)
            {
                dropped[n][p]++;
                break;
            }
        }
    }

    private void subgraphAdded(final JournalRecord r)
    {
        final int[] ids = r.subgraph().nodeIds();
        present.put(r.text(), ids);
        for (final int id : ids)
        {
            for (int p = 0; id < nodeCount && p < inputs[id].length; p++)
            {
                before[id][p] = emitted[inputs[id][p]];
            }
        }
    }

    private void subgraphLeft(final JournalRecord r)
    {
        final int[] ids = present.remove(r.text());
        for (final int id : ids == null ? new int[0] : ids)
        {
            if (id < nodeCount)
            {
                left[id] = true;
            }
        }
    }

    /**
     * Every stream, by id; also counts the packets queued at each node. Call once, after
     * {@link #count()}, and before {@link #nodes()}.
     *
     * @return the streams.
     */
    List<Postmortem.StreamState> streams()
    {
        final List<Postmortem.StreamState> streams = new ArrayList<>();
        for (int s = 0; s < streamCount; s++)
        {
            final List<Postmortem.Consumer> consumers = new ArrayList<>();
            long last = Timestamp.UNSET;
            long inFlight = 0;
            for (int n = 0; n < nodeCount; n++)
            {
                for (int p = 0; p < inputs[n].length; p++)
                {
                    if (inputs[n][p] != s)
                    {
                        continue;
                    }
                    final long flight = left[n] ? 0 : Math.max(0, emitted[s] - before[n][p] - consumed[n][p] -
                        dropped[n][p]);
                    consumers.add(new Postmortem.Consumer(journal.nodeNames().get(n), consumed[n][p], dropped[n][p],
                        flight, lastConsumed[n][p]));
                    queued[n] += flight;
                    inFlight = Math.max(inFlight, flight);
                    if (lastConsumed[n][p] != Timestamp.UNSET && (last == Timestamp.UNSET || lastConsumed[n][p] > last))
                    {
                        last = lastConsumed[n][p];
                    }
                }
            }
            streams.add(new Postmortem.StreamState(journal.streamNames().get(s), producers[s], emitted[s],
                lastEmitted[s], last, inFlight, Collections.unmodifiableList(consumers)));
        }
        return streams;
    }

    /**
     * Every node, by id.
     *
     * @return the nodes.
     */
    List<Postmortem.NodeState> nodes()
    {
        final List<Postmortem.NodeState> nodes = new ArrayList<>();
        for (int n = 0; n < nodeCount; n++)
        {
            final OpenCalls o = open[n];
            final int longest = o.longestRunning();
            final boolean inProcess = longest >= 0;
            nodes.add(new Postmortem.NodeState(journal.nodeNames().get(n), inProcess,
                inProcess ? o.timestamps[longest] : Timestamp.UNSET, inProcess ? end - o.nanos[longest] : 0,
                inProcess ? journal.workerName(o.workers[longest]) : null, o.size, calls[n], drops[n], queued[n]));
        }
        return nodes;
    }

    JournalRecord lastError()
    {
        return lastError;
    }

    long start()
    {
        return start;
    }

    long end()
    {
        return end;
    }

    private static long[] filled(final int n, final long value)
    {
        final long[] a = new long[n];
        Arrays.fill(a, value);
        return a;
    }

    /**
     * A stream's emitted timestamps, sorted, each with a mark bit per consumer (a node's input port
     * on the stream), set when that consumer consumes the packet: a packet counts once per consumer
     * however the consumer's BEGINs are ordered, and a set of consumed timestamps per consumer is
     * not needed. A stream's EMITs come in timestamp order, so an add appends; one out of order
     * (graph input packets added from two threads) is inserted in place. 8 bytes a packet, plus 8
     * per 64 consumers; a stream that no node consumes keeps nothing.
     */
    private static final class EmittedTimestamps
    {
        private static final int INITIAL_CAPACITY = 16;

        /** Longs of mark bits per timestamp. */
        private final int words;
        private long[] timestamps;
        private long[] marks;
        private int size;

        EmittedTimestamps(final int consumers)
        {
            words = (consumers + Long.SIZE - 1) / Long.SIZE;
            timestamps = words == 0 ? new long[0] : new long[INITIAL_CAPACITY];
            marks = new long[timestamps.length * words];
        }

        void add(final long timestamp)
        {
            if (words == 0)
            {
                return;
            }
            int at = size;
            if (size > 0 && timestamp <= timestamps[size - 1])
            {
                final int found = Arrays.binarySearch(timestamps, 0, size, timestamp);
                if (found >= 0)
                {
                    return; // emitted twice: still one packet for each consumer to take
                }
                at = -found - 1;
            }
            if (size == timestamps.length)
            {
                timestamps = Arrays.copyOf(timestamps, size * 2);
                marks = Arrays.copyOf(marks, size * 2 * words);
            }
            System.arraycopy(timestamps, at, timestamps, at + 1, size - at);
            System.arraycopy(marks, at * words, marks, (at + 1) * words, (size - at) * words);
            timestamps[at] = timestamp;
            Arrays.fill(marks, at * words, (at + 1) * words, 0L);
            size++;
        }

        /**
         * Marks the packet at a timestamp as consumed by a consumer.
         *
         * @return true if it was emitted and this consumer had not consumed it yet.
         */
        boolean consume(final long timestamp, final int consumer)
        {
            // calls come in about timestamp order, just after the packet: the newest is the likeliest
            final int at = size > 0 && timestamps[size - 1] == timestamp ?
                size - 1 : Arrays.binarySearch(timestamps, 0, size, timestamp);
            if (at < 0)
            {
                return false;
            }
            final int word = at * words + consumer / Long.SIZE;
            final long bit = 1L << (consumer % Long.SIZE);
            if ((marks[word] & bit) != 0)
            {
                return false;
            }
            marks[word] |= bit;
            return true;
        }
    }

    /**
     * A node's calls begun and not ended, in the order their BEGINs came: at most one per worker,
     * since a worker runs one call at a time, so an END closes the call of its worker. As many as
     * the node's {@code max_in_flight} at most; usually none or one.
     */
    private static final class OpenCalls
    {
        int[] workers = new int[2];
        long[] timestamps = new long[2];
        long[] nanos = new long[2];
        int size;

        void begin(final int worker, final long timestamp, final long beginNanos)
        {
            end(worker); // a BEGIN without the END of the worker's previous call: that END was lost
            if (size == workers.length)
            {
                workers = Arrays.copyOf(workers, size * 2);
                timestamps = Arrays.copyOf(timestamps, size * 2);
                nanos = Arrays.copyOf(nanos, size * 2);
            }
            workers[size] = worker;
            timestamps[size] = timestamp;
            nanos[size] = beginNanos;
            size++;
        }

        void end(final int worker)
        {
            for (int i = 0; i < size; i++)
            {
                if (workers[i] == worker)
                {
                    final int after = size - i - 1;
                    System.arraycopy(workers, i + 1, workers, i, after);
                    System.arraycopy(timestamps, i + 1, timestamps, i, after);
                    System.arraycopy(nanos, i + 1, nanos, i, after);
                    size--;
                    return;
                }
            }
        }

        /**
         * The open call with the earliest begin nanos; on a tie, the one whose BEGIN came first.
         *
         * @return its index, -1 if none is open.
         */
        int longestRunning()
        {
            int longest = -1;
            for (int i = 0; i < size; i++)
            {
                if (longest < 0 || nanos[i] < nanos[longest])
                {
                    longest = i;
                }
            }
            return longest;
        }
    }
}
