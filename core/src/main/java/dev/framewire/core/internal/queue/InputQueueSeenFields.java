package dev.framewire.core.internal.queue;

import dev.framewire.core.Timestamp;

/*
 * The fields of an {@link InputQueue} that a polled queue's worker writes and idle checks read,
 * after a line of padding; the backpressure handshake's follow ({@link InputQueueRoomFields}).
 * Padding classes as JCTools and Agrona pad.
 */

abstract class InputQueuePad0
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

abstract class InputQueueSeenFields extends InputQueuePad0
{
    /** For a {@link InputQueue#polled} queue: the tail its worker last saw (release; read by idle checks). */
    volatile long seenTail;
    /**
     * For a {@link InputQueue#polled} queue: the stored bound (the ring's producer word) its worker
     * last saw (release; read by idle checks). A bound a packet implies comes with the packet.
     */
    volatile long seenWord = Timestamp.PRE_STREAM;
}
