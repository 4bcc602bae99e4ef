package dev.framewire.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code framewire validate} and {@code framewire run} refuse a graph whose memory budget cannot
 * carry one frame through it, where the frame sizes follow from the options (a camera, a resize, a
 * colour conversion), naming the node, the stream, the sizes and the budget that would do; and
 * accept the same graph with that budget.
 */
@Timeout(120)
class FrameBudgetValidateTest
{
    @TempDir
    Path dir;

    /** camera 640x360 RGBA32 -> resize x2 (1280x720 RGBA32) -> RGB24: 8 MiB of slots held by 'cc' at once. */
    private static String chain(final long budget)
    {
        return "memory_budget_bytes: " + budget + "\n" +
            "output_stream: \"rgb\"\n" +
            "executor { name: \"default\" num_threads: 1 idle_strategy: PARK }\n" +
            "node {\n" +
            "  name: \"cam\"\n" +
            "  calculator: \"SyntheticCameraCalculator\"\n" +
            "  output_stream: \"frames\"\n" +
            "  option { name: \"width\" int_value: 640 }\n" +
            "  option { name: \"height\" int_value: 360 }\n" +
            "  option { name: \"frames\" int_value: 2 }\n" +
            "  option { name: \"fps\" double_value: 0 }\n" +
            "}\n" +
            "node {\n" +
            "  name: \"resize\"\n" +
            "  calculator: \"ResizeCalculator\"\n" +
            "  input_stream: \"frames\"\n" +
            "  output_stream: \"big\"\n" +
            "  option { name: \"factor\" double_value: 2.0 }\n" +
            "}\n" +
            "node {\n" +
            "  name: \"cc\"\n" +
            "  calculator: \"ColorConvertCalculator\"\n" +
            "  input_stream: \"big\"\n" +
            "  output_stream: \"rgb\"\n" +
            "  option { name: \"conversion\" string_value: \"RGBA_TO_RGB24\" }\n" +
            "}\n";
    }

    @Test
    void validateNamesTheNodeTheFramesAndTheBudgetThatWouldDo() throws Exception
    {
        final Path file = Cli.write(dir, "small.pbtxt", chain(8L << 20));
        final Cli.Result r = Cli.run("validate", file.toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("invalid graph '" + file + "'"), r.toString());
        assertTrue(r.err().contains("node 'cc': one frame on stream 'rgb' is 2764800 bytes (1280x720 RGB24) (a 4194304 " +
            "byte slot of the pool), held with its input frame on stream 'big' of 3686400 bytes (1280x720 RGBA32)"),
            r.toString());
        assertTrue(r.err().contains("but memory_budget_bytes 8388608 gives a hard limit of 6291456 bytes (75 %); valid " +
            "is memory_budget_bytes of at least 11184811"), r.toString());
        ValidateCommandTest.assertNoStackTrace(r);

        final Cli.Result run = Cli.run("run", file.toString());
        assertEquals(1, run.exit(), run.toString());
        assertTrue(run.err().contains("node 'cc': one frame on stream 'rgb' is 2764800 bytes"), run.toString());
    }

    @Test
    void theBudgetItNamesValidates() throws Exception
    {
        final Path file = Cli.write(dir, "enough.pbtxt", chain(11_184_811));
        final Cli.Result r = Cli.run("validate", file.toString());
        assertEquals(0, r.exit(), r.toString());
        assertEquals("valid: 3 nodes, 3 streams", r.out().trim(), r.toString());
    }
}
