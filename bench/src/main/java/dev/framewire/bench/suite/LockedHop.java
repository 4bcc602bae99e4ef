package dev.framewire.bench.suite;

import dev.framewire.bench.core.baseline.LockedEngine;
import dev.framewire.core.IdleKind;

/**
 * The seeds' lock-based design ({@link LockedEngine}: locked queue, priority queue of ready
 * nodes, condition wait; BUSY_SPIN spins on a volatile size instead): one stage, one worker.
 */
final class LockedHop implements Hop
{
    private final LockedEngine engine;

    LockedHop(final IdleKind idle, final Arrivals arrivals)
    {
        engine = new LockedEngine(1, 1, idle, 1024, 4096, (timestamp, value, word) -> arrivals.acceptSentAt(word));
    }

    @Override
    public boolean offer(final long value, final long timestamp)
    {
        return engine.tryAdd(timestamp, LockedEngine.LONG, value);
    }

    @Override
    public void close() throws Exception
    {
        engine.close();
    }
}
