package dev.framewire.tools;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code validate} refuses what {@code run} refuses: each bad config here is run through both, and
 * both must refuse it, {@code validate} naming the problem. The issue found eight configs that
 * validated and then failed at run time, because calculators checked them only in {@code open}
 * (their streams, an option's form) and the executor's CPU was checked only when a worker pinned
 * itself; those checks are now also the calculators' contract checks, run at validation.
 *
 * <p>What validate cannot know and run can stays out of this set: the side packets given with
 * {@code --side}, files and directories the run opens (they may exist only where it runs).
 */
@Timeout(300)
class ValidateRunParityTest
{
    private static final String HEAD = "executor { name: \"default\" num_threads: 1 idle_strategy: PARK }\n";
    private static final String COUNT = "node { name: \"count\" calculator: \"CountingSourceCalculator\" " +
        "output_stream: \"n\" }\n";

    @TempDir
    Path dir;

    static Stream<Arguments> badConfigs()
    {
        return Stream.of(
            Arguments.of("counting step 0", "output_stream: \"n\"\nnode { name: \"count\" calculator: " +
                "\"CountingSourceCalculator\" output_stream: \"n\" option { name: \"step\" int_value: 0 } }\n",
                "option 'step'"),
            Arguments.of("gate state", "output_stream: \"o\"\n" + COUNT + "node { name: \"g\" calculator: " +
                "\"GateCalculator\" input_stream: \"n\" output_stream: \"o\" option { name: \"initial_gate_state\" " +
                "string_value: \"HALF\" } }\n", "option 'initial_gate_state'"),
            Arguments.of("flow limiter 0", "output_stream: \"o\"\n" + COUNT + "node { name: \"f\" calculator: " +
                "\"FlowLimiterCalculator\" input_stream: \"n\" output_stream: \"o\" option { name: \"max_in_flight\" " +
                "int_value: 0 } }\n", "option 'max_in_flight'"),
            Arguments.of("cloner outputs", "output_stream: \"o\"\n" + COUNT + "node { name: \"c\" calculator: " +
                "\"PacketClonerCalculator\" input_stream: \"n\" input_stream: \"TICK:n\" output_stream: \"o\" " +
                "output_stream: \"p\" }\n", "node 'c': PacketClonerCalculator needs one output per data input, in " +
                "order: it has 1 data inputs (the tick is the input tagged TICK) and 2 outputs; valid is 1 outputs"),
            Arguments.of("cloner lone input", "output_stream: \"o\"\n" + COUNT + "node { name: \"c\" calculator: " +
                "\"PacketClonerCalculator\" input_stream: \"n\" output_stream: \"o\" }\n",
                "node 'c': PacketClonerCalculator has 1 input and none tagged TICK: nothing to clone"),
            Arguments.of("cloner tag", "output_stream: \"o\"\n" + COUNT + "node { name: \"c\" calculator: " +
                "\"PacketClonerCalculator\" input_stream: \"DATA:n\" input_stream: \"TICK:n\" output_stream: \"o\" }\n",
                "node 'c': PacketClonerCalculator input 0 ('n') is tagged DATA; valid are untagged data inputs " +
                "and at most one input tagged TICK"),
            Arguments.of("latency stamp outputs", "output_stream: \"o\"\n" + COUNT + "node { name: \"l\" calculator: " +
                "\"LatencyStampCalculator\" input_stream: \"n\" output_stream: \"o\" output_stream: \"p\" }\n",
                "node 'l': LatencyStampCalculator needs no outputs or one per input; it has 1 inputs and 2 outputs"),
            Arguments.of("video url empty", "output_stream: \"o\"\nnode { name: \"v\" calculator: " +
                "\"VideoSourceCalculator\" output_stream: \"o\" option { name: \"url\" string_value: \"\" } }\n",
                "node 'v': option 'url' is empty; give a file path or a stream url"),
            Arguments.of("folder glob", "output_stream: \"o\"\nnode { name: \"f\" calculator: " +
                "\"ImageFolderSourceCalculator\" output_stream: \"o\" option { name: \"directory\" string_value: \".\" } " +
                "option { name: \"pattern\" string_value: \"[\" } }\n", "node 'f': option 'pattern' is '[', not a " +
                "valid glob: "),
            Arguments.of("folder sink prefix", "node { name: \"cam\" calculator: \"SyntheticCameraCalculator\" " +
                "output_stream: \"n\" option { name: \"frames\" int_value: 2 } }\nnode { name: \"s\" calculator: " +
                "\"ImageFolderSinkCalculator\" input_stream: \"n\" option { name: \"directory\" string_value: \"out\" } " +
                "option { name: \"prefix\" string_value: \"a/b\" } }\n", "node 's': option 'prefix' is 'a/b'; it must " +
                "not contain a path separator"),
            Arguments.of("cpu 999", "output_stream: \"n\"\nexecutor { name: \"pinned\" num_threads: 1 " +
                "idle_strategy: PARK cpu: 999 }\nnode { name: \"count\" calculator: \"CountingSourceCalculator\" " +
                "output_stream: \"n\" executor: \"pinned\" }\n", "executor 'pinned' pins worker 0 to CPU 999 (field " +
                "cpu), which this process cannot run on"),
            Arguments.of("enum value", "failure_policy: DROP_ALL\noutput_stream: \"n\"\n" + COUNT,
                "unknown FailurePolicy value 'DROP_ALL'; valid values are [FAIL_RUN, ISOLATE, DROP_TIMESTAMP]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badConfigs")
    void validateRefusesWhatRunRefuses(final String name, final String graph, final String problem) throws Exception
    {
        final Path file = Cli.write(dir, "bad.pbtxt", HEAD + graph);
        final Cli.Result run = Cli.run("run", file.toString(), "--no-journal", "--duration", "10");
        assertNotEquals(0, run.exit(), "run refuses it: " + run);
        final Cli.Result validate = Cli.run("validate", file.toString());
        assertEquals(1, validate.exit(), "validate refuses it too: " + validate);
        assertTrue(validate.err().contains(problem), validate.toString());
        assertTrue(run.err().contains(problem) || run.out().contains(problem), "both name the same problem: " + run);
    }
}
