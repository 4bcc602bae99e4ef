package dev.framewire.journal;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes the journal reader over damaged and random journal files, as {@code framewire
 * postmortem} and {@code trace} read them: a real run directory (a format 1.8 journal kept as a
 * test resource) whose cycle file keeps Chronicle's own header and index documents and gets the
 * fuzzer's bytes as its data documents, followed by zeros, as a cycle file is; then
 * {@link JournalReader#read}, and on what could be read, {@link Postmortem#of} and
 * {@link JournalTrace#of}. The only failure allowed is a {@link JournalException} with a message
 * and, when it has a readable part, the damage listed; any other exception, an out-of-memory or
 * a hang is a finding.
 *
 * <p>Seeds under {@code JournalFuzzTestInputs/read/}: the data documents of the format 1.0, 1.6
 * and 1.8 journals in {@code src/test/resources/journal/}, as their writers wrote them.
 */
class JournalFuzzTest
{
    /** Zeros after the data, as Chronicle's preallocated file has: the data then ends cleanly. */
    private static final int PADDING = 4096;
    private static final Run RUN = Run.make();

    @FuzzTest
    void read(final byte[] data) throws IOException
    {
        RUN.write(data);
        final JournalReader journal;
        try
        {
            journal = JournalReader.read(RUN.dir);
        }
        catch (final JournalException ex)
        {
            assertNotNull(ex.getMessage());
            assertFalse(ex.getMessage().isBlank(), "a journal exception says what is wrong");
            if (ex.readable() != null)
            {
                assertFalse(ex.damage().isEmpty(), "a damaged journal says where: " + ex.getMessage());
                survey(ex.readable());
            }
            return;
        }
        assertFalse(journal.isDamaged(), "an undamaged journal is read without an exception");
        survey(journal);
    }

    /** What the tools do with a journal read, or with the readable part of a damaged one. */
    private static void survey(final JournalReader journal)
    {
        for (final JournalRecord record : journal.records())
        {
            assertNotNull(record.toString());
        }
        for (final JournalDamage damage : journal.damage())
        {
            assertTrue(damage.toString().contains(damage.file().getFileName().toString()), damage.toString());
        }
        Postmortem.of(journal).toString();
        JournalTrace.of(journal);
    }

    /** The run directory the fuzzer's data goes into, made once per JVM from the 1.8 resource. */
    static final class Run
    {
        final Path dir;
        final Path cycleFile;
        /** Chronicle's header and index documents: everything before the first data document. */
        final byte[] prefix;

        private Run(final Path dir, final Path cycleFile, final byte[] prefix)
        {
            this.dir = dir;
            this.cycleFile = cycleFile;
            this.prefix = prefix;
        }

        static Run make()
        {
            try
            {
                final Path root = Files.createTempDirectory("journal-fuzz");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(root)));
                final Path run = JournalDamageTest.unzipRun(root, "/journal/format-1.8.zip");
                final List<Path> files = JournalFiles.cycleFiles(run);
                final Path file = files.get(0);
                final long firstBody = JournalScanner.documents(file).bodies.getLong(0);
                final byte[] prefix = Arrays.copyOf(Files.readAllBytes(file), (int)firstBody - 4);
                return new Run(run, file, prefix);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }

        void write(final byte[] data) throws IOException
        {
            try (FileChannel channel = FileChannel.open(cycleFile, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING))
            {
                channel.write(new ByteBuffer[]{ByteBuffer.wrap(prefix), ByteBuffer.wrap(data),
                    ByteBuffer.allocate(PADDING)});
            }
        }

        private static void delete(final Path root)
        {
            try (Stream<Path> paths = Files.walk(root))
            {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
            catch (final IOException ex)
            {
                // a temporary directory left behind; nothing to report at exit
            }
        }
    }
}
