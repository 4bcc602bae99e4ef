package dev.framewire.journal;

import dev.framewire.core.Timestamp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * What a journal says about how its run ended: per stream, the last timestamp emitted and
 * consumed and the packets still in flight; per node, whether it was inside a call when the
 * journal ends, for which timestamp and for how long; the last error; and a verdict in a
 * paragraph, e.g. "node `detector` had been in process for timestamp 12345000 for 4.2 s when the
 * journal ends; 17 packets were queued on its inputs".
 *
 * <p>Counting: a packet of stream s at timestamp t is <em>emitted</em> by an EMIT or GRAPH_INPUT
 * record; it is <em>consumed</em> by a consumer of s when that node's PROCESS_BEGIN at t comes
 * (each consumer counts it once, whatever order the node's calls began in: a node with
 * {@code max_in_flight} above 1 begins calls on several workers, so a later timestamp's BEGIN can
 * come first); it is <em>dropped</em> at a consumer by a DROP naming the node and s. In flight at a
 * consumer = emitted - consumed - dropped: what was queued on its input. Drops of a whole input
 * set (stream -1) happen in or after a call that consumed it and do not count. Which node consumes
 * which stream comes from the run start's topology; without it, nothing is counted in flight. An
 * ASYNC journal that lost records (ring full) may count short.
 *
 * <p>Records are taken in {@code nanos} order, not file order: an ASYNC journal appends each
 * worker's ring in turn, so a BEGIN can come in the file before the EMIT of the packet it took.
 *
 * <p>Calls: a worker runs one call at a time, so a PROCESS_END closes the call its worker began.
 * A node is in process while any of its calls is open; with several open (up to its
 * {@code max_in_flight}) the state names the longest-running one and counts them.
 *
 * <p>Threading: built once from a read journal; immutable.
 */
public final class Postmortem
{
    /** One consumer of a stream. */
    public static final class Consumer
    {
        private final String node;
        private final long consumed;
        private final long dropped;
        private final long inFlight;
        private final long lastConsumed;

        Consumer(final String node, final long consumed, final long dropped, final long inFlight, final long lastConsumed)
        {
            this.node = node;
            this.consumed = consumed;
            this.dropped = dropped;
            this.inFlight = inFlight;
            this.lastConsumed = lastConsumed;
        }

        /**
         * The consuming node.
         *
         * @return its name.
         */
        public String node()
        {
            return node;
        }

        /**
         * Packets of the stream it consumed.
         *
         * @return the count.
         */
        public long consumed()
        {
            return consumed;
        }

        /**
         * Packets of the stream dropped at it.
         *
         * @return the count.
         */
        public long dropped()
        {
            return dropped;
        }

        /**
         * Packets emitted it had neither consumed nor dropped: queued on its input at the end.
         *
         * @return the count.
         */
        public long inFlight()
        {
            return inFlight;
        }

        /**
         * The timestamp of the last packet it consumed.
         *
         * @return the timestamp, {@link Timestamp#UNSET} if none.
         */
        public long lastConsumed()
        {
            return lastConsumed;
        }
    }

    /** A stream at the end of the journal. */
    public static final class StreamState
    {
        private final String name;
        private final String producer;
        private final long emitted;
        private final long lastEmitted;
        private final long lastConsumed;
        private final long inFlight;
        private final List<Consumer> consumers;

        StreamState(
            final String name,
            final String producer,
            final long emitted,
            final long lastEmitted,
            final long lastConsumed,
            final long inFlight,
            final List<Consumer> consumers)
        {
            this.name = name;
            this.producer = producer;
            this.emitted = emitted;
            this.lastEmitted = lastEmitted;
            this.lastConsumed = lastConsumed;
            this.inFlight = inFlight;
            this.consumers = consumers;
        }

        /**
         * The stream's name.
         *
         * @return the name.
         */
        public String name()
        {
            return name;
        }

        /**
         * Who emitted on it: a node's name, "graph input", or null if nothing was emitted.
         *
         * @return the producer.
         */
        public String producer()
        {
            return producer;
        }

        /**
         * Packets emitted.
         *
         * @return the count.
         */
        public long emitted()
        {
            return emitted;
        }

        /**
         * The last emitted packet's timestamp.
         *
         * @return the timestamp, {@link Timestamp#UNSET} if none.
         */
        public long lastEmitted()
        {
            return lastEmitted;
        }

        /**
         * The last timestamp any consumer consumed.
         *
         * @return the timestamp, {@link Timestamp#UNSET} if none.
         */
        public long lastConsumed()
        {
            return lastConsumed;
        }

        /**
         * Packets in flight: the most any one consumer had not consumed nor dropped.
         *
         * @return the count.
         */
        public long inFlight()
        {
            return inFlight;
        }

        /**
         * Its consumers, with their counts.
         *
         * @return the consumers.
         */
        public List<Consumer> consumers()
        {
            return consumers;
        }
    }

    /** A node at the end of the journal. */
    public static final class NodeState
    {
        private final String name;
        private final boolean inProcess;
        private final long timestamp;
        private final long inProcessNanos;
        private final String worker;
        private final int openCalls;
        private final long calls;
        private final long drops;
        private final long queued;

        NodeState(
            final String name,
            final boolean inProcess,
            final long timestamp,
            final long inProcessNanos,
            final String worker,
            final int openCalls,
            final long calls,
            final long drops,
            final long queued)
        {
            this.name = name;
            this.inProcess = inProcess;
            this.timestamp = timestamp;
            this.inProcessNanos = inProcessNanos;
            this.worker = worker;
            this.openCalls = openCalls;
            this.calls = calls;
            this.drops = drops;
            this.queued = queued;
        }

        /**
         * The node's name.
         *
         * @return the name.
         */
        public String name()
        {
            return name;
        }

        /**
         * Whether a call had begun and not ended when the journal ends (any of its calls, for a
         * node with {@code max_in_flight} above 1).
         *
         * @return true if inside a call.
         */
        public boolean inProcess()
        {
            return inProcess;
        }

        /**
         * The input timestamp of that call: of the longest-running one when several were open.
         *
         * @return the timestamp, {@link Timestamp#UNSET} if not in a call.
         */
        public long timestamp()
        {
            return timestamp;
        }

        /**
         * How long the call had lasted: nanos from its begin to the journal's last record.
         *
         * @return nanos, 0 if not in a call.
         */
        public long inProcessNanos()
        {
            return inProcessNanos;
        }

        /**
         * The worker of that call.
         *
         * @return the worker's name, or null.
         */
        public String worker()
        {
            return worker;
        }

        /**
         * Calls begun and not ended when the journal ends: more than one only for a node with
         * {@code max_in_flight} above 1, each on its own worker.
         *
         * @return the count, 0 if not in a call.
         */
        public int openCalls()
        {
            return openCalls;
        }

        /**
         * Calls begun (open and close included).
         *
         * @return the count.
         */
        public long calls()
        {
            return calls;
        }

        /**
         * Drops the node journaled.
         *
         * @return the count.
         */
        public long drops()
        {
            return drops;
        }

        /**
         * Packets in flight on its inputs (needs the topology).
         *
         * @return the count.
         */
        public long queued()
        {
            return queued;
        }
    }

    private final JournalReader journal;
    private final List<StreamState> streams;
    private final List<NodeState> nodes;
    private final JournalRecord lastError;
    private final long endNanos;
    private final long startNanos;
    private final String verdict;

    private Postmortem(
        final JournalReader journal,
        final List<StreamState> streams,
        final List<NodeState> nodes,
        final JournalRecord lastError,
        final long startNanos,
        final long endNanos)
    {
        this.journal = journal;
        this.streams = Collections.unmodifiableList(streams);
        this.nodes = Collections.unmodifiableList(nodes);
        this.lastError = lastError;
        this.startNanos = startNanos;
        this.endNanos = endNanos;
        this.verdict = makeVerdict();
    }

    /**
     * Works out the end of a run from its journal (or from the readable part of a damaged one,
     * {@link JournalException#readable()}).
     *
     * @param journal the journal.
     * @return the post-mortem.
     */
    public static Postmortem of(final JournalReader journal)
    {
        final int nodeCount = journal.nodeNames().size();
        final int streamCount = journal.streamNames().size();
        final int[][] inputs = new int[nodeCount][];
        final int[] consumerCount = new int[streamCount];
        // per node, per input port: its place among the stream's consumers (its mark bit)
        final int[][] consumerIndex = new int[nodeCount][];
        for (int n = 0; n < nodeCount; n++)
        {
            inputs[n] = journal.hasTopology() ? journal.nodeInputs(n) : new int[0];
            consumerIndex[n] = new int[inputs[n].length];
            for (int p = 0; p < inputs[n].length; p++)
            {
                consumerIndex[n][p] = consumerCount[inputs[n][p]]++;
            }
        }
        final long[] emitted = new long[streamCount];
        final long[] lastEmitted = filled(streamCount, Timestamp.UNSET);
        final String[] producers = new String[streamCount];
        final EmittedTimestamps[] emittedAt = new EmittedTimestamps[streamCount];
        for (int s = 0; s < streamCount; s++)
        {
            emittedAt[s] = new EmittedTimestamps(consumerCount[s]);
        }
        // per node, per input port: consumed, dropped, last consumed
        final long[][] consumed = new long[nodeCount][];
        final long[][] dropped = new long[nodeCount][];
        final long[][] lastConsumed = new long[nodeCount][];
        for (int n = 0; n < nodeCount; n++)
        {
            consumed[n] = new long[inputs[n].length];
            dropped[n] = new long[inputs[n].length];
            lastConsumed[n] = filled(inputs[n].length, Timestamp.UNSET);
        }
        final OpenCalls[] open = new OpenCalls[nodeCount];
        for (int n = 0; n < nodeCount; n++)
        {
            open[n] = new OpenCalls();
        }
        final long[] calls = new long[nodeCount];
        final long[] drops = new long[nodeCount];
        // a subgraph added at run time (format 1.5) consumes a stream from its addition on (a bound
        // stream of the graph's own had packets before), and holds nothing once it has left
        final long[][] before = new long[nodeCount][];
        for (int n = 0; n < nodeCount; n++)
        {
            before[n] = new long[inputs[n].length];
        }
        final boolean[] left = new boolean[nodeCount];
        final java.util.Map<String, int[]> present = new java.util.HashMap<>();
        JournalRecord lastError = null;
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;

        // in nanos order (stable: file order among equal readings): an ASYNC journal appends each
        // worker's ring in turn, so a consumer's PROCESS_BEGIN can come in the file before the EMIT
        // of the packet it took; nanos, read before the packet went out and after it came in, does not
        final List<JournalRecord> records = new ArrayList<>(journal.records());
        records.sort(Comparator.comparingLong(JournalRecord::nanos));
        for (final JournalRecord r : records)
        {
            if (r.kind() == JournalRecord.Kind.HEADER)
            {
                continue;
            }
            start = Math.min(start, r.nanos());
            end = Math.max(end, r.nanos());
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
                        calls[n]++;
                        final long ts = r.timestamp();
                        open[n].begin(r.worker(), ts, r.nanos());
                        if (Timestamp.isValidPacketTimestamp(ts))
                        {
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
                    break;
                case ERROR:
                    lastError = r;
                    break;
                case SUBGRAPH_ADDED:
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
                    break;
                }
                case SUBGRAPH_LEFT:
                {
                    final int[] ids = present.remove(r.text());
                    for (final int id : ids == null ? new int[0] : ids)
                    {
                        if (id < nodeCount)
                        {
                            left[id] = true;
                        }
                    }
                    break;
                }
                default:
                    break;
            }
        }
        if (start == Long.MAX_VALUE)
        {
            start = journal.headerNanos();
            end = journal.headerNanos();
        }

        final List<StreamState> streams = new ArrayList<>();
        final long[] queued = new long[nodeCount];
        for (int s = 0; s < streamCount; s++)
        {
            final List<Consumer> consumers = new ArrayList<>();
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
                    consumers.add(new Consumer(journal.nodeNames().get(n), consumed[n][p], dropped[n][p], flight,
                        lastConsumed[n][p]));
                    queued[n] += flight;
                    inFlight = Math.max(inFlight, flight);
                    if (lastConsumed[n][p] != Timestamp.UNSET && (last == Timestamp.UNSET || lastConsumed[n][p] > last))
                    {
                        last = lastConsumed[n][p];
                    }
                }
            }
            streams.add(new StreamState(journal.streamNames().get(s), producers[s], emitted[s], lastEmitted[s], last,
                inFlight, Collections.unmodifiableList(consumers)));
        }
        final List<NodeState> nodes = new ArrayList<>();
        for (int n = 0; n < nodeCount; n++)
        {
            final OpenCalls o = open[n];
            final int longest = o.longestRunning();
            final boolean inProcess = longest >= 0;
            nodes.add(new NodeState(journal.nodeNames().get(n), inProcess,
                inProcess ? o.timestamps[longest] : Timestamp.UNSET, inProcess ? end - o.nanos[longest] : 0,
                inProcess ? journal.workerName(o.workers[longest]) : null, o.size, calls[n], drops[n], queued[n]));
        }
        return new Postmortem(journal, streams, nodes, lastError, start, end);
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

    /**
     * Every stream, by id.
     *
     * @return the streams.
     */
    public List<StreamState> streams()
    {
        return streams;
    }

    /**
     * Every node, by id.
     *
     * @return the nodes.
     */
    public List<NodeState> nodes()
    {
        return nodes;
    }

    /**
     * A stream by name.
     *
     * @param name the stream's name.
     * @return its state.
     * @throws IllegalArgumentException if the journal has no such stream.
     */
    public StreamState stream(final String name)
    {
        for (final StreamState s : streams)
        {
            if (s.name.equals(name))
            {
                return s;
            }
        }
        throw new IllegalArgumentException("the journal has no stream '" + name + "'; its streams are " +
            journal.streamNames());
    }

    /**
     * A node by name.
     *
     * @param name the node's name.
     * @return its state.
     * @throws IllegalArgumentException if the journal has no such node.
     */
    public NodeState node(final String name)
    {
        for (final NodeState n : nodes)
        {
            if (n.name.equals(name))
            {
                return n;
            }
        }
        throw new IllegalArgumentException("the journal has no node '" + name + "'; its nodes are " +
            journal.nodeNames());
    }

    /**
     * How the run ended: done, duration elapsed, stopped, cancelled, failed, or killed (no end of
     * run in the journal; on a damaged journal, its end may also have been in the damaged part).
     *
     * @return the ending.
     */
    public RunEnding ending()
    {
        final JournalRecord end = journal.runEnd();
        return RunEnding.of(end == null ? null : end.text());
    }

    /**
     * The last ERROR record.
     *
     * @return it, or null.
     */
    public JournalRecord lastError()
    {
        return lastError;
    }

    /**
     * What happened, in one paragraph.
     *
     * @return the verdict.
     */
    public String verdict()
    {
        return verdict;
    }

    private String makeVerdict()
    {
        final StringBuilder sb = new StringBuilder(256);
        final JournalRecord end = journal.runEnd();
        final List<JournalDamage> damage = journal.damage();
        if (!damage.isEmpty())
        {
            // damage is in the files; it says nothing about how the run ended, and must not read as a killed run
            sb.append("The journal is damaged in ").append(damage.size()).append(damage.size() == 1 ? " place" :
                " places").append(" (").append(damage.get(0)).append(damage.size() > 1 ? "; and more" : "")
                .append("): that is damage to its files, not how the run ended; what follows is from the ")
                .append(journal.records().size()).append(" records that could be read, and its counts miss what was ")
                .append("in the damaged parts. ");
            sb.append(end != null ? "The run " + RunEnding.phrase(end.text()) : "No end of run was read: the process " +
                "died or was killed, or is still running, or its end was in the damaged part");
        }
        else
        {
            sb.append(end != null ? "The run " + RunEnding.phrase(end.text()) : "The journal has no end of run: the " +
                "process died or was killed, or is still running");
        }
        sb.append(" after ").append(seconds(endNanos - startNanos)).append('.');
        for (final JournalRecord r : journal.records())
        {
            if (r.kind() == JournalRecord.Kind.NOTE && r.node() < 0 && r.text() != null &&
                r.text().startsWith(JournalWriter.LEVEL_NOTE))
            {
                sb.append(" The journal was written at a lighter level (").append(r.text()).append("): it does ")
                    .append("not hold every call, so which node was in a call, and the packets consumed and in flight ")
                    .append("at each node, are not known (docs/JOURNAL.md, Levels).");
                break;
            }
        }
        final List<NodeState> busy = new ArrayList<>();
        for (final NodeState n : nodes)
        {
            if (n.inProcess)
            {
                busy.add(n);
            }
        }
        busy.sort((a, b) -> Long.compare(b.inProcessNanos, a.inProcessNanos));
        if (!busy.isEmpty())
        {
            final NodeState n = busy.get(0);
            sb.append(" Node `").append(n.name).append("` had been in process for timestamp ")
                .append(Timestamp.toString(n.timestamp)).append(" for ").append(seconds(n.inProcessNanos))
                .append(" when the journal ends (on ").append(n.worker);
            if (n.openCalls > 1)
            {
                sb.append(", the longest of its ").append(n.openCalls).append(" calls in process");
            }
            sb.append(')');
            if (journal.hasTopology())
            {
                sb.append("; ").append(n.queued).append(n.queued == 1 ? " packet was" : " packets were")
                    .append(" queued on its inputs").append(queuedDetail(n.name));
            }
            sb.append('.');
            if (busy.size() > 1)
            {
                sb.append(" Also in process:");
                for (int i = 1; i < busy.size(); i++)
                {
                    final NodeState o = busy.get(i);
                    sb.append(i == 1 ? " " : ", ").append('`').append(o.name).append("` (timestamp ")
                        .append(Timestamp.toString(o.timestamp)).append(", ").append(seconds(o.inProcessNanos));
                    if (o.openCalls > 1)
                    {
                        sb.append(", ").append(o.openCalls).append(" calls");
                    }
                    sb.append(')');
                }
                sb.append('.');
            }
        }
        else
        {
            sb.append(" No node was in process.");
        }
        if (journal.hasTopology())
        {
            long total = 0;
            StreamState worst = null;
            for (final StreamState s : streams)
            {
                for (final Consumer c : s.consumers)
                {
                    total += c.inFlight;
                }
                if (s.inFlight > 0 && (worst == null || s.inFlight > worst.inFlight))
                {
                    worst = s;
                }
            }
            if (busy.isEmpty() || total > busy.get(0).queued)
            {
                if (total == 0)
                {
                    sb.append(" No packet was in flight.");
                }
                else
                {
                    sb.append(' ').append(total).append(total == 1 ? " packet was" : " packets were")
                        .append(" in flight, the most on stream `").append(worst.name).append("` (")
                        .append(worst.inFlight).append(", last emitted ").append(Timestamp.toString(worst.lastEmitted))
                        .append(", last consumed ").append(Timestamp.toString(worst.lastConsumed)).append(").");
                }
            }
        }
        else
        {
            sb.append(" The journal does not say which node consumes which stream, so packets in flight are not " +
                "counted.");
        }
        subgraphs(sb);
        if (lastError != null)
        {
            sb.append(" The last error: ");
            if (lastError.nodeName() != null)
            {
                sb.append("node `").append(lastError.nodeName()).append("` at timestamp ")
                    .append(Timestamp.toString(lastError.timestamp())).append(": ");
            }
            sb.append(firstLine(lastError.text())).append('.');
        }
        else
        {
            sb.append(" No error was journaled.");
        }
        if (journal.lostRecords() > 0)
        {
            sb.append(" The journal lost ").append(journal.lostRecords())
                .append(" records to a full ring, so these counts may be short.");
        }
        return sb.toString();
    }

    /**
     * The subgraphs added at run time (format 1.5), if any: how many, and which were still in the
     * graph when the journal ends (and whether their removal had been asked for).
     */
    private void subgraphs(final StringBuilder sb)
    {
        int added = 0;
        final java.util.Map<String, Boolean> present = new java.util.LinkedHashMap<>(); // name -> being removed
        for (final JournalRecord r : journal.records())
        {
            switch (r.kind())
            {
                case SUBGRAPH_ADDED:
                    added++;
                    present.put(r.text(), false);
                    break;
                case SUBGRAPH_REMOVED:
                    present.replace(r.text(), true);
                    break;
                case SUBGRAPH_LEFT:
                    present.remove(r.text());
                    break;
                default:
                    break;
            }
        }
        if (added == 0)
        {
            return;
        }
        sb.append(' ').append(added).append(added == 1 ? " subgraph was" : " subgraphs were")
            .append(" added at run time; ");
        if (present.isEmpty())
        {
            sb.append("none was in the graph when the journal ends.");
            return;
        }
        sb.append("in the graph when the journal ends: ");
        int i = 0;
        for (final java.util.Map.Entry<String, Boolean> e : present.entrySet())
        {
            sb.append(i++ == 0 ? "" : ", ").append('`').append(e.getKey()).append('`')
                .append(e.getValue() ? " (being removed)" : "");
        }
        sb.append('.');
    }

    private String queuedDetail(final String node)
    {
        final StringBuilder sb = new StringBuilder();
        for (final StreamState s : streams)
        {
            for (final Consumer c : s.consumers)
            {
                if (c.node.equals(node) && c.inFlight > 0)
                {
                    sb.append(sb.length() == 0 ? " (" : ", ").append('`').append(s.name).append("`: ").append(c.inFlight);
                }
            }
        }
        return sb.length() == 0 ? "" : sb.append(')').toString();
    }

    private static String firstLine(final String text)
    {
        if (text == null)
        {
            return "";
        }
        final int nl = text.indexOf('\n');
        final String line = nl < 0 ? text : text.substring(0, nl);
        return line.endsWith(".") ? line.substring(0, line.length() - 1) : line;
    }

    static String seconds(final long nanos)
    {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    /**
     * The verdict, then every node and stream, one per line.
     *
     * @return the report.
     */
    public String report()
    {
        final StringBuilder sb = new StringBuilder(1024);
        sb.append(verdict).append("\nnodes:\n");
        for (final NodeState n : nodes)
        {
            sb.append("  ").append(n.name).append(": ").append(n.calls).append(" calls, ").append(n.drops).append(" drops");
            if (n.inProcess)
            {
                sb.append(", in process for timestamp ").append(Timestamp.toString(n.timestamp)).append(" for ")
                    .append(seconds(n.inProcessNanos)).append(" on ").append(n.worker);
                if (n.openCalls > 1)
                {
                    sb.append(" (the longest of its ").append(n.openCalls).append(" calls in process)");
                }
            }
            sb.append('\n');
        }
        sb.append("streams:\n");
        for (final StreamState s : streams)
        {
            sb.append("  ").append(s.name).append(": ").append(s.emitted).append(" emitted");
            if (s.producer != null)
            {
                sb.append(" by ").append(s.producer);
            }
            sb.append(", last emitted ").append(Timestamp.toString(s.lastEmitted)).append(", last consumed ")
                .append(Timestamp.toString(s.lastConsumed));
            for (final Consumer c : s.consumers)
            {
                sb.append("\n    to ").append(c.node).append(": ").append(c.consumed).append(" consumed, ")
                    .append(c.dropped).append(" dropped, ").append(c.inFlight).append(" in flight");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    @Override
    public String toString()
    {
        return verdict;
    }
}
