package dev.framewire.core;

/**
 * How a subgraph left a running graph ({@link Graph#removeSubgraph}): whether it drained, and the
 * packets it dropped on the way out, so that every packet it was given is either delivered or
 * counted here.
 *
 * @param name           the subgraph's name.
 * @param drained        true if every node closed after processing all its input (the drain
 *                       finished within its deadline); false if it was cancelled.
 * @param droppedPackets packets its nodes dropped over the subgraph's life: by their input
 *                       policies or calculators, as {@link Graph#dropCount(String)} counts, and at
 *                       removal every packet still queued on its inputs or emitted by a cancelled
 *                       node's {@code close}.
 */
public record SubgraphRemoval(String name, boolean drained, long droppedPackets)
{
}
