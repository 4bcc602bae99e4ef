package dev.framewire.core.internal.node;

import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Input;
import dev.framewire.core.Options;
import dev.framewire.core.Output;
import dev.framewire.core.internal.stream.StreamSpec;
import dev.framewire.core.journal.JournalSink;
import dev.framewire.offheap.PayloadPool;

import java.util.function.Consumer;

/**
 * The calculator's context as both of its holders give it: the node's own step ({@link Node}: open,
 * {@code process} without lanes, close) and one call in a lane ({@link Lane}, {@code max_in_flight}
 * above 1). What they share is answered here once, from the node: ports and outputs by tag or name,
 * side packets, options, the clock, the pool, journal notes, the report line. What differs (the input
 * set, the outputs a call writes to, offsets, stop, drops, cancellation, a source's shipment) each
 * implements; so do the per-packet {@link #input(int)} and {@link #output(int)}, on fields of the
 * final class itself.
 *
 * <p>Threading: that of the call holding the context (the node's worker, or the lane's runner).
 */
interface CallContext extends CalculatorContext
{
    /** The node whose calculator this context serves. */
    Node callNode();

    /** The worker running the call, or null before any has run it. */
    NodeThread callWorker();

    @Override
    default int inputCount()
    {
        return callNode().inputs.length; // a lane's call has one port per input of its node
    }

    @Override
    default int outputCount()
    {
        return callNode().outputs.length;
    }

    @Override
    default Input input(final String tagOrName)
    {
        final Node node = callNode();
        return input(PortLookup.indexOf(node.inputs, "input", node.name, tagOrName));
    }

    @Override
    default Output output(final String tagOrName)
    {
        final Node node = callNode();
        return output(PortLookup.indexOf(node.outputs, "output", node.name, tagOrName));
    }

    @Override
    default Object sidePacket(final String tagOrName)
    {
        final Node node = callNode();
        for (final String spec : node.config.inputSidePackets())
        {
            final StreamSpec parsed = StreamSpec.parse(spec);
            if (parsed != null && (parsed.name.equals(tagOrName) || parsed.matches(tagOrName)))
            {
                return node.sidePackets.get(parsed.name);
            }
        }
        throw new IllegalArgumentException("node '" + node.name + "' declares no input side packet '" + tagOrName +
            "'; it declares " + node.config.inputSidePackets());
    }

    @Override
    default void setOutputSidePacket(final String tagOrName, final Object value)
    {
        final Node node = callNode();
        node.runState.setOutputSidePacket(node, tagOrName, value);
    }

    @Override
    default Options options()
    {
        return callNode().options;
    }

    @Override
    default int maxShipmentSize()
    {
        return callNode().runState.config().maxShipmentSize();
    }

    @Override
    default void reportLine(final Consumer<StringBuilder> line)
    {
        callNode().reportLine = line;
    }

    @Override
    default void journalNote(final long timestamp, final long value, final String text)
    {
        final Node node = callNode();
        final JournalSink journal = node.runState.journal();
        if (journal != null)
        {
            final NodeThread on = callWorker();
            journal.note(on == null ? -1 : on.id(), node.id, timestamp, value, text);
        }
    }

    @Override
    default long nanoTime()
    {
        return callNode().runState.clock().nanoTime();
    }

    @Override
    default long graphInputNanos(final long timestamp)
    {
        return callNode().runState.graphInputNanos(timestamp);
    }

    @Override
    default PayloadPool pool()
    {
        return callNode().runState.pool();
    }

    @Override
    default String nodeName()
    {
        return callNode().name;
    }
}
