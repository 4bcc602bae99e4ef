package dev.framewire.core.internal.sched;

import net.openhft.affinity.Affinity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;

/**
 * The CPU ids this process may run on, which are the ids an executor's {@code cpu} field may pin a
 * worker to: {@code sched_setaffinity} refuses any other (EINVAL). On Linux they are read from
 * {@code /proc/self/status} ({@code Cpus_allowed_list: 0-3,8}), which honours a cgroup cpuset or
 * {@code taskset}; elsewhere, or if that cannot be read, 0 to {@code availableProcessors() - 1}.
 *
 * <p>Threading: any thread; stateless (reads the file on each call, at graph validation only).
 */
public final class CpuIds
{
    private static final String KEY = "Cpus_allowed_list:";

    private CpuIds()
    {
    }

    /**
     * Why a worker of an executor pinned to CPUs could not pin itself, or null when it can. Core
     * requires OpenHFT affinity only {@code static} (see module-info.java: its module name would
     * be derived from the jar's file name), so on the module path it is there only when the
     * application adds it; on the class path its jar may be left out. Asked when a graph with a
     * pinned executor is validated, so that the graph fails there and not on a worker's first
     * duty cycle. The class literal loads the class without initializing it.
     *
     * @return the reason, or null.
     */
    public static String affinityUnavailable()
    {
        try
        {
            return Affinity.class.getModule().isNamed() && !Worker.class.getModule().canRead(Affinity.class.getModule()) ?
                "core does not read module " + Affinity.class.getModule().getName() : null;
        }
        catch (final LinkageError ex)
        {
            return "it is not in the module graph or on the class path (" + ex + ")";
        }
    }

    /**
     * The worker's own thread, as it starts: pins it to {@code cpu}, or fails naming the executor,
     * the worker and the CPUs it may use.
     */
    static void pin(final String executor, final String worker, final int cpu)
    {
        try
        {
            Affinity.setAffinity(cpu);
        }
        catch (final RuntimeException ex)
        {
            throw new IllegalStateException("executor '" + executor + "' cannot pin its worker " + worker + " to CPU " +
                cpu + " (field cpu): " + ex.getMessage() + "; valid are the CPUs " + toList(allowed()) +
                ", or no cpu to leave it unpinned", ex);
        }
    }

    /**
     * The CPU ids this process may run on.
     *
     * @return a set of ids, never empty.
     */
    public static BitSet allowed()
    {
        try
        {
            final List<String> lines = Files.readAllLines(Path.of("/proc/self/status"));
            for (final String line : lines)
            {
                if (line.startsWith(KEY))
                {
                    final BitSet ids = parseList(line.substring(KEY.length()).trim());
                    if (!ids.isEmpty())
                    {
                        return ids;
                    }
                }
            }
        }
        catch (final IOException | RuntimeException notLinux)
        {
            // no /proc, or a format this does not know: what the JVM says
        }
        final BitSet ids = new BitSet();
        ids.set(0, Runtime.getRuntime().availableProcessors());
        return ids;
    }

    /**
     * Adds to {@code errors} what is wrong with an executor's {@code cpu} ids: a negative one, or
     * one this process cannot run on.
     *
     * @param executor the executor's name.
     * @param cpus     its workers' CPU ids, worker 0 first.
     * @param errors   where the errors go.
     */
    public static void check(final String executor, final int[] cpus, final List<String> errors)
    {
        final BitSet allowed = cpus.length == 0 ? null : allowed();
        for (int w = 0; w < cpus.length; w++)
        {
            if (cpus[w] < 0)
            {
                errors.add("executor '" + executor + "' pins to CPU " + cpus[w] + "; CPU ids are 0 or more");
            }
            else if (!allowed.get(cpus[w]))
            {
                errors.add("executor '" + executor + "' pins worker " + w + " to CPU " + cpus[w] + " (field cpu), " +
                    "which this process cannot run on; valid are the CPUs " + toList(allowed) + " (Cpus_allowed_list), " +
                    "or no cpu to leave the worker unpinned");
            }
        }
    }

    /**
     * Parses a Linux CPU list, {@code "0-3,8,10-11"}.
     *
     * @param list the list.
     * @return the ids.
     * @throws NumberFormatException if it is not such a list.
     */
    static BitSet parseList(final String list)
    {
        final BitSet ids = new BitSet();
        for (final String part : list.split(","))
        {
            final String range = part.trim();
            if (range.isEmpty())
            {
                continue;
            }
            final int dash = range.indexOf('-');
            final int from = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
            final int to = dash < 0 ? from : Integer.parseInt(range.substring(dash + 1));
            ids.set(from, to + 1);
        }
        return ids;
    }

    /**
     * The ids in the Linux list form, for messages.
     *
     * @param ids the ids.
     * @return e.g. {@code "0-3,8"}.
     */
    public static String toList(final BitSet ids)
    {
        final StringBuilder sb = new StringBuilder();
        for (int from = ids.nextSetBit(0); from >= 0; )
        {
            final int to = ids.nextClearBit(from) - 1;
            sb.append(sb.length() == 0 ? "" : ",").append(from).append(to > from ? "-" + to : "");
            from = ids.nextSetBit(to + 1);
        }
        return sb.toString();
    }
}
