package dev.framewire.core.internal.run;

import dev.framewire.core.journal.JournalProvider;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The JVM flags ({@code --add-exports}, {@code --add-opens}) that what a graph uses needs on JDK
 * 17 and later, checked when the graph starts: a missing one is named there, instead of surfacing
 * as a {@link NoClassDefFoundError} on a worker in the middle of a run (or, under a failure policy
 * that goes on, a source failing on every call).
 *
 * <p>Which flags are required was measured (JDK 17.0.15 and 25, Agrona 2.6.0, Chronicle Queue
 * 2026.4) by running graphs with the flags of {@code .mvn/jvm.config} left out one at a time:
 * <ul>
 *   <li>every graph: {@code --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED}, for Agrona 2's
 *       {@code UnsafeApi} under every {@code UnsafeBuffer}, so under every off-heap payload. Without
 *       it Agrona's {@code BufferUtil} fails to initialize, for the rest of the JVM's life. A graph
 *       that never makes a payload runs without it, but any calculator or caller may acquire one at
 *       any time (every graph has a pool), so it is required of every graph;</li>
 *   <li>a graph with a journal, in addition: {@code --add-opens=java.base/java.lang.reflect=ALL-UNNAMED}
 *       and {@code --add-exports=java.base/sun.nio.ch=ALL-UNNAMED} (an {@code --add-opens} of it
 *       does too), which Chronicle Queue's memory-mapped files need. The journal
 *       ({@code framewire-journal}, which core does not depend on) checks those itself, asked
 *       through {@link JournalProvider#missingJvmFlags()}; this class names them with the rest;</li>
 *   <li>the rest of {@code .mvn/jvm.config} ({@code jdk.internal.ref}, the opens of {@code java.lang},
 *       {@code java.io}, {@code java.util}, {@code java.nio}, {@code jdk.compiler}, {@code sun.misc})
 *       Chronicle uses when given and does without otherwise, with warnings of its own: not
 *       checked.</li>
 * </ul>
 *
 * <p>The check asks the module system ({@link Module#isExported(String, Module)},
 * {@link Module#isOpen(String, Module)}) whether the JDK package is exported or open to the module
 * of the library class that needs it: nothing is accessed and no class of Agrona's or Chronicle's
 * is initialized, so a check that fails leaves nothing poisoned. A few map lookups per start.
 * {@code -Dframewire.checkJvmFlags=false} turns it off (for a JVM that gives the access some other
 * way, say an agent).
 *
 * <p>Threading: stateless; any thread.
 */
public final class JvmFlags
{
    /** The system property that turns the check off when {@code false}. */
    public static final String CHECK_PROP = "framewire.checkJvmFlags";
    /** Where a user is told to look: for an embedder, not only for a checkout of the project. */
    static final String WHERE = "on the java command line before -jar or the main class, or in the " +
        "JDK_JAVA_OPTIONS environment variable; an executable jar can carry them in its manifest instead " +
        "(ALL-UNNAMED only), as framewire.jar does";

    private JvmFlags()
    {
    }

    /**
     * The flags a graph needs that this JVM lacks, each with what needs it.
     *
     * @param journal the provider of the graph's journal, or null when it has none.
     * @return e.g. {@code "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED (Agrona's off-heap
     *         buffers, under every payload)"}; empty when nothing is missing.
     */
    public static List<String> missing(final JournalProvider journal)
    {
        final List<String> missing = new ArrayList<>(3);
        final Module agrona = org.agrona.BufferUtil.class.getModule(); // a class literal: not initialized
        if (!exported("java.base", "jdk.internal.misc", agrona))
        {
            missing.add("--add-exports=java.base/jdk.internal.misc=" + target(agrona) +
                " (Agrona's off-heap buffers, under every payload)");
        }
        if (journal != null)
        {
            missing.addAll(journal.missingJvmFlags());
        }
        return missing;
    }

    /**
     * Graph start: fails naming every flag the graph needs that this JVM lacks.
     *
     * @param journal the provider of the graph's journal, which needs more flags; null when it has none.
     * @throws IllegalStateException naming the missing flags, what needs each, and where they are listed.
     */
    public static void check(final JournalProvider journal)
    {
        if ("false".equals(System.getProperty(CHECK_PROP)))
        {
            return;
        }
        final List<String> missing = missing(journal);
        if (!missing.isEmpty())
        {
            throw new IllegalStateException("this JVM lacks " + (missing.size() == 1 ? "a flag" : "flags") +
                " the graph needs: " + String.join(", ", missing) + ". Give " + (missing.size() == 1 ? "it" : "them") +
                " to java: " + flags(missing) + ", " + WHERE + ": " + manifest(missing) + ". (-D" + CHECK_PROP +
                "=false skips this check.)");
        }
    }

    /**
     * For a failure that may come from a missing flag (a class that failed to load or initialize):
     * the flags this JVM lacks, said as advice, or null if none is missing.
     */
    static String adviceFor(final JournalProvider journal)
    {
        final List<String> missing = missing(journal);
        return missing.isEmpty() ? null : "this JVM lacks " + String.join(", ", missing) + ": give java " +
            flags(missing) + ", " + WHERE + ": " + manifest(missing);
    }

    /** The flags alone, without what needs each: {@code --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED ...}. */
    static String flags(final List<String> missing)
    {
        final StringBuilder sb = new StringBuilder();
        for (final String each : missing)
        {
            final int space = each.indexOf(' ');
            sb.append(sb.length() == 0 ? "" : " ").append(space < 0 ? each : each.substring(0, space));
        }
        return sb.toString();
    }

    /**
     * The flags as an executable jar's manifest entries: {@code Add-Exports: java.base/jdk.internal.misc}
     * and {@code Add-Opens: ...}, each a space-separated list of {@code module/package}.
     */
    static String manifest(final List<String> missing)
    {
        final StringBuilder exports = new StringBuilder();
        final StringBuilder opens = new StringBuilder();
        for (final String flag : flags(missing).split(" "))
        {
            final int eq = flag.indexOf('=');
            final int last = flag.lastIndexOf('=');
            if (eq < 0 || last <= eq)
            {
                continue;
            }
            final StringBuilder to = flag.startsWith("--add-opens") ? opens : exports;
            to.append(to.length() == 0 ? "" : " ").append(flag, eq + 1, last);
        }
        return (exports.length() > 0 ? "Add-Exports: " + exports : "") + (exports.length() > 0 && opens.length() > 0 ?
            " and " : "") + (opens.length() > 0 ? "Add-Opens: " + opens : "");
    }

    private static boolean exported(final String module, final String pkg, final Module to)
    {
        final Optional<Module> source = ModuleLayer.boot().findModule(module);
        return source.isEmpty() || source.get().isExported(pkg, to);
    }

    private static String target(final Module module)
    {
        return module.isNamed() ? module.getName() : "ALL-UNNAMED";
    }
}
