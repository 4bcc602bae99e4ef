package dev.framewire.journal;

import dev.framewire.core.Timestamp;
import dev.framewire.journal.Postmortem.Consumer;
import dev.framewire.journal.Postmortem.NodeState;
import dev.framewire.journal.Postmortem.StreamState;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.framewire.journal.Postmortem.seconds;

/**
 * Writes a {@link Postmortem}'s verdict, the paragraph that says how the run ended: the ending and
 * the run's length, the journal's level, the nodes in a call and the packets queued at them, the
 * packets in flight, the subgraphs added at run time, the last error and the records lost. It
 * reads what {@link PostmortemTally} counted; it counts nothing itself.
 *
 * <p>Threading: one thread, once, while the post-mortem is built.
 */
final class PostmortemVerdict
{
    private final JournalReader journal;
    private final List<StreamState> streams;
    private final List<NodeState> nodes;
    private final JournalRecord lastError;
    private final long startNanos;
    private final long endNanos;

    PostmortemVerdict(
        final JournalReader journal,
        final List<StreamState> streams,
        final List<NodeState> nodes,
        final JournalRecord lastError,
        final long startNanos,
        final long endNanos)
    {
        this.journal = journal;
        this.streams = streams;
        this.nodes = nodes;
        this.lastError = lastError;
        this.startNanos = startNanos;
        this.endNanos = endNanos;
    }

    /**
     * The verdict.
     *
     * @return one paragraph.
     */
    String write()
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
            if (n.inProcess())
            {
                busy.add(n);
            }
        }
        busy.sort((a, b) -> Long.compare(b.inProcessNanos(), a.inProcessNanos()));
        if (!busy.isEmpty())
        {
            final NodeState n = busy.get(0);
            sb.append(" Node `").append(n.name()).append("` had been in process for timestamp ")
                .append(Timestamp.toString(n.timestamp())).append(" for ").append(seconds(n.inProcessNanos()))
                .append(" when the journal ends (on ").append(n.worker());
            if (n.openCalls() > 1)
            {
                sb.append(", the longest of its ").append(n.openCalls()).append(" calls in process");
            }
            sb.append(')');
            if (journal.hasTopology())
            {
                sb.append("; ").append(n.queued()).append(n.queued() == 1 ? " packet was" : " packets were")
                    .append(" queued on its inputs").append(queuedDetail(n.name()));
            }
            sb.append('.');
            if (busy.size() > 1)
            {
                sb.append(" Also in process:");
                for (int i = 1; i < busy.size(); i++)
                {
                    final NodeState o = busy.get(i);
                    sb.append(i == 1 ? " " : ", ").append('`').append(o.name()).append("` (timestamp ")
                        .append(Timestamp.toString(o.timestamp())).append(", ").append(seconds(o.inProcessNanos()));
                    if (o.openCalls() > 1)
                    {
                        sb.append(", ").append(o.openCalls()).append(" calls");
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
                for (final Consumer c : s.consumers())
                {
                    total += c.inFlight();
                }
                if (s.inFlight() > 0 && (worst == null || s.inFlight() > worst.inFlight()))
                {
                    worst = s;
                }
            }
            if (busy.isEmpty() || total > busy.get(0).queued())
            {
                if (total == 0)
                {
                    sb.append(" No packet was in flight.");
                }
                else
                {
                    sb.append(' ').append(total).append(total == 1 ? " packet was" : " packets were")
                        .append(" in flight, the most on stream `").append(worst.name()).append("` (")
                        .append(worst.inFlight()).append(", last emitted ").append(Timestamp.toString(worst.lastEmitted()))
                        .append(", last consumed ").append(Timestamp.toString(worst.lastConsumed())).append(").");
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
        final Map<String, Boolean> present = new LinkedHashMap<>(); // name -> being removed
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
        for (final Map.Entry<String, Boolean> e : present.entrySet())
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
            for (final Consumer c : s.consumers())
            {
                if (c.node().equals(node) && c.inFlight() > 0)
                {
                    sb.append(sb.length() == 0 ? " (" : ", ").append('`').append(s.name()).append("`: ").append(c.inFlight());
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
}
