package dev.framewire.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class AnalyzeCommandTest
{
    @TempDir
    Path dir;

    @Test
    void printsTheAnalysis() throws Exception
    {
        final Path file = Cli.write(dir, "small.pbtxt", Cli.countingGraph(10));
        final Cli.Result r = Cli.run("analyze", file.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("sources: [count]"), r.toString());
        assertTrue(r.out().contains("longest path (2 nodes): count -> pass"), r.toString());
        assertTrue(r.out().contains("strict blocks (1)"), r.toString());
        assertTrue(r.out().contains("criticality: "), r.toString());
    }

    @Test
    void theDemoGraphHasFourIndependentChains()
    {
        final Cli.Result r = Cli.run("analyze", DemoGraphTest.REPO_GRAPH.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("sources: [cam0, cam1, cam2, cam3]"), r.toString());
        assertTrue(r.out().contains("longest path (7 nodes): cam0 -> cam0_limiter -> cam0_gray"), r.toString());
    }

    @Test
    void anInvalidGraphIsAnErrorWithExitCodeOne() throws Exception
    {
        final Path file = Cli.write(dir, "bad.pbtxt", "node { calculator: \"NoSuchCalculator\" }\n");
        final Cli.Result r = Cli.run("analyze", file.toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains(file + ":1:"), r.toString());
        ValidateCommandTest.assertNoStackTrace(r);
    }

    @Test
    void aMissingFileIsAnError()
    {
        final Cli.Result r = Cli.run("analyze", dir.resolve("none.pbtxt").toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("no such file"), r.toString());
    }
}
