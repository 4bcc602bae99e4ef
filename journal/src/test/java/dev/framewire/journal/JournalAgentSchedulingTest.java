package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link JournalConfig#agentBatchScheduling}: the ASYNC journal's agent thread runs under Linux's
 * SCHED_BATCH by default, and under the default policy when the journal turns it off. Read from
 * {@code /proc/self/task/<tid>/stat} (field 41, the policy), so Linux only.
 */
@Timeout(60)
class JournalAgentSchedulingTest
{
    private static final int SCHED_OTHER = 0;
    private static final int SCHED_BATCH = 3;
    /** The agent thread's name as /proc shows it: the kernel keeps 15 characters of "framewire-journal". */
    private static final String AGENT_COMM = "framewire-journ";

    @TempDir
    Path dir;

    @Test
    void theAgentRunsUnderSchedBatchByDefault() throws Exception
    {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
        assertEquals(List.of(SCHED_BATCH), agentPolicies(JournalRoundTripTest.config(dir, JournalConfig.Mode.ASYNC)));
    }

    @Test
    void theAgentKeepsTheDefaultPolicyWhenTheJournalTurnsItOff() throws Exception
    {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
        assertEquals(List.of(SCHED_OTHER), agentPolicies(
            JournalRoundTripTest.config(dir, JournalConfig.Mode.ASYNC).agentBatchScheduling(false)));
    }

    /** Opens a journal, waits for its agent's first duty cycle (after its start) and reads the policy of each agent thread. */
    private static List<Integer> agentPolicies(final JournalConfig config) throws IOException
    {
        try (JournalWriter writer = JournalWriter.open(config))
        {
            JournalRoundTripTest.start(writer);
            assertTrue(writer.flush(TimeUnit.SECONDS.toNanos(10)), "the agent did not run a duty cycle");
            final List<Integer> policies = new ArrayList<>();
            try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task")))
            {
                for (final Path task : (Iterable<Path>)tasks::iterator)
                {
                    if (AGENT_COMM.equals(read(task.resolve("comm")).trim()))
                    {
                        policies.add(policy(read(task.resolve("stat"))));
                    }
                }
            }
            writer.runEnd("done");
            return policies;
        }
    }

    /** Field 41 of a stat line; the second field (the name, in parentheses) may hold spaces. */
    private static int policy(final String stat)
    {
        final String[] after = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return Integer.parseInt(after[41 - 3]);
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException ex)
        {
            return ""; // the thread ended between the listing and the read
        }
    }
}
