package dev.framewire.remote;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.driver.status.PublisherLimit;
import org.agrona.IoUtil;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.status.CountersReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Aeron client (and, unless an external driver is named, the embedded media driver) the remote
 * calculators of this process share, counted by reference: the first node to open starts it, the
 * last to close stops it.
 *
 * <p>One per Aeron directory: the embedded driver (key {@code ""}) is one per process, whatever
 * the number of graphs, since a media driver is the process's (or host's) transport and two would
 * only double its threads. Its directory is a fresh owner-only directory ({@code rwx------}) under
 * {@code /dev/shm} when there is one (where Aeron keeps its files on Linux), else under
 * {@code java.io.tmpdir}, and is deleted when the driver stops; the directories of processes
 * killed before they could delete theirs are reclaimed when the next one starts
 * ({@link DriverDirectories}). Its threading mode is the first
 * opener's {@code driver_threading}; a node asking for another while it runs fails its {@code open}.
 * Its agents idle with Aeron's backoff strategy (spin, yield, then park up to 1 ms), so an idle
 * driver does not hold a core. An external driver ({@code aeron_dir}) is only connected to.
 *
 * <p>Threading: {@link #acquire} and {@link #release()} from any thread (the class's lock); the
 * {@link Aeron} client is thread safe.
 */
final class RemoteDriver
{
    private static final Logger LOG = LoggerFactory.getLogger(RemoteDriver.class);
    private static final Map<String, RemoteDriver> DRIVERS = new HashMap<>();
    /** How long a drained, closed publication stays for its receivers' retransmit requests. */
    static final long PUBLICATION_LINGER_MS = 500;
    /** The longest the last remote node waits for the embedded driver's publications to drain and linger. */
    static final long DRAIN_TIMEOUT_MS = 10_000;

    private final String key;
    private final String threading;
    private final String startedBy;
    private final MediaDriver driver;
    private final Path ownDirectory;
    private final Aeron aeron;
    private int references;

    private RemoteDriver(
        final String key,
        final String threading,
        final String startedBy,
        final MediaDriver driver,
        final Path ownDirectory,
        final Aeron aeron)
    {
        this.key = key;
        this.threading = threading;
        this.startedBy = startedBy;
        this.driver = driver;
        this.ownDirectory = ownDirectory;
        this.aeron = aeron;
    }

    /**
     * A reference to the driver of {@code aeronDir}, started (embedded) or connected to (external)
     * if this process has none yet.
     *
     * @param aeronDir  an external driver's directory, or empty for the embedded driver.
     * @param threading the embedded driver's threading mode: SHARED, SHARED_NETWORK or DEDICATED.
     * @param node      the asking node, for messages.
     * @return the driver, with one more reference; {@link #release()} it at close.
     */
    static RemoteDriver acquire(final String aeronDir, final String threading, final String node)
    {
        synchronized (DRIVERS)
        {
            RemoteDriver driver = DRIVERS.get(aeronDir);
            if (driver == null)
            {
                driver = aeronDir.isEmpty() ? embedded(threading, node) : external(aeronDir, node);
                DRIVERS.put(aeronDir, driver);
            }
            else if (aeronDir.isEmpty() && !driver.threading.equals(threading))
            {
                throw new IllegalArgumentException("node '" + node + "': option 'driver_threading' is " + threading +
                    ", but this process's embedded Aeron driver already runs " + driver.threading + " (started by node '" +
                    driver.startedBy + "'); valid is " + driver.threading + ": give every remote node of the process " +
                    "the same driver_threading");
            }
            driver.references++;
            return driver;
        }
    }

    private static RemoteDriver embedded(final String threading, final String node)
    {
        final Path own = ownerOnlyDirectory();
        final String dir = own.resolve("aeron").toString();
        final MediaDriver.Context ctx = new MediaDriver.Context()
            .aeronDirectoryName(dir)
            .threadingMode(ThreadingMode.valueOf(threading))
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            // log buffers are sized for the largest message (64 MiB terms carry a 1080p RGBA frame);
            // sparse files take memory only for the part of a term that is written
            .termBufferSparseFile(true)
            // a closed publication lingers this long once drained, for a receiver's last NAKs; the
            // last remote node of the process waits for it (see release), so shorter than Aeron's 5 s
            .publicationLingerTimeoutNs(TimeUnit.MILLISECONDS.toNanos(PUBLICATION_LINGER_MS))
            .sharedIdleStrategy(backoff())
            .sharedNetworkIdleStrategy(backoff())
            .conductorIdleStrategy(backoff())
            .senderIdleStrategy(backoff())
            .receiverIdleStrategy(backoff());
        MediaDriver driver = null;
        try
        {
            driver = MediaDriver.launch(ctx);
            final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(dir)
                .errorHandler(t -> LOG.warn("Aeron client of the embedded driver in {}: {}", dir, t.toString())));
            LOG.info("embedded Aeron media driver ({}) in {}, started by node '{}'", threading, dir, node);
            return new RemoteDriver("", threading, node, driver, own, aeron);
        }
        catch (final RuntimeException | Error ex)
        {
            if (driver != null)
            {
                driver.close();
            }
            IoUtil.delete(own.toFile(), true);
            throw ex;
        }
    }

    private static RemoteDriver external(final String aeronDir, final String node)
    {
        if (!new File(aeronDir, "cnc.dat").exists())
        {
            throw new IllegalArgumentException("node '" + node + "': option 'aeron_dir' is " + aeronDir +
                ", which holds no running Aeron media driver (no cnc.dat); valid is the aeron.dir of a running driver, " +
                "or empty for a driver embedded in this process");
        }
        final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir)
            .errorHandler(t -> LOG.warn("Aeron client of the driver in {}: {}", aeronDir, t.toString())));
        return new RemoteDriver(aeronDir, "", node, null, null, aeron);
    }

    private static BackoffIdleStrategy backoff()
    {
        return new BackoffIdleStrategy(10, 20, 1_000, 1_000_000);
    }

    private static Path ownerOnlyDirectory()
    {
        final Path shm = Paths.get("/dev/shm");
        final Path base = Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Paths.get(System.getProperty("java.io.tmpdir"));
        DriverDirectories.reclaim(base); // what killed processes left
        try
        {
            final Path own;
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix"))
            {
                own = Files.createTempDirectory(base, DriverDirectories.PREFIX,
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            else
            {
                own = Files.createTempDirectory(base, DriverDirectories.PREFIX);
            }
            DriverDirectories.claim(own);
            return own;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create a directory for the embedded Aeron driver under " + base, ex);
        }
    }

    /**
     * The client.
     *
     * @return the shared Aeron client.
     */
    Aeron aeron()
    {
        return aeron;
    }

    /**
     * The directory the client talks to the driver through.
     *
     * @return the aeron.dir.
     */
    String directory()
    {
        return aeron.context().aeronDirectoryName();
    }

    /** Gives a reference back; the last one closes the client and stops an embedded driver. */
    void release()
    {
        synchronized (DRIVERS)
        {
            if (--references > 0)
            {
                return;
            }
            DRIVERS.remove(key);
        }
        aeron.close();
        if (driver != null)
        {
            awaitPublicationsGone();
            driver.close();
            IoUtil.delete(ownDirectory.toFile(), true);
        }
    }

    /**
     * Waits until the embedded driver has no publication left. A closed publication's last messages
     * (a CLOSE among them) may still be in its term, not yet sent or not yet read by the receivers;
     * the driver drains it, then lets it linger, then frees it. Stopping the driver before would
     * cut the stream short in the receivers, which would see the publisher vanish mid-message.
     * Bounded: a receiver that never reads costs {@value #DRAIN_TIMEOUT_MS} ms at most, and is logged.
     */
    private void awaitPublicationsGone()
    {
        final CountersReader counters = driver.context().countersManager();
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_TIMEOUT_MS);
        int left;
        while ((left = publications(counters)) > 0)
        {
            if (System.nanoTime() - deadline > 0)
            {
                LOG.warn("embedded Aeron driver in {}: {} publication(s) not drained by their receivers after {} ms; " +
                    "stopping it anyway, those receivers lose the rest of the stream", directory(), left, DRAIN_TIMEOUT_MS);
                return;
            }
            try
            {
                Thread.sleep(10);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static int publications(final CountersReader counters)
    {
        int count = 0;
        for (int id = 0, max = counters.maxCounterId(); id < max; id++)
        {
            final int state = counters.getCounterState(id);
            if (state == CountersReader.RECORD_ALLOCATED && counters.getCounterTypeId(id) == PublisherLimit.PUBLISHER_LIMIT_TYPE_ID)
            {
                count++;
            }
            else if (state == CountersReader.RECORD_UNUSED)
            {
                break; // counters are allocated from the start: the rest were never used
            }
        }
        return count;
    }
}
