package dev.framewire.journal;

/**
 * A record that makes no sense (a field past its end, an id outside the run, a record longer than
 * its fields): {@link JournalReader} reports it as damage of its kind, with its position, and the
 * read goes on with the next record. Thrown by the record decoders; stackless, as it is an answer,
 * not a bug.
 *
 * <p>Threading: confined to the reading thread.
 */
final class CorruptRecord extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** The kind of damage it is reported as. */
    final JournalDamage.Kind kind;

    CorruptRecord(final String message)
    {
        this(JournalDamage.Kind.CORRUPT_RECORD, message);
    }

    CorruptRecord(final JournalDamage.Kind kind, final String message)
    {
        super(message, null, false, false);
        this.kind = kind;
    }
}
