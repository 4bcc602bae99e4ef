package dev.framewire.remote;

import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.OptionType;

import java.nio.file.Paths;

import static dev.framewire.remote.RemoteDescriptor.FLAG_AUTHENTICATED;
import static dev.framewire.remote.RemoteDescriptor.FLAG_ENCRYPTED;
import static dev.framewire.remote.RemoteDescriptor.FLAG_PAYLOAD_AUTHENTICATED;

/**
 * How one end of a remote link protects it, from the node's options, which both calculators take:
 * <ul>
 *   <li>{@code key_file} (empty): the link's shared key ({@link RemoteKey}); both ends give the same;</li>
 *   <li>{@code authentication} ({@code PAYLOAD}): with a key, every message's header is authenticated
 *       and, under {@code PAYLOAD}, its payload too; {@code HEADER} leaves payload bytes unchecked
 *       (cheaper for large frames); {@code NONE}, with no key, accepts what arrives;</li>
 *   <li>{@code encryption} ({@code NONE}): {@code AES_GCM} encrypts payload bytes (and authenticates
 *       them, as GCM does).</li>
 * </ul>
 * A channel other than {@code aeron:ipc} (whose memory only this user's processes reach) needs a
 * key, or {@code authentication: NONE} said outright. A receiver takes what it is set for and more:
 * an encrypted or payload-authenticated message satisfies {@code HEADER}, nothing unauthenticated
 * satisfies a receiver with a key.
 *
 * <p>Threading: immutable.
 */
final class LinkSecurity
{
    /** The link key, or null for an unauthenticated link. */
    final byte[] key;
    final boolean payloadAuthenticated;
    final boolean encrypted;

    private LinkSecurity(final byte[] key, final boolean payloadAuthenticated, final boolean encrypted)
    {
        this.key = key;
        this.payloadAuthenticated = payloadAuthenticated;
        this.encrypted = encrypted;
    }

    static void options(final Contract contract)
    {
        contract.option("key_file", OptionType.STRING, "")
            .option("authentication", OptionType.STRING, "PAYLOAD")
            .oneOf("authentication", "PAYLOAD", "HEADER", "NONE")
            .option("encryption", OptionType.STRING, "NONE")
            .oneOf("encryption", "NONE", "AES_GCM");
    }

    static LinkSecurity of(final CalculatorContext ctx, final String calculator, final String channel)
    {
        final String keyFile = ctx.options().getString("key_file");
        final String authentication = ctx.options().getString("authentication");
        final boolean encrypted = "AES_GCM".equals(ctx.options().getString("encryption"));
        final String what = "node '" + ctx.nodeName() + "' (" + calculator + ")";
        if (keyFile.isEmpty())
        {
            if (encrypted)
            {
                throw new IllegalArgumentException(what + ": option 'encryption' is AES_GCM but no 'key_file' is given; " +
                    "valid is a key_file (the link's shared key, owner-only) with it");
            }
            if (!"NONE".equals(authentication) && !channel.startsWith("aeron:ipc"))
            {
                throw new IllegalArgumentException(what + ": channel " + channel + " is reachable over the network and " +
                    "no 'key_file' is given: anyone who can reach its port could inject, close or stall the stream; " +
                    "valid is a key_file (the same owner-only file of 32 random bytes at both ends: head -c 32 " +
                    "/dev/urandom > FILE && chmod 600 FILE), or authentication NONE to accept anything that arrives");
            }
            return new LinkSecurity(null, false, false);
        }
        if ("NONE".equals(authentication))
        {
            throw new IllegalArgumentException(what + ": option 'key_file' is given with authentication NONE; valid is " +
                "PAYLOAD or HEADER with a key, NONE without");
        }
        final byte[] key = RemoteKey.load(Paths.get(keyFile), what + ": option 'key_file'");
        return new LinkSecurity(key, "PAYLOAD".equals(authentication), encrypted);
    }

    /** The flags a publisher puts on a message, with or without a payload. */
    int flags(final boolean payload)
    {
        if (key == null)
        {
            return 0;
        }
        if (payload && encrypted)
        {
            return FLAG_AUTHENTICATED | FLAG_ENCRYPTED;
        }
        return FLAG_AUTHENTICATED | (payloadAuthenticated ? FLAG_PAYLOAD_AUTHENTICATED : 0);
    }

    /** Why a receiver set up as this one refuses a message with {@code flags}, or null if it takes it. */
    String refused(final int flags, final boolean payload)
    {
        if (key == null)
        {
            return (flags & FLAG_ENCRYPTED) != 0 ? "an encrypted message, and this receiver has no key_file" : null;
        }
        if ((flags & FLAG_AUTHENTICATED) == 0)
        {
            return "an unauthenticated message, and this receiver has a key_file: forged, or a publisher without the key";
        }
        if (payload && encrypted && (flags & FLAG_ENCRYPTED) == 0)
        {
            return "an unencrypted payload, and this receiver's encryption is AES_GCM";
        }
        if (payload && payloadAuthenticated && (flags & (FLAG_PAYLOAD_AUTHENTICATED | FLAG_ENCRYPTED)) == 0)
        {
            return "a payload not authenticated, and this receiver's authentication is PAYLOAD";
        }
        return null;
    }
}
