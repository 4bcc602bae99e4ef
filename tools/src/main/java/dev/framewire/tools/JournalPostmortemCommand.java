package dev.framewire.tools;

import dev.framewire.core.Timestamp;
import dev.framewire.journal.JournalDamage;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalRecord;
import dev.framewire.journal.Postmortem;
import dev.framewire.journal.RemoteHops;
import dev.framewire.journal.RunEnding;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code framewire journal postmortem DIR}: how a run ended, from its journal ({@link Postmortem}):
 * per stream the packets emitted, the last timestamps emitted and consumed and, per consumer, the
 * packets consumed, dropped and still in flight; per node its calls and drops and whether it was
 * in a call when the journal ends (for which timestamp, since when, on which worker); the last
 * error; and the verdict. On a damaged journal, the post-mortem of what could be read (before and
 * after the damage), the damage with its positions, and a verdict that says the journal is
 * damaged, which is not the same as a killed run.
 *
 * <p>{@code framewire journal postmortem DIR DIR...}: the journals of processes joined by remote
 * streams; each one's end in a line, then every remote hop followed across ({@link RemoteHops}).
 */
@Command(
    name = "postmortem",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = {"Explains how a journaled run ended: per stream what was emitted, consumed and still in flight; " +
        "per node whether it was in a call when the journal ends, for which timestamp and since when; the last " +
        "error; and a verdict.",
        "Works on the journal of a run that was killed (that is what it is for), and on the readable part of a " +
            "damaged one (exit code 1)."})
public final class JournalPostmortemCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "DIR", description = {"A run journal directory, or a journal root (its " +
        "newest run).", "Several: the journals of processes joined by remote streams (framewire-remote): each one's " +
        "end in a line, then every hop's packets followed across the link, publisher to subscriber by Aeron session " +
        "and timestamp, and the packets sent but never received, with where the receiving side stopped."})
    private List<Path> directories;

    @Override
    public Integer call()
    {
        if (directories.size() > 1)
        {
            return hops();
        }
        final JournalCommand.Read read = JournalCommand.read(directories.get(0));
        final JournalReader journal = read.journal();
        if (journal != null && !journal.records().isEmpty())
        {
            print(spec.commandLine().getOut(), journal, read.damage() != null);
        }
        return read.damage() == null ? 0 : JournalCommand.damaged(spec, read);
    }

    /** Several journals: the remote hops between them ({@link RemoteHops}). */
    private int hops()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final List<JournalReader> journals = new ArrayList<>();
        int exit = 0;
        for (final Path directory : directories)
        {
            final JournalCommand.Read read = JournalCommand.read(directory);
            if (read.damage() != null)
            {
                exit = JournalCommand.damaged(spec, read);
            }
            final JournalReader journal = read.journal();
            if (journal == null)
            {
                continue;
            }
            journals.add(journal);
            final JournalRecord runEnd = journal.runEnd();
            out.printf(Locale.ROOT, "journal %s: %d records, %s%n", journal.directory(), journal.records().size(),
                runEnd != null ? "the run " + RunEnding.phrase(runEnd.text()) : "no end of run (the process died, or " +
                "still runs)");
        }
        out.println();
        final List<RemoteHops.Hop> hops = RemoteHops.of(journals);
        if (hops.isEmpty())
        {
            out.println("remote hops: none (no journal has a remote publisher's note: framewire-remote's " +
                "AeronPublisherCalculator writes one when it opens)");
            out.flush();
            return exit;
        }
        out.println("remote hops (publisher -> subscriber, packets matched by Aeron session and timestamp):");
        for (final RemoteHops.Hop hop : hops)
        {
            out.printf(Locale.ROOT, "  %s stream '%s' -> Aeron session %d, stream id %d -> %s%n", hop.publisherNode(),
                hop.stream(), hop.session(), hop.streamId(), hop.subscriberNode() == null ?
                "no subscriber among these journals saw this session" : hop.subscriberNode() + " (" +
                hop.subscriberRun() + ")");
            out.printf(Locale.ROOT, "    sent %d (last %s), received %d (last %s), rejected %d, sent but never " +
                "received %d%n", hop.sent(), ts(hop.lastSent()), hop.received(), ts(hop.lastReceived()), hop.rejected(),
                hop.missing());
            for (final RemoteHops.Missing m : hop.firstMissing())
            {
                out.printf(Locale.ROOT, "      never received: timestamp %s, sequence %d, %s%n", ts(m.timestamp()),
                    m.sequence(), m.where());
            }
            if (hop.missing() > hop.firstMissing().size())
            {
                out.printf(Locale.ROOT, "      ... and %d more%n", hop.missing() - hop.firstMissing().size());
            }
            if (hop.subscriberNode() != null)
            {
                out.printf(Locale.ROOT, "    the receiving side stopped after %s: its run %s; its last word on the " +
                    "session: %s%n", ts(hop.lastReceived()), hop.subscriberEnd() != null ?
                    RunEnding.phrase(hop.subscriberEnd()) : "has no end in its journal (the process died, or still runs)",
                    hop.subscriberLastNote());
                if (hop.missing() > 0)
                {
                    out.println("    (a packet never received was rejected by the subscriber (its timestamp below the " +
                        "stream's bound: a restarted or second publisher), dropped by the publisher under DROP, lost " +
                        "with a receiver restart, or sent after the receiving side stopped)");
                }
            }
        }
        out.flush();
        return exit;
    }

    static void print(final PrintWriter out, final JournalReader journal, final boolean partial)
    {
        final Postmortem pm = Postmortem.of(journal);
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (final JournalRecord r : journal.records())
        {
            start = Math.min(start, r.nanos());
            end = Math.max(end, r.nanos());
        }
        final JournalRecord runEnd = journal.runEnd();
        final List<JournalDamage> damage = journal.damage();
        out.printf(Locale.ROOT, "journal %s%s: %d records over %s, %s%n", journal.directory(),
            partial ? " (DAMAGED in " + damage.size() + (damage.size() == 1 ? " place" : " places") +
                ": what could be read, before and after the damage)" : "", journal.records().size(),
            seconds(end - start), runEnd != null ? "the run " + RunEnding.phrase(runEnd.text()) : "no end of run");
        out.printf(Locale.ROOT, "ending: %s%n", runEnd == null && partial ? RunEnding.KILLED.word() + " (no end of " +
            "run was read: the process died or was killed, or its end was in the damaged part)" : pm.ending().word() +
            (runEnd == null ? " (no end of run: the process died or was killed, or still runs)" : ""));

        out.println();
        out.println("streams (timestamps; in flight = emitted - consumed - dropped, per consumer):");
        final List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{"stream", "producer", "emitted", "last emitted", "last consumed", "consumer", "consumed",
            "dropped", "in flight"});
        for (final Postmortem.StreamState s : pm.streams())
        {
            final String producer = s.producer() != null ? s.producer() : "(graph input)";
            if (s.consumers().isEmpty())
            {
                rows.add(new String[]{s.name(), producer, Long.toString(s.emitted()), ts(s.lastEmitted()),
                    ts(s.lastConsumed()), "-", "", "", journal.hasTopology() ? "0" : "?"});
            }
            boolean first = true;
            for (final Postmortem.Consumer c : s.consumers())
            {
                rows.add(first ? new String[]{s.name(), producer, Long.toString(s.emitted()), ts(s.lastEmitted()),
                    ts(s.lastConsumed()), c.node(), Long.toString(c.consumed()), Long.toString(c.dropped()),
                    Long.toString(c.inFlight())} : new String[]{"", "", "", "", "", c.node(), Long.toString(c.consumed()),
                    Long.toString(c.dropped()), Long.toString(c.inFlight())});
                first = false;
            }
        }
        table(out, rows, "LLRRRLRRR");

        out.println();
        out.println("nodes (state when the journal ends):");
        rows.clear();
        rows.add(new String[]{"node", "calls", "drops", "queued", "state"});
        for (final Postmortem.NodeState n : pm.nodes())
        {
            final int id = journal.nodeNames().indexOf(n.name());
            final boolean source = journal.hasTopology() && id >= 0 && journal.nodeInputs(id).length == 0;
            final String state = n.inProcess() ? String.format(Locale.ROOT,
                "IN PROCESS %s on %s, since %s into the run (%s before the journal ends)",
                source && n.timestamp() == 0 ? "in a source call" : "for timestamp " + ts(n.timestamp()), n.worker(), seconds(Math.max(0, end - n.inProcessNanos() - start)),
                seconds(n.inProcessNanos())) + (n.openCalls() > 1 ? ", the longest of " + n.openCalls() + " calls" : "") :
                "idle";
            rows.add(new String[]{n.name(), Long.toString(n.calls()), Long.toString(n.drops()),
                journal.hasTopology() ? Long.toString(n.queued()) : "?", state});
        }
        table(out, rows, "LRRRL");

        out.println();
        final JournalRecord error = pm.lastError();
        if (error != null)
        {
            out.printf(Locale.ROOT, "last error: %s%s%s%n", error.nodeName() != null ? "node " + error.nodeName() + ", " :
                "", Timestamp.isValidPacketTimestamp(error.timestamp()) ? "timestamp " + error.timestamp() + ", " : "",
                error.text());
        }
        else
        {
            out.println("last error: none");
        }
        for (final String note : journal.notes())
        {
            out.println("note: " + note);
        }
        if (!damage.isEmpty())
        {
            out.println();
            out.println("damage (to the journal's files, not how the run ended):");
            for (final JournalDamage d : damage)
            {
                out.println("  " + d);
            }
        }
        out.println();
        out.println("verdict: " + pm.verdict());
        out.flush();
    }

    /** Columns padded to their widest cell, aligned as {@code align} says per column: L left, R right. */
    private static void table(final PrintWriter out, final List<String[]> rows, final String align)
    {
        final int columns = rows.get(0).length;
        final int[] width = new int[columns];
        for (final String[] row : rows)
        {
            for (int c = 0; c < columns; c++)
            {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        for (final String[] row : rows)
        {
            final StringBuilder sb = new StringBuilder("  ");
            for (int c = 0; c < columns; c++)
            {
                final boolean left = align.charAt(c) == 'L';
                final String cell = row[c];
                final String pad = " ".repeat(width[c] - cell.length());
                sb.append(left ? cell + pad : pad + cell).append(c < columns - 1 ? "  " : "");
            }
            out.println(sb.toString().stripTrailing());
        }
    }

    private static String ts(final long timestamp)
    {
        return timestamp == Timestamp.UNSET || timestamp == Long.MIN_VALUE ? "-" : Timestamp.toString(timestamp);
    }

    private static String seconds(final long nanos)
    {
        return nanos < 1_000_000_000L ? String.format(Locale.ROOT, "%.1f ms", nanos / 1e6) :
            String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
    }
}
