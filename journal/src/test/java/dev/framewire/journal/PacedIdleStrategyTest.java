package dev.framewire.journal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The ASYNC journal agent's idle strategy: no park after a cycle that took a lot, the pace after
 * one that took little, and after empty cycles in a row a park that doubles from the pace up to
 * the longest; any work brings it back to the pace.
 */
class PacedIdleStrategyTest
{
    private static final long PACE = PacedIdleStrategy.PACE_NANOS;

    private final List<Long> parks = new ArrayList<>();

    @Test
    void parksAfterLittleWorkNotAfterMuch()
    {
        final PacedIdleStrategy idle = new PacedIdleStrategy(1_000_000L, parks::add);
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
        final PacedIdleStrategy idle = new PacedIdleStrategy(PACE * 5, parks::add);
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
        final PacedIdleStrategy idle = new PacedIdleStrategy(PACE / 4, parks::add);
        idle.idle(1);
        idle.idle(0);
        idle.idle(0);
        assertEquals(List.of(PACE / 4, PACE / 4, PACE / 4), parks);
    }
}
