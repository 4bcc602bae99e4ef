package dev.framewire.core.policy;

import dev.framewire.core.Calculator;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.Input;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.Timestamp;
import dev.framewire.core.policy.PolicyFixtures.Recorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static dev.framewire.core.policy.PolicyFixtures.addFrame;
import static dev.framewire.core.policy.PolicyFixtures.assertDrained;
import static dev.framewire.core.policy.PolicyFixtures.drain;
import static dev.framewire.core.policy.PolicyFixtures.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The sync-set policy: each group settles like default on its own, so a stalled group holds up
 * nobody else; inputs named in no group form one more group (MediaPipe's SyncSetInputStreamHandler).
 */
class SyncSetsTest
{
    /**
     * Group {a, b} keeps running while group {c} never gets a packet nor a bound; the other group's
     * input is empty at its settled timestamp (Unstarted: nothing settled on c). The node closes only
     * when every group is done.
     */
    @Test
    @Timeout(20)
    void aStalledGroupHoldsUpNobody() throws Exception
    {
        final List<String> log = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("a", "b", "c")
            .node("sets", n -> n.calculator(() -> new Recorder(log)).inputStream("a", "b", "c")
                .inputPolicy(InputPolicy.syncSets(List.of(List.of("a", "b"), List.of("c")))))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 1; ts <= 3; ts++)
            {
                addFrame(graph, "a", ts);
                graph.waitUntilIdle();
                assertDrained(List.of(), log, "a@" + ts + " waits for b within its group");
                addFrame(graph, "b", ts);
                graph.waitUntilIdle();
                assertDrained(List.of(ts + ": " + ts + "@" + ts + " " + ts + "@" + ts + " _@Unstarted"), log,
                    "group {a, b} settled " + ts + " while c is stalled");
            }
            addFrame(graph, "b", 5);
            graph.setInputBound("a", 6);
            graph.waitUntilIdle();
            assertDrained(List.of("5: _@5 5@5 _@Unstarted"), log, "a's bound settles 5 without a packet");

            graph.closeInput("a");
            graph.closeInput("b");
            graph.waitUntilIdle();
            assertDrained(List.of(), log, "group {a, b} is done, group {c} is not: the node stays open");

            addFrame(graph, "c", 7);
            graph.waitUntilIdle();
            assertDrained(List.of("7: _@Max _@Max 7@7"), log, "c, once it moves, alone");
            graph.closeInput("c");
            graph.waitUntilDone();
            assertDrained(List.of("close"), log, "every group done");
        }
    }

    /**
     * The input set as MediaPipe's SyncSetInputStreamHandlerTest prints it: the first present
     * packet's timestamp, then the indexes of the present inputs.
     */
    private static Calculator debugString(final List<String> out)
    {
        return ctx ->
        {
            final StringBuilder sb = new StringBuilder();
            for (int i = 0; i < ctx.inputCount(); i++)
            {
                final Input input = ctx.input(i);
                if (!input.isEmpty())
                {
                    if (sb.length() == 0)
                    {
                        final long ts = input.timestamp();
                        sb.append(ts == Timestamp.PRE_STREAM || ts == Timestamp.POST_STREAM ? Timestamp.toString(ts) :
                            "Timestamp(" + ts + ")");
                    }
                    sb.append(',').append(i);
                }
            }
            out.add(sb.toString());
        };
    }

    /** A command: add a packet at a timestamp to a stream (or close it), and the input sets it makes. */
    private record Command(String stream, long timestamp, List<String> expected)
    {
    }

    private static Command cmd(final String stream, final long timestamp, final String... expected)
    {
        return new Command(stream, timestamp, List.of(expected));
    }

    private static final long DONE = Timestamp.DONE;

    /**
     * MediaPipe's SyncSetInputStreamHandlerTest.OrdinaryOperation: the commands of five sync sets
     * ({a, c, e}, {b, d}, {f}, {g}, {h}) are interleaved at random and pushed in random batches,
     * each batch followed by waitUntilIdle; after each batch the node must have produced exactly the
     * input sets that batch settled, whatever the interleaving. One set is sometimes dropped from
     * the config, its inputs then forming the group of inputs named in no set.
     */
    @Test
    @Timeout(60)
    void ordinaryOperationUnderRandomInterleavings() throws Exception
    {
        final List<List<Command>> commandSets = List.of(
            List.of(
                cmd("a", 0), cmd("c", 0), cmd("a", 10), cmd("e", 0, "Timestamp(0),0,2,4"), cmd("c", 10),
                cmd("e", 10, "Timestamp(10),0,2,4"), cmd("e", 20), cmd("a", 20), cmd("c", 20, "Timestamp(20),0,2,4"),
                cmd("c", 30), cmd("a", 30), cmd("a", 40), cmd("a", 50), cmd("c", 40), cmd("a", DONE),
                cmd("e", 40, "Timestamp(30),0,2", "Timestamp(40),0,2,4"), cmd("c", 50),
                cmd("e", 50, "Timestamp(50),0,2,4"), cmd("c", 60), cmd("c", 70), cmd("c", DONE),
                cmd("e", DONE, "Timestamp(60),2", "Timestamp(70),2")),
            List.of(
                cmd("b", -300), cmd("b", -200), cmd("b", -100),
                cmd("d", -200, "Timestamp(-300),1", "Timestamp(-200),1,3"), cmd("d", -20, "Timestamp(-100),1"),
                cmd("d", -10), cmd("b", 0, "Timestamp(-20),3", "Timestamp(-10),3"), cmd("d", 0, "Timestamp(0),1,3"),
                cmd("d", 10), cmd("b", 10, "Timestamp(10),1,3"), cmd("b", 20), cmd("d", 200, "Timestamp(20),1"),
                cmd("b", 100, "Timestamp(100),1"), cmd("b", 200, "Timestamp(200),1,3"), cmd("b", 250),
                cmd("b", 300), cmd("d", DONE, "Timestamp(250),1", "Timestamp(300),1"), cmd("b", DONE)),
            fCommands(),
            List.of(cmd("g", Timestamp.PRE_STREAM, "PreStream,6"), cmd("g", DONE)),
            List.of(cmd("h", Timestamp.POST_STREAM, "PostStream,7"), cmd("h", DONE)));
        final List<List<String>> syncSets = List.of(
            List.of("a", "c", "e"), List.of("b", "d"), List.of("f"), List.of("g"), List.of("h"));
        final String[] inputs = {"a", "b", "c", "d", "e", "f", "g", "h"};
        int total = 0;
        for (final List<Command> set : commandSets)
        {
            total += set.size();
        }

        for (int iteration = 0; iteration < 40; iteration++)
        {
            final Random random = new Random(20_240_000L + iteration);
            final List<Command> shuffled = new ArrayList<>();
            final int[] position = new int[commandSets.size()];
            while (shuffled.size() < total)
            {
                final int s = random.nextInt(commandSets.size());
                if (position[s] < commandSets.get(s).size())
                {
                    shuffled.add(commandSets.get(s).get(position[s]++));
                }
            }
            final List<List<String>> groups = new ArrayList<>(syncSets);
            final int remove = random.nextInt(groups.size() + 1);
            if (remove < groups.size())
            {
                groups.remove(remove);
            }
            Collections.shuffle(groups, random);

            final List<String> out = syncList();
            final GraphConfig config = GraphConfig.builder()
                .inputStream(inputs)
                .node("sets", n -> n.calculator(() -> debugString(out)).inputStream(inputs)
                    .inputPolicy(InputPolicy.syncSets(groups)))
                .build();
            final String where = "iteration " + iteration + " with sync sets " + groups;
            try (Graph graph = new Graph(config))
            {
                graph.start();
                int at = 0;
                while (at < shuffled.size())
                {
                    final int batch = random.nextInt(10);
                    final List<String> expected = new ArrayList<>();
                    final StringBuilder pushed = new StringBuilder();
                    for (int k = 0; k < batch && at < shuffled.size(); k++, at++)
                    {
                        final Command command = shuffled.get(at);
                        expected.addAll(command.expected());
                        pushed.append(' ').append(command.stream()).append('@')
                            .append(Timestamp.toString(command.timestamp()));
                        if (command.timestamp() == DONE)
                        {
                            graph.closeInput(command.stream());
                        }
                        else
                        {
                            addFrame(graph, command.stream(), command.timestamp());
                        }
                    }
                    graph.waitUntilIdle();
                    final List<String> actual = drain(out);
                    Collections.sort(actual);
                    Collections.sort(expected);
                    assertEquals(expected, actual, where + ", after pushing" + pushed);
                }
                graph.waitUntilDone();
            }
        }
    }

    private static List<Command> fCommands()
    {
        final List<Command> commands = new ArrayList<>();
        for (long t = -350; t < 350; t += 35)
        {
            commands.add(cmd("f", t, "Timestamp(" + t + "),5"));
        }
        commands.add(cmd("f", DONE));
        return commands;
    }
}
