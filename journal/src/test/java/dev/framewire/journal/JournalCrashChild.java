package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The child JVM of {@link JournalCrashTest}: journals a run in a loop until it is killed, and
 * says on stdout how many iterations are surely in Chronicle's mapped file ("DURABLE n"): in SYNC
 * mode every call's record is there when it returns; in ASYNC mode after a flush.
 */
public final class JournalCrashChild
{
    private JournalCrashChild()
    {
    }

    /**
     * Runs until killed.
     *
     * @param args the journal root and the mode.
     * @throws Exception never expected.
     */
    public static void main(final String[] args) throws Exception
    {
        final JournalConfig.Mode mode = JournalConfig.Mode.valueOf(args[1]);
        final JournalWriter writer = JournalWriter.open(new JournalConfig().directory(Path.of(args[0])).mode(mode)
            .blockSize(1 << 20).ringCapacity(1 << 22));
        writer.runStart("crash test", 7, "test", new String[]{"loop"}, new String[]{"in", "out"},
            new String[]{"worker-0"}, new int[][]{{0}});
        System.out.println("RUN " + writer.runDirectory());
        System.out.flush();
        for (long i = 0; ; i++)
        {
            writer.graphInput(0, i, JournalWriter.LONG, i);
            writer.processBegin(0, 0, i);
            writer.emit(0, 0, 1, i, JournalWriter.LONG, i * 2);
            writer.processEnd(0, 0, i);
            if (i % 1000 == 999)
            {
                if (mode == JournalConfig.Mode.ASYNC && !writer.flush(TimeUnit.SECONDS.toNanos(5)))
                {
                    throw new IllegalStateException("the journal agent did not drain the ring in 5 s");
                }
                System.out.println("DURABLE " + (i + 1));
                System.out.flush();
                Thread.sleep(1); // a shared machine: leave the cores some air
            }
        }
    }
}
