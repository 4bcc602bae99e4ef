package dev.framewire.tools;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;

/**
 * The {@code framewire} command line: the top command, which only lists its subcommands.
 *
 * <pre>
 *   framewire --help
 *   framewire run graphs/camera_ingest.pbtxt --duration 10
 *   framewire validate graphs/camera_ingest.pbtxt
 *   framewire analyze graphs/camera_ingest.pbtxt
 *   framewire dot graphs/camera_ingest.pbtxt -o graph.dot --png graph.png
 *   framewire demo --duration 10 --cameras 2
 *   framewire journal postmortem journals
 * </pre>
 *
 * <p>Exit codes: 0 done, 1 the command failed (a message says why: a missing file, an invalid
 * graph, a failed run), 2 a usage error (the usage is printed).
 */
@Command(
    name = "framewire",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = "Runs and inspects Framewire dataflow graphs.",
    subcommands = {RunCommand.class, ValidateCommand.class, AnalyzeCommand.class, DotCommand.class,
        DemoCommand.class, JfrCommand.class, JournalCommand.class, CommandLine.HelpCommand.class})
public final class FramewireCommand implements Runnable
{
    @Spec
    private CommandSpec spec;

    /**
     * Runs the command line and exits with its code.
     *
     * @param args the arguments.
     */
    public static void main(final String[] args)
    {
        System.exit(commandLine().execute(args));
    }

    /**
     * The command line, for callers that run it without exiting (tests, an embedding shell).
     *
     * @return a fresh command line.
     */
    public static CommandLine commandLine()
    {
        return new CommandLine(new FramewireCommand()).setExecutionExceptionHandler(FramewireCommand::onFailure);
    }

    /** A {@link CommandFailure} is the user's to fix: its message, no stack trace, exit code 1. */
    private static int onFailure(
        final Exception ex, final CommandLine commandLine, final CommandLine.ParseResult parseResult) throws Exception
    {
        if (ex instanceof CommandFailure)
        {
            final PrintWriter err = commandLine.getErr();
            err.println(commandLine.getCommandName() + ": " + ex.getMessage());
            err.flush();
            return 1;
        }
        throw ex;
    }

    @Override
    public void run()
    {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /**
     * The version from the jar's manifest ({@code Implementation-Version}).
     */
    public static final class Version implements CommandLine.IVersionProvider
    {
        @Override
        public String[] getVersion()
        {
            final String version = FramewireCommand.class.getPackage().getImplementationVersion();
            return new String[]{"framewire " + (version != null ? version : "(development build)")};
        }
    }
}
