package dev.framewire.core;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.JournalProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The journal is framewire-journal, which core does not depend on (so core's test class path
 * does not hold it): a graph that asks for a journal without it fails to start, saying which
 * artifact to add; a graph without a journal does not need it.
 */
class JournalWithoutProviderTest
{
    @TempDir
    Path dir;

    private static GraphConfig.Builder passThrough()
    {
        return GraphConfig.builder()
            .inputStream("in")
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
            .outputStream("out");
    }

    @Test
    void coresTestClassPathHasNoJournal()
    {
        assertFalse(ServiceLoader.load(JournalProvider.class).iterator().hasNext(),
            "framewire-journal must not be on core's class path, or this test tests nothing");
    }

    @Test
    void aGraphWithAJournalAndNoJournalOnTheClassPathFailsToStartNamingTheArtifactToAdd() throws Exception
    {
        final Path journals = dir.resolve("journals");
        try (Graph graph = new Graph(passThrough().journal(new JournalConfig().directory(journals)).build()))
        {
            final IllegalStateException ex = assertThrows(IllegalStateException.class, graph::start);
            final String message = ex.getMessage();
            assertTrue(message.startsWith("the graph's config asks for a journal (GraphConfig.Builder.journal), but no " +
                "journal is on the class path: the journal is the artifact dev.framewire:framewire-journal"), message);
            assertTrue(message.contains("<groupId>dev.framewire</groupId><artifactId>framewire-journal</artifactId>"),
                message);
            assertTrue(message.contains("framewire-bom"), message);
            assertTrue(message.contains("without a journal"), "the other way out: " + message);
        }
        assertFalse(Files.exists(journals), "nothing was made");
    }

    @Test
    void aGraphWithoutAJournalRunsWithoutOne() throws Exception
    {
        final long[] sum = new long[1];
        try (Graph graph = new Graph(passThrough().build()))
        {
            graph.observe("out", p -> sum[0] += p.getLong());
            graph.start();
            for (long ts = 0; ts < 10; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        assertEquals(45, sum[0]);
    }
}
