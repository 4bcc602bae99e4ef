package dev.framewire.core.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Something a video source reports about its camera: connected, disconnected (and why), a
 * presentation time that went back and was shifted, a frame size change. Rare by nature, so
 * enabled by default.
 */
@Name("dev.framewire.VideoSource")
@Label("Video Source")
@Category({"Framewire", "Video"})
@Description("A video source's connect, disconnect, timestamp jump or size change")
@Enabled(true)
@StackTrace(false)
public final class VideoSourceEvent extends Event
{
    /** The source node. */
    @Label("Node")
    public String node;

    /** The url it reads. */
    @Label("URL")
    public String url;

    /** connected, disconnected, timestamp_jump, resized, failed. */
    @Label("Kind")
    public String kind;

    /** The reason or the sizes, in words. */
    @Label("Detail")
    public String detail;

    /** For a jump: the stream's own time, microseconds; else the last timestamp emitted. */
    @Label("Stream Time")
    public long streamTime;

    /** For a jump: the graph timestamp the frame was given; else the bound the source moved to. */
    @Label("Timestamp")
    public long timestamp;
}
