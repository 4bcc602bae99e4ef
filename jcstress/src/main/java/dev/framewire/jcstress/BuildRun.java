package dev.framewire.jcstress;

import org.openjdk.jcstress.JCStress;
import org.openjdk.jcstress.Options;
import org.openjdk.jcstress.infra.Status;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.grading.TestGrading;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The build's jcstress run: jcstress's own {@code Main}, with the checks it leaves out.
 *
 * <p>jcstress ends with an {@link AssertionError}, so a non-zero exit, when an outcome was
 * FORBIDDEN or unknown, a test threw, or its fork crashed. But it returns normally, having run
 * nothing, when no JVM configuration passes its probe or no test matches the selection. This
 * class fails then too: it reads the run's result file back and asks that every selected test
 * have at least one result, each with samples, a normal status and a passing grade.
 *
 * <p>Takes jcstress's arguments ({@code -m}, {@code -t}, {@code -jvmArgs}, ...). Run by the
 * module's pom at {@code integration-test}; see docs/CHECKS.md.
 */
public final class BuildRun
{
    private BuildRun()
    {
    }

    /**
     * Runs the tests and checks the results.
     *
     * @param args jcstress's command line.
     * @throws Exception if jcstress could not run; an {@link AssertionError} if a test failed or
     *                   did not run.
     */
    public static void main(final String[] args) throws Exception
    {
        final Options opts = new Options(args);
        if (!opts.parse())
        {
            throw new IllegalArgumentException("jcstress did not accept the arguments " + String.join(" ", args));
        }
        final JCStress jcstress = new JCStress(opts);
        final SortedSet<String> tests = jcstress.getTests();
        if (tests.isEmpty())
        {
            throw new AssertionError("no jcstress test matches -t " + opts.getTestFilter());
        }
        jcstress.run();

        if (!Files.exists(Path.of(opts.getResultFile())))
        {
            throw new AssertionError("jcstress ran no test and wrote no " + opts.getResultFile() +
                ": see its output above (FATAL: No JVM configurations to run with? check -jvmArgs)");
        }
        final InProcessCollector results = new InProcessCollector();
        final DiskReadCollector reader = new DiskReadCollector(opts.getResultFile(), results);
        reader.dump();
        reader.close();

        final SortedSet<String> missing = new TreeSet<>(tests);
        final List<String> failures = new ArrayList<>();
        long samples = 0;
        for (final TestResult result : results.getTestResults())
        {
            missing.remove(result.getName());
            samples += result.getTotalCount();
            if (result.status() != Status.NORMAL || result.getTotalCount() == 0 || !TestGrading.grade(result).isPassed)
            {
                failures.add(result.getName() + " " + result.status() + ", " + result.getTotalCount() + " samples, in "
                    + result.getConfig());
            }
        }
        if (!missing.isEmpty())
        {
            failures.add("no result for " + missing + ": see the run's output above for why (no JVM configuration?)");
        }
        if (!failures.isEmpty())
        {
            throw new AssertionError("jcstress: " + failures.size() + " failed or missing:\n  " + String.join("\n  ", failures));
        }
        System.out.println("jcstress: " + tests.size() + " tests, " + results.getTestResults().size() + " results, "
            + samples + " samples, all passed");
    }
}
