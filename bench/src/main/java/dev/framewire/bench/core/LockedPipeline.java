package dev.framewire.bench.core;

import dev.framewire.bench.core.baseline.LockedEngine;
import dev.framewire.core.IdleKind;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;

/** The lock-based baseline as a {@link Pipeline}, with a payload pool of its own. */
final class LockedPipeline implements Pipeline
{
    private final PayloadPool pool = new PayloadPool();
    private final LockedEngine engine;

    LockedPipeline(final int stages, final int workers, final IdleKind idle, final int queueLimit, final int hardCap,
        final boolean payloads, final Sink sink)
    {
        final LockedEngine.PacketSink end = payloads ?
            (timestamp, value, word) -> sink.accept(((Payload)value).buffer().getLong(0)) :
            (timestamp, value, word) -> sink.accept(word);
        engine = new LockedEngine(stages, workers, idle, queueLimit, hardCap, end);
    }

    @Override
    public void sendLong(final long value, final long timestamp)
    {
        while (!engine.tryAdd(timestamp, LockedEngine.LONG, value))
        {
            Thread.yield();
        }
    }

    @Override
    public void sendPayload(final Payload payload, final long timestamp)
    {
        while (!engine.tryAdd(timestamp, payload, 0))
        {
            Thread.yield();
        }
    }

    @Override
    public boolean offerLong(final long value, final long timestamp)
    {
        return engine.tryAdd(timestamp, LockedEngine.LONG, value);
    }

    @Override
    public boolean offerPayload(final Payload payload, final long timestamp)
    {
        return engine.tryAdd(timestamp, payload, 0);
    }

    @Override
    public PayloadPool pool()
    {
        return pool;
    }

    @Override
    public void close() throws Exception
    {
        try
        {
            engine.close();
        }
        finally
        {
            pool.close();
        }
    }
}
