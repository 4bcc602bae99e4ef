package dev.framewire.core.internal.run;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.sched.Worker;

import dev.framewire.core.journal.JournalProvider;
import dev.framewire.core.journal.JournalSink;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * How the engine reaches the journal, which lives in an artifact of its own: finding its provider,
 * opening a sink with the run's description (config text, nodes, streams, workers), and the markers
 * for values the engine keeps in a packet's word.
 *
 * <p>Threading: {@link #provider()} and {@link #open} on the thread that starts the graph;
 * {@link #value(Object)} on any thread (a pure function, called per journaled packet).
 */
public final class EngineJournal
{
    /** The artifact that holds the journal, as a user adds it to a build. */
    private static final String JOURNAL_ARTIFACT = "dev.framewire:framewire-journal";

    private EngineJournal()
    {
    }

    /**
     * The journal's implementation, found with {@link ServiceLoader}: through the thread's context
     * class loader, as {@link CalculatorRegistry} finds calculators, then through core's own.
     *
     * @throws IllegalStateException when none is on the class path, saying which artifact to add.
     */
    public static JournalProvider provider()
    {
        final ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context != null)
        {
            for (final JournalProvider provider : ServiceLoader.load(JournalProvider.class, context))
            {
                return provider;
            }
        }
        for (final JournalProvider provider : ServiceLoader.load(JournalProvider.class, Run.class.getClassLoader()))
        {
            return provider;
        }
        throw new IllegalStateException("the graph's config asks for a journal (GraphConfig.Builder.journal), but no " +
            "journal is on the class path: the journal is the artifact " + JOURNAL_ARTIFACT + ", apart from " +
            "framewire-core so that an application that does not journal does not carry Chronicle Queue. Add it to " +
            "the application's dependencies (Maven: <dependency><groupId>dev.framewire</groupId><artifactId>" +
            "framewire-journal</artifactId></dependency>, the version of framewire-core, or from framewire-bom), or " +
            "build the config without a journal");
    }

    /**
     * Before the workers start: opens the run's journal and writes its start record.
     *
     * @param nodes     the graph's own nodes, by id.
     * @param streamIds stream name to the journal's stream id.
     * @param workers   the run's workers, by id.
     * @throws RuntimeException what the provider or the first record threw; the sink is closed then.
     */
    public static JournalSink open(
        final JournalProvider provider, final GraphConfig config, final Node[] nodes,
        final Map<String, Integer> streamIds, final List<Worker> workers)
    {
        String text;
        try
        {
            text = GraphConfigText.write(config);
        }
        catch (final IllegalArgumentException ex)
        {
            text = "# this config has no text form: " + ex.getMessage() + "\n";
        }
        final String[] nodeNames = new String[nodes.length];
        final int[][] nodeInputs = new int[nodes.length][];
        for (final Node node : nodes)
        {
            nodeNames[node.id] = node.name;
            nodeInputs[node.id] = new int[node.inputs.length];
            for (int p = 0; p < node.inputs.length; p++)
            {
                nodeInputs[node.id][p] = streamIds.get(node.inputs[p].streamName);
            }
        }
        final String[] streamNames = new String[streamIds.size()];
        streamIds.forEach((name, id) -> streamNames[id] = name);
        final String[] workerNames = new String[workers.size()];
        for (final Worker worker : workers)
        {
            workerNames[worker.id] = worker.name;
        }
        final String version = Run.class.getPackage().getImplementationVersion();
        final JournalSink sink = provider.open(config.journal());
        try
        {
            sink.runStart(text, version != null ? version : "development build", nodeNames, streamNames, workerNames,
                nodeInputs);
        }
        catch (final RuntimeException | Error ex)
        {
            sink.close();
            throw ex;
        }
        return sink;
    }
}
