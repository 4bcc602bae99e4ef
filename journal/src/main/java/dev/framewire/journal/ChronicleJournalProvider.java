package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.JournalProvider;
import dev.framewire.core.journal.JournalSink;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The Chronicle Queue journal as the engine finds it: registered in
 * {@code META-INF/services/dev.framewire.core.journal.JournalProvider}, it opens a
 * {@link JournalWriter} for a graph whose config has a {@link JournalConfig}.
 *
 * <p>Threading: stateless; any thread.
 */
public final class ChronicleJournalProvider implements JournalProvider
{
    @Override
    public JournalSink open(final JournalConfig config)
    {
        return JournalWriter.open(config);
    }

    /**
     * The flags Chronicle Queue's memory-mapped files need: {@code java.lang.reflect} open and
     * {@code sun.nio.ch} exported to Chronicle. Asked of the module system through a class literal,
     * so that no Chronicle class is initialized.
     */
    @Override
    public List<String> missingJvmFlags()
    {
        final List<String> missing = new ArrayList<>(2);
        final Module chronicle = net.openhft.chronicle.queue.ChronicleQueue.class.getModule();
        final Optional<Module> base = ModuleLayer.boot().findModule("java.base");
        if (base.isPresent() && !base.get().isOpen("java.lang.reflect", chronicle))
        {
            missing.add("--add-opens=java.base/java.lang.reflect=" + target(chronicle) + " (the journal: Chronicle Queue)");
        }
        if (base.isPresent() && !base.get().isExported("sun.nio.ch", chronicle))
        {
            missing.add("--add-exports=java.base/sun.nio.ch=" + target(chronicle) +
                " (the journal: Chronicle Queue's memory-mapped files)");
        }
        return missing;
    }

    private static String target(final Module module)
    {
        return module.isNamed() ? module.getName() : "ALL-UNNAMED";
    }
}
