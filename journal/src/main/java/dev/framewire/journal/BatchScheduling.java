package dev.framewire.journal;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;

/**
 * Puts the calling thread under Linux's {@code SCHED_BATCH} scheduling policy: the journal agent's
 * thread, so that its wake-ups (every 100 µs or so under load, see {@link PacedIdleStrategy}) do not
 * preempt a worker. The thread keeps its nice value and its share of the CPU; the scheduler only
 * stops treating it as interactive. The call goes through JNA, which OpenHFT affinity already brings
 * for pinning workers: no JNI of our own, and neither Java nor Agrona can set a thread's policy.
 *
 * <p>Measured on B5's journaled chain (2 vCPUs, docs/BENCHMARKS.md): the agent woke onto the
 * worker's core and took it for its duty cycle; under {@code SCHED_BATCH} it waits for the core the
 * adding thread yields.
 *
 * <p>Threading: {@link #applyToCurrentThread()} on the thread to change (the agent, at its start).
 */
final class BatchScheduling
{
    /** Linux's {@code SCHED_BATCH} ({@code sched.h}). */
    private static final int SCHED_BATCH = 3;

    /** The C library's {@code sched_setscheduler}; {@code struct sched_param} is one int. */
    private interface CLibrary extends Library
    {
        int sched_setscheduler(int pid, int policy, int[] param);
    }

    private BatchScheduling()
    {
    }

    /**
     * Puts the calling thread under {@code SCHED_BATCH} at priority 0 (the only one the policy has).
     *
     * @return null when done; otherwise why not, for a log line.
     */
    static String applyToCurrentThread()
    {
        try
        {
            if (!Platform.isLinux())
            {
                return "SCHED_BATCH is Linux's, and this is " + System.getProperty("os.name");
            }
            final CLibrary c = Native.load(Platform.C_LIBRARY_NAME, CLibrary.class);
            // pid 0: the calling thread (a task of its own on Linux), not the whole process
            if (c.sched_setscheduler(0, SCHED_BATCH, new int[]{0}) != 0)
            {
                return "sched_setscheduler(SCHED_BATCH) failed, errno " + Native.getLastError();
            }
            return null;
        }
        catch (final LinkageError ex)
        {
            return "JNA is not available (" + ex + "); it comes with net.openhft:affinity";
        }
    }
}
