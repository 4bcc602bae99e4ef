package dev.framewire.tools;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.framewire.core.Timestamp;
import dev.framewire.journal.JournalDamage;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalRecord;
import dev.framewire.journal.JournalSubgraph;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code framewire journal dump DIR}: a journal's records, one a line, as text or JSON lines,
 * filtered by node, stream, timestamp range and kind.
 *
 * <p>{@code --stream S} follows S's packets: the records that name S (graph input or emit, drops,
 * bound moves) and the calls of S's consumers on the timestamps S carried, so that a packet's
 * whole life, from its emit to the {@code PROCESS_BEGIN}/{@code PROCESS_END} of every node that
 * read it, is on consecutive lines.
 *
 * <p>{@code --json} writes JSON Lines through Gson: one object per record on standard output and
 * nothing else. On a damaged journal every readable record is printed, before and after the
 * damage; the text form shows each damage as a {@code # damage:} line where it is in the file, and
 * both forms list the damage on standard error and exit with 1.
 */
@Command(
    name = "dump",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = {"Prints a journal's records, one a line (text, or JSON with --json), in journal order.",
        "Filters combine (all must hold); --node, --stream and --kind may be repeated. --stream S also shows the " +
            "calls of S's consumers at the timestamps S carried: each packet's whole life."})
public final class JournalDumpCommand implements Callable<Integer>
{
    /** Compact, one object a line; no HTML escaping (names and messages print as they are). */
    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "A run journal directory, or a journal root (its newest run).")
    private Path directory;

    @Option(names = "--json", description = "One JSON object per record, one a line (JSON Lines); damage goes to " +
        "standard error.")
    private boolean json;

    @Option(names = "--node", paramLabel = "N", description = "Only records of node N.")
    private List<String> nodes = new ArrayList<>();

    @Option(names = "--stream", paramLabel = "S",
        description = "Only records of stream S and the calls of its consumers at its packets' timestamps.")
    private List<String> streams = new ArrayList<>();

    @Option(names = "--from", paramLabel = "TS", description = "Only records with a timestamp of TS or more.")
    private Long from;

    @Option(names = "--to", paramLabel = "TS", description = "Only records with a timestamp of TS or less.")
    private Long to;

    @Option(names = "--kind", paramLabel = "K", split = ",",
        description = "Only records of these kinds: header, run_start, graph_input, emit, process_begin, process_end, " +
            "drop, bound, error, run_end, lost (any case; - or _ or none between words).")
    private List<String> kinds = new ArrayList<>();

    @Override
    public Integer call()
    {
        final Set<JournalRecord.Kind> kindSet = kinds();
        final JournalCommand.Read read = JournalCommand.read(directory);
        final JournalReader journal = read.journal();
        final PrintWriter out = spec.commandLine().getOut();
        if (journal != null)
        {
            final Follow follow = streams.isEmpty() ? null : new Follow(journal, streams);
            final List<JournalDamage> damage = json ? List.of() : journal.damage();
            int nextDamage = 0;
            for (final JournalRecord r : journal.records())
            {
                // a damage line where the damage is: before the first record numbered at or after it
                while (nextDamage < damage.size() && damage.get(nextDamage).recordIndex() <= r.index())
                {
                    out.println("# damage: " + damage.get(nextDamage++));
                }
                if (kindSet.contains(r.kind()) && matches(r, follow))
                {
                    if (json)
                    {
                        GSON.toJson(json(r), out);
                        out.println();
                    }
                    else
                    {
                        out.println(r.toString());
                    }
                }
            }
            while (nextDamage < damage.size())
            {
                out.println("# damage: " + damage.get(nextDamage++));
            }
            if (!json)
            {
                for (final String note : journal.notes())
                {
                    out.println("# note: " + note);
                }
            }
        }
        out.flush();
        return read.damage() == null ? 0 : JournalCommand.damaged(spec, read);
    }

    private Set<JournalRecord.Kind> kinds()
    {
        if (kinds.isEmpty())
        {
            return EnumSet.allOf(JournalRecord.Kind.class);
        }
        final Set<JournalRecord.Kind> set = EnumSet.noneOf(JournalRecord.Kind.class);
        for (final String kind : kinds)
        {
            final String key = squash(kind);
            JournalRecord.Kind found = null;
            for (final JournalRecord.Kind k : JournalRecord.Kind.values())
            {
                if (squash(k.name()).equals(key))
                {
                    found = k;
                }
            }
            if (found == null)
            {
                final List<String> names = new ArrayList<>();
                for (final JournalRecord.Kind k : JournalRecord.Kind.values())
                {
                    names.add(k.name().toLowerCase(Locale.ROOT));
                }
                throw new ParameterException(spec.commandLine(), "--kind " + kind + ": no such kind; the kinds are " +
                    names);
            }
            set.add(found);
        }
        return set;
    }

    private static String squash(final String name)
    {
        return name.replace("_", "").replace("-", "").toLowerCase(Locale.ROOT);
    }

    private boolean matches(final JournalRecord r, final Follow follow)
    {
        if (!nodes.isEmpty() && !nodes.contains(r.nodeName()))
        {
            return false;
        }
        if (from != null || to != null)
        {
            final long ts = r.timestamp();
            if (!Timestamp.isValidPacketTimestamp(ts) || (from != null && ts < from) || (to != null && ts > to))
            {
                return false;
            }
        }
        return follow == null || follow.matches(r);
    }

    /** Which records belong to the followed streams' packets. */
    private static final class Follow
    {
        private final Set<String> streams;
        /** The consumer node ids of the followed streams. */
        private final Set<Integer> consumers = new HashSet<>();
        private final Set<Long> timestamps = new HashSet<>();

        Follow(final JournalReader journal, final List<String> followed)
        {
            this.streams = new HashSet<>(followed);
            final List<String> streamNames = journal.streamNames();
            final Set<Integer> ids = new HashSet<>();
            for (int s = 0; s < streamNames.size(); s++)
            {
                if (streams.contains(streamNames.get(s)))
                {
                    ids.add(s);
                }
            }
            if (journal.hasTopology())
            {
                for (int n = 0; n < journal.nodeNames().size(); n++)
                {
                    for (final int input : journal.nodeInputs(n))
                    {
                        if (ids.contains(input))
                        {
                            consumers.add(n);
                        }
                    }
                }
            }
            for (final JournalRecord r : journal.records())
            {
                if ((r.kind() == JournalRecord.Kind.EMIT || r.kind() == JournalRecord.Kind.GRAPH_INPUT) &&
                    streams.contains(r.streamName()))
                {
                    timestamps.add(r.timestamp());
                }
            }
        }

        boolean matches(final JournalRecord r)
        {
            if (streams.contains(r.streamName()))
            {
                return true;
            }
            final boolean call = r.kind() == JournalRecord.Kind.PROCESS_BEGIN || r.kind() == JournalRecord.Kind.PROCESS_END;
            return call && consumers.contains(r.node()) && timestamps.contains(r.timestamp());
        }
    }

    /** One record as a JSON object; names rather than ids, absent fields left out. */
    static JsonObject json(final JournalRecord r)
    {
        final JsonObject o = new JsonObject();
        o.addProperty("index", r.index());
        o.addProperty("kind", r.kind().name().toLowerCase(Locale.ROOT));
        o.addProperty("nanos", r.nanos());
        if (r.workerName() != null && r.worker() >= 0)
        {
            o.addProperty("worker", r.workerName());
        }
        if (r.nodeName() != null)
        {
            o.addProperty("node", r.nodeName());
        }
        if (r.streamName() != null)
        {
            o.addProperty("stream", r.streamName());
        }
        final long ts = r.timestamp();
        if (ts != Timestamp.UNSET)
        {
            if (Timestamp.isValidPacketTimestamp(ts))
            {
                o.addProperty("timestamp", ts);
            }
            else
            {
                o.addProperty("timestamp", Timestamp.toString(ts));
            }
        }
        switch (r.kind())
        {
            case GRAPH_INPUT:
            case EMIT:
                value(o, r);
                break;
            case CAPTURED:
                value(o, r);
                o.addProperty("shape", r.shape() == null ? "blob" : r.shape().toString());
                break;
            case DROP:
                o.addProperty("reason", JournalRecord.reasonName(r.reason()));
                break;
            case ERROR:
                o.addProperty("message", r.text());
                break;
            case NOTE:
                o.addProperty("value", r.value());
                o.addProperty("note", r.text());
                break;
            case RUN_END:
                o.addProperty("how", r.text());
                o.addProperty("lost", r.value());
                break;
            case LOST:
                o.addProperty("lost", r.value());
                break;
            case RUN_START:
                o.addProperty("configHash", hex(r.value()));
                break;
            case HEADER:
                o.addProperty("epochMillis", r.value());
                break;
            case SUBGRAPH_ADDED:
            case SUBGRAPH_REMOVED:
            case SUBGRAPH_LEFT:
                subgraph(o, r);
                break;
            default:
                break;
        }
        return o;
    }

    /** A subgraph record's fields (format 1.5). */
    private static void subgraph(final JsonObject o, final JournalRecord r)
    {
        final JournalSubgraph s = r.subgraph();
        o.addProperty("subgraph", s.name());
        switch (r.kind())
        {
            case SUBGRAPH_ADDED:
            {
                final JsonArray params = new JsonArray();
                for (final JournalSubgraph.Parameter p : s.parameters())
                {
                    final JsonObject param = new JsonObject();
                    param.addProperty("name", p.name());
                    param.addProperty("type", p.type());
                    if (p.text() != null)
                    {
                        param.addProperty("value", p.text());
                    }
                    else
                    {
                        param.addProperty("recordedByTypeOnly", true);
                    }
                    params.add(param);
                }
                o.add("params", params);
                if (!s.bindings().isEmpty())
                {
                    final JsonObject bind = new JsonObject();
                    s.bindings().forEach(bind::addProperty);
                    o.add("bind", bind);
                }
                final JsonArray nodes = new JsonArray();
                s.nodeNames().forEach(nodes::add);
                o.add("nodes", nodes);
                final JsonArray streams = new JsonArray();
                s.streamNames().forEach(streams::add);
                o.add("streams", streams);
                o.addProperty("templateHash", hex(r.value()));
                o.addProperty("template", s.templateText());
                break;
            }
            case SUBGRAPH_REMOVED:
                o.addProperty("drainDeadlineNanos", s.drainDeadlineNanos());
                o.addProperty("cancelDeadlineNanos", s.cancelDeadlineNanos());
                break;
            default:
                o.addProperty("drained", s.drained());
                o.addProperty("dropped", s.droppedPackets());
                break;
        }
    }

    private static void value(final JsonObject o, final JournalRecord r)
    {
        switch (r.valueKind())
        {
            case JournalRecord.VALUE_LONG:
                o.addProperty("long", r.value());
                break;
            case JournalRecord.VALUE_DOUBLE:
                final double d = Double.longBitsToDouble(r.value());
                if (Double.isFinite(d))
                {
                    o.addProperty("double", d);
                }
                else
                {
                    o.addProperty("double", Double.toString(d)); // JSON has no NaN or infinities
                }
                break;
            case JournalRecord.VALUE_CHECKSUM:
                o.addProperty("checksum", hex(r.value()));
                break;
            case JournalRecord.VALUE_PAYLOAD:
                o.addProperty("payloadBytes", r.value());
                break;
            case JournalRecord.VALUE_CAPTURED:
                o.addProperty("capturedBytes", r.payload() == null ? 0 : r.payload().remaining());
                o.addProperty("checksum", hex(r.value()));
                break;
            default:
                break;
        }
    }

    private static String hex(final long value)
    {
        return String.format(Locale.ROOT, "0x%016x", value);
    }
}
