/**
 * The journal of a graph's run on Chronicle Queue: {@link dev.framewire.journal.JournalWriter} (the
 * engine's {@link dev.framewire.core.journal.JournalSink}, found through
 * {@link dev.framewire.journal.ChronicleJournalProvider}), and the offline code that reads a run back:
 * {@link dev.framewire.journal.JournalReader}, {@link dev.framewire.journal.Postmortem},
 * {@link dev.framewire.journal.JournalDiff}, and the retention of old runs. The record format is in
 * {@code JournalDescriptor} and docs/JOURNAL.md.
 */
package dev.framewire.journal;
