package dev.framewire.remote;

import dev.framewire.core.Timestamp;
import org.agrona.collections.Long2LongHashMap;

/**
 * An authenticated link's replay protection: for each publisher epoch (one publisher run) the last
 * message number taken and when it was sent. A message is taken when its number is above the last
 * of its epoch, or, for an epoch not seen before, when it was sent within {@code freshness_ms} and
 * after this receiver started (less {@value #START_SKEW_MILLIS} ms of clock skew); at
 * most {@value #MAX_EPOCHS} epochs are remembered, the stale ones and then the oldest forgotten.
 *
 * <p>Threading: the subscriber's worker.
 */
final class ReplayWindow
{
    /** Publisher epochs remembered for replay protection, at most. */
    static final int MAX_EPOCHS = 64;

    /** Each epoch's last message number taken. */
    private final Long2LongHashMap epochMessages = new Long2LongHashMap(-1);
    /** Each epoch's last message's send time (ms). */
    private final Long2LongHashMap epochSent = new Long2LongHashMap(-1);
    /** How far the publisher's clock may be behind the receiver's at a restart without its messages being held stale. */
    static final long START_SKEW_MILLIS = 1_000;

    private long freshnessMillis;
    /**
     * The wall clock when this receiver's run began, less {@link #START_SKEW_MILLIS}: the first
     * message of a publisher run it has not seen must have been sent after it. A receiver restarted
     * within {@code freshness_ms} of a publisher's CLOSE could be closed by that CLOSE replayed (its
     * run was unseen, its send time fresh); a message sent before the receiver existed is no live
     * one (a publisher that waited for its subscriber seals its message again once it is there).
     */
    private long openedMillis;

    /** Forgets every epoch; a new run's {@code freshness_ms}. */
    void reset(final long freshnessMillis)
    {
        this.freshnessMillis = freshnessMillis;
        this.openedMillis = System.currentTimeMillis() - Math.min(START_SKEW_MILLIS, freshnessMillis);
        epochMessages.clear();
        epochSent.clear();
    }

    /**
     * Why an authentic message is not to be taken (a replay, or a stale first message of an
     * epoch), or null when it is; then it is remembered as its epoch's last.
     */
    String refusal(final SubscriberSession state)
    {
        final long last = epochMessages.get(state.epoch);
        if (last >= 0)
        {
            if (state.message <= last)
            {
                return "replayed message: the " + RemoteDescriptor.typeName(state.type) + " at " +
                    Timestamp.toString(state.timestamp) + " is number " + state.message + " of publisher epoch " +
                    Long.toHexString(state.epoch) + ", which got to " + last + " already";
            }
        }
        else
        {
            final long now = System.currentTimeMillis(); // once per publisher run
            // compared against the bounds, not |now - sent|, which overflows for a sent time near the long's ends
            if (state.sent < now - freshnessMillis || state.sent > now + freshnessMillis)
            {
                return "stale message: the " + RemoteDescriptor.typeName(state.type) + " at " +
                    Timestamp.toString(state.timestamp) + " opens publisher epoch " + Long.toHexString(state.epoch) +
                    " for this receiver but was sent " + (now - state.sent) + " ms from now, more than freshness_ms " +
                    freshnessMillis + ": a replay of an earlier run, or the two hosts' clocks are that far apart (NTP)";
            }
            if (state.sent < openedMillis)
            {
                return "stale message: the " + RemoteDescriptor.typeName(state.type) + " at " +
                    Timestamp.toString(state.timestamp) + " opens publisher epoch " + Long.toHexString(state.epoch) +
                    " for this receiver but was sent " + (now - state.sent) + " ms ago, before this receiver started " +
                    "(a replay of what an earlier receiver took, or the publisher's clock is more than " +
                    START_SKEW_MILLIS + " ms behind: NTP)";
            }
            forgetStaleEpochs(now);
        }
        epochMessages.put(state.epoch, state.message);
        epochSent.put(state.epoch, state.sent);
        return null;
    }

    /**
     * Room for one more epoch: those whose last message is older than {@code freshness_ms} go (a
     * replay of theirs is stale then anyway), then, if still full, the oldest.
     */
    private void forgetStaleEpochs(final long now)
    {
        if (epochMessages.size() < MAX_EPOCHS)
        {
            return;
        }
        long oldest = 0;
        long oldestSent = Long.MAX_VALUE;
        final Long2LongHashMap.KeyIterator keys = epochSent.keySet().iterator();
        while (keys.hasNext())
        {
            final long epoch = keys.nextValue();
            final long sent = epochSent.get(epoch);
            if (now - sent > freshnessMillis)
            {
                keys.remove();
                epochMessages.remove(epoch);
            }
            else if (sent < oldestSent)
            {
                oldestSent = sent;
                oldest = epoch;
            }
        }
        if (epochMessages.size() >= MAX_EPOCHS)
        {
            epochSent.remove(oldest);
            epochMessages.remove(oldest);
        }
    }
}
