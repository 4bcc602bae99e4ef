package dev.framewire.journal;

import org.agrona.UnsafeApi;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A worker ring's per-call fields sit at least a cache line (64 bytes) inside the ring object at
 * both ends, as the JVM running the test lays them out (core's HotFieldLayoutTest checks the
 * engine's objects the same way).
 */
class WorkerRingLayoutTest
{
    private static final int LINE = 64;

    @Test
    void theWorkersPerCallFieldsHaveLinesOfTheirOwn()
    {
        final List<Field> fields = new ArrayList<>();
        for (Class<?> c = WorkerRing.class; c != null; c = c.getSuperclass())
        {
            for (final Field f : c.getDeclaredFields())
            {
                if (!Modifier.isStatic(f.getModifiers()))
                {
                    fields.add(f);
                }
            }
        }
        long last = 0; // the last field's first byte: the object ends after it
        for (final Field f : fields)
        {
            last = Math.max(last, UnsafeApi.objectFieldOffset(f));
        }
        int hot = 0;
        for (final Field f : WorkerRingLayout.Fields.class.getDeclaredFields())
        {
            final long at = UnsafeApi.objectFieldOffset(f);
            assertTrue(at >= LINE, "WorkerRing." + f.getName() + " is at byte " + at + ", within a line of the ring's start");
            // no field is longer than 8 bytes: this one ends by at + 8, the object after last + 1
            assertTrue(last + 1 - (at + 8) >= LINE, "WorkerRing." + f.getName() + " is at byte " + at +
                ", within a line of the ring's end (its last field is at byte " + last + ")");
            hot++;
        }
        assertTrue(hot >= 10, "the per-call fields are in WorkerRingFields: " + hot + " there");
    }
}
