package dev.framewire.tools;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.journal.JournalConfig;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalRecord;
import dev.framewire.journal.JournalWriter;
import dev.framewire.offheap.Payload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code framewire journal replay DIR}: runs a journaled run again. The graph is the recorded
 * one (the run start's config text); the graph input packets are the recorded ones, in the
 * recorded order, at the recorded pacing (their {@code System.nanoTime()} offsets from the first)
 * or as fast as possible: {@code long} and {@code double} packets with their recorded words,
 * captured payloads ({@code --capture} at recording) as off-heap payloads of the recorded bytes.
 * Source nodes whose outputs the recording captured ({@code --capture-sources}) are not run again:
 * {@link ReplaySourceCalculator} emits their recorded packets, bytes and frame shapes included;
 * other sources run again, and a deterministic one gives the same outputs, which
 * {@code framewire journal diff} checks. A recording cut short, or with subgraphs, has each node
 * go no further than it went ({@link ReplayTailCalculator}); flow limiters decide as recorded
 * ({@link ReplayGateCalculator}). The replay is journaled like any run (into
 * {@code ./journals} unless {@code --journal OUT} or {@code --no-journal}), capturing and
 * checksumming the streams the recording did.
 *
 * <p>Subgraphs added and removed at run time (journal format 1.5) are added and removed again at
 * the same points among the graph input packets ({@link ReplayPlan}, {@link SubgraphSteps}): each
 * from its recorded template text and parameters, with its recorded bindings; its graph inputs
 * ({@code name__stream}) are fed as recorded. A subgraph that cannot be made again (a template
 * without a text form, a parameter recorded by type only) is refused before the replay starts.
 *
 * <p>What cannot be replayed is said, not guessed: a graph input payload recorded by its length
 * only is fed as zeros of that length, a Java object (recorded by timestamp only) is left out, and
 * each is counted on the last lines. A recording that did not end by itself (cancelled, failed,
 * killed) is replayed until every stream has emitted as many packets as it had recorded.
 *
 * <p>Threading: the command thread feeds the inputs and prints progress; the workers count each
 * stream's packets in observers ({@link AtomicLong}s the command thread reads).
 */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = {"Runs a journaled run again: the recorded graph, fed the recorded graph input packets (long and " +
        "double values, payload bytes captured with --capture) at the recorded pacing, or as fast as possible, " +
        "with the subgraphs the recording added and removed at run time added and removed at the same points. " +
        "Sources whose outputs were captured (--capture-sources) emit their recorded packets instead of running " +
        "again; other sources run again as configured. Flow limiters let through what they let through. The replay " +
        "is journaled too; compare with `framewire journal diff`.",
        "A progress bar shows on one line for journals longer than 2 s or 10,000 packets."})
public final class JournalReplayCommand implements Callable<Integer>
{
    private static final long PROGRESS_EVERY = TimeUnit.MILLISECONDS.toNanos(250);
    private static final long LONG_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long LONG_PACKETS = 10_000;
    private static final int BAR = 30;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "The recorded run journal, or a journal root (its newest run).")
    private Path directory;

    @Option(names = "--as-fast-as-possible",
        description = "Feed the graph inputs as fast as the graph takes them, not at the recorded pacing.")
    private boolean asFastAsPossible;

    @Mixin
    private JournalOptions journal = new JournalOptions();

    @Override
    public Integer call() throws InterruptedException
    {
        // timing-dependent decisions are taken from the journal: a flow limiter drops what it dropped
        final ReplayTailCalculator.Registration gates = ReplayGateCalculator.inPlaceOfLimiters();
        try (gates)
        {
            return replay();
        }
    }

    /** What one replay holds while it runs: the recording, its plan, and the counts. */
    private static final class Replay
    {
        final JournalReader recorded;
        final ReplayPlan plan;
        final Map<String, Long> expected = new LinkedHashMap<>();
        final Map<String, AtomicLong> counts = new LinkedHashMap<>();
        final ReplaySourceCalculator.Plan sources = new ReplaySourceCalculator.Plan();
        final Map<String, GraphConfig> templates = new LinkedHashMap<>();
        final Set<String> removed = new HashSet<>();
        GraphConfig config;
        long recordedEmits;
        boolean endedByItself;
        boolean bar;
        long total;
        long fed;
        long zeroFilled;
        long skipped;
        long start;
        GraphException failure;

        Replay(final JournalReader recorded, final ReplayPlan plan)
        {
            this.recorded = recorded;
            this.plan = plan;
            for (final ReplayPlan.Instance instance : plan.instances)
            {
                templates.put(instance.name, instance.template);
                if (instance.removed != null)
                {
                    removed.add(instance.name);
                }
            }
        }
    }

    private Integer replay() throws InterruptedException
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        // a damaged recording replays up to its first damage: its records after it cannot be put back in order
        final JournalReader recorded = JournalCommand.readUpToDamage(directory);
        if (recorded.cutAt() != null)
        {
            err.println("replay: journal " + recorded.directory() + " is damaged; replaying the " +
                recorded.records().size() + " records before its first damage, at " + recorded.cutAt());
            err.flush();
        }
        final GraphConfig recordedConfig = config(recorded);
        // fails here, before anything runs, on a subgraph it cannot add
        final Replay replay = new Replay(recorded, ReplayPlan.of(recorded));
        replay.config = journaledAsRecorded(recordedConfig, replay);
        final int gates = ReplayGateCalculator.letAsRecorded(recorded, replay.config, replay.plan.instances);
        count(replay);
        // sources replayed from the packets the recording captured, not run again
        final ReplayTailCalculator.Registration sources = ReplaySourceCalculator.inPlaceOfSources(recorded,
            replay.config, replay.templates, replay.sources);
        // a remote publisher sends nothing in a replay: the other side's replay gives back what it received
        final int[] publishers = new int[1];
        final ReplayTailCalculator.Registration sinks = ReplayPublisherCalculator.inPlaceOfPublishers(replay.config,
            replay.templates.values(), publishers);
        // drops that depended on timing (full fixed-size queues, the memory budget) are the recording's
        final long[] drops = new long[2];
        final ReplayTailCalculator.Registration dropping = ReplayDropCalculator.asRecorded(recorded, replay.config,
            replay.templates, drops);
        try (sources; sinks; dropping)
        {
            header(out, replay, gates, publishers[0]);
            if (drops[0] > 0)
            {
                out.println("  " + drops[0] + " drops of input policies and the memory budget, at " + drops[1] +
                    " node" + (drops[1] == 1 ? "" : "s") + ", replayed from the journal: those nodes are not called " +
                    "for what the recording dropped, and fixed-size queues drop nothing");
            }
            run(out, replay);
        }
        return report(out, err, replay);
    }

    /** The recorded config, journaled at the recording's level, capturing and checksumming what it did. */
    private GraphConfig journaledAsRecorded(final GraphConfig recordedConfig, final Replay replay)
    {
        final JournalReader recorded = replay.recorded;
        final List<String> subgraphCapture = new ArrayList<>();
        for (final String stream : recorded.captureStreams())
        {
            if (!replay.plan.base.contains(stream))
            {
                subgraphCapture.add(stream); // a subgraph's, added at run time
            }
            else if (!journal.capture.contains(stream))
            {
                journal.capture.add(stream);
            }
        }
        // the replay journals at the recording's level, so that the two journals hold the same streams
        for (final JournalRecord r : recorded.records())
        {
            if (journal.level == null && r.kind() == JournalRecord.Kind.NOTE && r.node() < 0 && r.text() != null &&
                r.text().startsWith(JournalWriter.LEVEL_NOTE))
            {
                journal.level = JournalConfig.Level.values()[(int)r.value()];
            }
        }
        final List<String> subgraphChecksum = new ArrayList<>(recorded.checksumStreams());
        subgraphChecksum.removeAll(replay.plan.base);
        return journal.apply(recordedConfig, recorded.checksumStreams(), subgraphCapture, subgraphChecksum);
    }

    /** The recording's packets per stream the replay can observe, and the size of the progress bar. */
    private void count(final Replay replay)
    {
        for (final JournalRecord r : replay.recorded.records())
        {
            if (r.kind() == JournalRecord.Kind.EMIT && replay.plan.observable.contains(r.streamName()))
            {
                replay.expected.merge(r.streamName(), 1L, Long::sum);
                replay.recordedEmits++;
            }
        }
        final JournalRecord end = replay.recorded.runEnd();
        replay.endedByItself = end != null && "done".equals(end.text());
        replay.total = replay.plan.packets + replay.recordedEmits;
        replay.bar = replay.total >= LONG_PACKETS || (!asFastAsPossible && span(replay.plan.steps) >= LONG_NANOS);
    }

    private static long span(final List<ReplayPlan.Step> steps)
    {
        return steps.isEmpty() ? 0 : steps.get(steps.size() - 1).record.nanos() - steps.get(0).record.nanos();
    }

    private void header(final PrintWriter out, final Replay replay, final int gates, final int publishers)
    {
        final ReplayPlan plan = replay.plan;
        final JournalRecord end = replay.recorded.runEnd();
        out.printf(Locale.ROOT, "replaying %s: %d nodes, %d graph input packets%s%s, %d packets emitted in the " +
            "recording (it %s)%n", replay.recorded.directory(), replay.config.nodes().size(), plan.packets,
            plan.instances.isEmpty() ? "" : ", " + plan.instances.size() + " subgraphs added at run time",
            plan.steps.isEmpty() ? "" : asFastAsPossible ? ", as fast as possible" :
                String.format(Locale.ROOT, " over %.2f s as recorded", span(plan.steps) / 1e9),
            replay.recordedEmits, end != null ? "ended " + end.text() : "has no end of run");
        if (gates > 0)
        {
            out.println("  " + gates + " flow limiter" + (gates == 1 ? "" : "s") + " replayed from the journal: each " +
                "lets through what the recording let through, and drops the rest");
        }
        final int sources = replay.sources.sources.size();
        if (sources > 0)
        {
            out.println("  " + sources + " source" + (sources == 1 ? "" : "s") + " replayed from the journal's " +
                "captured packets (" + replay.sources.packets + " packets), not run again: " +
                replay.sources.sources.keySet());
        }
        if (publishers > 0)
        {
            out.println("  " + publishers + " remote publisher" + (publishers == 1 ? "" : "s") + " replaced by a sink " +
                "that takes every packet and sends nothing");
        }
        if (journal.retentionLine() != null)
        {
            out.println("  " + journal.retentionLine());
        }
        out.flush();
    }

    /** Runs the replay's graph: feeds the steps, then waits for the graph (or the recording's counts). */
    private void run(final PrintWriter out, final Replay replay) throws InterruptedException
    {
        // a recording cut short, or with subgraphs: each node goes no further than it went in the recording
        final boolean tailed = (!replay.endedByItself || !replay.plan.instances.isEmpty()) &&
            (journal.level == null || journal.level == JournalConfig.Level.CALLS);
        final SubgraphSteps subgraphs = new SubgraphSteps(replay.counts, replay.expected.keySet(), tailed);
        // the registry is put back after the graph
        final ReplayTailCalculator.Registration tail = tailed ? ReplayTailCalculator.wrap(replay.recorded,
            replay.config, replay.templates, replay.removed) : () -> { };
        try (tail; Graph graph = GraphFiles.validate("journal " + replay.recorded.directory(), replay.config))
        {
            for (final String stream : replay.expected.keySet())
            {
                final AtomicLong count = new AtomicLong();
                replay.counts.put(stream, count);
                if (replay.plan.base.contains(stream)) // a subgraph's output is observed as it is added
                {
                    graph.observe(stream, packet -> count.incrementAndGet());
                }
            }
            if (!asFastAsPossible)
            {
                ReplaySourceCalculator.pacedFromNow(replay.recorded);
            }
            try
            {
                graph.start();
            }
            catch (final IllegalArgumentException ex)
            {
                throw new CommandFailure("the recorded graph does not start: " + ex.getMessage());
            }
            replay.start = System.nanoTime();
            feed(out, replay, graph, subgraphs);
            if (!replay.config.inputStreams().isEmpty() || !graph.subgraphs().isEmpty())
            {
                graph.closeAllInputs();
            }
            awaitEnd(out, replay, graph);
        }
        for (final String note : subgraphs.notes())
        {
            replay.sources.notes.add(note);
        }
        if (ReplayDropCalculator.partial() > 0)
        {
            replay.sources.notes.add(ReplayDropCalculator.partial() + " input sets of which the recording dropped some " +
                "packets and not others were given to their node whole: a calculator cannot be shown a set without " +
                "a packet it was given");
        }
    }

    /** Feeds the plan's steps: graph input packets and subgraph steps, at the recorded pacing or at once. */
    private void feed(final PrintWriter out, final Replay replay, final Graph graph, final SubgraphSteps subgraphs)
        throws InterruptedException
    {
        final List<ReplayPlan.Step> steps = replay.plan.steps;
        final long first = steps.isEmpty() ? 0 : steps.get(0).record.nanos();
        long nextProgress = replay.start + PROGRESS_EVERY;
        for (final ReplayPlan.Step step : steps)
        {
            final JournalRecord r = step.record;
            if (!asFastAsPossible)
            {
                final long due = replay.start + (r.nanos() - first);
                for (long now = System.nanoTime(); now < due; now = System.nanoTime())
                {
                    LockSupport.parkNanos(Math.min(due - now, PROGRESS_EVERY));
                    nextProgress = progress(out, replay, nextProgress);
                }
            }
            if (r.kind() != JournalRecord.Kind.GRAPH_INPUT)
            {
                subgraphs.run(graph, step);
                continue;
            }
            Fed how;
            try
            {
                how = feed(graph, r);
            }
            catch (final IllegalArgumentException | IllegalStateException ex)
            {
                if (step.instance == null)
                {
                    throw ex;
                }
                // the recording's subgraph took it; the replay's closed or left earlier (a payload is released)
                subgraphs.refused(step.instance, r, ex);
                how = Fed.SKIPPED_BY_SUBGRAPH;
            }
            replay.zeroFilled += how == Fed.ZEROS ? 1 : 0;
            replay.skipped += how == Fed.SKIPPED ? 1 : 0;
            replay.fed++;
            nextProgress = progress(out, replay, nextProgress);
        }
    }

    /** Waits for the graph to end, or, for a recording cut short, for the recording's packet counts. */
    private static void awaitEnd(final PrintWriter out, final Replay replay, final Graph graph)
        throws InterruptedException
    {
        boolean cancelled = false;
        while (!graph.awaitDone(replay.bar ? PROGRESS_EVERY : TimeUnit.MILLISECONDS.toNanos(20), TimeUnit.NANOSECONDS))
        {
            if (replay.bar)
            {
                progress(out, replay.fed + emitted(replay.counts), replay.total, replay.start);
            }
            if (!replay.endedByItself && reached(replay.counts, replay.expected))
            {
                graph.cancel(); // the recording was cut short: so is its replay, at the same packet counts
                cancelled = true;
                break;
            }
        }
        if (replay.bar)
        {
            progress(out, replay.fed + emitted(replay.counts), replay.total, replay.start);
            out.println();
        }
        try
        {
            graph.waitUntilDone();
        }
        catch (final GraphException ex)
        {
            if (!(ex.isCancelled() && cancelled))
            {
                replay.failure = ex;
            }
        }
    }

    /** Prints what the replay did and what it could not do; the exit code. */
    private int report(final PrintWriter out, final PrintWriter err, final Replay replay)
    {
        final long elapsed = System.nanoTime() - replay.start;
        final Path replayRun = journal.lastRun();
        out.printf(Locale.ROOT, "replayed in %.2f s: %d graph input packets fed, %d packets emitted%s%n", elapsed / 1e9,
            replay.plan.packets, emitted(replay.counts), replay.endedByItself ? "" :
                " (stopped at the recording's packet counts)");
        for (final String note : replay.sources.notes)
        {
            out.println("note: " + note);
        }
        if (replay.zeroFilled > 0)
        {
            out.println("note: " + replay.zeroFilled + " graph input payloads were recorded by length only and fed as " +
                "zeros; record with --capture STREAM to replay their bytes");
        }
        if (replay.skipped > 0)
        {
            out.println("note: " + replay.skipped + " graph input packets were Java objects or checksummed payloads, " +
                "which the journal records by timestamp only; they were left out");
        }
        if (replayRun != null)
        {
            out.println("replay journaled in " + replayRun);
            out.println("compare: scripts/framewire journal diff " + replay.recorded.directory() + " " + replayRun);
        }
        out.flush();
        if (replay.recorded.cutAt() != null)
        {
            out.println("the replay stopped where the recording is damaged: " + replay.recorded.cutAt() +
                " (damage to its files, not how the run ended; `journal dump` lists every damage)");
            out.flush();
        }
        if (replay.failure != null)
        {
            err.println("the replay failed:");
            for (final GraphFailure f : replay.failure.failures())
            {
                err.println("  " + f);
            }
            err.flush();
            return 1;
        }
        return replay.recorded.cutAt() != null ? 1 : 0;
    }

    /** Prints the progress bar if it is due; the next time it is due. */
    private static long progress(final PrintWriter out, final Replay replay, final long due)
    {
        if (!replay.bar || System.nanoTime() < due)
        {
            return due;
        }
        progress(out, replay.fed + emitted(replay.counts), replay.total, replay.start);
        return System.nanoTime() + PROGRESS_EVERY;
    }

    private static GraphConfig config(final JournalReader recorded)
    {
        final String text = recorded.configText();
        if (text == null || text.isBlank() || text.startsWith("# this config has no text form"))
        {
            throw new CommandFailure("journal " + recorded.directory() + " has no graph config text to replay" +
                (text != null && !text.isBlank() ? " (" + text.strip() + ")" : ""));
        }
        try
        {
            // a fixed-size queue's drops are taken from the journal, not made again (ReplayDropCalculator)
            return GraphConfigText.parse(ReplayDropCalculator.withoutDroppingQueues(text), "journal " +
                recorded.directory());
        }
        catch (final GraphConfigException ex)
        {
            throw GraphFiles.invalid("journal " + recorded.directory(), ex);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandFailure("the graph config in journal " + recorded.directory() + " does not parse: " +
                ex.getMessage());
        }
    }

    private enum Fed
    {
        AS_RECORDED, ZEROS, SKIPPED, SKIPPED_BY_SUBGRAPH
    }

    private static Fed feed(final Graph graph, final JournalRecord r) throws InterruptedException
    {
        final String stream = r.streamName();
        final long ts = r.timestamp();
        switch (r.valueKind())
        {
            case JournalRecord.VALUE_LONG:
                graph.addPacket(stream, r.value(), ts);
                return Fed.AS_RECORDED;
            case JournalRecord.VALUE_DOUBLE:
                graph.addPacket(stream, Double.longBitsToDouble(r.value()), ts);
                return Fed.AS_RECORDED;
            case JournalRecord.VALUE_CAPTURED:
            {
                final ByteBuffer bytes = r.payload();
                final int length = bytes == null ? 0 : bytes.remaining();
                final Payload payload = graph.pool().acquire(Math.max(1, length));
                if (length > 0)
                {
                    payload.mutableBuffer().putBytes(0, bytes, bytes.position(), length);
                }
                graph.addPacket(stream, payload, ts); // the payload's reference passes to the graph
                return Fed.AS_RECORDED;
            }
            case JournalRecord.VALUE_PAYLOAD:
            {
                final int length = (int)Math.max(1, Math.min(Integer.MAX_VALUE - 64, r.value()));
                final Payload payload = graph.pool().acquire(length);
                payload.mutableBuffer().setMemory(0, length, (byte)0);
                graph.addPacket(stream, payload, ts);
                return Fed.ZEROS;
            }
            default:
                return Fed.SKIPPED;
        }
    }

    private static long emitted(final Map<String, AtomicLong> counts)
    {
        long sum = 0;
        for (final AtomicLong count : counts.values())
        {
            sum += count.get();
        }
        return sum;
    }

    private static boolean reached(final Map<String, AtomicLong> counts, final Map<String, Long> expected)
    {
        for (final Map.Entry<String, Long> e : expected.entrySet())
        {
            if (counts.get(e.getKey()).get() < e.getValue())
            {
                return false;
            }
        }
        return true;
    }

    /** One line, rewritten in place with a carriage return. */
    private static void progress(final PrintWriter out, final long done, final long total, final long start)
    {
        final double fraction = total > 0 ? Math.min(1.0, (double)done / total) : 1.0;
        final int filled = (int)Math.round(fraction * BAR);
        out.printf(Locale.ROOT, "\r[%s%s] %3.0f%%  %d/%d packets  %.1f s", "#".repeat(filled), ".".repeat(BAR - filled),
            fraction * 100, Math.min(done, total), total, (System.nanoTime() - start) / 1e9);
        out.flush();
    }
}
