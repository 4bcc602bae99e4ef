package dev.framewire.core.internal.run;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorRegistry;
import dev.framewire.core.Contract;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.Options;
import dev.framewire.core.internal.handler.PolicyChecks;
import dev.framewire.core.internal.stream.StreamSpec;
import dev.framewire.offheap.PayloadPool;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A validated {@link GraphConfig}: calculators made, streams parsed and resolved to their
 * producers, cycles checked, topological order and upstream sources computed. Every error found
 * is collected and thrown together as a {@link GraphConfigException}.
 *
 * <p>Threading: made and used on the thread that makes the {@link Graph}.
 */
public final class GraphPlan
{
    /** Producer id of a graph input {@code k}: {@code -1 - k}. */
    static int graphInputProducer(final int k)
    {
        return -1 - k;
    }

    public final GraphConfig config;
    public final List<String> errors = new ArrayList<>();
    public final int nodeCount;
    public final Calculator[] calculators;
    public final Contract[] contracts;
    public final Options[] options;
    final StreamSpec[][] inputSpecs;
    final StreamSpec[][] outputSpecs;
    public final boolean[][] backEdges;
    /** Stream name to its producer: a node index, or {@link #graphInputProducer(int)}. */
    public final Map<String, Integer> producers = new LinkedHashMap<>();
    /** Node indexes in topological order (back edges ignored). */
    public int[] topoOrder = new int[0];
    /** For each node, the sources upstream of it (itself if a source), as node indexes or graph input ids. */
    List<Set<Integer>> ancestorSources = new ArrayList<>();

    private final boolean structureOnly;
    private final Map<String, List<String>> unknownCalculators = new java.util.LinkedHashMap<>();

    public GraphPlan(final GraphConfig config)
    {
        this(config, false, null);
    }

    /**
     * Validates a config for a graph that runs over a given pool, whose budget and slots the frame
     * budget check then reads (FrameBudgetCheck).
     *
     * @param config the config.
     * @param pool   the pool, or null for one the graph makes from its config.
     */
    public GraphPlan(final GraphConfig config, final PayloadPool pool)
    {
        this(config, false, pool);
    }

    /**
     * Validates a config.
     *
     * @param config        the config.
     * @param structureOnly check streams, edges, executors and cycles only: calculators are not
     *                      made, so a graph of calculators Framewire does not have can be checked.
     */
    public GraphPlan(final GraphConfig config, final boolean structureOnly)
    {
        this(config, structureOnly, null);
    }

    private GraphPlan(final GraphConfig config, final boolean structureOnly, final PayloadPool pool)
    {
        this.config = config;
        this.structureOnly = structureOnly;
        final List<NodeConfig> nodes = config.nodes();
        this.nodeCount = nodes.size();
        this.calculators = new Calculator[nodeCount];
        this.contracts = new Contract[nodeCount];
        this.options = new Options[nodeCount];
        this.inputSpecs = new StreamSpec[nodeCount][];
        this.outputSpecs = new StreamSpec[nodeCount][];
        this.backEdges = new boolean[nodeCount][];

        GraphSettingsChecks.check(config, errors);
        checkNodes();
        GraphSettingsChecks.reportUnknownCalculators(unknownCalculators, errors);
        checkSourcesAndSinks();
        resolveProducers();
        if (!structureOnly)
        {
            PacketTypeChecks.check(this);
        }
        if (errors.isEmpty())
        {
            PlanOrder.checkCycles(upstreamEdges(), config.nodes(), errors);
        }
        if (errors.isEmpty())
        {
            topoOrder = PlanOrder.topologicalOrder(upstreamEdges());
            computeAncestorSources();
            if (!structureOnly)
            {
                FrameBudgetCheck.check(this, pool, errors);
            }
        }
        if (!errors.isEmpty())
        {
            throw new GraphConfigException(config.locate(errors));
        }
    }

    private void checkNodes()
    {
        final Set<String> names = new HashSet<>();
        for (int i = 0; i < nodeCount; i++)
        {
            final NodeConfig node = config.nodes().get(i);
            final String where = "node '" + node.name() + "'";
            if (node.name() == null || node.name().isEmpty())
            {
                errors.add("node #" + i + " (" + node.calculator() + ") has no name; every node needs a unique name");
            }
            else if (!names.add(node.name()))
            {
                errors.add("two nodes are named '" + node.name() + "'; node names must be unique");
            }
            inputSpecs[i] = parseAll(node.inputStreams(), where, "input stream");
            outputSpecs[i] = parseAll(node.outputStreams(), where, "output stream");
            parseAll(node.inputSidePackets(), where, "input side packet");
            parseAll(node.outputSidePackets(), where, "output side packet");
            checkDuplicateTags(inputSpecs[i], where, "input");
            checkDuplicateTags(outputSpecs[i], where, "output");
            backEdges[i] = new boolean[inputSpecs[i].length];
            for (final String key : node.backEdges())
            {
                boolean found = false;
                for (int p = 0; p < inputSpecs[i].length; p++)
                {
                    if (inputSpecs[i][p] != null && inputSpecs[i][p].matches(key))
                    {
                        backEdges[i][p] = true;
                        found = true;
                    }
                }
                if (!found)
                {
                    errors.add(where + " declares back edge '" + key + "' but has no such input; its inputs are " +
                        node.inputStreams());
                }
            }
            if (!node.executor().equals(GraphConfig.DEFAULT_EXECUTOR) && !config.executors().containsKey(node.executor()))
            {
                errors.add(where + " runs on executor '" + node.executor() + "', which is not declared; declared " +
                    "executors are " + executorNames());
            }
            if (node.sourceLayer() < 0)
            {
                errors.add(where + " has source layer " + node.sourceLayer() + "; layers are 0 or more");
            }
            final Calculator calculator = structureOnly ? null : makeCalculator(node, where);
            if (calculator != null)
            {
                calculators[i] = calculator;
                final Contract contract = new Contract();
                try
                {
                    calculator.contract(contract);
                }
                catch (final RuntimeException ex)
                {
                    errors.add(where + ": its calculator's contract() failed: " + ex);
                }
                contracts[i] = contract;
                final int before = errors.size();
                options[i] = resolveOptions(node, contract, where);
                if (errors.size() == before)
                {
                    NodeChecks.run(node, contract, options[i], where, errors);
                }
                checkPolicy(node, contract, inputSpecs[i], where);
            }
        }
    }

    /**
     * Packets must come from somewhere (a source node or a graph input stream)
     * and go somewhere (a sink node or a graph output stream).
     */
    private void checkSourcesAndSinks()
    {
        boolean hasSource = !config.inputStreams().isEmpty();
        boolean hasSink = !config.outputStreams().isEmpty();
        final List<String> names = new ArrayList<>();
        for (final NodeConfig node : config.nodes())
        {
            hasSource |= node.inputStreams().isEmpty();
            hasSink |= node.outputStreams().isEmpty();
            names.add(node.name());
        }
        if (!hasSource)
        {
            errors.add("the graph has no source: no graph input stream is declared and " +
                (names.isEmpty() ? "it has no nodes" : "every node " + names + " has input streams") +
                "; valid is at least one graph input stream (inputStream(...) on the graph) or one source " +
                "node, a node with no input streams (such as CountingSourceCalculator)");
        }
        if (!hasSink)
        {
            errors.add("the graph has no sink: no graph output stream is declared and " +
                (names.isEmpty() ? "it has no nodes" : "every node " + names + " has output streams") +
                "; valid is at least one graph output stream (outputStream(...) on the graph) or one sink " +
                "node, a node with no output streams (such as CollectorSinkCalculator)");
        }
    }

    private void checkPolicy(final NodeConfig node, final Contract contract, final StreamSpec[] specs, final String where)
    {
        final InputPolicy policy = node.inputPolicy() != null ? node.inputPolicy() :
            contract.inputPolicy() != null ? contract.inputPolicy() : InputPolicy.DEFAULT;
        if (policy.batchSize() > 1 && contract.processTimestampBounds())
        {
            errors.add(where + ": batch_size " + policy.batchSize() + " cannot be combined with bound-only processing " +
                "(its calculator asks for ProcessTimestampBounds); use batch_size 1");
        }
        if (node.maxInFlight() < 1)
        {
            errors.add(where + " has max_in_flight " + node.maxInFlight() + "; valid is 1 (calls one after another) " +
                "or more (that many process calls at once)");
        }
        else if (node.maxInFlight() > 1 && node.inputStreams().isEmpty())
        {
            errors.add(where + " has max_in_flight " + node.maxInFlight() + " but is a source (no input streams): a " +
                "source's calls make its shipments in order and cannot overlap; valid for a source is 1");
        }
        else if (node.maxInFlight() > 1 && policy.batchSize() > 1)
        {
            errors.add(where + " has max_in_flight " + node.maxInFlight() + " and batch_size " + policy.batchSize() +
                "; a batch is one worker's run, so the two cannot be combined: use one of them");
        }
        final Set<String> used = new HashSet<>();
        for (final List<String> group : policy.syncSets())
        {
            if (group.isEmpty())
            {
                errors.add(where + " has an empty sync set; each sync set names at least one input");
            }
            for (final String key : group)
            {
                boolean found = false;
                for (final StreamSpec spec : specs)
                {
                    found |= spec != null && spec.matches(key);
                }
                if (!found)
                {
                    errors.add(where + ": sync set input '" + key + "' is not one of its inputs " + node.inputStreams());
                }
                else if (!used.add(key))
                {
                    errors.add(where + ": input '" + key + "' is in more than one sync set");
                }
            }
        }
        PolicyChecks.check(where, policy, specs, errors);
    }

    private List<String> executorNames()
    {
        final List<String> names = new ArrayList<>();
        names.add(GraphConfig.DEFAULT_EXECUTOR);
        for (final String name : config.executors().keySet())
        {
            if (!name.equals(GraphConfig.DEFAULT_EXECUTOR))
            {
                names.add(name);
            }
        }
        return names;
    }

    private StreamSpec[] parseAll(final List<String> specs, final String where, final String kind)
    {
        final StreamSpec[] parsed = new StreamSpec[specs.size()];
        for (int i = 0; i < parsed.length; i++)
        {
            parsed[i] = StreamSpec.parse(specs.get(i));
            if (parsed[i] == null)
            {
                errors.add(where + ": " + kind + " '" + specs.get(i) + "' is malformed; expected " + StreamSpec.SYNTAX);
            }
        }
        return parsed;
    }

    private void checkDuplicateTags(final StreamSpec[] specs, final String where, final String kind)
    {
        final Set<String> seen = new HashSet<>();
        for (final StreamSpec spec : specs)
        {
            if (spec != null && !spec.tag.isEmpty() && !seen.add(spec.tag + ":" + spec.index))
            {
                errors.add(where + " has two " + kind + "s at " + spec.tag + ":" + spec.index +
                    "; each TAG:index may appear once");
            }
        }
    }

    private Calculator makeCalculator(final NodeConfig node, final String where)
    {
        final int ways = (node.calculatorName() != null ? 1 : 0) + (node.calculatorClass() != null ? 1 : 0) +
            (node.calculatorFactory() != null ? 1 : 0);
        if (ways != 1)
        {
            errors.add(where + (ways == 0 ? " has no calculator" : " has more than one calculator") +
                "; give exactly one, by registered name, class or factory");
            return null;
        }
        Supplier<? extends Calculator> factory = node.calculatorFactory();
        if (node.calculatorName() != null)
        {
            factory = CalculatorRegistry.global().lookup(node.calculatorName());
            if (factory == null)
            {
                unknownCalculators.computeIfAbsent(node.calculatorName(), k -> new ArrayList<>()).add(node.name());
                return null;
            }
        }
        try
        {
            if (node.calculatorClass() != null)
            {
                return node.calculatorClass().getDeclaredConstructor().newInstance();
            }
            final Calculator calculator = factory.get();
            if (calculator == null)
            {
                errors.add(where + ": its calculator factory returned null");
            }
            return calculator;
        }
        catch (final NoSuchMethodException ex)
        {
            errors.add(where + ": calculator class " + node.calculatorClass().getName() +
                " has no public no-argument constructor; give a factory instead");
        }
        catch (final ReflectiveOperationException | RuntimeException ex)
        {
            errors.add(where + ": could not make calculator " + node.calculator() + ": " + ex);
        }
        return null;
    }

    private Options resolveOptions(final NodeConfig node, final Contract contract, final String where)
    {
        final Map<String, Contract.OptionSpec> declared = contract.options();
        final Map<String, Object> values = new HashMap<>();
        for (final Map.Entry<String, Object> e : node.options().entrySet())
        {
            final Contract.OptionSpec spec = declared.get(e.getKey());
            if (spec == null)
            {
                errors.add(where + " sets unknown option '" + e.getKey() + "'; " + node.calculator() +
                    (declared.isEmpty() ? " takes no options" : " takes " + describe(declared)));
                continue;
            }
            final Object coerced = e.getValue() == null ? null : spec.type.coerce(e.getValue());
            if (coerced == null)
            {
                errors.add(where + ": option '" + e.getKey() + "' is " + e.getValue() + " (" +
                    (e.getValue() == null ? "null" : e.getValue().getClass().getSimpleName()) + "), but must be a " +
                    spec.type);
                continue;
            }
            final String invalid = spec.invalid(coerced);
            if (invalid != null)
            {
                errors.add(where + ": option '" + e.getKey() + "' is " + quoted(coerced) + "; " + invalid);
                continue;
            }
            values.put(e.getKey(), coerced);
        }
        for (final Contract.OptionSpec spec : declared.values())
        {
            if (!values.containsKey(spec.name))
            {
                if (spec.defaultValue == null && !node.options().containsKey(spec.name))
                {
                    errors.add(where + " must set option '" + spec.name + "' (" + spec.type + "); it has no default");
                }
                else if (spec.defaultValue != null)
                {
                    values.put(spec.name, spec.defaultValue);
                }
            }
        }
        return new Options(node.name(), values, node.extensions());
    }

    private static String quoted(final Object value)
    {
        return value instanceof String ? "'" + value + "'" : String.valueOf(value);
    }

    private static String describe(final Map<String, Contract.OptionSpec> declared)
    {
        final StringBuilder sb = new StringBuilder();
        for (final Contract.OptionSpec spec : declared.values())
        {
            sb.append(sb.length() == 0 ? "" : ", ").append(spec.name).append(" (").append(spec.type).append(')');
        }
        return sb.toString();
    }

    private void resolveProducers()
    {
        for (int k = 0; k < config.inputStreams().size(); k++)
        {
            final String name = config.inputStreams().get(k);
            final Integer previous = producers.put(name, graphInputProducer(k));
            if (previous != null)
            {
                errors.add("graph input stream '" + name + "' is declared twice");
            }
        }
        for (int i = 0; i < nodeCount; i++)
        {
            for (final StreamSpec spec : outputSpecs[i])
            {
                if (spec == null)
                {
                    continue;
                }
                final Integer previous = producers.putIfAbsent(spec.name, i);
                if (previous != null)
                {
                    errors.add("stream '" + spec.name + "' has two producers: " + producerName(previous) + " and node '" +
                        config.nodes().get(i).name() + "'; a stream has exactly one producer");
                }
            }
        }
        for (int i = 0; i < nodeCount; i++)
        {
            for (final StreamSpec spec : inputSpecs[i])
            {
                if (spec != null && !producers.containsKey(spec.name))
                {
                    errors.add("input stream '" + spec.name + "' of node '" + config.nodes().get(i).name() +
                        "' is produced by no node or graph input; produced streams are " + producers.keySet());
                }
            }
        }
        for (final String name : config.outputStreams())
        {
            if (!producers.containsKey(name))
            {
                errors.add("graph output stream '" + name + "' is produced by no node or graph input; produced " +
                    "streams are " + producers.keySet());
            }
        }
        for (final Map.Entry<String, Integer> e : config.streamQueueSizes().entrySet())
        {
            if (!producers.containsKey(e.getKey()))
            {
                errors.add("max_queue_size is set for stream '" + e.getKey() + "', which no node or graph input " +
                    "produces; produced streams are " + producers.keySet());
            }
        }
    }

    String producerName(final int producer)
    {
        return producer < 0 ? "graph input '" + config.inputStreams().get(-1 - producer) + "'" :
            "node '" + config.nodes().get(producer).name() + "'";
    }

    /** Node indexes feeding node {@code i} through non-back-edge inputs. */
    private int[] upstream(final int i)
    {
        final int[] up = new int[inputSpecs[i].length];
        int n = 0;
        for (int p = 0; p < inputSpecs[i].length; p++)
        {
            final Integer producer = producers.get(inputSpecs[i][p].name);
            if (!backEdges[i][p] && producer != null && producer >= 0)
            {
                up[n++] = producer;
            }
        }
        return Arrays.copyOf(up, n);
    }

    /** For each node, the nodes feeding it through non-back-edge inputs. */
    private int[][] upstreamEdges()
    {
        final int[][] edgesUp = new int[nodeCount][];
        for (int i = 0; i < nodeCount; i++)
        {
            edgesUp[i] = upstream(i);
        }
        return edgesUp;
    }

    private void computeAncestorSources()
    {
        ancestorSources = new ArrayList<>();
        for (int i = 0; i < nodeCount; i++)
        {
            ancestorSources.add(new HashSet<>());
        }
        for (final int v : topoOrder)
        {
            final Set<Integer> sources = ancestorSources.get(v);
            if (inputSpecs[v].length == 0)
            {
                sources.add(v);
            }
            for (int p = 0; p < inputSpecs[v].length; p++)
            {
                if (backEdges[v][p])
                {
                    continue;
                }
                final int producer = producers.get(inputSpecs[v][p].name);
                if (producer < 0)
                {
                    sources.add(producer);
                }
                else
                {
                    sources.addAll(ancestorSources.get(producer));
                }
            }
        }
    }

    /** The sources upstream of a stream's producer, the producer itself included if it is one. */
    Set<Integer> sourcesOfStream(final String stream)
    {
        final int producer = producers.get(stream);
        if (producer < 0)
        {
            return Set.of(producer);
        }
        return ancestorSources.get(producer);
    }

    public int queueLimit(final String stream)
    {
        final Integer perStream = config.streamQueueSizes().get(stream);
        final int size = perStream != null ? perStream : config.maxQueueSize();
        if (size == 0)
        {
            return GraphConfig.DEFAULT_MAX_QUEUE_SIZE;
        }
        return size < 0 ? Integer.MAX_VALUE : size;
    }

    /** Whether any node's calculator reads when graph input packets came ({@code Contract.recordsGraphInputArrivals}). */
    boolean recordsGraphInputArrivals()
    {
        for (final Contract contract : contracts)
        {
            if (contract.recordsGraphInputArrivals())
            {
                return true;
            }
        }
        return false;
    }
}
