package dev.framewire.core;

import dev.framewire.core.internal.handler.DefaultSync;
import dev.framewire.core.internal.handler.SingleInputSync;
import dev.framewire.core.internal.handler.SyncGroup;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.queue.PacketSlot;
import dev.framewire.core.internal.sched.Worker;
import dev.framewire.core.internal.stream.InputPort;
import dev.framewire.core.internal.stream.OutputStream;

import org.agrona.UnsafeApi;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The fields a thread writes per packet sit at least a cache line (64 bytes) inside their object
 * at both ends, as the JVM running the test lays them out: no object placed beside them by the
 * allocator or a collection can share their lines. Without that the B1 hop ran 1.3-1.8x slower in
 * about half its forks (docs/BENCHMARKS.md, seventh session). The padding is by inheritance, which
 * HotSpot keeps in order (a superclass's fields before a subclass's); this test catches a JVM that
 * does not.
 */
class HotFieldLayoutTest
{
    private static final int LINE = 64;

    @Test
    void aPortsPacketFieldsHaveLinesOfTheirOwn()
    {
        assertPadded(InputPort.class, "timestamp", "value", "word", "held", "passed");
        assertPadded(PacketSlot.class, "timestamp", "value", "word", "held", "passed");
    }

    @Test
    void theSyncsWrittenFieldsHaveLinesOfTheirOwn()
    {
        assertPadded(SingleInputSync.class, "pending", "keptTimestamp", "seenEmpty");
        assertPadded(DefaultSync.class, "pending", "keptTimestamp", "seenEmpty");
        assertPadded(SyncGroup.class, "lastProcessed", "minStreamTimestamp");
    }

    @Test
    void anOutputsWrittenFieldsHaveLinesOfTheirOwn()
    {
        assertPadded(OutputStream.class, "bound", "lastTimestamp", "publishedBound", "publishedLast", "staged", "firstTimestamp",
            "firstValue", "firstWord", "delivered");
    }

    @Test
    void aNodesWorkerFieldsAreAwayFromItsStateAndItsNeighbours()
    {
        final String[] hot = {"inputTimestamp", "drops", "calls", "callNanos", "shipmentBytes", "priority1", "priority2", "heapSlot", "runningOn"};
        assertPadded(Node.class, hot);
        assertApart(Node.class, "state", hot);
        assertWithinALine(Node.class, hot);
    }

    @Test
    void aWorkersOwnFieldsAreAwayFromItsParkHandshake()
    {
        final String[] hot = {"runs", "backingOff", "busy", "inputsSeen", "calledId", "calling", "currentLane"};
        assertPadded(Worker.class, hot);
        assertApart(Worker.class, "parked", hot);
        assertApart(Worker.class, "thread", hot);
        assertPadded(Worker.class, "parked", "thread");
    }

    /** The named fields lie at least a line from the object's first byte and from its last. */
    private static void assertPadded(final Class<?> type, final String... names)
    {
        final List<Field> fields = instanceFields(type);
        long end = 0;
        for (final Field f : fields)
        {
            end = Math.max(end, UnsafeApi.objectFieldOffset(f) + size(f));
        }
        for (final String name : names)
        {
            final Field f = field(fields, type, name);
            final long at = UnsafeApi.objectFieldOffset(f);
            assertTrue(at >= LINE, type.getSimpleName() + "." + name + " is at byte " + at +
                ", within a line of the object's start: " + layout(fields));
            assertTrue(end - (at + size(f)) >= LINE, type.getSimpleName() + "." + name + " ends at byte " +
                (at + size(f)) + " of " + end + ", within a line of the object's end: " + layout(fields));
        }
    }

    /**
     * The named fields take at most a line's bytes from the first to the end of the last, so a
     * run touches no more lines of them than it must. The heap's slot and a flag, first added
     * beside the heap index the slot later replaced, pushed the node's past it, and the hop took
     * about 5 ns longer (docs/BENCHMARKS.md, tenth session).
     */
    private static void assertWithinALine(final Class<?> type, final String... names)
    {
        final List<Field> fields = instanceFields(type);
        long first = Long.MAX_VALUE;
        long end = 0;
        for (final String name : names)
        {
            final Field f = field(fields, type, name);
            first = Math.min(first, UnsafeApi.objectFieldOffset(f));
            end = Math.max(end, UnsafeApi.objectFieldOffset(f) + size(f));
        }
        assertTrue(end - first <= LINE, type.getSimpleName() + "'s fields " + String.join(", ", names) + " span " +
            (end - first) + " bytes, more than a line: " + layout(fields));
    }

    /** The named fields lie at least a line from {@code shared}: never on its line. */
    private static void assertApart(final Class<?> type, final String shared, final String... names)
    {
        final List<Field> fields = instanceFields(type);
        final long sharedAt = UnsafeApi.objectFieldOffset(field(fields, type, shared));
        for (final String name : names)
        {
            final long at = UnsafeApi.objectFieldOffset(field(fields, type, name));
            assertTrue(Math.abs(at - sharedAt) >= LINE, type.getSimpleName() + "." + name + " at byte " + at +
                " is within a line of " + shared + " at byte " + sharedAt + ": " + layout(fields));
        }
    }

    private static List<Field> instanceFields(final Class<?> type)
    {
        final List<Field> fields = new ArrayList<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass())
        {
            for (final Field f : c.getDeclaredFields())
            {
                if (!Modifier.isStatic(f.getModifiers()))
                {
                    fields.add(f);
                }
            }
        }
        return fields;
    }

    private static Field field(final List<Field> fields, final Class<?> type, final String name)
    {
        for (final Field f : fields)
        {
            if (f.getName().equals(name))
            {
                return f;
            }
        }
        return fail(type.getSimpleName() + " has no field " + name);
    }

    private static long size(final Field f)
    {
        final Class<?> t = f.getType();
        if (t == long.class || t == double.class)
        {
            return 8;
        }
        if (t == int.class || t == float.class)
        {
            return 4;
        }
        if (t == short.class || t == char.class)
        {
            return 2;
        }
        if (t == byte.class || t == boolean.class)
        {
            return 1;
        }
        return UnsafeApi.arrayIndexScale(Object[].class); // a reference: 4 with compressed oops, else 8
    }

    private static String layout(final List<Field> fields)
    {
        final StringBuilder b = new StringBuilder();
        fields.stream()
            .filter(f -> !f.getName().matches("p\\d{3}"))
            .sorted((x, y) -> Long.compare(UnsafeApi.objectFieldOffset(x), UnsafeApi.objectFieldOffset(y)))
            .forEach(f -> b.append(f.getName()).append('@').append(UnsafeApi.objectFieldOffset(f)).append(' '));
        return b.toString().trim();
    }
}
