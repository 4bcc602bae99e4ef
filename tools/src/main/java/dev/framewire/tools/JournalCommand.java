package dev.framewire.tools;

import dev.framewire.journal.JournalDamage;
import dev.framewire.journal.JournalException;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code framewire journal}: reads the journals that {@code run}, {@code demo} and
 * {@code journal replay} write (see docs/JOURNAL.md). {@code dump} prints the records,
 * {@code postmortem} explains how a run ended, {@code replay} runs a recorded run again and
 * {@code diff} compares two runs' outputs.
 *
 * <p>Every subcommand takes a run directory ({@code journals/run-...}) or a journal root (then its
 * newest run). A damaged journal (a record failing its checksum, a zeroed page, a damaged header,
 * a file cut short) is reported on standard error, each damage with its file, byte offset and
 * Chronicle index, as damage to the files and not as a killed run, with exit code 1, after
 * whatever could be read, before and after the damage, was printed. {@code prune} deletes old
 * runs.
 */
@Command(
    name = "journal",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = "Reads run journals: dump the records, explain how a run ended, replay a run, compare two runs; " +
        "prunes old ones.",
    subcommands = {JournalDumpCommand.class, JournalPostmortemCommand.class, JournalReplayCommand.class,
        JournalDiffCommand.class, JournalPruneCommand.class, JournalTraceCommand.class, JournalTimelineCommand.class})
public final class JournalCommand implements Runnable
{
    @Spec
    private CommandSpec spec;

    @Override
    public void run()
    {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /**
     * A journal as far as it could be read.
     *
     * @param journal the journal, or what could be read of a damaged one; null when nothing could.
     * @param damage  null when the journal was read to its end, else the reader's sentence on what is wrong.
     */
    record Read(JournalReader journal, String damage)
    {
        /**
         * Where the journal is damaged.
         *
         * @return the damage, empty when intact or when nothing could be read.
         */
        List<JournalDamage> places()
        {
            return journal == null ? List.of() : journal.damage();
        }
    }

    /**
     * Reads a journal without throwing: damage comes back as a sentence beside what was readable.
     *
     * @param directory a run directory or a journal root.
     * @return the journal and the damage.
     */
    static Read read(final Path directory)
    {
        try
        {
            return new Read(JournalReader.read(directory), null);
        }
        catch (final JournalException ex)
        {
            return new Read(ex.readable(), sentence(ex.getMessage()));
        }
        catch (final RuntimeException ex)
        {
            // the reader's checks should have caught it; say what happened rather than show a trace
            return new Read(null, "cannot read journal " + directory + ": " + ex);
        }
    }

    /**
     * Reads a journal that must be whole.
     *
     * @param directory a run directory or a journal root.
     * @return the journal.
     * @throws CommandFailure with the reader's sentence when it is damaged or not a journal.
     */
    static JournalReader readWhole(final Path directory)
    {
        final Read read = read(directory);
        if (read.damage() != null)
        {
            throw new CommandFailure(read.damage());
        }
        return read.journal();
    }

    /**
     * Reads a journal for a replay or a diff: a damaged one up to its first damage
     * ({@link JournalReader#upToDamage()}), saying so on standard error with where and why.
     *
     * @param directory a run directory or a journal root.
     * @return the journal, or its records before the damage.
     * @throws CommandFailure with the reader's sentence when nothing could be read (not a journal).
     */
    static JournalReader readUpToDamage(final Path directory)
    {
        final Read read = read(directory);
        if (read.journal() == null)
        {
            throw new CommandFailure(read.damage());
        }
        return read.journal().upToDamage();
    }

    /**
     * Prints why a journal could not be read whole on standard error, each line led by the command's
     * name: one sentence when nothing could be read (not a journal, another version); else that the
     * journal is damaged (damage to its files, not a killed run), each damage with its position,
     * and how many records were read after the first.
     *
     * @return the exit code, 1.
     */
    static int damaged(final CommandSpec spec, final Read read)
    {
        final PrintWriter err = spec.commandLine().getErr();
        spec.commandLine().getOut().flush();
        final String name = spec.commandLine().getCommandName();
        final List<JournalDamage> places = read.places();
        if (places.isEmpty())
        {
            err.println(name + ": " + read.damage());
        }
        else
        {
            final JournalReader journal = read.journal();
            err.println(name + ": journal " + journal.directory() + " is damaged in " + places.size() +
                (places.size() == 1 ? " place" : " places") + "; that is damage to its files (flipped bits, zeroed or " +
                "cut pages), not how the run ended:");
            for (final JournalDamage damage : places)
            {
                err.println(name + ":   " + damage);
            }
            long after = 0;
            for (final JournalRecord r : journal.records())
            {
                after += r.index() >= places.get(0).recordIndex() ? 1 : 0;
            }
            err.println(name + ": " + journal.records().size() + " records were read, " + after +
                " of them after the first damage.");
        }
        err.flush();
        return 1;
    }

    private static String sentence(final String message)
    {
        final String m = message == null ? "the journal cannot be read" : message.strip();
        return m.endsWith(".") ? m : m + ".";
    }
}
