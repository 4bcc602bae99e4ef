package dev.framewire.remote;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a {@code kill -9} leaves in {@code /dev/shm} is reclaimed at the next start, and nothing
 * live ever is: a child JVM holds an embedded driver; while it lives its directory stays through a
 * reclaim; killed, its directory stays behind until the next reclaim, which deletes it.
 */
class DriverDirectoriesTest
{
    @Test
    @Timeout(60)
    void aKilledProcesssDirectoryIsReclaimedAndALiveOneNever() throws Exception
    {
        final Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        final Process child = new ProcessBuilder(java.toString(), "@" + TwoProcessTest.jvmConfig(), "-Xmx128m",
            "-XX:+DisplayVMOutputToStderr", "-cp", System.getProperty("java.class.path"), DriverHolderChild.class.getName())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
        Path dir = null;
        try
        {
            final BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while (dir == null && (line = in.readLine()) != null)
            {
                if (line.startsWith("DIR "))
                {
                    dir = Path.of(line.substring(4));
                }
            }
            assertTrue(dir != null && Files.isDirectory(dir), "the child's driver directory: " + dir);
            assertTrue(Files.isRegularFile(dir.resolve(DriverDirectories.PID_FILE)));
            final Path base = dir.getParent();

            DriverDirectories.reclaim(base);
            assertTrue(Files.isDirectory(dir), "a live process's directory is never reclaimed");

            child.destroyForcibly(); // SIGKILL: no shutdown hook, no clean driver close
            assertTrue(child.waitFor(20, TimeUnit.SECONDS));
            assertTrue(Files.isDirectory(dir), "kill -9 leaves the directory behind");
            assertTrue(DriverDirectories.reclaim(base) >= 1);
            assertFalse(Files.exists(dir), "reclaimed at the next start");
        }
        finally
        {
            if (child.isAlive())
            {
                child.destroyForcibly();
            }
            if (dir != null && Files.exists(dir))
            {
                org.agrona.IoUtil.delete(dir.toFile(), true);
            }
        }
    }

    @Test
    void aDirectoryWithoutAPidFileGoesOnlyWhenOldAndWithoutAHeartbeat(@TempDir final Path base) throws Exception
    {
        final Path fresh = Files.createDirectory(base.resolve(DriverDirectories.PREFIX + "fresh"));
        final Path old = Files.createDirectory(base.resolve(DriverDirectories.PREFIX + "old"));
        Files.createDirectory(old.resolve("aeron"));
        Files.setLastModifiedTime(old, FileTime.fromMillis(System.currentTimeMillis() -
            TimeUnit.SECONDS.toMillis(DriverDirectories.STALE_SECONDS + 5)));
        final Path other = Files.createDirectory(base.resolve("not-ours"));
        final Path live = Files.createDirectory(base.resolve(DriverDirectories.PREFIX + "live"));
        DriverDirectories.claim(live); // this process: alive
        final Path gone = Files.createDirectory(base.resolve(DriverDirectories.PREFIX + "gone"));
        Files.write(gone.resolve(DriverDirectories.PID_FILE), Long.toString(deadPid()).getBytes(StandardCharsets.US_ASCII));

        assertEquals(2, DriverDirectories.reclaim(base));
        assertTrue(Files.isDirectory(fresh), "being made now, perhaps");
        assertFalse(Files.exists(old));
        assertTrue(Files.isDirectory(other));
        assertTrue(Files.isDirectory(live));
        assertFalse(Files.exists(gone));
    }

    /** The pid of a process that has ended. */
    private static long deadPid() throws Exception
    {
        final Process p = new ProcessBuilder("true").start();
        final long pid = p.pid();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        return pid;
    }
}
