package dev.framewire.core.scenario;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static dev.framewire.core.scenario.Scenarios.list;
import static dev.framewire.core.scenario.Scenarios.recorder;
import static dev.framewire.core.scenario.Scenarios.snapshot;
import static dev.framewire.core.scenario.Scenarios.startThread;
import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The default input policy exactly: a node is ready when a timestamp is settled on every input
 * and at least one input has a packet there; input sets come strictly ascending; nothing is
 * dropped; packets of one timestamp come together whatever order they arrived in.
 */
class DefaultPolicyTest
{
    private static GraphConfig join(final List<String> sets, final String... inputs)
    {
        return GraphConfig.builder()
            .inputStream(inputs)
            .node("join", n -> n.calculator(recorder(sets)).inputStream(inputs))
            .build();
    }

    @Test
    @Timeout(10)
    void joinGetsAnEmptyInputOnceTheOtherStreamsBoundPassesAMissingTimestamp() throws Exception
    {
        final List<String> sets = syncList();
        try (Graph graph = new Graph(join(sets, "a", "b")))
        {
            graph.start();
            for (long ts = 0; ts < 10; ts++)
            {
                graph.addPacket("a", ts, ts);
            }
            graph.addPacket("b", 100L, 0);
            graph.waitUntilIdle();
            assertEquals(list("0:0,100"), snapshot(sets), "1 is not settled on 'b' (its bound is 1)");

            graph.addPacket("b", 102L, 2);
            graph.waitUntilIdle();
            assertEquals(list("0:0,100", "1:1,-", "2:2,102"), snapshot(sets),
                "b@2 settles 1 on 'b' with no packet: 1 goes with 'b' empty");

            graph.addPacket("b", 106L, 6);
            graph.waitUntilIdle();
            assertEquals(list("0:0,100", "1:1,-", "2:2,102", "3:3,-", "4:4,-", "5:5,-", "6:6,106"), snapshot(sets));

            graph.closeInput("b");
            graph.waitUntilIdle();
            assertEquals(list("0:0,100", "1:1,-", "2:2,102", "3:3,-", "4:4,-", "5:5,-", "6:6,106", "7:7,-", "8:8,-",
                "9:9,-"), snapshot(sets));
            graph.closeInput("a");
            graph.waitUntilDone();
        }
    }

    @Test
    @Timeout(10)
    void readyOnlyWhenSettledOnEveryInputAndSomeInputHasAPacket() throws Exception
    {
        final List<String> sets = syncList();
        try (Graph graph = new Graph(join(sets, "a", "b", "c")))
        {
            graph.start();
            graph.addPacket("a", 1L, 5);
            graph.addPacket("b", 2L, 5);
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(sets), "5 is not settled on 'c'");

            graph.setInputBound("c", 6);
            graph.waitUntilIdle();
            assertEquals(list("5:1,2,-"), snapshot(sets));

            // settled everywhere, but no packet anywhere: nothing to process
            graph.setInputBound("a", 10);
            graph.setInputBound("b", 10);
            graph.setInputBound("c", 10);
            graph.waitUntilIdle();
            assertEquals(list("5:1,2,-"), snapshot(sets));

            graph.addPacket("c", 3L, 12);
            graph.addPacket("a", 4L, 11);
            graph.waitUntilIdle();
            assertEquals(list("5:1,2,-"), snapshot(sets), "11 is not settled on 'b'");
            graph.setInputBound("b", 13);
            graph.waitUntilIdle();
            assertEquals(list("5:1,2,-", "11:4,-,-"), snapshot(sets), "12 is not settled on 'a' (its bound is 12)");
            graph.setInputBound("a", 13);
            graph.waitUntilIdle();
            assertEquals(list("5:1,2,-", "11:4,-,-", "12:-,-,3"), snapshot(sets));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    @Test
    @Timeout(10)
    void packetsOfOneTimestampGoTogetherWhateverTheirArrivalOrder() throws Exception
    {
        final List<String> sets = syncList();
        try (Graph graph = new Graph(join(sets, "a", "b")))
        {
            graph.start();
            graph.addPacket("b", 20L, 3);
            graph.waitUntilIdle();
            graph.addPacket("b", 21L, 4);
            graph.waitUntilIdle();
            graph.addPacket("a", 10L, 3);
            graph.waitUntilIdle();
            graph.addPacket("a", 11L, 4);
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        assertEquals(list("3:10,20", "4:11,21"), sets);
    }

    /**
     * Three threads feed three inputs, each a random subset of timestamps, into a join on two
     * workers: the join sees exactly the union, ascending, each timestamp once, with the packets
     * of every input that had one.
     */
    @Test
    @Timeout(30)
    void concurrentFeedsGiveAscendingCompleteInputSets() throws Exception
    {
        final String[] inputs = {"a", "b", "c"};
        for (int round = 0; round < 5; round++)
        {
            final Random random = new Random(1234 + round);
            final List<TreeSet<Long>> perInput = new ArrayList<>();
            final TreeSet<Long> union = new TreeSet<>();
            for (int i = 0; i < inputs.length; i++)
            {
                final TreeSet<Long> timestamps = new TreeSet<>();
                for (long ts = 0; ts < 2000; ts++)
                {
                    if (random.nextInt(3) == 0)
                    {
                        timestamps.add(ts);
                    }
                }
                perInput.add(timestamps);
                union.addAll(timestamps);
            }
            final List<String> expected = new ArrayList<>();
            for (final long ts : union)
            {
                final StringBuilder sb = new StringBuilder().append(ts).append(':');
                for (int i = 0; i < inputs.length; i++)
                {
                    sb.append(i == 0 ? "" : ",").append(perInput.get(i).contains(ts) ? Long.toString(ts * 10 + i) : "-");
                }
                expected.add(sb.toString());
            }

            final List<String> sets = syncList();
            final GraphConfig config = GraphConfig.builder()
                .inputStream(inputs)
                .node("join", n -> n.calculator(recorder(sets)).inputStream(inputs))
                .node("other", n -> n.calculator(recorder(syncList())).inputStream("a"))
                .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
                .maxQueueSize(16)
                .build();
            final List<Throwable> errors = syncList();
            try (Graph graph = new Graph(config))
            {
                graph.start();
                final List<Thread> feeders = new ArrayList<>();
                for (int i = 0; i < inputs.length; i++)
                {
                    final int input = i;
                    feeders.add(startThread("feed-" + inputs[i], () ->
                    {
                        for (final long ts : perInput.get(input))
                        {
                            graph.addPacket(inputs[input], ts * 10 + input, ts);
                        }
                        graph.closeInput(inputs[input]);
                    }, errors));
                }
                for (final Thread feeder : feeders)
                {
                    feeder.join();
                }
                assertEquals(List.of(), errors);
                graph.waitUntilDone();
            }
            assertEquals(expected, sets, "round " + round);
        }
    }
}
