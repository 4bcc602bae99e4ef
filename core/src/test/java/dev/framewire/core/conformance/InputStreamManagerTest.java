package dev.framewire.core.conformance;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.Timestamp;
import dev.framewire.core.TimestampException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.framewire.core.conformance.Conformance.boundObserver;
import static dev.framewire.core.conformance.Conformance.snapshot;
import static dev.framewire.core.conformance.Conformance.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MediaPipe's {@code mediapipe/framework/input_stream_manager_test.cc}: what an input stream
 * takes. MediaPipe feeds its input stream manager directly; here the packets and bounds go into a
 * graph input, whose refusals reach the caller and, as MediaPipe's graph does, put the run in error
 * (a refused packet is the first failure {@code waitUntilDone()} reports), and a bound-processing node
 * shows what arrived ({@code value@ts} for a packet, {@code -@settled} for a bound).
 */
class InputStreamManagerTest
{
    private static Graph graph(final List<String> seen)
    {
        return new Graph(GraphConfig.builder()
            .inputStream("in")
            .node("observer", n -> n.calculator(boundObserver(seen)).inputStream("in"))
            .build());
    }

    private static String refused(final Graph graph, final long timestamp)
    {
        return assertThrows(TimestampException.class, () -> graph.addPacket("in", 0L, timestamp),
            "a packet at " + Timestamp.toString(timestamp)).getMessage();
    }

    /** The refused add put the run in error: later adds fail, and waitUntilDone reports the refusal. */
    private static void assertRunFailedAt(final Graph graph, final String message) throws InterruptedException
    {
        final IllegalStateException later = assertThrows(IllegalStateException.class, () -> graph.addPacket("in", 0L,
            Timestamp.MAX));
        assertTrue(later.getMessage().contains("'in'"), later.getMessage());
        final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
        assertEquals("graph input 'in'", ex.failures().get(0).node());
        assertEquals(message, assertInstanceOf(TimestampException.class, ex.failures().get(0).cause()).getMessage());
    }

    // input_stream_manager_test.cc, TEST_F(InputStreamManagerTest, AddPackets)
    @Test
    @Timeout(20)
    void addPackets() throws Exception
    {
        final List<String> seen = syncList();
        try (Graph graph = graph(seen))
        {
            graph.start();
            graph.addPacket("in", 10L, 10);
            graph.addPacket("in", 20L, 20);
            graph.addPacket("in", 30L, 30);
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(List.of("10@10", "20@20", "30@30", "-@Max"), snapshot(seen));
        }
    }

    // input_stream_manager_test.cc, TEST_F(InputStreamManagerTest, AddPacketUnset), AddPacketUnstarted,
    // AddPacketOneOverPostStream, AddPacketDone
    @Test
    @Timeout(20)
    void addPacketAtATimestampNoPacketMayCarry() throws Exception
    {
        for (final long ts : new long[] {Timestamp.UNSET, Timestamp.UNSTARTED, Timestamp.ONE_OVER_POST_STREAM,
            Timestamp.DONE})
        {
            try (Graph graph = graph(syncList()))
            {
                graph.start();
                final String message = refused(graph, ts);
                assertTrue(message.contains(Timestamp.toString(ts)) && message.contains("'in'"), message);
                assertRunFailedAt(graph, message);
            }
        }
}

// input_stream_manager_test.cc, TEST_F(InputStreamManagerTest, AddPacketsOnlyPreStream), AddPacketsAfterPreStream
    @Test
    @Timeout(20)
    void addPacketsAfterPreStream() throws Exception
    {
        final List<String> seen = syncList();
        try (Graph graph = graph(seen))
        {
            graph.start();
            graph.addPacket("in", 1L, Timestamp.PRE_STREAM);
            graph.waitUntilIdle(); // delivered before the refusal puts the run in error
            final String message = refused(graph, 10);
            assertTrue(message.contains("10") && message.contains("'in'"), message);
            assertRunFailedAt(graph, message);
            assertEquals("1@PreStream", snapshot(seen).get(0));
        }
    }

    // input_stream_manager_test.cc, TEST_F(InputStreamManagerTest, AddPacketsOnlyPostStream), AddPacketsBeforePostStream
    @Test
    @Timeout(20)
    void addPacketsBeforePostStream() throws Exception
    {
        final List<String> seen = syncList();
        try (Graph graph = graph(seen))
        {
            graph.start();
            graph.addPacket("in", 1L, 10);
            graph.waitUntilIdle(); // delivered before the refusal puts the run in error
            final String message = refused(graph, Timestamp.POST_STREAM);
            assertTrue(message.contains("PostStream") && message.contains("'in'"), message);
            assertRunFailedAt(graph, message);
            assertEquals("1@10", snapshot(seen).get(0));
        }
        final List<String> alone = syncList();
        try (Graph graph = graph(alone))
        {
            graph.start();
            graph.addPacket("in", 1L, Timestamp.POST_STREAM);
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertTrue(alone.contains("1@PostStream"), alone.toString());
        }
    }

    // input_stream_manager_test.cc, TEST_F(InputStreamManagerTest, AddPacketsReverseTimestamps)
    @Test
    @Timeout(20)
    void addPacketsReverseTimestamps() throws Exception
    {
        try (Graph graph = graph(syncList()))
        {
            graph.start();
            graph.addPacket("in", 1L, 20);
            final String message = refused(graph, 10);
            assertTrue(message.contains("10") && message.contains("20"), message);
            assertRunFailedAt(graph, message);
        }
    }

    // input_stream_manager_test.cc, TEST_F(InputStreamManagerTest, BackwardsInTime)
    @Test
    @Timeout(20)
    void backwardsInTime() throws Exception
    {
        final List<String> seen = syncList();
        try (Graph graph = graph(seen))
        {
            graph.start();
            graph.addPacket("in", 1L, 10);
            graph.addPacket("in", 2L, 20);
            graph.setInputBound("in", 50);
            graph.waitUntilIdle();
            final TimestampException lower = assertThrows(TimestampException.class,
                () -> graph.setInputBound("in", 40));
            assertTrue(lower.getMessage().contains("40") && lower.getMessage().contains("50"), lower.getMessage());
            graph.addPacket("in", 4L, 110);
            graph.waitUntilIdle();
            graph.setInputBound("in", 151);
            graph.waitUntilIdle();
            final String late = refused(graph, 130);
            assertTrue(late.contains("151") && late.contains("130"), late);
            assertRunFailedAt(graph, late);
            assertEquals(List.of("1@10", "2@20", "-@49", "4@110", "-@150"), snapshot(seen));
        }
        try (Graph graph = graph(syncList()))
        {
            graph.start();
            graph.setInputBound("in", 50);
            final String message = refused(graph, 30);
            assertTrue(message.contains("50") && message.contains("30"), message);
            assertRunFailedAt(graph, message);
        }
    }

    // input_stream_manager_test.cc, TEST_F(InputStreamManagerTest, TimestampBound)
    @Test
    @Timeout(20)
    void timestampBound() throws Exception
    {
        final List<String> seen = syncList();
        try (Graph graph = graph(seen))
        {
            graph.start();
            graph.pause();
            graph.addPacket("in", 10L, 10);
            graph.addPacket("in", 20L, 20);
            graph.setInputBound("in", 30);
            graph.setInputBound("in", 40);
            graph.setInputBound("in", 50);
            graph.resume();
            graph.waitUntilIdle();
            // the queued packets come first, then the bound they were ahead of
            assertEquals(List.of("10@10", "20@20", "-@49"), snapshot(seen));
            graph.setInputBound("in", 60);
            graph.waitUntilIdle();
            assertEquals(List.of("10@10", "20@20", "-@49", "-@59"), snapshot(seen));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }
}
