package dev.framewire.tools;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code framewire} command line: the top command, which only lists its subcommands.
 *
 * <pre>
 *   framewire --help
 *   framewire demo --duration 10 --cameras 2
 * </pre>
 */
@Command(
    name = "framewire",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = "Runs and inspects Framewire dataflow graphs.",
    subcommands = {DemoCommand.class, CommandLine.HelpCommand.class})
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
        return new CommandLine(new FramewireCommand());
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
