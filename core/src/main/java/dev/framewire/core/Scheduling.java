package dev.framewire.core;

/**
 * How an executor's workers share its nodes (docs/EXECUTORS.md).
 */
public enum Scheduling
{
    /**
     * Each node is pinned to one worker of its executor for the whole run (BMF's scheduler queues):
     * its calls run on that thread, which keeps its caches warm and needs no lock, but a node ready
     * while its worker is in a long call waits for that call even when a sibling is idle. The
     * default.
     */
    PINNED,
    /**
     * Each node has a home worker, but a worker out of work takes a queued node from a sibling that
     * is in a call and runs it (work stealing), as MediaPipe's thread pool runs a ready node on any
     * idle thread. A node still never runs on two threads at once, and its calls stay in timestamp
     * order. Sources and {@code max_in_flight} nodes are not stolen (the latter share the executor's
     * queues already). Costs a lock hand-over per call on the executor's workers.
     */
    STEALING
}
