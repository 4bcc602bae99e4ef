package dev.framewire.core.calculators;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Input;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.OptionType;
import dev.framewire.core.Output;
import dev.framewire.core.Timestamp;

/**
 * Lets only {@code max_in_flight} timestamps into the subgraph behind it, and drops the rest, so
 * a slow stage does not make frames queue up (MediaPipe's FlowLimiterCalculator, same options,
 * streams and decisions).
 *
 * <p>Streams: untagged data inputs (the first is the main stream, the others follow its ALLOW
 * decisions), {@code FINISHED} (a back edge from the subgraph's end: one packet, or a bound moved
 * past it, per timestamp let through), untagged data outputs matching the inputs, optional
 * {@code ALLOW} (a {@code Boolean} per main-stream frame: true let through, false dropped).
 * Policy: immediate, with bound-only processing.
 *
 * <p>Options: {@code max_in_flight} (1), {@code max_in_queue} (0: drop rather than wait),
 * {@code in_flight_timeout} (0: none; in timestamp units, as MediaPipe: a frame in flight is given
 * up once the newest frame's timestamp is more than this beyond it, however long that takes in
 * wall-clock time).
 *
 * <p>Dropped frames release their payloads at once and are counted
 * ({@link CalculatorContext#countDrop()}); output bounds move past them so nothing downstream
 * waits for them.
 */
public final class FlowLimiterCalculator implements Calculator
{
    private long maxInFlight;
    private long maxInQueue;
    private long inFlightTimeout;
    private int dataStreams;
    private int finishedIndex;
    private int allowIndex = -1;
    private HeldPackets[] queues;
    /** Timestamps let through and not yet FINISHED, oldest first. */
    private long[] inFlight = new long[8];
    private int inFlightHead;
    private int inFlightSize;
    /** Ranges of ALLOW decisions: from timestamp allowedFrom[i], allowed[i] holds. */
    private long[] allowedFrom = new long[8];
    private boolean[] allowed = new boolean[8];
    private int allowedSize;

    @Override
    public void contract(final Contract contract)
    {
        contract.outputType("ALLOW", Boolean.class);
        contract.option("max_in_flight", OptionType.LONG, 1L)
            .option("max_in_queue", OptionType.LONG, 0L)
            .option("in_flight_timeout", OptionType.LONG, 0L)
            .range("max_in_flight", 1, Long.MAX_VALUE)
            .range("max_in_queue", 0, Long.MAX_VALUE)
            .range("in_flight_timeout", 0, Long.MAX_VALUE)
            .inputPolicy(InputPolicy.immediate())
            .processTimestampBounds(true)
            // one data stream (and FINISHED): its frames pass on as they are, for the start's frame budget check
            .outputFrame((node, options, input) ->
                node.inputStreams().size() == 2 && node.outputStreams().size() == 1 ? input : null);
    }

    @Override
    public void open(final CalculatorContext ctx)
    {
        maxInFlight = ctx.options().getLong("max_in_flight");
        maxInQueue = ctx.options().getLong("max_in_queue");
        inFlightTimeout = ctx.options().getLong("in_flight_timeout");
        if (maxInFlight < 1 || maxInQueue < 0 || inFlightTimeout < 0)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': max_in_flight must be >= 1 (is " +
                maxInFlight + "), max_in_queue >= 0 (is " + maxInQueue + "), in_flight_timeout >= 0 (is " +
                inFlightTimeout + ")");
        }
        finishedIndex = ctx.input("FINISHED").index();
        dataStreams = ctx.inputCount() - 1;
        for (int i = 0; i < ctx.outputCount(); i++)
        {
            if (ctx.output(i) == safeOutput(ctx, "ALLOW"))
            {
                allowIndex = i;
            }
        }
        final int dataOutputs = ctx.outputCount() - (allowIndex >= 0 ? 1 : 0);
        if (dataStreams < 1 || dataOutputs != dataStreams)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': FlowLimiterCalculator needs one or more " +
                "data inputs, a FINISHED input, and one data output per data input; it has " + dataStreams +
                " data inputs and " + dataOutputs + " data outputs");
        }
        queues = new HeldPackets[dataStreams];
        for (int i = 0; i < dataStreams; i++)
        {
            queues[i] = new HeldPackets();
        }
        allowedFrom[0] = Timestamp.UNSET;
        allowed[0] = true;
        allowedSize = 1;
    }

    private static Output safeOutput(final CalculatorContext ctx, final String tag)
    {
        try
        {
            return ctx.output(tag);
        }
        catch (final IllegalArgumentException none)
        {
            return null;
        }
    }

    private Input data(final CalculatorContext ctx, final int i)
    {
        return ctx.input(i < finishedIndex ? i : i + 1);
    }

    private Output dataOut(final CalculatorContext ctx, final int i)
    {
        return ctx.output(allowIndex >= 0 && i >= allowIndex ? i + 1 : i);
    }

    @Override
    public void process(final CalculatorContext ctx)
    {
        final long inputTs = ctx.inputTimestamp();
        // FINISHED comes as a packet or as a bound (MediaPipe): an empty FINISHED carrying the
        // input timestamp means its bound passed it, so the frames up to it are done too.
        final Input finished = ctx.input(finishedIndex);
        if (finished.timestamp() == inputTs)
        {
            while (inFlightSize > 0 && inFlight[inFlightHead] <= finished.timestamp())
            {
                popInFlight();
            }
        }
        for (int i = 0; i < dataStreams; i++)
        {
            final Input input = data(ctx, i);
            if (!input.isEmpty())
            {
                queues[i].add(input);
            }
        }

        // Give up frames in flight for too long, measured in timestamps of newer frames.
        final Input main = data(ctx, 0);
        final long latest = main.timestamp();
        if (inFlightTimeout > 0 && latest == inputTs && latest < Timestamp.MAX)
        {
            while (inFlightSize > 0 && latest - inFlight[inFlightHead] > inFlightTimeout)
            {
                popInFlight();
            }
        }

        final HeldPackets queue = queues[0];
        final Output out = dataOut(ctx, 0);
        while (inFlightSize < maxInFlight && !queue.isEmpty())
        {
            final long ts = queue.firstTimestamp();
            queue.emitFirst(out);
            sendAllow(ctx, true, ts);
            pushInFlight(ts);
        }
        while (queue.size() > maxInQueue)
        {
            final long ts = queue.firstTimestamp();
            queue.dropFirst();
            sendAllow(ctx, false, ts);
            ctx.countDrop();
        }

        if (!queue.isEmpty())
        {
            setBound(out, queue.firstTimestamp());
        }
        else
        {
            final long bound = Timestamp.nextAllowedInStream(main.timestamp());
            setBound(out, bound);
            if (allowIndex >= 0)
            {
                setBound(ctx.output(allowIndex), bound);
            }
        }
        processAuxiliary(ctx, out.nextTimestampBound());
        discardOldRanges(ctx);
        for (final HeldPackets held : queues)
        {
            held.retainNew();
        }
    }

    private void processAuxiliary(final CalculatorContext ctx, final long settled)
    {
        for (int i = 1; i < dataStreams; i++)
        {
            final HeldPackets queue = queues[i];
            final Output out = dataOut(ctx, i);
            while (!queue.isEmpty() && queue.firstTimestamp() < settled)
            {
                if (isAllowed(queue.firstTimestamp()))
                {
                    queue.emitFirst(out);
                }
                else
                {
                    queue.dropFirst();
                    ctx.countDrop();
                }
            }
            setBound(out, queue.isEmpty() ? Timestamp.nextAllowedInStream(data(ctx, i).timestamp()) :
                queue.firstTimestamp());
        }
    }

    private static void setBound(final Output out, final long bound)
    {
        if (bound > Timestamp.MAX)
        {
            out.close();
        }
        else
        {
            out.setNextTimestampBound(bound);
        }
    }

    private void sendAllow(final CalculatorContext ctx, final boolean allow, final long ts)
    {
        if (allowIndex >= 0)
        {
            ctx.output(allowIndex).add(allow ? Boolean.TRUE : Boolean.FALSE, ts);
        }
        if (allowedSize == allowedFrom.length)
        {
            allowedFrom = java.util.Arrays.copyOf(allowedFrom, allowedSize * 2);
            allowed = java.util.Arrays.copyOf(allowed, allowedSize * 2);
        }
        allowedFrom[allowedSize] = ts;
        allowed[allowedSize] = allow;
        allowedSize++;
    }

    private boolean isAllowed(final long ts)
    {
        for (int i = allowedSize - 1; i >= 0; i--)
        {
            if (allowedFrom[i] <= ts)
            {
                return allowed[i];
            }
        }
        return true;
    }

    /** Drops ALLOW ranges that end before the lowest unprocessed input timestamp. */
    private void discardOldRanges(final CalculatorContext ctx)
    {
        long bound = Timestamp.DONE;
        for (int i = 0; i < dataStreams; i++)
        {
            bound = Math.min(bound, queues[i].isEmpty() ?
                Timestamp.nextAllowedInStream(data(ctx, i).timestamp()) : queues[i].firstTimestamp());
        }
        int first = 0;
        for (int i = allowedSize - 1; i >= 0; i--)
        {
            if (allowedFrom[i] <= bound)
            {
                first = i;
                break;
            }
        }
        if (first > 0)
        {
            System.arraycopy(allowedFrom, first, allowedFrom, 0, allowedSize - first);
            System.arraycopy(allowed, first, allowed, 0, allowedSize - first);
            allowedSize -= first;
        }
    }

    private void pushInFlight(final long ts)
    {
        if (inFlightSize == inFlight.length)
        {
            final long[] grown = new long[inFlight.length * 2];
            for (int k = 0; k < inFlightSize; k++)
            {
                grown[k] = inFlight[(inFlightHead + k) & (inFlight.length - 1)];
            }
            inFlight = grown;
            inFlightHead = 0;
        }
        inFlight[(inFlightHead + inFlightSize) & (inFlight.length - 1)] = ts;
        inFlightSize++;
    }

    private void popInFlight()
    {
        inFlightHead = (inFlightHead + 1) & (inFlight.length - 1);
        inFlightSize--;
    }

    @Override
    public void close(final CalculatorContext ctx)
    {
        if (queues != null)
        {
            for (final HeldPackets queue : queues)
            {
                queue.clear();
            }
        }
    }
}
