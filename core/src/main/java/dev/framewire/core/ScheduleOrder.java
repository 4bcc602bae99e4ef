package dev.framewire.core;

/**
 * The order in which a worker runs its ready nodes, chosen per graph.
 */
public enum ScheduleOrder
{
    /**
     * MediaPipe's order: nodes still to open first; then nodes with inputs before sources, and
     * among them the one later in topological order first, so work drains towards the outputs;
     * sources last, by source layer, then by their next output timestamp.
     */
    MEDIAPIPE,
    /** BMF's order: lower input timestamp first, then lower node id. */
    BMF,
    /**
     * Seed 004's completion pressure (Mode A): the node whose inputs free the most off-heap bytes
     * first. A node's pressure is what one run frees: the sum over its inputs of the next packet's
     * payload bytes divided by the references still held on it (fan-out dilution, the last
     * consumer of a shared payload getting all of it), doubled for full queues while the pool is
     * over its soft limit; it is re-evaluated when a worker takes nodes, the best of its top three.
     * Linear chains are followed depth first, so working memory stays narrow. Sources last.
     */
    COMPLETION_PRESSURE
}
