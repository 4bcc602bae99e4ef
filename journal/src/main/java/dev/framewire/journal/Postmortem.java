package dev.framewire.journal;

import dev.framewire.core.Timestamp;

import java.util.ArrayList;
import java.util.Collections;
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
        final PostmortemTally tally = new PostmortemTally(journal).count();
        final List<StreamState> streams = tally.streams(); // before nodes(): counts the packets queued at each
        return new Postmortem(journal, streams, tally.nodes(), tally.lastError(), tally.start(), tally.end());
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
        levelNote(sb);
        final List<NodeState> busy = inProcess(sb);
        inFlight(sb, busy);
        subgraphs(sb);
        lastError(sb);
        return sb.toString();
    }

    /** The lighter level the journal was written at, if it says one. */
    private void levelNote(final StringBuilder sb)
    {
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
    }

    /** The nodes in process when the journal ends, the longest first. */
    private List<NodeState> inProcess(final StringBuilder sb)
    {
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
        return busy;
    }

    /** The packets in flight, unless the busiest node's queue says it all. */
    private void inFlight(final StringBuilder sb, final List<NodeState> busy)
    {
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
    }

    /** The last error, and the records lost. */
    private void lastError(final StringBuilder sb)
    {
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
