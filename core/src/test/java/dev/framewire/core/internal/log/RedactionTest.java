package dev.framewire.core.internal.log;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RedactionTest
{
    @Test
    void rtmpStreamKeysAreMasked()
    {
        assertEquals("rtmp://a.rtmp.youtube.com/live2/***", Redaction.redact("rtmp://a.rtmp.youtube.com/live2/abcd-1234"));
        assertEquals("publishing to rtmps://h:443/app/*** failed", Redaction.redact("publishing to rtmps://h:443/app/k/ey failed"));
        assertEquals("rtmp://h/app/***?password=***", Redaction.redact("rtmp://h/app/key?password=p"));
        assertEquals("rtmp://h/app/***?user=cam&pass=***", Redaction.redact("rtmp://h/app/key?user=cam&pass=s3"),
            "MediaMTX's query credentials");
        assertEquals("rtmp://h/app", Redaction.redact("rtmp://h/app"), "no key, nothing to mask");
        assertEquals("rtsp://h/app/stream", Redaction.redact("rtsp://h/app/stream"), "RTSP paths are not keys");
    }

    @Test
    void masksThePasswordKeepsTheUser()
    {
        assertEquals("rtsp://admin:***@192.168.1.64:554/Streaming/Channels/101",
            Redaction.redact("rtsp://admin:pa55@192.168.1.64:554/Streaming/Channels/101"));
        assertEquals("rtsp://:***@cam/x", Redaction.redact("rtsp://:secret@cam/x"));
        assertEquals("rtsp://u:***@cam", Redaction.redact("rtsp://u:p@ss@cam"), "a password with '@' in it");
    }

    @Test
    void masksEveryUrlInALine()
    {
        assertEquals("[rtsp @ 0x1] rtsp://a:***@h/1 and srt://b:***@h:9000 failed: 401",
            Redaction.redact("[rtsp @ 0x1] rtsp://a:x@h/1 and srt://b:y@h:9000 failed: 401"));
    }

    @Test
    void masksSecretQueryParameters()
    {
        assertEquals("srt://127.0.0.1:9000?passphrase=***&latency=200000",
            Redaction.redact("srt://127.0.0.1:9000?passphrase=secret-1234&latency=200000"));
        assertEquals("srt://h:9000?mode=caller&Passphrase=*** failed: Input/output error",
            Redaction.redact("srt://h:9000?mode=caller&Passphrase=abcdefghij failed: Input/output error"));
        assertEquals("rtsp://u:***@cam/1?token=***", Redaction.redact("rtsp://u:p@cam/1?token=abc"));
        assertFalse(Redaction.hasPassword("srt://h:9000?passphrase=secret"), "user info only");
    }

    @Test
    void leavesTextWithoutAPasswordAlone()
    {
        final String plain = "udp://127.0.0.1:5000?pkt_size=1316";
        assertSame(plain, Redaction.redact(plain));
        assertEquals("rtsp://admin@cam/1", Redaction.redact("rtsp://admin@cam/1"));
        assertEquals("mail me at a@b.c", Redaction.redact("mail me at a@b.c"));
        assertFalse(Redaction.hasPassword("rtsp://admin@cam/1"));
        assertTrue(Redaction.hasPassword("rtsp://admin:x@cam/1"));
        assertEquals(null, Redaction.redact(null));
    }
}
