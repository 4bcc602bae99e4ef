package dev.framewire.journal;

/**
 * Not a Framewire journal, or one of another major format version: {@link JournalReader#read}
 * turns it into a {@link JournalException} with nothing read. Stackless.
 *
 * <p>Threading: confined to the reading thread.
 */
final class RefusedJournal extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    RefusedJournal(final String message)
    {
        super(message, null, false, false);
    }
}
