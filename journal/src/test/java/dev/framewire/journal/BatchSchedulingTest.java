package dev.framewire.journal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link BatchScheduling}'s policy, with a setter that records the policies asked for: SCHED_BATCH at
 * the agent's start; the default policy as soon as a cycle finds a ring more than half full;
 * SCHED_BATCH again only after {@link BatchScheduling#CALM_CYCLES} cycles in a row found every ring
 * nearly empty; nothing at all where the policy cannot be set.
 */
class BatchSchedulingTest
{
    private static final int SCHED_OTHER = 0;
    private static final int SCHED_BATCH = 3;

    private final List<Integer> asked = new ArrayList<>();

    @Test
    void theAgentStepsBackWhileItKeepsUpAndCatchesUpWhenARingFills()
    {
        final BatchScheduling scheduling = new BatchScheduling(policy ->
        {
            asked.add(policy);
            return 0;
        });
        assertNull(scheduling.start());
        assertTrue(scheduling.isBatch());
        for (int i = 0; i < 1000; i++)
        {
            scheduling.cycle(false, i % 2 == 0); // keeping up, with or without a backlog
        }
        assertEquals(List.of(SCHED_BATCH), asked);

        scheduling.cycle(true, false);
        assertFalse(scheduling.isBatch());
        assertEquals(List.of(SCHED_BATCH, SCHED_OTHER), asked);
        assertEquals(1, scheduling.catchUps());

        for (int i = 0; i < BatchScheduling.CALM_CYCLES - 1; i++)
        {
            scheduling.cycle(false, true);
        }
        scheduling.cycle(false, false); // a cycle with a backlog starts the count again
        for (int i = 0; i < BatchScheduling.CALM_CYCLES - 1; i++)
        {
            scheduling.cycle(false, true);
        }
        assertFalse(scheduling.isBatch(), "back under SCHED_BATCH before " + BatchScheduling.CALM_CYCLES +
            " calm cycles in a row");
        scheduling.cycle(false, true);
        assertTrue(scheduling.isBatch());
        assertEquals(List.of(SCHED_BATCH, SCHED_OTHER, SCHED_BATCH), asked);
    }

    @Test
    void aPolicyThatCannotBeSetIsReportedAndNeverTriedAgain()
    {
        final BatchScheduling refused = new BatchScheduling(policy ->
        {
            asked.add(policy);
            return 1; // EPERM
        });
        assertEquals("sched_setscheduler(SCHED_BATCH) failed, errno 1", refused.start());
        refused.cycle(true, false);
        refused.cycle(false, true);
        assertFalse(refused.isBatch());
        assertEquals(List.of(SCHED_BATCH), asked);

        final BatchScheduling unavailable = new BatchScheduling(null);
        assertTrue(unavailable.start() != null);
        unavailable.cycle(true, false);
        assertFalse(unavailable.isBatch());
        assertEquals(0, unavailable.catchUps());
    }
}
