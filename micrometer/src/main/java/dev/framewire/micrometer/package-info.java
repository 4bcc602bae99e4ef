/**
 * Framewire's metrics in a service's own Micrometer registry: {@link dev.framewire.micrometer.FramewireMetrics}
 * binds a graph's counters (packets, drops, queues, calls, off-heap memory, end-to-end latency).
 */
package dev.framewire.micrometer;
