/**
 * The side-by-side suite (issue 8): each scenario runs the same work on Framewire, the LMAX
 * Disruptor 4 with equivalent stages and wait strategy, the seeds' lock-based design
 * ({@link dev.framewire.bench.core.baseline.LockedEngine}) and a {@code ThreadPoolExecutor} per
 * stage group ({@code LinkedBlockingQueue}, {@code execute}).
 *
 * <ul>
 *   <li>B0 {@link dev.framewire.bench.suite.B0FloorBenchmark}: a JCTools SPSC busy-spin hand-over, the floor;</li>
 *   <li>B1 {@link dev.framewire.bench.suite.B1HopLatencyBenchmark}: source to node to sink across one thread
 *       boundary, closed loop and open loop at a fixed rate, HdrHistogram percentiles;</li>
 *   <li>B2 {@link dev.framewire.bench.suite.B2ChainThroughputBenchmark}: a 4-stage chain, fused on one worker
 *       and split over two parked workers;</li>
 *   <li>B3 {@link dev.framewire.bench.suite.B3FanOutFrameBenchmark}: Full HD RGBA frames to 3 readers and 1
 *       writer, copy-on-write against always cloning, bytes copied per frame;</li>
 *   <li>B4 {@link dev.framewire.bench.suite.B4JoinBenchmark}: a 2-input default-policy join (a diamond);</li>
 *   <li>B5 {@link dev.framewire.bench.suite.B5JournalBenchmark}: B2's fused Framewire chain with no journal,
 *       a SYNC journal and ASYNC journals (the clock read at hand-overs or every call; losing or waiting when full).</li>
 * </ul>
 *
 * <p>Contenders are JMH parameters of the form {@code NAME/VARIANT}, so only the combinations
 * that exist are run. Every benchmark checks its own result after each iteration and throws when
 * it is wrong. Latency histograms go to side files ({@link dev.framewire.bench.suite.LatencyLog})
 * that {@code dev.framewire.bench.report.BenchReport} reads beside the JMH JSON.
 */
package dev.framewire.bench.suite;
