package dev.framewire.bench.suite;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The closed and open loops of B0 and B1, around one {@link Hop}.
 *
 * <ul>
 *   <li>Closed loop: send {@code nanoTime()}, spin until it arrived. One op is that trip; the
 *       histogram holds the one-way hop, measured where the value arrives.</li>
 *   <li>Open loop: packet k is meant to leave at {@code start + k / rate}; the benchmark thread
 *       spins until then, sends the intended time (not the actual one) and does not wait for it.
 *       A hop that stalls makes later packets late, and that lateness is in their latency: no
 *       coordinated omission. One op is one packet, so the JMH score is about 1 / rate.</li>
 * </ul>
 *
 * <p>The histogram is reset when the first measurement iteration starts (warm-up excluded) and
 * written at the end of the trial ({@link LatencyLog}). After every iteration the harness waits
 * for every value and checks the count and the sum, and throws when they are wrong.
 *
 * <p>The JMH methods are here, once; a benchmark (B0, B1) extends this class with its own
 * {@code @Param} of contenders and JMH's class annotations (JMH runs inherited benchmark methods).
 */
public abstract class HopHarness
{
    /** Open-loop rate: 20,000 packets a second, one every 50 µs (a parked worker wakes per packet). */
    static final long OPEN_LOOP_RATE = 20_000;
    static final long OPEN_LOOP_INTERVAL_NANOS = 1_000_000_000L / OPEN_LOOP_RATE;

    final Arrivals arrivals = new Arrivals();
    Hop hop;
    private String contender;
    private long sent;
    private long expectedSum;
    private long scheduleStart;
    private long scheduled;
    private boolean measuring;

    /**
     * The contender of this trial: the subclass's {@code @Param}.
     *
     * @return e.g. {@code FRAMEWIRE/BUSY_SPIN}.
     */
    abstract String contender();

    /** Makes the trial's hop. */
    @Setup(Level.Trial)
    public void setUp()
    {
        setUpTrial(contender());
    }

    /**
     * Starts an iteration's schedule; resets the histogram at the first measured one.
     *
     * @param iteration JMH's.
     */
    @Setup(Level.Iteration)
    public void setUpIteration(final IterationParams iteration)
    {
        setUpIterationState(iteration);
    }

    /**
     * Send, spin until it arrived.
     *
     * @return the packet's number.
     */
    @Benchmark
    public long closedLoop()
    {
        return closedLoopOp();
    }

    /**
     * One packet at its intended time, not waiting for it.
     *
     * @return the packet's number.
     */
    @Benchmark
    public long openLoop()
    {
        return openLoopOp();
    }

    /** Waits for every value and checks the count and the sum. */
    @TearDown(Level.Iteration)
    public void verify()
    {
        verifyIteration();
    }

    /**
     * Closes the hop and writes the histogram.
     *
     * @param params JMH's.
     * @throws Exception if the hop fails to close.
     */
    @TearDown(Level.Trial)
    public void tearDown(final BenchmarkParams params) throws Exception
    {
        tearDownTrial(params);
    }

    void setUpTrial(final String contender)
    {
        HostState.record(getClass().getSimpleName().replaceAll("_jmhType.*", "").replace("Benchmark", ""), contender);
        this.contender = contender;
        hop = Hop.create(contender, arrivals);
    }

    void setUpIterationState(final IterationParams iteration)
    {
        if (!measuring && iteration.getType() == IterationType.MEASUREMENT)
        {
            measuring = true;
            arrivals.histogram().reset(); // no value in flight: the last iteration's verify saw them all
        }
        scheduleStart = System.nanoTime();
        scheduled = 0;
    }

    final long closedLoopOp()
    {
        final long n = ++sent;
        final long now = System.nanoTime();
        expectedSum += now;
        while (!hop.offer(now, n))
        {
            Thread.onSpinWait();
        }
        arrivals.spinUntil(n);
        return n;
    }

    final long openLoopOp()
    {
        final long n = ++sent;
        final long intended = scheduleStart + scheduled++ * OPEN_LOOP_INTERVAL_NANOS;
        while (System.nanoTime() - intended < 0)
        {
            Thread.onSpinWait();
        }
        expectedSum += intended;
        while (!hop.offer(intended, n))
        {
            Thread.onSpinWait();
        }
        return n;
    }

    void verifyIteration()
    {
        arrivals.verify(contender, sent, expectedSum);
    }

    void tearDownTrial(final BenchmarkParams params) throws Exception
    {
        try
        {
            hop.close();
        }
        finally
        {
            final String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
            final String scenario = getClass().getSimpleName().replaceAll("_jmhType.*", "")
                .replace("Benchmark", "") + "." + method;
            final Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("benchmark", params.getBenchmark());
            extra.put("packets", sent);
            if ("openLoop".equals(method))
            {
                extra.put("ratePerSecond", OPEN_LOOP_RATE);
            }
            LatencyLog.write(scenario, contender, arrivals.histogram(), extra);
        }
    }
}
