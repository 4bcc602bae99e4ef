package dev.framewire.core.internal.queue;

import dev.framewire.core.Timestamp;

import dev.framewire.offheap.Payload;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The packets waiting on one input stream of one consumer (a node input or a poller): a
 * {@link OneToOnePacketRing}, the stream's bound, and the backpressure handshake (queue limit, the
 * room-wanted flag, whom to wake on room) and wake-up of the consumer: what a stream edge knows.
 *
 * <p>A packet's {@code value} is a Java object, a {@link Payload} (its {@code word} the payload's
 * generation when emitted), or one of the markers {@link #LONG} / {@link #DOUBLE} with the
 * primitive's bits in {@code word}: nothing is boxed and nothing is allocated per packet.
 *
 * <p>Threading: one producer at a time (the producing node's worker, or a graph input's adding
 * thread under its guard) calls {@link #offer} and {@link #publishBound}; one consumer (the
 * consuming node's worker, or the poller's thread) calls {@link #peekTimestamp} and
 * {@link #pop} and reads {@link #bound()}. {@link #size()} and {@link #boundRacy()} may be read
 * from any thread. A packet settles its stream up to itself with no store of its own; the
 * producer stores a bound only beyond what its last packet implies, after the packets it covers,
 * so a consumer that reads the stored bound first and then the ring never sees a settled
 * timestamp whose packet is not yet visible.
 *
 * <pre>
 *   producer: ring.offer (slot, its sequence last: release); bound = b (release, the ring's producer word,
 *             on a line of its own) only when b is past what the packet implies
 *   consumer: ring (its head's slot); when empty: the stored bound (acquire), the newest packet's, then the ring again
 * </pre>
 */
public final class InputQueue extends InputQueuePad3
{
    /** Marks a {@code long} packet; the value is in the word. */
    public static final Object LONG = new OneToOnePacketRing.Marker("long");
    /** Marks a {@code double} packet; the value's bits are in the word. */
    public static final Object DOUBLE = new OneToOnePacketRing.Marker("double");

    private static final VarHandle SEEN_TAIL;
    private static final VarHandle SEEN_WORD;
    private static final VarHandle ROOM_SIGNALS;
    private static final VarHandle LIMIT_REACHED;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            SEEN_TAIL = lookup.findVarHandle(InputQueueSeenFields.class, "seenTail", long.class);
            SEEN_WORD = lookup.findVarHandle(InputQueueSeenFields.class, "seenWord", long.class);
            ROOM_SIGNALS = lookup.findVarHandle(InputQueueRoomFields.class, "roomSignals", long.class);
            LIMIT_REACHED = lookup.findVarHandle(InputQueueRoomFields.class, "limitReached", boolean.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    public final String streamName;
    /** The consuming node, or null for a poller. */
    public final Schedulable consumer;
    /** Position among the consumer's inputs. */
    public final int port;
    /** Producing node, or null for a graph input. */
    public final Schedulable producer;
    /** Whether this input is a declared back edge. */
    public final boolean backEdge;
    private final OneToOnePacketRing ring;

    /**
     * Whether the consumer's worker polls this queue for input instead of being told: a graph
     * input's queue into a node on a busy-spinning or yielding worker. The adding thread then
     * neither fences nor touches the node's state nor the worker's inbox; the worker, which looks
     * at its queues every duty cycle anyway, sees the new tail or bound ({@link #pollChanged()}).
     * Set before the run starts.
     */
    public boolean polled;
    /** Queue limit for backpressure: full at size &gt;= limit. Raised by deadlock avoidance. */
    public volatile int limit;
    /**
     * How far below {@link #limit} a pop must find the queue before it hands out room to the
     * threads held back by it: the graph's {@code room_batch}, 1 (MediaPipe's rule) for a poller's
     * queue. See {@link GraphConfig.Builder#roomBatch(int)}.
     */
    public final int roomBatch;
    /**
     * Sources (and, under BMF backpressure, producers) to reschedule when this queue stops being
     * full; set by {@link #holdsBack} before the queue is used.
     */
    public Schedulable[] wakeOnRoom = new Schedulable[0];
    /** Graph inputs whose waiting adders to wake when this queue stops being full; set with {@link #wakeOnRoom}. */
    public HeldBackAdder[] wakeInputsOnRoom = new HeldBackAdder[0];
    /** The poller that consumes this queue, when {@link #consumer} is null. */
    public PollerSignal poller;


    /**
     * @param producer the producing node, or null for a graph input.
     * @param consumer the consuming node, or null for a poller's queue.
     * @param port     the position among the consumer's inputs.
     * @param capacity the hard cap: what the ring holds.
     * @param limit    max_queue_size: the queue is full at this size.
     * @param roomBatch see {@link #roomBatch}.
     */
    public InputQueue(
        final String streamName,
        final Schedulable producer,
        final Schedulable consumer,
        final int port,
        final boolean backEdge,
        final int capacity,
        final int limit,
        final int roomBatch)
    {
        this.roomBatch = roomBatch;
        this.streamName = streamName;
        this.producer = producer;
        this.consumer = consumer;
        this.port = port;
        this.backEdge = backEdge;
        this.ring = new OneToOnePacketRing(capacity);
        this.ring.publishProducerWord(Timestamp.PRE_STREAM); // the bound, before the queue is shared
        this.limit = limit;
    }

    public int capacity()
    {
        return ring.capacity();
    }

    /**
     * Before the queue is used (the graph's start, or a subgraph's wiring under the hot-plug lock):
     * the nodes and graph inputs that this queue holds back while it is full, and wakes when it has
     * room.
     */
    public void holdsBack(final Schedulable[] nodes, final HeldBackAdder[] inputs)
    {
        this.wakeOnRoom = nodes;
        this.wakeInputsOnRoom = inputs;
    }

    /**
     * Producer: appends a packet, and notes whether the queue is now at its limit
     * ({@link #limitReached}, stored only when that changes).
     *
     * @return false when the ring is at capacity (the hard cap).
     */
    public boolean offer(final long timestamp, final Object value, final long word)
    {
        if (!ring.offer(timestamp, value, word))
        {
            return false;
        }
        final boolean reached = ring.producerHoldsAtLeast(limit);
        if (reached != (boolean)LIMIT_REACHED.getOpaque(this))
        {
            LIMIT_REACHED.setRelease(this, reached);
        }
        return true;
    }

    /**
     * Producer: moves the bound (never down). A bound that the last packet offered implies (one
     * past its timestamp, as MediaPipe's packet settles its stream) is not stored: consumers infer
     * it from the packet ({@link #bound()}). Only a bound beyond that (a close, an explicit
     * {@code setNextTimestampBound}, an offset) is stored, as the ring's producer word, on a line
     * the producer writes only then: a packet takes its slot's line to the consumer, and nothing else.
     */
    public void publishBound(final long newBound)
    {
        if (newBound > ring.producerWordOpaque() && newBound > implied(ring.newestTimestamp()))
        {
            ring.publishProducerWord(newBound);
        }
    }

    /** The bound a packet at {@code timestamp} implies, or the lowest long for none. */
    private static long implied(final long timestamp)
    {
        return timestamp == Timestamp.UNSET ? Long.MIN_VALUE : Timestamp.nextAllowedInStream(timestamp);
    }

    /**
     * Consumer: the stream's bound: the bound stored last, or the one the newest packet it has
     * found implies, whichever is higher. Read it after a look that found the queue empty, then look
     * again: a packet published meanwhile is then found (and a packet the stored bound settles is
     * visible), and when the queue is still empty, no packet below this bound can come.
     */
    public long bound()
    {
        final long stored = storedBound(); // first: the packets it covers are then visible
        return Math.max(stored, implied(ring.consumerNewestTimestamp()));
    }

    /** Any thread: the bound the producer stored last (acquire): a close, an explicit bound, not what a packet implies. */
    public long storedBound()
    {
        return ring.lvProducerWord();
    }

    /**
     * Any thread, for reports and checks away from the consumer: {@link #bound()} as far as the
     * producer's tail shows (racy).
     */
    public long boundRacy()
    {
        final long stored = storedBound();
        return Math.max(stored, implied(ring.newestTimestamp()));
    }

    /**
     * Consumer: the timestamp of the oldest packet, or {@link Timestamp#UNSET} when empty.
     */
    public long peekTimestamp()
    {
        return ring.peekTimestamp();
    }

    /**
     * The consumer's worker, for a {@link #polled} queue: whether packets or a bound arrived since
     * its last look. The caller schedules the consumer and then calls {@link #markSeen()}, in that
     * order, so that an idle check that finds the queue seen finds its node scheduled.
     */
    public boolean pollChanged()
    {
        // the slot after the last seen packet, not the producer's tail: the slot is the line the
        // node's run reads next anyway
        return ring.publishedAt(seenTail) || storedBound() != seenWord;
    }

    /** The consumer's worker, after {@link #pollChanged()} and scheduling: what it saw is seen. */
    public void markSeen()
    {
        // looked at afresh, not the values pollChanged read: anything newer is handed to the node's
        // run already scheduled, which reads the ring afresh. Every packet before the consumer's
        // head has been published, and the producer publishes in order.
        long seen = Math.max(seenTail, ring.consumerPosition());
        while (ring.publishedAt(seen))
        {
            seen++;
        }
        SEEN_TAIL.setRelease(this, seen);
        SEEN_WORD.setRelease(this, storedBound());
    }

    /**
     * Consumer: the oldest packet's timestamp, or the bound when the queue is empty. The bound is
     * read only then (it lives on the producer's line, which a busy producer keeps writing), and
     * the ring is read again after it, so a packet the bound settles is not missed.
     */
    public long headOrBound()
    {
        final long head = peekTimestamp();
        if (head != Timestamp.UNSET)
        {
            return head;
        }
        final long bound = bound();
        final long again = peekTimestamp();
        return again != Timestamp.UNSET ? again : bound;
    }

    /**
     * Consumer: the timestamp of the packet {@code offset} places behind the oldest, or
     * {@link Timestamp#UNSET} if there are not that many.
     */
    public long peekTimestampAt(final int offset)
    {
        return ring.peekTimestampAt(offset);
    }

    /**
     * Consumer: drops the oldest packet, releasing its payload.
     *
     * @return true if a thread held back by this queue may go on (see {@link #pop()}).
     */
    public boolean dropHead()
    {
        final Object value = peekValue();
        final boolean room = pop();
        if (value instanceof Payload)
        {
            ((Payload)value).release();
        }
        return room;
    }

    /**
     * Consumer, after {@link #peekTimestamp()} found a packet: its position, to read its fields
     * ({@link #timestampAt}, {@link #valueAt}, {@link #wordAt}) and {@link #pop(long)} it with one
     * read of the head.
     */
    public long headPosition()
    {
        return ring.consumerPosition();
    }

    /**
     * Consumer, after taking the packet before {@code next}: a position below which every packet is
     * published by now (acquire). {@code next} when the packet at {@code next} is not; else the
     * producer's tail, read only then: a consumer that keeps up does not take the line its producer
     * writes per packet.
     */
    public long publishedBelow(final long next)
    {
        return ring.publishedAt(next) ? Math.max(next + 1, ring.lvTail()) : next;
    }

    /** Consumer: the timestamp of the packet at {@link #headPosition()}. */
    public long timestampAt(final long position)
    {
        return ring.timestampAt(position);
    }

    /** Consumer: the value of the packet at {@link #headPosition()}. */
    public Object valueAt(final long position)
    {
        return ring.valueAt(position);
    }

    /** Consumer: the word of the packet at {@link #headPosition()}. */
    public long wordAt(final long position)
    {
        return ring.wordAt(position);
    }

    /** Consumer, after {@link #peekTimestamp()} found a packet: its value. */
    public Object peekValue()
    {
        return ring.peekValue();
    }

    /** Consumer, after {@link #peekTimestamp()} found a packet: its word. */
    public long peekWord()
    {
        return ring.peekWord();
    }

    /**
     * Consumer: removes the oldest packet, after {@link #peekTimestamp()} found it.
     *
     * @return true if a thread held back by this queue may go on: sources waiting on it may run.
     */
    public boolean pop()
    {
        return pop(ring.consumerPosition());
    }

    /** {@link #pop()} of the packet at {@link #headPosition()} {@code position}. */
    public boolean pop(final long position)
    {
        // A full fence after the head store (removeVolatile), not a release: the flag read below
        // must not be ordered before it, or a producer that set the flag and then saw the old head
        // (queue full, so it went idle) and this consumer that saw no flag (so no wake-up) would
        // both miss the room.
        final long head = ring.removeVolatile(position);
        if (!roomWanted)
        {
            return false; // nobody found the queue full: no need to read the producer's tail
        }
        final int mark = resumeMark();
        if (ring.consumerCountAtMost(head) > mark || ring.consumerRefreshTail() - head > mark)
        {
            // still full (or not yet drained a room batch): the flag stays up for the pop that makes
            // room. The consumer's copy of the tail answers first: while a held-back producer's flag
            // stays up through a room batch, reading the tail the producer writes per packet would
            // take that line from it at every pop
            return false;
        }
        // A producer that sets the flag again after this read re-checks the head, which it then
        // sees moved (see wantsRoom), so clearing cannot lose its wake-up.
        roomWanted = false;
        signalRoom();
        return true;
    }

    /**
     * The most packets the queue may hold for a pop to hand out room: one less than the limit
     * under MediaPipe's rule, {@link #roomBatch} less under a batch, and never below empty.
     */
    private int resumeMark()
    {
        return Math.max(0, limit - roomBatch);
    }

    /**
     * The consumer, when its node stops taking packets (it goes idle: not ready, or closed), under a
     * {@link #roomBatch} above 1: hands out the room a held-back thread waits for although the
     * queue has not drained to the batch's mark, since no pop will come to hand it out. The last
     * pop's full fence (see {@link #pop(long)}) orders this read of the flag after the head it
     * stored, as in a pop; clearing the flag cannot lose a wake-up for the same reason as there.
     *
     * @return true if a thread held back by this queue may go on (the caller wakes them).
     */
    public boolean handOutRoomOnIdle()
    {
        if (!roomWanted || ring.size() >= limit)
        {
            return false;
        }
        roomWanted = false;
        signalRoom();
        return true;
    }

    /**
     * The producer, after publishing packets or a bound (and a full fence, see
     * {@link Schedulable#schedule()}): tells the consumer, a node (scheduled) or a poller (woken).
     */
    public void wakeConsumer()
    {
        final Schedulable node = consumer;
        if (node != null)
        {
            node.schedule();
        }
        else
        {
            poller.wake();
        }
    }

    /**
     * The consumer, when {@link #pop()} (or a raised limit) says a held-back thread may go on:
     * reschedules the sources (and, under BMF backpressure, producers) and wakes the graph inputs'
     * waiting adders that this queue holds back.
     */
    public void wakeHeldBack()
    {
        for (final Schedulable node : wakeOnRoom)
        {
            node.schedule();
        }
        for (final HeldBackAdder input : wakeInputsOnRoom)
        {
            input.wakeWaiter();
        }
    }

    /** Any thread: packets offered to this queue so far (the ring's tail, an acquire load). */
    public long arrived()
    {
        return ring.lvTail();
    }

    /** Any thread: packets queued right now. */
    public int size()
    {
        return ring.size();
    }

    /**
     * Any thread: payload bytes (slot sizes) queued right now. Racy when read away from the
     * consumer (a slot may be taken meanwhile): for diagnostics only.
     */
    public long queuedPayloadBytes()
    {
        final long h = ring.lvHead();
        final long t = ring.lvTail();
        long bytes = 0;
        for (long i = h; i < t && i - h < ring.capacity(); i++)
        {
            final Object value = ring.valueAt(i);
            if (value instanceof Payload)
            {
                bytes += ((Payload)value).capacity();
            }
        }
        return bytes;
    }

    /**
     * Any thread that is held back by this queue, having found it full ({@link HeldBack}): raises the flag that makes
     * the consumer's {@link #pop()} report room, then looks again. Either the consumer sees the
     * flag (both are volatile stores followed by volatile loads), or this look sees its pop.
     *
     * @return true if the queue is still full.
     */
    boolean wantsRoom()
    {
        roomWanted = true;
        return size() >= limit;
    }

    /** Any thread: how many times room was handed out (see {@link HeldBack}). */
    public long roomSignals()
    {
        return roomSignals;
    }

    /**
     * Deadlock avoidance, with the workers idle: raises the limit, then hands out room as a pop
     * would (clears the flag, counts a signal, wakes who is held back).
     */
    public void raiseLimit(final int raised)
    {
        limit = raised;
        roomWanted = false;
        signalRoom();
        wakeHeldBack();
    }

    /**
     * The consumer, when its hot-plugged subgraph leaves and this queue is empty for good: hands
     * out room a last time, as a pop would. A holder that was held back by this queue remembers it
     * ({@link HeldBack}) and would otherwise take it for still full until it signals again, which it
     * never will: a look at another thread's stale array can leave it remembered after the holder
     * dropped the queue. The signal makes that memory stale, and the wake-up makes it look again.
     */
    public void handOutRoomForGood()
    {
        roomWanted = false;
        signalRoom();
        wakeHeldBack();
    }

    /**
     * Counts a hand-out of room, with a full fence: the caller then wakes the held-back holders
     * ({@link #wakeHeldBack()}), whose {@link ScheduleState#claim()} may find a source already
     * marked dirty and return after one load of its state, with no CAS. Without the fence that load
     * could pass this store (a release store is not ordered before a later load: x86's store
     * buffer), and a source going idle at that moment would read the old count in
     * {@link HeldBack#check}, take the queue for still full, and go idle with no wake-up to come.
     * A source feeding a queue of 8 stalled so in most runs on two parked workers. The consumer is
     * the only writer but for {@link #raiseLimit} (workers idle) and a subgraph's leaving.
     */
    private void signalRoom()
    {
        ROOM_SIGNALS.setVolatile(this, roomSignals + 1);
    }

    /**
     * Any thread held back by this queue, or asking whether it is ({@link HeldBack}): whether the
     * queue may be at or over its limit. It reads {@link #limitReached}, the producer's finding at
     * its last offer, and no line that moves per packet: a source checks every queue downstream
     * before each packet, and reading their tails took those lines from the workers that write them.
     * A "no" is right (the queue can only have shrunk since), a "yes" may be stale (the consumer has
     * taken packets since): the caller then looks exactly ({@link #wantsRoom()}).
     */
    public boolean atLimit()
    {
        return limitReached;
    }

    /**
     * Any thread: whether the queue is at or over its limit, by the head and tail as this thread
     * sees them now (acquire loads; no fence, no flag: see {@link HeldBack#fullNow}).
     */
    public boolean fullNow()
    {
        return size() >= limit;
    }

    /** Any thread, for reports and the deadlock check: whether the queue is at or over its limit, after a full fence. */
    public boolean isFull()
    {
        VarHandle.fullFence();
        return fullNow();
    }

    /** Consumer (or anyone once both sides have stopped): releases every queued payload. */
    public int drainAndRelease()
    {
        int released = 0;
        while (peekTimestamp() != Timestamp.UNSET)
        {
            final Object value = peekValue();
            pop();
            if (value instanceof Payload)
            {
                ((Payload)value).release();
                released++;
            }
        }
        return released;
    }

    @Override
    public String toString()
    {
        return "stream '" + streamName + "' into " + (consumer == null ? "a poller" : "node '" + consumer.nodeName() + "'");
    }
}
