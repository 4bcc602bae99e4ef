package dev.framewire.tools;

import dev.framewire.journal.JournalDiff;
import dev.framewire.journal.JournalReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code framewire journal diff A B}: whether two runs emitted the same packets
 * ({@link JournalDiff}): per stream, matched by name, the sequence of timestamps and values
 * (payloads by checksum where both runs checksummed the stream). Exit code 0 when identical, 1
 * when not (the first difference is printed) or when a journal cannot be read whole.
 */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = {"Compares two journaled runs' outputs: every stream's packets (timestamp and value; payloads by " +
        "checksum when both runs checksummed them). Prints 'identical' (exit code 0) or where they first differ " +
        "(exit code 1).",
        "Typically a recording and its replay: framewire journal replay A; framewire journal diff A journal"})
public final class JournalDiffCommand implements Callable<Integer>
{
    /** Differences listed after the first. */
    private static final int MORE = 5;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "A", description = "The expected run: a run journal directory or a root (its newest run).")
    private Path expected;

    @Parameters(index = "1", paramLabel = "B", description = "The actual run: a run journal directory or a root (its newest run).")
    private Path actual;

    @Override
    public Integer call()
    {
        final JournalReader a = JournalCommand.readUpToDamage(expected);
        final JournalReader b = JournalCommand.readUpToDamage(actual);
        final JournalDiff diff = JournalDiff.compare(a, b);
        final PrintWriter out = spec.commandLine().getOut();
        out.println("A: " + a.directory());
        out.println("B: " + b.directory());
        final boolean cut = a.cutAt() != null || b.cutAt() != null;
        for (final JournalReader j : new JournalReader[]{a, b})
        {
            if (j.cutAt() != null)
            {
                spec.commandLine().getErr().println("diff: journal " + j.directory() + " is damaged; compared up to " +
                    "its first damage, where it stopped: " + j.cutAt());
                spec.commandLine().getErr().flush();
            }
        }
        if (diff.identical())
        {
            out.println((cut ? "identical up to the damage: " : "identical: ") + diff.streams().size() + " stream" +
                (diff.streams().size() == 1 ? "" : "s") + " compared " + diff.streams());
            notes(out, diff);
            return cut ? 1 : 0;
        }
        out.println("differ: first at " + diff.firstDifference());
        final int others = diff.differences().size() - 1;
        if (others > 0)
        {
            out.println("other streams that differ (first difference of each):");
            int listed = 0;
            for (final JournalDiff.Difference d : diff.differences())
            {
                if (d != diff.firstDifference() && listed++ < MORE)
                {
                    out.println("  " + d);
                }
            }
            if (others > MORE)
            {
                out.println("  ... and " + (others - MORE) + " more");
            }
        }
        notes(out, diff);
        return 1;
    }

    private static void notes(final PrintWriter out, final JournalDiff diff)
    {
        for (final String note : diff.notes())
        {
            out.println("note: " + note);
        }
        out.flush();
    }
}
