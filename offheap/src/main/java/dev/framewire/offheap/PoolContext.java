package dev.framewire.offheap;

/**
 * Configuration of a {@link PayloadPool}, set fluently before the pool is made.
 *
 * <p>Defaults: a maximum of 512 MiB, soft limit 50 % and hard limit 75 % of it, power-of-two
 * size classes from 256 B to 64 MiB, slabs of at least 4 MiB, use-after-release checks on, and
 * leak tracking on when the system property {@code framewire.leakTracking} is {@code true}
 * (the test build sets it).
 *
 * <p>Threading: not thread-safe; configure on one thread, then hand it to the pool.
 */
public final class PoolContext
{
    /** The system property that turns leak tracking on by default. */
    public static final String LEAK_TRACKING_PROP = "framewire.leakTracking";

    private long maxBytes = 512L * 1024 * 1024;
    private double softLimitRatio = 0.5;
    private double hardLimitRatio = 0.75;
    private int minSlotBytes = 256;
    private int maxSlotBytes = 64 * 1024 * 1024;
    private int slabBytes = 4 * 1024 * 1024;
    private boolean leakTracking = Boolean.getBoolean(LEAK_TRACKING_PROP);
    private boolean useAfterReleaseCheck = true;

    /**
     * A context with the defaults the class comment lists.
     */
    public PoolContext()
    {
    }

    /**
     * Sets the maximum bytes of slabs the pool may reserve.
     *
     * @param maxBytes positive.
     * @return this.
     */
    public PoolContext maxBytes(final long maxBytes)
    {
        this.maxBytes = maxBytes;
        return this;
    }

    /**
     * Sets the soft limit as a fraction of the maximum.
     *
     * @param ratio in (0, 1], at most the hard limit ratio.
     * @return this.
     */
    public PoolContext softLimitRatio(final double ratio)
    {
        this.softLimitRatio = ratio;
        return this;
    }

    /**
     * Sets the hard limit as a fraction of the maximum.
     *
     * @param ratio in (0, 1].
     * @return this.
     */
    public PoolContext hardLimitRatio(final double ratio)
    {
        this.hardLimitRatio = ratio;
        return this;
    }

    /**
     * Sets the smallest slot size; size classes are the powers of two from it to the largest.
     *
     * @param bytes a power of two, at least 64.
     * @return this.
     */
    public PoolContext minSlotBytes(final int bytes)
    {
        this.minSlotBytes = bytes;
        return this;
    }

    /**
     * Sets the largest slot size, and so the largest payload the pool can hold.
     *
     * @param bytes a power of two, at least the smallest slot size.
     * @return this.
     */
    public PoolContext maxSlotBytes(final int bytes)
    {
        this.maxSlotBytes = bytes;
        return this;
    }

    /**
     * Sets the target slab size: a size class grows by slabs of {@code max(slot, slabBytes)}.
     *
     * @param bytes positive.
     * @return this.
     */
    public PoolContext slabBytes(final int bytes)
    {
        this.slabBytes = bytes;
        return this;
    }

    /**
     * Turns leak tracking on or off: when on, each payload records where it was acquired.
     *
     * @param on whether to track.
     * @return this.
     */
    public PoolContext leakTracking(final boolean on)
    {
        this.leakTracking = on;
        return this;
    }

    /**
     * Turns the use-after-release check on buffer access on or off (on by default).
     *
     * @param on whether to check.
     * @return this.
     */
    public PoolContext useAfterReleaseCheck(final boolean on)
    {
        this.useAfterReleaseCheck = on;
        return this;
    }

    long maxBytes()
    {
        return maxBytes;
    }

    double softLimitRatio()
    {
        return softLimitRatio;
    }

    double hardLimitRatio()
    {
        return hardLimitRatio;
    }

    int minSlotBytes()
    {
        return minSlotBytes;
    }

    int maxSlotBytes()
    {
        return maxSlotBytes;
    }

    int slabBytes()
    {
        return slabBytes;
    }

    boolean leakTracking()
    {
        return leakTracking;
    }

    boolean useAfterReleaseCheck()
    {
        return useAfterReleaseCheck;
    }

    void validate()
    {
        if (maxBytes <= 0)
        {
            throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
        }
        if (!(hardLimitRatio > 0 && hardLimitRatio <= 1))
        {
            throw new IllegalArgumentException("hardLimitRatio must be in (0, 1], was " + hardLimitRatio);
        }
        if (!(softLimitRatio > 0 && softLimitRatio <= hardLimitRatio))
        {
            throw new IllegalArgumentException(
                "softLimitRatio must be in (0, hardLimitRatio=" + hardLimitRatio + "], was " + softLimitRatio);
        }
        if (minSlotBytes < 64 || Integer.bitCount(minSlotBytes) != 1)
        {
            throw new IllegalArgumentException("minSlotBytes must be a power of two >= 64, was " + minSlotBytes);
        }
        if (maxSlotBytes < minSlotBytes || Integer.bitCount(maxSlotBytes) != 1)
        {
            throw new IllegalArgumentException(
                "maxSlotBytes must be a power of two >= minSlotBytes=" + minSlotBytes + ", was " + maxSlotBytes);
        }
        if (slabBytes <= 0)
        {
            throw new IllegalArgumentException("slabBytes must be positive, was " + slabBytes);
        }
    }
}
