package dev.framewire.tools;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.Timestamp;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalRecord;
import dev.framewire.journal.JournalSubgraph;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code framewire journal replay} does, in order, read from a recording: the graph input
 * packets, and the subgraphs added to and removed from the running graph (format 1.5) with the
 * closes of their graph inputs, each placed among the packets where the recording had it.
 *
 * <p>The order is the records' {@code nanos} (stable: file order among equal readings), as the
 * replay always fed its packets: the writer journals a subgraph's addition after the graph inputs
 * given before it and before its own graph inputs can take a packet, and its removal before its
 * inputs close. A packet a graph input of a subgraph took while its removal was being asked for, on
 * another thread, can read a later {@code nanos} than the removal's record: the recording took it,
 * so the removal is moved after it.
 *
 * <p>Every subgraph is checked before the replay starts: a template without a text form, one that
 * does not parse, or a parameter recorded by type only (a Java object) is a {@link CommandFailure}
 * that names the subgraph, where it was added and why it cannot be made again: a replay never
 * guesses.
 *
 * <p>Threading: made and used by the command's thread.
 */
final class ReplayPlan
{
    /** One subgraph as the recording added it: what to add again. */
    static final class Instance
    {
        final JournalRecord added;
        final String name;
        final GraphConfig template;
        final Map<String, Object> params;
        final Map<String, String> bind;
        /** Its graph input streams' and outputs' stream ids in the recording (ids are never reused in a run). */
        final Set<Integer> streamIds = new HashSet<>();
        /** Its output streams, by the template's name, as the graph names them. */
        final Map<String, String> outputs = new HashMap<>();
        JournalRecord removed;
        JournalRecord left;

        Instance(final JournalRecord added, final GraphConfig template, final Map<String, Object> params)
        {
            this.added = added;
            this.name = added.subgraph().name();
            this.template = template;
            this.params = params;
            this.bind = added.subgraph().bindings();
            for (final int id : added.subgraph().streamIds())
            {
                streamIds.add(id);
            }
            for (final String stream : template.outputStreams())
            {
                outputs.put(stream, name + "__" + stream);
            }
        }
    }

    /** One step: a packet, or a subgraph's addition, removal, departure, or the close of one of its inputs. */
    static final class Step
    {
        final JournalRecord record;
        /** The subgraph it concerns, or null for a packet of the graph's own. */
        final Instance instance;

        Step(final JournalRecord record, final Instance instance)
        {
            this.record = record;
            this.instance = instance;
        }

        JournalRecord.Kind kind()
        {
            return record.kind();
        }
    }

    final List<Step> steps;
    final List<Instance> instances;
    /** Graph input packets among the steps. */
    final int packets;
    /** The graph's own streams (the run start's), which the replay observes before it starts. */
    final Set<String> base;
    /** Streams whose packets the replay can count: the graph's own, and the subgraphs' outputs. */
    final Set<String> observable;

    private ReplayPlan(final List<Step> steps, final List<Instance> instances, final int packets,
        final Set<String> base, final Set<String> observable)
    {
        this.steps = steps;
        this.instances = instances;
        this.packets = packets;
        this.base = base;
        this.observable = observable;
    }

    /**
     * Plans a replay of a recording.
     *
     * @throws CommandFailure naming a subgraph that cannot be added again, and why.
     */
    static ReplayPlan of(final JournalReader recorded)
    {
        final Map<Integer, Instance> byStream = new HashMap<>();
        final List<Instance> instances = new ArrayList<>();
        final Map<String, Instance> current = new HashMap<>();
        final List<Step> steps = new ArrayList<>();
        int baseStreams = -1;
        for (final JournalRecord r : recorded.records())
        {
            switch (r.kind())
            {
                case RUN_START:
                    baseStreams = r.stream();
                    break;
                case SUBGRAPH_ADDED:
                {
                    final Instance instance = instance(recorded, r);
                    instances.add(instance);
                    current.put(instance.name, instance);
                    for (final int id : instance.streamIds)
                    {
                        byStream.put(id, instance);
                    }
                    steps.add(new Step(r, instance));
                    break;
                }
                case SUBGRAPH_REMOVED:
                case SUBGRAPH_LEFT:
                {
                    final Instance instance = current.get(r.text());
                    if (instance == null)
                    {
                        throw new CommandFailure("journal " + recorded.directory() + " has a " + r.kind() + " record " +
                            "(#" + r.index() + ") of subgraph '" + r.text() + "' without its SUBGRAPH_ADDED record " +
                            "before it; it cannot be replayed");
                    }
                    if (r.kind() == JournalRecord.Kind.SUBGRAPH_REMOVED)
                    {
                        instance.removed = r;
                    }
                    else
                    {
                        instance.left = r;
                        current.remove(instance.name);
                    }
                    steps.add(new Step(r, instance));
                    break;
                }
                case GRAPH_INPUT:
                    steps.add(new Step(r, byStream.get(r.stream())));
                    break;
                case BOUND:
                {
                    // a subgraph's graph input closed by the application (one closed by the removal comes later)
                    final Instance instance = byStream.get(r.stream());
                    if (instance != null && r.worker() < 0 && r.timestamp() == Timestamp.DONE && instance.removed == null)
                    {
                        steps.add(new Step(r, instance));
                    }
                    break;
                }
                default:
                    break;
            }
        }
        steps.sort(Comparator.comparingLong(s -> s.record.nanos())); // stable: file order among equal readings
        moveRemovalsAfterTheirPackets(steps);
        int packets = 0;
        for (final Step step : steps)
        {
            packets += step.kind() == JournalRecord.Kind.GRAPH_INPUT ? 1 : 0;
        }
        final Set<String> base = new HashSet<>();
        final List<String> names = recorded.streamNames();
        for (int s = 0; s < names.size() && (baseStreams < 0 || s < baseStreams); s++)
        {
            base.add(names.get(s));
        }
        final Set<String> observable = new HashSet<>(base);
        for (final Instance instance : instances)
        {
            observable.addAll(instance.outputs.values());
        }
        return new ReplayPlan(steps, instances, packets, base, observable);
    }

    /** The subgraph a SUBGRAPH_ADDED record describes, made again from its text, or why it cannot be. */
    private static Instance instance(final JournalReader recorded, final JournalRecord r)
    {
        final JournalSubgraph subgraph = r.subgraph();
        final String where = "subgraph '" + subgraph.name() + "' (added at record #" + r.index() + " of journal " +
            recorded.directory() + ") cannot be replayed: ";
        if (!subgraph.hasTemplateText())
        {
            throw new CommandFailure(where + "its template has no text form (" + firstLine(subgraph.templateText()) +
                ")");
        }
        final Map<String, Object> params;
        try
        {
            params = subgraph.parameterValues();
        }
        catch (final IllegalStateException ex)
        {
            throw new CommandFailure(where + ex.getMessage() + "; only parameters of types string, int64, int32, " +
                "int16, int8, double, float and bool are recorded by value");
        }
        final GraphConfig template;
        try
        {
            template = GraphConfigText.parseStructure(subgraph.templateText(),
                "the template of subgraph '" +
                subgraph.name() + "' in journal " + recorded.directory());
        }
        catch (final GraphConfigException ex)
        {
            throw new CommandFailure(where + "its template does not parse: " + String.join("; ", ex.errors()));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandFailure(where + "its template does not parse: " + ex.getMessage());
        }
        return new Instance(r, template, params);
    }

    /**
     * A removal read a {@code nanos} before a packet or a close of its subgraph's inputs that the
     * recording took before the inputs closed: it goes right after the last of them.
     */
    private static void moveRemovalsAfterTheirPackets(final List<Step> steps)
    {
        for (int i = 0; i < steps.size(); i++)
        {
            final Step step = steps.get(i);
            if (step.kind() != JournalRecord.Kind.SUBGRAPH_REMOVED)
            {
                continue;
            }
            int last = i;
            for (int j = i + 1; j < steps.size(); j++)
            {
                final Step later = steps.get(j);
                if (later.instance == step.instance && later.kind() != JournalRecord.Kind.SUBGRAPH_LEFT &&
                    later.kind() != JournalRecord.Kind.SUBGRAPH_REMOVED)
                {
                    last = j;
                }
            }
            if (last > i)
            {
                steps.remove(i);
                steps.add(last, step);
                i--; // the step now at i has not been looked at
            }
        }
    }

    private static String firstLine(final String text)
    {
        final String stripped = text == null ? "" : text.strip();
        final int newline = stripped.indexOf('\n');
        return newline < 0 ? stripped : stripped.substring(0, newline);
    }
}
