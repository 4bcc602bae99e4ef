package dev.framewire.tools;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.calculators.video.CameraHealth;
import dev.framewire.micrometer.FramewireMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * {@code framewire run --metrics-port N}: a graph's meters ({@link FramewireMetrics}) in a
 * Micrometer {@link PrometheusMeterRegistry}, served as Prometheus text at
 * {@code http://127.0.0.1:N/metrics} by the JDK's {@link HttpServer}, on the loopback address only
 * (a scraper on another host goes through a proxy or an SSH tunnel the operator chooses).
 *
 * <p>Beside the graph's meters, Micrometer's own of the JVM and the process: heap and direct
 * buffer memory, GC, threads, open file descriptors and CPU, what a long run watches stay flat.
 *
 * <p>Cameras ({@link #cameraRule}): a node's subgraph instance, as in a service; else, for graphs
 * written as the demo's is, the camera source node ({@code SyntheticCameraCalculator},
 * {@code VideoSourceCalculator}) whose name it bears ({@code cam0}, {@code cam0_gray}).
 *
 * <p>Cameras' health ({@link CameraHealth} of each {@code VideoSourceCalculator}):
 * {@code framewire_camera_state} (0 connecting, 1 streaming, 2 disconnected, 3 stopped),
 * {@code framewire_camera_frames_total}, {@code framewire_camera_bytes_total},
 * {@code framewire_camera_reconnects_total}, {@code framewire_camera_frame_age_seconds} and
 * {@code framewire_camera_fps} (frames a second between two scrapes), tagged {@code camera}. The
 * graph's drops per camera are {@code FramewireMetrics}' own, under the same tag.
 *
 * <p>Health, beside the metrics: {@code /health/live} answers 200 while the process serves;
 * {@code /health/ready} answers 200 when the graph runs and every camera has had a frame within
 * {@link #READY_FRAME_AGE_SECONDS} s, else 503, with one line per camera saying where it is.
 *
 * <p>Binding: 127.0.0.1 unless {@code --metrics-bind} says another address (0.0.0.0 for all).
 *
 * <p>Slow clients: a client that sends half a request and waits must not block every other scrape,
 * as it did with the JDK server's default, which reads each request on its one dispatcher
 * thread. Requests are read and answered on a small pool ({@value #THREADS} threads), and the JDK
 * server closes a connection whose request has not arrived within {@value #REQUEST_SECONDS} s
 * ({@code sun.net.httpserver.maxReqTime}, set unless the user set it, before the server's first
 * use in the JVM).
 *
 * <p>Threading: made and closed by the command's thread; scrapes run on the pool's threads,
 * which read the graph's counters (nothing on the graph's workers).
 */
final class MetricsEndpoint implements AutoCloseable
{
    /** The path served; anything else is 404. */
    static final String PATH = "/metrics";
    /** Prometheus' text exposition format. */
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    /** Liveness: the process serves. */
    static final String LIVE = "/health/live";
    /** Readiness: the graph runs and every camera's frames are fresh. */
    static final String READY = "/health/ready";
    /** A camera whose last frame is older than this is not ready. */
    static final double READY_FRAME_AGE_SECONDS = 10.0;
    /** Threads answering requests. */
    static final int THREADS = 4;
    /** A request that has not fully arrived after this long is dropped. */
    static final int REQUEST_SECONDS = 5;

    static
    {
        // read once by the JDK server's configuration, at its first use in the JVM
        if (System.getProperty("sun.net.httpserver.maxReqTime") == null)
        {
            System.setProperty("sun.net.httpserver.maxReqTime", String.valueOf(REQUEST_SECONDS));
        }
        if (System.getProperty("sun.net.httpserver.maxRspTime") == null)
        {
            System.setProperty("sun.net.httpserver.maxRspTime", "30");
        }
    }

    private final HttpServer server;
    private final PrometheusMeterRegistry registry;
    private final FramewireMetrics metrics;
    private final JvmGcMetrics gc;
    private final ExecutorService pool;
    private final String host;

    private MetricsEndpoint(final HttpServer server, final PrometheusMeterRegistry registry,
        final FramewireMetrics metrics, final JvmGcMetrics gc, final ExecutorService pool, final String host)
    {
        this.server = server;
        this.registry = registry;
        this.metrics = metrics;
        this.gc = gc;
        this.pool = pool;
        this.host = host;
    }

    /**
     * Binds the graph's meters and starts serving them on 127.0.0.1.
     *
     * @param graph     the graph, not started yet: its calls are timed ({@link Graph#timeProcessCalls()}).
     * @param graphName the {@code graph} tag.
     * @param port      the port, 0 for any free one.
     * @return the endpoint; {@link #port()} says where it listens.
     * @throws CommandFailure if the port cannot be listened on.
     */
    static MetricsEndpoint start(final Graph graph, final String graphName, final int port)
    {
        return start(graph, graphName, "127.0.0.1", port);
    }

    /**
     * Binds the graph's meters and starts serving them, and the health checks, on an address.
     *
     * @param graph     the graph, not started yet.
     * @param graphName the {@code graph} tag.
     * @param bind      the address to listen on: an IP address or host name; 0.0.0.0 for all.
     * @param port      the port, 0 for any free one.
     * @return the endpoint.
     * @throws CommandFailure if the address is unknown or the port cannot be listened on.
     */
    static MetricsEndpoint start(final Graph graph, final String graphName, final String bind, final int port)
    {
        final InetAddress address;
        try
        {
            address = "127.0.0.1".equals(bind) ? loopback() : InetAddress.getByName(bind);
        }
        catch (final UnknownHostException ex)
        {
            throw new CommandFailure("--metrics-bind " + bind + ": not an address of this host (" + ex.getMessage() +
                "); give an IP address such as 127.0.0.1 or 0.0.0.0 for all");
        }
        graph.timeProcessCalls();
        final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        final FramewireMetrics metrics = FramewireMetrics.builder(graph).graphName(graphName)
            .cameraOf(cameraRule(graph.config())).build();
        metrics.bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        final JvmGcMetrics gc = new JvmGcMetrics(); // listens to GC notifications until closed
        gc.bindTo(registry);
        final Set<String> nodes = new HashSet<>();
        for (final NodeConfig node : graph.config().nodes())
        {
            nodes.add(node.name());
        }
        bindCameras(registry, nodes);
        final HttpServer server;
        try
        {
            server = HttpServer.create(new InetSocketAddress(address, port), 0);
        }
        catch (final BindException ex)
        {
            gc.close();
            registry.close();
            throw new CommandFailure("--metrics-port " + port + ": cannot listen on " + bind + ":" + port + " (" +
                ex.getMessage() + "); give a free port, or 0 for any");
        }
        catch (final IOException ex)
        {
            gc.close();
            registry.close();
            throw new CommandFailure("--metrics-port " + port + ": cannot start the metrics server: " + ex);
        }
        server.createContext(PATH, exchange -> serve(exchange, registry));
        server.createContext("/health/", exchange -> health(exchange, graph, nodes));
        final ExecutorService pool = Executors.newFixedThreadPool(THREADS, r ->
        {
            final Thread t = new Thread(r, "framewire-metrics-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(pool);
        server.start();
        return new MetricsEndpoint(server, registry, metrics, gc, pool, bind);
    }

    /**
     * The cameras' meters, read at each scrape from the {@link CameraHealth} of the graph's video
     * sources open at that time.
     */
    private static void bindCameras(final PrometheusMeterRegistry registry, final Set<String> nodes)
    {
        for (final String node : nodes)
        {
            final Tags tags = Tags.of("camera", node);
            Gauge.builder("framewire.camera.state", () -> camera(node) == null ? CameraHealth.State.STOPPED.ordinal() :
                camera(node).state().ordinal()).tags(tags)
                .description("0 connecting, 1 streaming, 2 disconnected, 3 stopped").register(registry);
            FunctionCounter.builder("framewire.camera.frames", node, n -> value(n, 0)).tags(tags)
                .description("frames read from the camera").register(registry);
            FunctionCounter.builder("framewire.camera.bytes", node, n -> value(n, 1)).tags(tags).baseUnit("bytes")
                .description("bytes of decoded frames read from ffmpeg").register(registry);
            FunctionCounter.builder("framewire.camera.reconnects", node, n -> value(n, 2)).tags(tags)
                .description("connection attempts after the first").register(registry);
            Gauge.builder("framewire.camera.frame.age", () ->
            {
                final CameraHealth c = camera(node);
                return c == null ? Double.NaN : c.frameAgeSeconds(System.nanoTime());
            }).tags(tags).baseUnit("seconds").description("time since the camera's last frame").register(registry);
            final long[] last = new long[2]; // frames, nanos at the previous scrape; the scrape is serialized
            Gauge.builder("framewire.camera.fps", () ->
            {
                synchronized (last)
                {
                    final long now = System.nanoTime();
                    final long frames = (long)value(node, 0);
                    final double fps = last[1] == 0 || now == last[1] ? Double.NaN :
                        (frames - last[0]) * 1e9 / (now - last[1]);
                    last[0] = frames;
                    last[1] = now;
                    return fps;
                }
            }).tags(tags).description("frames a second since the previous scrape").register(registry);
        }
    }

    private static CameraHealth camera(final String node)
    {
        for (final CameraHealth c : CameraHealth.open())
        {
            if (c.node().equals(node))
            {
                return c;
            }
        }
        return null;
    }

    private static double value(final String node, final int which)
    {
        final CameraHealth c = camera(node);
        if (c == null)
        {
            return 0;
        }
        return which == 0 ? c.frames() : which == 1 ? c.bytes() : c.reconnects();
    }

    private static void health(final HttpExchange exchange, final Graph graph, final Set<String> nodes)
        throws IOException
    {
        try (exchange)
        {
            final String path = exchange.getRequestURI().getPath();
            final StringBuilder body = new StringBuilder();
            int code;
            if (path.equals(LIVE))
            {
                code = 200;
                body.append("live\n");
            }
            else if (path.equals(READY))
            {
                boolean running;
                try
                {
                    running = !graph.awaitDone(0, TimeUnit.NANOSECONDS);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    running = false;
                }
                code = running ? 200 : 503;
                body.append(running ? "graph running\n" : "graph not running\n");
                final long now = System.nanoTime();
                for (final CameraHealth c : CameraHealth.open())
                {
                    if (!nodes.contains(c.node()))
                    {
                        continue;
                    }
                    final double age = c.frameAgeSeconds(now);
                    final boolean fresh = c.state() == CameraHealth.State.STREAMING && age <= READY_FRAME_AGE_SECONDS;
                    if (!fresh)
                    {
                        code = 503;
                    }
                    body.append(c.node()).append(' ').append(c.state()).append(" frames ").append(c.frames())
                        .append(" last frame ").append(Double.isNaN(age) ? "never" : String.format(java.util.Locale.ROOT, "%.1f s ago", age))
                        .append(" reconnects ").append(c.reconnects()).append(' ').append(c.url()).append('\n');
                }
            }
            else
            {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            final byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(code, bytes.length);
            try (OutputStream out = exchange.getResponseBody())
            {
                out.write(bytes);
            }
        }
    }

    /**
     * A node's camera: its subgraph instance ({@link FramewireMetrics#subgraphOf}) if it has one;
     * else the camera source node it is named after, itself or by its name and {@code _} as a
     * prefix (the longest such name); else "".
     *
     * @param config the graph.
     * @return node name to camera.
     */
    static Function<String, String> cameraRule(final GraphConfig config)
    {
        final List<String> cameras = new ArrayList<>();
        for (final NodeConfig node : config.nodes())
        {
            if (DemoGraph.CAMERA.equals(node.calculator()) || DemoGraph.VIDEO_SOURCE.equals(node.calculator()))
            {
                cameras.add(node.name());
            }
        }
        return node ->
        {
            final String subgraph = FramewireMetrics.subgraphOf(node);
            if (!subgraph.isEmpty())
            {
                return subgraph;
            }
            String camera = "";
            for (final String c : cameras)
            {
                if ((node.equals(c) || node.startsWith(c + "_")) && c.length() > camera.length())
                {
                    camera = c;
                }
            }
            return camera;
        };
    }

    private static InetAddress loopback()
    {
        try
        {
            return InetAddress.getByAddress("localhost", new byte[] {127, 0, 0, 1});
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException(ex); // cannot happen: four bytes are a valid address
        }
    }

    private static void serve(final HttpExchange exchange, final PrometheusMeterRegistry registry) throws IOException
    {
        try (exchange)
        {
            if (!exchange.getRequestURI().getPath().equals(PATH))
            {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            final String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD"))
            {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            final byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            if (method.equals("HEAD"))
            {
                exchange.sendResponseHeaders(200, -1);
                return;
            }
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody())
            {
                out.write(body);
            }
        }
    }

    /**
     * Where the server listens.
     *
     * @return the port.
     */
    int port()
    {
        return server.getAddress().getPort();
    }

    /** The URL to scrape. */
    String url()
    {
        return "http://" + ("0.0.0.0".equals(host) ? "127.0.0.1" : host) + ":" + port() + PATH;
    }

    /** Stops the server (its dispatcher thread ends) and removes the graph's meters. */
    @Override
    public void close()
    {
        server.stop(0);
        pool.shutdownNow();
        gc.close();
        metrics.close();
        registry.close();
    }
}
