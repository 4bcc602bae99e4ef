package dev.framewire.offheap;

import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Lincheck model checking of the reference count and the free list: Lincheck runs each scenario
 * under its own scheduler, switching threads at every shared-memory access, and checks that the
 * results match some sequential order of the same operations (linearizability), that the pool's
 * books balance afterwards ({@link PoolInvariants}), and, where asked, that no operation blocks
 * or waits for another (obstruction freedom, implied by lock freedom).
 *
 * <p>Two kinds of run: random scenarios over a few operations, and hand-written scenarios that
 * Lincheck explores interleaving by interleaving: the last two releases racing, a retain racing
 * a release of a payload that stays live, a release racing an acquire of the slot it frees, and
 * the ABA case of the Treiber stack.
 *
 * <p>What is not linearizable, by design: the reference count together with the free list. The
 * count reaches zero first and the slot goes back to its free list an instant later, so a thread
 * that has seen zero (a refused {@code retain}) may for that instant get another slot, or be
 * refused at a full budget. Each is linearizable on its own, which is what the random scenarios
 * check: the reference count of one payload, and the free list under holders that each own
 * their payload.
 *
 * <p>Kept quick for {@code mvn verify}: small scenarios, a few hundred invocations each.
 */
class PayloadLincheckTest
{
    private static final int SLOT = 64;

    /**
     * Interleavings tried per scenario; {@code -Dframewire.lincheck.invocations=N} for a deeper
     * run. 200 finds each bug this class is known to catch (a free list without its version, a
     * reference count updated by get-then-set, a budget credited before the slot is back),
     * checked by breaking the code on purpose.
     */
    private static final int INVOCATIONS = Integer.getInteger("framewire.lincheck.invocations", 200);

    /** Random scenarios per test; {@code -Dframewire.lincheck.iterations=N} for a deeper run. */
    private static final int ITERATIONS = Integer.getInteger("framewire.lincheck.iterations", 5);

    /**
     * Four 64-byte slots in one slab; a hard limit of those four and a maximum of two slabs, so
     * that a pool that grows when it need not shows it in {@link MemoryBudget#bytesReserved()}.
     */
    static PayloadPool fourSlots()
    {
        return new PayloadPool(new PoolContext().maxBytes(8 * SLOT).hardLimitRatio(0.5).softLimitRatio(0.5)
            .minSlotBytes(SLOT).maxSlotBytes(SLOT).slabBytes(4 * SLOT));
    }

    /** One payload with two holders, in a pool of four slots. */
    public static class RefCount
    {
        private final PayloadPool pool = fourSlots();
        private final Payload payload = pool.acquire(SLOT);

        public RefCount()
        {
            payload.retain();
        }

        @Operation
        public void retain()
        {
            payload.retain();
        }

        @Operation
        public boolean release()
        {
            return payload.release();
        }

        @Operation
        public int refCount()
        {
            return payload.refCount();
        }

        @Operation
        public int generation()
        {
            return payload.generation();
        }

        /** The checked buffer access: throws once released. (Agrona's own accessors are kept out:
         * Lincheck 2.39 fails to instrument their bounds-check flag.) */
        @Operation
        public int read()
        {
            payload.buffer();
            return payload.length();
        }

        /**
         * Takes another slot, kept to the end of the run; returns its slot index, -1 if refused.
         * Only in the hand-written scenarios, not the random ones: see the class javadoc.
         */
        public int acquire()
        {
            try
            {
                return pool.acquire(SLOT).slotIndex;
            }
            catch (final MemoryBudgetExceededException ex)
            {
                return -1;
            }
        }

        public long reserved()
        {
            return pool.budget().bytesReserved();
        }

        @Validate
        public void balanced()
        {
            PoolInvariants.assertBalanced(pool);
        }
    }

    /**
     * Three holders, each with its own slot or none, in a pool of four slots grown up front: its
     * acquires and releases only pop and push the free list. A holder's operations never run in
     * parallel with each other.
     */
    public static class FreeList
    {
        private final PayloadPool pool = fourSlots();
        private final Payload[] held = new Payload[3];

        public FreeList()
        {
            pool.acquire(SLOT).release();
        }

        private int acquire(final int holder)
        {
            if (held[holder] != null)
            {
                return -2;
            }
            held[holder] = pool.acquire(SLOT);
            return held[holder].slotIndex;
        }

        private int release(final int holder)
        {
            final Payload payload = held[holder];
            if (payload == null)
            {
                return -2;
            }
            held[holder] = null;
            return payload.release() ? payload.slotIndex : -1;
        }

        @Operation(nonParallelGroup = "0")
        public int acquire0()
        {
            return acquire(0);
        }

        @Operation(nonParallelGroup = "0")
        public int release0()
        {
            return release(0);
        }

        @Operation(nonParallelGroup = "1")
        public int acquire1()
        {
            return acquire(1);
        }

        @Operation(nonParallelGroup = "1")
        public int release1()
        {
            return release(1);
        }

        @Operation(nonParallelGroup = "2")
        public int acquire2()
        {
            return acquire(2);
        }

        @Operation(nonParallelGroup = "2")
        public int release2()
        {
            return release(2);
        }

        @Validate
        public void balanced()
        {
            PoolInvariants.assertBalanced(pool);
        }
    }

    private static Actor actor(final Class<?> type, final String name)
    {
        try
        {
            final Method method = type.getMethod(name);
            return new Actor(method, List.of());
        }
        catch (final NoSuchMethodException ex)
        {
            throw new AssertionError(ex);
        }
    }

    private static List<Actor> actors(final Class<?> type, final String... names)
    {
        final List<Actor> list = new ArrayList<>();
        for (final String name : names)
        {
            list.add(actor(type, name));
        }
        return list;
    }

    /** A scenario: {@code init} actors, then one thread per {@code threads} entry, then {@code post}. */
    private static ExecutionScenario scenario(
        final Class<?> type, final String[] init, final String[][] threads, final String... post)
    {
        final List<List<Actor>> parallel = new ArrayList<>();
        for (final String[] thread : threads)
        {
            parallel.add(actors(type, thread));
        }
        return new ExecutionScenario(actors(type, init), parallel, actors(type, post), null);
    }

    /** Only the given scenarios, every interleaving Lincheck can find in the invocations given. */
    private static void checkOnly(final Class<?> type, final ExecutionScenario... scenarios)
    {
        final ModelCheckingOptions options = new ModelCheckingOptions().iterations(0).invocationsPerIteration(INVOCATIONS);
        Arrays.stream(scenarios).forEach(options::addCustomScenario);
        new LinChecker(type, options).check();
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theLastTwoReleasesRacingFreeOnceAndOnlyOnce()
    {
        checkOnly(RefCount.class,
            scenario(RefCount.class, new String[0], new String[][]{{"release"}, {"release"}},
                "refCount", "generation", "acquire", "acquire", "acquire", "acquire", "reserved"),
            scenario(RefCount.class, new String[]{"retain"}, new String[][]{{"release", "release"}, {"release"}},
                "refCount", "generation", "release"));
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aRetainRacingAReleaseOfAPayloadThatStaysLiveKeepsItLive()
    {
        checkOnly(RefCount.class,
            scenario(RefCount.class, new String[0], new String[][]{{"retain"}, {"release"}},
                "refCount", "generation", "read", "release", "release"),
            scenario(RefCount.class, new String[0], new String[][]{{"retain", "release"}, {"release"}, {"read"}},
                "refCount", "generation"));
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aReleaseRacingAnAcquireOfTheSlotItFreesNeitherGrowsNorRefuses()
    {
        // the pool is at its hard limit: the acquire either comes first and is refused, or
        // takes the slot the release frees; it never grows the pool by a slab
        checkOnly(RefCount.class,
            scenario(RefCount.class, new String[]{"acquire", "acquire", "acquire"},
                new String[][]{{"release", "release"}, {"acquire"}}, "reserved", "acquire"));
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theFreeListHasNoAbaProblem()
    {
        // T1 reads top A and next B; T2 pops A and B and pushes A back. Without the version in
        // the head T1's compare-and-set would succeed and hand out B, which T2 holds, again.
        checkOnly(FreeList.class,
            scenario(FreeList.class, new String[0],
                new String[][]{{"acquire0"}, {"acquire1", "acquire2", "release1"}}, "release0", "release2"),
            scenario(FreeList.class, new String[]{"acquire0", "acquire1"},
                new String[][]{{"release0"}, {"release1"}, {"acquire2"}}, "acquire0", "acquire1"));
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void randomScenariosOfTheReferenceCountAreLinearizable()
    {
        new LinChecker(RefCount.class, new ModelCheckingOptions()
            .iterations(ITERATIONS).invocationsPerIteration(INVOCATIONS).threads(2).actorsPerThread(3).actorsBefore(1).actorsAfter(2))
            .check();
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void randomScenariosOfTheFreeListAreLinearizableAndLockFree()
    {
        new LinChecker(FreeList.class, new ModelCheckingOptions()
            .iterations(ITERATIONS).invocationsPerIteration(INVOCATIONS).threads(3).actorsPerThread(2).actorsBefore(2).actorsAfter(2)
            .checkObstructionFreedom(true))
            .check();
    }
}
