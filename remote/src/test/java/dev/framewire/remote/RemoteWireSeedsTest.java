package dev.framewire.remote;

import dev.framewire.offheap.Payload;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RemoteWireFuzzTest}'s seeds are what the publisher's calls write today, and the
 * subscriber's assembler delivers every packet of each, so the fuzzer starts from messages that
 * get past the header checks and the authentication.
 */
class RemoteWireSeedsTest
{
    private static final String[] NAMES = {"no_key", "header_auth", "payload_auth", "aes_gcm"};

    /** {@code -Dframewire.fuzz.writeSeeds=DIR} (the Inputs/fragments directory) writes them anew first. */
    @BeforeAll
    static void writeSeeds() throws IOException
    {
        final String writeTo = System.getProperty("framewire.fuzz.writeSeeds");
        for (int mode = 0; writeTo != null && mode < RemoteWireFuzzTest.MODES; mode++)
        {
            Files.write(Path.of(writeTo, "seed_" + NAMES[mode] + ".bin"), RemoteWireSeeds.seed(mode));
        }
    }

    @Test
    void theSeedsAreThePublishersMessagesAndAllAreDelivered() throws IOException
    {
        for (int mode = 0; mode < RemoteWireFuzzTest.MODES; mode++)
        {
            final byte[] seed = RemoteWireSeeds.seed(mode);
            assertArrayEquals(seed, committed("seed_" + NAMES[mode] + ".bin"), "seed " + NAMES[mode] + " is out of date");
            final RemoteWireFuzzTest.Delivered delivered = RemoteWireFuzzTest.deliver(seed);
            delivered.endCall();
            try
            {
                assertEquals(RemoteWireSeeds.PACKETS, delivered.values.size(), NAMES[mode] + ": " + delivered.values);
                assertEquals(42L, delivered.values.get(0));
                assertEquals(2.5, delivered.values.get(1));
                final Payload bytes = (Payload)delivered.values.get(2);
                assertEquals(40, bytes.length());
                assertEquals((byte)(39 * 3), bytes.buffer().getByte(39), NAMES[mode] + ": the payload decrypted");
                final Payload frame = (Payload)delivered.values.get(3);
                assertTrue(frame.width() == 4 && frame.height() == 2 && frame.buffer().getByte(7) == 8, NAMES[mode]);
            }
            finally
            {
                delivered.release();
            }
        }
    }

    private static byte[] committed(final String name) throws IOException
    {
        try (InputStream in = RemoteWireSeedsTest.class.getResourceAsStream("RemoteWireFuzzTestInputs/fragments/" + name))
        {
            assertNotNull(in, name + " (write it with RemoteWireSeeds.seed)");
            return in.readAllBytes();
        }
    }
}
