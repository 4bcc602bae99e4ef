/**
 * What the engine needs of a journal, without the journal: {@link dev.framewire.core.journal.JournalConfig}
 * (how a graph asks for one), {@link dev.framewire.core.journal.JournalSink} (what the engine calls
 * for every event of the run) and {@link dev.framewire.core.journal.JournalProvider} (the
 * {@link java.util.ServiceLoader} service that opens a sink). The journal itself, on Chronicle
 * Queue, with its reader, post-mortem and diff, is the {@code dev.framewire:framewire-journal}
 * artifact (package {@code dev.framewire.journal}); core does not depend on Chronicle.
 */
package dev.framewire.core.journal;
