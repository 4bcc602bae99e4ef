/**
 * The seeds' own scheduler design, as a baseline for the core benchmarks: each worker a thread
 * with a {@link java.util.concurrent.locks.ReentrantLock}-guarded {@link java.util.PriorityQueue}
 * of ready nodes and a {@link java.util.concurrent.locks.Condition} to wait on (BMF's
 * {@code SchedulerQueue}, MediaPipe's {@code SchedulerQueue} over its {@code ThreadPool}), and
 * mutex-guarded input queues (MediaPipe's {@code InputStreamManager}, BMF's {@code SafeQueue}).
 * Small on purpose; it does the same pass-through work as the Framewire graph it is compared with.
 */
package dev.framewire.bench.core.baseline;
