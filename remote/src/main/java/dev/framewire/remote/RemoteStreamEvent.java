package dev.framewire.remote;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Something a remote stream's end reports: a publisher connected or gone, messages rejected,
 * packets that never arrived, packets a publisher dropped. Emitted where the log line and the
 * {@code STATUS} packet are, so at most once a second for the counted kinds: rare, so enabled by
 * default, as the video source's events.
 */
@Name("dev.framewire.RemoteStream")
@Label("Remote Stream")
@Category({"Framewire", "Remote"})
@Description("A remote stream's connect, disconnect, rejected messages, missing or dropped packets")
@Enabled(true)
@StackTrace(false)
final class RemoteStreamEvent extends Event
{
    /** The publisher or subscriber node. */
    @Label("Node")
    String node;

    /** The Aeron channel. */
    @Label("Channel")
    String channel;

    /** The Aeron stream id. */
    @Label("Stream Id")
    int streamId;

    /** connected, disconnected, rejected, gap (subscriber); dropped (publisher). */
    @Label("Kind")
    String kind;

    /** The publisher: session and source identity; empty on the publisher's side. */
    @Label("Source")
    String source;

    /** Why, in words: the last rejection, gap or drop. */
    @Label("Detail")
    String detail;

    /** Messages rejected (subscriber) or dropped (publisher) since the node opened. */
    @Label("Rejected Or Dropped")
    long count;

    /** Packets that never arrived, since the node opened (subscriber). */
    @Label("Lost")
    long lost;

    static void emit(
        final String node,
        final String channel,
        final int streamId,
        final String kind,
        final String source,
        final String detail,
        final long count,
        final long lost)
    {
        final RemoteStreamEvent event = new RemoteStreamEvent();
        if (event.isEnabled())
        {
            event.node = node;
            event.channel = channel;
            event.streamId = streamId;
            event.kind = kind;
            event.source = source;
            event.detail = detail;
            event.count = count;
            event.lost = lost;
            event.commit();
        }
    }
}
