package dev.framewire.core.internal.queue;

import dev.framewire.core.Timestamp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

abstract class OneToOnePacketRingPad0
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

abstract class OneToOnePacketRingProducerFields extends OneToOnePacketRingPad0
{
    /**
     * Next slot to write; written by the producer only (release), after the slot's sequence. Read
     * by other threads (sizes, held-back producers, reports), not by the consumer's hot path.
     */
    public volatile long tail;
    /**
     * The producer's copy of {@code head}, re-read only when it says the ring may be full
     * ({@link OneToOnePacketRing#offer}) or may hold the count asked ({@link OneToOnePacketRing#producerHoldsAtLeast}).
     */
    long headCache;
}

abstract class OneToOnePacketRingPad1 extends OneToOnePacketRingProducerFields
{
    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;
}

abstract class OneToOnePacketRingWordFields extends OneToOnePacketRingPad1
{
    /**
     * A word the producer publishes (release), uninterpreted here: {@link InputQueue} keeps in it
     * the bounds its stream's packets do not imply. On a line of its own, which the producer
     * writes only when that word changes, so that the consumer reads it from its own cache.
     */
    volatile long producerWord;
}

abstract class OneToOnePacketRingPad1b extends OneToOnePacketRingWordFields
{
    byte p500, p501, p502, p503, p504, p505, p506, p507, p508, p509, p510, p511, p512, p513, p514, p515;
    byte p516, p517, p518, p519, p520, p521, p522, p523, p524, p525, p526, p527, p528, p529, p530, p531;
    byte p532, p533, p534, p535, p536, p537, p538, p539, p540, p541, p542, p543, p544, p545, p546, p547;
    byte p548, p549, p550, p551, p552, p553, p554, p555, p556, p557, p558, p559, p560, p561, p562, p563;
}

abstract class OneToOnePacketRingConsumerFields extends OneToOnePacketRingPad1b
{
    /** Next slot to read; written by the consumer only (release or volatile), read by the producer (acquire). */
    public volatile long head;
    /**
     * The consumer's position up to which it has found packets published: they are found by their
     * slots' sequences, and this moves only when the consumer looks past it.
     */
    long tailCache;
    /**
     * The timestamp of the packet the consumer removed last, {@link Timestamp#UNSET} before the
     * first. The consumer's own; a plain field, read racily by other threads (reports).
     */
    long lastRemoved = Timestamp.UNSET;
}

abstract class OneToOnePacketRingPad2 extends OneToOnePacketRingConsumerFields
{
    byte p200, p201, p202, p203, p204, p205, p206, p207, p208, p209, p210, p211, p212, p213, p214, p215;
    byte p216, p217, p218, p219, p220, p221, p222, p223, p224, p225, p226, p227, p228, p229, p230, p231;
    byte p232, p233, p234, p235, p236, p237, p238, p239, p240, p241, p242, p243, p244, p245, p246, p247;
    byte p248, p249, p250, p251, p252, p253, p254, p255, p256, p257, p258, p259, p260, p261, p262, p263;
}

/**
 * A bounded single-producer single-consumer ring of packets: each slot holds a timestamp, a value
 * (an object reference) and a word (a {@code long}); on a line of its own the producer may publish
 * one more word ({@link #publishProducerWord}). It knows nothing of streams, bounds or
 * backpressure; {@link InputQueue} builds those on it.
 *
 * <p>Threading: one producer thread at a time calls {@link #offer}; one consumer thread at a time
 * calls the {@code peek} methods, {@link #consumerNewestTimestamp()} and {@link #removeVolatile()};
 * {@link #lvHead()}, {@link #lvTail()}, {@link #publishedAt}, {@link #newestTimestamp()} and
 * {@link #size()} may be called from any thread. A slot's contents are written before its sequence
 * (release) and read after the sequence that says they are there (acquire), as FastFlow's and
 * JCTools' SPSC queues publish by the element; the tail follows, for the other threads. The consumer
 * clears a slot's value (unless it is a {@link Marker}) before the head that hands the slot back.
 *
 * <p>Layout: the producer's fields, its word and the consumer's fields each sit on a cache line of
 * their own (padding by inheritance, as JCTools and Agrona do); a slot's sequence, timestamp and
 * word sit side by side in one {@code long[]} (one line for all three, not parallel arrays, unless
 * the slot straddles two), its value in an {@code Object[]}.
 *
 * <pre>
 *   producer: longs[3i + 1] = ts; longs[3i + 2] = w; values[i] = v (unless that marker is there);
 *             longs[3i] = t + 1 (release); tail = t + 1 (release)           where i = t &amp; mask
 *   consumer: longs[3(h &amp; mask)] == h + 1 (acquire, only when its copy says empty); read slot h;
 *             values[h &amp; mask] = null (unless a marker); head = h + 1 (volatile: a full fence, see removeVolatile)
 * </pre>
 */
public final class OneToOnePacketRing extends OneToOnePacketRingPad2
{
    private static final VarHandle TAIL;
    private static final VarHandle HEAD;
    private static final VarHandle PRODUCER_WORD;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    /** A slot's three longs in {@link #longs}: its sequence, timestamp and word, in that order. */
    private static final int SLOT_LONGS = 3;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(OneToOnePacketRingProducerFields.class, "tail", long.class);
            HEAD = lookup.findVarHandle(OneToOnePacketRingConsumerFields.class, "head", long.class);
            PRODUCER_WORD = lookup.findVarHandle(OneToOnePacketRingWordFields.class, "producerWord", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /**
     * A value that stands for a packet's kind, not its contents (one instance for all packets of
     * that kind, such as {@link InputQueue#LONG}): the ring leaves it in its slot when the packet is
     * removed, and the producer does not store it again when it is there already. A stream of such
     * packets then never writes the values' line, so that line does not travel between the two
     * threads at every packet (the consumer's clearing store, then the producer's).
     */
    public static final class Marker
    {
        private final String name;

        public Marker(final String name)
        {
            this.name = name;
        }

        @Override
        public String toString()
        {
            return name;
        }
    }

    private final int mask;
    /**
     * Slot i's sequence, timestamp and word at 3i, 3i+1 and 3i+2. The sequence is the position
     * the slot holds plus one, stored last (release): the consumer finds a packet by its slot, not
     * by the producer's tail, so a packet takes one line to the consumer where a tail read first
     * would take two, one after the other.
     */
    private final long[] longs;
    private final Object[] values;

    /**
     * A ring of at least {@code capacity} slots (rounded up to a power of two, at least 2).
     *
     * @param capacity the fewest slots wanted.
     */
    public OneToOnePacketRing(final int capacity)
    {
        final int size = 1 << (32 - Integer.numberOfLeadingZeros(Math.max(2, capacity) - 1));
        this.mask = size - 1;
        this.longs = new long[SLOT_LONGS * size];
        this.values = new Object[size];
    }

    /** Any thread: the number of slots. */
    public int capacity()
    {
        return mask + 1;
    }

    /**
     * Producer: appends a packet.
     *
     * @return false when every slot is taken.
     */
    public boolean offer(final long timestamp, final Object value, final long word)
    {
        final long t = (long)TAIL.getOpaque(this);
        if (t - headCache > mask)
        {
            headCache = (long)HEAD.getAcquire(this);
            if (t - headCache > mask)
            {
                return false;
            }
        }
        final int i = (int)t & mask;
        final int at = SLOT_LONGS * i;
        longs[at + 1] = timestamp;
        longs[at + 2] = word;
        if (!(value instanceof Marker) || values[i] != value)
        {
            values[i] = value;
        }
        SLOT.setRelease(longs, at, t + 1);
        TAIL.setRelease(this, t + 1);
        return true;
    }

    /** Consumer: the oldest packet's timestamp, or {@link Timestamp#UNSET} when the ring is empty. */
    public long peekTimestamp()
    {
        final long h = (long)HEAD.getOpaque(this);
        if (h == tailCache && !consumerFinds(h))
        {
            return Timestamp.UNSET;
        }
        return timestampIn(h);
    }

    /**
     * Consumer: the timestamp of the packet {@code offset} places behind the oldest, or
     * {@link Timestamp#UNSET} if there are not that many.
     */
    public long peekTimestampAt(final int offset)
    {
        final long h = (long)HEAD.getOpaque(this);
        if (h + offset >= tailCache && !consumerFinds(h + offset))
        {
            return Timestamp.UNSET;
        }
        return timestampIn(h + offset);
    }

    /**
     * Consumer: whether the packet at {@code position} (at or after its copy of the tail) is
     * published, by its slot's sequence (acquire); if so, the copy moves past it. The producer
     * publishes in order, so every packet before it is published too.
     */
    private boolean consumerFinds(final long position)
    {
        if (sequenceIn(position) != position + 1)
        {
            return false;
        }
        tailCache = position + 1;
        return true;
    }

    /**
     * Any thread: whether the packet at {@code position} has been published (acquire), whether or
     * not it has been taken since. A slot's sequence only grows, by a lap at a time, and is below
     * {@code position + 1} until the packet at {@code position} is in it.
     */
    public boolean publishedAt(final long position)
    {
        return sequenceIn(position) > position;
    }

    /** The sequence in the slot of {@code position} (acquire): the last position it held, plus one. */
    private long sequenceIn(final long position)
    {
        return (long)SLOT.getAcquire(longs, SLOT_LONGS * ((int)position & mask));
    }

    /**
     * Consumer: its own position (the oldest packet's, once {@link #peekTimestamp()} found one), so
     * that a caller reads the head once and then the slot's fields and {@link #removeVolatile(long)}
     * by position.
     */
    public long consumerPosition()
    {
        return (long)HEAD.getOpaque(this);
    }

    /** Consumer, for a position {@link #peekTimestamp()} found a packet at: its timestamp. */
    public long timestampAt(final long position)
    {
        return timestampIn(position);
    }

    /** The timestamp in the slot of {@code position}, whoever wrote it last. */
    private long timestampIn(final long position)
    {
        return longs[SLOT_LONGS * ((int)position & mask) + 1];
    }

    /** Consumer, for a position {@link #peekTimestamp()} found a packet at: its word. */
    public long wordAt(final long position)
    {
        return longs[SLOT_LONGS * ((int)position & mask) + 2];
    }

    /** Consumer, after {@link #peekTimestamp()} found a packet: its value. */
    public Object peekValue()
    {
        return values[(int)(long)HEAD.getOpaque(this) & mask];
    }

    /** Consumer, after {@link #peekTimestamp()} found a packet: its word. */
    public long peekWord()
    {
        return wordAt((long)HEAD.getOpaque(this));
    }

    /**
     * Consumer, after {@link #peekTimestamp()} found a packet: removes it. The head is stored with a
     * full fence, so that the caller's next reads of shared state cannot be ordered before it (the
     * backpressure handshake of {@link InputQueue#pop()} relies on it).
     *
     * @return the new head.
     */
    public long removeVolatile()
    {
        return removeVolatile((long)HEAD.getOpaque(this));
    }

    /** {@link #removeVolatile()} for a caller that holds the {@link #consumerPosition()}. */
    public long removeVolatile(final long h)
    {
        final int i = (int)h & mask;
        if (!(values[i] instanceof Marker))
        {
            values[i] = null;
        }
        lastRemoved = timestampIn(h);
        HEAD.setVolatile(this, h + 1);
        return h + 1;
    }

    /** Producer: publishes its word (release), after the packets it covers. */
    void publishProducerWord(final long word)
    {
        PRODUCER_WORD.setRelease(this, word);
    }

    /** Producer: its word as it last published it. */
    long producerWordOpaque()
    {
        return (long)PRODUCER_WORD.getOpaque(this);
    }

    /**
     * The timestamp of the packet before the producer's tail, {@link Timestamp#UNSET} before the
     * first: for the producer, the packet it offered last (its own slot, which the consumer reads
     * but never writes); for any other thread a racy look, for reports (the slot may be written
     * again meanwhile).
     */
    public long newestTimestamp()
    {
        final long t = (long)TAIL.getAcquire(this);
        return t == 0 ? Timestamp.UNSET : timestampIn(t - 1);
    }

    /**
     * Consumer: the timestamp of the newest packet it has found published (by a peek), taken or
     * not; {@link Timestamp#UNSET} if none. A packet published since is found by the next peek.
     */
    public long consumerNewestTimestamp()
    {
        final long t = tailCache;
        return t > (long)HEAD.getOpaque(this) ? timestampIn(t - 1) : lastRemoved;
    }

    /** Any thread: the producer's word (acquire). */
    long lvProducerWord()
    {
        return (long)PRODUCER_WORD.getAcquire(this);
    }

    /**
     * Consumer: the packets behind position {@code head} by its copy of the tail, which is a value
     * the tail once had: never more than the ring holds now, so a count above some mark by it is
     * above that mark, with no read of the producer's line.
     */
    long consumerCountAtMost(final long head)
    {
        return tailCache - head;
    }

    /**
     * Consumer: reads the producer's tail (acquire) into its copy and returns it, or the copy when
     * that is ahead (a packet found by its slot before the producer's tail store).
     */
    long consumerRefreshTail()
    {
        final long t = Math.max(tailCache, (long)TAIL.getAcquire(this));
        tailCache = t;
        return t;
    }

    /** Any thread: the producer's position. */
    public long lvTail()
    {
        return (long)TAIL.getAcquire(this);
    }

    /** Any thread: the consumer's position. */
    public long lvHead()
    {
        return (long)HEAD.getAcquire(this);
    }

    /**
     * Producer: whether the ring holds at least {@code n} packets (racy: the consumer may take some
     * meanwhile). The consumer's head, a line it writes with every removal, is read only when the
     * producer's copy of it says the ring may hold that many: a producer that asks after every offer
     * then reads it about once every {@code n} packets, not once a packet. The copy is a value the
     * head once had, never more than the head is now, so it can only overstate the count: a "no"
     * is never wrong.
     */
    public boolean producerHoldsAtLeast(final int n)
    {
        final long t = (long)TAIL.getOpaque(this);
        if (t - headCache < n)
        {
            return false;
        }
        headCache = (long)HEAD.getAcquire(this);
        return t - headCache >= n;
    }

    /** Any thread: packets in the ring right now (racy away from both sides). */
    public int size()
    {
        final long h = (long)HEAD.getAcquire(this);
        return (int)((long)TAIL.getAcquire(this) - h);
    }

    /**
     * The value in the slot of position {@code position}: for the consumer, at a position
     * {@link #peekTimestamp()} found a packet at; for any other thread, for diagnostics (racy: the
     * slot may be taken meanwhile).
     */
    public Object valueAt(final long position)
    {
        return values[(int)position & mask];
    }
}
