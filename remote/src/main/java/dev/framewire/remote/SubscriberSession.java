package dev.framewire.remote;

import dev.framewire.offheap.Payload;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * One publisher session as an {@link AeronSubscriberCalculator} sees it: the fragmented message being
 * put together, the sequence expected next, and on an authenticated link the header fields its tag
 * check needs.
 *
 * <p>Threading: the subscriber's worker.
 */
final class SubscriberSession
{
    /** The next packet's sequence number, or -1 before the session's first message. */
    long nextSequence = -1;
    Payload payload;
    long timestamp;
    int expected;
    int received;
    /** The rest of a rejected message's fragments are to be skipped. */
    boolean skipping;
    /** Null until the session's first message on an authenticated link. */
    LinkAuth auth;
    /** The message's authentication waits for its payload (and decryption, when encrypted). */
    boolean deferred;
    boolean encrypted;
    /** The session sent an authentic message: it is a publisher, not only an Aeron session. */
    boolean authenticated;
    int type;
    long epoch;
    long message;
    long sent;
    long sequence;
    /** An encrypted payload's ciphertext, with room for its tag; grown to the largest, then kept. */
    ByteBuffer scratch;
    final UnsafeBuffer scratchBuffer = new UnsafeBuffer(0, 0);

    LinkAuth auth(final byte[] key)
    {
        if (auth == null)
        {
            auth = new LinkAuth(key); // once per session
        }
        return auth;
    }

    void ensureScratch(final int length)
    {
        final int needed = length + RemoteDescriptor.TAG_LENGTH;
        if (scratch == null || scratch.capacity() < needed)
        {
            scratch = ByteBuffer.allocateDirect(needed);
            scratchBuffer.wrap(scratch);
        }
    }

    void discard()
    {
        if (payload != null)
        {
            payload.release();
            payload = null;
        }
    }

    /** Takes payload bytes of the message being put together: into the payload, or (encrypted) the scratch. */
    void take(final DirectBuffer buffer, final int offset, final int length)
    {
        if (encrypted)
        {
            scratchBuffer.putBytes(received, buffer, offset, length);
        }
        else
        {
            payload.mutableBuffer().putBytes(received, buffer, offset, length);
            if (deferred)
            {
                auth.update(buffer, offset, length);
            }
        }
        received += length;
    }
}
