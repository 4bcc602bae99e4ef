package dev.framewire.core.calculators.video;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link NutDemuxerFuzzTest} found, each kept as a named input under
 * {@code NutDemuxerFuzzTestInputs/demux/} and read here for the clear error it now gets.
 */
class NutDemuxerFindingsTest
{
    /** Was a division by zero: a syncpoint before the main header, when there are no time bases yet. */
    @Test
    void aSyncpointBeforeTheHeadersIsMalformed() throws IOException
    {
        assertMalformed("finding_syncpoint_before_headers.nut", "a syncpoint before the stream header");
    }

    /** Was an OutOfMemoryError: a fourcc length near 2^31 overflowed the bounds check and sized a StringBuilder. */
    @Test
    void aFourccLengthPastThePacketIsMalformed() throws IOException
    {
        assertMalformed("finding_fourcc_length_overflow.nut", "past the stream header's end");
    }

    static void assertMalformed(final String finding, final String what) throws IOException
    {
        final NutDemuxer demuxer = new NutDemuxer();
        demuxer.reset(Channels.newChannel(new ByteArrayInputStream(bytes(finding))));
        final IOException ex = assertThrows(IOException.class, () ->
        {
            demuxer.readHeaders();
            while (demuxer.nextFrame() >= 0)
            {
                demuxer.skip(0);
            }
        });
        assertTrue(ex.getMessage().startsWith("unexpected NUT stream from ffmpeg near byte ") &&
            ex.getMessage().contains(what), ex.getMessage());
    }

    private static byte[] bytes(final String finding) throws IOException
    {
        try (InputStream in = NutDemuxerFindingsTest.class.getResourceAsStream("NutDemuxerFuzzTestInputs/demux/" + finding))
        {
            assertNotNull(in, finding);
            return in.readAllBytes();
        }
    }
}
