package dev.framewire.core.config;

import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * An enum value the config format does not know is an error that lists the valid values, where
 * it was (file, line, column), as every other config error does; not protobuf's bare "has no value
 * named".
 */
class EnumErrorsTest
{
    private static final String NODES = "\noutput_stream: \"n\"\nnode { name: \"count\" calculator: " +
        "\"CountingSourceCalculator\" output_stream: \"n\" }\n";

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "failure_policy: DROP_EVERYTHING|1:17|unknown FailurePolicy value 'DROP_EVERYTHING'; valid values are " +
            "[FAIL_RUN, ISOLATE, DROP_TIMESTAMP]",
        "schedule_order: FIFO|1:17|unknown ScheduleOrder value 'FIFO'; valid values are [MEDIAPIPE, BMF, " +
            "COMPLETION_PRESSURE]",
        "backpressure: NONE|1:15|unknown Backpressure value 'NONE'; valid values are [SOURCES, ALL_NODES]",
        "memory_limit_policy: DROP_NEWEST|1:22|unknown MemoryLimitPolicy value 'DROP_NEWEST'; valid values are " +
            "[FAIL, DROP_OLDEST]",
        "executor { name: \"e\" idle_strategy: SLEEP }|1:37|unknown IdleStrategy value 'SLEEP'; valid values are " +
            "[PARK, BUSY_SPIN, YIELD, BACKOFF]",
        "failure_policy: 7|1:17|unknown FailurePolicy value 7; valid values are [FAIL_RUN, ISOLATE, DROP_TIMESTAMP]"})
    void anUnknownEnumValueListsTheValidOnes(final String line, final String where, final String expected)
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class,
            () -> GraphConfigText.parse(line + NODES, "g.pbtxt"));
        assertEquals(1, ex.errors().size(), ex.getMessage());
        assertEquals("g.pbtxt:" + where + ": " + expected, ex.errors().get(0));
    }
}
