package dev.framewire.core.internal.queue;


import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A slot emptied after a {@code long} or {@code double} packet keeps its marker, so that the next
 * such packet stores no reference (see {@link PacketSlot#set}), and still answers as empty in every
 * accessor; an object or payload is let go.
 */
class PacketSlotTest
{
    @Test
    void anEmptiedSlotIsEmptyThoughItKeepsALongsMarker()
    {
        final PacketSlot slot = new PacketSlot("s");
        slot.set(7, InputQueue.LONG, 42);
        assertFalse(slot.isEmpty());
        assertTrue(slot.isLong());
        assertEquals(42, slot.getLong());

        slot.clear();
        assertSame(InputQueue.LONG, slot.value, "the marker stays: the next long packet stores no reference");
        assertTrue(slot.isEmpty());
        assertFalse(slot.isLong());
        assertFalse(slot.isDouble());
        final IllegalStateException ex = assertThrows(IllegalStateException.class, slot::getLong);
        assertEquals("stream 's' has no packet at timestamp 7", ex.getMessage());
        assertThrows(IllegalStateException.class, slot::value);
        assertTrue(slot.toString().endsWith("= empty"), slot.toString());

        slot.set(8, InputQueue.LONG, 43);
        assertEquals(43, slot.getLong());
        slot.set(9, InputQueue.DOUBLE, Double.doubleToRawLongBits(1.5));
        assertTrue(slot.isDouble());
        assertEquals(1.5, slot.getDouble());
        slot.set(10, null, 0);
        assertTrue(slot.isEmpty(), "a null value is an empty slot");
        assertFalse(slot.isDouble());
    }

    @Test
    void anEmptiedSlotLetsGoOfAnObject()
    {
        final PacketSlot slot = new PacketSlot("s");
        slot.set(1, "frame", 0);
        assertEquals("frame", slot.get(String.class));
        slot.clear();
        assertNull(slot.value, "the slot must not keep an object reachable");
        assertTrue(slot.isEmpty());
    }
}
