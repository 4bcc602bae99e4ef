package dev.framewire.tools;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.NodeConfig;
import dev.framewire.micrometer.FramewireMetrics;
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
import java.util.List;
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
 * <p>Threading: made and closed by the command's thread; each scrape runs on the server's one
 * dispatcher thread, which reads the graph's counters (nothing on the graph's workers).
 */
final class MetricsEndpoint implements AutoCloseable
{
    /** The path served; anything else is 404. */
    static final String PATH = "/metrics";
    /** Prometheus' text exposition format. */
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final PrometheusMeterRegistry registry;
    private final FramewireMetrics metrics;
    private final JvmGcMetrics gc;

    private MetricsEndpoint(final HttpServer server, final PrometheusMeterRegistry registry,
        final FramewireMetrics metrics, final JvmGcMetrics gc)
    {
        this.server = server;
        this.registry = registry;
        this.metrics = metrics;
        this.gc = gc;
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
        final HttpServer server;
        try
        {
            server = HttpServer.create(new InetSocketAddress(loopback(), port), 0);
        }
        catch (final BindException ex)
        {
            gc.close();
            registry.close();
            throw new CommandFailure("--metrics-port " + port + ": cannot listen on 127.0.0.1:" + port + " (" +
                ex.getMessage() + "); give a free port, or 0 for any");
        }
        catch (final IOException ex)
        {
            gc.close();
            registry.close();
            throw new CommandFailure("--metrics-port " + port + ": cannot start the metrics server: " + ex);
        }
        server.createContext(PATH, exchange -> serve(exchange, registry));
        server.start();
        return new MetricsEndpoint(server, registry, metrics, gc);
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
        return "http://127.0.0.1:" + port() + PATH;
    }

    /** Stops the server (its dispatcher thread ends) and removes the graph's meters. */
    @Override
    public void close()
    {
        server.stop(0);
        gc.close();
        metrics.close();
        registry.close();
    }
}
