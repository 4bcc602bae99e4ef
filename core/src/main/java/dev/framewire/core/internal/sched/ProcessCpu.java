package dev.framewire.core.internal.sched;

import java.lang.management.ManagementFactory;

/**
 * The CPU time this process has used, all its threads together ({@code getProcessCpuTime} of the
 * JDK's {@code com.sun.management.OperatingSystemMXBean}: no allocation, about 0.5 µs a call, and
 * on Linux a resolution of 10 ms). A {@code PARK} worker reads it only after a yield that took
 * long ({@link ParkingIdleStrategy}), and at most every 100 ms, to tell whether the cores went to
 * the graph's own threads or to other processes.
 *
 * <p>Threading: any thread.
 */
final class ProcessCpu
{
    private static final com.sun.management.OperatingSystemMXBean OS = bean();

    private ProcessCpu()
    {
    }

    /**
     * CPU time used so far.
     *
     * @return nanoseconds, or -1 where the JVM cannot tell.
     */
    static long nanos()
    {
        return OS == null ? -1 : OS.getProcessCpuTime();
    }

    private static com.sun.management.OperatingSystemMXBean bean()
    {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os ?
            os : null;
    }
}
