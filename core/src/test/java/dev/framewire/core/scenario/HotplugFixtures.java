package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.OptionType;
import dev.framewire.core.PacketObserver;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pieces the hotplug tests share ({@link HotplugTest}, {@link HotplugFailureTest},
 * {@link HotplugBindingTest}): the graph's own chain, a camera subgraph that checks its frames,
 * frames as payloads holding their timestamps, and counts of what was delivered and what is held.
 */
final class HotplugFixtures
{
    private HotplugFixtures()
    {
    }

    /**
     * Checks that each packet is a payload holding its own timestamp, in increasing order, and
     * passes it on; records its {@code label} option, a template parameter.
     */
    static final class Check implements Calculator
    {
        private final List<String> errors;
        private final Map<String, String> labels;
        private long last = Long.MIN_VALUE;

        Check(final List<String> errors, final Map<String, String> labels)
        {
            this.errors = errors;
            this.labels = labels;
        }

        @Override
        public void contract(final Contract contract)
        {
            contract.option("label", OptionType.STRING, "none");
        }

        @Override
        public void open(final CalculatorContext ctx)
        {
            labels.put(ctx.nodeName(), ctx.options().getString("label"));
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            final long ts = ctx.inputTimestamp();
            final Payload payload = ctx.input(0).payload();
            if (payload.buffer().getLong(0) != ts || ts <= last)
            {
                errors.add(ctx.nodeName() + ": payload " + payload.buffer().getLong(0) + " at " + ts + " after " + last);
            }
            last = ts;
            ctx.output(0).add(payload, ts);
        }
    }

    /** A camera: frames in, two checking stages, frames out. */
    static GraphConfig camera(final List<String> errors, final Map<String, String> labels)
    {
        return GraphConfig.builder()
            .type("CameraSubgraph")
            .inputStream("frames")
            .node("check", n -> n.calculator(() -> new Check(errors, labels)).inputStream("frames")
                .outputStream("checked").option("label", "$label"))
            .node("stage", n -> n.calculator(() -> new Check(errors, labels)).inputStream("checked")
                .outputStream("out").option("label", "camera ${label}"))
            .outputStream("out")
            .build();
    }

    /** The graph's own part: a chain of two pass-throughs on long packets, always running. */
    static GraphConfig base(final int workers, final IdleKind idle)
    {
        return GraphConfig.builder()
            .executor("default", ExecutorConfig.of(workers, idle))
            .maxQueueSize(8)
            .inputStream("in")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("mid"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("mid").outputStream("out"))
            .outputStream("out")
            .build();
    }

    static Payload frame(final PayloadPool pool, final long ts)
    {
        final Payload payload = pool.acquire(64);
        payload.mutableBuffer().putLong(0, ts);
        return payload;
    }

    /** Payload slots the pool has handed out and not had back. */
    static long slotsInUse(final PayloadPool pool)
    {
        long inUse = 0;
        for (int c = 0; c < pool.sizeClassCount(); c++)
        {
            inUse += pool.slotsInUse(c);
        }
        return inUse;
    }

    /** Counts a subgraph's delivered packets and checks their order. */
    static PacketObserver counter(final AtomicLong delivered, final List<String> errors, final String who)
    {
        final long[] last = {Long.MIN_VALUE};
        return packet ->
        {
            if (packet.timestamp() <= last[0] || packet.payload().buffer().getLong(0) != packet.timestamp())
            {
                errors.add(who + ": delivered " + packet.timestamp() + " after " + last[0]);
            }
            last[0] = packet.timestamp();
            delivered.incrementAndGet();
        };
    }
}
