package dev.framewire.core.journal;

import java.util.List;

/**
 * Opens journals: the service a journal implementation registers in
 * {@code META-INF/services/dev.framewire.core.journal.JournalProvider}, found with
 * {@link java.util.ServiceLoader} when a graph whose config has a {@link JournalConfig} starts.
 * {@code dev.framewire:framewire-journal} (Chronicle Queue) is the one Framewire ships; a graph
 * that asks for a journal without it on the class path fails to start, saying to add it.
 *
 * <p>Threading: called by the thread that starts a graph; an implementation keeps no state
 * between calls, or makes it safe to share.
 */
public interface JournalProvider
{
    /**
     * Opens a new run journal. The engine then calls {@link JournalSink#runStart} before its
     * workers start.
     *
     * @param config the journal's settings, as the graph's config gives them.
     * @return the journal's sink, open.
     * @throws IllegalArgumentException naming a setting that is not valid.
     * @throws java.io.UncheckedIOException if the journal's files cannot be made.
     */
    JournalSink open(JournalConfig config);

    /**
     * The JVM flags ({@code --add-opens}, {@code --add-exports}) the journal needs that this JVM
     * lacks, checked when a journaled graph starts so that a missing one is named there and not
     * met as a class that fails to initialize mid-run. Must not initialize the journal's library
     * (ask the module system, as {@link Module#isOpen(String, Module)} does).
     *
     * @return each missing flag with what needs it, e.g.
     *         {@code "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED (the journal: Chronicle Queue)"};
     *         empty when nothing is missing.
     */
    List<String> missingJvmFlags();
}
