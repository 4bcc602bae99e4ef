package dev.framewire.core.calculators.video;

import dev.framewire.core.internal.log.Redaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the video sink publishes to {@code rtsp://user:password@host/path} without the password on
 * ffmpeg's command line, which every local user can read: ffmpeg 5.1's RTSP muxer takes the
 * credentials from the url only, so ffmpeg publishes to this relay,
 * {@code rtsp://127.0.0.1:PORT/path} with no user info, over TCP (RTP interleaved in the RTSP
 * connection), and the relay forwards the connection to the server, answering the server's
 * authentication challenge (Basic, or Digest with or without {@code qop=auth}) with the
 * credentials it holds in the JVM.
 *
 * <p>The relay accepts one connection, from a process of the JVM's own user (checked in
 * {@code /proc/net/tcp}; one of another user is refused), then closes its listening socket.
 * Requests until {@code RECORD} succeeds go one at a time (a 401 is answered by resending with
 * the credentials); after it the two directions are copied as they come, requests still getting
 * their {@code Authorization}.
 *
 * <p>Threading: {@link #start} and {@link #close} on the sink's worker; the relay runs one
 * thread per direction.
 */
final class RtspPublishRelay implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(VideoSinkCalculator.class);
    private static final Pattern URL = Pattern.compile("(?i)rtsp://([^/?#]*)@([^/?#:]+|\\[[^]]+])(?::(\\d+))?(.*)");
    private static final Pattern PARAM = Pattern.compile("(\\w+)=(?:\"([^\"]*)\"|([^,\\s]*))");

    private final String node;
    private final String user;
    private final String password;
    private final String host;
    private final int port;
    private final String path;
    private final String shown;
    private ServerSocket listener;
    private Socket client;
    private Socket upstream;
    private Thread thread;
    private String challenge;
    private int nonceCount;
    private volatile Throwable failure;

    /**
     * A relay for one publish url.
     *
     * @param url  {@code rtsp://user:password@host[:port]/path}.
     * @param node the sink node's name, for errors and the thread's name.
     */
    RtspPublishRelay(final String url, final String node)
    {
        final Matcher m = URL.matcher(url);
        if (!m.matches() || !m.group(1).contains(":"))
        {
            throw new IllegalArgumentException("node '" + node + "': '" + Redaction.redact(url) + "' is not " +
                "rtsp://user:password@host[:port]/path");
        }
        this.node = node;
        final String info = m.group(1);
        user = decode(info.substring(0, info.indexOf(':')));
        password = decode(info.substring(info.indexOf(':') + 1));
        host = m.group(2);
        port = m.group(3) == null ? 554 : Integer.parseInt(m.group(3));
        path = m.group(4);
        shown = Redaction.redact(url);
    }

    /** Whether a publish url needs the relay: rtsp with a password. */
    static boolean applies(final String url)
    {
        return url.toLowerCase(Locale.ROOT).startsWith("rtsp://") && Redaction.hasPassword(url);
    }

    private static String decode(final String s)
    {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /**
     * Listens on 127.0.0.1 and starts the relay's thread.
     *
     * @return the url ffmpeg publishes to: no user info.
     * @throws IOException if it cannot listen.
     */
    String start() throws IOException
    {
        listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        thread = new Thread(this::run, "rtsp-relay-" + node);
        thread.setDaemon(true);
        thread.start();
        return localPrefix() + path;
    }

    private String localPrefix()
    {
        return "rtsp://127.0.0.1:" + listener.getLocalPort();
    }

    private void run()
    {
        try
        {
            listener.setSoTimeout(60_000);
            client = listener.accept();
            listener.close();
            if (!PeerUid.sameUser(client))
            {
                throw new IOException("a process of another user connected to the relay; refused");
            }
            upstream = new Socket();
            upstream.connect(new InetSocketAddress(host, port), 10_000);
            relay(new BufferedInputStream(client.getInputStream()), client.getOutputStream(),
                new BufferedInputStream(upstream.getInputStream()), upstream.getOutputStream());
        }
        catch (final IOException | RuntimeException ex)
        {
            if (!listener.isClosed() || client != null && !client.isClosed())
            {
                failure = ex;
                LOG.warn("node '{}' (VideoSinkCalculator): the RTSP relay to {} failed: {}", node, shown,
                    Redaction.redact(ex.toString()));
            }
        }
        finally
        {
            closeQuietly();
        }
    }

    private void relay(final InputStream fromFfmpeg, final OutputStream toFfmpeg, final InputStream fromServer,
        final OutputStream toServer) throws IOException
    {
        boolean streaming = false;
        int b;
        while ((b = fromFfmpeg.read()) >= 0)
        {
            if (b == '$')
            {
                copyInterleaved(fromFfmpeg, toServer);
                continue;
            }
            final Message request = Message.read(b, fromFfmpeg);
            final String method = request.start.substring(0, request.start.indexOf(' '));
            final String uri = request.start.split(" ")[1].replace(localPrefix(), "rtsp://" + host + ":" + port);
            toServer.write(request.with(method + " " + uri + " RTSP/1.0", authorization(method, uri)));
            toServer.flush();
            if (streaming)
            {
                continue;
            }
            Message response = readResponse(fromServer, toFfmpeg);
            if (response.status() == 401 && challenge == null)
            {
                challenge = response.header("WWW-Authenticate");
                if (challenge == null)
                {
                    throw new IOException("the server answered 401 without WWW-Authenticate");
                }
                toServer.write(request.with(method + " " + uri + " RTSP/1.0", authorization(method, uri)));
                toServer.flush();
                response = readResponse(fromServer, toFfmpeg);
            }
            toFfmpeg.write(response.with(response.start, null));
            toFfmpeg.flush();
            if ("RECORD".equals(method) && response.status() / 100 == 2)
            {
                streaming = true;
                final Thread back = new Thread(() -> pump(fromServer, toFfmpeg), "rtsp-relay-back-" + node);
                back.setDaemon(true);
                back.start();
            }
        }
        upstream.shutdownOutput();
    }

    /** The next response from the server; interleaved packets before it go on to ffmpeg. */
    private static Message readResponse(final InputStream fromServer, final OutputStream toFfmpeg) throws IOException
    {
        int b;
        while ((b = fromServer.read()) == '$')
        {
            copyInterleaved(fromServer, toFfmpeg);
        }
        if (b < 0)
        {
            throw new IOException("the server closed the connection");
        }
        return Message.read(b, fromServer);
    }

    private static void copyInterleaved(final InputStream in, final OutputStream out) throws IOException
    {
        final byte[] head = in.readNBytes(3);
        if (head.length < 3)
        {
            throw new IOException("truncated interleaved packet");
        }
        final int length = (head[1] & 0xFF) << 8 | head[2] & 0xFF;
        out.write('$');
        out.write(head);
        out.write(in.readNBytes(length));
        out.flush();
    }

    private static void pump(final InputStream in, final OutputStream out)
    {
        try
        {
            in.transferTo(out);
        }
        catch (final IOException closed)
        {
            // the connection ended; the forward direction reports failures
        }
    }

    private String authorization(final String method, final String uri)
    {
        if (challenge == null)
        {
            return null;
        }
        if (!challenge.regionMatches(true, 0, "Digest", 0, 6))
        {
            return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
        }
        final Matcher p = PARAM.matcher(challenge);
        String realm = "";
        String nonce = "";
        String opaque = null;
        String qop = null;
        while (p.find())
        {
            final String value = p.group(2) != null ? p.group(2) : p.group(3);
            switch (p.group(1).toLowerCase(Locale.ROOT))
            {
                case "realm" -> realm = value;
                case "nonce" -> nonce = value;
                case "opaque" -> opaque = value;
                case "qop" -> qop = value;
                default ->
                {
                    // algorithm MD5 is the default and the only one ffmpeg's servers use
                }
            }
        }
        final boolean auth = qop != null && qop.contains("auth");
        final String nc = String.format(Locale.ROOT, "%08x", ++nonceCount);
        final String cnonce = Long.toHexString(ThreadLocalRandom.current().nextLong());
        return "Digest username=\"" + user + "\", realm=\"" + realm + "\", nonce=\"" + nonce + "\", uri=\"" + uri +
            "\", response=\"" + digest(user, realm, password, method, uri, nonce, auth ? nc : null, cnonce) + "\"" +
            (opaque != null ? ", opaque=\"" + opaque + "\"" : "") +
            (auth ? ", qop=auth, nc=" + nc + ", cnonce=\"" + cnonce + "\"" : "");
    }

    /**
     * RFC 2617's digest response (MD5), with {@code qop=auth} when {@code nc} is given.
     *
     * @return the response, lower-case hex.
     */
    static String digest(final String user, final String realm, final String password, final String method,
        final String uri, final String nonce, final String nc, final String cnonce)
    {
        final String ha1 = md5(user + ":" + realm + ":" + password);
        final String ha2 = md5(method + ":" + uri);
        return nc == null ? md5(ha1 + ":" + nonce + ":" + ha2) :
            md5(ha1 + ":" + nonce + ":" + nc + ":" + cnonce + ":auth:" + ha2);
    }

    private static String md5(final String s)
    {
        try
        {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8)));
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("MD5 is required of every JDK", ex);
        }
    }

    /** The relay's failure, if it had one (for the sink's error). */
    Throwable failure()
    {
        return failure;
    }

    private void closeQuietly()
    {
        for (final AutoCloseable c : new AutoCloseable[] {listener, client, upstream})
        {
            try
            {
                if (c != null)
                {
                    c.close();
                }
            }
            catch (final Exception ignored)
            {
                // closing
            }
        }
    }

    @Override
    public void close()
    {
        closeQuietly();
        final Thread t = thread;
        if (t != null)
        {
            try
            {
                t.join(5_000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** An RTSP request or response: start line, headers, body. */
    private record Message(String start, String headers, byte[] body)
    {
        static Message read(final int first, final InputStream in) throws IOException
        {
            final ByteArrayOutputStream head = new ByteArrayOutputStream(512);
            head.write(first);
            int b;
            while ((b = in.read()) >= 0)
            {
                head.write(b);
                final byte[] h = head.toByteArray();
                final int n = h.length;
                if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n')
                {
                    break;
                }
                if (n > 65_536)
                {
                    throw new IOException("an RTSP message header over 64 KiB");
                }
            }
            final String text = head.toString(StandardCharsets.ISO_8859_1);
            final int eol = text.indexOf("\r\n");
            if (eol < 0)
            {
                throw new IOException("the connection ended inside an RTSP message");
            }
            final Message m = new Message(text.substring(0, eol), text.substring(eol + 2, text.length() - 2), null);
            final String length = m.header("Content-Length");
            return new Message(m.start, m.headers, in.readNBytes(length == null ? 0 : Integer.parseInt(length.trim())));
        }

        String header(final String name)
        {
            for (final String line : headers.split("\r\n"))
            {
                final int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name))
                {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }

        int status()
        {
            final String[] parts = start.split(" ");
            return parts.length > 1 ? Integer.parseInt(parts[1]) : -1;
        }

        /** The message with another start line and an Authorization header (none if null), replacing any. */
        byte[] with(final String startLine, final String authorization)
        {
            final StringBuilder out = new StringBuilder(startLine).append("\r\n");
            for (final String line : headers.split("\r\n"))
            {
                if (!line.isEmpty() && !line.regionMatches(true, 0, "Authorization:", 0, 14))
                {
                    out.append(line).append("\r\n");
                }
            }
            if (authorization != null)
            {
                out.append("Authorization: ").append(authorization).append("\r\n");
            }
            final byte[] head = out.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
            final byte[] all = new byte[head.length + body.length];
            System.arraycopy(head, 0, all, 0, head.length);
            System.arraycopy(body, 0, all, head.length, body.length);
            return all;
        }
    }
}
