package dev.framewire.bench.suite;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordingFile;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * B2 with and without Framewire's JFR events: what the per-call probe costs when no recording wants
 * the events. The same chain, driver and checks as {@link B2ChainThroughputBenchmark}'s Framewire
 * rows ({@code /1}: four pass-through nodes on one parked worker; {@code /2}: two on each of two);
 * only the JFR side differs:
 *
 * <ul>
 *   <li>{@code FRAMEWIRE}: the engine as shipped, no recording (B2's row, the base of the ratio);</li>
 *   <li>{@code NO_PROBES}: {@code -Dframewire.jfr=false}, which the JIT folds so that the probe's
 *       {@code isEnabled()} test is not compiled in at all: the engine without JFR events;</li>
 *   <li>{@code JFR_IDLE}: a recording running with the JDK's {@code default} settings and
 *       Framewire's events off, as in a service profiled continuously;</li>
 *   <li>{@code JFR_EVENTS}: the same recording with {@code dev.framewire.NodeProcess} on, threshold
 *       0: one event per calculator call (what {@code scripts/framewire.jfc} asks for).</li>
 * </ul>
 * The property is set before any engine class loads: JMH runs every parameter combination in its
 * own fork, and the chain is built in this trial's setup. Two or three threads, parked when idle
 * (plus JFR's own threads while recording).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class B2JfrBenchmark extends PushHarness
{
    @Param({"FRAMEWIRE/1", "NO_PROBES/1", "JFR_IDLE/1", "JFR_EVENTS/1",
        "FRAMEWIRE/2", "NO_PROBES/2", "JFR_IDLE/2", "JFR_EVENTS/2"})
    public String contender;

    private Line line;
    private Recording recording;

    @Setup(Level.Trial)
    public void setUp() throws IOException, ParseException
    {
        final String kind = contender.substring(0, contender.indexOf('/'));
        final int groups = Integer.parseInt(contender.substring(contender.indexOf('/') + 1));
        switch (kind)
        {
            case "FRAMEWIRE":
                break;
            case "NO_PROBES":
                System.setProperty("framewire.jfr", "false");
                break;
            case "JFR_IDLE":
            case "JFR_EVENTS":
                recording = new Recording(Configuration.getConfiguration("default"));
                recording.setName("B2Jfr " + contender);
                if (kind.equals("JFR_EVENTS"))
                {
                    recording.enable("dev.framewire.NodeProcess").withThreshold(Duration.ZERO);
                }
                else
                {
                    recording.disable("dev.framewire.NodeProcess");
                }
                recording.setToDisk(true);
                recording.start();
                break;
            default:
                throw new IllegalArgumentException("unknown contender " + contender);
        }
        line = new GraphLine(B2ChainThroughputBenchmark.framewireChain(groups, 1, 1), arrivals);
        sender = new Sender(line::offer);
    }

    @Override
    String contender()
    {
        return contender;
    }

    /**
     * The recording holds one {@code NodeProcess} event per calculator call when they are on (at
     * least {@code STAGES} per packet sent: warm-up included; open and close calls too), none when off.
     */
    private void checkEvents() throws IOException
    {
        final Path file = Files.createTempFile("framewire-b2jfr", ".jfr");
        try
        {
            recording.stop();
            recording.dump(file);
            long events = 0;
            try (RecordingFile in = new RecordingFile(file))
            {
                while (in.hasMoreEvents())
                {
                    if (in.readEvent().getEventType().getName().equals("dev.framewire.NodeProcess"))
                    {
                        events++;
                    }
                }
            }
            final boolean on = contender.startsWith("JFR_EVENTS");
            if (on ? events < B2ChainThroughputBenchmark.STAGES * sender.sent() : events != 0)
            {
                throw new IllegalStateException(contender + ": " + events + " NodeProcess events recorded for " +
                    sender.sent() + " packets through " + B2ChainThroughputBenchmark.STAGES + " nodes");
            }
        }
        finally
        {
            recording.close();
            Files.deleteIfExists(file);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        try
        {
            line.close();
        }
        finally
        {
            if (recording != null)
            {
                checkEvents();
            }
        }
    }
}
