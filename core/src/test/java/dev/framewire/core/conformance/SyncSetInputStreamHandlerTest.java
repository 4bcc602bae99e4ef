package dev.framewire.core.conformance;

import dev.framewire.core.Calculator;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.Timestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static dev.framewire.core.conformance.Conformance.snapshot;
import static dev.framewire.core.conformance.Conformance.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * MediaPipe's {@code mediapipe/framework/stream_handler/sync_set_input_stream_handler_test.cc}.
 */
class SyncSetInputStreamHandlerTest
{
    private static final String[] STREAMS = {"a", "b", "c", "d", "e", "f", "g", "h"};

    /** One step: a packet on a stream (or its close, at DONE), and the input sets it must complete. */
    private record Command(String stream, long timestamp, List<String> expected)
    {
    }

    private static Command cmd(final String stream, final long timestamp, final String... expected)
    {
        return new Command(stream, timestamp, List.of(expected));
    }

    /** An input set as MediaPipe's test prints it: the timestamp, then the index of each input with a packet. */
    private static String set(final long timestamp, final int... ids)
    {
        final StringBuilder sb = new StringBuilder(Timestamp.isValidPacketTimestamp(timestamp) &&
            timestamp != Timestamp.PRE_STREAM && timestamp != Timestamp.POST_STREAM ?
            "Timestamp(" + timestamp + ")" : Timestamp.toString(timestamp));
        for (final int id : ids)
        {
            sb.append(',').append(id);
        }
        return sb.toString();
    }

    private static Calculator inputsToDebugString(final List<String> seen)
    {
        return ctx ->
        {
            final List<Integer> ids = new ArrayList<>();
            long ts = Timestamp.UNSET;
            for (int i = 0; i < ctx.inputCount(); i++)
            {
                if (!ctx.input(i).isEmpty())
                {
                    if (ids.isEmpty())
                    {
                        ts = ctx.input(i).timestamp();
                    }
                    ids.add(i);
                }
            }
            seen.add(set(ts, ids.stream().mapToInt(Integer::intValue).toArray()));
        };
    }

    private static List<List<Command>> commandSets()
    {
        final long done = Timestamp.DONE;
        final List<List<Command>> sets = new ArrayList<>();
        sets.add(List.of(
            cmd("a", 0), cmd("c", 0), cmd("a", 10),
            cmd("e", 0, set(0, 0, 2, 4)),
            cmd("c", 10),
            cmd("e", 10, set(10, 0, 2, 4)),
            cmd("e", 20), cmd("a", 20),
            cmd("c", 20, set(20, 0, 2, 4)),
            cmd("c", 30), cmd("a", 30), cmd("a", 40), cmd("a", 50), cmd("c", 40), cmd("a", done),
            cmd("e", 40, set(30, 0, 2), set(40, 0, 2, 4)),
            cmd("c", 50),
            cmd("e", 50, set(50, 0, 2, 4)),
            cmd("c", 60), cmd("c", 70), cmd("c", done),
            cmd("e", done, set(60, 2), set(70, 2))));
        sets.add(List.of(
            cmd("b", -300), cmd("b", -200), cmd("b", -100),
            cmd("d", -200, set(-300, 1), set(-200, 1, 3)),
            cmd("d", -20, set(-100, 1)),
            cmd("d", -10),
            cmd("b", 0, set(-20, 3), set(-10, 3)),
            cmd("d", 0, set(0, 1, 3)),
            cmd("d", 10),
            cmd("b", 10, set(10, 1, 3)),
            cmd("b", 20),
            cmd("d", 200, set(20, 1)),
            cmd("b", 100, set(100, 1)),
            cmd("b", 200, set(200, 1, 3)),
            cmd("b", 250), cmd("b", 300),
            cmd("d", done, set(250, 1), set(300, 1)),
            cmd("b", done)));
        final List<Command> f = new ArrayList<>();
        for (long t = -350; t < 350; t += 35)
        {
            f.add(cmd("f", t, set(t, 5)));
        }
        f.add(cmd("f", done));
        sets.add(f);
        sets.add(List.of(cmd("g", Timestamp.PRE_STREAM, set(Timestamp.PRE_STREAM, 6)), cmd("g", done)));
        sets.add(List.of(cmd("h", Timestamp.POST_STREAM, set(Timestamp.POST_STREAM, 7)), cmd("h", done)));
        return sets;
    }

    // sync_set_input_stream_handler_test.cc, TEST(SyncSetInputStreamHandlerTest, OrdinaryOperation)
    // MediaPipe runs 1000 random interleavings; 20 here, from a fixed seed, keep the suite quick.
    @Test
    @Timeout(120)
    void ordinaryOperation() throws Exception
    {
        final List<List<Command>> commandSets = commandSets();
        final List<List<String>> syncSets = List.of(List.of("a", "c", "e"), List.of("b", "d"), List.of("f"),
            List.of("g"), List.of("h"));
        int total = 0;
        for (final List<Command> commands : commandSets)
        {
            total += commands.size();
        }
        final Random rng = new Random(0x5eed);
        for (int iter = 0; iter < 20; iter++)
        {
            // merge the sets' commands into one list, each set's in its order
            final List<Command> shuffled = new ArrayList<>();
            final int[] next = new int[commandSets.size()];
            while (shuffled.size() < total)
            {
                final int pick = rng.nextInt(commandSets.size());
                if (next[pick] < commandSets.get(pick).size())
                {
                    shuffled.add(commandSets.get(pick).get(next[pick]++));
                }
            }
            // leave one set out (or none): its streams fall into the group of the unlisted inputs
            final List<List<String>> groups = new ArrayList<>(syncSets);
            final int remove = rng.nextInt(groups.size() + 1);
            if (remove < groups.size())
            {
                groups.remove(remove);
            }
            Collections.shuffle(groups, rng);
            final List<String> seen = syncList();
            final String described = "iteration " + iter + ", sync sets " + groups;
            try (Graph graph = new Graph(GraphConfig.builder()
                .inputStream(STREAMS)
                .node("node", n -> n.calculator(() -> inputsToDebugString(seen)).inputStream(STREAMS)
                    .inputPolicy(InputPolicy.syncSets(groups)))
                .build()))
            {
                graph.start();
                for (int at = 0; at < shuffled.size(); )
                {
                    final int batch = rng.nextInt(10);
                    final List<String> expected = new ArrayList<>();
                    for (int end = Math.min(shuffled.size(), at + batch); at < end; at++)
                    {
                        final Command command = shuffled.get(at);
                        expected.addAll(command.expected());
                        if (command.timestamp() == Timestamp.DONE)
                        {
                            graph.closeInput(command.stream());
                        }
                        else
                        {
                            graph.addPacket(command.stream(), 0L, command.timestamp());
                        }
                    }
                    graph.waitUntilIdle();
                    final List<String> actual = snapshot(seen);
                    seen.clear();
                    Collections.sort(actual);
                    Collections.sort(expected);
                    assertEquals(expected, actual, described);
                }
                graph.waitUntilDone();
            }
        }
    }
}
