package dev.framewire.journal;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;

import java.util.function.IntUnaryOperator;

/**
 * The journal agent's scheduling policy on Linux: {@code SCHED_BATCH} while it keeps up, so that its
 * wake-ups (every 100 µs or so under load, see {@link PacedIdleStrategy}) do not preempt a worker;
 * the default policy while it catches up ({@link #cycle}). Under either the thread keeps its nice
 * value and its share of the CPU; {@code SCHED_BATCH} only stops the scheduler treating it as
 * interactive. The calls go through JNA, which OpenHFT affinity already brings for pinning workers:
 * no JNI of our own, and neither Java nor Agrona can set a thread's policy.
 *
 * <p>Measured on B5's journaled chain (2 vCPUs, docs/BENCHMARKS.md): the agent woke onto the
 * worker's core and took it for its duty cycle; under {@code SCHED_BATCH} it waits for the core the
 * adding thread yields. With the two cores busy it can wait long enough for a ring to fill, hence
 * the way back. The journal asks for this when its {@code agentBatchScheduling} is set, on by
 * default since the rings are 4 MiB: with 1 MiB rings the way back did not always come in time.
 *
 * <p>Threading: {@link #load()} on any thread, before the agent starts: loading JNA's native library
 * takes tens of milliseconds in a cold JVM, in which an agent that had not started draining would
 * let a fast run fill its rings. The rest on the agent's thread, whose policy it sets.
 */
final class BatchScheduling
{
    /** Linux's {@code SCHED_OTHER}, the default policy ({@code sched.h}). */
    private static final int SCHED_OTHER = 0;
    /** Linux's {@code SCHED_BATCH} ({@code sched.h}). */
    private static final int SCHED_BATCH = 3;
    /**
     * Cycles in a row that must find every ring nearly empty (under an eighth, see
     * {@link JournalAgent}) before the agent steps back again.
     */
    static final int CALM_CYCLES = 16;

    /** The C library's {@code sched_setscheduler}; {@code struct sched_param} is one int. */
    private interface CLibrary extends Library
    {
        int sched_setscheduler(int pid, int policy, int[] param);
    }

    /** The C library, loaded once a JVM when first used; or why it cannot be. */
    private static final class Loaded
    {
        static final CLibrary C;
        static final String UNAVAILABLE;

        static
        {
            CLibrary c = null;
            String unavailable = null;
            try
            {
                if (Platform.isLinux())
                {
                    c = Native.load(Platform.C_LIBRARY_NAME, CLibrary.class);
                }
                else
                {
                    unavailable = "SCHED_BATCH is Linux's, and this is " + System.getProperty("os.name");
                }
            }
            catch (final LinkageError ex)
            {
                unavailable = "JNA is not available (" + ex + "); it comes with net.openhft:affinity";
            }
            C = c;
            UNAVAILABLE = unavailable;
        }
    }

    /** Sets the calling thread's policy, returning 0 when done, else an errno; null: cannot. */
    private final IntUnaryOperator setPolicy;
    /** Whether the thread is under SCHED_BATCH now. */
    private boolean batch;
    /** Cycles in a row that found every ring nearly empty, while catching up. */
    private int calm;
    /** Times the agent went back to the default policy to catch up. */
    private long catchUps;

    /** For the agent: sets the calling thread's policy through JNA. */
    BatchScheduling()
    {
        this(Loaded.C == null ? null : BatchScheduling::setWithJna);
    }

    /** With a policy setter of a test's own (null: the policy cannot be set). */
    BatchScheduling(final IntUnaryOperator setPolicy)
    {
        this.setPolicy = setPolicy;
    }

    /**
     * Loads the C library through JNA, if not yet done in this JVM.
     *
     * @return whether the policy can be set here.
     */
    static boolean load()
    {
        return Loaded.C != null;
    }

    private static int setWithJna(final int policy)
    {
        // pid 0: the calling thread (a task of its own on Linux), not the whole process
        return Loaded.C.sched_setscheduler(0, policy, new int[]{0}) == 0 ? 0 : Native.getLastError();
    }

    /**
     * The agent's thread, at its start: puts it under SCHED_BATCH.
     *
     * @return null when done; otherwise why not, for a log line ({@link #cycle} then does nothing).
     */
    String start()
    {
        if (setPolicy == null)
        {
            return Loaded.UNAVAILABLE != null ? Loaded.UNAVAILABLE : "no way to set the policy";
        }
        final int errno = setPolicy.applyAsInt(SCHED_BATCH);
        if (errno != 0)
        {
            return "sched_setscheduler(SCHED_BATCH) failed, errno " + errno;
        }
        batch = true;
        return null;
    }

    /**
     * The agent's thread, at each duty cycle's start. An agent under SCHED_BATCH that finds a ring
     * more than half full has fallen behind (it waits for a free core, and busy workers may
     * leave it none): it goes back to the default policy, whose wake-ups preempt, until
     * {@link #CALM_CYCLES} cycles in a row find every ring under an eighth full; then it steps
     * back again. A full ring loses records (or, under {@code RingFull.WAIT}, stops its writer),
     * which costs more than a preempted worker. Nothing before a successful {@link #start()}.
     *
     * @param behind   whether some ring is more than half full.
     * @param caughtUp whether every ring is under an eighth full.
     */
    void cycle(final boolean behind, final boolean caughtUp)
    {
        if (batch)
        {
            if (behind && setPolicy.applyAsInt(SCHED_OTHER) == 0)
            {
                batch = false;
                calm = 0;
                catchUps++;
            }
        }
        else if (catchUps > 0)
        {
            calm = caughtUp ? calm + 1 : 0;
            if (calm >= CALM_CYCLES && setPolicy.applyAsInt(SCHED_BATCH) == 0)
            {
                batch = true;
            }
        }
    }

    /** Whether the thread is under SCHED_BATCH now. */
    boolean isBatch()
    {
        return batch;
    }

    /** Times the agent went back to the default policy to catch up. */
    long catchUps()
    {
        return catchUps;
    }
}
