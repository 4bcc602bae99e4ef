package dev.framewire.core.internal.sched;

import dev.framewire.core.internal.node.Lane;
import dev.framewire.core.internal.queue.ParkHandshake;

abstract class WorkerPad0 extends ParkHandshake
{
    byte p200, p201, p202, p203, p204, p205, p206, p207, p208, p209, p210, p211, p212, p213, p214, p215;
    byte p216, p217, p218, p219, p220, p221, p222, p223, p224, p225, p226, p227, p228, p229, p230, p231;
    byte p232, p233, p234, p235, p236, p237, p238, p239, p240, p241, p242, p243, p244, p245, p246, p247;
    byte p248, p249, p250, p251, p252, p253, p254, p255, p256, p257, p258, p259, p260, p261, p262, p263;
}

/**
 * The fields a {@link Worker} writes per run, between lines of padding ({@link WorkerPad0} before,
 * {@link WorkerPad1} after), away from the park handshake's fields, which its producers read.
 */
abstract class WorkerFields extends WorkerPad0
{
    /** Node runs so far; written by this worker only. */
    public volatile long runs;
    /** How many of {@link Worker}'s sources wait out a backoff after failed calls ({@link SourceRetry}); worker only. */
    public int backingOff;
    /** Whether the last duty cycle did work; worker only. */
    public boolean busy;
    /** The polled queues that {@link PolledInputs#poll(Worker)} found changed in this duty cycle; worker only. */
    public int inputsSeen;
    /**
     * The id of the node of the call in progress ({@link #calling}) or of the last one, for
     * reports, which look the node up ({@link Worker#current()}); -1 before the first. An
     * {@code int}, not the node: a worker running several nodes in turn would otherwise store a
     * reference per run, and under G1 each costs the write barrier's fence once the graph is in
     * the old generation (docs/ARCHITECTURE.md, "Rules the code keeps"). Stored only when it changes.
     */
    public volatile int calledId = -1;
    /** Whether the worker is in a node's step now; {@link Worker#current()} reads it first. */
    public volatile boolean calling;
    /** When {@link #calledId} is in a {@code max_in_flight} call: that call, for reports. */
    public volatile Lane currentLane;
    /**
     * Who may touch this worker's inbox and heap now, on a {@code STEALING} executor
     * ({@link WorkStealing}): {@link WorkStealing#OWNER} outside calls, {@link WorkStealing#FREE}
     * while the worker is in a call (a sibling may then take a queued node), {@link WorkStealing#THIEF}
     * while a sibling does. Always {@code OWNER} on a {@code PINNED} executor.
     */
    volatile int queueLock = WorkStealing.OWNER;
    /** Whether this worker holds {@link #queueLock} itself now; its own thread only. */
    boolean ownsQueues = true;
    /** When this worker last looked at its siblings' queues to steal from them ({@code System.nanoTime}); worker only. */
    long lastStealLook;
}

abstract class WorkerPad1 extends WorkerFields
{
    byte p300, p301, p302, p303, p304, p305, p306, p307, p308, p309, p310, p311, p312, p313, p314, p315;
    byte p316, p317, p318, p319, p320, p321, p322, p323, p324, p325, p326, p327, p328, p329, p330, p331;
    byte p332, p333, p334, p335, p336, p337, p338, p339, p340, p341, p342, p343, p344, p345, p346, p347;
    byte p348, p349, p350, p351, p352, p353, p354, p355, p356, p357, p358, p359, p360, p361, p362, p363;
}
