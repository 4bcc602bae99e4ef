package dev.framewire.journal;

/**
 * How a run ended, as its journal tells it: from the text of its {@code RUN_END} record, or its
 * absence. The engine writes {@code "done"}, {@code "failed"}, {@code "cancelled"}, or
 * {@code "cancelled: REASON"} when the run was ended with {@code Graph.cancel(String)}: a reason
 * that starts {@code "duration elapsed"} is a timed stop (the tools' {@code --duration}), any other
 * reason a stop someone asked for (a signal, a frame count).
 *
 * <p>Threading: immutable.
 */
public enum RunEnding
{
    /** Its sources ended and everything drained: {@code "done"}. */
    DONE("done"),
    /** Its time limit was reached: {@code "cancelled: duration elapsed..."}. */
    DURATION_ELAPSED("duration elapsed"),
    /** Stopped for a reason its caller named (Ctrl-C, SIGTERM, a frame count): {@code "cancelled: REASON"}. */
    STOPPED("stopped"),
    /** Cancelled with no reason given ({@code Graph.cancel()}): {@code "cancelled"}. */
    CANCELLED("cancelled"),
    /** A node failed and the run failed with it: {@code "failed"}. */
    FAILED("failed"),
    /** No end of run in the journal: the process died or was killed (or still runs). */
    KILLED("killed");

    /** The RUN_END text's prefix of a run cancelled with a reason. */
    static final String CANCELLED_FOR = "cancelled: ";
    /** The reason's prefix of a timed stop. */
    public static final String DURATION_REASON = "duration elapsed";

    private final String word;

    RunEnding(final String word)
    {
        this.word = word;
    }

    /**
     * The word a post-mortem uses.
     *
     * @return e.g. {@code "duration elapsed"}.
     */
    public String word()
    {
        return word;
    }

    /**
     * The ending a RUN_END's text says.
     *
     * @param runEndText the text, or null when the journal has no RUN_END.
     * @return the ending; an unknown text (a newer engine's) reads as {@link #STOPPED}.
     */
    public static RunEnding of(final String runEndText)
    {
        if (runEndText == null)
        {
            return KILLED;
        }
        switch (runEndText)
        {
            case "done":
                return DONE;
            case "failed":
                return FAILED;
            case "cancelled":
                return CANCELLED;
            default:
                final String reason = reason(runEndText);
                return reason != null && reason.startsWith(DURATION_REASON) ? DURATION_ELAPSED : STOPPED;
        }
    }

    /**
     * The reason the run was cancelled for, as {@code Graph.cancel(String)} was given it.
     *
     * @param runEndText the RUN_END's text, or null.
     * @return the reason, or null when none was given.
     */
    public static String reason(final String runEndText)
    {
        return runEndText != null && runEndText.startsWith(CANCELLED_FOR) ?
            runEndText.substring(CANCELLED_FOR.length()) : null;
    }

    /**
     * The ending in a phrase: {@code "ended: duration elapsed (--duration 20 s)"}, {@code "was
     * stopped: Ctrl-C or SIGTERM"}, {@code "was killed: the journal has no end of run ..."}.
     *
     * @param runEndText the RUN_END's text, or null.
     * @return the phrase, to follow "The run ".
     */
    public static String phrase(final String runEndText)
    {
        final RunEnding ending = of(runEndText);
        final String reason = reason(runEndText);
        switch (ending)
        {
            case DONE:
                return "ended done";
            case FAILED:
                return "ended failed";
            case CANCELLED:
                return "was cancelled (no reason given)";
            case DURATION_ELAPSED:
                final String detail = reason.substring(DURATION_REASON.length()).replaceFirst("^[:,]?\\s*", "");
                return "ended: duration elapsed" + (detail.isEmpty() ? "" : " (" + detail + ")");
            case STOPPED:
                return "was stopped: " + (reason != null ? reason.replaceFirst("^stopped:?\\s*", "") : runEndText);
            default:
                return "was killed, or still runs: the journal has no end of run";
        }
    }
}
