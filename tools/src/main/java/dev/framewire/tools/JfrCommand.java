package dev.framewire.tools;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code framewire jfr}: Java Flight Recorder tools for Framewire's {@code dev.framewire.*} events.
 * {@code summary} reads a recording ({@code scripts/profile.sh} makes one); {@code top} watches a
 * running JVM.
 */
@Command(
    name = "jfr",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = "Summarizes JFR recordings of Framewire runs, or watches a running one.",
    subcommands = {JfrSummaryCommand.class, JfrTopCommand.class})
public final class JfrCommand implements Runnable
{
    @Spec
    private CommandSpec spec;

    @Override
    public void run()
    {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
