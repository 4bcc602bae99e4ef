package dev.framewire.core.calculators.video;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * The byte level of {@link NutDemuxer}: a small direct read-ahead buffer over ffmpeg's pipe, NUT's
 * variable-length numbers ({@code v}, {@code s}), skips, and the copy of a frame's data into its
 * destination (the read-ahead part with one memory copy, the rest by channel reads straight into
 * the destination's memory). Nothing is allocated per frame.
 *
 * <p>Threading: one reading thread. {@link #blockedSinceNanos()} may be read from any thread.
 */
final class NutInput
{
    /** Bytes the read-ahead holds: every header packet must fit. */
    static final int READ_AHEAD = 8192;

    private final ByteBuffer ahead = ByteBuffer.allocateDirect(READ_AHEAD);
    private final UnsafeBuffer aheadView = new UnsafeBuffer(ahead);
    private ReadableByteChannel channel;
    /** Bytes read from the channel so far. */
    private long consumed;
    private volatile long blockedSinceNanos;

    /**
     * Starts over on a new channel: a new ffmpeg process.
     *
     * @param channel the child's stdout.
     */
    void reset(final ReadableByteChannel channel)
    {
        this.channel = channel;
        ahead.clear().limit(0);
        consumed = 0;
        blockedSinceNanos = 0;
    }

    /**
     * Since when the reading thread has been waiting in a channel read, on {@code nanoTime}.
     *
     * @return nanos, or 0 while it is not blocked in a read.
     */
    long blockedSinceNanos()
    {
        return blockedSinceNanos;
    }

    /** Bytes of the stream decoded so far, for messages. */
    long offset()
    {
        return consumed - ahead.remaining();
    }

    /** Bytes read ahead and not yet decoded. */
    int remaining()
    {
        return ahead.remaining();
    }

    /** Where decoding is in the read-ahead; header packets are bounded by it. */
    int position()
    {
        return ahead.position();
    }

    /**
     * Moves decoding within the read-ahead.
     *
     * @param position at most its limit.
     */
    void position(final int position)
    {
        ahead.position(position);
    }

    /** The next byte, unsigned, not consumed; call {@link #fill} first. */
    int peek()
    {
        return ahead.get(ahead.position()) & 0xFF;
    }

    /** The next byte, unsigned, consumed; call {@link #fill} first. */
    int get()
    {
        return ahead.get() & 0xFF;
    }

    /** The next 8 bytes, big-endian, consumed; call {@link #fill} first. */
    long getLong()
    {
        return ahead.getLong();
    }

    /**
     * A NUT {@code v}: an unsigned number, 7 bits a byte, the high bit set on all but the last.
     *
     * @return it.
     * @throws IOException if the stream ends inside it, or it is longer than 64 bits.
     */
    long getV() throws IOException
    {
        long value = 0;
        for (int i = 0; i < 10; i++)
        {
            if (ahead.remaining() == 0 && !fill(1))
            {
                throw malformed("the stream ended inside a number");
            }
            final int b = ahead.get() & 0xFF;
            value = (value << 7) | (b & 0x7F);
            if ((b & 0x80) == 0)
            {
                return value;
            }
        }
        throw malformed("a number longer than 64 bits");
    }

    /**
     * A NUT {@code s}: a signed number coded as a {@code v}.
     *
     * @return it.
     * @throws IOException as {@link #getV()}.
     */
    long getS() throws IOException
    {
        final long v = getV() + 1;
        return (v & 1) != 0 ? -(v >>> 1) : v >>> 1;
    }

    /**
     * Makes {@code n} bytes available in the read-ahead, reading as much as the channel gives.
     *
     * @param n at most {@link #READ_AHEAD}.
     * @return false if the channel ended first (what was there stays available).
     * @throws IOException on a read error.
     */
    boolean fill(final int n) throws IOException
    {
        final ByteBuffer ahead = this.ahead;
        if (ahead.remaining() >= n)
        {
            return true;
        }
        ahead.compact();
        try
        {
            while (ahead.position() < n)
            {
                if (read(ahead) < 0)
                {
                    return false;
                }
            }
            return true;
        }
        finally
        {
            ahead.flip();
        }
    }

    /**
     * Skips bytes.
     *
     * @param size how many.
     * @return false if the stream ended inside them.
     * @throws IOException on a read error.
     */
    boolean skip(final long size) throws IOException
    {
        long left = size;
        while (left > 0)
        {
            if (ahead.remaining() == 0 && !fill(1))
            {
                return false;
            }
            final int n = (int)Math.min(left, ahead.remaining());
            ahead.position(ahead.position() + n);
            left -= n;
        }
        return true;
    }

    /**
     * Skips bytes inside a packet, where the stream must not end.
     *
     * @param n how many.
     * @throws IOException if it ends there, or on a read error.
     */
    void skipInPacket(final int n) throws IOException
    {
        if (!skip(n))
        {
            throw malformed("the stream ended inside a packet header");
        }
    }

    /**
     * Reads a frame's data into a destination: the read-ahead part with one memory copy, the rest
     * by channel reads straight into {@code view}.
     *
     * @param dst  the destination's memory.
     * @param view a {@code ByteBuffer} over the same memory, at least {@code size} long.
     * @param size the frame's data size.
     * @return false if the stream ended inside the data (the destination then holds a part).
     * @throws IOException on a read error.
     */
    boolean readData(final MutableDirectBuffer dst, final ByteBuffer view, final int size) throws IOException
    {
        final ByteBuffer ahead = this.ahead;
        final int buffered = Math.min(ahead.remaining(), size);
        if (buffered > 0)
        {
            dst.putBytes(0, aheadView, ahead.position(), buffered);
            ahead.position(ahead.position() + buffered);
        }
        view.limit(size).position(buffered);
        while (view.hasRemaining())
        {
            if (read(view) < 0)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * An error for data that is not what ffmpeg's NUT muxer writes, with where it is.
     *
     * @param what what was found.
     * @return the exception to throw.
     */
    IOException malformed(final String what)
    {
        return new IOException("unexpected NUT stream from ffmpeg near byte " + offset() + ": " + what);
    }

    private int read(final ByteBuffer into) throws IOException
    {
        blockedSinceNanos = System.nanoTime() | 1; // never 0 while blocked
        try
        {
            final int n = channel.read(into);
            if (n > 0)
            {
                consumed += n;
            }
            return n;
        }
        finally
        {
            blockedSinceNanos = 0;
        }
    }
}
