package dev.framewire.core.calculators.video;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Whether the peer of an accepted loopback TCP connection runs as the JVM's own user, from the
 * kernel's socket table ({@code /proc/net/tcp}: the row whose local port is the peer's port
 * carries its owner's uid). Where there is no such table (not Linux), the check passes.
 *
 * <p>Threading: stateless; any thread.
 */
final class PeerUid
{
    private PeerUid()
    {
    }

    /**
     * @param accepted a connection accepted on 127.0.0.1.
     * @return false only if the table names another user as the peer's owner.
     * @throws IOException if the table cannot be read.
     */
    static boolean sameUser(final Socket accepted) throws IOException
    {
        final Path table = Path.of("/proc/net/tcp");
        if (!Files.isReadable(table))
        {
            return true;
        }
        final int own = (Integer)Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        final String peer = String.format(Locale.ROOT, "0100007F:%04X", accepted.getPort());
        final String local = String.format(Locale.ROOT, ":%04X", accepted.getLocalPort());
        final List<String> rows = Files.readAllLines(table);
        for (final String row : rows)
        {
            final String[] f = row.trim().split("\\s+");
            if (f.length > 7 && f[1].equals(peer) && f[2].endsWith(local))
            {
                return Integer.parseInt(f[7]) == own;
            }
        }
        return false;
    }
}
