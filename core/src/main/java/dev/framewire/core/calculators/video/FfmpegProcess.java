package dev.framewire.core.calculators.video;

import dev.framewire.core.internal.log.Redaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
 * <p><b>No orphans.</b> A child must die with the JVM, {@code kill -9} included, or it keeps a
 * camera's UDP port bound and a restarted service gets "Address already in use". Without JNI of
 * our own the JVM cannot ask the kernel for that itself, so the child is started through
 * util-linux's {@code setpriv --pdeathsig KILL}, which sets {@code PR_SET_PDEATHSIG} and execs the
 * next program in the same process: the kernel sends the child SIGKILL when its parent dies.
 * The kernel ties that to the <em>thread</em> that spawned the child, not the process, so every
 * child is spawned from one daemon thread that lives as long as the JVM
 * ({@code framewire-ffmpeg-spawner}); a child spawned from a worker or a reader thread would be
 * killed when that thread ends. The child also runs in a session of its own ({@code setsid}):
 * Ctrl-C in a terminal then reaches only the JVM, whose shutdown stops each ffmpeg gracefully
 * (a recording's last segment finished), rather than every ffmpeg at once in the middle of a
 * write. Both tools are in util-linux, on every Linux; without them (another OS) the child is
 * started as is, and a warning says once that it may outlive a killed JVM.
 *
 * <p><b>Stopping</b>: {@link #terminate()} sends SIGTERM, on which ffmpeg stops reading, writes
 * its outputs' trailers and exits (a recording loses nothing); {@link #kill()} sends SIGKILL.
 * {@link #terminate(long, long)} does the first, a second SIGTERM (or none) and SIGKILL after
 * a grace time, so a hung ffmpeg cannot hold a stop up.
 *
 * <p>Its stderr lines are kept with any url's password masked ({@link Redaction}), since ffmpeg
 * names its input in its messages.
 *
 * <p>Threading: {@link #kill()} and the queries are safe from any thread; the channel has one
 * user at a time.
 */
final class FfmpegProcess
{
    private static final Logger LOG = LoggerFactory.getLogger(FfmpegProcess.class);
    /** Spawns every child, so the parent-death signal is tied to a thread that never ends. */
    private static final ExecutorService SPAWNER = Executors.newSingleThreadExecutor(r ->
    {
        final Thread t = new Thread(r, "framewire-ffmpeg-spawner");
        t.setDaemon(true);
        return t;
    });
    private static final List<String> WRAPPER = wrapper();

    /** Lines of stderr kept for reports. */
    static final int STDERR_LINES = 20;

    private final String name;
    private final Process process;
    private final FileChannel channel;
    private final Thread stderrReader;
    private final ArrayDeque<String> stderrTail = new ArrayDeque<>(STDERR_LINES);
    private volatile boolean killed;
    private volatile boolean terminating; // benign race: two stops at once send two signals, as a second does anyway

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
            final ProcessBuilder builder = new ProcessBuilder(wrap(command));
            if (reading)
            {
                builder.redirectOutput(fifo.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            }
            else
            {
                builder.redirectInput(fifo.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            }
            builder.redirectError(ProcessBuilder.Redirect.PIPE);
            // a recording's segment names (strftime) are in UTC, whatever the host's zone
            builder.environment().put("TZ", "UTC");
            final Process process = spawn(builder);
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

    /**
     * Starts a process on the spawner thread (see the class javadoc, "No orphans").
     *
     * @param builder the process, its command already {@link #wrap wrapped}.
     * @return it, running.
     * @throws IOException if it cannot be started.
     */
    static Process spawn(final ProcessBuilder builder) throws IOException
    {
        final Future<Process> started = SPAWNER.submit(builder::start);
        boolean interrupted = false;
        try
        {
            while (true)
            {
                try
                {
                    return started.get();
                }
                catch (final InterruptedException ex)
                {
                    interrupted = true; // the child is being started: take it, or it would be lost
                }
            }
        }
        catch (final ExecutionException ex)
        {
            if (ex.getCause() instanceof IOException)
            {
                throw (IOException)ex.getCause();
            }
            throw new IOException("cannot start " + Redaction.redact(String.join(" ", builder.command())), ex.getCause());
        }
        finally
        {
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The command line run: {@code setpriv --pdeathsig KILL -- setsid -- command...} where those
     * exist, else the command.
     *
     * @param command ffmpeg's.
     * @return what to start.
     */
    static List<String> wrap(final List<String> command)
    {
        if (WRAPPER.isEmpty())
        {
            return command;
        }
        final List<String> wrapped = new ArrayList<>(WRAPPER.size() + command.size());
        wrapped.addAll(WRAPPER);
        wrapped.addAll(command);
        return wrapped;
    }

    /** Whether children die with the JVM ({@code setpriv} found). */
    static boolean diesWithJvm()
    {
        return !WRAPPER.isEmpty();
    }

    private static List<String> wrapper()
    {
        final String setpriv = onPath("setpriv");
        final String setsid = onPath("setsid");
        if (setpriv == null)
        {
            LOG.warn("setpriv (util-linux) not found: an ffmpeg child may outlive a JVM killed with kill -9 " +
                "(install util-linux)");
            return List.of();
        }
        final List<String> w = new ArrayList<>(List.of(setpriv, "--pdeathsig", "KILL", "--"));
        if (setsid != null)
        {
            w.add(setsid);
            w.add("--");
        }
        return List.copyOf(w);
    }

    private static String onPath(final String name)
    {
        final String path = System.getenv("PATH");
        for (final String dir : (path == null ? "/usr/bin:/bin" : path + ":/usr/bin:/bin").split(":"))
        {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name)))
            {
                return Path.of(dir, name).toString();
            }
        }
        return null;
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
     * Asks the child to finish (SIGTERM: ffmpeg stops reading its input, writes its outputs'
     * trailers and exits). Returns at once.
     */
    void terminate()
    {
        process.destroy();
    }

    /**
     * {@link #terminate()}, again after {@code secondMillis} if it still runs (or never), then
     * {@link #kill()} if it has not exited after {@code graceMillis} (on a JVM-wide timer thread).
     * Returns at once; a second call does nothing. ffmpeg's first SIGTERM ends its loop once the
     * read it waits in returns; its second trips its interrupt callback, which ends that read at
     * once (a silent network input) but also fails every write after it, so an output still being
     * finished (a recording's segment) loses its last fragment.
     *
     * @param graceMillis  how long ffmpeg has to finish.
     * @param secondMillis when the second SIGTERM goes, less than {@code graceMillis}; 0 for none
     *                     (then ffmpeg must end its reads by itself, by a read timeout).
     */
    void terminate(final long graceMillis, final long secondMillis)
    {
        if (terminating)
        {
            return; // one sequence: more signals at once would make ffmpeg abandon its outputs
        }
        terminating = true;
        terminate();
        final long second = secondMillis > 0 ? Math.min(secondMillis, graceMillis - 1) : graceMillis;
        CompletableFuture.delayedExecutor(second, TimeUnit.MILLISECONDS).execute(() ->
        {
            if (process.isAlive() && second < graceMillis)
            {
                terminate();
                CompletableFuture.delayedExecutor(graceMillis - second, TimeUnit.MILLISECONDS)
                    .execute(() -> killAfterGrace(graceMillis));
            }
            else
            {
                killAfterGrace(graceMillis);
            }
        });
    }

    private void killAfterGrace(final long graceMillis)
    {
        if (process.isAlive())
        {
            LOG.warn("{} did not finish within {} ms of SIGTERM: killed", this, graceMillis);
            kill();
        }
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
                    stderrTail.addLast(Redaction.redact(line));
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
