package dev.framewire.core;

import dev.framewire.offheap.PayloadPool;

import java.util.function.Consumer;

/**
 * A node's view of the run while its calculator is called: the input set, the outputs, the
 * options and side packets. One instance per node, reused for every call: nothing is allocated
 * per input set.
 *
 * <p>Threading: valid only inside {@code open}, {@code process} and {@code close}, on the calling
 * worker; do not keep it or its {@link Input}/{@link Output} views for another thread.
 */
public interface CalculatorContext
{
    /**
     * The timestamp of the current input set: {@link Timestamp#UNSTARTED} in {@code open}, 0 in
     * a source's {@code process}, {@link Timestamp#DONE} in {@code close}.
     *
     * @return the input timestamp.
     */
    long inputTimestamp();

    /**
     * Number of input streams.
     *
     * @return the count.
     */
    int inputCount();

    /**
     * Number of output streams.
     *
     * @return the count.
     */
    int outputCount();

    /**
     * An input by position, in the order the config lists the node's input streams.
     *
     * @param index 0-based.
     * @return the input view.
     */
    Input input(int index);

    /**
     * An input by tag ({@code "TAG"} or {@code "TAG:1"}) or by stream name. Look it up once in
     * {@code open} and keep the index for the hot path: {@link Input#index()}.
     *
     * @param tagOrName as written in the config.
     * @return the input view.
     * @throws IllegalArgumentException naming the node and the valid inputs if there is none.
     */
    Input input(String tagOrName);

    /**
     * An output by position, in the order the config lists the node's output streams.
     *
     * @param index 0-based.
     * @return the output view.
     */
    Output output(int index);

    /**
     * An output by tag or by stream name.
     *
     * @param tagOrName as written in the config.
     * @return the output view.
     * @throws IllegalArgumentException naming the node and the valid outputs if there is none.
     */
    Output output(String tagOrName);

    /**
     * Declares that every output's bound follows the input timestamp plus {@code offset}: after
     * each input set, and whenever the inputs' settled bound moves, even when nothing is emitted.
     * Call it in {@code open}; anywhere else it throws {@link IllegalStateException}, as MediaPipe
     * fails a {@code SetOffset} outside {@code Open}.
     *
     * @param offset microseconds, usually 0.
     */
    void setOffset(long offset);

    /**
     * A side packet given to {@link Graph#start(java.util.Map)}, by its tag or name in the node's
     * {@code input_side_packet} list.
     *
     * @param tagOrName as written in the config.
     * @return the value.
     * @throws IllegalArgumentException if the node declares no such side packet.
     */
    Object sidePacket(String tagOrName);

    /**
     * Sets one of the node's output side packets, by its tag or name in the node's
     * {@code output_side_packet} list, as MediaPipe's {@code OutputSidePackets().Tag(..).Set(..)}:
     * in {@code open}, {@code process} or {@code close}, at most once per run. Nodes that take it as
     * an input side packet are opened once it (and every other side packet they take from a node)
     * is set; {@link Graph#outputSidePacket(String)} reads it. A producer that closes without
     * setting a side packet a node waits for fails the run.
     *
     * @param tagOrName as written in the config.
     * @param value     the value, not null.
     * @throws IllegalArgumentException if the node declares no such output side packet, or the value is null.
     * @throws IllegalStateException if it was set before in this run (the node's call then fails).
     */
    void setOutputSidePacket(String tagOrName, Object value);

    /**
     * The node's options, typed as its {@link Contract} declared them.
     *
     * @return the options.
     */
    Options options();

    /**
     * For a source: there are no more packets; {@code close} follows and the outputs close.
     * For a node with inputs, as MediaPipe's {@code StatusStop} from {@code Process}: the run's
     * sources and graph inputs close ({@link Graph#closeAllPacketSources()}); what is queued drains,
     * this node included, and the run ends as done.
     */
    void stop();

    /**
     * For a source: the most packets it may emit on one stream in one call (its shipment); it is
     * called again while it has more.
     *
     * @return the graph's {@code max_shipment_size}.
     */
    int maxShipmentSize();

    /**
     * For a source: the off-heap bytes it may still emit in this call, {@code max_shipment_bytes}
     * less the payloads it emitted so far in the call, each at its slot size
     * ({@link dev.framewire.offheap.PayloadPool#slotBytesFor(int)}). A source that makes frames ends
     * its shipment (returns, to be called again) when the next frame's slot is more than this; an
     * emit past it fails the call with a {@link MemoryLimitException}. The first payload of a call
     * always goes out, whatever its size.
     *
     * @return bytes; {@link Long#MAX_VALUE} for a node with inputs, which has no shipments.
     */
    long shipmentBytesLeft();

    /**
     * Whether the run is being cancelled; long calls should poll it and return early.
     *
     * @return true once {@link Graph#cancel()} was called or the run failed.
     */
    boolean isCancelled();

    /**
     * Counts a packet this calculator dropped on purpose (a flow limiter, a gate): drops are
     * visible in {@link Graph#dropCount(String)} and reports.
     */
    void countDrop();

    /**
     * Writes a note of this node into the graph's journal, if the run is journaled (a
     * {@code NOTE} record: this node, {@code timestamp}, {@code value}, {@code text}); does
     * nothing otherwise. For rare events a reader of the journal must see beside the packets (a
     * camera's timestamp jump, a dropout, a reconnect), never per packet: it allocates.
     *
     * @param timestamp the timestamp it concerns, or {@link Timestamp#UNSET}.
     * @param value     a number that goes with it (the calculator documents which), 0 if none.
     * @param text      what happened, in a sentence.
     */
    void journalNote(long timestamp, long value, String text);

    /**
     * Gives this node a line of its own in {@link Graph#report()}, under the node's line: each time
     * a report is made, {@code line} appends its text (a few figures: what a transport has lost, how
     * far behind it is) to the report's builder, without the indent or a line break (a {@code '\n'}
     * in it starts another line, indented the same). Call it in {@code open}; a later call replaces
     * the line. The line stays in reports after the node closed, with its last figures.
     *
     * <p>Threading: {@code line} is called on the thread that asks for the report, any thread, while
     * the calculator's calls go on, and after it closed; never on a worker's hot path, so it may
     * allocate. It must read only what is safe to read from another thread (volatile or opaque
     * fields; each figure a racy snapshot), never this context, and never resources {@code close}
     * frees. A {@code line} that throws does not break the report: the line says it failed, and how.
     *
     * @param line appends the line's text; called only when a report is made.
     */
    void reportLine(Consumer<StringBuilder> line);

    /**
     * The graph's clock: the system's {@code nanoTime}, or a simulated one the config gave, so
     * that pacing and timeouts can be tested deterministically.
     *
     * @return nanoseconds on the graph's clock.
     */
    long nanoTime();

    /**
     * When a graph input packet at {@code timestamp} was added, on the graph's clock: the start
     * of graph-input-to-here latency. Remembered for the last 4096 packets of each graph input.
     *
     * @param timestamp a packet timestamp.
     * @return nanoseconds, or -1 if no graph input packet at that timestamp is remembered.
     */
    long graphInputNanos(long timestamp);

    /**
     * The pool to acquire off-heap payloads from.
     *
     * @return the graph's payload pool.
     */
    PayloadPool pool();

    /**
     * The node's name, for messages.
     *
     * @return the name.
     */
    String nodeName();
}
