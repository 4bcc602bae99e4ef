package dev.framewire.remote;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The link's HMAC is the JDK's HmacSHA256; GCM round-trips and refuses tampering; key files are owner-only. */
class LinkAuthTest
{
    private static final int H = RemoteDescriptor.HEADER_LENGTH;

    @Test
    void theTagIsTheJdkHmacOfTheHeaderWithAZeroTagAndThePayload() throws Exception
    {
        final byte[] key = new byte[32];
        new Random(1).nextBytes(key);
        final Random random = new Random(2);
        for (final int length : new int[] {0, 1, 63, 64, 65, 16 * 1024, 16 * 1024 + 7, 100_000})
        {
            final UnsafeBuffer b = new UnsafeBuffer(ByteBuffer.allocateDirect(H + length));
            final byte[] bytes = new byte[H + length];
            random.nextBytes(bytes);
            b.putBytes(0, bytes);
            final long epoch = random.nextLong();
            RemoteDescriptor.putOrigin(b, 0, epoch, 1, 2);
            final LinkAuth auth = new LinkAuth(key);
            auth.epoch(epoch, 7);
            auth.begin(b, 0);
            auth.update(b, H, length);
            auth.finish();
            auth.putTag(b, 0);

            // the JDK's own: HMAC-SHA256 under the key derived for the epoch and stream id
            final byte[] context = ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(epoch)
                .putInt(7).array();
            final byte[] macKey = LinkAuth.hmac(key, "framewire remote v2 mac".getBytes(), context);
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(macKey, "HmacSHA256"));
            final byte[] message = new byte[H + length];
            b.getBytes(0, message);
            Arrays.fill(message, RemoteDescriptor.TAG_OFFSET, RemoteDescriptor.TAG_OFFSET + 16, (byte)0);
            final byte[] expected = Arrays.copyOf(mac.doFinal(message), 16);
            final byte[] tag = new byte[16];
            b.getBytes(RemoteDescriptor.TAG_OFFSET, tag);
            assertArrayEquals(expected, tag, "length " + length);

            final LinkAuth receiver = new LinkAuth(key);
            receiver.epoch(epoch, 7);
            receiver.begin(b, 0);
            receiver.update(b, H, length);
            receiver.finish();
            assertTrue(receiver.verify());
            receiver.epoch(epoch, 8); // another stream's keys
            receiver.begin(b, 0);
            receiver.update(b, H, length);
            receiver.finish();
            assertFalse(receiver.verify(), "a message of stream 7 does not verify as stream 8's");
        }
    }

    @Test
    void gcmRoundTripsAndRefusesATamperedHeaderOrPayload()
    {
        final byte[] key = new byte[32];
        new Random(3).nextBytes(key);
        final int length = 5000;
        final UnsafeBuffer header = new UnsafeBuffer(ByteBuffer.allocateDirect(H));
        RemoteDescriptor.putHeader(header, 0, RemoteDescriptor.PACKET, RemoteDescriptor.KIND_BYTES,
            RemoteDescriptor.FLAG_AUTHENTICATED | RemoteDescriptor.FLAG_ENCRYPTED, 9, length, 33, 4);
        RemoteDescriptor.putOrigin(header, 0, 77, 5, 6);
        final ByteBuffer data = ByteBuffer.allocateDirect(length + 16);
        final byte[] plain = new byte[length];
        new Random(4).nextBytes(plain);
        data.put(plain).clear();
        final LinkAuth sender = new LinkAuth(key);
        sender.epoch(77, 9);
        sender.begin(header, 0);
        sender.encrypt(data.duplicate(), data, length, 5, header, 0);
        final byte[] cipher = new byte[length];
        data.clear();
        data.get(cipher).clear();
        assertFalse(Arrays.equals(plain, cipher), "encrypted");

        final ByteBuffer out = ByteBuffer.allocateDirect(length);
        final LinkAuth receiver = new LinkAuth(key);
        receiver.epoch(77, 9);
        receiver.begin(header, 0);
        assertTrue(receiver.decrypt(data, length, 5, out));
        final byte[] back = new byte[length];
        out.flip().get(back);
        assertArrayEquals(plain, back);

        data.put(100, (byte)(data.get(100) ^ 1));
        receiver.begin(header, 0);
        assertFalse(receiver.decrypt(data, length, 5, out.clear()), "a flipped ciphertext bit");
        data.put(100, (byte)(data.get(100) ^ 1));
        header.putLong(RemoteDescriptor.TIMESTAMP_OFFSET, 34);
        receiver.begin(header, 0);
        assertFalse(receiver.decrypt(data, length, 5, out.clear()), "a changed timestamp in the header");
    }

    @Test
    void keyFilesAreOwnerOnlyAndOfAKeysSize(@TempDir final Path dir) throws Exception
    {
        final Path good = dir.resolve("good.key");
        RemoteKey.generate(good);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(good)));
        assertEquals(32, RemoteKey.load(good, "k").length);

        Files.setPosixFilePermissions(good, PosixFilePermissions.fromString("rw-r--r--"));
        final IllegalArgumentException open = assertThrows(IllegalArgumentException.class,
            () -> RemoteKey.load(good, "node 'rx': option 'key_file'"));
        assertTrue(open.getMessage().startsWith("node 'rx': option 'key_file' is " + good + ", whose permissions " +
            "(rw-r--r--) let its group or others at it"), open.getMessage());
        assertTrue(open.getMessage().endsWith("valid is owner-only (chmod 600 " + good + ")"), open.getMessage());

        final Path shortKey = dir.resolve("short.key");
        Files.write(shortKey, new byte[8]);
        Files.setPosixFilePermissions(shortKey, PosixFilePermissions.fromString("rw-------"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RemoteKey.load(shortKey, "k")).getMessage()
            .contains("of 8 bytes; valid is a file of 32 to 1024 random bytes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RemoteKey.load(dir.resolve("none"), "k"))
            .getMessage().contains("which is not a file"));
    }
}
