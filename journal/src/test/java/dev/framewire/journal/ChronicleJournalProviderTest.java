package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.JournalProvider;
import dev.framewire.core.journal.JournalSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The provider the engine finds with ServiceLoader, and what it opens. */
@Timeout(60)
class ChronicleJournalProviderTest
{
    @TempDir
    Path dir;

    @Test
    void theChronicleJournalIsTheRegisteredProvider()
    {
        final List<String> providers = ServiceLoader.load(JournalProvider.class).stream()
            .map(p -> p.type().getName()).toList();
        assertEquals(List.of(ChronicleJournalProvider.class.getName()), providers);
    }

    @Test
    void itOpensAJournalWriter()
    {
        try (JournalSink sink = new ChronicleJournalProvider().open(new JournalConfig().directory(dir)))
        {
            assertInstanceOf(JournalWriter.class, sink);
        }
    }

    @Test
    void anUnknownRollCycleIsRefusedNamingTheValidOnesBeforeAnythingIsMade()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new ChronicleJournalProvider().open(new JournalConfig().directory(dir.resolve("j")).rollCycle("WEEKLY_ISH")));
        assertTrue(ex.getMessage().contains("WEEKLY_ISH") && ex.getMessage().contains("FAST_HOURLY"), ex.getMessage());
        assertTrue(!dir.resolve("j").toFile().exists() || dir.resolve("j").toFile().list().length == 0,
            "nothing made for a refused journal");
    }
}
