package dev.framewire.core;

import dev.framewire.offheap.PixelFormat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a calculator declares before it runs: its options (name, type, default), whether it
 * wants to be called when only timestamp bounds moved, and the frames it makes where their size
 * follows from its options and its input's ({@link #outputFrame(FrameRule)}). The graph validates a
 * node's options against it, so a misspelt or mistyped option is a configuration error, not a
 * surprise at run time, and checks the memory budget against the frames (docs/CONFIG.md, "memory").
 *
 * <p>Threading: filled on the validating thread, read-only afterwards.
 */
public final class Contract
{
    private final Map<String, OptionSpec> options = new LinkedHashMap<>();
    private boolean processTimestampBounds;
    private InputPolicy inputPolicy;
    private boolean recordsGraphInputArrivals;
    private final List<NodeCheck> checks = new ArrayList<>(0);
    private final Map<String, Class<?>> inputTypes = new LinkedHashMap<>(0);
    private final Map<String, Class<?>> outputTypes = new LinkedHashMap<>(0);
    private FrameSize outputFrameBytes;
    private FrameRule outputFrame;
    private int keptFrames;

    /**
     * A check of a node's config the option types and ranges cannot say: its streams (how many
     * outputs for its inputs, which tags), an option's form (a glob, a path without separators).
     * Validation runs it once the node's options are valid, so that {@code validate} refuses what
     * {@code open} would refuse at run time, without running anything.
     */
    @FunctionalInterface
    public interface NodeCheck
    {
        /**
         * What is wrong with the node, or null.
         *
         * @param node    the node's config (its streams, tags, options as written).
         * @param options its options, resolved against the contract (defaults filled in).
         * @return the problem in words, naming the option or streams and what would be valid; null if none.
         */
        String problem(NodeConfig node, Options options);
    }

    /**
     * The size of the frames a node emits, where its options fix it before it runs, in bytes only (a
     * payload that is not a frame; a frame is better declared with {@link #outputFrame(FrameRule)},
     * which nodes downstream can derive their sizes from). Validation compares it with the memory
     * budget's hard limit (docs/CONFIG.md, "memory").
     */
    @FunctionalInterface
    public interface FrameSize
    {
        /**
         * Bytes of one frame on each output, or -1 if unknown before the node runs.
         *
         * @param node    the node's config.
         * @param options its options, resolved against the contract.
         * @return the bytes of one frame, or -1.
         */
        long bytes(NodeConfig node, Options options);
    }

    /**
     * The width, height and pixel format of a frame, as far as known before the graph runs; its bytes
     * are those of a frame of the tightest stride ({@code PayloadPool.acquireFrame(width, height, format)}).
     *
     * @param width  pixels, positive.
     * @param height pixels, positive.
     * @param format the pixel format.
     */
    public record FrameShape(int width, int height, PixelFormat format)
    {
        /**
         * Checks the shape.
         *
         * @throws IllegalArgumentException if a side is not positive or the format is null.
         */
        public FrameShape
        {
            if (width <= 0 || height <= 0 || format == null)
            {
                throw new IllegalArgumentException("frame shape " + width + "x" + height + " " + format +
                    " invalid; valid are positive sides and a pixel format");
            }
        }

        /**
         * The bytes of one such frame at the tightest stride.
         *
         * @return them.
         * @throws IllegalArgumentException if they are more than an int holds.
         */
        public long bytes()
        {
            return format.frameBytes(height, format.minStride(width));
        }

        @Override
        public String toString()
        {
            return width + "x" + height + " " + format;
        }
    }

    /**
     * The frame a node puts on its first output for one input frame, derived from its options and,
     * for a transform, from the frame on its input: a resize's output from its input's size and its
     * factor, a colour conversion's from its input's size and its conversion. Validation follows the
     * frames from the sources down the edges, in topological order, and compares what each node holds
     * with the memory budget's hard limit (docs/CONFIG.md, "memory").
     */
    @FunctionalInterface
    public interface FrameRule
    {
        /**
         * The frame on the node's first output.
         *
         * @param node    the node's config.
         * @param options its options, resolved against the contract.
         * @param input   the frame on the node's first input whose frame is known (back edges aside),
         *                or null: a source, or an input whose frame size is known only at run time.
         * @return the output frame, or null if unknown before the node runs; {@code input} itself (the
         *         same instance, as {@link #SAME_FRAME} returns) if the node puts its input frame on its
         *         first output rather than filling a new one.
         */
        FrameShape output(NodeConfig node, Options options, FrameShape input);
    }

    /**
     * The rule of a node that puts its input frame itself on its first output (drawn on in place, or
     * passed on): the same shape, and no new frame taken from the pool. A rule of its own says the
     * same by returning {@code input} itself; an equal shape it makes is a new frame.
     */
    public static final FrameRule SAME_FRAME = (node, options, input) -> input;

    /**
     * Declares the size of the frames on the node's outputs ({@link FrameSize}).
     *
     * @param size how many bytes one frame takes, from the options.
     * @return this.
     */
    public Contract outputFrameBytes(final FrameSize size)
    {
        this.outputFrameBytes = size;
        return this;
    }

    /**
     * The frame size declared with {@link #outputFrameBytes(FrameSize)}.
     *
     * @return it, or null if the node did not declare one.
     */
    public FrameSize outputFrameBytes()
    {
        return outputFrameBytes;
    }

    /**
     * Declares the frame the node fills for its first output ({@link FrameRule}), or
     * {@link #SAME_FRAME} for a node that passes its input frame on.
     *
     * @param rule the rule.
     * @return this.
     */
    public Contract outputFrame(final FrameRule rule)
    {
        this.outputFrame = rule;
        return this;
    }

    /**
     * The rule declared with {@link #outputFrame(FrameRule)}.
     *
     * @return it, or null if the node did not declare one.
     */
    public FrameRule outputFrame()
    {
        return outputFrame;
    }

    /**
     * Declares frames the node keeps from {@code open} to {@code close} besides those it emits (a
     * synthetic camera's background), as a count of frames the size of its output frame
     * ({@link #outputFrame(FrameRule)}): validation counts them as held all through the run.
     *
     * @param count how many, 0 or more.
     * @return this.
     */
    public Contract keptFrames(final int count)
    {
        if (count < 0)
        {
            throw new IllegalArgumentException("kept frames " + count + " invalid; valid are 0 or more");
        }
        this.keptFrames = count;
        return this;
    }

    /**
     * The count declared with {@link #keptFrames(int)}.
     *
     * @return it, 0 if none.
     */
    public int keptFrames()
    {
        return keptFrames;
    }

    /**
     * Declares an option.
     *
     * @param name         the option's name.
     * @param type         its type.
     * @param defaultValue its value when the config does not give one, or null if the config must.
     * @return this.
     */
    public Contract option(final String name, final OptionType type, final Object defaultValue)
    {
        final Object coerced = defaultValue == null ? null : type.coerce(defaultValue);
        if (defaultValue != null && coerced == null)
        {
            throw new IllegalArgumentException(
                "default of option '" + name + "' is " + defaultValue + ", not a " + type);
        }
        options.put(name, new OptionSpec(name, type, coerced));
        return this;
    }

    /**
     * Restricts a declared {@link OptionType#LONG} option to {@code min..max} (inclusive), so a value
     * outside is a configuration error at validation, naming the node, the option and the range.
     *
     * @param name the option, declared before with {@link #option}.
     * @param min  the lowest valid value.
     * @param max  the highest valid value.
     * @return this.
     */
    public Contract range(final String name, final long min, final long max)
    {
        final OptionSpec spec = declared(name, OptionType.LONG);
        spec.check = new Check(min, true, max, null);
        checkDefault(spec);
        return this;
    }

    /**
     * Restricts a declared {@link OptionType#DOUBLE} option to a finite range: {@code min..max},
     * or above {@code min} when {@code minInclusive} is false. NaN and infinities are never valid.
     *
     * @param name         the option, declared before with {@link #option}.
     * @param min          the lower bound.
     * @param minInclusive whether {@code min} itself is valid.
     * @param max          the highest valid value (inclusive).
     * @return this.
     */
    public Contract range(final String name, final double min, final boolean minInclusive, final double max)
    {
        final OptionSpec spec = declared(name, OptionType.DOUBLE);
        spec.check = new Check(min, minInclusive, max, null);
        checkDefault(spec);
        return this;
    }

    /**
     * Restricts a declared {@link OptionType#STRING} option to the given values.
     *
     * @param name   the option, declared before with {@link #option}.
     * @param values the valid values.
     * @return this.
     */
    public Contract oneOf(final String name, final String... values)
    {
        final OptionSpec spec = declared(name, OptionType.STRING);
        spec.check = new Check(0, true, 0, List.of(values));
        checkDefault(spec);
        return this;
    }

    private OptionSpec declared(final String name, final OptionType type)
    {
        final OptionSpec spec = options.get(name);
        if (spec == null || spec.type != type)
        {
            throw new IllegalArgumentException("option '" + name + "' must be declared as a " + type +
                " before it is restricted; declared are " + options.keySet());
        }
        return spec;
    }

    private static void checkDefault(final OptionSpec spec)
    {
        if (spec.defaultValue != null && spec.invalid(spec.defaultValue) != null)
        {
            throw new IllegalArgumentException("default of option '" + spec.name + "' is " + spec.defaultValue +
                "; " + spec.invalid(spec.defaultValue));
        }
    }

    /**
     * Adds a check of the node's config, run at validation ({@link NodeCheck}).
     *
     * @param check the check.
     * @return this.
     */
    public Contract check(final NodeCheck check)
    {
        checks.add(check);
        return this;
    }

    /**
     * The checks added with {@link #check}.
     *
     * @return them, in the order added.
     */
    public List<NodeCheck> checks()
    {
        return Collections.unmodifiableList(checks);
    }

    /**
     * Asks to be called when only timestamp bounds moved, with no packet (MediaPipe's
     * ProcessTimestampBounds).
     *
     * @param on whether to be called.
     * @return this.
     */
    public Contract processTimestampBounds(final boolean on)
    {
        this.processTimestampBounds = on;
        return this;
    }

    /**
     * Declares the packet type of inputs (MediaPipe's {@code Inputs().Tag(..).Set<T>()}); validation
     * refuses a connection whose producer declares a type this one cannot take, naming both ports
     * and both types. Undeclared ports, and {@code Object.class}, take any packet ({@code SetAny}).
     *
     * @param key  {@code TAG:index}, {@code TAG} (every index of the tag), {@code :index} (an
     *             untagged input) or {@code *} (every input not declared otherwise).
     * @param type the packet's class: {@code long.class} or {@code double.class} for primitive
     *             packets (their boxes match too), a payload or frame class, or {@code Object.class}.
     * @return this.
     */
    public Contract inputType(final String key, final Class<?> type)
    {
        inputTypes.put(key, type);
        return this;
    }

    /**
     * Declares the packet type of outputs, as {@link #inputType(String, Class)} does for inputs.
     *
     * @param key  {@code TAG:index}, {@code TAG}, {@code :index} or {@code *}.
     * @param type the class of the packets the outputs carry, or {@code Object.class} for any.
     * @return this.
     */
    public Contract outputType(final String key, final Class<?> type)
    {
        outputTypes.put(key, type);
        return this;
    }

    /**
     * The declared input packet types, by key.
     *
     * @return an unmodifiable view.
     */
    public Map<String, Class<?>> inputTypes()
    {
        return Collections.unmodifiableMap(inputTypes);
    }

    /**
     * The declared output packet types, by key.
     *
     * @return an unmodifiable view.
     */
    public Map<String, Class<?>> outputTypes()
    {
        return Collections.unmodifiableMap(outputTypes);
    }

    /**
     * Asks for an input policy when the node's config names none (as MediaPipe's
     * {@code SetInputStreamHandler} in {@code GetContract}).
     *
     * @param policy the policy.
     * @return this.
     */
    public Contract inputPolicy(final InputPolicy policy)
    {
        this.inputPolicy = policy;
        return this;
    }

    /**
     * Asks the graph inputs to remember when each packet arrived, for
     * {@link CalculatorContext#graphInputNanos(long)}.
     *
     * @return this.
     */
    public Contract recordGraphInputArrivals()
    {
        this.recordsGraphInputArrivals = true;
        return this;
    }

    /**
     * Whether the calculator reads when graph input packets came ({@link CalculatorContext#graphInputNanos(long)}).
     *
     * @return true when declared.
     */
    public boolean recordsGraphInputArrivals()
    {
        return recordsGraphInputArrivals;
    }

    /**
     * The input policy the calculator declares, or null for the node's (or the default).
     *
     * @return the policy, or null.
     */
    public InputPolicy inputPolicy()
    {
        return inputPolicy;
    }

    /**
     * Whether {@code process} is called for a bound change with no packet.
     *
     * @return true when declared.
     */
    public boolean processTimestampBounds()
    {
        return processTimestampBounds;
    }

    /**
     * The declared options, by name, in declaration order.
     *
     * @return an unmodifiable view.
     */
    public Map<String, OptionSpec> options()
    {
        return Collections.unmodifiableMap(options);
    }

    /** One declared option: its name, type, default and, when restricted, its valid values. */
    public static final class OptionSpec
    {
        /** The option's name. */
        public final String name;
        /** The option's type. */
        public final OptionType type;
        /** Its value when the node sets none, or null. */
        public final Object defaultValue;
        Check check;

        OptionSpec(final String name, final OptionType type, final Object defaultValue)
        {
            this.name = name;
            this.type = type;
            this.defaultValue = defaultValue;
        }

        /**
         * Why a value (already of this option's type) is not valid.
         *
         * @param value the coerced value.
         * @return null if valid, else "valid is ..." naming the valid values.
         */
        public String invalid(final Object value)
        {
            return check == null ? null : check.invalid(type, value);
        }

        /** The valid values in words, or null if any value of the type is. */
        public String valid()
        {
            return check == null ? null : check.describe(type);
        }
    }

    /** A range (LONG, DOUBLE) or a list of valid values (STRING). */
    static final class Check
    {
        final double min;
        final boolean minInclusive;
        final double max;
        final long minLong;
        final long maxLong;
        final List<String> values;

        Check(final long min, final boolean minInclusive, final long max, final List<String> values)
        {
            this.min = min;
            this.minInclusive = minInclusive;
            this.max = max;
            this.minLong = min;
            this.maxLong = max;
            this.values = values;
        }

        Check(final double min, final boolean minInclusive, final double max, final List<String> values)
        {
            this.min = min;
            this.minInclusive = minInclusive;
            this.max = max;
            this.minLong = 0;
            this.maxLong = 0;
            this.values = values;
        }

        String invalid(final OptionType type, final Object value)
        {
            final boolean ok;
            switch (type)
            {
                case LONG:
                    final long l = (Long)value;
                    ok = l >= minLong && l <= maxLong;
                    break;
                case DOUBLE:
                    final double d = (Double)value;
                    ok = !Double.isNaN(d) && !Double.isInfinite(d) && (minInclusive ? d >= min : d > min) && d <= max;
                    break;
                case STRING:
                    ok = values.contains(value);
                    break;
                default:
                    ok = true;
            }
            return ok ? null : describe(type);
        }

        String describe(final OptionType type)
        {
            switch (type)
            {
                case LONG:
                    return "valid is " + minLong + ".." + maxLong;
                case DOUBLE:
                    return "valid is a finite number " + (minInclusive ? ">= " : "> ") + min +
                        (max == Double.MAX_VALUE ? "" : " and <= " + max);
                default:
                    return "valid are " + values;
            }
        }
    }
}
