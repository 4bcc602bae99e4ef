package dev.framewire.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class DotCommandTest
{
    private static final String LIMITED = "input_stream: \"frames\"\n" +
        "output_stream: \"out\"\n" +
        "node {\n" +
        "  name: \"limiter\"\n" +
        "  calculator: \"FlowLimiterCalculator\"\n" +
        "  input_stream: \"frames\"\n" +
        "  input_stream: \"FINISHED:out\"\n" +
        "  input_stream_info { tag_index: \"FINISHED\" back_edge: true }\n" +
        "  output_stream: \"limited\"\n" +
        "}\n" +
        "node {\n" +
        "  name: \"work\"\n" +
        "  calculator: \"PassThroughCalculator\"\n" +
        "  executor: \"slow\"\n" +
        "  input_stream: \"limited\"\n" +
        "  output_stream: \"out\"\n" +
        "}\n" +
        "executor { name: \"slow\" num_threads: 1 idle_strategy: PARK }\n";

    @TempDir
    Path dir;

    @Test
    void drawsNodesStreamsBackEdgesAndGraphInputsAndOutputs() throws Exception
    {
        final Path file = Cli.write(dir, "limited.pbtxt", LIMITED);
        final Cli.Result r = Cli.run("dot", file.toString());
        assertEquals(0, r.exit(), r.toString());
        final String dot = r.out();
        assertTrue(dot.startsWith("digraph \"limited\" {"), dot);
        assertTrue(dot.contains("\"input:frames\" [label=\"frames\", shape=invhouse"), dot);
        assertTrue(dot.contains("\"output:out\" [label=\"out\", shape=house"), dot);
        assertTrue(dot.contains("\"node:limiter\" [label=\"limiter\\nFlowLimiterCalculator\", shape=box"), dot);
        assertTrue(dot.contains("\"node:work\" [label=\"work\\nPassThroughCalculator\\nexecutor slow\""), dot);
        assertTrue(dot.contains("\"input:frames\" -> \"node:limiter\" [label=\"frames\"];"), dot);
        assertTrue(dot.contains("\"node:limiter\" -> \"node:work\" [label=\"limited\"];"), dot);
        assertTrue(dot.contains("\"node:work\" -> \"node:limiter\" [label=\"FINISHED:out\", style=dashed, " +
            "constraint=false];"), dot);
        assertTrue(dot.contains("\"node:work\" -> \"output:out\" [label=\"out\"];"), dot);
        assertTrue(dot.trim().endsWith("}"), dot);
    }

    @Test
    void writesTheFileAndSaysWhenGraphvizIsMissing() throws Exception
    {
        final Path file = Cli.write(dir, "limited.pbtxt", LIMITED);
        final Path dotFile = dir.resolve("limited.dot");
        final Path png = dir.resolve("limited.png");
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine cli = FramewireCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        final DotCommand dot = cli.getSubcommands().get("dot").getCommand();
        dot.searchPath = Files.createDirectory(dir.resolve("empty-bin")).toString();
        final int exit = cli.execute("dot", file.toString(), "-o", dotFile.toString(), "--png", png.toString());
        assertEquals(0, exit, out + "\n" + err);
        assertTrue(Files.readString(dotFile).contains("\"node:limiter\""));
        assertEquals("wrote " + dotFile, out.toString().trim());
        assertTrue(err.toString().contains("Graphviz is not installed ('dot' is not on the PATH)"), err.toString());
        assertFalse(Files.exists(png));
    }

    @Test
    void rendersAPngWhenGraphvizIsThere() throws Exception
    {
        final Path graphviz = DotCommand.findOnPath("dot", System.getenv("PATH"));
        org.junit.jupiter.api.Assumptions.assumeTrue(graphviz != null, "Graphviz is not installed here");
        final Path file = Cli.write(dir, "limited.pbtxt", LIMITED);
        final Path png = dir.resolve("limited.png");
        final Cli.Result r = Cli.run("dot", file.toString(), "-o", dir.resolve("limited.dot").toString(), "--png",
            png.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(Files.size(png) > 0);
    }

    @Test
    void findsExecutablesOnASearchPath() throws Exception
    {
        final Path bin = Files.createDirectory(dir.resolve("bin"));
        final Path tool = Files.writeString(bin.resolve("tool"), "#!/bin/sh\n");
        assertNull(DotCommand.findOnPath("tool", bin.toString()));
        org.junit.jupiter.api.Assumptions.assumeTrue(tool.toFile().setExecutable(true));
        assertEquals(tool, DotCommand.findOnPath("tool", "/nonexistent" + java.io.File.pathSeparator + bin));
        assertNull(DotCommand.findOnPath("tool", null));
    }

    @Test
    void quotesForDot()
    {
        assertEquals("\"a\\\"b\\\\c\\nd\"", DotCommand.quote("a\"b\\c\nd"));
    }

    @Test
    void anInvalidGraphIsAnError() throws Exception
    {
        final Path file = Cli.write(dir, "bad.pbtxt", "node { calculator: }\n");
        final Cli.Result r = Cli.run("dot", file.toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains(file + ":1:"), r.toString());
        ValidateCommandTest.assertNoStackTrace(r);
    }
}
