package dev.framewire.tools;

/**
 * A command could not do what it was asked, for a reason the user can act on (a missing file, an
 * invalid graph, a side packet with no value): the command line prints the message, without a
 * stack trace, and exits with 1. Anything else a command throws is a bug and keeps its trace.
 */
final class CommandFailure extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    CommandFailure(final String message)
    {
        super(message, null, false, false);
    }
}
