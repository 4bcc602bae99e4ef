package dev.framewire.journal;

import java.io.IOException;
import java.util.List;

/**
 * A journal that cannot be read whole: not a journal, of a format version this reader does not
 * read, or damaged (truncated, corrupt, failing its checksums). The message says which file, where
 * and what; {@link #damage()} lists every damage with its position, and {@link #readable()} holds
 * every record that could be read, before and after the damage, so a post-mortem still works on
 * what survived.
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
     * The records that could be read, before and after the damage.
     *
     * @return the records, empty when none.
     */
    public List<JournalRecord> records()
    {
        return readable == null ? List.of() : readable.records();
    }

    /**
     * Where the journal is damaged.
     *
     * @return the damage, in file order; empty when the journal was refused (not a journal, another version).
     */
    public List<JournalDamage> damage()
    {
        return readable == null ? List.of() : readable.damage();
    }
}
