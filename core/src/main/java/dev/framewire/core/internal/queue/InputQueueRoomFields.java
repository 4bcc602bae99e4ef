package dev.framewire.core.internal.queue;

/*
 * The backpressure handshake's fields of an {@link InputQueue} (the room-wanted flag, the count of
 * room handed out, the limit mark), which held-back threads read while packets flow: on lines of
 * their own, between padding after the polled queue's seen marks ({@link InputQueueSeenFields}) and
 * padding before the queue's own fields.
 */

abstract class InputQueuePad2 extends InputQueueSeenFields
{
    byte p200, p201, p202, p203, p204, p205, p206, p207, p208, p209, p210, p211, p212, p213, p214, p215;
    byte p216, p217, p218, p219, p220, p221, p222, p223, p224, p225, p226, p227, p228, p229, p230, p231;
    byte p232, p233, p234, p235, p236, p237, p238, p239, p240, p241, p242, p243, p244, p245, p246, p247;
    byte p248, p249, p250, p251, p252, p253, p254, p255, p256, p257, p258, p259, p260, p261, p262, p263;
}

abstract class InputQueueRoomFields extends InputQueuePad2
{
    /**
     * Set by a thread held back by this queue (see {@link InputQueue#wantsRoom()}), cleared by the
     * consumer's {@link InputQueue#pop()} that finds room: only then does a pop read the producer's tail.
     */
    public volatile boolean roomWanted;
    /**
     * Times room was handed out (a pop after the flag, or a raised limit): what a held-back thread
     * watches instead of the queue's head and tail ({@link HeldBack}). Written by the consumer, and
     * by deadlock avoidance once the workers are idle.
     */
    public volatile long roomSignals;
    /**
     * Whether the queue held its limit or more when its producer last offered to it: written by the
     * producer only when that changes, so the threads it holds back ({@link InputQueue#atLimit()})
     * read a line that stays put while packets flow, not the producer's tail, which moves per packet.
     */
    volatile boolean limitReached;
}

abstract class InputQueuePad3 extends InputQueueRoomFields
{
    byte p300, p301, p302, p303, p304, p305, p306, p307, p308, p309, p310, p311, p312, p313, p314, p315;
    byte p316, p317, p318, p319, p320, p321, p322, p323, p324, p325, p326, p327, p328, p329, p330, p331;
    byte p332, p333, p334, p335, p336, p337, p338, p339, p340, p341, p342, p343, p344, p345, p346, p347;
    byte p348, p349, p350, p351, p352, p353, p354, p355, p356, p357, p358, p359, p360, p361, p362, p363;
}
