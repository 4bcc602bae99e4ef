package dev.framewire.core.calculators.video;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The relay's Digest arithmetic against RFC 2617's worked example, and which urls it takes. */
class RtspPublishRelayTest
{
    @Test
    void digestMatchesRfc2617Example()
    {
        // RFC 2617 section 3.5: Mufasa / "Circle Of Life", qop=auth, nc=00000001, cnonce 0a4f113b
        assertEquals("6629fae49393a05397450978507c4ef1", RtspPublishRelay.digest("Mufasa", "testrealm@host.com",
            "Circle Of Life", "GET", "/dir/index.html", "dcd98b7102dd2f0e8b11d0f600bfb0c093", "00000001", "0a4f113b"));
    }

    @Test
    void takesRtspUrlsWithAPasswordOnly()
    {
        assertTrue(RtspPublishRelay.applies("rtsp://pub:secret@10.0.0.5:8554/live"));
        assertFalse(RtspPublishRelay.applies("rtsp://10.0.0.5:8554/live"));
        assertFalse(RtspPublishRelay.applies("rtsp://pub@10.0.0.5/live"));
        assertFalse(RtspPublishRelay.applies("rtmp://pub:secret@10.0.0.5/live"));
    }
}
