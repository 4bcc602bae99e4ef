package dev.framewire.tools;

import com.google.gson.stream.JsonWriter;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalTrace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code framewire journal trace RUN -o run.json}: the run as a Chrome trace-event file
 * ({@link JournalTrace}), for Perfetto (ui.perfetto.dev) or chrome://tracing: a track per worker and
 * per node, a slice per call, flow arrows for packets, instants for drops, errors and notes,
 * counters of queued packets and payload bytes. A damaged journal is traced up to its first damage.
 */
@Command(
    name = "trace",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = {"Writes a journaled run as a Chrome trace-event JSON file, which Perfetto (ui.perfetto.dev) and " +
        "chrome://tracing open: a track per worker and per node, a slice per call, flow arrows for packets, instant " +
        "events for drops, errors and notes, counters of queued packets and payload bytes."})
public final class JournalTraceCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RUN", description = "A run journal directory, or a root (its newest run).")
    private Path directory;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", required = true, description = "The JSON file to write.")
    private Path output;

    @Override
    public Integer call()
    {
        final JournalReader journal = JournalCommand.readUpToDamage(directory);
        final JournalTrace trace = JournalTrace.of(journal);
        write(trace, output);
        spec.commandLine().getOut().printf("trace of %s: %d calls, %d packets followed, %d drops, errors and notes; " +
            "%s written (open it in ui.perfetto.dev or chrome://tracing)%n", journal.directory(), trace.calls().size(),
            trace.flows(), trace.marks().size(), output);
        spec.commandLine().getOut().flush();
        if (journal.cutAt() != null)
        {
            spec.commandLine().getErr().println("trace: journal " + journal.directory() + " is damaged; traced up to " +
                "its first damage, where it stopped: " + journal.cutAt());
            spec.commandLine().getErr().flush();
            return 1;
        }
        return 0;
    }

    /** Writes the trace as the format's JSON object form: {"traceEvents": [...], "displayTimeUnit": "ms"}. */
    static void write(final JournalTrace trace, final Path output)
    {
        try (Writer file = Files.newBufferedWriter(output, StandardCharsets.UTF_8);
            JsonWriter json = new JsonWriter(file))
        {
            json.beginObject();
            json.name("traceEvents").beginArray();
            for (final JournalTrace.Event e : trace.events())
            {
                json.beginObject();
                json.name("name").value(e.name());
                json.name("cat").value(e.cat());
                json.name("ph").value(e.ph());
                json.name("ts").value(e.ts());
                if ("X".equals(e.ph()))
                {
                    json.name("dur").value(e.dur());
                }
                json.name("pid").value(e.pid());
                json.name("tid").value(e.tid());
                if ("s".equals(e.ph()) || "f".equals(e.ph()))
                {
                    json.name("id").value(e.id());
                }
                if ("f".equals(e.ph()))
                {
                    json.name("bp").value("e"); // bound to the enclosing slice: the call that took the packet
                }
                if ("i".equals(e.ph()))
                {
                    json.name("s").value("t");
                }
                if (!e.args().isEmpty())
                {
                    json.name("args").beginObject();
                    for (final Map.Entry<String, Object> a : e.args().entrySet())
                    {
                        json.name(a.getKey());
                        if (a.getValue() instanceof Number)
                        {
                            json.value((Number)a.getValue());
                        }
                        else if (a.getValue() instanceof Boolean)
                        {
                            json.value((Boolean)a.getValue());
                        }
                        else
                        {
                            json.value(String.valueOf(a.getValue()));
                        }
                    }
                    json.endObject();
                }
                json.endObject();
            }
            json.endArray();
            json.name("displayTimeUnit").value("ms");
            json.endObject();
        }
        catch (final IOException ex)
        {
            throw new CommandFailure("cannot write " + output + ": " + ex.getMessage());
        }
    }
}
