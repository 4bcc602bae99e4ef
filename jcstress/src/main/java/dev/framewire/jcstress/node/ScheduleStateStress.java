package dev.framewire.jcstress.node;

import dev.framewire.core.internal.node.ScheduleState;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * jcstress tests of {@link ScheduleState}, the state machine by which a node is queued to its
 * worker (a node is one: {@code Node extends ScheduleState}). It hands the node to exactly one
 * owner at a time, so the node never runs twice at once, and input that arrives while the worker
 * decides to let the node go idle is not lost.
 */
public final class ScheduleStateStress
{
    private ScheduleStateStress()
    {
    }

    /** A schedule state alone, as a node has it. */
    static final class NodeState extends ScheduleState
    {
    }

    /**
     * The worker runs the node, finds no input and lets it go idle, while a producer publishes
     * input and claims the node. Either the worker sees the input and keeps the node, or the node
     * goes idle and the producer takes it from idle and queues it: never both (the node would run
     * twice at once), never neither (the input would wait with nobody to run it).
     */
    @JCStressTest
    @Outcome(id = "0, 1, 0, 2", expect = ACCEPTABLE, desc = "The worker saw the input at once; the producer marked the node dirty.")
    @Outcome(id = "0, 1, 0, 1", expect = ACCEPTABLE, desc = "The dirty mark stopped the worker's idle; it looked again and saw the input.")
    @Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "The node went idle first; the producer took it and queues it.")
    @Outcome(id = "0, 0, 1, 0", expect = FORBIDDEN, desc = "The node went idle with input waiting and nobody queued it: a lost wake-up.")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "The producer queued a node its worker still runs: it would run twice at once.")
    @Outcome(expect = FORBIDDEN, desc = "Other cases are forbidden.")
    @State
    public static class InputRacesIdle
    {
        final NodeState node = new NodeState();
        /** The node's input, published with a volatile store (the full fence claim() asks for). */
        volatile int input;

        /** The node starts scheduled: its worker runs it. */
        public InputRacesIdle()
        {
            node.claim();
        }

        /** @param r whether the producer took the node from idle */
        @Actor
        public void producer(final IIII_Result r)
        {
            input = 1;
            r.r1 = node.claim() ? 1 : 0;
        }

        /** @param r whether the worker saw the input, or let the node go idle */
        @Actor
        public void worker(final IIII_Result r)
        {
            while (true)
            {
                if (input != 0)
                {
                    r.r2 = 1;
                    return;
                }
                if (node.tryIdle())
                {
                    r.r3 = 1;
                    return;
                }
            }
        }

        /** @param r the state left */
        @Arbiter
        public void after(final IIII_Result r)
        {
            r.r4 = node.state();
        }
    }

    /**
     * An idle node claimed at once by a producer on another thread and by its own worker
     * ({@link ScheduleState#claimFromOwner()}): exactly one of them takes it and queues it.
     */
    @JCStressTest
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "The producer took it; the worker found it taken.")
    @Outcome(id = "0, 1, 2", expect = ACCEPTABLE, desc = "The worker took it; the producer marked it dirty.")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "Both took it: it would be queued twice and run twice at once.")
    @Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "Neither took it: its input would wait with nobody to run it.")
    @Outcome(expect = FORBIDDEN, desc = "Other cases are forbidden.")
    @State
    public static class TwoClaims
    {
        final NodeState node = new NodeState();

        /** @param r whether the producer took the node */
        @Actor
        public void producer(final III_Result r)
        {
            r.r1 = node.claim() ? 1 : 0;
        }

        /** @param r whether the worker took the node */
        @Actor
        public void owner(final III_Result r)
        {
            r.r2 = node.claimFromOwner() ? 1 : 0;
        }

        /** @param r the state left */
        @Arbiter
        public void after(final III_Result r)
        {
            r.r3 = node.state();
        }
    }
}
