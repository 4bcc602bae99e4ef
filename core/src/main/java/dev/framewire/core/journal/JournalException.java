package dev.framewire.core.journal;

import java.io.IOException;
import java.util.List;

/**
 * A journal that cannot be read to its end: not a journal, of a format version this reader does
 * not read, truncated or corrupt. The message says which file, where and what; {@link #readable()}
 * holds every record read before the damage, so a post-mortem still works on what survived.
 *
 * <p>Threading: immutable once thrown.
 */
public final class JournalException extends IOException
{
    private static final long serialVersionUID = 1L;

    /** Not serialized: the records are for the catcher, not for a remote one. */
    private final transient JournalReader readable;

    JournalException(final String message, final JournalReader readable, final Throwable cause)
    {
        super(message, cause);
        this.readable = readable;
    }

    /**
     * The journal as far as it could be read, names resolved if its run start was read.
     *
     * @return the readable part, or null when nothing could be read (not a journal, another version).
     */
    public JournalReader readable()
    {
        return readable;
    }

    /**
     * The records read before the damage.
     *
     * @return the records, empty when none.
     */
    public List<JournalRecord> records()
    {
        return readable == null ? List.of() : readable.records();
    }
}
