package dev.framewire.jcstress.offheap;

import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PayloadStateException;
import dev.framewire.offheap.PoolContext;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * jcstress tests of {@link Payload}'s reference count: two threads race a retain, a release or a
 * {@link Payload#writable()} on one payload, and an arbiter, run after both, reads what became of
 * it. A release is never lost, a slot is never freed twice, and a retain never revives a payload
 * whose last reference is gone.
 *
 * <p>Each test declares its own actors and arbiter, alike from test to test (boilerplate: jcstress
 * finds only the methods a test class declares itself, not inherited ones).
 *
 * <p>Each state takes its payload from a pool of its own, one 64-byte slot per slab: jcstress
 * makes states in batches and runs a batch's actors before any of its arbiters, so with a pool
 * shared between states a slot freed by one state's actor could be taken by another's copy
 * before the first state's arbiter looks at it.
 */
public final class PayloadRefCountStress
{
    private static final int SLOT = 64;

    private PayloadRefCountStress()
    {
    }

    /**
     * One payload with {@code holders} references, from a pool of its own; the arbiter's two
     * counts; and the clean-up that lets the pool close.
     */
    abstract static class OnePayload
    {
        final PayloadPool pool = new PayloadPool(new PoolContext().maxBytes(4 * SLOT).hardLimitRatio(1.0)
            .softLimitRatio(1.0).minSlotBytes(SLOT).maxSlotBytes(SLOT).slabBytes(SLOT).leakTracking(false));
        final Payload payload = pool.acquire(SLOT);
        final int generation = payload.generation();

        OnePayload(final int holders)
        {
            if (holders > 1)
            {
                payload.retain(holders - 1);
            }
        }

        /**
         * Fills the arbiter's two counts, the payload's references left and how often its slot was
         * freed (generations passed), then drops what is left and closes the pool.
         */
        final void settle(final IIII_Result r)
        {
            r.r3 = payload.refCount();
            r.r4 = payload.generation() - generation;
            for (int i = r.r3; i > 0; i--)
            {
                payload.release();
            }
            pool.close();
        }
    }

    /** The last two holders release at once: exactly one of them frees the slot. */
    @JCStressTest
    @Outcome(id = {"1, 0, 0, 1", "0, 1, 0, 1"}, expect = ACCEPTABLE, desc = "One release was last and freed the slot once.")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "Both releases freed the slot: a double free.")
    @Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "Neither release freed the slot: a lost release.")
    @Outcome(expect = FORBIDDEN, desc = "The count or the generation is off.")
    @State
    public static class LastTwoReleases extends OnePayload
    {

        /** Two holders. */
        public LastTwoReleases()
        {
            super(2);
        }

        /** @param r the first holder's release */
        @Actor
        public void first(final IIII_Result r)
        {
            r.r1 = payload.release() ? 1 : 0;
        }

        /** @param r the second holder's release */
        @Actor
        public void second(final IIII_Result r)
        {
            r.r2 = payload.release() ? 1 : 0;
        }

        /** @param r what is left */
        @Arbiter
        public void after(final IIII_Result r)
        {
            settle(r);
        }
    }

    /** Of two holders, one retains for a third while the other releases: the payload stays live with two. */
    @JCStressTest
    @Outcome(id = "1, 0, 2, 0", expect = ACCEPTABLE, desc = "The retain and the release both counted.")
    @Outcome(expect = FORBIDDEN, desc = "A retain or a release was lost, or the live payload was freed.")
    @State
    public static class RetainRacesRelease extends OnePayload
    {

        /** Two holders. */
        public RetainRacesRelease()
        {
            super(2);
        }

        /** @param r whether the retain was taken */
        @Actor
        public void retain(final IIII_Result r)
        {
            payload.retain();
            r.r1 = 1;
        }

        /** @param r whether the release was the last */
        @Actor
        public void release(final IIII_Result r)
        {
            r.r2 = payload.release() ? 1 : 0;
        }

        /** @param r what is left */
        @Arbiter
        public void after(final IIII_Result r)
        {
            settle(r);
        }
    }

    /**
     * A retain races the last release. Either the retain comes first and the payload stays live
     * with one reference, or the release frees the slot and the retain is refused: a retain never
     * revives a freed payload.
     */
    @JCStressTest
    @Outcome(id = "1, 0, 1, 0", expect = ACCEPTABLE, desc = "The retain came first: the payload stays live.")
    @Outcome(id = "0, 1, 0, 1", expect = ACCEPTABLE, desc = "The release came first and freed the slot; the retain was refused.")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "The retain revived a freed payload.")
    @Outcome(expect = FORBIDDEN, desc = "A release was lost, or the count or the generation is off.")
    @State
    public static class RetainRacesLastRelease extends OnePayload
    {
        /** One holder. */
        public RetainRacesLastRelease()
        {
            super(1);
        }

        /** @param r whether the retain was taken */
        @Actor
        public void retain(final IIII_Result r)
        {
            try
            {
                payload.retain();
                r.r1 = 1;
            }
            catch (final PayloadStateException ex)
            {
                r.r1 = 0;
            }
        }

        /** @param r whether the release was the last */
        @Actor
        public void release(final IIII_Result r)
        {
            r.r2 = payload.release() ? 1 : 0;
        }

        /** @param r what is left */
        @Arbiter
        public void after(final IIII_Result r)
        {
            settle(r);
        }
    }

    /**
     * Of two holders, one asks for a writable payload while the other releases. Either the
     * release came first and the writer is handed the payload itself, or the writer gets a copy
     * and drops its reference, and then whichever release is last frees the original, once.
     */
    @JCStressTest
    @Outcome(id = "1, 0, 1, 0", expect = ACCEPTABLE, desc = "The release came first: the writer holds the original alone.")
    @Outcome(id = {"0, 0, 0, 1", "0, 1, 0, 1"}, expect = ACCEPTABLE,
        desc = "The writer copied; the original was freed once, by whichever release was last.")
    @Outcome(expect = FORBIDDEN, desc = "The writer was handed a shared or freed original, or a release was lost or doubled.")
    @State
    public static class WritableRacesRelease extends OnePayload
    {
        Payload written;

        /** Two holders. */
        public WritableRacesRelease()
        {
            super(2);
        }

        /** @param r whether the writer was handed the original */
        @Actor
        public void writable(final IIII_Result r)
        {
            final Payload mine = payload.writable();
            written = mine;
            r.r1 = mine == payload ? 1 : 0;
        }

        /** @param r whether the release was the last */
        @Actor
        public void release(final IIII_Result r)
        {
            r.r2 = payload.release() ? 1 : 0;
        }

        /** @param r what is left */
        @Arbiter
        public void after(final IIII_Result r)
        {
            final Payload mine = written;
            if (mine != payload)
            {
                if (mine.refCount() != 1)
                {
                    r.r1 = -1; // a copy with other holders: no outcome accepts it
                }
                mine.release();
            }
            settle(r);
        }
    }
}
