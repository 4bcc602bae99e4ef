package dev.framewire.core.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A report the engine made about the run: a deadlock found (and reported or resolved), the
 * watchdog firing, a memory limit crossed.
 */
@Name("dev.framewire.Report")
@Label("Engine Report")
@Category({"Framewire", "Health"})
@Description("Deadlock, watchdog and memory budget reports")
@Enabled(true)
@StackTrace(false)
public final class ReportEvent extends Event
{
    /** deadlock, deadlock-resolved, watchdog, memory-soft-limit, memory-hard-limit. */
    @Label("Kind")
    public String kind;

    /** The report's text. */
    @Label("Report")
    public String report;

    /**
     * Records a report, if a recording wants it. Rare path: allocates.
     *
     * @param kind   what happened.
     * @param report the text.
     */
    public static void emit(final String kind, final String report)
    {
        final ReportEvent event = new ReportEvent();
        if (event.shouldCommit())
        {
            event.kind = kind;
            event.report = report;
            event.commit();
        }
    }
}
