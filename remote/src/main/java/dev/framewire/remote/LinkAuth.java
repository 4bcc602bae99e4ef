package dev.framewire.remote;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

import static dev.framewire.remote.RemoteDescriptor.HEADER_LENGTH;
import static dev.framewire.remote.RemoteDescriptor.TAG_LENGTH;
import static dev.framewire.remote.RemoteDescriptor.TAG_OFFSET;

/**
 * Authenticates, and optionally encrypts, the messages of one remote link under the link's shared
 * key, with the JDK's own SHA-256 and AES-GCM.
 *
 * <p>Keys: each publisher run draws a random 64-bit epoch; the keys of its messages are derived
 * from the link key and the epoch ({@code HMAC-SHA256(link key, label || epoch || stream id)}, one
 * for authentication, one for encryption), so a message of one run or stream never verifies as
 * another's, and an AES-GCM nonce (the message number, unique within the epoch) is never used twice
 * under one key.
 *
 * <p>Authentication: HMAC-SHA256 (RFC 2104) over the 96-byte header with its tag bytes as zero and,
 * when the payload is authenticated, the payload; the first 16 bytes of the HMAC are the tag.
 * Written here over {@link MessageDigest} rather than with {@code javax.crypto.Mac}, whose
 * {@code doFinal} allocates its result: this way a message costs no allocation (payload bytes are
 * copied in chunks into a reused array). {@code LinkAuthTest} checks it against the JDK's
 * {@code HmacSHA256}.
 *
 * <p>Encryption: AES-256-GCM with a 96-bit nonce (the message number, then four zero bytes); the
 * header (tag as zero) is the additional authenticated data and GCM's 16-byte tag is the message's
 * tag. The JDK's GCM allocates a little per message (its parameter spec, per-init state).
 *
 * <p>Threading: not thread safe; one instance per thread and per message in flight (the publisher
 * has one; the subscriber one per Aeron session, as sessions' fragments interleave).
 */
final class LinkAuth
{
    private static final int BLOCK = 64;
    private static final int DIGEST = 32;
    private static final byte[] MAC_LABEL = "framewire remote v2 mac".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ENC_LABEL = "framewire remote v2 aes-gcm".getBytes(StandardCharsets.US_ASCII);

    private final byte[] linkKey;
    private final MessageDigest sha;
    private final byte[] ipad = new byte[BLOCK];
    private final byte[] opad = new byte[BLOCK];
    private final byte[] digest = new byte[DIGEST];
    private final byte[] chunk = new byte[16 * 1024];
    private final byte[] header = new byte[HEADER_LENGTH];
    private final byte[] expected = new byte[TAG_LENGTH];
    private final byte[] nonce = new byte[12];
    private Cipher gcm;
    private SecretKeySpec encryptionKey;
    private boolean keyed;
    private long epoch;
    private int streamId;

    /**
     * @param linkKey the link's shared key (see {@link RemoteKey}); kept, not copied.
     */
    LinkAuth(final byte[] linkKey)
    {
        this.linkKey = linkKey;
        try
        {
            sha = MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("this JDK has no SHA-256, which every Java SE platform must have", ex);
        }
    }

    /**
     * Takes the keys of a publisher run: a no-op when {@code epoch} and {@code streamId} are the
     * current ones, else derives them (allocates: once per run seen).
     */
    void epoch(final long epoch, final int streamId)
    {
        if (keyed && epoch == this.epoch && streamId == this.streamId)
        {
            return;
        }
        final byte[] context = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putLong(epoch).putInt(streamId).array();
        final byte[] macKey = hmac(linkKey, MAC_LABEL, context);
        for (int i = 0; i < BLOCK; i++)
        {
            final byte k = i < DIGEST ? macKey[i] : 0;
            ipad[i] = (byte)(k ^ 0x36);
            opad[i] = (byte)(k ^ 0x5c);
        }
        encryptionKey = new SecretKeySpec(hmac(linkKey, ENC_LABEL, context), "AES");
        this.epoch = epoch;
        this.streamId = streamId;
        keyed = true;
    }

    /**
     * Starts a message: keeps a copy of its header with the tag as zero, and the tag it carries
     * (for {@link #verify()}), and begins its HMAC with the header.
     */
    void begin(final DirectBuffer buffer, final int offset)
    {
        buffer.getBytes(offset, header, 0, HEADER_LENGTH);
        System.arraycopy(header, TAG_OFFSET, expected, 0, TAG_LENGTH);
        java.util.Arrays.fill(header, TAG_OFFSET, TAG_OFFSET + TAG_LENGTH, (byte)0);
        sha.reset();
        sha.update(ipad, 0, BLOCK);
        sha.update(header, 0, HEADER_LENGTH);
    }

    /** Adds payload bytes to the message's HMAC. */
    void update(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] chunk = this.chunk;
        int done = 0;
        while (done < length)
        {
            final int n = Math.min(chunk.length, length - done);
            buffer.getBytes(offset + done, chunk, 0, n);
            sha.update(chunk, 0, n);
            done += n;
        }
    }

    /** Ends the message's HMAC; the tag is then {@link #putTag}'s or {@link #verify()}'s. */
    void finish()
    {
        try
        {
            sha.digest(digest, 0, DIGEST);
            sha.update(opad, 0, BLOCK);
            sha.update(digest, 0, DIGEST);
            sha.digest(digest, 0, DIGEST);
        }
        catch (final java.security.DigestException ex)
        {
            throw new IllegalStateException(ex); // a 32-byte array always holds a SHA-256 digest
        }
    }

    /** Writes the tag {@link #finish()} computed into the header at {@code offset}. */
    void putTag(final MutableDirectBuffer buffer, final int offset)
    {
        buffer.putBytes(offset + TAG_OFFSET, digest, 0, TAG_LENGTH);
    }

    /** Whether the tag {@link #finish()} computed is the one the message carried, in constant time. */
    boolean verify()
    {
        int diff = 0;
        for (int i = 0; i < TAG_LENGTH; i++)
        {
            diff |= digest[i] ^ expected[i];
        }
        return diff == 0;
    }

    /**
     * Encrypts {@code length} bytes in place in {@code data} (positions 0 to length, with 16 bytes
     * of room after for GCM's tag) for the message whose header {@link #begin} took, and writes the
     * tag into that header at {@code headerOffset} of {@code headerBuffer}.
     *
     * @param source a view of the same memory as {@code data}: GCM reads one and writes the other.
     */
    void encrypt(final ByteBuffer source, final ByteBuffer data, final int length, final long message,
        final MutableDirectBuffer headerBuffer, final int headerOffset)
    {
        try
        {
            initGcm(Cipher.ENCRYPT_MODE, message);
            source.limit(length).position(0);
            data.limit(length + TAG_LENGTH).position(0);
            gcm.doFinal(source, data);
            headerBuffer.putBytes(headerOffset + TAG_OFFSET, data, length, TAG_LENGTH);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("AES-GCM encryption failed: " + ex, ex);
        }
    }

    /**
     * Decrypts the message whose header {@link #begin} took: {@code length} bytes of ciphertext at
     * position 0 of {@code source} (with 16 bytes of room after, where its tag is put) into
     * {@code target} from position 0.
     *
     * @return whether the ciphertext and header are authentic; on false {@code target} holds nothing to use.
     */
    boolean decrypt(final ByteBuffer source, final int length, final long message, final ByteBuffer target)
    {
        try
        {
            source.limit(length + TAG_LENGTH).position(length);
            source.put(expected, 0, TAG_LENGTH);
            source.position(0);
            initGcm(Cipher.DECRYPT_MODE, message);
            gcm.doFinal(source, target);
            return true;
        }
        catch (final AEADBadTagException ex)
        {
            return false;
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("AES-GCM decryption failed: " + ex, ex);
        }
    }

    private void initGcm(final int mode, final long message) throws GeneralSecurityException
    {
        if (gcm == null)
        {
            gcm = Cipher.getInstance("AES/GCM/NoPadding");
        }
        for (int i = 0; i < 8; i++)
        {
            nonce[i] = (byte)(message >>> (8 * i));
        }
        gcm.init(mode, encryptionKey, new GCMParameterSpec(TAG_LENGTH * 8, nonce));
        gcm.updateAAD(header, 0, HEADER_LENGTH);
    }

    /** HMAC-SHA256 of {@code a || b} under {@code key} with the JDK's Mac: for key derivation, rare. */
    static byte[] hmac(final byte[] key, final byte[] a, final byte[] b)
    {
        try
        {
            final javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(a);
            mac.update(b);
            return mac.doFinal();
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("this JDK has no HmacSHA256, which every Java SE platform must have", ex);
        }
    }
}
