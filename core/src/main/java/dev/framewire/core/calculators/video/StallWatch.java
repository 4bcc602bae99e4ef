package dev.framewire.core.calculators.video;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * One daemon thread for all the video sources of the JVM ({@code framewire-video-stall}) that
 * looks at each source's reader every {@value #TICK_MILLIS} ms, kills an ffmpeg that has stalled
 * ({@link SourceReader#checkStall}) and applies recording retention ({@link SourceReader#sweep}).
 * It is not the node's worker, so a stall is seen while the worker does not call
 * {@code process}: the graph paused, the source held back by a full queue downstream, or a
 * worker busy with other nodes. It runs while a source is open and ends with the last one.
 *
 * <p>Threading: {@link #add} and {@link #remove} from any thread, under the lock; the set is a
 * copied array the watch thread reads under the lock once a round (to end with the last
 * source) and iterates without it, so a round allocates nothing.
 */
final class StallWatch
{
    static final long TICK_MILLIS = 50;
    private static final Logger LOG = LoggerFactory.getLogger(VideoSourceCalculator.class);
    private static final Object LOCK = new Object();
    private static volatile SourceReader[] readers = new SourceReader[0];
    private static Thread thread; // guarded by LOCK

    private StallWatch()
    {
    }

    static void add(final SourceReader reader)
    {
        synchronized (LOCK)
        {
            final SourceReader[] old = readers;
            final SourceReader[] grown = Arrays.copyOf(old, old.length + 1);
            grown[old.length] = reader;
            readers = grown;
            if (thread == null)
            {
                final Thread t = new Thread(StallWatch::run, "framewire-video-stall");
                t.setDaemon(true);
                thread = t;
                t.start();
            }
        }
    }

    static void remove(final SourceReader reader)
    {
        synchronized (LOCK)
        {
            final SourceReader[] old = readers;
            int n = 0;
            final SourceReader[] kept = new SourceReader[old.length];
            for (final SourceReader r : old)
            {
                if (r != reader)
                {
                    kept[n++] = r;
                }
            }
            readers = Arrays.copyOf(kept, n);
        }
    }

    private static void run()
    {
        while (true)
        {
            final SourceReader[] watched;
            synchronized (LOCK)
            {
                watched = readers;
                if (watched.length == 0)
                {
                    thread = null; // the next add starts another
                    return;
                }
            }
            final long now = System.nanoTime();
            for (final SourceReader reader : watched)
            {
                try
                {
                    reader.checkStall(now);
                    reader.sweep(System.currentTimeMillis());
                }
                catch (final RuntimeException ex)
                {
                    LOG.error("VideoSourceCalculator: stall check of node '{}' failed", reader.node(), ex);
                }
            }
            LockSupport.parkNanos(TICK_MILLIS * 1_000_000L);
        }
    }
}
