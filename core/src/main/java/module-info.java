/**
 * The Framewire engine: graphs of calculators over timestamped packets.
 *
 * <p>Exported, the API: {@code dev.framewire.core} (the graph, its config and builders, the
 * calculator interface and its context, packets, timestamps, observers, stats and the exceptions),
 * the standard calculators ({@code dev.framewire.core.calculators}, {@code .calculators.image},
 * {@code .calculators.video}) and {@code dev.framewire.core.journal}, what a graph needs to ask
 * for a journal and the service {@code framewire-journal} provides. Not exported: the runtime,
 * {@code dev.framewire.core.internal.*} (queue, stream, handler, node, sched, run: see
 * docs/ARCHITECTURE.md), exported only to the benchmarks ({@code dev.framewire.bench}, the
 * benchmarks jar's automatic name), whose {@code HopPathBenchmark} drives a worker's duty cycle;
 * {@code dev.framewire.core.jfr}, the JFR events (a recording selects them by their
 * {@code dev.framewire.*} names, not their classes), and {@code dev.framewire.core.config.proto},
 * the protobuf messages generated from {@code graph_config.proto}, which only
 * {@code GraphConfigText} reads and writes; it is exported to {@code com.google.protobuf} alone,
 * whose generated-message runtime reaches their accessors by reflection.
 * {@code ModuleDescriptorTest} holds this list.
 *
 * <p>Dependencies without a module-info are required by their automatic names (the
 * {@code requires-automatic} lints are off for the main compile, see the parent pom): Agrona
 * ({@code org.agrona}) and protobuf-java ({@code com.google.protobuf}) declare an
 * {@code Automatic-Module-Name}, a stable name. HdrHistogram 2.2.2 and OpenHFT affinity declare
 * none, so theirs are derived from the jar's file name ({@code HdrHistogram}, {@code affinity}),
 * which a renamed jar or a later release that declares a name changes. Core requires both
 * {@code static}, so that no module graph fails to resolve for want of a file-derived name:
 * <ul>
 *   <li>with the jars on the module path, where a build puts core's dependencies, they are
 *       resolved (resolving an automatic module, Agrona, resolves every observable automatic
 *       module) and core reads them: nothing to do;</li>
 *   <li>without them (or under another name), core still resolves and runs; only what uses them
 *       fails: {@code LatencyStampCalculator}, whose {@code RECORDER} side packet is an
 *       {@code org.HdrHistogram.Recorder} the application makes, so it has the jar anyway; and an
 *       executor pinned to CPUs ({@code ExecutorConfig.pinnedTo}), which fails validation saying
 *       to add affinity ({@code requires affinity;} or {@code --add-modules affinity}).</li>
 * </ul>
 * A plain {@code requires} of either would compile (javac's warning is one of the lints turned
 * off) but would make every application resolve a name no release of the library promises.
 *
 * <p>Calculators from other modules: a {@link dev.framewire.core.CalculatorProvider} is found with
 * {@link java.util.ServiceLoader}, so a named module declares it
 * ({@code provides dev.framewire.core.CalculatorProvider with ...}); on the class path
 * {@code META-INF/services} still works. A calculator given to {@code NodeConfig.Builder.calculator}
 * by class is made reflectively (its public no-argument constructor), so its package must be
 * exported to core ({@code exports com.example.calculators to dev.framewire.core;}) or at large;
 * a calculator given by name or by factory needs nothing. A journal ({@code framewire-journal})
 * is a {@link dev.framewire.core.journal.JournalProvider} service in the same way.
 *
 * <p>On the module path Agrona is the named module {@code org.agrona}, so the flag it needs is
 * {@code --add-exports=java.base/jdk.internal.misc=org.agrona}, not the {@code ALL-UNNAMED} of
 * {@code .mvn/jvm.config}; {@code Graph.start()} names the one it lacks (see {@code README.md},
 * "Modules").
 */
@SuppressWarnings("module") // the benchmarks module (dev.framewire.bench) is not in core's build
module dev.framewire.core
{
    requires transitive dev.framewire.offheap;
    requires org.agrona;
    requires org.jctools.core;
    // sun.misc.Unsafe, under JCTools' queues (its module-info requires jdk.unsupported only static)
    // and protobuf's fast paths: an application launched with -m would not resolve it otherwise
    requires jdk.unsupported;
    requires org.slf4j;
    requires com.google.protobuf;
    requires jdk.jfr;
    // the process's CPU time (com.sun.management), read by a PARK worker after a long yield
    requires jdk.management;
    requires java.desktop;
    requires static HdrHistogram;
    requires static affinity;

    exports dev.framewire.core;
    exports dev.framewire.core.calculators;
    exports dev.framewire.core.calculators.image;
    exports dev.framewire.core.calculators.video;
    exports dev.framewire.core.journal;
    exports dev.framewire.core.config.proto to com.google.protobuf;
    // the runtime, for the benchmarks that drive a worker's duty cycle themselves (HopPathBenchmark)
    exports dev.framewire.core.internal.queue to dev.framewire.bench;
    exports dev.framewire.core.internal.stream to dev.framewire.bench;
    exports dev.framewire.core.internal.sched to dev.framewire.bench;
    exports dev.framewire.core.internal.run to dev.framewire.bench;

    uses dev.framewire.core.CalculatorProvider;
    uses dev.framewire.core.journal.JournalProvider;

    provides dev.framewire.core.CalculatorProvider with dev.framewire.core.calculators.StandardCalculators;
}
