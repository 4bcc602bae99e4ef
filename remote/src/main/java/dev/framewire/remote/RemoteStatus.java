package dev.framewire.remote;

/**
 * A packet on an {@link AeronSubscriberCalculator}'s {@code STATUS} stream: a publisher connected
 * or went away, messages were rejected (a wrong magic, version or stream id, a truncated message,
 * a timestamp below the stream's bound), or packets never arrived. Rare events, each also logged;
 * the counts are totals since the node opened.
 */
public final class RemoteStatus
{
    /** What happened. */
    public enum Kind
    {
        /** A publisher's image became available: messages can flow. */
        CONNECTED,
        /** A publisher's image went away (closed, or silent past Aeron's liveness timeout). */
        DISCONNECTED,
        /** Messages were rejected and dropped; {@link #reason()} says why for the last one. */
        REJECTED,
        /** Packets never arrived (a gap in the publisher's sequence); {@link #lost()} counts them. */
        GAP,
        /**
         * This subscriber has fallen behind a publisher: its position has stayed at least
         * {@code behind_bytes} below what the driver received (or, over IPC, what the publisher
         * wrote) for {@code behind_ms}; {@link #reason()} says by how much.
         */
        BEHIND,
        /** A subscriber that was {@link #BEHIND} has caught up; {@link #reason()} says after how long. */
        CAUGHT_UP
    }

    private final Kind kind;
    private final String source;
    private final String reason;
    private final long rejected;
    private final long lost;

    RemoteStatus(final Kind kind, final String source, final String reason, final long rejected, final long lost)
    {
        this.lost = lost;
        this.kind = kind;
        this.source = source;
        this.reason = reason;
        this.rejected = rejected;
    }

    /** @return what happened. */
    public Kind kind()
    {
        return kind;
    }

    /** @return the publisher: its session id and Aeron source identity (an address for UDP). */
    public String source()
    {
        return source;
    }

    /** @return why, in words. */
    public String reason()
    {
        return reason;
    }

    /** @return messages rejected since the node opened. */
    public long rejected()
    {
        return rejected;
    }

    /** @return packets that never arrived, since the node opened. */
    public long lost()
    {
        return lost;
    }

    @Override
    public String toString()
    {
        return kind + " " + source + ": " + reason + " (" + rejected + " rejected, " + lost + " lost)";
    }
}
