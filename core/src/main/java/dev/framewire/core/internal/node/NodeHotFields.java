package dev.framewire.core.internal.node;

import dev.framewire.core.Timestamp;

/**
 * The fields a {@link Node}'s worker writes per call, after the schedule state's padding and before a
 * line of their own ({@link NodeHotPad}): see {@link Node}'s layout note. {@code HotFieldLayoutTest}
 * checks the layout the JVM gives.
 */
abstract class NodeHotFields extends ScheduleState
{
    /*
     * The diagnostics fields below are written by the worker with opaque stores (a plain move on
     * x86, never elided) rather than volatile ones (a fence each, several per packet), and read
     * by reports and the watchdog from other threads: a benign race, they are for diagnostics.
     */
    public volatile long inputTimestamp = Timestamp.UNSET;
    /** Packets this node's policy or calculator dropped; written by its worker only. By reason: {@link Node#dropRecords}. */
    public volatile long drops;
    /** Calls so far: input sets processed, or shipments for a source. Written by the worker only. */
    public volatile long calls;
    /**
     * Nanoseconds spent in {@code process} so far, when the graph times calls
     * ({@link Graph#timeProcessCalls()}); written by the node's step only (opaque), read by
     * {@link GraphStats}.
     */
    public long callNanos;
    /** A source's payload bytes (at slot size) emitted in the current call; worker only. */
    public long shipmentBytes;
    /** Heap keys, computed by the worker when the node is queued ({@link NodeHeap}). */
    public long priority1;
    public long priority2;
    /**
     * The node's slot in its worker's {@link NodeHeap}, which the heap holds for it; -1 for none
     * yet. Worker only: read at every queueing, written only when the node first takes a slot.
     */
    public int heapSlot = -1;
    /** The worker running the node's current step: {@link Node#worker}, or with lanes any of the executor's. */
    public NodeThread runningOn;
}

abstract class NodeHotPad extends NodeHotFields
{
    byte p200, p201, p202, p203, p204, p205, p206, p207, p208, p209, p210, p211, p212, p213, p214, p215;
    byte p216, p217, p218, p219, p220, p221, p222, p223, p224, p225, p226, p227, p228, p229, p230, p231;
    byte p232, p233, p234, p235, p236, p237, p238, p239, p240, p241, p242, p243, p244, p245, p246, p247;
    byte p248, p249, p250, p251, p252, p253, p254, p255, p256, p257, p258, p259, p260, p261, p262, p263;
}
