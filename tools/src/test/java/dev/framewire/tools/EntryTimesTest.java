package dev.framewire.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class EntryTimesTest
{
    @Test
    void findsWhatWasRecordedAndNothingElse()
    {
        final EntryTimes times = new EntryTimes("s");
        assertEquals(-1, times.lookup(0));
        for (long i = 0; i < 100; i++)
        {
            times.record(i * 10, 1000 + i);
        }
        assertEquals(100, times.packets());
        assertEquals(1000, times.lookup(0));
        assertEquals(1050, times.lookup(500));
        assertEquals(1099, times.lookup(990));
        assertEquals(-1, times.lookup(5));
        assertEquals(-1, times.lookup(1000));
        assertEquals(-1, times.lookup(-10));
    }

    @Test
    void remembersTheLastCapacityLessOne()
    {
        final EntryTimes times = new EntryTimes("s");
        final int n = 3 * EntryTimes.CAPACITY + 17;
        for (long i = 0; i < n; i++)
        {
            times.record(i, i * 3);
        }
        assertEquals(-1, times.lookup(n - EntryTimes.CAPACITY), "the slot the writer rewrites next is not trusted");
        assertEquals((n - EntryTimes.CAPACITY + 1) * 3L, times.lookup(n - EntryTimes.CAPACITY + 1));
        assertEquals((n - 1) * 3L, times.lookup(n - 1));
        assertEquals(-1, times.lookup(0));
    }

    /** A reader racing the writer gets the right time or a miss, never another timestamp's time. */
    @Test
    void aReaderRacingTheWriterNeverGetsAWrongTime() throws Exception
    {
        final EntryTimes times = new EntryTimes("s");
        final long total = 2_000_000;
        final AtomicReference<String> wrong = new AtomicReference<>();
        final AtomicLong hits = new AtomicLong();
        final Thread reader = new Thread(() ->
        {
            final ThreadLocalRandom random = ThreadLocalRandom.current();
            while (times.packets() < total && wrong.get() == null)
            {
                final long published = times.packets();
                if (published == 0)
                {
                    continue;
                }
                // mostly recent timestamps, sometimes ones about to be overwritten
                final long back = random.nextLong(Math.min(published, 2L * EntryTimes.CAPACITY)) + 1;
                final long ts = (published - back) * 7;
                final long nanos = times.lookup(ts);
                if (nanos >= 0)
                {
                    hits.incrementAndGet();
                    if (nanos != ts * 3 + 1)
                    {
                        wrong.set("timestamp " + ts + " gave " + nanos);
                    }
                }
            }
        });
        reader.start();
        for (long i = 0; i < total; i++)
        {
            times.record(i * 7, i * 21 + 1);
        }
        reader.join();
        assertNull(wrong.get());
        assertTrue(hits.get() > 0);
    }
}
