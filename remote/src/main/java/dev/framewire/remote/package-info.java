/**
 * Graph streams across processes and hosts over Aeron: {@link dev.framewire.remote.AeronPublisherCalculator}
 * publishes a stream (packets, timestamp bounds, close) to an Aeron channel and stream id, and
 * {@link dev.framewire.remote.AeronSubscriberCalculator} gives it back as a source in another graph.
 * The message layout is {@code RemoteDescriptor}'s, drawn in docs/REMOTE.md.
 */
package dev.framewire.remote;
