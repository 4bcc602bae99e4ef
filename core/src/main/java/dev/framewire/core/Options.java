package dev.framewire.core;

import java.util.List;
import java.util.Map;

/**
 * A node's options, resolved from its config and its calculator's {@link Contract} defaults.
 *
 * <p>Threading: immutable.
 */
public final class Options
{
    private final String nodeName;
    private final Map<String, Object> values;
    private final List<OptionsExtension> extensions;

    /**
     * A node's option values.
     *
     * @param nodeName   the node, for errors.
     * @param values     the values by option name, defaults included.
     * @param extensions the node's typed extensions.
     */
    public Options(final String nodeName, final Map<String, Object> values, final List<OptionsExtension> extensions)
    {
        this.nodeName = nodeName;
        this.values = values;
        this.extensions = extensions;
    }

    /**
     * A MediaPipe options block of the node's config, kept as text ({@link OptionsExtension}).
     *
     * @param type the options message's full name, as {@code mediapipe.FlowLimiterCalculatorOptions}.
     * @return the block, or null if the config has none of that type.
     */
    public OptionsExtension extension(final String type)
    {
        for (final OptionsExtension extension : extensions)
        {
            if (extension.type().equals(type))
            {
                return extension;
            }
        }
        return null;
    }

    /**
     * A {@link OptionType#LONG} option.
     *
     * @param name the option.
     * @return its value.
     */
    public long getLong(final String name)
    {
        return ((Long)get(name, OptionType.LONG)).longValue();
    }

    /**
     * A {@link OptionType#DOUBLE} option.
     *
     * @param name the option.
     * @return its value.
     */
    public double getDouble(final String name)
    {
        return ((Double)get(name, OptionType.DOUBLE)).doubleValue();
    }

    /**
     * A {@link OptionType#BOOLEAN} option.
     *
     * @param name the option.
     * @return its value.
     */
    public boolean getBoolean(final String name)
    {
        return ((Boolean)get(name, OptionType.BOOLEAN)).booleanValue();
    }

    /**
     * A {@link OptionType#STRING} option.
     *
     * @param name the option.
     * @return its value.
     */
    public String getString(final String name)
    {
        return (String)get(name, OptionType.STRING);
    }

    /**
     * Whether the option has a value (given or defaulted).
     *
     * @param name the option.
     * @return true if it has one.
     */
    public boolean has(final String name)
    {
        return values.get(name) != null;
    }

    private Object get(final String name, final OptionType type)
    {
        final Object value = values.get(name);
        if (value == null)
        {
            throw new IllegalArgumentException("node '" + nodeName + "' has no value for option '" + name +
                "'; it has " + values.keySet());
        }
        if (type.coerce(value) == null)
        {
            throw new IllegalArgumentException("option '" + name + "' of node '" + nodeName + "' is " + value +
                ", not a " + type);
        }
        return value;
    }
}
