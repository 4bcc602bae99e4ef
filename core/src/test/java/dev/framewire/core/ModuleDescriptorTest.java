package dev.framewire.core;

import dev.framewire.offheap.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The module descriptors of core and offheap (their module-info.java): what core exports is
 * exactly the API, and every public type in an exported package is one the API means to show;
 * then an application module of its own, compiled here, runs a graph with core on the module path
 * in a child JVM (given {@code .mvn/jvm.config}, as every child is), with a calculator of its own
 * made by class, a text config, a JFR recording of core's events, and the runtime hidden from it.
 *
 * <p>The rest of core's tests run on the class path (surefire's {@code useModulePath} is off), so
 * this is the test that core works as a named module.
 */
@Timeout(120)
class ModuleDescriptorTest
{
    /** The packages core exports to every module: its API. */
    private static final Set<String> API_PACKAGES = Set.of(
        "dev.framewire.core",
        "dev.framewire.core.calculators",
        "dev.framewire.core.calculators.image",
        "dev.framewire.core.calculators.video",
        "dev.framewire.core.journal");

    /** The public types of {@code dev.framewire.core}: a new one is a decision about the API, made here too. */
    private static final Set<String> CORE_API_TYPES = Set.of(
        "Backpressure", "Calculator", "CalculatorContext", "CalculatorProvider", "CalculatorRegistry", "Contract",
        "ExecutorConfig", "FailurePolicy", "Graph", "GraphAnalysis", "GraphConfig", "GraphConfigException",
        "GraphConfigText", "GraphException", "GraphFailure", "GraphInputHandle", "GraphStats", "IdleKind", "Input",
        "InputPolicy", "MemoryLimitException", "MemoryLimitPolicy", "NodeConfig", "OptionType", "Options",
        "OptionsExtension", "Output", "OutputPoller", "Packet", "PacketObserver", "QueueOverflowException",
        "ScheduleOrder", "Scheduling", "SimulationClock", "SubgraphExpander", "SubgraphRegistry", "SubgraphRemoval", "Timestamp",
        "TimestampException");

    /** The public types of the calculator packages that are not calculators. */
    private static final Set<String> CALCULATOR_PACKAGE_HELPERS = Set.of(
        "dev.framewire.core.calculators.StandardCalculators",
        "dev.framewire.core.calculators.PacketCollector",
        "dev.framewire.core.calculators.image.BoxListDescriptor",
        "dev.framewire.core.calculators.image.ImageKernels",
        "dev.framewire.core.calculators.image.BilinearResizer",
        "dev.framewire.core.calculators.image.MotionKernel",
        "dev.framewire.core.calculators.image.SampleMap",
        "dev.framewire.core.calculators.video.VideoStatus",
        "dev.framewire.core.calculators.video.CameraHealth");

    /** The flag Agrona needs, for Agrona as the named module it is on the module path. */
    private static final String AGRONA_NAMED = "--add-exports=java.base/jdk.internal.misc=org.agrona";

    @TempDir
    Path dir;

    private static Path location(final Class<?> type) throws Exception
    {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static ModuleReference module(final Class<?> type, final String name) throws Exception
    {
        final ModuleReference ref = ModuleFinder.of(location(type)).find(name)
            .orElseThrow(() -> new AssertionError("no module " + name + " at " + type.getName() + "'s location"));
        assertNotEquals(true, ref.descriptor().isAutomatic(), name + " has a module-info, not a derived name");
        return ref;
    }

    @Test
    void coreExportsTheApiPackagesAndHidesTheRest() throws Exception
    {
        final ModuleDescriptor core = module(Graph.class, "dev.framewire.core").descriptor();
        final Set<String> exported = new TreeSet<>();
        final Map<String, Set<String>> qualified = new TreeMap<>();
        for (final ModuleDescriptor.Exports export : core.exports())
        {
            if (export.isQualified())
            {
                qualified.put(export.source(), export.targets());
            }
            else
            {
                exported.add(export.source());
            }
        }
        assertEquals(new TreeSet<>(API_PACKAGES), exported);
        // protobuf's generated-message runtime reaches the generated accessors by reflection; the
        // benchmarks (framewire-bench, automatic name dev.framewire.bench) drive a worker's duty cycle
        final Set<String> bench = Set.of("dev.framewire.bench");
        assertEquals(Map.of("dev.framewire.core.config.proto", Set.of("com.google.protobuf"),
            "dev.framewire.core.internal.queue", bench,
            "dev.framewire.core.internal.stream", bench,
            "dev.framewire.core.internal.sched", bench,
            "dev.framewire.core.internal.run", bench), qualified);
        assertEquals(Set.of(), core.opens(), "nothing open to deep reflection");
        assertTrue(core.packages().containsAll(Set.of("dev.framewire.core.jfr", "dev.framewire.core.config.proto",
                "dev.framewire.core.internal.queue", "dev.framewire.core.internal.stream", "dev.framewire.core.internal.handler",
                "dev.framewire.core.internal.node", "dev.framewire.core.internal.sched", "dev.framewire.core.internal.run")),
            "the hidden packages are in the module: " + core.packages());

        final Map<String, Set<ModuleDescriptor.Requires.Modifier>> requires = core.requires().stream()
            .filter(r -> !r.name().equals("java.base"))
            .collect(Collectors.toMap(ModuleDescriptor.Requires::name, ModuleDescriptor.Requires::modifiers));
        assertEquals(Set.of(ModuleDescriptor.Requires.Modifier.TRANSITIVE), requires.get("dev.framewire.offheap"),
            "the API hands out offheap's payloads and pools");
        // no application has to resolve a name derived from a jar's file name: module-info.java says why
        assertEquals(Set.of(ModuleDescriptor.Requires.Modifier.STATIC), requires.get("HdrHistogram"));
        assertEquals(Set.of(ModuleDescriptor.Requires.Modifier.STATIC), requires.get("affinity"));
        assertEquals(Set.of("dev.framewire.offheap", "org.agrona", "org.jctools.core", "org.slf4j", "com.google.protobuf",
            "jdk.jfr", "jdk.management", "java.desktop", "jdk.unsupported", "HdrHistogram", "affinity"), requires.keySet());
    }

    @Test
    void coreUsesBothServicesAndProvidesTheStandardCalculators() throws Exception
    {
        final ModuleDescriptor core = module(Graph.class, "dev.framewire.core").descriptor();
        assertEquals(Set.of(CalculatorProvider.class.getName(), dev.framewire.core.journal.JournalProvider.class.getName()),
            core.uses());
        assertEquals(1, core.provides().size(), core.provides().toString());
        final ModuleDescriptor.Provides provides = core.provides().iterator().next();
        assertEquals(CalculatorProvider.class.getName(), provides.service());
        assertEquals(List.of(dev.framewire.core.calculators.StandardCalculators.class.getName()), provides.providers());
    }

    @Test
    void everyPublicTypeOfAnExportedPackageIsApi() throws Exception
    {
        final ModuleReference ref = module(Graph.class, "dev.framewire.core");
        final Map<String, Set<String>> publicTypes = new TreeMap<>();
        try (ModuleReader reader = ref.open(); Stream<String> entries = reader.list())
        {
            for (final String entry : (Iterable<String>)entries::iterator)
            {
                if (!entry.endsWith(".class") || entry.contains("$") || entry.endsWith("module-info.class") ||
                    entry.endsWith("package-info.class"))
                {
                    continue;
                }
                final String name = entry.substring(0, entry.length() - ".class".length()).replace('/', '.');
                final Class<?> type = Class.forName(name, false, getClass().getClassLoader());
                if (Modifier.isPublic(type.getModifiers()))
                {
                    publicTypes.computeIfAbsent(type.getPackageName(), k -> new TreeSet<>()).add(name);
                }
            }
        }
        assertEquals(new TreeSet<>(CORE_API_TYPES), publicTypes.get("dev.framewire.core").stream()
            .map(n -> n.substring("dev.framewire.core.".length())).collect(Collectors.toCollection(TreeSet::new)),
            "dev.framewire.core's public types; the runtime there is package-private");
        assertEquals(Set.of("dev.framewire.core.journal.JournalConfig", "dev.framewire.core.journal.JournalProvider",
            "dev.framewire.core.journal.JournalSink", "dev.framewire.core.journal.WorkerJournal"),
            publicTypes.get("dev.framewire.core.journal"));
        for (final String pkg : List.of("dev.framewire.core.calculators", "dev.framewire.core.calculators.image",
            "dev.framewire.core.calculators.video"))
        {
            for (final String name : publicTypes.get(pkg))
            {
                final Class<?> type = Class.forName(name, false, getClass().getClassLoader());
                assertTrue(Calculator.class.isAssignableFrom(type) || CALCULATOR_PACKAGE_HELPERS.contains(name),
                    name + " is public in an exported package but neither a calculator nor one of its helpers");
            }
        }
    }

    @Test
    void offheapExportsItsOnePackage() throws Exception
    {
        final ModuleDescriptor offheap = module(Payload.class, "dev.framewire.offheap").descriptor();
        assertEquals(Set.of("dev.framewire.offheap"),
            offheap.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()));
        assertTrue(offheap.exports().stream().noneMatch(ModuleDescriptor.Exports::isQualified));
        assertTrue(offheap.requires().stream().anyMatch(r -> r.name().equals("org.agrona") &&
            r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE)), "a payload hands out Agrona buffers");
    }

    // ---- a named application module on the module path, in a child JVM

    private static final String APP_MODULE_INFO = """
        module app.check
        {
            requires dev.framewire.core;
            requires jdk.jfr;
            // core makes Doubler by class, reflectively: the package must be exported to it
            exports app.check.calculators to dev.framewire.core;
        }
        """;

    private static final String APP_DOUBLER = """
        package app.check.calculators;

        import dev.framewire.core.Calculator;
        import dev.framewire.core.CalculatorContext;
        import dev.framewire.core.Input;

        public final class Doubler implements Calculator
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.setOffset(0);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                final Input in = ctx.input(0);
                if (!in.isEmpty())
                {
                    ctx.output(0).addLong(2 * in.getLong(), in.timestamp());
                }
            }
        }
        """;

    private static final String APP_MAIN = """
        package app.check;

        import app.check.calculators.Doubler;
        import dev.framewire.core.ExecutorConfig;
        import dev.framewire.core.Graph;
        import dev.framewire.core.GraphConfig;
        import dev.framewire.core.GraphConfigException;
        import dev.framewire.core.GraphConfigText;
        import dev.framewire.core.IdleKind;
        import dev.framewire.core.calculators.PacketCollector;
        import jdk.jfr.Recording;
        import jdk.jfr.consumer.RecordingFile;

        import java.lang.reflect.InaccessibleObjectException;
        import java.nio.file.Files;
        import java.nio.file.Path;
        import java.util.Map;

        public final class Main
        {
            public static void main(final String[] args) throws Exception
            {
                System.out.println("MODULE " + Graph.class.getModule().getName() + " " + Main.class.getModule().getName());
                hidden();
                text();
                pinning();
                run(Path.of(args[0]));
            }

            /** The runtime is not exported: neither reflection nor setAccessible reaches it. */
            private static void hidden() throws Exception
            {
                try
                {
                    Class.forName("dev.framewire.core.internal.sched.Worker").getDeclaredConstructors()[0].setAccessible(true);
                    System.out.println("HIDDEN-FAILED Worker");
                }
                catch (final InaccessibleObjectException expected)
                {
                    System.out.println("HIDDEN Worker");
                }
                try
                {
                    Class.forName("dev.framewire.core.jfr.NodeProcessEvent").getConstructor().newInstance();
                    System.out.println("HIDDEN-FAILED NodeProcessEvent");
                }
                catch (final IllegalAccessException expected)
                {
                    System.out.println("HIDDEN NodeProcessEvent");
                }
            }

            /** A text config: protobuf reaches the generated messages of a package hidden from the rest. */
            private static void text() throws Exception
            {
                final GraphConfig config = GraphConfigText.parse("input_stream: \\"in\\"\\noutput_stream: \\"out\\"\\n" +
                    "node { name: \\"pass\\" calculator: \\"PassThroughCalculator\\" input_stream: \\"in\\" " +
                    "output_stream: \\"out\\" }\\n", "check.pbtxt");
                try (Graph graph = new Graph(config))
                {
                    System.out.println("TEXT " + GraphConfigText.write(config).contains("PassThroughCalculator"));
                }
            }

            /** Pinning takes affinity, which core requires static: accepted with it in the module graph, refused without. */
            private static void pinning()
            {
                try
                {
                    new Graph(GraphConfig.builder()
                        .executor("pinned", ExecutorConfig.of(1, IdleKind.PARK).pinnedTo(0))
                        .node("count", n -> n.calculator("CountingSourceCalculator").outputStream("n").executor("pinned"))
                        .outputStream("n")
                        .build()).close();
                    System.out.println("PINNING accepted");
                }
                catch (final GraphConfigException ex)
                {
                    System.out.println("PINNING " + (ex.getMessage().contains("--add-modules affinity") ? "refused" : ex));
                }
            }

            /** CountingSource, PassThrough, a calculator of this module made by class, CollectorSink; under JFR. */
            private static void run(final Path jfr) throws Exception
            {
                final GraphConfig config = GraphConfig.builder()
                    .node("count", n -> n.calculator("CountingSourceCalculator").outputStream("n").option("count", 100L))
                    .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("n").outputStream("p"))
                    .node("double", n -> n.calculator(Doubler.class).inputStream("p").outputStream("d"))
                    .node("sink", n -> n.calculator("CollectorSinkCalculator").inputStream("d")
                        .inputSidePacket("COLLECTOR:collector"))
                    .build();
                long sum = 0;
                try (Recording recording = new Recording())
                {
                    recording.enable("dev.framewire.NodeProcess");
                    recording.start();
                    try (Graph graph = new Graph(config); PacketCollector collector = new PacketCollector())
                    {
                        try
                        {
                            graph.start(Map.of("collector", collector));
                        }
                        catch (final IllegalStateException ex)
                        {
                            System.out.println("REFUSED " + ex.getMessage());
                            System.out.flush();
                            System.exit(3);
                        }
                        graph.waitUntilDone();
                        for (final PacketCollector.Entry entry : collector.entries())
                        {
                            sum += (Long)entry.value();
                        }
                    }
                    recording.stop();
                    recording.dump(jfr);
                }
                final long events = RecordingFile.readAllEvents(jfr).stream()
                    .filter(e -> e.getEventType().getName().equals("dev.framewire.NodeProcess")).count();
                System.out.println("JFR " + (events > 0));
                System.out.println("SUM " + sum);
                Files.delete(jfr);
            }
        }
        """;

    /** What an application that reaches for core's runtime gets from javac. */
    private static final String PEEK_MODULE_INFO = """
        module app.peek
        {
            requires dev.framewire.core;
        }
        """;

    private static final String PEEK = """
        package app.peek;

        public final class Peek
        {
            final Class<?> event = dev.framewire.core.jfr.NodeProcessEvent.class;
        }
        """;

    /** Core, offheap and the libraries core resolves (and the two it requires static), as their jars or class folders. */
    private static List<Path> modulePath() throws Exception
    {
        final List<Path> path = new ArrayList<>();
        for (final Class<?> type : List.of(Graph.class, Payload.class, org.agrona.DirectBuffer.class,
            org.jctools.queues.MpscArrayQueue.class, org.slf4j.Logger.class, com.google.protobuf.Message.class,
            org.HdrHistogram.Recorder.class, net.openhft.affinity.Affinity.class,
            Class.forName("org.slf4j.simple.SimpleLogger")))
        {
            path.add(location(type));
        }
        return path;
    }

    private static String joined(final List<Path> paths)
    {
        return paths.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }

    /** Compiles one module's sources (file name to text) into a folder; returns javac's exit code and messages. */
    private String compile(final String module, final Map<String, String> sources, final Path out) throws Exception
    {
        final Path src = dir.resolve("src-" + module);
        final List<String> args = new ArrayList<>(List.of("--module-path", joined(modulePath()), "-d", out.toString()));
        for (final Map.Entry<String, String> e : sources.entrySet())
        {
            final Path file = src.resolve(e.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue(), StandardCharsets.UTF_8);
            args.add(file.toString());
        }
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        final ByteArrayOutputStream messages = new ByteArrayOutputStream();
        final int exit = javac.run(null, messages, messages, args.toArray(new String[0]));
        return exit + " " + messages.toString(StandardCharsets.UTF_8);
    }

    /** .mvn/jvm.config, which every JVM that runs Framewire is given as an argfile. */
    private static Path jvmConfig()
    {
        for (Path d = Path.of(System.getProperty("user.dir")).toAbsolutePath(); d != null; d = d.getParent())
        {
            final Path config = d.resolve(".mvn").resolve("jvm.config");
            if (Files.isRegularFile(config))
            {
                return config;
            }
        }
        throw new IllegalStateException("no .mvn/jvm.config above " + System.getProperty("user.dir"));
    }

    private ChildJvm runApp(final Path app, final List<String> flags, final boolean staticDependencies) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(ChildJvm.java());
        command.add("@" + jvmConfig());
        command.addAll(flags);
        command.add("-Xmx256m");
        final List<Path> path = new ArrayList<>(modulePath());
        if (!staticDependencies)
        {
            assertTrue(path.remove(location(org.HdrHistogram.Recorder.class)));
            assertTrue(path.remove(location(net.openhft.affinity.Affinity.class)));
        }
        path.add(app);
        command.addAll(List.of("--module-path", joined(path), "-m", "app.check/app.check.Main",
            dir.resolve("child.jfr").toString()));
        return ChildJvm.run(command, dir);
    }

    private Path compileApp() throws Exception
    {
        final Path app = dir.resolve("app");
        final String javac = compile("app.check", Map.of("module-info.java", APP_MODULE_INFO,
            "app/check/Main.java", APP_MAIN, "app/check/calculators/Doubler.java", APP_DOUBLER), app);
        assertTrue(javac.startsWith("0 "), javac);
        return app;
    }

    @Test
    void anApplicationModuleCannotCompileAgainstTheHiddenPackages() throws Exception
    {
        final String javac = compile("app.peek", Map.of("module-info.java", PEEK_MODULE_INFO, "app/peek/Peek.java", PEEK),
            dir.resolve("peek"));
        assertTrue(javac.startsWith("1 ") && javac.contains("package dev.framewire.core.jfr is not visible"), javac);
    }

    @Test
    void anApplicationModuleRunsAGraphWithCoreOnTheModulePath() throws Exception
    {
        final ChildJvm child = runApp(compileApp(), List.of(AGRONA_NAMED), true);
        assertEquals(0, child.exit(), child.out() + child.err());
        assertEquals(List.of(
            "MODULE dev.framewire.core app.check",
            "HIDDEN Worker",
            "HIDDEN NodeProcessEvent",
            "TEXT true",
            "PINNING accepted",
            "JFR true",
            "SUM " + 2 * (99 * 100 / 2)), child.out().lines().collect(Collectors.toList()), child.err());
    }

    @Test
    void withoutItsStaticDependenciesCoreStillResolvesAndANamedAgronaNeedsItsOwnFlag() throws Exception
    {
        // no HdrHistogram, no affinity: pinning is refused at validation, the rest goes on; and
        // .mvn/jvm.config exports jdk.internal.misc to ALL-UNNAMED, which a named Agrona is not
        final ChildJvm child = runApp(compileApp(), List.of(), false);
        assertEquals(3, child.exit(), child.out() + child.err());
        assertTrue(child.out().contains("PINNING refused\n"), child.out());
        assertTrue(child.out().contains("REFUSED this JVM lacks a flag the graph needs: " + AGRONA_NAMED), child.out());
    }
}
