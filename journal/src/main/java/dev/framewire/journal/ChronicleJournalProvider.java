package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.JournalProvider;
import dev.framewire.core.journal.JournalSink;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The Chronicle Queue journal as the engine finds it: registered in
 * {@code META-INF/services/dev.framewire.core.journal.JournalProvider}, so that a graph whose
 * config has a {@link JournalConfig} opens a {@link JournalWriter} when it starts.
 *
 * <p>The JVM flags Chronicle Queue needs were measured (JDK 17.0.15 and 25, Chronicle Queue
 * 2026.4) by leaving each flag of {@code .mvn/jvm.config} out in turn:
 * {@code --add-opens=java.base/java.lang.reflect} and {@code --add-exports=java.base/sun.nio.ch}
 * (an {@code --add-opens} of it does too) are required; the rest Chronicle uses when given and
 * does without otherwise, with warnings of its own. They are checked by asking the module system,
 * through a class literal that initializes nothing of Chronicle's.
 *
 * <p>Threading: stateless; any thread.
 */
public final class ChronicleJournalProvider implements JournalProvider
{
    /** For {@link java.util.ServiceLoader}. */
    public ChronicleJournalProvider()
    {
    }

    @Override
    public JournalSink open(final JournalConfig config)
    {
        return JournalWriter.open(config);
    }

    @Override
    public List<String> missingJvmFlags()
    {
        final List<String> missing = new ArrayList<>(2);
        final Module chronicle = net.openhft.chronicle.queue.ChronicleQueue.class.getModule();
        final Optional<Module> base = ModuleLayer.boot().findModule("java.base");
        if (base.isEmpty())
        {
            return missing;
        }
        final String target = chronicle.isNamed() ? chronicle.getName() : "ALL-UNNAMED";
        if (!base.get().isOpen("java.lang.reflect", chronicle))
        {
            missing.add("--add-opens=java.base/java.lang.reflect=" + target + " (the journal: Chronicle Queue)");
        }
        if (!base.get().isExported("sun.nio.ch", chronicle))
        {
            missing.add("--add-exports=java.base/sun.nio.ch=" + target +
                " (the journal: Chronicle Queue's memory-mapped files)");
        }
        return missing;
    }
}
