package dev.framewire.core.calculators;

import dev.framewire.core.Input;
import dev.framewire.core.Output;
import dev.framewire.offheap.Payload;


/**
 * A calculator's own FIFO of packets it keeps across calls (a flow limiter's queue), with the
 * payload references that keeping needs: an input's payload is lent only for the call, so a
 * packet still held when the call ends is retained ({@link #retainNew()}), and a packet emitted
 * or dropped gives its reference back. Grows by doubling, so a steady state allocates nothing.
 *
 * <p>Threading: the calculator's node only.
 */
final class HeldPackets
{
    private long[] timestamps = new long[8];
    private Object[] values = new Object[8];
    private long[] words = new long[8];
    private byte[] kinds = new byte[8];
    private boolean[] retained = new boolean[8];
    private int head;
    private int size;

    private static final byte OBJECT = 0;
    private static final byte LONG = 1;
    private static final byte DOUBLE = 2;

    int size()
    {
        return size;
    }

    boolean isEmpty()
    {
        return size == 0;
    }

    long firstTimestamp()
    {
        return timestamps[head];
    }

    /** Keeps the input's packet; it is lent until the call ends, see {@link #retainNew()}. */
    void add(final Input input)
    {
        if (size == timestamps.length)
        {
            grow();
        }
        final int i = (head + size) & (timestamps.length - 1);
        timestamps[i] = input.timestamp();
        if (input.isLong())
        {
            kinds[i] = LONG;
            words[i] = input.getLong();
            values[i] = null;
        }
        else if (input.isDouble())
        {
            kinds[i] = DOUBLE;
            words[i] = Double.doubleToRawLongBits(input.getDouble());
            values[i] = null;
        }
        else
        {
            kinds[i] = OBJECT;
            values[i] = input.value();
        }
        retained[i] = false;
        size++;
    }

    /** At the end of a call: takes a reference on every payload added during it and still held. */
    void retainNew()
    {
        final int mask = timestamps.length - 1;
        for (int k = 0; k < size; k++)
        {
            final int i = (head + k) & mask;
            if (!retained[i])
            {
                retained[i] = true;
                if (values[i] instanceof Payload)
                {
                    ((Payload)values[i]).retain();
                }
            }
        }
    }

    /** Emits the oldest packet on an output, handing its reference over. */
    void emitFirst(final Output output)
    {
        final int i = head;
        final long ts = timestamps[i];
        switch (kinds[i])
        {
            case LONG:
                output.addLong(words[i], ts);
                break;
            case DOUBLE:
                output.addDouble(Double.longBitsToDouble(words[i]), ts);
                break;
            default:
                output.add(values[i], ts);
        }
        removeFirst();
    }

    /** Drops the oldest packet, releasing the reference this queue holds. */
    void dropFirst()
    {
        final int i = head;
        if (retained[i] && values[i] instanceof Payload)
        {
            ((Payload)values[i]).release();
        }
        removeFirst();
    }

    /** Releases everything held: for close. */
    void clear()
    {
        while (size > 0)
        {
            dropFirst();
        }
    }

    private void removeFirst()
    {
        values[head] = null;
        head = (head + 1) & (timestamps.length - 1);
        size--;
    }

    private void grow()
    {
        final int n = timestamps.length;
        final int[] order = new int[size];
        for (int k = 0; k < size; k++)
        {
            order[k] = (head + k) & (n - 1);
        }
        final long[] ts = new long[n * 2];
        final Object[] vs = new Object[n * 2];
        final long[] ws = new long[n * 2];
        final byte[] ks = new byte[n * 2];
        final boolean[] rs = new boolean[n * 2];
        for (int k = 0; k < size; k++)
        {
            ts[k] = timestamps[order[k]];
            vs[k] = values[order[k]];
            ws[k] = words[order[k]];
            ks[k] = kinds[order[k]];
            rs[k] = retained[order[k]];
        }
        timestamps = ts;
        values = vs;
        words = ws;
        kinds = ks;
        retained = rs;
        head = 0;
    }

    @Override
    public String toString()
    {
        return "HeldPackets[" + size + (size > 0 ? " from timestamp " + timestamps[head] : "") + "]";
    }
}
