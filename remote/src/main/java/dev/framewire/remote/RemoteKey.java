package dev.framewire.remote;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Set;

/**
 * The shared key of a remote link: a file of 32 to 1024 bytes (the whole file is the key) that
 * only its owner may read, given to both ends as the {@code key_file} option. A file that its
 * group or others may read or write is refused, as ssh refuses such a private key: whoever reads
 * the key can forge the link's messages.
 *
 * <p>{@link #generate(Path)} writes one (32 bytes from {@link SecureRandom}, {@code rw-------});
 * so does {@code head -c 32 /dev/urandom > FILE && chmod 600 FILE}.
 *
 * <p>Threading: stateless.
 */
public final class RemoteKey
{
    /** The fewest bytes of a key: 256 bits. */
    public static final int MIN_BYTES = 32;
    /** The most bytes a key file may hold. */
    public static final int MAX_BYTES = 1024;

    private RemoteKey()
    {
    }

    /**
     * Writes a new random key to {@code file}, readable and writable by its owner only.
     *
     * @param file where; must not exist.
     * @throws UncheckedIOException if it cannot be written (or exists).
     */
    public static void generate(final Path file)
    {
        final byte[] key = new byte[MIN_BYTES];
        new SecureRandom().nextBytes(key);
        try
        {
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix"))
            {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            else
            {
                Files.createFile(file);
            }
            Files.write(file, key, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write a remote link key to " + file + ": " + ex, ex);
        }
    }

    /**
     * Reads a link key, checking that only its owner may read it.
     *
     * @param file the key file.
     * @param what who asks, for messages: {@code node 'rx' (AeronSubscriberCalculator): option 'key_file'}.
     * @return the key's bytes.
     * @throws IllegalArgumentException naming the file and what would be valid.
     */
    static byte[] load(final Path file, final String what)
    {
        final String fix = "; valid is a file of " + MIN_BYTES + " to " + MAX_BYTES + " random bytes that only its owner " +
            "may read (write one with: head -c 32 /dev/urandom > FILE && chmod 600 FILE)";
        if (!Files.isRegularFile(file))
        {
            throw new IllegalArgumentException(what + " is " + file + ", which is not a file" + fix);
        }
        try
        {
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix"))
            {
                final Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
                for (final PosixFilePermission p : permissions)
                {
                    if (p != PosixFilePermission.OWNER_READ && p != PosixFilePermission.OWNER_WRITE &&
                        p != PosixFilePermission.OWNER_EXECUTE)
                    {
                        throw new IllegalArgumentException(what + " is " + file + ", whose permissions (" +
                            PosixFilePermissions.toString(permissions) + ") let its group or others at it: anyone who " +
                            "reads the key can forge the link's messages; valid is owner-only (chmod 600 " + file + ")");
                    }
                }
            }
            final long size = Files.size(file);
            if (size < MIN_BYTES || size > MAX_BYTES)
            {
                throw new IllegalArgumentException(what + " is " + file + ", of " + size + " bytes" + fix);
            }
            return Files.readAllBytes(file);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(what + " is " + file + ", which cannot be read: " + ex + fix, ex);
        }
    }
}
