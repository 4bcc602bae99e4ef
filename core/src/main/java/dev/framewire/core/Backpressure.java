package dev.framewire.core;

/**
 * What a full input queue holds back.
 */
public enum Backpressure
{
    /**
     * MediaPipe's rule: the sources and graph inputs upstream of the full queue's producer wait;
     * nodes in between keep running, so queues can pass their limit by what is already in flight.
     */
    SOURCES,
    /**
     * BMF's stricter rule as well: any node with a full downstream queue waits too, so memory is
     * bounded at every stream.
     */
    ALL_NODES
}
