package dev.framewire.journal;

import dev.framewire.core.journal.JournalSink;
import dev.framewire.core.journal.WorkerJournal;

/**
 * The layout of a {@link WorkerRing}: the fields its worker writes per call ({@link Fields})
 * between lines of padding, by inheritance ({@link Pad0}, {@link Pad1}); see WorkerRingLayoutTest.
 *
 * <p>Threading: the fields are the ring owner's, as {@link WorkerRing} says.
 */
final class WorkerRingLayout
{
    private WorkerRingLayout()
    {
    }

    abstract static class Pad0 extends WorkerJournal
    {
        Pad0(final JournalSink sink, final int workerId)
        {
            super(sink, workerId);
        }

        byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
        byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
        byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
        byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
    }

    abstract static class Fields extends Pad0
    {
        Fields(final JournalSink sink, final int workerId)
        {
            super(sink, workerId);
        }

        /**
         * The thread whose calls go on this ring: null until the first thread journals with the
         * worker's id, then that thread for good. Written once, under the {@link JournalRings}
         * lock (claimRing); read plainly on the hot path: a reader that sees null takes
         * the lock and sees the owner, one that sees a thread sees the only one there will be.
         */
        Thread owner;
        // The worker's call in progress, not in the ring yet: it is staged as one entry when it
        // ends. The owner's fields alone; see processBegin.
        boolean callOpen;
        int callNode;
        long callTimestamp;
        long callNanos;
        /**
         * The worker's last clock reading: a call's begin, or when its staged calls went. Under
         * {@link JournalConfig.ClockReads#HAND_OVER} a same-worker call begins at it, unless the
         * worker idled since (readingStale).
         */
        long reading;
        /** Whether the worker idled since its last reading, or has none yet: its next call reads the clock. */
        boolean readingStale = true;
        /** The call's first packet emitted at its input timestamp, folded into its entry; -1: none. */
        int emitStream = -1;
        int emitKind;
        long emitValue;
        int stagedCalls;
        /** The staged message's bytes so far, header included. */
        int stagedLength = JournalDescriptor.PACKED_ENTRIES_OFFSET;
        /** Writes the staged entries: what the next one is a difference from, and what it repeats. */
        final DenseCallsEncoder entries = new DenseCallsEncoder();
    }

    abstract static class Pad1 extends Fields
    {
        Pad1(final JournalSink sink, final int workerId)
        {
            super(sink, workerId);
        }

        byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
        byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
        byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
        byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;
    }
}
