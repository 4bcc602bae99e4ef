package dev.framewire.core.internal.node;

import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.invoke.VarHandle;

/**
 * Lincheck model checking of {@link ScheduleState}, the node state machine, as the engine drives
 * it: producers publish input and then claim the node (queuing it when they take it from idle);
 * the worker takes the queued node, consumes the input it finds, and lets the node go idle only
 * when {@link ScheduleState#tryIdle()} says no input came meanwhile. Checked at every interleaving
 * (the operations return nothing, so what is checked is these invariants, not an order):
 * <ul>
 *   <li>exactly once: a node is never queued while already queued (an exception in the producer's
 *       operation, which no sequential run throws);</li>
 *   <li>no lost wake-up ({@link #noInputIsStranded}): at the end, input not yet consumed means the
 *       node is queued, so its worker will run it.</li>
 * </ul>
 * Two producers (a graph input and another worker) and the node's worker.
 */
class ScheduleStateLincheckTest
{
    private static final int INVOCATIONS = Integer.getInteger("framewire.lincheck.invocations", 200);
    private static final int ITERATIONS = Integer.getInteger("framewire.lincheck.iterations", 10);

    /** A node reduced to its state machine, its input count and its worker's queue. */
    public static class Model extends ScheduleState
    {
        /** Input published so far (a producer's queue tail). */
        private volatile int published;
        /** Input the worker consumed so far. */
        private volatile int consumed;
        /** The worker's inbox, which holds this one node at most. */
        private volatile boolean queued;

        /** A producer: publishes input, a full fence (OutputStream.flush), then claims the node. */
        @Operation
        public void addInput()
        {
            synchronized (this)
            {
                published++; // the count is the model's, not under test: several producers add safely
            }
            VarHandle.fullFence();
            if (claim())
            {
                if (queued)
                {
                    throw new IllegalStateException("queued twice");
                }
                queued = true;
            }
        }

        /**
         * The worker: if the node is queued, runs it: consumes what it finds, then tries to let it go
         * idle, looking again whenever it was marked dirty.
         *
         * No result: a run may find nothing (a producer that published before the worker's last
         * look claims the node after it went idle: a spurious run, harmless), so the number a run
         * consumes is not what is checked; the invariants are.
         */
        @Operation(nonParallelGroup = "worker")
        public void runIfQueued()
        {
            if (!queued)
            {
                return;
            }
            queued = false;
            do
            {
                consumed = published;
            }
            while (!tryIdle());
        }

        @Validate
        public void noInputIsStranded()
        {
            if (published != consumed && !queued)
            {
                throw new IllegalStateException("lost wake-up: " + (published - consumed) +
                    " input not consumed and the node not queued (state " + state() + ")");
            }
        }
    }

    @Test
    @Timeout(300)
    void queuedExactlyOnceAndNoWakeUpLost()
    {
        new LinChecker(Model.class, new ModelCheckingOptions()
            .iterations(ITERATIONS).invocationsPerIteration(INVOCATIONS).threads(3).actorsPerThread(2)
            .actorsBefore(0).actorsAfter(0))
            .check();
    }
}
