package dev.framewire.core.calculators.video;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One ffmpeg (or ffprobe) child process whose video goes through a pipe we read or write with a
 * {@link FileChannel}, and whose stderr is kept, last lines only, for reports.
 *
 * <p>Why a named pipe: the JDK gives a child's stdin and stdout to Java only as streams, which
 * copy through a heap {@code byte[]}. A FIFO made with {@code mkfifo} in a private temporary
 * directory is the child's stdin or stdout instead, and the parent holds the other end as a
 * {@code FileChannel}: a read into a direct {@code ByteBuffer} is one {@code read(2)} from the
 * kernel into that memory. No JNI, no reflection into the JDK. Opening a FIFO blocks until
 * both ends are open, so the parent first opens it read-write (which Linux allows and never
 * blocks), opens its own end, starts the child on the other, and closes the read-write handle:
 * from then on the child's exit is the pipe's end of file (or a broken pipe for a writer), as with
 * an ordinary pipe. The FIFO's name is removed at once; the open ends live on.
 *
 * <p>Threading: {@link #kill()} and the queries are safe from any thread; the channel has one
 * user at a time.
 */
final class FfmpegProcess
{
    /** Lines of stderr kept for reports. */
    static final int STDERR_LINES = 20;

    private final String name;
    private final Process process;
    private final FileChannel channel;
    private final Thread stderrReader;
    private final ArrayDeque<String> stderrTail = new ArrayDeque<>(STDERR_LINES);
    private volatile boolean killed;

    private FfmpegProcess(final String name, final Process process, final FileChannel channel)
    {
        this.name = name;
        this.process = process;
        this.channel = channel;
        this.stderrReader = new Thread(this::drainStderr, name + "-stderr");
        stderrReader.setDaemon(true);
        stderrReader.start();
    }

    /**
     * Starts a child whose stdout we read.
     *
     * @param command the command line.
     * @param name    names the stderr thread and the child in messages.
     * @return the running child.
     * @throws IOException if the pipe or the process cannot be made.
     */
    static FfmpegProcess startReading(final List<String> command, final String name) throws IOException
    {
        return start(command, name, true);
    }

    /**
     * Starts a child whose stdin we write.
     *
     * @param command the command line.
     * @param name    names the stderr thread and the child in messages.
     * @return the running child.
     * @throws IOException if the pipe or the process cannot be made.
     */
    static FfmpegProcess startWriting(final List<String> command, final String name) throws IOException
    {
        return start(command, name, false);
    }

    private static FfmpegProcess start(final List<String> command, final String name, final boolean reading)
        throws IOException
    {
        final Path dir = Files.createTempDirectory("framewire-ffmpeg-"); // owner-only on POSIX
        final Path fifo = dir.resolve("video");
        FileChannel keep = null;
        FileChannel ours = null;
        try
        {
            mkfifo(fifo);
            keep = FileChannel.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE);
            ours = reading ? FileChannel.open(fifo, StandardOpenOption.READ) :
                FileChannel.open(fifo, StandardOpenOption.WRITE);
            final ProcessBuilder builder = new ProcessBuilder(command);
            if (reading)
            {
                builder.redirectOutput(fifo.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            }
            else
            {
                builder.redirectInput(fifo.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            }
            builder.redirectError(ProcessBuilder.Redirect.PIPE);
            final Process process = builder.start();
            keep.close();
            keep = null;
            final FfmpegProcess child = new FfmpegProcess(name, process, ours);
            ours = null;
            return child;
        }
        finally
        {
            closeQuietly(keep);
            closeQuietly(ours);
            Files.deleteIfExists(fifo);
            Files.deleteIfExists(dir);
        }
    }

    private static void mkfifo(final Path fifo) throws IOException
    {
        final Process mk = new ProcessBuilder("mkfifo", "-m", "600", fifo.toString())
            .redirectErrorStream(true).start();
        try
        {
            final String out = new String(mk.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!mk.waitFor(10, TimeUnit.SECONDS) || mk.exitValue() != 0)
            {
                mk.destroyForcibly();
                throw new IOException("mkfifo " + fifo + " failed: " + out);
            }
        }
        catch (final InterruptedException ex)
        {
            mk.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making the pipe " + fifo, ex);
        }
    }

    private static void closeQuietly(final FileChannel channel)
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignored)
            {
                // nothing to do: it is being discarded
            }
        }
    }

    /**
     * Our end of the pipe.
     *
     * @return the channel: read it for a reading child, write it for a writing one.
     */
    FileChannel channel()
    {
        return channel;
    }

    ProcessHandle handle()
    {
        return process.toHandle();
    }

    boolean isAlive()
    {
        return process.isAlive();
    }

    /** Whether {@link #kill()} was called. */
    boolean wasKilled()
    {
        return killed;
    }

    /**
     * Kills the child and whatever it started, forcibly, and waits for them; closes our end.
     * Idempotent.
     */
    void kill()
    {
        killed = true;
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        awaitExit(10_000);
        closeQuietly(channel);
    }

    /**
     * Waits for the child to exit by itself; kills it if it has not within the time.
     *
     * @param millis how long to wait.
     * @return its exit code, or -1 if it had to be killed.
     */
    int awaitExitOrKill(final long millis)
    {
        if (awaitExit(millis))
        {
            closeQuietly(channel);
            return process.exitValue();
        }
        kill();
        return -1;
    }

    private boolean awaitExit(final long millis)
    {
        boolean interrupted = false;
        boolean exited = false;
        final long deadline = System.nanoTime() + millis * 1_000_000L;
        while (true)
        {
            try
            {
                exited = process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                break;
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
            }
        }
        if (exited)
        {
            try
            {
                stderrReader.join(1000); // its last lines, written before the exit
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
        return exited;
    }

    /**
     * The exit code.
     *
     * @return it, or -1 while the child runs.
     */
    int exitCode()
    {
        return process.isAlive() ? -1 : process.exitValue();
    }

    /**
     * The last lines the child wrote to stderr.
     *
     * @return them, one per line, or "(nothing on stderr)".
     */
    String stderrTail()
    {
        synchronized (stderrTail)
        {
            return stderrTail.isEmpty() ? "(nothing on stderr)" : String.join("\n", stderrTail);
        }
    }

    /**
     * The last line the child wrote to stderr.
     *
     * @return it, or "".
     */
    String lastStderrLine()
    {
        synchronized (stderrTail)
        {
            return stderrTail.isEmpty() ? "" : stderrTail.peekLast();
        }
    }

    private void drainStderr()
    {
        try (BufferedReader in = new BufferedReader(
            new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                if (line.isBlank())
                {
                    continue;
                }
                synchronized (stderrTail)
                {
                    if (stderrTail.size() == STDERR_LINES)
                    {
                        stderrTail.pollFirst();
                    }
                    stderrTail.addLast(line);
                }
            }
        }
        catch (final IOException ignored)
        {
            // the child is gone: what it wrote is kept
        }
    }

    @Override
    public String toString()
    {
        return name + " (pid " + process.pid() + ")";
    }
}
