package dev.framewire.core;

/**
 * Receives every packet of a stream, on the worker that produced it, when the producing call
 * returns. It must be quick and must not block: it runs on the hot path. Nothing is allocated
 * per call; the {@link Packet} view is reused.
 */
@FunctionalInterface
public interface PacketObserver
{
    /**
     * One packet.
     *
     * @param packet a view valid during this call only.
     * @throws Exception to fail the run, as a calculator failure of the producing node.
     */
    void onPacket(Packet packet) throws Exception;
}
