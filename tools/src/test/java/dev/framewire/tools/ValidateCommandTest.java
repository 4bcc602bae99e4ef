package dev.framewire.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class ValidateCommandTest
{
    @TempDir
    Path dir;

    @Test
    void aValidGraphCountsItsNodesAndStreams() throws Exception
    {
        final Path file = Cli.write(dir, "small.pbtxt", Cli.countingGraph(10));
        final Cli.Result r = Cli.run("validate", file.toString());
        assertEquals(0, r.exit(), r.toString());
        assertEquals("valid: 2 nodes, 2 streams", r.out().trim(), r.toString());
    }

    @Test
    void theDemoGraphIsValid()
    {
        final Cli.Result r = Cli.run("validate", DemoGraphTest.REPO_GRAPH.toString());
        assertEquals(0, r.exit(), r.toString());
        assertEquals("valid: 28 nodes, 28 streams", r.out().trim(), r.toString());
    }

    @Test
    void aMissingFileIsOneSentence()
    {
        final Cli.Result r = Cli.run("validate", dir.resolve("nope.pbtxt").toString());
        assertEquals(1, r.exit(), r.toString());
        assertEquals("validate: cannot read graph file '" + dir.resolve("nope.pbtxt") + "': no such file",
            r.err().trim(), r.toString());
        assertEquals("", r.out(), r.toString());
    }

    @Test
    void aDirectoryIsNotAGraphFile()
    {
        final Cli.Result r = Cli.run("validate", dir.toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("it is a directory"), r.toString());
    }

    @Test
    void aSyntaxErrorNamesTheFileAndLine() throws Exception
    {
        final Path file = Cli.write(dir, "bad.pbtxt", "output_stream: \"out\"\nnode {\n  name: \"a\"\n  calculator: \n}\n");
        final Cli.Result r = Cli.run("validate", file.toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains(file + ":5:"), r.toString());
        assertNoStackTrace(r);
    }

    @Test
    void anUnsupportedFieldIsNamedWithTheValidOnes() throws Exception
    {
        final Path file = Cli.write(dir, "field.pbtxt", Cli.countingGraph(10) + "no_such_field: 3\n");
        final Cli.Result r = Cli.run("validate", file.toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains(file + ":15:"), r.toString());
        assertTrue(r.err().contains("unsupported field 'no_such_field'"), r.toString());
        assertNoStackTrace(r);
    }

    @Test
    void anUnknownCalculatorIsNamedWithItsLine() throws Exception
    {
        final Path file = Cli.write(dir, "unknown.pbtxt",
            Cli.countingGraph(10).replace("PassThroughCalculator", "NoSuchCalculator"));
        final Cli.Result r = Cli.run("validate", file.toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains(file + ":9:"), r.toString());
        assertTrue(r.err().contains("unknown calculator 'NoSuchCalculator'"), r.toString());
        assertTrue(r.err().contains("PassThroughCalculator"), "lists the registered ones: " + r);
        assertNoStackTrace(r);
    }

    @Test
    void aGraphThatParsesButDoesNotValidateListsEveryError() throws Exception
    {
        final Path file = Cli.write(dir, "invalid.pbtxt", Cli.countingGraph(10)
            .replace("input_stream: \"n\"", "input_stream: \"m\"")
            .replace("int_value: 10", "string_value: \"ten\""));
        final Cli.Result r = Cli.run("validate", file.toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("invalid graph '" + file + "'"), r.toString());
        assertTrue(r.err().contains("'count'"), "names the option: " + r);
        assertNoStackTrace(r);
    }

    @Test
    void aStreamNobodyProducesIsAValidationError() throws Exception
    {
        final Path file = Cli.write(dir, "orphan.pbtxt", Cli.countingGraph(10)
            .replace("input_stream: \"n\"", "input_stream: \"m\""));
        final Cli.Result r = Cli.run("validate", file.toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("'m'"), "names the stream: " + r);
        assertNoStackTrace(r);
    }

    @Test
    void noFileIsAUsageError()
    {
        final Cli.Result r = Cli.run("validate");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("GRAPH.pbtxt"), r.toString());
    }

    static void assertNoStackTrace(final Cli.Result r)
    {
        assertFalse(r.err().contains("\tat ") || r.err().contains("Exception:"), "no stack trace: " + r);
    }
}
