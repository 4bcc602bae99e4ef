/**
 * Off-heap payload memory: pools of 64-byte aligned slabs cut into slots by size class,
 * reference-counted {@link dev.framewire.offheap.Payload}s with copy-on-write, one
 * {@link dev.framewire.offheap.MemoryBudget} across all pools, and leak and
 * use-after-release detection.
 *
 * <p>The vocabulary: a <em>slab</em> is one aligned direct allocation; a <em>slot</em> is a
 * fixed-size piece of a slab; a <em>payload</em> is what a slot holds while it is acquired,
 * with its reference count (seed 004's warehouse consumer counter). Every public type is
 * safe to share across threads unless its javadoc says otherwise.
 */
package dev.framewire.offheap;
