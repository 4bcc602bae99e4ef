package dev.framewire.bench.journal;

import org.agrona.BufferUtil;
import org.agrona.IoUtil;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What a page costs the first time a process writes it, against a page already there: the journal
 * agent appends through Chronicle's memory-mapped files, so each 4 KiB of journal is a page the
 * kernel must find, zero and map before the agent's first store lands on it. Prints, per 4 KiB page
 * (one store a page, so the numbers are the page's cost, not the stores'):
 * <ul>
 *   <li>a file's pages mapped and written for the first time (new page-cache pages, as the journal's);</li>
 *   <li>the same pages written again through the same mapping;</li>
 *   <li>the same file mapped anew and written (the pages are in the page cache: a fault each, no new page);</li>
 *   <li>anonymous memory allocated and zeroed ({@code ByteBuffer.allocateDirect}) after the same amount was
 *       freed (the kernel hands out pages it got back).</li>
 * </ul>
 * Three rounds each (the file's first round makes its pages, the later ones find them in the page
 * cache), in a temporary file under {@code java.io.tmpdir} (give {@code -Djava.io.tmpdir} to
 * measure the journal's own file system):
 *
 * <pre>java @.mvn/jvm.config -cp bench/target/benchmarks.jar dev.framewire.bench.journal.FreshPageCost [MiB, default 256]</pre>
 */
public final class FreshPageCost
{
    private static final int PAGE = 4096;

    private FreshPageCost()
    {
    }

    /**
     * Runs the measurement.
     *
     * @param args the size in MiB, optional.
     * @throws IOException if the temporary file cannot be made.
     */
    public static void main(final String[] args) throws IOException
    {
        final int mib = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        final int size = mib << 20;
        final int pages = size / PAGE;
        final Path file = Files.createTempFile("framewire-fresh-pages", ".dat");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            for (int round = 0; round < 3; round++)
            {
                final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
                final long first = touch(mapped);
                final long again = touch(mapped);
                IoUtil.unmap(mapped);
                System.out.printf("file, round %d (%s): %s the mapping's first write, %s written again%n", round,
                    round == 0 ? "new page-cache pages" : "the pages already in the page cache", perPage(first, pages),
                    perPage(again, pages));
            }
        }
        finally
        {
            Files.delete(file);
        }
        for (int round = 0; round < 3; round++)
        {
            BufferUtil.free(ByteBuffer.allocateDirect(size));
            final long start = System.nanoTime();
            final ByteBuffer reused = ByteBuffer.allocateDirect(size); // zeroed by the JVM: each page touched
            final long allocated = System.nanoTime() - start;
            BufferUtil.free(reused);
            System.out.printf("anonymous, round %d: %s allocated and zeroed after as much was freed%n", round,
                perPage(allocated, pages));
        }
    }

    /** One store a page; the nanoseconds it took. */
    private static long touch(final ByteBuffer buffer)
    {
        final long start = System.nanoTime();
        for (int at = 0; at < buffer.capacity(); at += PAGE)
        {
            buffer.putLong(at, at);
        }
        return System.nanoTime() - start;
    }

    private static String perPage(final long nanos, final int pages)
    {
        return String.format("%,.0f ns a page", (double)nanos / pages);
    }
}
