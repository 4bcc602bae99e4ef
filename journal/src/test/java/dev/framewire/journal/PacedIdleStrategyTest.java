package dev.framewire.journal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The ASYNC journal agent's idle strategy: no park after a cycle that took a lot, the pace after
 * one that took little, and after empty cycles in a row a park that doubles from the pace up to
 * the longest; any work brings it back to the pace. The pace is shorter for smaller rings, and
 * not kept when it would be shorter than a park can be.
 */
class PacedIdleStrategyTest
{
    private static final long PACE = PacedIdleStrategy.PACE_NANOS;
    private static final int MIB = 1 << 20;

    private final List<Long> parks = new ArrayList<>();

    @Test
    void parksAfterLittleWorkNotAfterMuch()
    {
        final PacedIdleStrategy idle = new PacedIdleStrategy(MIB, 1_000_000L, parks::add);
        idle.idle(PacedIdleStrategy.ENOUGH_WORK);
        idle.idle(PacedIdleStrategy.ENOUGH_WORK * 4);
        assertEquals(List.of(), parks, "a cycle that took a lot: the next one at once");
        idle.idle(1);
        idle.idle(PacedIdleStrategy.ENOUGH_WORK - 1);
        assertEquals(List.of(PACE, PACE), parks, "a cycle that took little: the pace");
    }

    @Test
    void emptyCyclesInARowParkLongerUpToTheLongestAndWorkBringsBackThePace()
    {
        final PacedIdleStrategy idle = new PacedIdleStrategy(MIB, PACE * 5, parks::add);
        for (int i = 0; i < 5; i++)
        {
            idle.idle(0);
        }
        idle.idle(3);
        idle.idle(0);
        idle.idle(0);
        idle.idle(PacedIdleStrategy.ENOUGH_WORK);
        idle.idle(0);
        assertEquals(List.of(PACE, 2 * PACE, 4 * PACE, 5 * PACE, 5 * PACE, PACE, PACE, 2 * PACE, PACE), parks);
        parks.clear();
        idle.idle(0);
        idle.reset();
        idle.idle();
        assertEquals(List.of(2 * PACE, PACE), parks, "reset: the pace");
    }

    @Test
    void aLongestParkBelowThePaceIsThePace()
    {
        final PacedIdleStrategy idle = new PacedIdleStrategy(MIB, PACE * 3 / 4, parks::add);
        idle.idle(1);
        idle.idle(0);
        idle.idle(0);
        assertEquals(List.of(PACE * 3 / 4, PACE * 3 / 4, PACE * 3 / 4), parks);
    }

    @Test
    void smallerRingsPaceShorterAndTheSmallestGoOnAfterAnyWork()
    {
        // 512 KiB: a tenth at a byte a nanosecond is 52,428 ns
        final PacedIdleStrategy half = new PacedIdleStrategy(MIB / 2, 1_000_000L, parks::add);
        half.idle(1);
        half.idle(0);
        assertEquals(List.of((long)(MIB / 2 / 10), (long)(MIB / 2 / 10)), parks);
        parks.clear();
        // 4 KiB: a pace of 409 ns would last the timer slack; after any work the agent goes on
        final PacedIdleStrategy small = new PacedIdleStrategy(4096, 1_000_000L, parks::add);
        small.idle(1);
        small.idle(PacedIdleStrategy.ENOUGH_WORK);
        assertEquals(List.of(), parks);
        small.idle(0);
        small.idle(0);
        assertEquals(List.of(409L, 818L), parks, "empty cycles still park, doubling from the pace");
    }
}
