package dev.framewire.bench.suite;

import dev.framewire.core.GraphStats;
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

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * B2 with the metrics on: what they cost the workers. The same chain, driver and checks as
 * {@link B2ChainThroughputBenchmark}'s Framewire rows ({@code /1}: four pass-through nodes on one
 * parked worker; {@code /2}: two on each of two); only the metrics side differs:
 *
 * <ul>
 *   <li>{@code FRAMEWIRE}: the engine as shipped, nobody reading its counters (the base);</li>
 *   <li>{@code TIMED}: {@code graph.timeProcessCalls()}: two clock reads per call, for the
 *       {@code framewire.node.process} timer;</li>
 *   <li>{@code SCRAPED}: a thread refilling {@code graph.stats(previous)} every millisecond, a
 *       hundred to a thousand times as often as a metrics scrape: what reading the counters costs the
 *       workers (the lines the reader pulls into its cache).</li>
 * </ul>
 * Each trial checks its answer: every packet arrives in order (the {@link Sender}'s check), and the
 * graph's own counters agree: each stage was called once per packet and passed each on; {@code TIMED}
 * has time in {@code process}, the others none.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class B2MetricsBenchmark extends PushHarness
{
    @Param({"FRAMEWIRE/1", "TIMED/1", "SCRAPED/1", "FRAMEWIRE/2", "TIMED/2", "SCRAPED/2"})
    public String contender;

    private GraphLine line;
    private Thread scraper;
    private volatile boolean scraping;
    private volatile long scrapes;

    @Setup(Level.Trial)
    public void setUp()
    {
        final String kind = contender.substring(0, contender.indexOf('/'));
        final int groups = Integer.parseInt(contender.substring(contender.indexOf('/') + 1));
        if (!kind.equals("FRAMEWIRE") && !kind.equals("TIMED") && !kind.equals("SCRAPED"))
        {
            throw new IllegalArgumentException("unknown contender " + contender);
        }
        line = new GraphLine(B2ChainThroughputBenchmark.framewireChain(groups, 1, 1), arrivals, graph ->
        {
            if (kind.equals("TIMED"))
            {
                graph.timeProcessCalls();
            }
        });
        sender = new Sender(line::offer);
        if (kind.equals("SCRAPED"))
        {
            scraping = true;
            scraper = new Thread(() ->
            {
                GraphStats stats = line.graph().stats();
                long n = 0;
                while (scraping)
                {
                    stats = line.graph().stats(stats);
                    n++;
                    LockSupport.parkNanos(1_000_000);
                }
                scrapes = n;
            }, "b2-metrics-scraper");
            scraper.setDaemon(true);
            scraper.start();
        }
    }

    @Override
    String contender()
    {
        return contender;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        try
        {
            if (scraper != null)
            {
                scraping = false;
                scraper.join(10_000);
                if (scrapes == 0)
                {
                    throw new IllegalStateException(contender + ": the scraper never read the counters");
                }
            }
            checkCounters();
        }
        finally
        {
            line.close();
        }
    }

    /** The graph's counters against what was sent: every stage called once per packet, each passed on. */
    private void checkCounters()
    {
        final long sent = sender.sent();
        final GraphStats stats = line.graph().stats();
        for (final GraphStats.NodeStats node : stats.nodes())
        {
            if (node.calls() != sent || node.packetsIn() != sent || node.packetsOut() != sent)
            {
                throw new IllegalStateException(contender + ": node " + node.name() + " was called " + node.calls() +
                    " times, took " + node.packetsIn() + " and passed on " + node.packetsOut() + " packets; " + sent +
                    " were sent");
            }
            if ((node.processNanos() > 0) != contender.startsWith("TIMED"))
            {
                throw new IllegalStateException(contender + ": node " + node.name() + " has " + node.processNanos() +
                    " ns in process");
            }
        }
    }
}
