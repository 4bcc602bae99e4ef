package dev.framewire.core.calculators.video;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A child JVM for {@link CameraProcessTest}: one live video source reading {@code args[0]} and
 * recording into {@code args[1]}, which prints "frames N" each time it has more, and runs until
 * it is killed.
 */
public final class CameraChild
{
    private CameraChild()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .executor("camera", ExecutorConfig.of(1, IdleKind.PARK))
            .node("cam", n -> n.calculator("VideoSourceCalculator").executor("camera").outputStream("VIDEO:video")
                .option("url", args[0]).option("pixel_format", "GRAY8")
                .option("record_dir", args[1]).option("record_segment_seconds", 60.0))
            .outputStream("video")
            .build();
        final AtomicLong frames = new AtomicLong();
        try (Graph graph = new Graph(config))
        {
            graph.observe("video", packet -> frames.incrementAndGet());
            graph.start();
            long shown = 0;
            while (true)
            {
                final long n = frames.get();
                if (n > shown)
                {
                    System.out.println("frames " + n);
                    System.out.flush();
                    shown = n;
                }
                Thread.sleep(50);
            }
        }
    }
}
