package dev.framewire.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code framewire run --metrics-port N}: Prometheus text on 127.0.0.1 while the run lasts, with
 * the graph's meters; nothing listening without the flag, or once the run is over.
 */
@Timeout(90)
class RunMetricsPortTest
{
    /** The JDK HttpServer's dispatcher thread: there while a server runs. */
    private static final String DISPATCHER = "HTTP-Dispatcher";
    private static final Pattern URL = Pattern.compile("metrics: (http://127\\.0\\.0\\.1:(\\d+)/metrics) ");

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void theEndpointAnswersOnLoopbackWithTheGraphsMetersWhileTheRunLasts() throws Exception
    {
        final Path file = Cli.write(dir, "counting.pbtxt", Cli.countingGraph(Long.MAX_VALUE));
        final CliInBackground run = new CliInBackground("run", file.toString(), "--duration", "6",
            "--metrics-port", "0", "--no-journal");
        final Matcher url = URL.matcher("");
        await(() -> url.reset(run.out()).find(), "the metrics line", run);
        final URI uri = URI.create(url.group(1));
        final int port = Integer.parseInt(url.group(2));
        assertTrue(port > 0);
        assertTrue(dispatcherRuns(), "a server runs");

        final HttpResponse<String> scrape = get(uri);
        assertEquals(200, scrape.statusCode(), scrape.body());
        assertTrue(scrape.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"),
            scrape.headers().toString());
        final String text = scrape.body();
        for (final String metric : new String[] {
            "framewire_node_packets_in_total{camera=\"\",graph=\"counting\",node=\"pass\"}",
            "framewire_node_packets_out_total{camera=\"\",graph=\"counting\",node=\"count\"}",
            "framewire_node_packets_dropped_total{camera=\"\",graph=\"counting\",node=\"pass\",reason=\"policy\"}",
            "framewire_node_calls_total{camera=\"\",graph=\"counting\",node=\"count\"}",
            "framewire_node_queue_depth{camera=\"\",graph=\"counting\",node=\"pass\",stream=\"n\"}",
            "framewire_node_calls_in_flight{camera=\"\",graph=\"counting\",node=\"pass\"}",
            "framewire_node_process_seconds_count{camera=\"\",graph=\"counting\",node=\"pass\"}",
            "framewire_node_process_seconds_sum{camera=\"\",graph=\"counting\",node=\"pass\"}",
            "framewire_offheap_used_bytes{graph=\"counting\"}",
            "framewire_offheap_peak_bytes{graph=\"counting\"}",
            "framewire_offheap_limit_soft_bytes{graph=\"counting\"}",
            "framewire_offheap_limit_hard_bytes{graph=\"counting\"}",
            "framewire_graph_failures_total{graph=\"counting\"}"})
        {
            assertTrue(text.contains(metric + " "), metric + " in:\n" + text);
        }
        for (final String jvm : new String[] {"\njvm_memory_used_bytes{area=\"heap\"", "\njvm_threads_live_threads ",
            "\nprocess_files_open_files ", "\nprocess_cpu_usage ", "\njvm_gc_"})
        {
            assertTrue(text.contains(jvm), jvm.strip() + ", the JVM's and the process's, in:\n" + text);
        }
        assertTrue(value(text, "framewire_node_packets_in_total{camera=\"\",graph=\"counting\",node=\"pass\"}") > 0,
            "packets flow: " + text);
        assertEquals(404, get(uri.resolve("/other")).statusCode());
        assertEquals(405, http.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString("x"))
            .build(), HttpResponse.BodyHandlers.ofString()).statusCode());

        final Cli.Result r = run.result();
        assertEquals(0, r.exit(), r.toString());
        assertFalse(dispatcherRuns(), "the server stopped with the run");
        assertThrows(ConnectException.class, () -> get(uri), "nothing listens once the run is over");
    }

    @Test
    void aClientSendingHalfARequestBlocksNoOtherScrapeAndHealthAnswers() throws Exception
    {
        final Path file = Cli.write(dir, "counting.pbtxt", Cli.countingGraph(Long.MAX_VALUE));
        final CliInBackground run = new CliInBackground("run", file.toString(), "--duration", "8",
            "--metrics-port", "0", "--metrics-bind", "127.0.0.1", "--no-journal");
        final Matcher url = URL.matcher("");
        await(() -> url.reset(run.out()).find(), "the metrics line", run);
        final URI uri = URI.create(url.group(1));
        try (java.net.Socket slow = new java.net.Socket("127.0.0.1", uri.getPort()))
        {
            slow.getOutputStream().write("GET /metr".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            slow.getOutputStream().flush();
            final long start = System.nanoTime();
            final HttpResponse<String> scrape = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(3))
                .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, scrape.statusCode());
            assertTrue(System.nanoTime() - start < 3_000_000_000L);
            assertEquals(200, get(uri.resolve(MetricsEndpoint.LIVE)).statusCode());
            final HttpResponse<String> ready = get(uri.resolve(MetricsEndpoint.READY));
            assertEquals(200, ready.statusCode(), ready.body());
            assertTrue(ready.body().contains("graph running"), ready.body());
            // the half request is dropped after the request time, not kept for ever
            slow.setSoTimeout(20_000);
            assertEquals(-1, slow.getInputStream().read(), "the server closes a request that never completes");
        }
        final Cli.Result r = run.result();
        assertEquals(0, r.exit(), r.toString());
    }

    @Test
    void anUnknownBindAddressIsNamed() throws Exception
    {
        final Path file = Cli.write(dir, "small.pbtxt", Cli.countingGraph(5));
        final Cli.Result bad = Cli.run("run", file.toString(), "--metrics-port", "0", "--metrics-bind", "no.such.host.invalid",
            "--no-journal");
        assertTrue(bad.exit() != 0 && bad.err().contains("--metrics-bind no.such.host.invalid"), bad.toString());
    }

    @Test
    void withoutTheFlagNothingListens() throws Exception
    {
        final Path file = Cli.write(dir, "counting.pbtxt", Cli.countingGraph(Long.MAX_VALUE));
        assertFalse(dispatcherRuns(), "no server before the run");
        final CliInBackground run = new CliInBackground("run", file.toString(), "--duration", "2.5", "--no-journal");
        await(() -> run.out().contains("[   1 s]"), "the first progress line", run);
        assertFalse(dispatcherRuns(), "no server while the run goes on");
        final Cli.Result r = run.result();
        assertEquals(0, r.exit(), r.toString());
        assertFalse(r.out().contains("metrics"), r.toString());
    }

    @Test
    void aBadPortIsAUsageErrorAndABusyOneIsNamed() throws Exception
    {
        final Path file = Cli.write(dir, "small.pbtxt", Cli.countingGraph(5));
        final Cli.Result bad = Cli.run("run", file.toString(), "--metrics-port", "70000", "--no-journal");
        assertEquals(2, bad.exit(), bad.toString());
        assertTrue(bad.err().contains("--metrics-port must be a port in [0, 65535] (0 for any free one), was 70000"),
            bad.toString());
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1,
            java.net.InetAddress.getByAddress(new byte[] {127, 0, 0, 1})))
        {
            final Cli.Result busy = Cli.run("run", file.toString(), "--metrics-port",
                Integer.toString(taken.getLocalPort()), "--no-journal");
            assertEquals(1, busy.exit(), busy.toString());
            assertTrue(busy.err().contains("--metrics-port " + taken.getLocalPort() + ": cannot listen on 127.0.0.1:" +
                taken.getLocalPort()), busy.toString());
        }
        assertFalse(dispatcherRuns());
    }

    @Test
    void aNodeIsTaggedWithItsSubgraphOrTheCameraItIsNamedAfter() throws Exception
    {
        final dev.framewire.core.GraphConfig demo = DemoGraph.of(DemoGraph.builtInText(), "demo",
            new DemoGraph.Settings(2, 64, 48, 30.0, 0, 1000, dir.resolve("snaps"), 1)).config();
        final java.util.function.Function<String, String> camera = MetricsEndpoint.cameraRule(demo);
        assertEquals("cam0", camera.apply("cam0"));
        assertEquals("cam0", camera.apply("cam0_gray"));
        assertEquals("cam1", camera.apply("cam1_motion"));
        assertEquals("", camera.apply("cam10_gray"), "no camera cam10 in this graph");
        assertEquals("", camera.apply("detector"));
        assertEquals("yard", camera.apply("yard__detect"), "a subgraph instance first");
    }

    private HttpResponse<String> get(final URI uri) throws IOException, InterruptedException
    {
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    }

    private static double value(final String text, final String series)
    {
        final int at = text.indexOf(series + " ");
        final int end = text.indexOf('\n', at);
        return Double.parseDouble(text.substring(at + series.length() + 1, end).trim());
    }

    private static boolean dispatcherRuns()
    {
        return Thread.getAllStackTraces().keySet().stream()
            .anyMatch(t -> t.getName().equals(DISPATCHER) && t.isAlive());
    }

    private static void await(final Supplier<Boolean> condition, final String what, final CliInBackground run)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.get())
        {
            assertTrue(System.nanoTime() < deadline, "no " + what + " within 30 s: " + run.out());
            assertFalse(run.done(), "the run ended before " + what + ": " + run.out());
            Thread.sleep(10); // polling the run's output, not waiting out a race
        }
    }

    /** The command line on a thread of its own, its output readable while it runs. */
    private static final class CliInBackground
    {
        private final java.io.StringWriter out = new java.io.StringWriter();
        private final java.io.StringWriter err = new java.io.StringWriter();
        private final CompletableFuture<Integer> exit;

        CliInBackground(final String... args)
        {
            final picocli.CommandLine cli = FramewireCommand.commandLine();
            cli.setOut(new java.io.PrintWriter(out, true));
            cli.setErr(new java.io.PrintWriter(err, true));
            exit = CompletableFuture.supplyAsync(() -> cli.execute(args));
        }

        String out()
        {
            return out.toString();
        }

        boolean done()
        {
            return exit.isDone();
        }

        Cli.Result result() throws Exception
        {
            return new Cli.Result(exit.get(60, TimeUnit.SECONDS), out.toString(), err.toString());
        }
    }
}
