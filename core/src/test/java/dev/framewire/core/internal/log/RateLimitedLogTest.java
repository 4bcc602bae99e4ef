package dev.framewire.core.internal.log;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RateLimitedLogTest
{
    private static final long SECOND = 1_000_000_000L;

    @Test
    void firstAtOnceThenOneLinePerIntervalWithTheCount()
    {
        final RateLimitedLog log = new RateLimitedLog(10 * SECOND);
        final long t0 = 5 * SECOND;
        assertTrue(log.record(t0));
        assertEquals(1, log.takeCount());
        assertEquals(0, log.windowMillis(t0));
        int lines = 0;
        for (int i = 1; i <= 71; i++)
        {
            if (log.record(t0 + i * (SECOND / 10))) // 7.1 s of 10 a second
            {
                lines++;
            }
        }
        assertEquals(0, lines, "within the interval nothing is logged");
        assertEquals(71, log.pending());
        assertTrue(log.record(t0 + 10 * SECOND));
        assertEquals(72, log.takeCount(), "the line counts what it stands for");
        assertEquals(10_000, log.windowMillis(t0 + 10 * SECOND));
        assertFalse(log.record(t0 + 11 * SECOND));
    }

    @Test
    void countsAddUpAcrossThreads() throws Exception
    {
        final RateLimitedLog log = new RateLimitedLog(1_000_000L); // 1 ms
        final long[] logged = new long[4];
        final Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++)
        {
            final int me = t;
            threads[t] = new Thread(() ->
            {
                for (int i = 0; i < 100_000; i++)
                {
                    if (log.record(System.nanoTime()))
                    {
                        logged[me] += log.takeCount();
                    }
                }
            });
            threads[t].start();
        }
        long total = 0;
        for (int t = 0; t < threads.length; t++)
        {
            threads[t].join(60_000);
            total += logged[t];
        }
        assertEquals(400_000, total + log.pending());
    }

    @Test
    void aNonPositiveIntervalIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new RateLimitedLog(0));
    }
}
