package dev.framewire.journal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Follows packets across remote hops (framewire-remote's Aeron publisher and subscriber) through
 * the journals of the processes on either side: which packets a publisher was given and which its
 * subscriber emitted, and those sent but never received, with where the receiving side stopped.
 *
 * <p>How a journal identifies a remote packet, without a record per packet beyond the ordinary
 * ones: a publisher writes one NOTE when it opens, {@code remote publisher: session S, stream id
 * N, channel C} (value: the Aeron session id); a subscriber writes one NOTE when a publisher
 * connects, {@code remote subscriber: session S connected, ...} (value: the same session id), and
 * one when it goes. A packet of the hop is then, on the publisher's side, an EMIT (or a
 * GRAPH_INPUT) on the publisher's input stream (the packets it was given, in order: the n-th is the message with
 * sequence n in the remote header, as the publisher counts sent and dropped alike), and on the
 * subscriber's side an EMIT of the subscriber node at the same timestamp (timestamps cross the
 * link exactly, and strictly increase on a stream). A hop is a publisher's session paired with the
 * subscribers that saw it connect.
 *
 * <p>A message the subscriber rejects has a NOTE of its own, {@code remote subscriber: session S
 * rejected: WHY} at the message's timestamp: a hop counts it as rejected, and not as received though
 * another session's packet had the same timestamp (a restarted publisher starts again from its
 * first timestamps); only the subscriber's EMITs after the session connected count as received.
 *
 * <p>Not in the journal: whether the publisher sent a packet or dropped it under {@code DROP}; a
 * packet sent but never received was dropped by the publisher, lost with a receiver restart, or
 * came after the receiving side stopped, and the report says which of those its position allows.
 */
public final class RemoteHops
{
    /** How many never-received packets a hop lists (the count is always whole). */
    public static final int LISTED = 10;
    private static final String PUBLISHER_NOTE = "remote publisher: ";
    private static final String SUBSCRIBER_NOTE = "remote subscriber: ";
    private static final String REJECTED = " rejected: ";
    private static final Pattern CONNECTED = Pattern.compile("session (-?\\d+) connected, stream id (-?\\d+)");
    private static final Pattern STREAM_ID = Pattern.compile("stream id (-?\\d+)");

    /**
     * A packet sent over a hop and never received.
     *
     * @param timestamp its timestamp.
     * @param sequence  its sequence number (the publisher's count of packets before it).
     * @param where     {@code "before the first received"}, {@code "between received packets"},
     *                  {@code "after the last received"} or {@code "rejected by the subscriber"}.
     */
    public record Missing(long timestamp, long sequence, String where)
    {
    }

    /**
     * One publisher session and what its subscribers received.
     *
     * @param publisherRun       the publisher's run journal.
     * @param publisherNode      the publisher node.
     * @param stream             the stream it publishes (its input stream).
     * @param session            the Aeron session id.
     * @param streamId           the Aeron stream id.
     * @param subscriberRun      the subscriber's run journal, or null if none of the journals has one that saw
     *                           this session connect.
     * @param subscriberNode     the subscriber node, or null.
     * @param sent               packets the publisher was given.
     * @param received           packets of those the subscriber emitted (from this session: a packet at the
     *                           timestamp of another session's, or one this session's subscriber rejected,
     *                           does not count).
     * @param rejected           messages of this session the subscriber rejected (a timestamp below its
     *                           stream's bound: a restarted or second publisher; a malformed message).
     * @param missing            how many were sent and never received (rejected ones included).
     * @param firstMissing       the first {@link #LISTED} of them.
     * @param lastSent           the last timestamp sent, or Long.MIN_VALUE.
     * @param lastReceived       the last timestamp received, or Long.MIN_VALUE.
     * @param subscriberEnd      how the subscriber's run ended ({@code done}, {@code cancelled}, {@code failed}),
     *                           or null when its journal has no end (its process died, or is still running).
     * @param subscriberLastNote the subscriber's last note about this session (connected, or gone and why).
     */
    public record Hop(
        String publisherRun, String publisherNode, String stream, int session, int streamId,
        String subscriberRun, String subscriberNode, long sent, long received, long rejected, long missing,
        List<Missing> firstMissing, long lastSent, long lastReceived, String subscriberEnd, String subscriberLastNote)
    {
    }

    private RemoteHops()
    {
    }

    /**
     * Pairs every publisher found in the journals with the subscribers that saw its session.
     *
     * @param journals run journals of the processes on either side of the hops (any order).
     * @return one hop per publisher session, in the journals' order.
     */
    public static List<Hop> of(final List<JournalReader> journals)
    {
        final List<Hop> hops = new ArrayList<>();
        for (final JournalReader publisherJournal : journals)
        {
            for (final JournalRecord note : publisherJournal.records())
            {
                if (note.kind() != JournalRecord.Kind.NOTE || note.text() == null ||
                    !note.text().startsWith(PUBLISHER_NOTE))
                {
                    continue;
                }
                hops.add(hop(journals, publisherJournal, note));
            }
        }
        return hops;
    }

    private static Hop hop(final List<JournalReader> journals, final JournalReader pj, final JournalRecord note)
    {
        final int session = (int)note.value();
        final Matcher id = STREAM_ID.matcher(note.text());
        final int streamId = id.find() ? Integer.parseInt(id.group(1)) : 0;
        final int[] inputs = pj.hasTopology() ? pj.nodeInputs(note.node()) : null;
        final int input = inputs != null && inputs.length == 1 ? inputs[0] : -1;
        final String stream = input >= 0 ? pj.streamNames().get(input) : "?";
        final List<Long> sent = sent(pj, input);
        // the subscriber: a journal with a NOTE of this session connecting
        JournalReader sj = null;
        int subscriber = -1;
        String lastNote = null;
        long connectedNanos = Long.MIN_VALUE;
        long rejected = 0;
        final Set<Long> rejectedAt = new HashSet<>();
        for (final JournalReader j : journals)
        {
            for (final JournalRecord r : j.records())
            {
                if (r.kind() == JournalRecord.Kind.NOTE && r.text() != null && r.text().startsWith(SUBSCRIBER_NOTE) &&
                    (int)r.value() == session)
                {
                    final Matcher connected = CONNECTED.matcher(r.text());
                    if (sj == null && connected.find())
                    {
                        sj = j;
                        subscriber = r.node();
                        connectedNanos = r.nanos();
                    }
                    if (j == sj && r.node() == subscriber)
                    {
                        if (r.text().startsWith(REJECTED, SUBSCRIBER_NOTE.length() + ("session " + session).length()))
                        {
                            rejected++;
                            rejectedAt.add(r.timestamp());
                        }
                        else
                        {
                            lastNote = r.text().substring(SUBSCRIBER_NOTE.length());
                        }
                    }
                }
            }
            if (sj != null)
            {
                break;
            }
        }
        final long lastSent = sent.isEmpty() ? Long.MIN_VALUE : sent.get(sent.size() - 1);
        if (sj == null)
        {
            final List<Missing> listed = new ArrayList<>();
            for (int i = 0; i < sent.size() && listed.size() < LISTED; i++)
            {
                listed.add(new Missing(sent.get(i), i, "no subscriber journal"));
            }
            return new Hop(pj.directory().toString(), pj.nodeNames().get(note.node()), stream, session, streamId, null,
                null, sent.size(), 0, 0, sent.size(), listed, lastSent, Long.MIN_VALUE, null, null);
        }
        final Set<Long> received = received(sj, subscriber, connectedNanos, sent, rejectedAt);
        long firstReceived = Long.MAX_VALUE;
        long lastReceived = Long.MIN_VALUE;
        long count = 0;
        for (final long t : sent)
        {
            if (received.contains(t) && !rejectedAt.contains(t))
            {
                count++;
                firstReceived = Math.min(firstReceived, t);
                lastReceived = Math.max(lastReceived, t);
            }
        }
        final List<Missing> listed = new ArrayList<>();
        for (int i = 0; i < sent.size() && listed.size() < LISTED; i++)
        {
            final long t = sent.get(i);
            if (rejectedAt.contains(t))
            {
                listed.add(new Missing(t, i, "rejected by the subscriber"));
            }
            else if (!received.contains(t))
            {
                listed.add(new Missing(t, i, count == 0 || t > lastReceived ? "after the last received" :
                    t < firstReceived ? "before the first received" : "between received packets"));
            }
        }
        final JournalRecord end = sj.runEnd();
        return new Hop(pj.directory().toString(), pj.nodeNames().get(note.node()), stream, session, streamId,
            sj.directory().toString(), sj.nodeNames().get(subscriber), sent.size(), count, rejected, sent.size() - count,
            listed,
            lastSent, lastReceived, end == null ? null : end.text(), lastNote);
    }

    private static List<Long> sent(final JournalReader pj, final int input)
    {
        final List<Long> sent = new ArrayList<>();
        if (input >= 0)
        {
            for (final JournalRecord r : pj.records())
            {
                if ((r.kind() == JournalRecord.Kind.EMIT || r.kind() == JournalRecord.Kind.GRAPH_INPUT) &&
                    r.stream() == input)
                {
                    sent.add(r.timestamp());
                }
            }
        }
        return sent;
    }

    private static Set<Long> received(final JournalReader sj, final int subscriber, final long connectedNanos,
        final List<Long> sent, final Set<Long> rejectedAt)
    {
        // the subscriber's data stream: of the streams it emits, the one that shares the most timestamps
        final Map<Integer, Set<Long>> emitted = new LinkedHashMap<>();
        for (final JournalRecord r : sj.records())
        {
            // what the subscriber emitted once this session was connected: another session's earlier packets
            // may share these timestamps (a restarted publisher starts again from its first)
            if (r.kind() == JournalRecord.Kind.EMIT && r.node() == subscriber && r.nanos() >= connectedNanos)
            {
                emitted.computeIfAbsent(r.stream(), s -> new HashSet<>()).add(r.timestamp());
            }
        }
        Set<Long> received = Set.of();
        long best = -1;
        for (final Set<Long> timestamps : emitted.values())
        {
            long common = 0;
            for (final long t : sent)
            {
                if (timestamps.contains(t) && !rejectedAt.contains(t))
                {
                    common++;
                }
            }
            if (common > best)
            {
                best = common;
                received = timestamps;
            }
        }
        return received;
    }
}
