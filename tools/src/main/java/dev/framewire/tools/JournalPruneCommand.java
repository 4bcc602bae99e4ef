package dev.framewire.tools;

import dev.framewire.journal.JournalRetention;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code framewire journal prune DIR [--max-age AGE] [--max-size SIZE] [--dry-run]}: deletes old
 * run journals in a journal directory ({@link JournalRetention}): runs last written longer ago than
 * the age, then the oldest runs until the rest fit in the size. Whole runs only, and never a run
 * being written (its writer holds the lock on its {@code writer.lock}). Prints a line per run: what
 * happens to it and why.
 */
@Command(
    name = "prune",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = {"Deletes old run journals in a journal directory: runs last written longer ago than --max-age, " +
        "then the oldest runs until the rest hold at most --max-size. Whole runs only, never a run being written.",
        "Sizes count what the files hold (Chronicle's files are long but sparse): as du, not ls."})
public final class JournalPruneCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "A journal directory: the one holding run-* journals.")
    private Path directory;

    @Option(names = "--max-age", paramLabel = "AGE", converter = Retention.AgeConverter.class,
        description = "Delete runs last written longer ago than AGE: 90s, 30m, 12h, 7d, 2w (or ISO-8601, P7D).")
    private Duration maxAge;

    @Option(names = "--max-size", paramLabel = "SIZE", converter = Retention.SizeConverter.class,
        description = "Delete the oldest runs until the rest hold at most SIZE: bytes, or 500M, 10G (binary units).")
    private Long maxSize;

    @Option(names = "--dry-run", description = "Say what would be deleted; delete nothing.")
    private boolean dryRun;

    @Override
    public Integer call()
    {
        if (maxAge == null && maxSize == null)
        {
            throw new ParameterException(spec.commandLine(), "give --max-age AGE, --max-size SIZE or both: without " +
                "a limit nothing would be pruned");
        }
        if (!Files.isDirectory(directory))
        {
            throw new CommandFailure(directory.toAbsolutePath() + " is not a directory; give DIR as the " +
                "directory that holds the run-* journals (the tools write them to ./journals by default)");
        }
        final List<JournalRetention.Decision> plan;
        try
        {
            plan = JournalRetention.plan(directory, maxAge, maxSize == null ? -1 : maxSize, Instant.now());
        }
        catch (final IOException ex)
        {
            throw new CommandFailure("cannot read the journals in " + directory.toAbsolutePath() + ": " + ex);
        }
        final PrintWriter out = spec.commandLine().getOut();
        if (plan.isEmpty())
        {
            out.println("no run journals in " + directory.toAbsolutePath() + " (directories named " +
                "run-<date>-<time>-<pid> holding metadata.cq4t)");
            out.flush();
            return 0;
        }
        final boolean sized = maxSize != null;
        long total = 0;
        for (final JournalRetention.Decision d : plan)
        {
            total += Math.max(0, d.bytes());
        }
        out.printf(Locale.ROOT, "journal %s: %d %s%s (%s)%n", directory.toAbsolutePath(), plan.size(),
            plan.size() == 1 ? "run" : "runs", sized ? ", " + JournalRetention.bytes(total) : "", limits());
        final Instant now = Instant.now();
        for (final JournalRetention.Decision d : plan)
        {
            final String what = switch (d.verdict())
            {
                case DELETE -> dryRun ? "would delete" : "delete";
                case IN_USE -> "in use";
                case KEEP -> "keep";
            };
            out.printf(Locale.ROOT, "  %-12s  %s  %s  last written %s ago%s%n", what, d.run().getFileName(),
                sized ? String.format(Locale.ROOT, "%10s", JournalRetention.bytes(d.bytes())) : "",
                JournalRetention.age(Duration.between(d.lastModified(), now)), d.verdict() == JournalRetention.Verdict.KEEP ? "" :
                    ": " + d.reason());
        }
        int deleted = 0;
        long freed = 0;
        int failed = 0;
        if (!dryRun)
        {
            for (final JournalRetention.Outcome outcome : JournalRetention.apply(plan))
            {
                if (outcome.deleted())
                {
                    deleted++;
                    freed += Math.max(0, outcome.decision().bytes());
                }
                else
                {
                    failed++;
                    spec.commandLine().getErr().println("prune: kept " + outcome.decision().run() + ": " +
                        outcome.problem());
                }
            }
        }
        else
        {
            for (final JournalRetention.Decision d : plan)
            {
                if (d.verdict() == JournalRetention.Verdict.DELETE)
                {
                    deleted++;
                    freed += Math.max(0, d.bytes());
                }
            }
        }
        out.printf(Locale.ROOT, "%s %d %s%s; %d kept%s%n", dryRun ? "dry run: would delete" : "deleted", deleted,
            deleted == 1 ? "run" : "runs", sized ? " (" + JournalRetention.bytes(freed) + ")" : "",
            plan.size() - deleted, dryRun ? "; nothing was deleted" : "");
        out.flush();
        spec.commandLine().getErr().flush();
        return failed == 0 ? 0 : 1;
    }

    private String limits()
    {
        final StringBuilder sb = new StringBuilder();
        if (maxAge != null)
        {
            sb.append("--max-age ").append(JournalRetention.age(maxAge));
        }
        if (maxSize != null)
        {
            sb.append(sb.length() > 0 ? ", " : "").append("--max-size ").append(JournalRetention.bytes(maxSize));
        }
        return sb.toString();
    }
}
