package dev.framewire.journal;

import dev.framewire.core.Timestamp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A journal as a timeline, in the events of Chrome's trace-event format (what Perfetto and
 * chrome://tracing open, as MediaPipe's graph tracer writes): a slice per call on the track of its
 * worker and on the track of its node, a flow arrow per packet from the call that emitted it (or
 * its graph input) to the call that took it, instant events for drops, errors and notes, and
 * counters of the packets queued per stream and of the payload bytes they hold. The tools write it
 * as JSON ({@code journal trace}) and draw it ({@code journal timeline --png}).
 *
 * <p>Tracks: process 1 "workers" (a thread per worker, and one for the other threads: graph inputs,
 * the graph's owner), process 2 "nodes" (a thread per node), process 3 "queues" (the counters).
 * Times are microseconds from the journal's first record. A call still open when the journal ends
 * (a killed run) ends there, marked {@code unfinished}. Off-heap use is counted as the payload bytes
 * of packets emitted and not yet taken by every consumer (the journal records a payload's length, not
 * the pool's state).
 *
 * <p>Threading: built once from a read journal; immutable.
 */
public final class JournalTrace
{
    /** The workers' process id. */
    public static final int WORKERS = 1;
    /** The nodes' process id. */
    public static final int NODES = 2;
    /** The counters' process id. */
    public static final int QUEUES = 3;

    /**
     * One trace event, as the format has it.
     *
     * @param name the event's name.
     * @param cat  its category.
     * @param ph   its phase: X (a complete slice), i (instant), C (counter), s / f (flow start / finish), M (metadata).
     * @param ts   microseconds from the journal's first record.
     * @param dur  the slice's duration in microseconds (X), else 0.
     * @param pid  the process (track group).
     * @param tid  the thread (track).
     * @param id   a flow's id (s, f), else 0.
     * @param args the event's arguments: names to strings or numbers.
     */
    public record Event(String name, String cat, String ph, double ts, double dur, int pid, int tid, long id,
        Map<String, Object> args)
    {
    }

    /**
     * One call, for drawing.
     *
     * @param node       the node's id.
     * @param worker     the worker's track (the worker id, or the last track for other threads).
     * @param timestamp  its input timestamp.
     * @param beginMicros when it began.
     * @param endMicros   when it ended (the journal's end if it had not).
     * @param unfinished whether it had not ended.
     */
    public record Call(int node, int worker, long timestamp, double beginMicros, double endMicros, boolean unfinished)
    {
    }

    /**
     * A mark on a node's track: a drop, an error or a note.
     *
     * @param node   the node's id, or -1.
     * @param kind   DROP, ERROR or NOTE.
     * @param micros when.
     * @param text   what, in a few words.
     */
    public record Mark(int node, JournalRecord.Kind kind, double micros, String text)
    {
    }

    private final List<Event> events;
    private final List<Call> calls;
    private final List<Mark> marks;
    private final List<String> nodeNames;
    private final List<String> workerTracks;
    private final double endMicros;
    private final long flows;

    private JournalTrace(
        final List<Event> events, final List<Call> calls, final List<Mark> marks, final List<String> nodeNames,
        final List<String> workerTracks, final double endMicros, final long flows)
    {
        this.events = Collections.unmodifiableList(events);
        this.calls = Collections.unmodifiableList(calls);
        this.marks = Collections.unmodifiableList(marks);
        this.nodeNames = nodeNames;
        this.workerTracks = workerTracks;
        this.endMicros = endMicros;
        this.flows = flows;
    }

    /** An emitted packet not yet taken by all its consumers: where it came from, what it holds. */
    private static final class Packet
    {
        final int tid;
        final double micros;
        final long bytes;
        final long id;
        int waiting;

        Packet(final int tid, final double micros, final long bytes, final long id, final int waiting)
        {
            this.tid = tid;
            this.micros = micros;
            this.bytes = bytes;
            this.id = id;
            this.waiting = waiting;
        }
    }

    /**
     * Builds the timeline of a journal (intact, or what could be read of a damaged one).
     *
     * @param journal the journal.
     * @return the trace.
     */
    public static JournalTrace of(final JournalReader journal)
    {
        final List<JournalRecord> records = new ArrayList<>(journal.records());
        // nanos order (stable): an ASYNC journal appends each worker's ring in turn
        records.sort(Comparator.comparingLong(JournalRecord::nanos));
        final long origin = records.isEmpty() ? 0 : records.get(0).nanos();
        final double end = records.isEmpty() ? 0 : (records.get(records.size() - 1).nanos() - origin) / 1000.0;
        final Builder builder = new Builder(journal, origin);
        for (final JournalRecord r : records)
        {
            builder.add(r);
        }
        return builder.finish(end);
    }

    /**
     * The state of a trace being built, one record at a time in nanos order: the events, calls and
     * marks so far, the packets waiting for their consumers, the queued counts and bytes, the flow
     * ids, and per worker track the call it is in.
     */
    private static final class Builder
    {
        private final JournalReader journal;
        private final long origin;
        private final List<String> nodes;
        private final List<String> workers;
        private final int callerTid;
        private final List<Event> events = new ArrayList<>();
        private final List<Call> calls = new ArrayList<>();
        private final List<Mark> marks = new ArrayList<>();
        /** Consumers per stream (from the run start's topology); subgraph nodes' inputs come with their records. */
        private final Map<Integer, List<Integer>> consumers = new HashMap<>();
        private final int[][] inputsOf;
        /** Per stream and timestamp, the packet waiting for its consumers. */
        private final Map<Integer, Map<Long, Packet>> waiting = new HashMap<>();
        private final Map<Integer, Long> queued = new LinkedHashMap<>();
        /** Per worker track, the call it is in: the record that began it. */
        private final JournalRecord[] open;
        private long queuedBytes;
        private long nextFlow = 1;
        private long flows;

        Builder(final JournalReader journal, final long origin)
        {
            this.journal = journal;
            this.origin = origin;
            this.nodes = journal.nodeNames();
            this.workers = new ArrayList<>(journal.workerNames());
            this.callerTid = workers.size();
            workers.add(JournalReader.CALLER);
            this.open = new JournalRecord[workers.size()];
            this.inputsOf = new int[nodes.size()][];
            events.add(meta("process_name", WORKERS, 0, "workers"));
            events.add(meta("process_name", NODES, 0, "nodes"));
            events.add(meta("process_name", QUEUES, 0, "queues"));
            for (int w = 0; w < workers.size(); w++)
            {
                events.add(meta("thread_name", WORKERS, w, workers.get(w)));
            }
            for (int n = 0; n < nodes.size(); n++)
            {
                events.add(meta("thread_name", NODES, n, nodes.get(n)));
            }
            if (journal.hasTopology())
            {
                for (int n = 0; n < nodes.size(); n++)
                {
                    inputsOf[n] = journal.nodeInputs(n);
                    if (inputsOf[n] != null)
                    {
                        for (final int s : inputsOf[n])
                        {
                            consumers.computeIfAbsent(s, k -> new ArrayList<>()).add(n);
                        }
                    }
                }
            }
        }

        void add(final JournalRecord r)
        {
            final double us = (r.nanos() - origin) / 1000.0;
            final int tid = r.worker() >= 0 && r.worker() < callerTid ? r.worker() : callerTid;
            switch (r.kind())
            {
                case PROCESS_BEGIN:
                    callBegin(r, tid, us);
                    break;
                case PROCESS_END:
                    callEnd(tid, us);
                    break;
                case EMIT:
                case GRAPH_INPUT:
                    packetOut(r, tid, us);
                    break;
                case DROP:
                case ERROR:
                case NOTE:
                    mark(r, tid, us);
                    break;
                case RUN_END:
                    events.add(instant("run end: " + r.text(), "run", us, WORKERS, callerTid, Map.of()));
                    break;
                default:
                    break;
            }
        }

        /** A call begins: it takes, from each of its inputs, the packet of its timestamp waiting there. */
        private void callBegin(final JournalRecord r, final int tid, final double us)
        {
            if (open[tid] != null)
            {
                // a BEGIN without its END (lost to a full ring): close the earlier call here
                endCall(open[tid], tid, us, true);
            }
            open[tid] = r;
            final int node = r.node();
            if (node < 0 || node >= inputsOf.length || inputsOf[node] == null)
            {
                return;
            }
            for (final int s : inputsOf[node])
            {
                final Map<Long, Packet> byTs = waiting.get(s);
                final Packet p = byTs == null ? null : byTs.get(r.timestamp());
                if (p == null)
                {
                    continue;
                }
                // the arrow's end, bound to the call that took the packet (bp e: the enclosing slice)
                events.add(new Event(streamName(journal, s), "packet", "f", us, 0, WORKERS, tid,
                    p.id + consumerIndex(consumers, s, node), Map.of()));
                flows++;
                taken(byTs, p, s, r.timestamp(), us);
            }
            events.add(counter("queued payload bytes", us, "bytes", Math.max(0, queuedBytes)));
        }

        private void callEnd(final int tid, final double us)
        {
            if (open[tid] != null)
            {
                endCall(open[tid], tid, us, false);
                open[tid] = null;
            }
        }

        /** A packet emitted or added as a graph input: it waits for each consumer of its stream. */
        private void packetOut(final JournalRecord r, final int tid, final double us)
        {
            final int s = r.stream();
            final List<Integer> cs = consumers.get(s);
            if (cs == null || cs.isEmpty())
            {
                return;
            }
            final long bytes = r.valueKind() == JournalRecord.VALUE_PAYLOAD ||
                r.valueKind() == JournalRecord.VALUE_CHECKSUM ? Math.max(0, r.value()) : 0;
            final long id = nextFlow;
            nextFlow += cs.size();
            waiting.computeIfAbsent(s, k -> new HashMap<>()).put(r.timestamp(),
                new Packet(tid, us, bytes, id, cs.size()));
            queuedBytes += bytes; // held until its last consumer takes it
            // the arrow's start, one per consumer, on the emitting call's track (or the adding thread's)
            for (int c = 0; c < cs.size(); c++)
            {
                final Map<String, Object> args = new LinkedHashMap<>();
                args.put("timestamp", Timestamp.toString(r.timestamp()));
                args.put("to", nodes.get(cs.get(c)));
                events.add(new Event(streamName(journal, s), "packet", "s", us, 0, WORKERS, tid, id + c, args));
            }
            queued.merge(s, (long)cs.size(), Long::sum);
            events.add(counter("queued packets", us, streamName(journal, s), queued.get(s)));
            events.add(counter("queued payload bytes", us, "bytes", queuedBytes));
            if (r.kind() == JournalRecord.Kind.GRAPH_INPUT)
            {
                // an instant to hold the arrow's start: a graph input is no call
                events.add(instant("graph input " + streamName(journal, s), "input", us, WORKERS, tid,
                    Map.of("timestamp", Timestamp.toString(r.timestamp()))));
            }
        }

        /** A drop, an error or a note: an instant on its node's track and its thread's, and a mark; a drop takes its packet. */
        private void mark(final JournalRecord r, final int tid, final double us)
        {
            final String what = r.kind() == JournalRecord.Kind.DROP ? "drop (" + JournalRecord.reasonName(r.reason()) +
                ")" + (r.streamName() != null ? " " + r.streamName() : "") :
                r.kind() == JournalRecord.Kind.ERROR ? "error" : "note";
            final Map<String, Object> args = new LinkedHashMap<>();
            args.put("timestamp", Timestamp.toString(r.timestamp()));
            if (r.text() != null)
            {
                args.put("text", r.text());
            }
            final int node = r.node();
            final String cat = r.kind().name().toLowerCase(Locale.ROOT);
            if (node >= 0 && node < nodes.size())
            {
                events.add(instant(what, cat, us, NODES, node, args));
            }
            events.add(instant(what + (node >= 0 && node < nodes.size() ? " at " + nodes.get(node) : ""),
                cat, us, WORKERS, tid, args));
            marks.add(new Mark(node, r.kind(), us, what + (r.text() != null ? ": " + firstLine(r.text()) : "")));
            if (r.kind() == JournalRecord.Kind.DROP && r.stream() >= 0)
            {
                final Map<Long, Packet> byTs = waiting.get(r.stream());
                final Packet p = byTs == null ? null : byTs.get(r.timestamp());
                if (p != null)
                {
                    taken(byTs, p, r.stream(), r.timestamp(), us);
                }
            }
        }

        /** One consumer of a waiting packet took (or dropped) it: the packet stops waiting after its last. */
        private void taken(
            final Map<Long, Packet> byTs, final Packet p, final int stream, final long timestamp, final double us)
        {
            if (--p.waiting <= 0)
            {
                byTs.remove(timestamp);
                queuedBytes -= p.bytes;
            }
            queued.merge(stream, -1L, Long::sum);
            events.add(counter("queued packets", us, streamName(journal, stream), Math.max(0, queued.get(stream))));
        }

        private void endCall(final JournalRecord begin, final int tid, final double endUs, final boolean unfinished)
        {
            final double beginUs = (begin.nanos() - origin) / 1000.0;
            final double dur = Math.max(0, endUs - beginUs);
            final int node = begin.node();
            final String name = node >= 0 && node < nodes.size() ? nodes.get(node) : "node " + node;
            final Map<String, Object> args = new LinkedHashMap<>();
            args.put("timestamp", Timestamp.toString(begin.timestamp()));
            args.put("worker", workers.get(tid));
            if (unfinished)
            {
                args.put("unfinished", true);
            }
            events.add(new Event(name, "call", "X", beginUs, dur, WORKERS, tid, 0, args));
            if (node >= 0 && node < nodes.size())
            {
                events.add(new Event(name, "call", "X", beginUs, dur, NODES, node, 0, args));
            }
            calls.add(new Call(node, tid, begin.timestamp(), beginUs, beginUs + dur, unfinished));
        }

        /** The journal ends: a call still open (a killed run) ends there, unfinished. */
        JournalTrace finish(final double end)
        {
            for (int w = 0; w < open.length; w++)
            {
                if (open[w] != null)
                {
                    endCall(open[w], w, end, true);
                }
            }
            return new JournalTrace(events, calls, marks, nodes, List.copyOf(workers), end, flows);
        }
    }

    private static int consumerIndex(final Map<Integer, List<Integer>> consumers, final int stream, final int node)
    {
        final List<Integer> cs = consumers.get(stream);
        final int i = cs == null ? 0 : cs.indexOf(node);
        return Math.max(0, i);
    }

    private static Event meta(final String what, final int pid, final int tid, final String name)
    {
        return new Event(what, "__metadata", "M", 0, 0, pid, tid, 0, Map.of("name", name));
    }

    private static Event counter(final String name, final double us, final String series, final long value)
    {
        return new Event(name, "queue", "C", us, 0, QUEUES, 0, 0, Map.of(series, value));
    }

    private static Event instant(
        final String name, final String cat, final double us, final int pid, final int tid, final Map<String, Object> args)
    {
        return new Event(name, cat, "i", us, 0, pid, tid, 0, args);
    }

    private static String streamName(final JournalReader journal, final int stream)
    {
        return stream >= 0 && stream < journal.streamNames().size() ? journal.streamNames().get(stream) :
            "stream " + stream;
    }

    private static String firstLine(final String text)
    {
        final int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl);
    }

    /**
     * The trace's events, in time order per track (metadata first).
     *
     * @return the events.
     */
    public List<Event> events()
    {
        return events;
    }

    /**
     * Every call, in the order they ended.
     *
     * @return the calls.
     */
    public List<Call> calls()
    {
        return calls;
    }

    /**
     * The drops, errors and notes.
     *
     * @return the marks.
     */
    public List<Mark> marks()
    {
        return marks;
    }

    /**
     * The node tracks' names, by node id.
     *
     * @return names.
     */
    public List<String> nodeNames()
    {
        return nodeNames;
    }

    /**
     * The worker tracks' names: the workers, then {@link JournalReader#CALLER} for the other threads.
     *
     * @return names.
     */
    public List<String> workerTracks()
    {
        return workerTracks;
    }

    /**
     * The journal's span.
     *
     * @return microseconds from its first record to its last.
     */
    public double endMicros()
    {
        return endMicros;
    }

    /**
     * Packets followed from their emit to the call that took them.
     *
     * @return the count of flow arrows.
     */
    public long flows()
    {
        return flows;
    }
}
