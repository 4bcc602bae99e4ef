package dev.framewire.remote;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The freshness check of a publisher run's first message: a send time near either end of the long
 * range is stale (|now - sent| would overflow there), a send time of now is taken.
 */
class ReplayWindowTest
{
    private static SubscriberSession first(final long epoch, final long sent)
    {
        final SubscriberSession state = new SubscriberSession();
        state.epoch = epoch;
        state.message = 1;
        state.sent = sent;
        return state;
    }

    @Test
    void aSendTimeAtEitherEndOfTheRangeIsStaleAndNowIsTaken()
    {
        final ReplayWindow window = new ReplayWindow();
        window.reset(10_000);
        for (final long sent : new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE,
            System.currentTimeMillis() + Long.MIN_VALUE})
        {
            final String refusal = window.refusal(first(sent, sent));
            assertTrue(refusal != null && refusal.startsWith("stale message"), sent + ": " + refusal);
        }
        assertNull(window.refusal(first(42, System.currentTimeMillis())), "a message sent now opens its epoch");
    }
}
