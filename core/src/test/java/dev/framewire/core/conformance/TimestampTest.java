package dev.framewire.core.conformance;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.Timestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.framewire.core.Timestamp.DONE;
import static dev.framewire.core.Timestamp.MAX;
import static dev.framewire.core.Timestamp.MIN;
import static dev.framewire.core.Timestamp.ONE_OVER_POST_STREAM;
import static dev.framewire.core.Timestamp.POST_STREAM;
import static dev.framewire.core.Timestamp.PRE_STREAM;
import static dev.framewire.core.Timestamp.UNSET;
import static dev.framewire.core.Timestamp.UNSTARTED;
import static dev.framewire.core.conformance.Conformance.observe;
import static dev.framewire.core.conformance.Conformance.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The arithmetic cases of MediaPipe's {@code mediapipe/framework/timestamp_test.cc}: sums clamp to
 * [Min, Max], and a node with an offset that got an input near Max emits at Max instead of failing.
 */
class TimestampTest
{
    // timestamp_test.cc, TEST(TimestampTest, Clamping)
    @Test
    void clamping()
    {
        assertEquals(MAX, Timestamp.add(MAX - 100, 100));
        assertEquals(MAX, Timestamp.add(MAX - 100, 200));
        assertEquals(MAX - 1, Timestamp.add(MAX - 100, 99));
        assertEquals(MIN, Timestamp.subtract(MIN + 100, 100));
        assertEquals(MIN, Timestamp.subtract(MIN + 100, 200));
        assertEquals(MIN + 1, Timestamp.subtract(MIN + 100, 99));
        assertNotEquals(MAX, Timestamp.subtract(MAX, 100));
        assertNotEquals(MIN, Timestamp.add(MIN, 100));
        assertEquals(MAX, Timestamp.add(MAX - 1, Long.MAX_VALUE), "no overflow past Long.MAX_VALUE");
        assertEquals(MIN, Timestamp.add(MIN + 1, Long.MIN_VALUE), "no overflow past Long.MIN_VALUE");
        assertEquals(MIN, Timestamp.subtract(0, Long.MAX_VALUE));
        assertEquals(MAX, Timestamp.subtract(0, Long.MIN_VALUE));
    }

    // timestamp_test.cc, TEST(TimestampTest, AddZeroToMinAndMax)
    @Test
    void addZeroToMinAndMax()
    {
        assertEquals(MAX, Timestamp.add(MAX, 0));
        assertEquals(MIN, Timestamp.add(MIN, 0));
        assertEquals(MAX, Timestamp.subtract(MAX, 0));
        assertEquals(MIN, Timestamp.subtract(MIN, 0));
    }

    // timestamp_test.cc, TEST(TimestampTest, IncrementInPlace)
    @Test
    void incrementInPlace()
    {
        long val = 100;
        val = Timestamp.add(val, 100);
        assertEquals(200, val);
        val = Timestamp.subtract(Timestamp.add(val, 1), 51);
        assertEquals(150, val);
        val = Timestamp.add(Timestamp.subtract(val, 150), 10);
        assertEquals(10, val);
        assertEquals(-40, Timestamp.subtract(val, 50));
    }

    // timestamp_test.cc, TEST(TimestampDeathTest, Overflow): MediaPipe dies on PostStream() + 0; ours
    // leaves every special value as it is (a bound such as Done stays Done).
    @Test
    void specialValuesAreLeftAsTheyAre()
    {
        for (final long special : new long[]{UNSET, UNSTARTED, PRE_STREAM, POST_STREAM, ONE_OVER_POST_STREAM, DONE})
        {
            assertEquals(special, Timestamp.add(special, 5), Timestamp.toString(special));
            assertEquals(special, Timestamp.subtract(special, 5), Timestamp.toString(special));
        }
    }

    // timestamp_test.cc, TEST(TimestampTest, NextAllowedInStream)
    @Test
    void nextAllowedInStream()
    {
        assertEquals(ONE_OVER_POST_STREAM, Timestamp.nextAllowedInStream(PRE_STREAM));
        assertEquals(MIN + 1, Timestamp.nextAllowedInStream(MIN));
        assertEquals(MIN + 2, Timestamp.nextAllowedInStream(MIN + 1));
        assertEquals(-999, Timestamp.nextAllowedInStream(-1000));
        assertEquals(1, Timestamp.nextAllowedInStream(0));
        assertEquals(MAX - 1, Timestamp.nextAllowedInStream(MAX - 2));
        assertEquals(MAX, Timestamp.nextAllowedInStream(MAX - 1));
        assertEquals(ONE_OVER_POST_STREAM, Timestamp.nextAllowedInStream(MAX));
        assertEquals(ONE_OVER_POST_STREAM, Timestamp.nextAllowedInStream(POST_STREAM));
    }

    /** MediaPipe's TimeShiftCalculator: offset {@code shift}, each packet again {@code shift} later, clamped. */
    private static Calculator timeShift(final long shift)
    {
        return new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.setOffset(shift);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                ctx.output(0).addLong(ctx.input(0).getLong(), Timestamp.add(ctx.inputTimestamp(), shift));
            }
        };
    }

    // issue 40: with the clamp, an offset node that got an input near Max emits at Max and the run ends OK
    // (the offset's bound is Max, not OneOverPostStream).
    @Test
    @Timeout(10)
    void offsetNodeNearMaxEmitsAtMax() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .node("shift", n -> n.calculator(() -> timeShift(200)).inputStream("in").outputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<String> out = observe(graph, "out");
            graph.start();
            graph.addPacket("in", 1L, 0);
            graph.addPacket("in", 2L, MAX - 100);
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(List.of("1@200", "2@Max"), snapshot(out));
        }
    }
}
