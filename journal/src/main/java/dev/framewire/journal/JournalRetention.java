package dev.framewire.journal;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Which run journals in a journal directory to keep: by age (a run whose newest file is older
 * than the maximum age goes) and by total size (the oldest runs go first until the rest fit).
 * Whole runs only, and never a run being written.
 *
 * <pre>{@code
 * List<JournalRetention.Decision> plan = JournalRetention.plan(root, Duration.ofDays(7), 10L << 30, Instant.now());
 * JournalRetention.apply(plan);   // or print it: a dry run
 * }</pre>
 *
 * <p>A run is being written while its writer holds the OS lock on its {@code writer.lock} file
 * (taken when the journal opens, released at close, and by the OS when the process dies, kill -9
 * included); or when this JVM is writing it. A run journaled before there were lock files counts as
 * being written while any of its files changed in the last minute. Locks are advisory and local:
 * on a network file system they may not be seen across machines.
 *
 * <p>A run's size is what its files hold on disk, about what {@code du} says: each of Chronicle's
 * files up to its last non-zero byte in whole 4 KiB blocks (Chronicle makes a cycle's file tens of
 * MiB long up front; the rest is a sparse tail), the other files by their size. Measuring reads
 * each of Chronicle's files' zero tail, some tens of milliseconds a run.
 *
 * <p>Only directories named and shaped like run journals are considered, and in them only the
 * journal's files are deleted: a run directory holding anything else keeps it (and itself).
 *
 * <p>Threading: stateless.
 */
public final class JournalRetention
{
    /** What happens to a run. */
    public enum Verdict
    {
        /** It stays: within the age and the size. */
        KEEP,
        /** It goes: too old, or over the size budget. */
        DELETE,
        /** It is being written: it stays whatever its age and size. */
        IN_USE
    }

    /**
     * One run and what happens to it.
     *
     * @param run          the run's directory.
     * @param bytes        what its files hold (see the class comment).
     * @param lastModified when its newest file was last written.
     * @param verdict      keep, delete, or in use.
     * @param reason       why, in words.
     */
    public record Decision(Path run, long bytes, Instant lastModified, Verdict verdict, String reason)
    {
    }

    /**
     * What {@link #apply} did to one run.
     *
     * @param decision the decision it carried out.
     * @param deleted  whether the run's directory is gone; false when it holds files that are not
     *                 the journal's (they, and the directory, are kept) or deleting failed.
     * @param problem  null, or why it was not deleted.
     */
    public record Outcome(Decision decision, boolean deleted, String problem)
    {
    }

    private JournalRetention()
    {
    }

    /**
     * Decides, for every run journal in a journal directory, whether it is kept.
     *
     * @param root          the journal directory ({@link dev.framewire.core.journal.JournalConfig#directory()}).
     * @param maxAge        runs whose newest file is older go; null for no age limit.
     * @param maxTotalBytes the oldest runs go until the rest hold at most this; -1 for no size limit.
     * @param now           the time ages count from.
     * @return a decision per run, oldest first; empty when the directory has no runs (or does not exist).
     * @throws IOException if the directory or a run cannot be read.
     */
    public static List<Decision> plan(final Path root, final Duration maxAge, final long maxTotalBytes,
        final Instant now) throws IOException
    {
        final List<Path> runs = JournalFiles.runs(root);
        final List<Decision> decisions = new ArrayList<>(runs.size());
        final boolean sized = maxTotalBytes >= 0;
        long total = 0;
        for (final Path run : runs)
        {
            final Instant modified = JournalFiles.newestModification(run).toInstant();
            final long bytes = sized ? JournalFiles.runBytes(run) : -1;
            final Decision d;
            if (WriterLock.isBeingWritten(run, now))
            {
                d = new Decision(run, bytes, modified, Verdict.IN_USE, "being written");
            }
            else if (maxAge != null && modified.isBefore(now.minus(maxAge)))
            {
                d = new Decision(run, bytes, modified, Verdict.DELETE, "last written " + age(now, modified) +
                    " ago, more than " + age(maxAge) + " ago");
            }
            else
            {
                d = new Decision(run, bytes, modified, Verdict.KEEP, "");
            }
            decisions.add(d);
            if (d.verdict() != Verdict.DELETE)
            {
                total += Math.max(0, bytes);
            }
        }
        if (sized)
        {
            // oldest first, whole runs, until the rest fit
            for (int i = 0; i < decisions.size() && total > maxTotalBytes; i++)
            {
                final Decision d = decisions.get(i);
                if (d.verdict() == Verdict.KEEP)
                {
                    decisions.set(i, new Decision(d.run(), d.bytes(), d.lastModified(), Verdict.DELETE,
                        "the runs kept held " + bytes(total) + ", more than " + bytes(maxTotalBytes) +
                            ": the oldest go first"));
                    total -= d.bytes();
                }
            }
        }
        for (int i = 0; i < decisions.size(); i++)
        {
            final Decision d = decisions.get(i);
            if (d.verdict() == Verdict.KEEP)
            {
                decisions.set(i, new Decision(d.run(), d.bytes(), d.lastModified(), Verdict.KEEP,
                    maxAge == null && !sized ? "no limit given" : "within the limits"));
            }
        }
        return decisions;
    }

    /**
     * Deletes the runs a plan says go. A run found being written since the plan was made is kept.
     *
     * @param plan from {@link #plan}.
     * @return what happened to each run the plan deletes.
     */
    public static List<Outcome> apply(final List<Decision> plan)
    {
        final List<Outcome> outcomes = new ArrayList<>();
        for (final Decision d : plan)
        {
            if (d.verdict() != Verdict.DELETE)
            {
                continue;
            }
            try
            {
                if (WriterLock.isBeingWritten(d.run(), Instant.now()))
                {
                    outcomes.add(new Outcome(d, false, "being written now"));
                }
                else if (JournalFiles.deleteRun(d.run()))
                {
                    outcomes.add(new Outcome(d, true, null));
                }
                else
                {
                    outcomes.add(new Outcome(d, false, "it holds files that are not the journal's: deleted the " +
                        "journal's files, kept the rest"));
                }
            }
            catch (final IOException ex)
            {
                outcomes.add(new Outcome(d, false, "cannot delete it: " + ex));
            }
        }
        return outcomes;
    }

    /**
     * A journal config's retention in a sentence, as a writer logs it when it opens and the tools
     * print it at start: "journal retention (DIR): runs last written more than 7 days ago, then the
     * oldest beyond 10.0 GiB in all, are deleted when a journal opens; never a run being written".
     *
     * @param directory the journal directory.
     * @param maxAge    the age past which runs go, or null for none.
     * @param maxBytes  the total size, or -1 for none.
     * @return the sentence.
     */
    public static String describe(final Path directory, final Duration maxAge, final long maxBytes)
    {
        if (maxAge == null && maxBytes < 0)
        {
            return "journal retention (" + directory + "): none, every run is kept (the disk is the limit)";
        }
        return "journal retention (" + directory + "): " + (maxAge != null ? "runs last written more than " +
            age(maxAge) + " ago" + (maxBytes >= 0 ? ", then " : "") : "") + (maxBytes >= 0 ? "the oldest runs " +
            "beyond " + bytes(maxBytes) + " in all" : "") + ", are deleted when a journal opens; never a run being " +
            "written";
    }

    /**
     * Bytes in words, binary units: "512 B", "1.5 KiB", "230.4 MiB", "2.0 GiB".
     *
     * @param bytes a count.
     * @return the words.
     */
    public static String bytes(final long bytes)
    {
        if (bytes < 1024)
        {
            return bytes + " B";
        }
        final String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = bytes / 1024.0;
        int u = 0;
        while (v >= 1024 && u < units.length - 1)
        {
            v /= 1024;
            u++;
        }
        return String.format(java.util.Locale.ROOT, "%.1f %s", v, units[u]);
    }

    private static String age(final Instant now, final Instant then)
    {
        return age(Duration.between(then, now));
    }

    /**
     * A duration in its largest whole unit, for messages: "9 days", "3 h", "15 min", "42 s" (a
     * negative one, a file written "in the future" by a skewed clock, as "0 s").
     *
     * @param d the duration.
     * @return its text.
     */
    public static String age(final Duration d)
    {
        if (d.toDays() >= 2)
        {
            return d.toDays() + " days";
        }
        if (d.toHours() >= 2)
        {
            return d.toHours() + " h";
        }
        if (d.toMinutes() >= 2)
        {
            return d.toMinutes() + " min";
        }
        return Math.max(0, d.getSeconds()) + " s";
    }
}
