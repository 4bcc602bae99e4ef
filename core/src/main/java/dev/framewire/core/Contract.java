package dev.framewire.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a calculator declares before it runs: its options (name, type, default) and whether it
 * wants to be called when only timestamp bounds moved. The graph validates a node's options
 * against it, so a misspelt or mistyped option is a configuration error, not a surprise at run
 * time.
 *
 * <p>Threading: filled on the validating thread, read-only afterwards.
 */
public final class Contract
{
    private final Map<String, OptionSpec> options = new LinkedHashMap<>();
    private boolean processTimestampBounds;
    private InputPolicy inputPolicy;
    private boolean recordsGraphInputArrivals;

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

    boolean recordsGraphInputArrivals()
    {
        return recordsGraphInputArrivals;
    }

    InputPolicy inputPolicy()
    {
        return inputPolicy;
    }

    boolean processTimestampBounds()
    {
        return processTimestampBounds;
    }

    Map<String, OptionSpec> options()
    {
        return Collections.unmodifiableMap(options);
    }

    static final class OptionSpec
    {
        final String name;
        final OptionType type;
        final Object defaultValue;

        OptionSpec(final String name, final OptionType type, final Object defaultValue)
        {
            this.name = name;
            this.type = type;
            this.defaultValue = defaultValue;
        }
    }
}
