package dev.framewire.tools;

import dev.framewire.core.journal.JournalException;
import dev.framewire.core.journal.JournalReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * {@code framewire journal}: reads the journals that {@code run}, {@code demo} and
 * {@code journal replay} write (see docs/JOURNAL.md). {@code dump} prints the records,
 * {@code postmortem} explains how a run ended, {@code replay} runs a recorded run again and
 * {@code diff} compares two runs' outputs.
 *
 * <p>Every subcommand takes a run directory ({@code journal/run-...}) or a journal root (then its
 * newest run). A damaged journal (cut short, corrupt) is reported in one sentence on standard
 * error with exit code 1, after whatever could be read was printed.
 */
@Command(
    name = "journal",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = "Reads run journals: dump the records, explain how a run ended, replay a run, compare two runs.",
    subcommands = {JournalDumpCommand.class, JournalPostmortemCommand.class, JournalReplayCommand.class,
        JournalDiffCommand.class})
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

    /** Prints the damage on standard error: the command's name, then the sentence. */
    static int damaged(final CommandSpec spec, final String damage)
    {
        final PrintWriter err = spec.commandLine().getErr();
        spec.commandLine().getOut().flush();
        err.println(spec.commandLine().getCommandName() + ": " + damage);
        err.flush();
        return 1;
    }

    private static String sentence(final String message)
    {
        final String m = message == null ? "the journal cannot be read" : message.strip();
        return m.endsWith(".") ? m : m + ".";
    }
}
