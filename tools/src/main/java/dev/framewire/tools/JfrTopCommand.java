package dev.framewire.tools;

import com.sun.tools.attach.VirtualMachine;
import jdk.management.jfr.RemoteRecordingStream;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code framewire jfr top --pid PID} (or {@code --jmx URL}): per-node call rate and process-time
 * percentiles of a running JVM, refreshed in the terminal. It streams
 * {@code dev.framewire.NodeProcess} events over JMX with the JDK's own
 * {@link RemoteRecordingStream}; for a local pid it starts the target's local management agent
 * through the attach API and connects to it. Each refresh shows the last interval only.
 */
@Command(
    name = "top",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = "Live per-node rate and process time of a running Framewire JVM, from JFR streaming over JMX.")
public final class JfrTopCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Target target;

    /** Where the JVM is. */
    static final class Target
    {
        @Option(names = "--pid", paramLabel = "PID", description = "A local JVM (attach API).")
        long pid;

        @Option(names = "--jmx", paramLabel = "URL",
            description = "A JMX service URL, e.g. service:jmx:rmi:///jndi/rmi://host:9010/jmxrmi.")
        String jmx;
    }

    @Option(names = "--interval", paramLabel = "SECONDS", defaultValue = "1",
        description = "Refresh interval (default: ${DEFAULT-VALUE} s).")
    private int interval;

    @Option(names = "--count", paramLabel = "N", defaultValue = "0",
        description = "Stop after N refreshes (default: run until interrupted).")
    private int count;

    @Override
    public Integer call() throws Exception
    {
        final JMXServiceURL url = new JMXServiceURL(target.jmx != null ? target.jmx : localAgent(target.pid));
        final PrintWriter out = spec.commandLine().getOut();
        try (JMXConnector connector = JMXConnectorFactory.connect(url))
        {
            final MBeanServerConnection connection = connector.getMBeanServerConnection();
            try (RemoteRecordingStream stream = new RemoteRecordingStream(connection))
            {
                stream.enable(JfrSummaryCommand.NODE_PROCESS).withThreshold(Duration.ZERO);
                stream.enable(JfrSummaryCommand.DROP);
                final Object lock = new Object();
                final JfrSummaryCommand.Summary[] window = {new JfrSummaryCommand.Summary()};
                stream.onEvent(event ->
                {
                    synchronized (lock)
                    {
                        window[0].accept(event);
                    }
                });
                stream.startAsync();
                for (int i = 0; count == 0 || i < count; i++)
                {
                    Thread.sleep(interval * 1000L);
                    final JfrSummaryCommand.Summary last;
                    synchronized (lock)
                    {
                        last = window[0];
                        window[0] = new JfrSummaryCommand.Summary();
                    }
                    out.print("\033[H\033[2J"); // home, clear screen
                    out.printf("framewire jfr top: %s, last %d s (calls are per interval; ^C to stop)%n%n", url, interval);
                    last.printNodes(out);
                    if (!last.drops.isEmpty())
                    {
                        out.println();
                        out.println("Drops this interval:");
                        last.drops.forEach((k, n) -> out.printf("  %-40s %10d%n", k.replace('\t', ' '), n));
                    }
                    out.flush();
                }
            }
        }
        return 0;
    }

    /** Starts (or finds) the local management agent of {@code pid} and returns its JMX URL. */
    private static String localAgent(final long pid) throws Exception
    {
        final VirtualMachine vm;
        try
        {
            vm = VirtualMachine.attach(Long.toString(pid));
        }
        catch (final Exception ex)
        {
            throw new CommandFailure("cannot attach to pid " + pid + " (same user? a JVM?): " + ex.getMessage());
        }
        try
        {
            return vm.startLocalManagementAgent();
        }
        finally
        {
            vm.detach();
        }
    }
}
