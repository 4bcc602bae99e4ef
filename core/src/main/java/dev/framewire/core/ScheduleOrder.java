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
    BMF
}
