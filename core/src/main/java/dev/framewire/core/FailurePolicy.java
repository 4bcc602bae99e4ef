package dev.framewire.core;

/**
 * What a graph does when a calculator throws, chosen per graph.
 */
public enum FailurePolicy
{
    /**
     * Stop every node, release every payload, and fail the run: {@link Graph#waitUntilDone()}
     * throws with the node, the input timestamp and the cause (MediaPipe's and BMF's behaviour).
     * The default.
     */
    FAIL_RUN,
    /**
     * The failed node stays failed for the run; every node that loses the last live producer of
     * an input socket is blocked, transitively (breadth first); blocked nodes never run and their
     * queued payloads are released at once; independent branches keep running. The run ends when
     * the rest is done, and {@link Graph#waitUntilDone()} reports every failure and every blocked
     * node. Inputs of a node that share a tag ({@code IMAGE:0:a}, {@code IMAGE:1:b}) form one
     * socket, alive while any of them has a live producer; every other input is a socket of its own.
     */
    ISOLATE,
    /**
     * For live cameras, where one bad frame must not stop the service: the failing input set is
     * dropped, the node's output bounds move past its timestamp, and the run goes on. Failures are
     * counted and kept ({@link Graph#failures()}) with node, timestamp and cause, and the dropped
     * packets in {@link Graph#dropCount(String)}. A failure in {@code open} still fails the run (the
     * node cannot run at all). A source has no input set: what its failed call emitted is dropped
     * and it is called again, at once, then after waits growing from 1 ms to 100 ms; its tenth
     * failed call in a row fails the run, and so does its first when calling again cannot help (a
     * class that failed to load): see {@code SourceRetry}. A frame too large for the pool (over its
     * largest slot, or a slot over the hard limit: {@link MemoryLimitException}) is that frame's
     * failure: the frames its call made before it go out, its timestamp is dropped and counted, and
     * the source is called again (the image folder source goes on with its next file). A source's
     * failure is reported at the timestamp its call was making: the least bound of its outputs.
     */
    DROP_TIMESTAMP
}
