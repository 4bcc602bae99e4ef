package dev.framewire.bench.remote;

import dev.framewire.core.NodeConfig;
import dev.framewire.remote.RemoteKey;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The link key the remote benchmarks give their network channels (a channel other than
 * {@code aeron:ipc} needs one): {@code framewire-bench-USER/link.key} under {@code java.io.tmpdir},
 * in an owner-only directory, made by the first benchmark or child JVM that needs it.
 */
final class BenchLinkKey
{
    private BenchLinkKey()
    {
    }

    static synchronized String keyFile()
    {
        final Path dir = Paths.get(System.getProperty("java.io.tmpdir"), "framewire-bench-" + System.getProperty("user.name"));
        final Path file = dir.resolve("link.key");
        try
        {
            if (!Files.isDirectory(dir))
            {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            if (!Files.exists(file))
            {
                RemoteKey.generate(file);
            }
        }
        catch (final IOException | UncheckedIOException ex)
        {
            if (!Files.exists(file)) // another JVM may have made it meanwhile
            {
                throw new IllegalStateException("cannot make the benchmarks' link key " + file + ": " + ex, ex);
            }
        }
        return file.toString();
    }

    /** Gives a remote node on {@code channel} the key, unless the channel is IPC. */
    static NodeConfig.Builder secure(final NodeConfig.Builder n, final String channel)
    {
        return channel.startsWith("aeron:ipc") ? n : n.option("key_file", keyFile());
    }
}
