package dev.framewire.core.internal.run;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorRegistry;
import dev.framewire.core.Contract;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.Options;
import dev.framewire.core.SubgraphRegistry;
import dev.framewire.core.internal.handler.PolicyChecks;
import dev.framewire.core.internal.sched.CpuIds;
import dev.framewire.core.internal.sched.Worker;
import dev.framewire.core.internal.stream.StreamSpec;

import java.util.ArrayDeque;
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
        this(config, false);
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

        checkGraphSettings();
        checkNodes();
        reportUnknownCalculators();
        checkSourcesAndSinks();
        resolveProducers();
        if (!structureOnly)
        {
            PacketTypeChecks.check(this);
            FrameBudgetCheck.check(config, contracts, options, errors);
        }
        if (errors.isEmpty())
        {
            checkCycles();
        }
        if (errors.isEmpty())
        {
            topoOrder = topologicalOrder();
            computeAncestorSources();
        }
        if (!errors.isEmpty())
        {
            throw new GraphConfigException(config.locate(errors));
        }
    }

    private void checkGraphSettings()
    {
        if (config.maxQueueSize() < -1)
        {
            errors.add("max_queue_size " + config.maxQueueSize() + " is invalid; valid are -1 (no limit), 0 (default " +
                GraphConfig.DEFAULT_MAX_QUEUE_SIZE + ") or a positive limit");
        }
        if (config.inputSetsPerRun() <= 0)
        {
            errors.add("input_sets_per_run " + config.inputSetsPerRun() + " is invalid; valid is 1 (MediaPipe's one " +
                "input set per run, the default) or more");
        }
        if (config.roomBatch() <= 0)
        {
            errors.add("room_batch " + config.roomBatch() + " is invalid; valid is 1 (MediaPipe's rule: room for one " +
                "packet lets held-back sources and graph inputs go on, the default) or more");
        }
        if (config.keptFailures() <= 0)
        {
            errors.add("kept failures " + config.keptFailures() + " is invalid; valid is 1 or more (default 16)");
        }
        if (config.maxShipmentSize() <= 0)
        {
            errors.add("max_shipment_size " + config.maxShipmentSize() + " is invalid; it must be positive (default 64)");
        }
        if (config.maxShipmentBytes() < -1)
        {
            errors.add("max_shipment_bytes " + config.maxShipmentBytes() + " is invalid; give a positive size, 0 " +
                "(the default) to derive it from the memory budget (its hard limit less its soft limit), or -1 for " +
                "no cap");
        }
        if (config.memoryBudgetBytes() < 0)
        {
            errors.add("memory budget " + config.memoryBudgetBytes() + " bytes is invalid; give a positive size, or 0 " +
                "for the pool's default");
        }
        if (config.timeoutGuardNanos() < 0)
        {
            errors.add("watchdog timeout " + config.timeoutGuardNanos() / 1_000_000 + " ms is invalid; give a " +
                "positive timeout, or 0 to turn it off");
        }
        if (config.queueHardCap() <= 0 || config.queueHardCap() > (1 << 24))
        {
            errors.add("queue hard cap " + config.queueHardCap() + " is invalid; valid is 1.." + (1 << 24));
        }
        for (final Map.Entry<String, Integer> e : config.streamQueueSizes().entrySet())
        {
            if (e.getValue() < -1)
            {
                errors.add("max_queue_size " + e.getValue() + " of stream '" + e.getKey() + "' is invalid; valid are " +
                    "-1 (no limit), 0 (default) or a positive limit");
            }
        }
        for (final Map.Entry<String, ExecutorConfig> e : config.executors().entrySet())
        {
            if (e.getValue().workers() < 1)
            {
                errors.add("executor '" + e.getKey() + "' has " + e.getValue().workers() + " workers; it needs at least 1");
            }
            if (e.getValue().spinBeforeParkMicros() < 0)
            {
                errors.add("executor '" + e.getKey() + "' has spin_before_park_us " + e.getValue().spinBeforeParkMicros() +
                    "; valid is 0 (park at once) or more");
            }
            CpuIds.check(e.getKey(), e.getValue().cpus(), errors);
            final String noAffinity = e.getValue().cpus().length > 0 ? Worker.affinityUnavailable() : null;
            if (noAffinity != null)
            {
                errors.add("executor '" + e.getKey() + "' pins its workers to CPUs, which takes OpenHFT affinity " +
                    "(net.openhft:affinity), and " + noAffinity + ": on the module path add it to the module graph " +
                    "(requires affinity; in the application's module-info, or --add-modules affinity), on the class " +
                    "path add its jar; or do not pin");
            }
        }
        for (final String name : config.inputStreams())
        {
            if (StreamSpec.parse(name) == null || name.contains(":"))
            {
                errors.add("graph input stream '" + name + "' is malformed; a graph stream is a name matching " +
                    "[a-z_][a-z0-9_]*");
            }
        }
        for (final String name : config.outputStreams())
        {
            if (StreamSpec.parse(name) == null || name.contains(":"))
            {
                errors.add("graph output stream '" + name + "' is malformed; a graph stream is a name matching " +
                    "[a-z_][a-z0-9_]*");
            }
        }
    }

    /** All unknown calculators in one error, each with the nodes that use it. */
    private void reportUnknownCalculators()
    {
        if (unknownCalculators.isEmpty())
        {
            return;
        }
        if (unknownCalculators.size() == 1 && unknownCalculators.values().iterator().next().size() == 1)
        {
            final Map.Entry<String, List<String>> only = unknownCalculators.entrySet().iterator().next();
            errors.add(0, "node '" + only.getValue().get(0) + "' uses unknown calculator '" + only.getKey() + "'" +
                (SubgraphRegistry.global().contains(only.getKey()) ? ", a registered subgraph: expand it first with " +
                "SubgraphExpander" : "") + "; registered calculators are " + CalculatorRegistry.global().names());
            return;
        }
        final StringBuilder sb = new StringBuilder().append(unknownCalculators.size())
            .append(unknownCalculators.size() == 1 ? " unknown calculator: " : " unknown calculators: ");
        boolean first = true;
        for (final Map.Entry<String, List<String>> e : unknownCalculators.entrySet())
        {
            final boolean subgraph = SubgraphRegistry.global().contains(e.getKey());
            sb.append(first ? "" : "; ").append('\'').append(e.getKey()).append("' (node")
                .append(e.getValue().size() == 1 ? " '" : "s '").append(String.join("', '", e.getValue())).append("'")
                .append(subgraph ? ", a registered subgraph: expand it first with SubgraphExpander" : "").append(')');
            first = false;
        }
        sb.append("; registered calculators are ").append(CalculatorRegistry.global().names());
        errors.add(0, sb.toString());
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

    /** Tarjan's strongly connected components; any cycle not broken by a back edge is an error. */
    private void checkCycles()
    {
        final int[][] edgesUp = new int[nodeCount][];
        for (int i = 0; i < nodeCount; i++)
        {
            edgesUp[i] = upstream(i);
        }
        final int[] index = new int[nodeCount];
        final int[] low = new int[nodeCount];
        final boolean[] onStack = new boolean[nodeCount];
        Arrays.fill(index, -1);
        final ArrayDeque<Integer> stack = new ArrayDeque<>();
        final int[] counter = {0};
        for (int i = 0; i < nodeCount; i++)
        {
            if (index[i] < 0)
            {
                strongConnect(i, edgesUp, index, low, onStack, stack, counter);
            }
        }
    }

    private void strongConnect(
        final int v,
        final int[][] edges,
        final int[] index,
        final int[] low,
        final boolean[] onStack,
        final ArrayDeque<Integer> stack,
        final int[] counter)
    {
        // Iterative form of Tarjan's algorithm, so a long chain cannot overflow the stack.
        final ArrayDeque<int[]> frames = new ArrayDeque<>();
        frames.push(new int[]{v, 0});
        index[v] = low[v] = counter[0]++;
        stack.push(v);
        onStack[v] = true;
        while (!frames.isEmpty())
        {
            final int[] frame = frames.peek();
            final int node = frame[0];
            if (frame[1] < edges[node].length)
            {
                final int w = edges[node][frame[1]++];
                if (index[w] < 0)
                {
                    index[w] = low[w] = counter[0]++;
                    stack.push(w);
                    onStack[w] = true;
                    frames.push(new int[]{w, 0});
                }
                else if (onStack[w])
                {
                    low[node] = Math.min(low[node], index[w]);
                }
                continue;
            }
            frames.pop();
            if (!frames.isEmpty())
            {
                final int parent = frames.peek()[0];
                low[parent] = Math.min(low[parent], low[node]);
            }
            if (low[node] == index[node])
            {
                final List<String> component = new ArrayList<>();
                int w;
                do
                {
                    w = stack.pop();
                    onStack[w] = false;
                    component.add(config.nodes().get(w).name());
                }
                while (w != node);
                boolean selfLoop = false;
                for (final int up : edges[node])
                {
                    selfLoop |= up == node;
                }
                if (component.size() > 1 || selfLoop)
                {
                    java.util.Collections.reverse(component);
                    errors.add("cycle through nodes " + component + " has no back edge; declare the input that " +
                        "closes the loop as a back edge (input_stream_info { tag_index: ... back_edge: true })");
                }
            }
        }
    }

    /** Kahn's algorithm, ties broken by config order, so the order is deterministic. */
    private int[] topologicalOrder()
    {
        final int[] inDegree = new int[nodeCount];
        final List<List<Integer>> down = new ArrayList<>();
        for (int i = 0; i < nodeCount; i++)
        {
            down.add(new ArrayList<>());
        }
        for (int i = 0; i < nodeCount; i++)
        {
            for (final int up : upstream(i))
            {
                inDegree[i]++;
                down.get(up).add(i);
            }
        }
        final java.util.PriorityQueue<Integer> ready = new java.util.PriorityQueue<>();
        for (int i = 0; i < nodeCount; i++)
        {
            if (inDegree[i] == 0)
            {
                ready.add(i);
            }
        }
        final int[] order = new int[nodeCount];
        int n = 0;
        while (!ready.isEmpty())
        {
            final int v = ready.poll();
            order[n++] = v;
            for (final int w : down.get(v))
            {
                if (--inDegree[w] == 0)
                {
                    ready.add(w);
                }
            }
        }
        return order;
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
}
