package dev.framewire.journal;

import dev.framewire.core.Timestamp;

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
 * <p>The counting is {@code PostmortemTally}'s, the verdict's wording {@code PostmortemVerdict}'s.
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
    private final String verdict;

    private Postmortem(final JournalReader journal, final PostmortemTally tally)
    {
        this.journal = journal;
        this.streams = Collections.unmodifiableList(tally.streams()); // before nodes(): counts the packets queued at each
        this.nodes = Collections.unmodifiableList(tally.nodes());
        this.lastError = tally.lastError();
        this.verdict = new PostmortemVerdict(journal, streams, nodes, lastError, tally.start(), tally.end()).write();
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
        return new Postmortem(journal, new PostmortemTally(journal).count());
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
