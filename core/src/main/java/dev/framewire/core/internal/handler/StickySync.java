package dev.framewire.core.internal.handler;

import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.stream.InputPort;

abstract class StickySyncPad0 extends InputSync
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;

    StickySyncPad0(final InputPort[] ports, final boolean processBounds)
    {
        super(ports, processBounds);
    }
}

abstract class StickySyncFields extends StickySyncPad0
{
    /** Sticky readiness: the timestamp found ready until {@code fill} takes it, or {@link InputSync#NOT_READY}. */
    public long pending = InputSync.NOT_READY;
    /** {@link DefaultSync}'s, under fixed size: the sticky timestamp below which packets are dropped. */
    public long keptTimestamp = Timestamp.UNSET;
    /** {@link SingleInputSync}'s hint: its queue was seen empty and open after the last fill. */
    public boolean seenEmpty;

    StickySyncFields(final InputPort[] ports, final boolean processBounds)
    {
        super(ports, processBounds);
    }
}

/**
 * The base of the syncs a node's worker asks per packet ({@link SingleInputSync}, {@link DefaultSync}):
 * the fields they write per packet, between cache lines of padding (by inheritance), so that no
 * object the allocator puts beside a sync shares a line that moves per packet.
 *
 * <p>Threading: the node's worker only.
 */
public abstract class StickySync extends StickySyncFields
{
    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;

    public StickySync(final InputPort[] ports, final boolean processBounds)
    {
        super(ports, processBounds);
    }
}
