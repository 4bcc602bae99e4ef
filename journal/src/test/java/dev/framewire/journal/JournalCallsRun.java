package dev.framewire.journal;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * The fixture {@link JournalCallsTest} and {@link JournalCallsDamageTest} share: before each test,
 * an ASYNC run in the test's own directory whose worker made {@link JournalCallsTest}'s calls
 * ({@link JournalCallsTest#writeCallsJournal}).
 */
abstract class JournalCallsRun
{
    @TempDir
    Path dir;
    Path run;

    @BeforeEach
    void writeJournal() throws Exception
    {
        run = JournalCallsTest.writeCallsJournal(dir);
    }
}
