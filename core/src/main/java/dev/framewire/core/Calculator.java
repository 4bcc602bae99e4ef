package dev.framewire.core;

/**
 * What a node runs: {@code open} once, {@code process} per input set, {@code close} once all
 * inputs are done. A node never calls its calculator from two threads at once, and always from
 * a worker of the node's executor.
 *
 * <p>A calculator with no input streams is a <em>source</em>: its {@code process} is called
 * again and again (input timestamp 0) until it calls {@link CalculatorContext#stop()}, held back
 * while a queue it feeds is full.
 *
 * <p>Any exception thrown from these methods is captured on the worker and handled by the
 * graph's failure policy; under the default, the run fails with the node, the input timestamp
 * and the cause.
 */
public interface Calculator
{
    /**
     * Declares the options the calculator reads (name, type, default) and how it wants to be
     * called. Called once on a fresh instance when the graph is validated, before {@code open}.
     *
     * @param contract to declare into.
     */
    default void contract(final Contract contract)
    {
    }

    /**
     * Prepares for the run. Its input timestamp is {@link Timestamp#UNSTARTED}; its inputs are
     * empty. It may set an offset or output bounds, and emit packets, as MediaPipe's {@code Open}
     * may (a delay that primes a loop emits its first packet here): they go out when it returns.
     *
     * @param ctx the node's context.
     * @throws Exception to fail the node.
     */
    default void open(final CalculatorContext ctx) throws Exception
    {
    }

    /**
     * Handles one input set (or, for a source, makes the next packets).
     *
     * @param ctx the node's context, its inputs filled for {@link CalculatorContext#inputTimestamp()}.
     * @throws Exception to fail the node.
     */
    void process(CalculatorContext ctx) throws Exception;

    /**
     * Ends the run for this node: called once every input is done (or a source stopped). Its
     * input timestamp is {@link Timestamp#DONE}. It may still emit; the outputs close after it.
     *
     * @param ctx the node's context.
     * @throws Exception to fail the node.
     */
    default void close(final CalculatorContext ctx) throws Exception
    {
    }
}
